package checker

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
)

// Issue 27 (a fresh reader): a stuck lock's window — stuck, nobody using
// it — starts when its holder stopped using the lock (its lost release),
// not at its grant (nor a crash after it); the anomaly keeps the grant as
// Since. A holder that never stopped (hung in its critical section)
// keeps its window from Since.
func TestAStuckLockIsStuckFromWhenItsHolderStoppedUsingIt(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		quit  string
		start int // the op whose invoke starts the window; -1: Since; -2: after Since
		since int // the acquire whose completion is Since; -1: not checked
	}{
		{"a holder whose release was lost stopped using it at that release", "c62a-stuck-lock-window-from-lost-release", finding.QuitReleaseLost, 19, 1},
		{"a hung holder never stopped using it", "c41a-renewed-stuck-lock-no-faults", "", -1, -1},
		{"a holder that crashed after its key was set stopped using it at its crash", "c46b-stuck-lock-held-since-key-set", finding.QuitCrashed, -2, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := history.ReadFile(filepath.Join("..", "report", "testdata", "accuracy", tt.file+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, an := range Liveness(context.Background(), h).Anomalies {
				if an.Kind != KindStuckLock {
					continue
				}
				n++
				if an.Quit != tt.quit {
					t.Errorf("quit %q, want %q: %s", an.Quit, tt.quit, an.Explain)
				}
				if tt.start == -1 && an.Start != an.Since {
					t.Errorf("window starts at %d, want its Since %d", an.Start, an.Since)
				}
				if tt.start == -2 && an.Start <= an.Since {
					t.Errorf("window starts at %d, not after its Since %d", an.Start, an.Since)
				}
				if tt.start >= 0 && an.Start != h.Ops[tt.start].Invoke {
					t.Errorf("window starts at %d, want %d (record %d's invoke)", an.Start, h.Ops[tt.start].Invoke, tt.start)
				}
				if tt.since >= 0 && an.Since != h.Ops[tt.since].Complete {
					t.Errorf("since %d, want %d (record %d's completion)", an.Since, h.Ops[tt.since].Complete, tt.since)
				}
			}
			if n != 1 {
				t.Fatalf("%d stuck locks, want 1", n)
			}
		})
	}
}
