package renewlock_test

import (
	"testing"

	"example.com/mylock/renewlock"
	"github.com/locksim/locksim/locksimtest"
)

func TestTheRenewingLockKeepsASlowJobsLeaseAlive(t *testing.T) {
	locksimtest.Scenario(t, "slow-job.yaml", renewlock.Algorithm) // its own scenario, beside this file
}

func TestTheRenewingLockIsFrozenByAGCPauseLikeLocksimsWatchdog(t *testing.T) {
	locksimtest.Scenario(t, "watchdog-gc-pause.yaml", renewlock.Algorithm) // shipped
}
