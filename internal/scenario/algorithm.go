package scenario

import (
	"strings"

	"github.com/locksim/locksim/internal/algo"
)

// The parser knows the algorithms only through their registration
// (algo.Register, lock.Register): their names and every rule below come from the
// traits declared beside each constructor.

// algorithmNames are the registered algorithms, in catalogue order.
func algorithmNames() []string { return algo.Names() }

// traitsOf returns the traits of a registered algorithm; an unknown or
// empty name has the zero traits (the parser reported it already).
func traitsOf(algorithm string) algo.Traits {
	a, _ := algo.Lookup(algorithm)
	return a.Traits
}

// lockFree reports whether the algorithm takes no lock at all.
func lockFree(algorithm string) bool { return traitsOf(algorithm).LockFree }

// fencedNames lists the algorithms that hand out fencing tokens, as
// "fenced or redlock-fenced".
func fencedNames() string {
	return orList(algo.Where(func(t algo.Traits) bool { return t.Fenced }))
}

// libraryNames lists the library adapters, as "redsync, redislock".
func libraryNames() string {
	return strings.Join(algo.Where(func(t algo.Traits) bool { return t.Library }), ", ")
}

// driftFactorNames lists the library adapters that take a drift factor.
func driftFactorNames() string {
	return orList(algo.Where(func(t algo.Traits) bool { return t.DriftFactor }))
}

// runnersOf lists the algorithms that can run the workload, as
// "semaphore, fair-semaphore, no-lock, control-mutex".
func runnersOf(workload string) string {
	return strings.Join(algo.Where(func(t algo.Traits) bool { return t.Runs(workload) }), ", ")
}

// orList joins names as "a", "a or b", "a, b or c".
func orList(names []string) string { return joinList(names, "or") }

// andList joins names as "a", "a and b", "a, b and c".
func andList(names []string) string { return joinList(names, "and") }

func joinList(names []string, conj string) string {
	switch len(names) {
	case 0:
		return "none"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

// tokenAfterGrantNames lists the algorithms that take their fencing token
// in a step of their own after the grant, as "redlock-fenced".
func tokenAfterGrantNames() string {
	return orList(algo.Where(func(t algo.Traits) bool { return t.TokenAfterGrant }))
}
