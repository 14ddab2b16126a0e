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
	"math/rand/v2"
	"time"

	"github.com/locksim/locksim/internal/algo"
	"github.com/locksim/locksim/lock"
	"github.com/locksim/locksim/lock/lockkit"
)

// The lock interface is the public lock package's, and the registration
// of locksim's own algorithms package algo's; these aliases keep locksim's
// own algorithms reading as before.

// ErrNotAcquired: definitely not granted ([lock.ErrNotAcquired]).
var ErrNotAcquired = lock.ErrNotAcquired

// ErrNotHeld: a release or extend definitely changed nothing
// ([lock.ErrNotHeld]).
var ErrNotHeld = lock.ErrNotHeld

// ErrInfrastructure marks an error of the harness rather than of the lock
// ([lock.ErrInfrastructure]): a lock client process that exited or broke
// the protocol. The run then has no verdict (exit 255).
var ErrInfrastructure = lock.ErrInfrastructure

type (
	// Lease is what a granted Acquire returns ([lock.Lease]).
	Lease = lock.Lease
	// Locker is one client's lock algorithm ([lock.Locker]).
	Locker = lock.Locker
	// Extender extends a lease in place ([lock.Extender]).
	Extender = lock.Extender
	// Validator tells whether a lease is still held ([lock.Validator]).
	Validator = lock.Validator
	// NodeReleaser tells which nodes a release removed the key from
	// ([lock.NodeReleaser]).
	NodeReleaser = lock.NodeReleaser
	// Clock is a client's own clock ([lock.Clock]).
	Clock = lock.Clock
	// SystemClock is the machine's clock ([lock.SystemClock]).
	SystemClock = lock.SystemClock
	// Node is one node as one client reaches it ([lock.Node]).
	Node = lock.Node
	// Config is what every algorithm of locksim's is built from: the
	// public lock.Config and the harness's settings ([algo.Config]).
	Config = algo.Config
	// Gate is a client's pause gate ([lock.Gate]).
	Gate = lock.Gate
	// LibraryOptions are a scenario's library options
	// ([algo.LibraryOptions]).
	LibraryOptions = algo.LibraryOptions
	// ProcessOptions are a scenario's process options
	// ([algo.ProcessOptions]).
	ProcessOptions = algo.ProcessOptions
	// Shared is a run's in-process shared state ([algo.Shared]).
	Shared = algo.Shared
	// Host is a client's simulated process ([algo.Host]).
	Host = algo.Host
	// Renewals records background renewals ([lock.Renewals]).
	Renewals = lock.Renewals
)

// NewHost returns the Host of one simulated process ([algo.NewHost]).
func NewHost(name, id string) *Host { return algo.NewHost(name, id) }

// NewShared returns empty shared state for one run.
func NewShared() *Shared { return algo.NewShared() }

// New builds the named registered algorithm for one client ([algo.New]).
func New(name string, c Config) (Locker, error) { return algo.New(name, c) }

// newToken draws a 128-bit owner token as 32 hex digits
// (lockkit.NewToken).
func newToken(r *rand.Rand) string { return lockkit.NewToken(r) }

// ttlMillis is the TTL in whole milliseconds, at least 1 (lockkit.TTLMillis).
func ttlMillis(d time.Duration) int64 { return lockkit.TTLMillis(d) }
