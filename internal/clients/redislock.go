package clients

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
)

// aboutRedislock is the `locksim list` line of the redislock adapter.
const aboutRedislock = "adapter: bsm/redislock on one node through locksim's proxy (Lua SET NX PX, compare-and-delete release, " +
	"Refresh = compare-and-PEXPIRE; no validity tracking on the client). " +
	"It measures time with Go's monotonic clock, so client clock faults (jumps, skew) do not reach it"

// defaultRedislockRetryDelay is the wait between attempts inside one Acquire
// when Tries > 1 and no RetryDelay is given (redislock has no default).
const defaultRedislockRetryDelay = 50 * time.Millisecond

// redislockLocker adapts a redislock.Client on the client's proxied
// connection to the first node (lock-theory §5.3).
//
// redislock's Lock has unexported fields, so the adapter keeps the Lock of
// every lease it granted, by token, until it is released. The token is drawn
// from the run's seeded source (Options.Token, the library's own 16-byte
// base64 format), so tokens are reproducible; the library's re-obtain branch
// (same token already stored) never fires since tokens are fresh. The
// library tracks no validity: a Lease's ValidUntil is the start of Obtain
// plus the TTL on the system clock, what its README tells users to assume.
type redislockLocker struct {
	cfg    Config
	node   Node
	client *redislock.Client
	ref    *refresher

	mu    sync.Mutex
	locks map[string]*redislock.Lock
}

// redislockAlgorithm wraps one connection (one node only) and tracks no
// validity (no drift factor); its monotonic clock keeps client clock faults
// away.
var redislockAlgorithm = Algorithm{
	Name:   "redislock",
	About:  aboutRedislock,
	New:    newRedislock,
	Traits: Traits{Traits: lock.Traits{SingleNode: true}, Library: true},
}

func newRedislock(c Config) (Locker, error) {
	sc, ok := c.Nodes[0].Cmd.(redis.Scripter)
	if !ok {
		return nil, fmt.Errorf("redislock: node %s: %T cannot run scripts", c.Nodes[0].Name, c.Nodes[0].Cmd)
	}
	lib := c.Library
	if lib.Tries < 0 || lib.RetryDelay < 0 || lib.Refresh < 0 {
		return nil, fmt.Errorf("redislock: negative library option in %+v", lib)
	}
	if lib.DriftFactor != nil {
		return nil, errors.New("redislock: it has no drift factor (it tracks no validity on the client)")
	}
	return &redislockLocker{cfg: c, node: c.Nodes[0], client: redislock.New(sc), ref: newRefresher(c),
		locks: map[string]*redislock.Lock{}}, nil
}

func (r *redislockLocker) Name() string { return "redislock" }

// retry is the library's retry strategy for Tries attempts.
func (r *redislockLocker) retry() redislock.RetryStrategy {
	lib := r.cfg.Library
	if libraryTries(lib) == 1 {
		return redislock.NoRetry()
	}
	delay := lib.RetryDelay
	if delay <= 0 {
		delay = defaultRedislockRetryDelay
	}
	return redislock.LimitRetry(redislock.LinearBackoff(delay), libraryTries(lib)-1)
}

// Acquire runs Obtain. ErrNotObtained is definite; any other error (a
// network error, the context ending) is unknown.
func (r *redislockLocker) Acquire(ctx context.Context, key string) (Lease, error) {
	token := libraryToken(r.cfg.Rand, base64.RawURLEncoding)
	start := time.Now()
	lk, err := r.client.Obtain(ctx, key, r.cfg.TTL, &redislock.Options{RetryStrategy: r.retry(), Token: token})
	switch {
	case errors.Is(err, redislock.ErrNotObtained):
		return Lease{}, fmt.Errorf("%w: %v", ErrNotAcquired, err)
	case err != nil:
		return Lease{}, fmt.Errorf("redislock: obtain on %s, outcome unknown: %w", r.node.Name, err)
	}
	l := Lease{Key: key, Token: lk.Token(), ValidUntil: start.Add(r.cfg.TTL), Nodes: []string{r.node.Name}}
	r.mu.Lock()
	r.locks[l.Token] = lk
	r.mu.Unlock()
	r.ref.start(l.Token, r.cfg.TTL, func(ctx context.Context) error {
		_, err := r.Extend(ctx, l)
		return err
	})
	return l, nil
}

func (r *redislockLocker) lock(l Lease) (*redislock.Lock, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	lk := r.locks[l.Token]
	if lk == nil || lk.Key() != l.Key {
		return nil, fmt.Errorf("redislock: %w", errUnknownOwner)
	}
	return lk, nil
}

// Release runs the Lock's Release. ErrLockNotHeld is definite (ErrNotHeld).
func (r *redislockLocker) Release(ctx context.Context, l Lease) error {
	r.ref.stop(l.Token)
	lk, err := r.lock(l)
	if err != nil {
		return err
	}
	err = lk.Release(ctx)
	switch {
	case err == nil:
	case errors.Is(err, redislock.ErrLockNotHeld):
		err = fmt.Errorf("%w: %v", ErrNotHeld, err)
	default:
		return fmt.Errorf("redislock: release on %s, outcome unknown: %w", r.node.Name, err)
	}
	r.mu.Lock()
	delete(r.locks, l.Token)
	r.mu.Unlock()
	return err
}

// Extend runs the Lock's Refresh with the TTL. ErrNotObtained (the key is
// gone or another owner's) is definite (ErrNotHeld).
func (r *redislockLocker) Extend(ctx context.Context, l Lease) (Lease, error) {
	lk, err := r.lock(l)
	if err != nil {
		return l, err
	}
	start := time.Now()
	err = lk.Refresh(ctx, r.cfg.TTL, nil)
	switch {
	case err == nil:
		l.ValidUntil = start.Add(r.cfg.TTL)
		return l, nil
	case errors.Is(err, redislock.ErrNotObtained):
		return l, fmt.Errorf("%w: %v", ErrNotHeld, err)
	}
	return l, fmt.Errorf("redislock: refresh on %s, outcome unknown: %w", r.node.Name, err)
}
