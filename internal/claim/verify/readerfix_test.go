package verify_test

import (
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// Issue 27 (a fresh reader, class 16): cron-duplicate-run's violation step
// sat at the third run of a fire time. A duplicate run became one at its
// second run; the verifier refuses it placed at any other run.
func TestVerifierPlacesADuplicateRunAtItsSecondRun(t *testing.T) {
	h := corpus("c06-cron-duplicate-run")(t)
	c, ok := claim.Find(claimsOf(h), kind(claim.Anomaly, func(c claim.Claim) bool {
		return c.What == history.AnomalyDuplicateRun && len(c.Violating) > 1
	}))
	if !ok {
		t.Fatal("c06 makes no duplicate-run claim with two violating runs")
	}
	if r := verify.Verify(h, []claim.Claim{c}); r.Held != 1 {
		t.Fatalf("the true claim %+v is not accepted:%s", c, describe(r))
	}
	runs := slices.Clone(c.Violating)
	slices.SortFunc(runs, func(a, b int) int { return int(h.Ops[a].Invoke - h.Ops[b].Invoke) })
	tests := []struct {
		name string
		at   int64
	}{
		{"placed at its third run", h.Ops[runs[len(runs)-1]].Invoke},
		{"placed at its first run, before any duplicate", h.Ops[c.Records[0]].Invoke},
	}
	for _, tt := range tests {
		t.Run("a duplicate run is refused "+tt.name, func(t *testing.T) {
			f := c
			f.At = tt.at
			if r := verify.Verify(h, []claim.Claim{f}); len(r.Failures) != 1 {
				t.Fatalf("the false claim (at %d, its second run at %d) is not refused: %+v", f.At, c.At, r)
			} else {
				t.Logf("refused: %s", r.Failures[0].Reason)
			}
		})
	}
}
