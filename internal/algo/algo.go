// Package algo is the registration of locksim's own lock algorithms: the
// public one of package lock (name, description, constructor, traits),
// plus what only the harness's algorithms need and a user's lock never
// does — traits of the harness's controls, lock-free alternatives and
// library adapters, and a Config with the harness's own settings (a
// scenario's library: and process: blocks, the simulated process a client
// runs in, the control mutex's shared table).
//
// Every algorithm is registered in package lock, which keeps the one
// catalogue order; an algorithm registered through lock.Register (a user's
// own, in a locksim binary of theirs) has the zero harness traits here and
// is built from the lock.Config part of a Config.
package algo

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/locksim/locksim/lock"
)

// Traits are an algorithm's traits as locksim's own code reads them: the
// public ones (lock.Traits) and the harness's own. The zero value is a
// plain lock (lock.Traits's zero value).
type Traits struct {
	lock.Traits
	// LockFree: the algorithm takes no lock at all; the workload's own
	// resource (a Lua script, an idempotency key) makes the operation safe.
	// The runner never calls its Locker, records no acquire or release and
	// probes no lock key at the end. A lock-free algorithm runs exactly one
	// workload, named in Workloads.
	LockFree bool
	// Control: a positive or negative control (control-mutex, no-lock)
	// rather than a Redis lock; it runs every workload, the semaphore one
	// included, to show what a correct or an absent lock does there.
	Control bool
	// InProcess: the lock is a mutex in the harness's own memory
	// (control-mutex): no key on any node, no TTL; a grant holds until
	// its release.
	InProcess bool
	// NoLock: the acquire grants at once and takes nothing (no-lock).
	NoLock bool
	// IdempotencyKey: the algorithm relies on the payment gateway's
	// idempotency key, so its payment workload must set idempotency: true.
	IdempotencyKey bool
	// Library: an adapter of a third-party lock library, configured by the
	// scenario's `library:` block (Config.Library). Only library adapters
	// take one.
	Library bool
	// DriftFactor: a library adapter whose validity subtracts a clock-drift
	// allowance, so it takes library.drift_factor (redsync; redislock has
	// none).
	DriftFactor bool
	// Process: the lock runs in a child process started from the
	// scenario's process: block (Config.Process), which also declares the
	// public traits that hold for it. Only the `process` algorithm has it.
	Process bool
	// TokenAfterGrant: a Fenced algorithm that takes its fencing token in
	// a step of its own after the grant (redlock-fenced's INCR after the
	// quorum), so a pause may fall between the two: a scenario may pause a
	// client at history.PointBeforeToken.
	TokenAfterGrant bool
}

// Runs reports whether an algorithm with these traits can run the named
// workload: the public rule (lock.Traits.Runs), and a control runs the
// semaphore workload too, as a semaphore would.
func (t Traits) Runs(workload string) bool {
	p := t.Traits
	p.Semaphore = p.Semaphore || t.Control
	return p.Runs(workload)
}

// String lists the traits that are set, for `locksim list`: the public
// ones, then the harness's.
func (t Traits) String() string {
	var out []string
	if s := t.Traits.String(); s != "" {
		out = append(out, s)
	}
	add := func(on bool, s string) {
		if on {
			out = append(out, s)
		}
	}
	add(t.LockFree, "lock-free")
	add(t.Control, "control")
	add(t.InProcess, "in-process mutex")
	add(t.NoLock, "takes no lock")
	add(t.IdempotencyKey, "idempotency key")
	add(t.Library, "library")
	add(t.DriftFactor, "drift factor")
	add(t.Process, "child process")
	add(t.TokenAfterGrant, "fencing token taken after the grant")
	return strings.Join(out, "; ")
}

