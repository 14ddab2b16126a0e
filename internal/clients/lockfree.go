package clients

import (
	"context"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
)

// noLock is the negative control: Acquire always succeeds at once, so any
// workload run under it shows what no mutual exclusion does.
type noLock struct {
	name string
	cfg  Config
}

var noLockAlgorithm = Algorithm{
	Name:   "no-lock",
	About:  "negative control: Acquire always succeeds at once; no mutual exclusion at all",
	New:    newNoLock,
	Traits: Traits{Traits: lock.Traits{ClientClock: true}, Control: true, NoLock: true},
}

var atomicLuaAlgorithm = Algorithm{
	Name:   "atomic-lua",
	About:  "no lock: one Lua script checks the stock and decrements it atomically on Redis (lesson 48, S18)",
	New:    newLockFree("atomic-lua"),
	Traits: Traits{Traits: lock.Traits{Workloads: []string{"inventory"}}, LockFree: true},
}

var idempotencyKeyAlgorithm = Algorithm{
	Name:   "idempotency-key",
	About:  "no lock: each charge carries the invoice as an idempotency key; the gateway refuses a second charge with the same key (lesson 48, S19)",
	New:    newLockFree("idempotency-key"),
	Traits: Traits{Traits: lock.Traits{Workloads: []string{"payment"}}, LockFree: true, IdempotencyKey: true},
}

func newNoLock(c Config) (Locker, error) { return &noLock{name: "no-lock", cfg: c}, nil }

// newLockFree builds the placeholder Locker of an algorithm that takes no
// lock at all (the runner never calls it; see Traits.LockFree).
func newLockFree(name string) func(Config) (Locker, error) {
	return func(c Config) (Locker, error) { return &noLock{name: name, cfg: c}, nil }
}

func (n *noLock) Name() string { return n.name }

// Acquire grants at once, touching nothing.
func (n *noLock) Acquire(_ context.Context, key string) (Lease, error) {
	return Lease{Key: key, Token: newToken(n.cfg.Rand), ValidUntil: n.cfg.Clock.Now().Add(n.cfg.TTL)}, nil
}

// Release removes nothing (there is no key), and says so: ErrNotHeld.
func (n *noLock) Release(context.Context, Lease) error { return ErrNotHeld }

var defaultShared = NewShared()

// controlMutex is the positive control: a mutex in the harness's own memory
// that every client of the run shares. No Redis, no TTL, no network: a
// paused holder keeps it until it releases, so it is correct by
// construction.
type controlMutex struct {
	cfg    Config
	shared *Shared
}

var controlMutexAlgorithm = Algorithm{
	Name:   "control-mutex",
	About:  "positive control: one in-process mutex shared by every client of the run, no Redis; correct by construction",
	New:    newControlMutex,
	Traits: Traits{Traits: lock.Traits{ClientClock: true}, Control: true, InProcess: true},
}

func newControlMutex(c Config) (Locker, error) {
	s := c.Shared
	if s == nil {
		s = defaultShared
	}
	return &controlMutex{cfg: c, shared: s}, nil
}

func (m *controlMutex) Name() string { return "control-mutex" }

// Acquire takes the key's mutex if it is free (TryLock); ErrNotAcquired
// otherwise.
func (m *controlMutex) Acquire(ctx context.Context, key string) (Lease, error) {
	if err := ctx.Err(); err != nil {
		return Lease{}, ErrNotAcquired // nothing was done
	}
	token := newToken(m.cfg.Rand)
	granted := false
	m.shared.Do(func(holders map[string]string) {
		if holders[key] == "" {
			holders[key], granted = token, true
		}
	})
	if !granted {
		return Lease{}, ErrNotAcquired
	}
	return Lease{Key: key, Token: token, ValidUntil: m.cfg.Clock.Now().Add(m.cfg.TTL)}, nil
}

// Release frees the key's mutex if the lease holds it; ErrNotHeld
// otherwise.
func (m *controlMutex) Release(_ context.Context, l Lease) error {
	held := false
	m.shared.Do(func(holders map[string]string) {
		if held = l.Token != "" && holders[l.Key] == l.Token; held {
			delete(holders, l.Key)
		}
	})
	if !held {
		return ErrNotHeld
	}
	return nil
}

// atomicDecrement is the lock-free sale of lesson 48 (lock-theory S18): the
// check and the decrement run as one script, which Redis runs atomically.
var atomicDecrement = redis.NewScript(`
local s = tonumber(redis.call('GET', KEYS[1]))
if s ~= nil and s > 0 then
  return redis.call('DECR', KEYS[1])
end
return -1`)

// ErrOutOfStock is AtomicDecrement's definite refusal.
var ErrOutOfStock = errors.New("out of stock")

// AtomicDecrement sells one unit of the stock key in one Lua script: it
// returns the stock left, ErrOutOfStock when there was none (nothing
// changed), or another error when the outcome is unknown.
func AtomicDecrement(ctx context.Context, node Node, key string) (int64, error) {
	n, err := atomicDecrement.Run(ctx, node.Cmd, []string{key}).Int64()
	if err != nil {
		return 0, fmt.Errorf("atomic decrement on %s: %w", node.Name, err)
	}
	if n < 0 {
		return 0, ErrOutOfStock
	}
	return n, nil
}
