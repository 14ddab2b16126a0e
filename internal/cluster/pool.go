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

// takeIdle returns an idle node of binary bin, renamed name, or nil.
func takeIdle(bin, name string, log *slog.Logger) *localNode {
	idle.mu.Lock()
	defer idle.mu.Unlock()
	for ns := idle.nodes[bin]; len(ns) > 0; ns = idle.nodes[bin] {
		n := ns[len(ns)-1]
		idle.nodes[bin] = ns[:len(ns)-1]
		if n.state() != StateRunning {
			_ = n.close() // died while idle: never handed out
			continue
		}
		n.name, n.log = name, log
		return n
	}
	return nil
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
