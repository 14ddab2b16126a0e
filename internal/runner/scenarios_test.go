package runner

import "testing"

// TestIssue4Scenarios runs each scenario of issue 4 once on real Redis and
// holds it to the file's own expect: its verdict and exactly its anomaly
// kinds (informational findings aside).
func TestIssue4Scenarios(t *testing.T) {
	tests := []struct {
		name string
		file string
	}{
		{"a positive control (one in-process mutex) is valid under a pause", "control-positive"},
		{"a negative control (no lock) loses increments", "control-negative"},
		{"a pause between read and write of a counter loses an increment", "counter-gc-pause"},
		{"a fenced counter refuses the stale increment", "counter-gc-pause-fenced"},
		{"a paused buyer's stale stock write oversells", "inventory-oversell"},
		{"an atomic Lua decrement sells exactly the stock without a lock", "inventory-atomic-lua"},
		{"an idempotency key alone keeps one charge per invoice", "idempotency-key"},
		{"a lock plus an idempotency key keeps one charge under a pause", "payment-idempotency"},
		{"a watchdog renews the lease of a slow job", "watchdog-slow-job"},
		{"a stop-the-world pause stops the watchdog too and the invoice is charged twice", "watchdog-gc-pause"},
		{"a starved renewer lets the lease lapse under a running job", "watchdog-starved"},
		{"a partitioned holder hears from its watchdog and stops in time", "watchdog-partition"},
		{"a crash between SETNX and EXPIRE leaves the lock stuck", "setnx-expire-crash"},
		{"a crashed holder's lease expires and the other client proceeds", "safe-client-crash"},
		{"a paused leader acts after another was elected", "leader-split-brain"},
		{"an epoch check at the resource refuses the deposed leader", "leader-epoch-check"},
		{"a paused permit holder is purged and the semaphore over-admits", "semaphore-over-admission"},
		{"a semaphore whose holders do not overstay admits at most its permits", "semaphore-safe"},
		{"skewed schedulers with a released per-job lock run a fire time thrice", "cron-duplicate-run"},
		{"a per-fire-time lock runs each fire time once", "cron-lock-per-fire"},
		{"overlapping cache rebuilds are waste, not a violation", "cache-rebuild-waste"},
		{"a plain DEL removes the next holder's lock", "naive-del-foreign-unlock"},
		{"compare-and-delete leaves the next holder's lock alone", "safe-unlock"},
		{"a fault that met no hold makes the run unknown", "coverage-miss"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			holdFileToItsExpect(t, tt.file)
		})
	}
}
