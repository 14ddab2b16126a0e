package checker

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// Issue 27 (claims, third round): a key its owner's release kept for the
// lock's minimum hold (ShedLock's lockAtLeastFor: a PEXPIRE, by design)
// is told as kept, not as an orphan; a real orphan — a key left by a
// crashed holder, or one another client's plain extends kept — is still
// one.
func TestAKeyKeptForTheMinimumHoldIsNoOrphan(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		minHold bool
	}{
		{"keys the releases kept to lockAtLeastFor are kept for the minimum hold", "c29a-min-hold-release-keeps-key", true},
		{"a crashed holder's 24 h key is still an orphan", "c27a-crashed-holder-outage-from-first-refusal", false},
		{"a key another client's plain extends kept is still an orphan", "c19f-orphan-kept-by-another-heartbeat", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := history.ReadFile(filepath.Join("..", "report", "testdata", "accuracy", tt.file+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, an := range Liveness(context.Background(), h).Anomalies {
				if an.Kind != KindOrphanedLease {
					continue
				}
				n++
				if got := an.Cause != nil && an.Cause.MinHold; got != tt.minHold {
					t.Errorf("orphaned lease of %s: kept for the minimum hold %v, want %v: %s", an.Owner, got, tt.minHold, an.Explain)
				}
				if tt.minHold && (!an.Informational || an.Harmless != HarmlessMinHold) {
					t.Errorf("a key kept for the minimum hold is informational (%v) as %q, want %q", an.Informational, an.Harmless, HarmlessMinHold)
				}
			}
			if n == 0 {
				t.Fatal("no orphaned-lease finding")
			}
		})
	}
}
