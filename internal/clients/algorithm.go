package clients

import "github.com/locksim/locksim/lock"

// The registry of algorithms is the public lock package's ([lock.Register]);
// these names keep locksim's own code reading as before.

// Algorithm is a registered lock algorithm ([lock.Algorithm]).
type Algorithm = lock.Algorithm

// Traits are an algorithm's traits ([lock.Traits]).
type Traits = lock.Traits

// Register adds an algorithm ([lock.Register]).
func Register(a Algorithm) { lock.Register(a) }

// Lookup returns a registered algorithm ([lock.Lookup]).
func Lookup(name string) (Algorithm, bool) { return lock.Lookup(name) }

// All returns every registered algorithm ([lock.All]).
func All() []Algorithm { return lock.All() }

// Names lists the registered algorithms' names ([lock.Names]).
func Names() []string { return lock.Names() }

// About is a registered algorithm's description ([lock.About]).
func About(name string) string { return lock.About(name) }

// Where lists the algorithms whose traits satisfy keep ([lock.Where]).
func Where(keep func(Traits) bool) []string { return lock.Where(keep) }

// builtins registers locksim's own algorithms and adapters. Each is
// declared beside its constructor; this list only fixes the catalogue
// order, which `locksim list` and the scenario parser's messages ("valid:
// naive, safe, fenced, …") show.
func init() {
	for _, a := range []Algorithm{
		naiveAlgorithm, safeAlgorithm, fencedAlgorithm,
		redlockAlgorithm, redlockNoCheckAlgorithm, redlockFencedAlgorithm, redlockMonotonicAlgorithm,
		redsyncAlgorithm, redislockAlgorithm,
		watchdogAlgorithm, watchdogFencedAlgorithm, watchdogDeadlineAlgorithm, watchdogBoundedAlgorithm, setnxExpireAlgorithm,
		extendReacquireAlgorithm, extendNoOwnerAlgorithm, existsCheckForceUnlockAlgorithm,
		watchdogLossUnobservedAlgorithm, watchdogOrphanAlgorithm,
		semaphoreAlgorithm, fairSemaphoreAlgorithm,
		atomicLuaAlgorithm, idempotencyKeyAlgorithm,
		noLockAlgorithm, controlMutexAlgorithm,
		processAlgorithm,
	} {
		Register(a)
	}
}
