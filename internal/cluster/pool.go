package cluster

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// MaxIdleNodes bounds the process's pool of idle nodes (Options.Pooled):
// an idle redis-server at hz 10 costs about 2 ms of CPU a second, its
// start and stop about 42 ms (measured: 20 starts of redis-server 7.0,
// 23 ms user and 19 ms system each).
const MaxIdleNodes = 32

// idle is the process's pool of started redis-server nodes without
// persistence, flushed, kept between clusters started with
// Options.Pooled (issue 32: a catalogue started 350 redis-servers for its
// 152 runs, a fifth of its CPU, as consecutive runs of a worker seldom
// have the same shape and so cannot reuse its whole cluster).
var idle struct {
	mu    sync.Mutex
	nodes map[string][]*localNode // by redis-server binary
}

// runHz and idleHz are a node's background ticks a second (Redis's hz)
// while a run has it and while it waits in the idle pool. A run gets
// Redis's own default of 10 (see localNode.args); an idle node has no
// key and no client but the pool's, so nothing waits on its ticks, and at
// 1 it costs under 0.5 ms of CPU a second where it cost 2.5 at 10
// (measured: one idle redis-server 7.0, 20 s each way, /proc/PID/stat).
const (
	runHz  = "10"
	idleHz = "1"
)

// takeIdle returns an idle node of binary bin, renamed name, its ticks
// back at runHz, or nil.
func takeIdle(ctx context.Context, bin, name string, log *slog.Logger) *localNode {
	for {
		n := popIdle(bin)
		if n == nil {
			return nil
		}
		if n.state() != StateRunning || n.admin.ConfigSet(ctx, "hz", runHz).Err() != nil {
			_ = n.close() // died while idle, or cannot tick again: never handed out
			continue
		}
		n.name, n.log = name, log
		return n
	}
}

// popIdle takes the last idle node of binary bin out of the pool, or nil.
func popIdle(bin string) *localNode {
	idle.mu.Lock()
	defer idle.mu.Unlock()
	ns := idle.nodes[bin]
	if len(ns) == 0 {
		return nil
	}
	n := ns[len(ns)-1]
	idle.nodes[bin] = ns[:len(ns)-1]
	return n
}

// giveBack empties n (FLUSHALL, SCRIPT FLUSH) and keeps it in the idle
// pool; false, with n untouched, when n cannot go there (a node with
// persistence or a role, one not running or paused, a full pool, a
// flush that failed): the caller then closes it.
func giveBack(n *localNode) bool {
	if n.persistence != PersistenceNone || n.sentinel || n.replicaOf != "" || n.state() != StateRunning || n.bg != nil {
		return false
	}
	idle.mu.Lock()
	full := countIdle() >= MaxIdleNodes
	idle.mu.Unlock()
	if full {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := n.flush(ctx); err != nil {
		return false
	}
	if err := n.admin.ConfigSet(ctx, "hz", idleHz).Err(); err != nil {
		return false
	}
	idle.mu.Lock()
	defer idle.mu.Unlock()
	if idle.nodes == nil {
		idle.nodes = map[string][]*localNode{}
	}
	idle.nodes[n.bin] = append(idle.nodes[n.bin], n)
	return true
}

// countIdle is the number of idle nodes; the caller holds idle.mu.
func countIdle() int {
	total := 0
	for _, ns := range idle.nodes {
		total += len(ns)
	}
	return total
}

// IdleNodes is the number of nodes in the process's idle pool.
func IdleNodes() int {
	idle.mu.Lock()
	defer idle.mu.Unlock()
	return countIdle()
}

// DrainPool stops every idle node of the process's pool (Options.Pooled)
// and removes its dir; a suite calls it when it ends, KillAll at a second
// Ctrl-C. Clusters still open keep their nodes, and give them back to the
// pool when they close.
func DrainPool() error {
	idle.mu.Lock()
	var all []*localNode
	for _, ns := range idle.nodes {
		all = append(all, ns...)
	}
	idle.nodes = nil
	idle.mu.Unlock()
	var errs []error
	for _, n := range all {
		if err := n.close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
