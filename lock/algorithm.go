package lock

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Algorithm is one lock algorithm as locksim knows it: the name a scenario's
// `algorithm:` field gives, a one-line description, the constructor and the
// traits the scenario parser, the runner and `locksim list` read without
// building a Locker. Each built-in algorithm declares its Algorithm beside
// its constructor; [Register] adds one, [Lookup] and [All] read them.
type Algorithm struct {
	// Name is the scenario's name for it: lowercase letters, digits and
	// '-', e.g. "safe" or "my-lock".
	Name string
	// About is the one-line description `locksim list` prints.
	About string
	// New builds one client's Locker. locksim has checked the Config
	// first: at least one node, TTL > 0, a Clock and a Rand. When the
	// Locker is also an io.Closer, locksim closes it when the run ends.
	New func(Config) (Locker, error)
	// Traits say what the algorithm guarantees and needs.
	Traits Traits
	// CommandTimeout, when set, is the per-command timeout the algorithm
	// wants for a lease of the given TTL (both wall time): the read and
	// write timeout of its Node.Cmd connections and its
	// Config.CommandTimeout. NoDeadline gives the connections none: a
	// reply is awaited as long as the context of the call allows (a lock
	// that must read replies that come late). nil keeps the runner's
	// default, DefaultCommandTimeout; a scenario's node_timeout replaces
	// either.
	CommandTimeout func(ttl time.Duration) time.Duration
}

// NoDeadline, as an Algorithm's CommandTimeout, gives the algorithm's
// connections no read or write deadline of their own; as
// Config.CommandTimeout it says they have none.
const NoDeadline time.Duration = -1

// Traits are what the rest of locksim knows about an algorithm without
// building it. The zero value is a plain mutual-exclusion lock on one or
// more nodes that hands out no fencing token and measures time with Go's
// own clock (so client clock faults do not reach it): what a typical
// third-party adapter is.
type Traits struct {
	// Fenced: every lease carries a fencing token (Lease.Fence) that
	// increases with each grant, so a resource can refuse a stale holder.
	// A scenario's workload.fencing and workload.claim need it.
	Fenced bool
	// Semaphore: admits Config.Permits holders at once instead of one, so
	// it can run the semaphore workload.
	Semaphore bool
	// Workloads, when not empty, are the only workloads the algorithm can
	// run (history's workload kinds: "payment", "inventory", …). Empty
	// means every workload but semaphore, and semaphore too for a
	// Semaphore. See [Traits.Runs].
	Workloads []string
	// SingleNode: the algorithm can be given one Redis node only (it wraps
	// one connection); a scenario must say nodes: 1. locksim's own
	// single-instance locks (safe, fenced, …) are not SingleNode: they
	// lock the first node and leave the others alone.
	SingleNode bool
	// MultiNode: Redlock-style, the lock is granted by a quorum N/2+1 of
	// all the nodes (1 to 9; three and five are the usual).
	MultiNode bool
	// ClientClock: the algorithm reads time only through Config.Clock, so
	// a client clock fault (clock-jump, clock-rate on a client) reaches its
	// validity computations and timers. False for libraries that use Go's
	// monotonic clock (redsync, redislock: such faults change nothing for
	// them).
	ClientClock bool
	// MinHold: the algorithm keeps a lease taken for at least
	// Config.MinHold after its grant (ShedLock's lockAtLeastFor), so a
	// scenario may set min_hold.
	MinHold bool
	// Heartbeat: the Locker is a lock.Extender whose Extend is the
	// heartbeat a scheduler's own loop sends between two units of work,
	// so a leader workload may set heartbeat: true.
	Heartbeat bool
	// MonotonicClock: the algorithm measures elapsed time on a monotonic
	// clock (Go's time.Since, CLOCK_MONOTONIC): the client's Config.Clock
	// is then a view of the client clock that a rate fault (clock-rate)
	// reaches and a step of its wall clock (clock-jump) does not, and the
	// client's job reads the same view. Needs ClientClock.
	MonotonicClock bool
	// DeletesByKey: the release is a plain DEL of the key, whoever holds
	// it, so a removing release proves nothing about the client's own
	// lease.
	DeletesByKey bool
}

// workloadSemaphore is locksim's semaphore workload's name; lock does not
// import locksim's history package, and the scenario package's tests check
// the two agree.
const workloadSemaphore = "semaphore"

// Runs reports whether an algorithm with these traits can run the named
// workload.
func (t Traits) Runs(workload string) bool {
	if len(t.Workloads) > 0 {
		return slices.Contains(t.Workloads, workload)
	}
	if workload == workloadSemaphore {
		return t.Semaphore
	}
	return true
}

