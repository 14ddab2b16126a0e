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
	res, lin := Linearizable(context.Background(), h, Options{})
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
	t.Run("the order history.html draws leaves out the operation it names", func(t *testing.T) {
		if pos, in := lin.Order[found.Ops[0]]; in {
			t.Errorf("history op %d, which it names as not placeable, is at position %d of the order drawn", found.Ops[0], pos)
		}
		if len(lin.Order) == 0 {
			t.Error("no order to draw")
		}
	})
	t.Run("every check names the same operation", func(t *testing.T) {
		// porcupine returns its longest orders in no fixed order.
		for range 5 {
			again, _ := Linearizable(context.Background(), h, Options{})
			for _, a := range again.Anomalies {
				if a.Kind == KindNotLinearizable && a.Ops[0] != found.Ops[0] {
					t.Fatalf("names history op %d, then %d", found.Ops[0], a.Ops[0])
				}
			}
		}
	})
	t.Run("its window starts in the first fire", func(t *testing.T) {
		if found.Start >= h.Ops[27].Invoke {
			t.Errorf("window starts at %d ns, at or after the second fire's first acquire (%d ns)", found.Start, h.Ops[27].Invoke)
		}
	})
}
