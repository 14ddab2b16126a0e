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
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/locksim/locksim/lock"
)

// The lock interface is the public lock package's; these aliases keep
// locksim's own algorithms reading as before.

// ErrNotAcquired: definitely not granted ([lock.ErrNotAcquired]).
var ErrNotAcquired = lock.ErrNotAcquired

// ErrNotHeld: a release or extend definitely changed nothing
// ([lock.ErrNotHeld]).
var ErrNotHeld = lock.ErrNotHeld

type (
	// Lease is what a granted Acquire returns ([lock.Lease]).
	Lease = lock.Lease
	// Locker is one client's lock algorithm ([lock.Locker]).
	Locker = lock.Locker
	// Extender extends a lease in place ([lock.Extender]).
	Extender = lock.Extender
	// Validator tells whether a lease is still held ([lock.Validator]).
	Validator = lock.Validator
	// Clock is a client's own clock ([lock.Clock]).
	Clock = lock.Clock
	// SystemClock is the machine's clock ([lock.SystemClock]).
	SystemClock = lock.SystemClock
	// Node is one node as one client reaches it ([lock.Node]).
	Node = lock.Node
	// Config is what every algorithm is built from ([lock.Config]).
	Config = lock.Config
	// Gate is a client's pause gate ([lock.Gate]).
	Gate = lock.Gate
	// LibraryOptions are a scenario's library options
	// ([lock.LibraryOptions]).
	LibraryOptions = lock.LibraryOptions
	// ProcessOptions are a scenario's process options
	// ([lock.ProcessOptions]).
	ProcessOptions = lock.ProcessOptions
	// Shared is a run's in-process shared state ([lock.Shared]).
	Shared = lock.Shared
	// Host is a client's simulated process ([lock.Host]).
	Host = lock.Host
	// Renewals records background renewals ([lock.Renewals]).
	Renewals = lock.Renewals
)

// NewHost returns the Host of one simulated process ([lock.NewHost]).
func NewHost(name, id string) *Host { return lock.NewHost(name, id) }

// NewShared returns empty shared state for one run.
func NewShared() *Shared { return lock.NewShared() }

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
