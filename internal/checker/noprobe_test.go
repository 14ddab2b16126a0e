package checker

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// Reader 13 (inventory-oversell, probe: false): the liveness row said
// "VALID | no final probe", naming only what was not done. With no final
// probe, liveness judges the run's refused acquires alone (a stretch
// unavailable, an orphaned lease): where some were refused, its summary
// says it judged them; where none was, it checked nothing and says so
// (NotChecked), as fencing does without tokens.
func TestLivenessWithoutAProbeSaysWhatItChecked(t *testing.T) {
	h, err := history.ReadFile(filepath.Join("..", "report", "testdata", "accuracy", "c51a-liveness-without-probe-says-what-it-checked.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	first := -1
	for i, op := range h.Ops {
		if op.F == history.Acquire && op.Type == history.Fail && op.Key != "" {
			refused++
			if first < 0 {
				first = i
			}
		}
	}
	t.Run("refused acquires were judged", func(t *testing.T) {
		r := Liveness(context.Background(), h)
		if r.NotChecked || r.Verdict != Valid {
			t.Fatalf("verdict %s, not checked %v; want valid, checked", r.Verdict, r.NotChecked)
		}
		if want := "the run's refused acquires alone"; !strings.Contains(r.Summary, want) {
			t.Errorf("summary %q lacks %q", r.Summary, want)
		}
		if r.Counts[claim.RefusedAcquires] != refused {
			t.Errorf("refused-acquires count %d, want %d", r.Counts[claim.RefusedAcquires], refused)
		}
	})
	t.Run("nothing refused, no probe: not checked", func(t *testing.T) {
		short := h
		short.Ops = h.Ops[:first]
		r := Liveness(context.Background(), short)
		if !r.NotChecked || r.Verdict != Valid {
			t.Fatalf("verdict %s, not checked %v; want not checked", r.Verdict, r.NotChecked)
		}
		if want := "not checked: no final probe, and no acquire was refused"; r.Summary != want {
			t.Errorf("summary %q, want %q", r.Summary, want)
		}
	})
}
