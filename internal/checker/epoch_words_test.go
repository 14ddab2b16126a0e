package checker

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// A leader run on a lock that issues no fencing token: its writes carry the
// workload's own epochs, and the checker's words call them so, with the
// number right after the word ("with epoch 1 at", not a parenthesis
// between them) (issue 34, a fresh teacher's finding 13).
func TestAStaleEpochIsToldAsTheWorkloadsEpochNotAFencingToken(t *testing.T) {
	h, err := history.ReadFile(filepath.Join("..", "report", "testdata", "timeline", "leader-split-brain.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rep := Check(context.Background(), h, Options{})
	var told []string
	for _, r := range rep.Results {
		for _, a := range r.Anomalies {
			if a.Kind == KindStaleWriteAccepted {
				told = append(told, a.Explain)
			}
		}
	}
	if len(told) == 0 {
		t.Fatal("no stale write accepted in the leader run")
	}
	for _, e := range told {
		if !strings.Contains(e, " with epoch 1 at ") || !strings.Contains(e, "after it had accepted epoch 2 from") || !strings.Contains(e, "the workload's own number") || strings.Contains(e, "fencing token 1") {
			t.Errorf("the checker says %q: want the epoch named as the workload's, its number after the word", e)
		}
	}
}
