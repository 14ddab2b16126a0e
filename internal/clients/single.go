package clients

import (
	"context"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
	"github.com/locksim/locksim/lock/lockkit"
)

// compareAndDelete removes the key only while it still holds the caller's
// owner token (lockkit.CompareAndDelete).
var compareAndDelete = lockkit.CompareAndDelete

// fencedAcquire sets the lock key and increments a never-expiring fence
// counter in one script, so tokens are issued in grant order on this node
// (lock-theory §7.1; what Redisson's RFencedLock does).
var fencedAcquire = redis.NewScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return false`)

// single is a single-instance lock; the fields choose the variant.
type single struct {
	name   string
	cfg    Config
	node   Node
	fenced bool // acquire with fencedAcquire
	cad    bool // release with compareAndDelete (else plain DEL)
}

var naiveAlgorithm = singleVariant("naive",
	"SET NX PX to acquire, plain DEL to release (can delete another client's lock)",
	lock.Traits{DeletesByKey: true}, single{})

var safeAlgorithm = singleVariant("safe",
	"random owner token, compare-and-delete Lua release (redis.io distlock, single instance)",
	lock.Traits{}, single{cad: true})

var fencedAlgorithm = singleVariant("fenced",
	"safe lock whose acquire script also INCRs a fence counter: a fencing token per grant (Kleppmann 2016)",
	lock.Traits{Fenced: true}, single{cad: true, fenced: true})

// singleVariant registers a single-instance lock named name, reading the
// client clock, with traits t besides: each client's lock is v (its
// variant's fields) on the first node.
func singleVariant(name, about string, t lock.Traits, v single) Algorithm {
	t.ClientClock = true
	return Algorithm{Name: name, About: about, Traits: Traits{Traits: t},
		New: func(c Config) (Locker, error) {
			s := v
			s.name, s.cfg, s.node = name, c, c.Nodes[0]
			return &s, nil
		}}
}

func (s *single) Name() string { return s.name }

// FenceKey is the key of the fence counter for a lock key.
func FenceKey(key string) string { return "fence:{" + key + "}" }

// kit is the safe lock of the public building blocks (lockkit.Safe) on
// the same node, with the client's TTL, clock and random source.
func (s *single) kit() (*lockkit.Safe, error) { return lockkit.NewSafe(s.name, s.cfg.Config) }

// Acquire sets the key with NX PX TTL (lockkit.Safe), or, fenced, with
// the script that also increments the fence counter. The lease's
// ValidUntil is measured from the moment before the command was sent, on
// the client's clock.
func (s *single) Acquire(ctx context.Context, key string) (Lease, error) {
	if !s.fenced {
		k, err := s.kit()
		if err != nil {
			return Lease{}, err
		}
		return k.Acquire(ctx, key)
	}
	token := lockkit.NewToken(s.cfg.Rand)
	start := s.cfg.Clock.Now()
	l := Lease{Key: key, Token: token, ValidUntil: start.Add(s.cfg.TTL), Nodes: []string{s.node.Name}}
	fence, err := fencedAcquire.Run(ctx, s.node.Cmd, []string{key, FenceKey(key)}, token, lockkit.TTLMillis(s.cfg.TTL)).Int64()
	switch {
	case errors.Is(err, redis.Nil):
		return Lease{}, ErrNotAcquired
	case lockkit.NotRun(err):
		// The node refused the script unrun (loading its data).
		return Lease{}, fmt.Errorf("%w: fenced acquire on %s: %w", ErrNotAcquired, s.node.Name, err)
	case err != nil:
		return Lease{}, fmt.Errorf("fenced acquire on %s: %w", s.node.Name, err)
	}
	l.Fence = fence
	return l, nil
}

// Release deletes the key: with compare-and-delete for safe and fenced
// (lockkit.Safe), with a plain DEL for naive (which removes whatever lease
// is there, perhaps another client's).
func (s *single) Release(ctx context.Context, l Lease) error {
	if s.cad {
		k, err := s.kit()
		if err != nil {
			return err
		}
		return k.Release(ctx, l)
	}
	n, err := s.node.Cmd.Del(ctx, l.Key).Result()
	if err != nil {
		return fmt.Errorf("release on %s: %w", s.node.Name, err)
	}
	if n == 0 {
		return ErrNotHeld
	}
	return nil
}
