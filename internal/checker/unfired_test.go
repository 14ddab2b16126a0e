package checker

import (
	"context"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// Issue 32: a loaded make test failed on payment-idempotency (run by the
// examples' my-lock, time scale 50): w1 began 25 ms late, w2, started 20 ms
// of wall time after it, paid first, and w1 never reached the write its
// pause waited for. The step never fired because of the machine: the run
// is spoiled, and a suite runs it again. On a harness on time the same
// unfired step is the scenario's own, and a rerun would say the same.
func TestAStepThatNeverFiredOnALateHarnessIsTheMachines(t *testing.T) {
	h, err := history.ReadFile("testdata/unfired-late-start.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		lagNS int64
		want  string
	}{
		{"with the 25 ms lag the run recorded, the machine spoiled it", h.Header.MaxTimerLagNS, SpoiledUnfired},
		{"on a harness on time the scenario's step is its own", 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := h
			h.Header.MaxTimerLagNS = c.lagNS
			rep := Check(context.Background(), h, Options{})
			if rep.Verdict != Unknown {
				t.Fatalf("verdict %s, want unknown", rep.Verdict)
			}
			if cause, why := Spoiled(rep.Verdict, rep.Results); cause != c.want {
				t.Fatalf("Spoiled = %q (%s), want %q", cause, why, c.want)
			}
		})
	}
}
