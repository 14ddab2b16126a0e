package account_test

import (
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// Issue 27 (a fresh reader, power-loss-everysec seed 32): a crash step's
// record runs from the harness's start (before the kill) to its finish
// (after the restart and the node's recovery); the step also records when
// its nodes were really dead (DeadFrom, DeadTo). The crash's window, and
// the keys it ended, come from the death when it was recorded.
func TestACrashIsToldFromItsNodesDeath(t *testing.T) {
	tests := []struct {
		name        string
		persistence string
		dead        [2]float64 // ms; zero when the step recorded none
		unobserved  bool       // n1 not recorded from just after the step began
		wantKeyEnd  float64
		wantWindow  [2]float64
	}{
		{"a crash that recorded its death ends the key and is told at the kill, down until the restart",
			"none", [2]float64{5010, 5200}, false, 5010, [2]float64{5010, 5200}},
		{"a power loss of an everysec node not recorded across it ends the key at the kill",
			"aof-everysec", [2]float64{5010, 5200}, true, 5010, [2]float64{5010, 5200}},
		{"a crash that recorded no death is told over the step's own window",
			"none", [2]float64{}, false, 5000, [2]float64{5000, 5300}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun("safe", "n1")
			r.h.Header.Persistence = map[string]string{"n1": tt.persistence}
			r.acquire("w1", "A", 0, 2, "n1")
			r.cmd("n1", "w1", 1, false, "set", "invoice-1", "A", "px", "30000", "nx")
			r.crashN1(5000, 5300)
			f := &r.h.Ops[len(r.h.Ops)-1]
			f.Value.Fault.PowerLoss = tt.persistence == "aof-everysec"
			f.Value.DeadFrom, f.Value.DeadTo = ms(tt.dead[0]), ms(tt.dead[1])
			if tt.unobserved {
				r.add(history.Op{Process: history.NodeProcess, F: history.Unobserved, Type: history.OK,
					Invoke: ms(5001), Complete: ms(5310), Value: history.Value{Node: "n1"}})
			}
			r.held(5320)
			a := account.New(r.h)
			var found bool
			for _, k := range a.Keys() {
				if k.Key != "invoice-1" || k.Value != "A" {
					continue
				}
				found = true
				if k.End != ms(tt.wantKeyEnd) || k.Ended.Kind != account.EndCrashed {
					t.Errorf("w1's key ended at %d (%s), want %d (crashed)", k.End, k.Ended.Kind, ms(tt.wantKeyEnd))
				}
			}
			if !found {
				t.Fatal("no life of w1's key")
			}
			c, ok := claim.Find(a.Claims(), func(c claim.Claim) bool { return c.Kind == claim.Fault })
			if !ok {
				t.Fatal("no fault claim")
			}
			if c.Start != ms(tt.wantWindow[0]) || c.End != ms(tt.wantWindow[1]) {
				t.Errorf("crash told over [%d, %d], want [%d, %d]", c.Start, c.End, ms(tt.wantWindow[0]), ms(tt.wantWindow[1]))
			}
		})
	}
}
