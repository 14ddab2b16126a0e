package verify_test

import (
	"testing"

	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// TestClaimsOfAPlainSetStampedJustAfterANodeStopHold: w1 sent a plain SET
// NX PX 100 at 90 ms, before n1's stop (freeze-node, 100–300 ms); n1
// stamped it 0.1 ms after the stop ended, the first line it fed since 1 ms.
// w2 was then granted at 310 ms by its own SET NX, and its release's
// compare-and-delete read tokC and deleted it: n1 no longer held w1's key
// when w2's SET NX ran (it ran before the stop and its 100 ms ran out in
// it), as the account reads it (KeyLife.ranEarlier, commit 5ddcfce). The
// verifier reads a SET NX that took past such a key only inside a script
// whose INCR followed (s1057, s1166), so it keeps w1's key to its stamped
// deadline and refuses three true claims (w1's key's end, w2's key, w2's
// release). Found by the helper fool-stop; the verifier now reads such a
// SET as the account does (model.ranBeforeStop), independently.
func TestClaimsOfAPlainSetStampedJustAfterANodeStopHold(t *testing.T) {
	stop := history.FaultStep{ID: 1, Kind: "pause-node", Effect: history.EffectFreezeNode, Nodes: []string{"n1"},
		Trigger: history.Trigger{Kind: history.TriggerAt, At: 100 * ms}, Duration: 200 * ms}
	set := kCmdPlain("w1", 300, "set", "k", "tokA", "px", "100", "nx")
	set.Invoke, set.Complete = set.Invoke+100e3, set.Complete+100e3 // 0.1 ms after the stop
	h := handRun(append([]history.Op{
		kCmdPlain("w2", 1, "client", "setname", "locksim:w2:n1"),
		kOp(0, "w1", history.Acquire, history.Info, 90, 290, history.Value{TTL: 100 * ms}),
		{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault, Value: history.Value{Fault: &stop},
			Invoke: 100 * ms, Complete: 300 * ms, Type: history.OK},
		set,
	}, w2TakesKAt310()...))
	h.Header.Plan = []history.FaultStep{stop}
	cs := claimsOf(h)
	if r := verify.Verify(h, cs); len(r.Failures) > 0 {
		t.Errorf("%d of %d claims are false:%s", len(r.Failures), len(cs), describe(r))
	}
}

// w2TakesKAt310 are w2's acquire of k granted at 320 ms by its SET NX at
// 310 ms (tokC), and its release whose compare-and-delete at 335 ms read
// tokC and deleted it: n1 held no other key of k from 310 ms on.
func w2TakesKAt310() []history.Op {
	return []history.Op{
		kOp(1, "w2", history.Acquire, history.OK, 305, 320, history.Value{Token: "tokC", TTL: 100 * ms, Nodes: []string{"n1"}}),
		kCmdPlain("w2", 310, "set", "k", "tokC", "px", "100", "nx"),
		kOp(1, "w2", history.Release, history.OK, 330, 340, history.Value{Token: "tokC", Removed: true, Nodes: []string{"n1"}}),
		kCmdPlain("w2", 335, "evalsha", "cad", "1", "k", "tokC"),
		kCmd("w2", 335, true, "GET", "k"),
		kCmd("w2", 335, true, "DEL", "k"),
	}
}
