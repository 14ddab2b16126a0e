package checker

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// A per-host lock key (lock-key-per-host, seed 33): at each of two cron
// fires all three servers take "cron:report" at once, each on its own
// key, and each releases its own. The first fire is already no order of
// one lease at a time (three releases that each removed a key, after
// three grants); porcupine's search stops there and never places the
// second fire's operations.
func TestNotLinearizableNamesTheFirstOperationTheLongestOrderCouldNotPlace(t *testing.T) {
	h, err := history.ReadFile(filepath.Join("..", "report", "testdata", "accuracy", "c60b-not-linearizable-at-the-first-fire.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	res, _ := Linearizable(context.Background(), h, Options{})
	var found *Anomaly
	for i, a := range res.Anomalies {
		if a.Kind == KindNotLinearizable {
			found = &res.Anomalies[i]
		}
	}
	if found == nil {
		t.Fatalf("no not-linearizable anomaly: %+v", res)
	}
	// The first fire's operations end at index 14; the second's acquires
	// begin at 27.
	t.Run("the operation it names is of the first fire, where the search stopped", func(t *testing.T) {
		if first := found.Ops[0]; first > 14 {
			t.Errorf("names history op %d (%s's %s), of the second fire: %s", first, h.Ops[first].Client, h.Ops[first].F, found.Explain)
		}
	})
	t.Run("its window starts in the first fire", func(t *testing.T) {
		if found.Start >= h.Ops[27].Invoke {
			t.Errorf("window starts at %d ns, at or after the second fire's first acquire (%d ns)", found.Start, h.Ops[27].Invoke)
		}
	})
}
