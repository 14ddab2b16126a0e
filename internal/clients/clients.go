// Package clients holds the lock algorithms behind one interface, [Locker],
// the extension point for third-party lock libraries (design §5).
//
// Each algorithm is registered once, as an [Algorithm]: its name, a
// one-line description, its constructor and its [Traits] (fenced,
// lock-free, semaphore, the workloads it runs, library adapter, single- or
// multi-node, whether client clock faults reach it). The scenario parser,
// the runner and `locksim list` read the registration ([Lookup], [All]);
// nothing else lists algorithms. [Register] adds one.
//
// An algorithm reads time only through its client's [Clock], so a clock fault
// injected on a client reaches its validity computations. Durations handed to
// an algorithm (TTL, timeouts) are wall time: the runner has already divided
// scenario time by the time scale. Algorithms never know they are observed:
// they do not import the history package.
package clients

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrNotAcquired means the lock was definitely not granted. Any other error
// from Acquire means the outcome is unknown: the lock may have been granted.
var ErrNotAcquired = errors.New("lock not acquired")

// ErrNotHeld means a Release or Extend definitely changed nothing: the key
// was gone or held another owner token. Any other error means unknown.
var ErrNotHeld = errors.New("lock not held")

// Lease is what a granted Acquire returns.
type Lease struct {
	Key string
	// Token is the random owner token stored as the key's value.
	Token string
	// Fence is the fencing token; 0 when the algorithm has none.
	Fence int64
	// ValidUntil is the client's own estimate of the lease's end, on the
	// client's Clock (not true time).
	ValidUntil time.Time
	// Nodes are the names of the nodes that granted the lease.
	Nodes []string
	// Lost, when not nil, is closed when the algorithm concluded the lease
	// is gone (a watchdog renewal failed or found the key gone): the job
	// must stop acting under it.
	Lost <-chan struct{}
}

// Locker is one client's lock algorithm.
//
// Acquire returns ErrNotAcquired when the lock was definitely not granted;
// any other error means unknown. Release returns nil when it removed the
// client's own key, ErrNotHeld when it definitely removed nothing, any other
// error when unknown. Release must be safe to call with a lease that already
// expired.
type Locker interface {
	Name() string
	Acquire(ctx context.Context, key string) (Lease, error)
	Release(ctx context.Context, l Lease) error
}

// Extender is implemented by algorithms that can extend a lease in place.
// Errors follow Release's definite/unknown split.
type Extender interface {
	Extend(ctx context.Context, l Lease) (Lease, error)
}

// Clock is a client's own notion of wall time. Real clients have clocks that
// drift and jump; locksim injects those faults here.
type Clock interface {
	Now() time.Time
}

// SystemClock is the machine's clock, with no fault.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// Node is one Redis node as one client reaches it (through that client's own
// toxiproxy link).
type Node struct {
	Name string
	Cmd  redis.Cmdable
}

// Config is what every algorithm is built from.
type Config struct {
	// Nodes as this client reaches them; single-instance algorithms use the
	// first.
	Nodes []Node
	// TTL of a lease, wall time.
	TTL time.Duration
	// Clock is the client's clock; nil means SystemClock.
	Clock Clock
	// Rand draws owner tokens; it must be used by one goroutine only. It
	// comes from the run's seed, so a run's tokens are reproducible.
	Rand *rand.Rand
	// NodeTimeout bounds one node's reply in multi-node algorithms, wall
	// time; 0 picks the algorithm's default.
	NodeTimeout time.Duration
	// Gate, when set, is told when the algorithm reaches an internal pause
	// point (e.g. PointInAcquire), so a fault can freeze it there.
	Gate Gate
	// Library holds the options of a third-party library behind an adapter
	// (redsync, redislock); built-in algorithms ignore it.
	Library LibraryOptions
	// Shared is the in-process state every client of one run shares
	// (control-mutex); nil uses a package-wide one.
	Shared *Shared
	// Permits is the size of a semaphore (algorithm semaphore); 0 means 1.
	Permits int
	// OpTimeout bounds one command a background renewer sends, wall time;
	// 0 means TTL/3, between 10 ms and 2 s.
	OpTimeout time.Duration
}

// Gate is a client's pause gate as an algorithm sees it.
type Gate interface {
	Point(ctx context.Context, point string) error
}

// RenewRecorder is an optional Gate extension: an algorithm that renews
// leases in the background (watchdog) calls Renewing before each renewal
// and done with its outcome, so the run's history shows every renewal as
// an extend operation.
type RenewRecorder interface {
	Renewing(l Lease) (done func(err error))
}

// New builds the named registered algorithm for one client.
func New(name string, c Config) (Locker, error) {
	a, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown algorithm %q (known: %v)", name, Names())
	}
	if len(c.Nodes) == 0 {
		return nil, fmt.Errorf("algorithm %s: no nodes", name)
	}
	if c.TTL <= 0 {
		return nil, fmt.Errorf("algorithm %s: ttl %v must be > 0", name, c.TTL)
	}
	if c.Clock == nil {
		c.Clock = SystemClock{}
	}
	if c.Rand == nil {
		return nil, fmt.Errorf("algorithm %s: no random source", name)
	}
	return a.New(c)
}

// newToken draws a 128-bit owner token as 32 hex digits.
func newToken(r *rand.Rand) string {
	return fmt.Sprintf("%016x%016x", r.Uint64(), r.Uint64())
}

// ttlMillis is the TTL in whole milliseconds, at least 1 (PX 0 is an error).
func ttlMillis(d time.Duration) int64 {
	ms := d.Milliseconds()
	if ms < 1 {
		ms = 1
	}
	return ms
}
