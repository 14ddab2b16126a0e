package verify_test

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// TestAKeySentWhileAnotherStopHeldTheNodeIsNotEndedEarly: n1 is stopped
// by two overlapping freeze-node steps, 100–300 ms and 150–297 ms (stops
// nest, cluster.Node.Pause: n1 runs again at 300 ms). w1 begins its
// acquire, and sends its plain SET NX PX 100, at 120 ms, while n1 is
// already stopped; n1 stamps it 0.1 ms after it resumes, 3.1 ms after the
// second step's end, the first line it fed since 1 ms. The SET ran at
// 300 ms at the earliest, so w1's key stood until 400 ms at least, and
// w2's SET NX at 310 ms, which the node and w2's grant say took, is a
// grant beside it. The account takes the second step for the stop the SET
// was sent before (sent by its start, stamped within 5 ms of its end) and
// 120 ms, inside the first step, for the earliest the SET ran; it claims
// w1's key expired at 310 ms, and the verifier, reading the same rule the
// same way (model.ranBeforeStop: any step whose start follows the sending),
// accepts that false claim. Found by the helper fool-stop2; fails now.
func TestAKeySentWhileAnotherStopHeldTheNodeIsNotEndedEarly(t *testing.T) {
	stop := func(id int, from, to int64) (history.FaultStep, history.Op) {
		st := history.FaultStep{ID: id, Kind: "pause-node", Effect: history.EffectFreezeNode, Nodes: []string{"n1"},
			Trigger: history.Trigger{Kind: history.TriggerAt, At: from * ms}, Duration: (to - from) * ms}
		return st, history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault, Value: history.Value{Fault: &st},
			Invoke: from * ms, Complete: to * ms, Type: history.OK}
	}
	st1, op1 := stop(1, 100, 300)
	st2, op2 := stop(2, 150, 297)
	set := kCmdPlain("w1", 300, "set", "k", "tokA", "px", "100", "nx")
	set.Invoke, set.Complete = set.Invoke+100e3, set.Complete+100e3 // 0.1 ms after n1 resumed
	h := handRun([]history.Op{
		kCmdPlain("w2", 1, "client", "setname", "locksim:w2:n1"),
		op1,
		kOp(0, "w1", history.Acquire, history.Info, 120, 290, history.Value{TTL: 100 * ms}),
		op2,
		set,
		kOp(1, "w2", history.Acquire, history.OK, 305, 320, history.Value{Token: "tokC", TTL: 100 * ms, Nodes: []string{"n1"}}),
		kCmdPlain("w2", 310, "set", "k", "tokC", "px", "100", "nx"),
		kOp(1, "w2", history.Release, history.OK, 330, 340, history.Value{Token: "tokC", Removed: true, Nodes: []string{"n1"}}),
		kCmdPlain("w2", 335, "evalsha", "cad", "1", "k", "tokC"),
		kCmd("w2", 335, true, "GET", "k"),
		kCmd("w2", 335, true, "DEL", "k"),
	})
	h.Header.Plan = []history.FaultStep{st1, st2}
	cs := claimsOf(h)
	r := verify.Verify(h, cs)
	for _, c := range cs {
		if c.Kind == "key-life" && c.Token == "tokA" && c.End < 400*ms {
			if !strings.Contains(describe(r), string(c.ID)+" ") {
				t.Errorf("the claim that w1's key (tokA) ended at %d ms, %s, before its 100 ms from n1's resume ran out, holds:%s", c.End/ms, c.How, describe(r))
			}
		}
	}
}
