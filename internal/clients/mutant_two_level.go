package clients

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/locksim/locksim/lock"
)

// twoLevelLock is a lock of two levels, as spring-integration's
// RedisLockRegistry is (BR-35): a process-local mutex per key, shared by
// the threads (clients) of one process, taken first, then the Redis key
// (a random token, SET NX PX, compare-and-delete). A thread that finds the
// local lock taken is refused at once. The mutant releases the local lock
// only after the Redis release succeeded or found nothing (4.3.17's
// unlock): a release that errors, a connection issue, leaves the local
// lock held by a thread that will never release it, and no thread of the
// process can lock the key again. The fixed variant releases the local
// lock in a finally block, whatever Redis answered.
type twoLevelLock struct {
	single
	host    *Host
	finally bool

	mu     sync.Mutex
	locals map[string]*sync.Mutex // local lock held per token
}

var twoLevelLockAlgorithm = Algorithm{
	Name:   "two-level-lock",
	About:  "process-local lock per key, then the Redis key; a release that errors leaves the local lock held, so the process never locks the key again (spring-integration RedisLockRegistry 4.3)",
	New:    func(c Config) (Locker, error) { return newTwoLevel(c, "two-level-lock", false), nil },
	Traits: Traits{Traits: lock.Traits{ClientClock: true}},
}

var twoLevelLockFinallyAlgorithm = Algorithm{
	Name:   "two-level-lock-finally",
	About:  "process-local lock per key, then the Redis key; the local lock is released in a finally block whatever Redis answered",
	New:    func(c Config) (Locker, error) { return newTwoLevel(c, "two-level-lock-finally", true), nil },
	Traits: Traits{Traits: lock.Traits{ClientClock: true}},
}

func newTwoLevel(c Config, name string, finally bool) *twoLevelLock {
	h := c.Host
	if h == nil {
		h = NewHost(c.Client, "")
	}
	return &twoLevelLock{single: single{name: name, cfg: c, node: c.Nodes[0], cad: true},
		host: h, finally: finally, locals: map[string]*sync.Mutex{}}
}

// Acquire takes the process-local lock of key (refused when another thread
// of the process holds it), then the Redis key; a refused or failed Redis
// acquire gives the local lock back.
func (t *twoLevelLock) Acquire(ctx context.Context, key string) (Lease, error) {
	local := t.host.Local(key)
	if !local.TryLock() {
		return Lease{}, fmt.Errorf("local lock of %s held in process %s: %w", key, t.host.Name, ErrNotAcquired)
	}
	l, err := t.single.Acquire(ctx, key)
	if err != nil {
		local.Unlock()
		return l, err
	}
	t.mu.Lock()
	t.locals[l.Token] = local
	t.mu.Unlock()
	return l, nil
}

// Release removes the Redis key if it is still the lease's, then gives
// the local lock back: always (finally), or only when Redis answered.
func (t *twoLevelLock) Release(ctx context.Context, l Lease) error {
	err := t.single.Release(ctx, l)
	if t.finally || err == nil || errors.Is(err, ErrNotHeld) {
		t.mu.Lock()
		local := t.locals[l.Token]
		delete(t.locals, l.Token)
		t.mu.Unlock()
		if local != nil {
			local.Unlock()
		}
	}
	return err
}
