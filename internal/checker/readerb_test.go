package checker

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// Issue 27 (a fresh reader, failover-fence-regression seed 25): a token
// regression whose two grants carried the same token was labelled "went
// backwards"; the checker says whether the later token repeated the
// earlier one or was lower, for the report's word.
func TestATokenRegressionSaysWhetherTheTokenWasRepeated(t *testing.T) {
	tests := []struct {
		name          string
		first, second int64
		repeated      bool
	}{
		{"a second grant of the same token is a repeat", 1, 1, true},
		{"a second grant of a lower token is no repeat", 2, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newHB(true)
			b.acquire("w1", "k", 0.1, 0.2, tt.first)
			b.acquire("w2", "k", 5, 5.1, tt.second)
			r := Fencing(context.Background(), b.h)
			var found bool
			for _, a := range r.Anomalies {
				if a.Kind != KindTokenRegression {
					continue
				}
				found = true
				if a.Repeated != tt.repeated {
					t.Errorf("Repeated = %v, want %v (tokens %d then %d)", a.Repeated, tt.repeated, tt.first, tt.second)
				}
			}
			if !found {
				t.Fatalf("no token regression in %+v", r)
			}
		})
	}
}

// TestTheUnavailableWordsDoNotDenyAnOrphanTheNodeHeld: where a crashed
// client's key stood on its node (an orphaned lease, kept by another
// client's extends), the unavailable finding must not say that no node
// held a lease: the node held the orphan; what none held was the key of a
// client that still believed it held the lock (fresh reader, stop 41).
func TestTheUnavailableWordsDoNotDenyAnOrphanTheNodeHeld(t *testing.T) {
	h, err := history.ReadFile(filepath.Join("..", "report", "testdata", "accuracy", "c19f-orphan-kept-by-another-heartbeat.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rep := Check(context.Background(), h, Options{})
	var orphan, unavailable bool
	for _, r := range rep.Results {
		for _, an := range r.Anomalies {
			switch an.Kind {
			case KindOrphanedLease:
				orphan = true
			case KindUnavailable:
				unavailable = true
				if strings.Contains(an.Explain, "no node held") && !strings.Contains(an.Explain, "still believed") {
					t.Errorf("unavailable says no node held a lease, beside an orphan its node held: %s", an.Explain)
				}
			}
		}
	}
	if !orphan || !unavailable {
		t.Fatalf("the stored run should show an orphaned lease and the lock unavailable (orphan %v, unavailable %v)", orphan, unavailable)
	}
}

// TestAnOutageIsToldOnceFromItsFirstRefusal (a fresh reader, F10 and
// F13): the unavailable finding starts where the lock became unobtainable
// to every client that tried, not at the final probe, and an outage the
// probe only prolongs is one finding, not two nested ones.
func TestAnOutageIsToldOnceFromItsFirstRefusal(t *testing.T) {
	tests := []struct {
		name, file string
		start      float64 // scenario seconds of the first refusal
	}{
		{"a crashed holder's 24 h key: the outage starts at w2's first refused fire, not at the probe",
			"c27a-crashed-holder-outage-from-first-refusal", 60.065},
		{"a dead waiter at the queue's head: w3's refusals and the probe's are one outage",
			"c27b-dead-waiter-heads-the-queue", 10.308},
		{"a crashed leader's key kept by another's extends: the outage starts at w2's first refusal after the crash",
			"c19f-orphan-kept-by-another-heartbeat", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := history.ReadFile(filepath.Join("..", "report", "testdata", "accuracy", tt.file+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			var un []Anomaly
			for _, an := range Liveness(context.Background(), h).Anomalies {
				if an.Kind == KindUnavailable {
					un = append(un, an)
				}
			}
			if len(un) != 1 {
				t.Fatalf("%d unavailable findings, want one: %+v", len(un), un)
			}
			first := -1.0
			for _, op := range h.Ops {
				if op.F == history.Acquire && op.Type == history.Fail && op.Key == un[0].Key && h.Header.ScenarioSeconds(op.Invoke) > firstCrash(h) {
					first = h.Header.ScenarioSeconds(op.Invoke)
					break
				}
			}
			if tt.start > 0 {
				first = tt.start
			}
			if got := un[0].StartS; got < first-0.001 || got > first+0.001 {
				t.Errorf("the outage starts at %.3f s, want %.3f s (the first refusal no holder explains): %s", got, first, un[0].Explain)
			}
		})
	}
}

// firstCrash is the scenario second of the run's first client crash (0
// when none).
func firstCrash(h history.History) float64 {
	for _, op := range h.Ops {
		if st := op.Value.Fault; op.F == history.Fault && st != nil && st.Effect == history.EffectCrashClient {
			return h.Header.ScenarioSeconds(op.Invoke)
		}
	}
	return 0
}
