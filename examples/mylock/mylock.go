// Package mylock is a lock adapter written outside locksim, as a user of
// the public API would write one: bsm/redislock behind lock.Locker.
package mylock

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
)

// Algorithm is the lock's registration: its name, constructor and traits,
// declared once and used by the tests and the binary alike.
var Algorithm = lock.Algorithm{
	Name:  "my-lock",
	About: "bsm/redislock on one node, adapted outside locksim (examples/mylock)",
	New:   New,
	// One connection, one node; it measures time with Go's own clock, so
	// client clock faults do not reach it (ClientClock false).
	Traits: lock.Traits{SingleNode: true},
}

// myLock adapts bsm/redislock to lock.Locker.
type myLock struct {
	client *redislock.Client
	ttl    time.Duration
	mu     sync.Mutex
	held   map[string]*redislock.Lock // by token, for Release
}

// New builds one client's lock on its proxied connection to the node.
func New(c lock.Config) (lock.Locker, error) {
	cmd, ok := c.Nodes[0].Cmd.(redis.Scripter) // the client's proxied connection
	if !ok {
		return nil, errors.New("mylock: the node's client cannot run scripts")
	}
	return &myLock{client: redislock.New(cmd), ttl: c.TTL, held: map[string]*redislock.Lock{}}, nil
}

func (m *myLock) Name() string { return "my-lock" }

// Acquire obtains the lock once: ErrNotObtained is a definite refusal,
// anything else unknown.
func (m *myLock) Acquire(ctx context.Context, key string) (lock.Lease, error) {
	start := time.Now()
	lk, err := m.client.Obtain(ctx, key, m.ttl, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return lock.Lease{}, lock.ErrNotAcquired // definitely not granted
	} else if err != nil {
		return lock.Lease{}, err // anything else: the outcome is unknown
	}
	m.mu.Lock()
	m.held[lk.Token()] = lk
	m.mu.Unlock()
	return lock.Lease{Key: key, Token: lk.Token(), ValidUntil: start.Add(m.ttl)}, nil
}

// Release releases through the library: ErrLockNotHeld is definite.
func (m *myLock) Release(ctx context.Context, l lock.Lease) error {
	m.mu.Lock()
	lk := m.held[l.Token]
	delete(m.held, l.Token)
	m.mu.Unlock()
	if lk == nil {
		return lock.ErrNotHeld
	}
	err := lk.Release(ctx)
	if errors.Is(err, redislock.ErrLockNotHeld) {
		return lock.ErrNotHeld
	}
	return err
}