// check reports why harness traits t cannot be registered, or nil.
func (t Traits) check(name string) error {
	switch {
	case t.LockFree && len(t.Workloads) != 1:
		return fmt.Errorf("algorithm %s: a lock-free algorithm runs exactly one workload (got %d)", name, len(t.Workloads))
	case t.LockFree && (t.Fenced || t.Semaphore || t.Control || t.Library || t.ClientClock):
		return fmt.Errorf("algorithm %s: lock-free takes no lock, so it has no fence, permits, library or clock (%s)", name, t)
	case t.TokenAfterGrant && !t.Fenced:
		return fmt.Errorf("algorithm %s: takes a fencing token after the grant, but is not fenced", name)
	case t.DriftFactor && !t.Library:
		return fmt.Errorf("algorithm %s: a drift factor is a library option, but it is no library adapter", name)
	case t.IdempotencyKey && len(t.Workloads) == 0:
		// Which workloads take an idempotency key is the workload
		// registry's to say (package workload checks the ones named).
		return fmt.Errorf("algorithm %s: relies on an idempotency key but names no workload whose resource takes one", name)
	}
	return nil
}

// Config is what locksim's own algorithms are built from: the public
// lock.Config and the harness's own settings. Durations are wall time.
type Config struct {
	lock.Config
	// Seed is the seed of the client's Rand (for a lock that draws its
	// own randomness elsewhere: a lock client process).
	Seed uint64
	// Library holds the scenario's `library:` options of an adapter of a
	// third-party library (Traits.Library); others ignore it.
	Library LibraryOptions
	// Shared is the in-process state every client of one run shares (the
	// control mutex's table); a Redis lock ignores it.
	Shared *Shared
	// OpTimeout bounds one command a background renewer (or a WAIT) sends;
	// 0 means TTL/3, between 10 ms and 2 s.
	OpTimeout time.Duration
	// Process is the scenario's `process:` block for a lock client run as
	// a child process (algorithm process); nil otherwise.
	Process *ProcessOptions
	// Host is the simulated process the client runs in, shared with the
	// other clients the scenario places in it; locksim always sets it.
	Host *Host
}

// ProcessOptions configure a lock client run as a child process speaking
// locksim's JSON Lines protocol (docs/protocol.md). Durations are wall
// time.
type ProcessOptions struct {
	// Command is the program and its arguments, run directly (never
	// through a shell), from Dir.
	Command []string
	// Dir is the working directory; "" is locksim's.
	Dir string
	// Env are extra environment variables, NAME=value.
	Env []string
	// Timeout bounds one reply; none within it is an unknown outcome.
	// 0 picks the command timeout.
	Timeout time.Duration
	// Options are passed through to the process in its hello message.
	Options map[string]any
	// FakeTime makes the process's clock fault-injectable through
	// libfaketime: "" (none), "jump" (wall clock only: DONT_FAKE_MONOTONIC)
	// or "rate" (wall and monotonic clocks).
	FakeTime string
	// NoInFlightPause says no pause is planned inside an acquire (point
	// in-acquire): the process is told it need not send "sent" events
	// (hello "sent": false), one line fewer per acquire.
	NoInFlightPause bool
}

// LibraryOptions are a scenario's `library:` options of a third-party lock
// library behind an adapter. Durations are wall time. The zero value means
// one attempt per Acquire (the runner retries with its own retry delay),
// the library's own defaults for everything else, and no refresh.
type LibraryOptions struct {
	// Tries is the number of attempts one Acquire makes; 0 means 1.
	Tries int
	// RetryDelay is the wait between two attempts inside one Acquire; 0
	// picks the library's default.
	RetryDelay time.Duration
	// DriftFactor is the library's clock-drift factor (validity = expiry −
	// elapsed − expiry×DriftFactor); nil picks its default.
	DriftFactor *float64
	// Refresh, when > 0, extends a granted lease every Refresh with the
	// library's own call until the lease is released or a refresh fails:
	// the refresh loop a user of the library writes. 0 means never.
	Refresh time.Duration
	// Timeout bounds one command the library sends (library.timeout); 0
	// keeps Config.CommandTimeout.
	Timeout time.Duration
}

// Shared is in-process state every client of one run shares. locksim's
// positive control (control-mutex) keeps its table of holders here; a
// Redis lock has no use for it. Safe for concurrent use.
type Shared struct {
	mu      sync.Mutex
	holders map[string]string
}

// NewShared returns empty shared state for one run.
func NewShared() *Shared { return &Shared{holders: map[string]string{}} }

