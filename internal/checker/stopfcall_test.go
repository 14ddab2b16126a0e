package checker

import (
	"context"
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// TestAGrantAfterAFunctionsKeySetAfterALongNodeStopIsNone: w2's acquire
// runs a script on n1 whose call n1 stamps at 19.89 s, before n1's stop
// (freeze-node, 19.9–30.0499 s, longer than the key's 10 s), and whose SET
// NX PX 10000 and fence INCR n1 stamps 0.1 ms after the stop's end: the
// rule's own case (fencing-random-nemesis s1166), the SET may have run
// before the stop and its key be gone when w1's SET NX takes at 30.07 s,
// so w1's grant is no overlap. With the script called by EVALSHA the
// account reads it so; called as a Redis function (FCALL, which the
// observer and the report count as a script call, observe.scriptKey and
// report.scriptCall) the account's sentBy finds no EVAL or EVALSHA before
// the script's lines (IsScript) and counts the key's TTL from the stamp:
// w1's grant is one the node contradicts, INVALID. The verifier takes the
// node's last line outside a script for the call, whatever its command
// (model.replay: outside), so the two disagree: locksim check finds 4 of
// the account's 24 claims false (w2's key deleted by w1, w1's key inferred,
// w1's release and foreign delete of w2's key). Found by the helper
// fool-stop2; the FCALL case failed until IsScript counted FCALL (and the
// _RO forms) as a script call.
func TestAGrantAfterAFunctionsKeySetAfterALongNodeStopIsNone(t *testing.T) {
	build := func(call string) history.History {
		b := newHB(true)
		b.h.Header.Nodes, b.h.Header.Observed = []string{"n1"}, []string{"n1"}
		node := b.n1Cmd
		b.fault("pause-node", []string{"n1"}, 19.9, 30.0499)
		b.op("w2", history.Acquire, inv1, 19.88, 30.06, history.OK, history.Value{Token: "w2-tok", Fence: 1, TTL: ns(10), Nodes: []string{"n1"}})
		node("w2", 19.89, false, call, "acquire", "2", inv1, "fence", "w2-tok", "10000")
		node("w2", 30.05, true, "set", inv1, "w2-tok", "px", "10000", "nx")
		node("w2", 30.05, true, "incr", "fence")
		b.done("w2", inv1, 30.065) // and no release reaches n1
		b.op("w1", history.Acquire, inv1, 30.065, 30.08, history.OK, history.Value{Token: "w1-tok", Fence: 2, TTL: ns(10), Nodes: []string{"n1"}})
		node("w1", 30.07, false, call, "acquire", "2", inv1, "fence", "w1-tok", "10000")
		node("w1", 30.07, true, "set", inv1, "w1-tok", "px", "10000", "nx")
		node("w1", 30.07, true, "incr", "fence")
		b.op("w1", history.Release, inv1, 31, 31.1, history.OK, history.Value{Token: "w1-tok", Removed: true, Nodes: []string{"n1"}})
		node("w1", 31.05, false, "evalsha", "sha1:cad", "1", inv1, "w1-tok")
		node("w1", 31.05, true, "get", inv1)
		node("w1", 31.05, true, "del", inv1)
		return named(b.h, "stop-fcall")
	}
	for _, call := range []string{"evalsha", "fcall"} {
		t.Run("a grant after a key whose script, called by "+call+" before a stop longer than its TTL, was stamped just after it, is none", func(t *testing.T) {
			res := Mutex(context.Background(), build(call))
			if slices.ContainsFunc(res.Anomalies, func(a Anomaly) bool { return a.Kind == KindMutexOverlap }) {
				t.Errorf("got %s: %s", res.Verdict, res.Summary)
			}
		})
	}
}