// String lists the traits that are set, for `locksim list`, e.g.
// "fenced; multi-node; reads the client clock".
func (t Traits) String() string {
	var out []string
	add := func(on bool, s string) {
		if on {
			out = append(out, s)
		}
	}
	add(t.Fenced, "fenced")
	add(t.Semaphore, "semaphore")
	add(t.SingleNode, "one node only")
	add(t.MultiNode, "multi-node")
	add(t.ClientClock, "reads the client clock")
	add(t.MinHold, "min hold")
	add(t.Heartbeat, "heartbeat")
	add(t.MonotonicClock, "monotonic: clock steps do not reach it")
	add(t.DeletesByKey, "releases with a plain DEL")
	add(len(t.Workloads) > 0, "runs "+strings.Join(t.Workloads, ", ")+" only")
	return strings.Join(out, "; ")
}

func (t Traits) clone() Traits {
	t.Workloads = slices.Clone(t.Workloads)
	return t
}

var nameOK = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// check reports why a cannot be registered, or nil.
func (a Algorithm) check() error {
	t := a.Traits
	switch {
	case !nameOK.MatchString(a.Name):
		return fmt.Errorf("algorithm name %q: want lowercase letters, digits and '-', at most 64", a.Name)
	case a.About == "" || strings.Contains(a.About, "\n"):
		return fmt.Errorf("algorithm %s: About must be one line", a.Name)
	case a.New == nil:
		return fmt.Errorf("algorithm %s: no constructor", a.Name)
	case t.MonotonicClock && !t.ClientClock:
		return fmt.Errorf("algorithm %s: MonotonicClock needs ClientClock (a monotonic clock is a view of the client clock)", a.Name)
	case t.SingleNode && t.MultiNode:
		return fmt.Errorf("algorithm %s: both single-node and multi-node", a.Name)
	case slices.Contains(t.Workloads, ""):
		return fmt.Errorf("algorithm %s: empty workload name", a.Name)
	}
	return nil
}

// registry holds the registered algorithms in registration order: locksim's
// own in catalogue order first (registered, with what only the harness
// needs of them, by its internal packages, which every program that runs
// scenarios imports), then any other.
var registry struct {
	sync.RWMutex
	list  []Algorithm
	index map[string]int
}

// Register adds an algorithm, so that scenarios can name it and `locksim
// list` shows it. It panics when the name is taken or the Algorithm is
// malformed (no constructor, contradictory traits): registration is a
// program's start-up, like database/sql.Register. Call it from an init
// function.
func Register(a Algorithm) {
	if err := a.check(); err != nil {
		panic("lock.Register: " + err.Error())
	}
	a.Traits = a.Traits.clone()
	registry.Lock()
	defer registry.Unlock()
	if registry.index == nil {
		registry.index = map[string]int{}
	}
	if _, dup := registry.index[a.Name]; dup {
		panic("lock.Register: algorithm " + a.Name + " registered twice")
	}
	registry.index[a.Name] = len(registry.list)
	registry.list = append(registry.list, a)
}

// Lookup returns the named algorithm and whether it is registered. The
// result is a copy: changing it changes nothing registered.
func Lookup(name string) (Algorithm, bool) {
	registry.RLock()
	defer registry.RUnlock()
	i, ok := registry.index[name]
	if !ok {
		return Algorithm{}, false
	}
	a := registry.list[i]
	a.Traits = a.Traits.clone()
	return a, true
}

// All returns every registered algorithm in catalogue order (locksim's own
// first, as `locksim list` shows them, then the others in registration
// order), as a fresh slice of copies.
func All() []Algorithm {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]Algorithm, len(registry.list))
	for i, a := range registry.list {
		a.Traits = a.Traits.clone()
		out[i] = a
	}
	return out
}

// Names lists the registered algorithms' names in catalogue order, as a
// fresh slice.
func Names() []string {
	all := All()
	out := make([]string, len(all))
	for i, a := range all {
		out[i] = a.Name
	}
	return out
}

// About is the one-line description of a registered algorithm ("" when it
// is not registered).
func About(name string) string {
	a, _ := Lookup(name)
	return a.About
}

// Where returns the names of the registered algorithms whose traits satisfy
// keep, in catalogue order, as a fresh slice.
func Where(keep func(Traits) bool) []string {
	var out []string
	for _, a := range All() {
		if keep(a.Traits) {
			out = append(out, a.Name)
		}
	}
	return out
}
