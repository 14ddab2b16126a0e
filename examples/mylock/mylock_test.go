package mylock_test

import (
	"testing"

	"example.com/mylock/mylock"
	"github.com/locksim/locksim/locksimtest"
)

func TestMyLockPassesConformance(t *testing.T) {
	locksimtest.Conformance(t, mylock.New, locksimtest.Expect{})
}

func TestMyLockDoublesTheChargeOfAGCPauseLikeLocksimsSafeLock(t *testing.T) {
	locksimtest.Scenario(t, "gc-pause.yaml", mylock.Algorithm)
}

func TestMyLockMeetsEveryShippedScenarioOfItsKind(t *testing.T) {
	if testing.Short() {
		t.Skip("the catalogue takes a while; -short skips it")
	}
	locksimtest.Catalogue(t, mylock.Algorithm)
}
