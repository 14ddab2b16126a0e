package verify_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// TestAKeyWhoseSetRanAfterANodeStopIsNotEndedEarly: w1's plain SET NX PX
// 100 is stamped by n1 0.1 ms after it resumes from a stop (freeze-node)
// at 300 ms, the first line it fed since a line before the stop, and was
// sent (w1's acquire began) before a freeze-node step of n1 began whose
// end is within 5 ms of the stamp. w2's SET NX at 310 ms, which the node
// and w2's grant say took, then claims the key. The account reads w1's
// SET as one that may have run before the stop (KeyLife.ranEarlier) and
// claims w1's key expired at 310 ms; the verifier reads it the same way
// (model.ranBeforeStop) and accepted that false claim. Found by the helper
// fool-stop2; neither makes it now, and the verifier refuses it when it
// is put to it.
//
//   - Overlapping stops: n1 is stopped by steps 100–300 ms and 150–297 ms
//     (stops nest, cluster.Node.Pause: it runs again at 300 ms), and w1
//     sends at 120 ms, inside the first and before the second began. The
//     SET ran at 300 ms at the earliest: w1's key stood to 400 ms at least.
//   - A key due inside the stop: w3's SET NX PX 100 at 60 ms is due at
//     160 ms, inside the one stop, 100–300 ms; w1 sends at 90 ms. w1's SET
//     NX took, so it ran after w3's key was gone, after 160 ms, so after
//     the stop: w1's key stood to 400 ms at least.
func TestAKeyWhoseSetRanAfterANodeStopIsNotEndedEarly(t *testing.T) {
	stop := func(id int, from, to int64) (history.FaultStep, history.Op) {
		st := history.FaultStep{ID: id, Kind: "pause-node", Effect: history.EffectFreezeNode, Nodes: []string{"n1"},
			Trigger: history.Trigger{Kind: history.TriggerAt, At: from * ms}, Duration: (to - from) * ms}
		return st, history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault, Value: history.Value{Fault: &st},
			Invoke: from * ms, Complete: to * ms, Type: history.OK}
	}
	tests := []struct {
		name   string
		stops  [][2]int64
		sentAt int64
		w3     bool
	}{
		{"a key sent while an overlapping stop held the node ends no earlier than its TTL from the node's resume", [][2]int64{{100, 300}, {150, 297}}, 120, false},
		{"a key whose SET NX took after another key due inside the stop ends no earlier than its TTL from the node's resume", [][2]int64{{100, 300}}, 90, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops := []history.Op{kCmdPlain("w2", 1, "client", "setname", "locksim:w2:n1")}
			if tt.w3 {
				ops = append(ops, kOp(2, "w3", history.Acquire, history.OK, 55, 65, history.Value{Token: "tokB", TTL: 100 * ms, Nodes: []string{"n1"}}),
					kCmdPlain("w3", 60, "set", "k", "tokB", "px", "100", "nx"))
			}
			var plan []history.FaultStep
			for i, s := range tt.stops {
				st, op := stop(i+1, s[0], s[1])
				plan = append(plan, st)
				ops = append(ops, op)
			}
			set := kCmdPlain("w1", 300, "set", "k", "tokA", "px", "100", "nx")
			set.Invoke, set.Complete = set.Invoke+100e3, set.Complete+100e3 // 0.1 ms after n1 resumed
			ops = append(ops,
				kOp(0, "w1", history.Acquire, history.Info, tt.sentAt, 290, history.Value{TTL: 100 * ms}),
				set,
			)
			ops = append(ops, w2TakesKAt310()...)
			h := handRun(ops)
			h.Header.Plan = plan
			cs := claimsOf(h)
			r := verify.Verify(h, cs)
			for _, c := range cs {
				if c.Kind == "key-life" && c.Token == "tokA" && c.End < 400*ms && !strings.Contains(describe(r), string(c.ID)+" ") {
					t.Errorf("the claim that w1's key (tokA) ended at %d ms, %s, before its 100 ms from n1's resume ran out, holds:%s", c.End/ms, c.How, describe(r))
				}
			}
			// The verifier refuses that claim on its own reading, whatever
			// the account now says.
			rec := slices.IndexFunc(h.Ops, func(op history.Op) bool {
				return op.F == history.NodeCmd && len(op.Value.Cmd) > 2 && op.Value.Cmd[2] == "tokA"
			})
			c := claim.Claim{ID: "key-life-1", Kind: claim.KeyLife, Client: "w1", Key: "k", Node: "n1", Token: "tokA",
				Start: h.Ops[rec].Invoke, End: 310 * ms, How: "expired", Records: []int{rec}}
			if r := verify.Verify(h, []claim.Claim{c}); len(r.Failures) == 0 {
				t.Errorf("the claim that w1's key expired at 310 ms holds: %+v", c)
			}
		})
	}
}
