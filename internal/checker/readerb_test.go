package checker

import (
	"context"
	"testing"
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
