package report

import (
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// Teacher 4, #19: the basic single-node lock got "Fault tolerance ✔
// kept" for power-loss-always, while lesson 42 §3 calls one Redis node a
// single point of failure: no lock could be taken while it was down.
func TestASingleNodeLocksKeptFaultToleranceSaysItWasNotAvailable(t *testing.T) {
	crash := []history.FaultStep{{ID: 1, Kind: "crash", Effect: history.EffectCrashNode, Nodes: []string{"n1"}}}
	judged := map[string]checker.Verdict{checker.CheckerLiveness: checker.Valid}
	for _, tt := range []struct {
		name   string
		traits []string
		want   string
	}{
		{"a lock on one node kept correctness, not availability", nil, "✔ " + tr(English, "lesson.strip.singlepoint")},
		{"a Redlock kept it across one node's crash", []string{history.TraitMultiNode}, "✔ " + tr(English, "req.kept")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Results{Verdict: checker.Valid, Plan: crash, Checkers: judged, Traits: tt.traits}
			rows := strip(English, r, r, []string{ReqFaultTolerance})
			if len(rows) != 1 || rows[0].Broken != tt.want {
				t.Errorf("rows %+v, want %q", rows, tt.want)
			}
		})
	}
}
