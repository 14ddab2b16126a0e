package checker

import (
	"context"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// TestARunWhoseHostClockWasSetIsUnknown: a CI rehearsal's wall clock
// jumped about 8 s forward during two 2.6 s runs (Header.WallRate 4.1):
// Redis expired every key at once and an expected-valid file came out
// invalid with a foreign unlock. Such a run is unknown whatever it found,
// and spoiled by the machine (rerun as busy); a clock slewed within
// MaxWallDrift, which the account reads at its rate, keeps its verdict.
func TestARunWhoseHostClockWasSetIsUnknown(t *testing.T) {
	h, err := history.ReadFile("testdata/histories/invalid-concurrent-acquires-both-granted.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if rep := Check(context.Background(), h, Options{}); rep.Verdict != Invalid {
		t.Fatalf("the stored run is %s, not invalid: the case tests nothing", rep.Verdict)
	}
	for _, tc := range []struct {
		name  string
		rate  float64
		want  Verdict
		cause string
	}{
		{"a wall clock stepped forward (4.1× the run's clock) makes the run unknown and spoiled", 4.1, Unknown, SpoiledBusy},
		{"a wall clock stepped back (0.5×) makes the run unknown and spoiled", 0.5, Unknown, SpoiledBusy},
		{"a wall clock slewed 0.5 % keeps the run's verdict", 1.005, Invalid, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hh := h
			hh.Header.WallRate = tc.rate
			rep := Check(context.Background(), hh, Options{})
			if rep.Verdict != tc.want {
				t.Fatalf("verdict %s, want %s", rep.Verdict, tc.want)
			}
			if cause, why := Spoiled(rep.Verdict, rep.Results); cause != tc.cause {
				t.Errorf("spoiled %q (%s), want %q", cause, why, tc.cause)
			}
		})
	}
}
