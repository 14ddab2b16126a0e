package mylock_test

import (
	"testing"

	"example.com/mylock/mylock"
	"github.com/locksim/locksim/locksimtest"
)

func TestMyLockPassesConformance(t *testing.T) {
	locksimtest.Conformance(t, mylock.New, locksimtest.Expect{})
	// locksimtest.Expect{Nodes: 5}         a Redlock-style library
	// locksimtest.Expect{Fencing: true}    leases carry increasing fences
	// locksimtest.Expect{UnsafeRelease: true}  known to delete others' keys
}

func TestMyLockDoublesTheChargeOfAGCPauseLikeLocksimsSafeLock(t *testing.T) {
	locksimtest.Scenario(t, "gc-pause.yaml", mylock.Algorithm) // shipped, or a path of yours
}

func TestMyLockMeetsEveryShippedScenarioOfItsKind(t *testing.T) {
	locksimtest.Catalogue(t, mylock.Algorithm)
}