// Do calls f with the shared table (key → owner token) while holding its
// mutex.
func (s *Shared) Do(f func(holders map[string]string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.holders == nil {
		s.holders = map[string]string{}
	}
	f(s.holders)
}

// Algorithm is one of locksim's own algorithms: its public registration
// (lock.Algorithm, whose New builds it from a lock.Config alone, with the
// zero harness settings) and its harness traits and constructor.
type Algorithm struct {
	// Name and About are the public registration's.
	Name, About string
	// New builds one client's Locker from the whole Config.
	New func(Config) (lock.Locker, error)
	// Traits are its traits, public and harness.
	Traits Traits
	// CommandTimeout is the public registration's (lock.Algorithm).
	CommandTimeout func(ttl time.Duration) time.Duration
	// Acquire is the acquire's own code, the Lua script the client runs,
	// and AcquireArgs what the EVAL gives it after the script (the key
	// count, the keys, the arguments), as a lesson page's "what to change"
	// shows them when a pair changes the algorithm (semaphore →
	// fair-semaphore); "" when not given.
	Acquire, AcquireArgs string
}

// registry holds the harness traits and constructors of the algorithms
// registered here, by name; the catalogue itself is lock's.
var registry struct {
	sync.RWMutex
	m map[string]Algorithm
}

// Register adds one of locksim's own algorithms: to lock's catalogue
// (lock.Register: a program's start-up, panicking on a taken name or
// contradictory traits) and here.
func Register(a Algorithm) {
	if err := a.Traits.check(a.Name); err != nil {
		panic("algo.Register: " + err.Error())
	}
	p := lock.Algorithm{Name: a.Name, About: a.About, Traits: a.Traits.Traits, CommandTimeout: a.CommandTimeout}
	if n := a.New; n != nil { // lock.Register refuses a missing constructor
		p.New = func(c lock.Config) (lock.Locker, error) { return n(Config{Config: c}) }
	}
	lock.Register(p)
	a.Traits.Workloads = slices.Clone(a.Traits.Workloads)
	registry.Lock()
	defer registry.Unlock()
	if registry.m == nil {
		registry.m = map[string]Algorithm{}
	}
	registry.m[a.Name] = a
}

// of is a registered lock.Algorithm as locksim's code reads it: with its
// harness traits and constructor when registered here, else the public
// ones (a user's lock) built from the lock.Config part.
func of(p lock.Algorithm) Algorithm {
	registry.RLock()
	a, ok := registry.m[p.Name]
	registry.RUnlock()
	if ok {
		a.Traits.Workloads = slices.Clone(a.Traits.Workloads)
		return a
	}
	n := p.New
	return Algorithm{Name: p.Name, About: p.About, Traits: Traits{Traits: p.Traits}, CommandTimeout: p.CommandTimeout,
		New: func(c Config) (lock.Locker, error) { return n(c.Config) }}
}

// Lookup returns the named registered algorithm.
func Lookup(name string) (Algorithm, bool) {
	p, ok := lock.Lookup(name)
	if !ok {
		return Algorithm{}, false
	}
	return of(p), true
}

// All returns every registered algorithm in catalogue order.
func All() []Algorithm {
	ps := lock.All()
	out := make([]Algorithm, len(ps))
	for i, p := range ps {
		out[i] = of(p)
	}
	return out
}

// Names lists the registered algorithms' names in catalogue order.
func Names() []string { return lock.Names() }

// About is a registered algorithm's one-line description.
func About(name string) string { return lock.About(name) }

// Where returns the names of the registered algorithms whose traits
// satisfy keep, in catalogue order.
func Where(keep func(Traits) bool) []string {
	var out []string
	for _, a := range All() {
		if keep(a.Traits) {
			out = append(out, a.Name)
		}
	}
	return out
}

// New builds the named registered algorithm for one client, after
// checking the Config: at least one node, TTL > 0, a random source (a nil
// Clock is the system clock).
func New(name string, c Config) (lock.Locker, error) {
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
		c.Clock = lock.SystemClock{}
	}
	if c.Rand == nil {
		return nil, fmt.Errorf("algorithm %s: no random source", name)
	}
	return a.New(c)
}
