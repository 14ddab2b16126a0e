package runner

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/scenario"
)

// TestIssue4Scenarios runs each scenario of issue 4 once on real Redis and
// checks its verdict against the file's `expect` and the anomaly kinds that
// must be among the violations (informational findings aside).
func TestIssue4Scenarios(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		kinds []string // violation kinds that must be reported
	}{
		{"a positive control (one in-process mutex) is valid under a pause", "control-positive", nil},
		{"a negative control (no lock) loses increments", "control-negative", []string{"mutex-overlap", "lost-update"}},
		{"a pause between read and write of a counter loses an increment", "counter-gc-pause", []string{"mutex-overlap", "lost-update"}},
		{"a fenced counter refuses the stale increment", "counter-gc-pause-fenced", nil},
		{"a paused buyer's stale stock write oversells", "inventory-oversell", []string{"oversell"}},
		{"an atomic Lua decrement sells exactly the stock without a lock", "inventory-atomic-lua", nil},
		{"an idempotency key alone keeps one charge per invoice", "idempotency-key", nil},
		{"a lock plus an idempotency key keeps one charge under a pause", "payment-idempotency", nil},
		{"a watchdog renews the lease of a slow job", "watchdog-slow-job", nil},
		{"a stop-the-world pause stops the watchdog too and the invoice is charged twice", "watchdog-gc-pause", []string{"mutex-overlap", "double-effect"}},
		{"a starved renewer lets the lease lapse under a running job", "watchdog-starved", []string{"mutex-overlap"}},
		{"a partitioned holder hears from its watchdog and stops in time", "watchdog-partition", nil},
		{"a crash between SETNX and EXPIRE leaves the lock stuck", "setnx-expire-crash", nil},
		{"a crashed holder's lease expires and the other client proceeds", "safe-client-crash", nil},
		{"a paused leader acts after another was elected", "leader-split-brain", []string{"split-brain"}},
		{"an epoch check at the resource refuses the deposed leader", "leader-epoch-check", nil},
		{"a paused permit holder is purged and the semaphore over-admits", "semaphore-over-admission", []string{"over-admission"}},
		{"a semaphore whose holders do not overstay admits at most its permits", "semaphore-safe", nil},
		{"skewed schedulers with a released per-job lock run a fire time thrice", "cron-duplicate-run", []string{"duplicate-run"}},
		{"a per-fire-time lock runs each fire time once", "cron-lock-per-fire", nil},
		{"overlapping cache rebuilds are waste, not a violation", "cache-rebuild-waste", nil},
		{"a plain DEL removes the next holder's lock", "naive-del-foreign-unlock", []string{"foreign-unlock", "mutex-overlap"}},
		{"compare-and-delete leaves the next holder's lock alone", "safe-unlock", nil},
		{"a fault that met no hold makes the run unknown", "coverage-miss", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sc, err := scenario.Load(filepath.Join("..", "..", "scenarios", tt.file+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if sc.Expect.Verdict == "" {
				t.Fatalf("%s has no expect", tt.file)
			}
			res := runScenario(t, sc, Options{Seed: *sc.Seed})
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			rep := checker.Check(ctx, res.History, checker.Options{})
			var got []string
			for _, a := range rep.Anomalies() {
				if !a.Informational && !slices.Contains(got, a.Kind) {
					got = append(got, a.Kind)
				}
			}
			if string(rep.Verdict) != sc.Expect.Verdict {
				t.Errorf("verdict %s, want %s (violations %v)", rep.Verdict, sc.Expect, got)
			}
			for _, k := range tt.kinds {
				if !slices.Contains(got, k) {
					t.Errorf("no %s among the violations %v", k, got)
				}
			}
		})
	}
}
