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
