package clients

import "github.com/locksim/locksim/internal/algo"

// The registry of algorithms is the public lock package's, with the
// harness's traits of locksim's own in package algo; these names keep
// locksim's own code reading as before.

// Algorithm is one of locksim's registered algorithms ([algo.Algorithm]).
type Algorithm = algo.Algorithm

// Traits are an algorithm's traits, public and harness ([algo.Traits]).
type Traits = algo.Traits

// Register adds an algorithm ([algo.Register]).
func Register(a Algorithm) { algo.Register(a) }

// Lookup returns a registered algorithm ([algo.Lookup]).
func Lookup(name string) (Algorithm, bool) { return algo.Lookup(name) }

// All returns every registered algorithm ([algo.All]).
func All() []Algorithm { return algo.All() }

// Names lists the registered algorithms' names ([algo.Names]).
func Names() []string { return algo.Names() }

// About is a registered algorithm's description ([algo.About]).
func About(name string) string { return algo.About(name) }

// Where lists the algorithms whose traits satisfy keep ([algo.Where]).
func Where(keep func(Traits) bool) []string { return algo.Where(keep) }

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
