package checker

import (
	"context"
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// TestAGrantAfterAKeyExtendedJustAfterANodeStopIsNone: w2 holds the key
// from 15 s (SET NX PX 10000) and extends it at 19.85 s, before n1's stop
// (freeze-node, 19.9–20.0499 s); n1 stamps the extend 0.1 ms after the
// stop's end: a refresh script's PEXPIRE 10000 whose EVALSHA and GET it
// stamped at 19.89 and 19.895 s, or a plain SET of w2's own token PX 10000
// XX. w1's SET NX at 29.96 s then takes, and w1 is granted. MONITOR stamps
// a command after it ran, so the extend may have run before the stop, as
// early as 19.895 s (the line n1 fed before it; 19.85 s, the extend's
// invoke, for the plain SET), w2's key then gone by 29.96 s: n1's answer
// to w1 is one such a run gives, and there is no
// overlap, as there is none when the key's own SET was stamped so
// (KeyLife.ranEarlier, the last case). The account reads a SET only when
// it makes a key that way (cmdSet sets ranEarlier on a created key; an
// extend's move, a PEXPIRE's, or a same-value SET's, is counted from its
// stamp, and earliest returns the deadline once a command moved it), so it
// holds w2's key to 30.05 s and calls w1's grant one the node contradicts:
// INVALID. The verifier reads the extend the same way (model.exec sets
// ranEarlier to 0 on PEXPIRE and on a same-value SET) and confirms the
// claims. Found by the helper fool-stop2; the first two cases failed
// until a move's deadline got its own ranEarlier. (A script's line fed
// after the stop whose script's earlier line was fed after it too ran
// after the stop: MONITOR feeds a line once it ran, and the script's lines
// run one after another.)
func TestAGrantAfterAKeyExtendedJustAfterANodeStopIsNone(t *testing.T) {
	const (
		scripted = iota // a refresh script's PEXPIRE
		plainSet        // a plain SET of w2's own token, XX
		created         // no earlier key: the SET NX itself stamped after the stop
	)
	build := func(how int) history.History {
		b := newHB(false)
		b.h.Header.Nodes, b.h.Header.Observed = []string{"n1"}, []string{"n1"}
		node := b.n1Cmd
		tok := history.Value{Token: "w2-tok", TTL: ns(10), Nodes: []string{"n1"}}
		if how == created {
			node("w2", 15.01, false, "client", "setname", "locksim:w2:n1")
		} else {
			b.op("w2", history.Acquire, inv1, 15, 15.02, history.OK, tok)
			node("w2", 15.01, false, "set", inv1, "w2-tok", "px", "10000", "nx")
		}
		b.fault("pause-node", []string{"n1"}, 19.9, 20.0499)
		ext := tok
		ext.Renewal = true
		switch how {
		case scripted:
			b.op("w2", history.Extend, inv1, 19.85, 20.06, history.OK, ext)
			node("w2", 19.89, false, "evalsha", "sha1:refresh", "1", inv1, "w2-tok", "10000")
			node("w2", 19.895, true, "get", inv1) // fed before the stop: the PEXPIRE ran after it
			node("w2", 20.05, true, "pexpire", inv1, "10000")
		case plainSet:
			b.op("w2", history.Extend, inv1, 19.85, 20.06, history.OK, ext)
			node("w2", 20.05, false, "set", inv1, "w2-tok", "px", "10000", "xx")
		case created:
			b.op("w2", history.Acquire, inv1, 19.85, 20.06, history.OK, tok)
			node("w2", 20.05, false, "set", inv1, "w2-tok", "px", "10000", "nx")
		}
		b.done("w2", inv1, 21) // and no release reaches n1
		b.op("w1", history.Acquire, inv1, 29.95, 29.97, history.OK, history.Value{Token: "w1-tok", TTL: ns(10), Nodes: []string{"n1"}})
		node("w1", 29.96, false, "set", inv1, "w1-tok", "px", "10000", "nx")
		b.op("w1", history.Release, inv1, 31, 31.1, history.OK, history.Value{Token: "w1-tok", Removed: true, Nodes: []string{"n1"}})
		node("w1", 31.05, false, "evalsha", "sha1:cad", "1", inv1, "w1-tok")
		node("w1", 31.05, true, "get", inv1)
		node("w1", 31.05, true, "del", inv1)
		return named(b.h, "stop-extend")
	}
	tests := []struct {
		name string
		how  int
	}{
		{"a grant after a key whose refresh script's PEXPIRE was stamped just after a stop it was sent before is none", scripted},
		{"a grant after a key whose plain extending SET XX was stamped just after a stop it was sent before is none", plainSet},
		{"a grant after a key whose SET NX was stamped just after a stop it was sent before is none", created},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Mutex(context.Background(), build(tt.how))
			if slices.ContainsFunc(res.Anomalies, func(a Anomaly) bool { return a.Kind == KindMutexOverlap }) {
				t.Errorf("got %s: %s", res.Verdict, res.Summary)
			}
		})
	}
}
