package checker

import (
	"context"
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// TestAGrantBesideAKeySentWhileAnotherStopHeldTheNodeIsTwoOwners: w2's
// acquire begins, and its SET NX PX 10000 is sent, while n1 is already
// stopped by one freeze-node step; n1 stamps the SET 0.1 ms after its
// stop ends (the first line it fed since 0.01 s), and the SET's stamp
// falls within 5 ms of the end of another freeze-node step of n1 that
// began after w2 sent it. w2 leaves without a release reaching n1, and w1
// is granted by its own SET NX 9.93 s after w2's SET (n1 sets a key for
// it, a key the node contradicts). n1 was stopped from before w2 sent its
// SET until just before it stamped it (stops nest, cluster.Node.Pause), so
// the SET ran when it was stamped, and w2's key stood until 10 s later:
// w1's grant is two owners (TestAGrantBesideAKeySetAfterANodeStopIsTwoOwners).
// The account takes the second step for the stop the SET was sent before
// (stopEndedBefore: sent by that step's start, stamped within 5 ms of its
// end) and the SET's sending, inside the first step, for the earliest it
// ran (KeyLife.ranEarlier); w1's grant then ends w2's key from that earlier
// deadline, and the run was VALID. Found by the helper fool-stop2; fixed
// by merging overlapping steps into one stop and counting a send inside a
// stop from its end (account.stopsOf, stopEndedBefore). In the first case the steps overlap (the second begins inside the
// first and ends 4 ms before it); in the second they are apart, w2 sending
// in the first (n1 stopped 19.0–19.5 s) and n1 stamping just after the
// second (19.9–20.05 s): the SET ran at 19.5 s at the earliest, its key
// standing to 29.5 s at least, past w1's grant at 29.35 s.
func TestAGrantBesideAKeySentWhileAnotherStopHeldTheNodeIsTwoOwners(t *testing.T) {
	type stop struct{ from, to float64 }
	build := func(stops []stop, sentAt, setAt, grantAt float64) history.History {
		b := newHB(false)
		b.h.Header.Nodes, b.h.Header.Observed = []string{"n1"}, []string{"n1"}
		node := b.n1Cmd
		node("w2", 0.01, false, "client", "setname", "locksim:w2:n1")
		for _, s := range stops {
			b.fault("pause-node", []string{"n1"}, s.from, s.to)
		}
		b.acquireTTL("w2", inv1, sentAt, setAt+0.05, 0, 10)
		node("w2", setAt, false, "set", inv1, "w2-tok", "px", "10000", "nx")
		b.done("w2", inv1, setAt+1) // and no release reaches n1
		b.acquireTTL("w1", inv1, grantAt-0.02, grantAt+0.05, 0, 10)
		node("w1", grantAt, false, "set", inv1, "w1-tok", "px", "10000", "nx")
		b.release("w1", inv1, grantAt+1, grantAt+1.1, true)
		node("w1", grantAt+1.05, false, "evalsha", "cad", "1", inv1, "w1-tok")
		node("w1", grantAt+1.05, true, "GET", inv1)
		node("w1", grantAt+1.05, true, "DEL", inv1)
		return named(b.h, "stop-sent-inside-another")
	}
	tests := []struct {
		name                   string
		stops                  []stop
		sentAt, setAt, grantAt float64
	}{
		{"a grant beside w2's key, sent while an overlapping stop held the node, is a mutex overlap",
			[]stop{{19.9, 20.0499}, {19.95, 20.046}}, 19.92, 20.05, 29.98},
		{"a grant beside w2's key, sent inside an earlier stop of the node, is a mutex overlap",
			[]stop{{19.0, 19.5}, {19.9, 20.0499}}, 19.2, 20.05, 29.35},
		// The same without the step the SET was sent before (passes now).
		{"a grant beside w2's key, sent while the one stop held the node, is a mutex overlap",
			[]stop{{19.9, 20.0499}}, 19.92, 20.05, 29.98},
		{"a grant beside w2's key, sent inside a stop long before its stamp, is a mutex overlap",
			[]stop{{19.0, 19.5}}, 19.2, 20.05, 29.35},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Mutex(context.Background(), build(tt.stops, tt.sentAt, tt.setAt, tt.grantAt))
			if !slices.ContainsFunc(res.Anomalies, func(a Anomaly) bool { return a.Kind == KindMutexOverlap && a.Stale == "w2" && a.Current == "w1" }) {
				t.Errorf("got %s: %s", res.Verdict, res.Summary)
			}
		})
	}
}
