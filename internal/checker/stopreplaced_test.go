package checker

import (
	"context"
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// TestAGrantBesideAKeySetAfterAnotherExpiredInANodeStopIsTwoOwners: w3's
// key (SET NX PX 10000 stamped at 9.95 s, no release) is due at 19.95 s,
// inside n1's stop (freeze-node, 19.9–20.0499 s). w2 sends its SET NX PX
// 10000 at 19.85 s, before the stop, and n1 stamps it 0.1 ms after the
// stop's end; it took (w2 is granted). A SET NX that took ran after the key
// it found gone was gone: after 19.95 s, when n1 was stopped, so after the
// stop, and w2's key stood to 30.0499 s; w1's grant by its own SET NX at
// 29.95 s is two owners. The account reads w2's SET as one that may have
// run before the stop (stopEndedBefore: the line before it at 9.95 s, the
// send at 19.85 s), 0.2 s before its stamp, though a run then would have
// met w3's key and set nothing, and lets w1's grant end w2's key at its
// earliest deadline: VALID. The verifier reads it the same way
// (ranBeforeStop) and confirms the account's claims. Found by the helper
// fool-stop2; the first case failed until a created key's earliest run
// was bounded by the key it found gone (sim.ranSince). In the second w3's key is due
// before the stop (at 19.85 s), so w2's SET may have run before it, and
// w1's grant ends w2's key as the rule means.
func TestAGrantBesideAKeySetAfterAnotherExpiredInANodeStopIsTwoOwners(t *testing.T) {
	build := func(w3At float64) history.History {
		b := newHB(false)
		b.h.Header.Nodes, b.h.Header.Observed = []string{"n1"}, []string{"n1"}
		node := b.n1Cmd
		b.acquireTTL("w3", inv1, w3At-0.01, w3At+0.01, 0, 10)
		node("w3", w3At, false, "set", inv1, "w3-tok", "px", "10000", "nx")
		b.done("w3", inv1, w3At+0.5) // and no release reaches n1
		b.fault("pause-node", []string{"n1"}, 19.9, 20.0499)
		b.acquireTTL("w2", inv1, 19.85, 20.1, 0, 10)
		node("w2", 20.05, false, "set", inv1, "w2-tok", "px", "10000", "nx")
		b.done("w2", inv1, 21) // and no release reaches n1
		b.acquireTTL("w1", inv1, 29.93, 30, 0, 10)
		node("w1", 29.95, false, "set", inv1, "w1-tok", "px", "10000", "nx") // n1 held w2's key: it set nothing
		b.release("w1", inv1, 30.01, 30.03, false)
		node("w1", 30.02, false, "evalsha", "cad", "1", inv1, "w1-tok")
		node("w1", 30.02, true, "GET", inv1) // not w1's token: no DEL
		return named(b.h, "stop-replaced")
	}
	tests := []struct {
		name    string
		w3At    float64
		overlap bool
	}{
		{"a grant beside w2's key, whose SET NX took after w3's key due inside the stop, is a mutex overlap", 9.95, true},
		{"a grant after w2's key, whose SET NX took after w3's key due before the stop, is none", 9.85, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Mutex(context.Background(), build(tt.w3At))
			got := slices.ContainsFunc(res.Anomalies, func(a Anomaly) bool { return a.Kind == KindMutexOverlap && a.Stale == "w2" && a.Current == "w1" })
			if got != tt.overlap {
				t.Errorf("got %s: %s", res.Verdict, res.Summary)
			}
		})
	}
}
