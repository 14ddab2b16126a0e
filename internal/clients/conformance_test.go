package clients_test

import (
	"testing"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/clients/clientstest"
)

// TestConformance runs the conformance suite on every built-in algorithm
// and every adapter, on real Redis through locksim's proxies. Whether a
// lease must carry fencing tokens comes from the algorithm's registered
// traits.
func TestConformance(t *testing.T) {
	tests := []struct {
		name      string
		algorithm string
		expect    clientstest.Expect
	}{
		{"naive (known to release another client's lock)", "naive", clientstest.Expect{UnsafeRelease: true}},
		{"safe", "safe", clientstest.Expect{}},
		{"fenced", "fenced", clientstest.Expect{}},
		{"redlock on five nodes", "redlock", clientstest.Expect{Nodes: 5}},
		{"redlock on three nodes (quorum 2)", "redlock", clientstest.Expect{Nodes: 3}},
		{"redlock-nocheck on five nodes", "redlock-nocheck", clientstest.Expect{Nodes: 5}},
		{"redlock-fenced on five nodes", "redlock-fenced", clientstest.Expect{Nodes: 5}},
		{"redlock-monotonic on three nodes", "redlock-monotonic", clientstest.Expect{Nodes: 3}},
		{"the redsync adapter on one node", "redsync", clientstest.Expect{}},
		{"the redsync adapter on five nodes", "redsync", clientstest.Expect{Nodes: 5}},
		{"the redsync adapter on three nodes (quorum 2)", "redsync", clientstest.Expect{Nodes: 3}},
		{"the redislock adapter", "redislock", clientstest.Expect{}},
	}
	// Registered algorithms the suite does not fit, and what tests them.
	elsewhere := map[string]string{
		"watchdog":       "TestWatchdog (its renewer keeps leases alive by design)",
		"setnx-expire":   "TestConformanceOfNewAlgorithms",
		"semaphore":      "TestSemaphore (admits N, not one)",
		"fair-semaphore": "TestSemaphore (admits N, not one)",
		"control-mutex":  "TestControls (no Redis)",
		"no-lock":        "TestControls (no mutual exclusion)",
		"safe-wait":      "TestWaitLocks (needs replicas)",
		"safe-wait-all":  "TestWaitLocks (needs replicas)",
		"fenced-wait":    "TestWaitLocks (needs replicas)",
		"process":        "TestEveryShippedAdapterPassesTheConformanceSuite (one run per shipped adapter)",
		// The field reports' mutants (issue 19, part 2): mutants_test.go.
		"watchdog-unobserved":       "TestMutants (its renewer keeps leases alive by design)",
		"pid-expire-heartbeat":      "TestMutants (one value for every client; its heartbeat never fails)",
		"per-host-key":              "TestMutants (the lease names a key of its own)",
		"fair-queue":                "TestConformanceOfMutants, TestMutants",
		"checked-heartbeat":         "TestConformanceOfMutants",
		"reentrant-shared-token":    "TestConformanceOfMutants, TestMutants",
		"set-xx-unlock":             "TestConformanceOfMutants, TestMutants",
		"checked-min-hold-unlock":   "TestConformanceOfMutants, TestMutants",
		"two-level-lock":            "TestConformanceOfMutants, TestMutants",
		"two-level-lock-finally":    "TestConformanceOfMutants, TestMutants",
		"watchdog-fenced":           "TestWatchdogMutants",
		"watchdog-deadline":         "TestRenewalBounds",
		"watchdog-bounded":          "TestRenewalBounds",
		"extend-reacquire":          "TestWatchdogMutants",
		"extend-no-owner":           "TestWatchdogMutants",
		"exists-check-force-unlock": "TestWatchdogMutants (its forced unlock releases another client's lock by design)",
		"watchdog-loss-unobserved":  "the scenario host-sleep (its only difference from watchdog is that it never tells the job)",
		"watchdog-orphan":           "TestWatchdogOrphan",
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		a, ok := clients.Lookup(tt.algorithm)
		if !ok {
			t.Fatalf("%s is not registered", tt.algorithm)
		}
		covered[tt.algorithm] = true
		tt.expect.Fencing = a.Traits.Fenced
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clientstest.Run(t, clientstest.Algorithm(tt.algorithm), tt.expect)
		})
	}
	for _, a := range clients.All() {
		if !covered[a.Name] && elsewhere[a.Name] == "" && !a.Traits.LockFree {
			t.Errorf("registered algorithm %s takes a lock but no conformance run covers it", a.Name)
		}
	}
}
