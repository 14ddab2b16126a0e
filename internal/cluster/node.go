package cluster

import (
	"context"
	"errors"
	"fmt"
	"github.com/redis/go-redis/v9"
	"log/slog"
	"sync"
	"time"
)

// Node states returned by Node.State.
const (
	// StateRunning: the node serves commands.
	StateRunning = "running"
	// StatePaused: the node is stopped (SIGSTOP, or the embedded equivalent);
	// connections are accepted but commands get no answer until Resume.
	StatePaused = "paused"
	// StateDown: the node was killed (or crashed) and is not listening.
	StateDown = "down"
)

// ErrNodeNotRunning is returned by operations that need a running node (for
// example ShiftClock on a paused or killed node, or Pause on a killed one).
var ErrNodeNotRunning = errors.New("node is not running")

// nodeImpl is one backend's node. Calls are serialised by Node.mu.
type nodeImpl interface {
	start(ctx context.Context) error // first start: pick a port, create the dir
	restart(ctx context.Context) error
	kill() error
	pause() error
	resume() error
	shiftClock(ctx context.Context, delta time.Duration) (int, error)
	version(ctx context.Context) (string, error)
	flush(ctx context.Context) error // FLUSHALL (Reset)
	adminClient() *redis.Client      // the harness's direct connection; nil when down
	addr() string
	pid() int
	dir() string
	state() string
	close() error // kill and remove every resource; idempotent
}

// Node is one Redis node of a Cluster. Its methods are safe for concurrent
// use; fault operations on one node are serialised.
type Node struct {
	name  string
	index int
	impl  nodeImpl
	log   *slog.Logger
	// persistence is the node's persistence as configured ("none",
	// "aof-everysec", "aof-always"); for an external node, what the
	// options declared (its own config decides).
	persistence string
	// role is RoleReplica or RoleSentinel ("" for a master); group is a
	// replica's master (its replication group).
	role, group string

	mu     sync.Mutex
	closed bool
	// killed is set by Kill (and cleared by Restart): a node that is down
	// without it died on its own.
	killed bool
	// pauses counts the Pause calls no Resume has matched yet (pauses
	// nest; Kill, Restart and HealAll clear them).
	pauses int
}

// Name returns the node name, "n1".."nN".
func (n *Node) Name() string { return n.name }

// Persistence is the node's persistence: "none", "aof-everysec" or
// "aof-always" (whether a killed node comes back with its keys).
func (n *Node) Persistence() string { return n.persistence }

// Index returns the 0-based node index.
func (n *Node) Index() int { return n.index }

// Addr returns the node's direct "127.0.0.1:port"; it stays the same across
// Kill and Restart.
func (n *Node) Addr() string { return n.impl.addr() }

// PID returns the redis-server process id of a local node while it runs (0
// when down, and always 0 for embedded nodes).
func (n *Node) PID() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.impl.pid()
}

// Dir returns the node's data dir (local backend), or "" (embedded).
func (n *Node) Dir() string { return n.impl.dir() }

// State returns StateRunning, StatePaused or StateDown. A local node whose
// process died by itself reports StateDown.
func (n *Node) State() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.impl.state()
}

func (n *Node) do(op string, f func() error) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return fmt.Errorf("%s node %s: %w", op, n.name, ErrClosed)
	}
	if err := f(); err != nil {
		return fmt.Errorf("%s node %s: %w", op, n.name, err)
	}
	n.log.Debug("node fault", "op", op, "node", n.name)
	return nil
}

// Kill crashes the node: kill -9 of its process group (local), or closing
// the miniredis server (embedded). Open connections are cut. What survives a
// Restart depends on Options.Persistence (none: nothing; aof-*: every
// acknowledged write, lock-theory §6.4). Killing a down node is a no-op.
func (n *Node) Kill() error {
	return n.do("kill", func() error {
		n.killed, n.pauses = true, 0
		return n.impl.kill()
	})
}

// DiedOnItsOwn reports whether the node is down although nobody killed it
// (its process exited or crashed by itself), with the tail of its log for
// the error message (local nodes; "" otherwise). Such a run has no verdict:
// its history was not made by the scenario's faults.
func (n *Node) DiedOnItsOwn() (bool, string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed || n.killed || n.impl.state() != StateDown {
		return false, ""
	}
	if l, ok := n.impl.(interface{ logTail(int64) string }); ok {
		return true, l.logTail(0)
	}
	return true, ""
}

// Restart starts the node again on the same port with the same dir and
// persistence, so AOF reloads keys (with their absolute expiry: time kept
// running while it was down) and no persistence gives an empty node. A
// running or paused node is killed first, so Restart alone is a crash-restart.
// Errors name the node and, for local nodes, include the tail of its log.
func (n *Node) Restart(ctx context.Context) error {
	return n.do("restart", func() error {
		if n.impl.state() != StateDown {
			if err := n.impl.kill(); err != nil {
				return err
			}
		}
		n.killed, n.pauses = false, 0
		return n.impl.restart(ctx)
	})
}

