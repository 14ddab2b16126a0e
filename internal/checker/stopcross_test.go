package checker

import (
	"context"
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// TestAGrantBesideAKeySetAfterALineFedAfterANodeStopIsTwoOwners: w2 sends
// its SET NX PX 10000 at 19.85 s, before n1's stop (freeze-node,
// 19.9–20.0499 s). On resume n1 feeds w3's PING first and w2's SET next,
// as the history's order (the node's MONITOR stream) says, their stamps
// crossing by 20 µs (the SET's 20.04991 s, the PING's 20.04993 s: stamps
// mapped onto the run's clock line by line can cross by a few µs, s1056).
// The SET ran after the PING, which ran after the stop: w2's key stood
// from 20.0499 s at the earliest to 30.0499 s, and w1's grant by its own
// SET NX at 29.95 s, which n1 says took, is two owners. The account orders
// a node's lines by their stamps (replay's sort), so it takes the SET for
// the first line after the stop and the line before the stop (0.01 s) and
// w2's sending for the earliest it ran (stopEndedBefore), lets w1's grant
// end w2's key at 29.95 s, and the run is VALID. The verifier keeps the
// stream's order (replay: each line at no earlier than the one before it)
// and refuses the account's claims that w2's key expired at 29.95 s and
// that w1's SET NX made a key (locksim check: 2 of 21 claims false).
// Found by the helper fool-stop2; the first case failed until the account
// took the line fed before the SET in the stream's order (fedBefore). The second is
// the same with the stamps in the stream's order.
func TestAGrantBesideAKeySetAfterALineFedAfterANodeStopIsTwoOwners(t *testing.T) {
	build := func(setAt float64) history.History {
		b := newHB(false)
		b.h.Header.Nodes, b.h.Header.Observed = []string{"n1"}, []string{"n1"}
		node := b.n1Cmd
		node("w2", 0.01, false, "client", "setname", "locksim:w2:n1")
		b.fault("pause-node", []string{"n1"}, 19.9, 20.0499)
		b.acquireTTL("w2", inv1, 19.85, 20.1, 0, 10)
		node("w3", 20.04993, false, "ping")
		node("w2", setAt, false, "set", inv1, "w2-tok", "px", "10000", "nx")
		b.done("w2", inv1, 21) // and no release reaches n1
		b.acquireTTL("w1", inv1, 29.93, 30, 0, 10)
		node("w1", 29.95, false, "set", inv1, "w1-tok", "px", "10000", "nx") // n1 held w2's key: it set nothing
		b.release("w1", inv1, 30.01, 30.03, false)
		node("w1", 30.02, false, "evalsha", "cad", "1", inv1, "w1-tok")
		node("w1", 30.02, true, "GET", inv1) // w2's token: no DEL
		return named(b.h, "stop-crossed")
	}
	tests := []struct {
		name  string
		setAt float64
	}{
		{"a grant beside w2's key, its SET fed after another line that followed the stop though stamped 20 µs before it, is a mutex overlap", 20.04991},
		{"a grant beside w2's key, its SET fed and stamped after another line that followed the stop, is a mutex overlap", 20.04995},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Mutex(context.Background(), build(tt.setAt))
			if !slices.ContainsFunc(res.Anomalies, func(a Anomaly) bool { return a.Kind == KindMutexOverlap && a.Stale == "w2" && a.Current == "w1" }) {
				t.Errorf("got %s: %s", res.Verdict, res.Summary)
			}
		})
	}
}
