package clients

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/lock"
)

// The WAIT locks (issue 17, BR-20, lock-theory S23): safe and fenced, each
// followed by WAIT so that the grant counts only once replicas have the
// key.
//
// What WAIT does, in Redis's own words (redis.io, WAIT command): it
// "blocks the current client until all the previous write commands are
// successfully transferred and acknowledged by at least the number of
// replicas you specify", or until the timeout, and "will always return
// the number of replicas that acknowledged the write commands sent by the
// current client before the WAIT command" either way. What it does not: "WAIT
// does not make Redis a strongly consistent store"; after a failover
// "it is more likely (but not guaranteed)" that a replica that received
// the write is promoted, since Sentinel makes "a best-effort attempt to
// promote the best replica among the set of available replicas" — and
// "it is possible to still lose a write synchronously replicated to
// multiple replicas". Sentinel picks among the replicas it can reach by
// replica-priority first and replication offset second (redis.io, "Redis
// Sentinel", replica selection): so WAIT 1 with one replica survives one
// failover, and WAIT 1 with two replicas does not when the one that
// acknowledged is gone with the master. An acknowledgement is also not a
// write to disk on the replica (redis.io, "Redis replication": a replica
// acknowledges what it processed).
//
// Here: the acquire (SET NX PX, or the fenced script) runs on the master;
// then WAIT numreplicas timeout, timeout three quarters of the command
// timeout (Config.OpTimeout, or TTL/3). Fewer acknowledgements than asked
// for: the lock is given back at once (compare-and-delete on the master)
// and the acquire says ErrNotAcquired; if that delete's outcome is
// unknown, so is the acquire's. safe-wait asks for 1; safe-wait-all for
// every replica the master counts (INFO replication connected_slaves, at
// least 1), Redisson's checkLockSyncedSlaves (Redisson's Config.java:
// checkLockSyncedSlaves true, slavesSyncTimeout 1000 ms) that made
// "none of slaves were synced" its users' error (redisson #4706).

var safeWaitAlgorithm = Algorithm{
	Name:   "safe-wait",
	About:  "safe, then WAIT 1: the grant counts once one replica acknowledged the key (best effort: a failover may still promote a replica without it)",
	New:    func(c Config) (Locker, error) { return newWait("safe-wait", c, false, 1), nil },
	Traits: Traits{Traits: lock.Traits{ClientClock: true}},
}

var safeWaitAllAlgorithm = Algorithm{
	Name:   "safe-wait-all",
	About:  "safe, then WAIT for every connected replica (Redisson's checkLockSyncedSlaves): refused while any replica lags",
	New:    func(c Config) (Locker, error) { return newWait("safe-wait-all", c, false, waitAll), nil },
	Traits: Traits{Traits: lock.Traits{ClientClock: true}},
}

var fencedWaitAlgorithm = Algorithm{
	Name:   "fenced-wait",
	About:  "fenced, then WAIT 1: the lock key and its fence counter reach one replica before the token is used",
	New:    func(c Config) (Locker, error) { return newWait("fenced-wait", c, true, 1), nil },
	Traits: Traits{Traits: lock.Traits{Fenced: true, ClientClock: true}},
}

func init() {
	Register(safeWaitAlgorithm)
	Register(safeWaitAllAlgorithm)
	Register(fencedWaitAlgorithm)
}

// waitAll asks WAIT for every replica the master counts.
const waitAll = -1

// waitLock is a single-instance lock whose acquire ends with WAIT.
type waitLock struct {
	single
	replicas int // numreplicas for WAIT, or waitAll
}

func newWait(name string, c Config, fenced bool, replicas int) *waitLock {
	return &waitLock{single: single{name: name, cfg: c, node: c.Nodes[0], cad: true, fenced: fenced}, replicas: replicas}
}

// ErrNotReplicated wraps ErrNotAcquired when WAIT got fewer
// acknowledgements than asked for.
var ErrNotReplicated = fmt.Errorf("%w: too few replicas acknowledged", ErrNotAcquired)

func (w *waitLock) waitTimeout() time.Duration {
	t := w.cfg.OpTimeout
	if t <= 0 {
		t = w.cfg.TTL / 3
	}
	return max(t*3/4, time.Millisecond)
}

// Acquire takes the lock on the master, then WAITs for the replicas.
func (w *waitLock) Acquire(ctx context.Context, key string) (Lease, error) {
	l, err := w.single.Acquire(ctx, key)
	if err != nil {
		return l, err
	}
	want := w.replicas
	if want == waitAll {
		want, err = connectedReplicas(ctx, w.node.Cmd)
		if err != nil {
			return Lease{}, w.giveBack(ctx, l, fmt.Errorf("count replicas on %s: %w", w.node.Name, err))
		}
	}
	waiter, ok := w.node.Cmd.(interface {
		Wait(ctx context.Context, numSlaves int, timeout time.Duration) *redis.IntCmd
	})
	if !ok {
		return Lease{}, w.giveBack(ctx, l, fmt.Errorf("the connection to %s cannot send WAIT", w.node.Name))
	}
	got, err := waiter.Wait(ctx, want, w.waitTimeout()).Result()
	if err != nil {
		return Lease{}, w.giveBack(ctx, l, fmt.Errorf("wait on %s: %w", w.node.Name, err))
	}
	if got < int64(want) {
		return Lease{}, w.giveBack(ctx, l, fmt.Errorf("%w (%d of %d)", ErrNotReplicated, got, want))
	}
	return l, nil
}

// giveBack deletes a grant that does not count; the acquire's error is
// why unless the delete's outcome is unknown, which makes it unknown too.
func (w *waitLock) giveBack(ctx context.Context, l Lease, why error) error {
	err := w.single.Release(context.WithoutCancel(ctx), l)
	switch {
	case err == nil, errors.Is(err, ErrNotHeld):
		if errors.Is(why, ErrNotAcquired) {
			return why
		}
		return fmt.Errorf("%w: %v (the key was removed again)", ErrNotAcquired, why)
	default:
		// The acquire failed as why did (its WAIT's lost connection),
		// not as the give-back (a dead master's refused dial).
		return &history.FailedAs{Err: fmt.Errorf("acquire outcome unknown: %v; giving the key back failed: %w", why, err), Cause: why}
	}
}

// connectedReplicas reads connected_slaves of INFO replication (at least 1:
// WAIT 0 would return at once).
func connectedReplicas(ctx context.Context, c redis.Cmdable) (int, error) {
	info, err := c.Info(ctx, "replication").Result()
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "connected_slaves:"); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				return 0, err
			}
			return max(n, 1), nil
		}
	}
	return 1, nil
}