// Pause freezes the node: SIGSTOP to its process group (local). Embedded:
// every command (including those arriving on new connections, which are
// still accepted) blocks before it executes until Resume, which is what a
// SIGSTOPped server looks like to a client; the miniredis clock keeps
// running, so keys expire as on a real paused Redis. Pauses nest, as a
// client's freezes do (faults.Gate): a node paused twice runs again at the
// second Resume, so two overlapping pause steps keep it stopped until the
// later one ends (a late step's SIGCONT once ended the other's stop while
// its record said the node was stopped). Pausing a down node returns
// ErrNodeNotRunning.
func (n *Node) Pause() error {
	return n.do("pause", func() error {
		if err := n.impl.pause(); err != nil {
			return err
		}
		n.pauses++
		return nil
	})
}

// Resume undoes one Pause (SIGCONT for local nodes, at the last one): queued
// commands run. A running node is left alone; a down node returns
// ErrNodeNotRunning.
func (n *Node) Resume() error {
	return n.do("resume", func() error {
		if n.pauses > 1 && n.impl.state() == StatePaused {
			n.pauses--
			return nil
		}
		n.pauses = 0
		return n.impl.resume()
	})
}

// resumeAll resumes the node whatever number of pauses is in force
// (HealAll).
func (n *Node) resumeAll() error {
	return n.do("resume", func() error {
		n.pauses = 0
		return n.impl.resume()
	})
}

// ShiftClock emulates a step of the node's wall clock by delta
// (lock-theory §6.3): every volatile key of database 0 gets new PTTL = PTTL −
// delta and is deleted when that is ≤ 0; delta < 0 is a backward jump (keys
// live longer). Local: one atomic Lua script. Embedded: miniredis
// FastForward for delta > 0, the same Lua script for delta < 0. Keys set
// afterwards are unaffected, as after a real one-off step. Resolution is 1 ms.
// Returns ErrNodeNotRunning when the node is paused or down, or ctx's error.
func (n *Node) ShiftClock(ctx context.Context, delta time.Duration) error {
	return n.do("shift clock of", func() error {
		if delta == 0 {
			return nil
		}
		cnt, err := n.impl.shiftClock(ctx, delta)
		if err != nil {
			return err
		}
		n.log.Debug("clock shifted", "node", n.name, "delta", delta, "keys", cnt)
		return nil
	})
}

// DeleteKey deletes key on the node over the harness's direct connection
// (not through any client's proxy), as a janitor or an operator would: by
// key, whatever its owner. Returns ErrNodeNotRunning when the node is
// paused or down.
func (n *Node) DeleteKey(ctx context.Context, key string) error {
	return n.do("delete a key on", func() error {
		if n.impl.state() != StateRunning {
			return ErrNodeNotRunning
		}
		c := n.impl.adminClient()
		if c == nil {
			return ErrNodeNotRunning
		}
		deleted, err := c.Del(ctx, key).Result()
		if err != nil {
			return err
		}
		n.log.Debug("key deleted", "node", n.name, "key", key, "existed", deleted > 0)
		return nil
	})
}

func (n *Node) close() error {
	// An rdb node's snapshot timer takes n.mu (Snapshot): stop it before
	// holding n.mu, or a snapshot due while the cluster closes waits for
	// the lock that close holds while it waits for the timer to stop.
	if ln, ok := n.impl.(*localNode); ok {
		ln.bg.stop()
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return nil
	}
	n.closed = true
	if err := n.impl.close(); err != nil {
		return fmt.Errorf("close node %s: %w", n.name, err)
	}
	return nil
}

// pool gives a master's redis-server without persistence back to the
// process's idle pool, flushed, instead of stopping it (Options.Pooled);
// false, the node untouched, when it cannot go there (giveBack).
func (n *Node) pool() bool {
	ln, ok := n.impl.(*localNode)
	if !ok || n.role != "" {
		return false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed || n.pauses > 0 || !giveBack(ln) {
		return false
	}
	n.closed = true
	return true
}

// shiftScript implements ShiftClock (lock-theory §6.3) over every key of the
// selected database. ARGV[1] = delta in ms. Returns the number of volatile
// keys touched. Time is frozen during a script, so the shift is atomic.
const shiftScript = `
local d = tonumber(ARGV[1])
local n = 0
for _, k in ipairs(redis.call('KEYS', '*')) do
  local p = redis.call('PTTL', k)
  if p > 0 then
    local t = p - d
    if t <= 0 then redis.call('DEL', k) else redis.call('PEXPIRE', k, t) end
    n = n + 1
  end
end
return n
`

// deltaMillis converts a clock step to whole milliseconds, rounding away from
// zero so that a non-zero step is never lost.
func deltaMillis(d time.Duration) int64 {
	ms := d.Milliseconds()
	if d%time.Millisecond != 0 {
		if d > 0 {
			ms++
		} else {
			ms--
		}
	}
	return ms
}
