package verify_test

import (
	"fmt"
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// TestVerifierRefusesWhatAFuzzOfAStoredReportSlippedPast holds the
// mutations of a real report's claims (redlock-clock-jump, seed 8) that a
// one-field fuzz found the verifier accepting, each rebuilt on a history
// of the tests: a careless reader would believe every one of them.
func TestVerifierRefusesWhatAFuzzOfAStoredReportSlippedPast(t *testing.T) {
	cases := []mutation{
		{"a key a node's clock jump removed is not told as released by the harness's shift script", hand,
			ended("clock"), func(c *claim.Claim) { c.How = "released" }},
		{"a key a node's clock jump removed is not told as deleted by the harness", hand,
			ended("clock"), func(c *claim.Claim) { c.How = "deleted" }},
		{"a key its owner released is not told as lost in a failover in a run that had none", corpus("c01-naive-del-foreign-unlock"),
			ended("released"), func(c *claim.Claim) { c.How = "failover" }},
		{"a key its owner released is not told as removed by a restart's restore in a run that restarted no client", corpus("c01-naive-del-foreign-unlock"),
			ended("released"), func(c *claim.Claim) { c.How = "restored" }},
		{"a hold its client's ok acquire began is not told as one its client never learnt it had", corpus("c01-naive-del-foreign-unlock"),
			kind(claim.Hold, func(c claim.Claim) bool { return c.Believed }), func(c *claim.Claim) { c.Believed = false }},
		{"an overlap does not begin before the newer holder's grant returned", adviceRun("redlock-clock-jump"),
			kind(claim.Anomaly, func(c claim.Claim) bool { return c.What == history.AnomalyMutexOverlap && len(c.Accepted) > 0 }),
			func(c *claim.Claim) { c.Start -= 300 * ms }},
		{"a clock jump on one node is not told as one on another", adviceRun("redlock-clock-jump"),
			fault(history.EffectNodeClock), func(c *claim.Claim) { c.Node = "n1" }},
		{"a node's clock offset is not told as another kind of step's", adviceRun("redlock-clock-jump"),
			kind(claim.ClockOffset, func(c claim.Claim) bool { return c.Node != "" }), func(c *claim.Claim) { c.What = "pause" }},
		{"a permit its owner released is not told as another client's", corpus("c05-semaphore-over-admission"),
			released, func(c *claim.Claim) { c.Client = other(c.Client) }},
		{"a permit its owner released is not told as deleted by another client", corpus("c05-semaphore-over-admission"),
			released, func(c *claim.Claim) { c.How, c.By = "deleted", other(c.Client) }},
		{"a permit its owner released is not told as released by another client", corpus("c05-semaphore-over-admission"),
			released, func(c *claim.Claim) { c.By = other(c.Client) }},
		{"a permit is not told as released 300 ms after its ZREM ran", corpus("c05-semaphore-over-admission"),
			released, func(c *claim.Claim) { c.End += 300 * ms }},
		{"a restarted client's restore on start is not told as a plain foreign delete", corpus("c19i-restore-on-start-deletes"),
			kind(claim.ForeignDelete, func(c claim.Claim) bool { return c.How == "restored" }), func(c *claim.Claim) { c.How = "deleted" }},
		{"a release's foreign delete is not told as a restart's restore in a run that restarted no client", corpus("c01-naive-del-foreign-unlock"),
			kind(claim.ForeignDelete, func(c claim.Claim) bool { return c.How == "deleted" }), func(c *claim.Claim) { c.How = "restored" }},
		{"a foreign delete is not told as begun 300 ms before the node ran it", corpus("c01-naive-del-foreign-unlock"),
			kind(claim.ForeignDelete, nil), func(c *claim.Claim) { c.Start -= 300 * ms }},
		{"a refusal is not told as met by a key holding another token", hand,
			kind(claim.Refusal, func(c claim.Claim) bool { return c.Token != "" && len(c.Holders) == 0 && c.What == "" }),
			func(c *claim.Claim) { c.Token = "tokZ" }},
		{"a permit is not told with another score than its ZADD gave it", corpus("c05-semaphore-over-admission"),
			released, func(c *claim.Claim) { c.Score++ }},
		{"a permit its owner released is not told as held to the end", corpus("c05-semaphore-over-admission"),
			released, func(c *claim.Claim) { c.How = "held" }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.try(t) })
	}
}

// released picks a permit its owner's own command removed, told so.
var released = kind(claim.Permit, func(c claim.Claim) bool {
	return c.How == "released" && c.By == c.Client && c.What != claim.Inferred && len(c.Records) > 1
})

// other is a client of the corpus runs other than c.
func other(c string) string { return map[bool]string{true: "w2", false: "w1"}[c == "w1"] }

// unattributed: w1's acquire lost its reply, and the node ran its SET NX
// on a connection that was gone before the observer could name it (sender
// ""): the key holds w1's token, so it is w1's orphan, and it refused w2.
func unattributed() history.History {
	cmd, op := kCmd, kOp
	ops := []history.Op{
		op(0, "w1", history.Acquire, history.Info, 10, 300, history.Value{Token: "tokA", TTL: 1000 * ms, Nodes: []string{"n1"}}),
		cmd("", 20, false, "set", "k", "tokA", "px", "1000", "nx"),
		op(1, "w2", history.Acquire, history.Fail, 400, 410, history.Value{Token: "tokB", TTL: 1000 * ms}),
		cmd("w2", 405, false, "set", "k", "tokB", "px", "1000", "nx"),
		op(1, "w2", history.Acquire, history.OK, 1100, 1110, history.Value{Token: "tokC", TTL: 1000 * ms, Nodes: []string{"n1"}}),
		cmd("w2", 1105, false, "set", "k", "tokC", "px", "1000", "nx"),
		op(1, "w2", history.Release, history.OK, 1200, 1210, history.Value{Token: "tokC", Removed: true, Nodes: []string{"n1"}}),
		cmd("w2", 1205, false, "del", "k"),
	}
	return handRun(ops)
}

// TestTrueClaimsOfAnUnattributedSetHold: a SET whose sender the observer
// could not name is told by the token it set (the one client whose
// acquire carried it), as the account tells it.
func TestTrueClaimsOfAnUnattributedSetHold(t *testing.T) {
	h := unattributed()
	cs := claimsOf(h)
	for _, want := range []func(claim.Claim) bool{
		kind(claim.Orphan, func(c claim.Claim) bool { return c.Client == "w1" }),
		kind(claim.Refusal, func(c claim.Claim) bool { return c.By == "w1" }),
	} {
		if _, ok := claim.Find(cs, want); !ok {
			t.Fatalf("the run makes no such claim; its claims: %+v", cs)
		}
	}
	if r := verify.Verify(h, cs); len(r.Failures) > 0 {
		t.Errorf("%d of %d claims are refused:%s", len(r.Failures), len(cs), describe(r))
	}
}

// unattributedRelease: w1's release lost its reply, and n1 ran its
// compare-and-delete script on a connection gone before the observer
// could name it: the script's token says it was w1's release of its own
// key.
func unattributedRelease() history.History {
	cmd, op := kCmd, kOp
	ops := []history.Op{
		op(0, "w1", history.Acquire, history.OK, 10, 30, history.Value{Token: "tokA", TTL: 1000 * ms, Nodes: []string{"n1"}}),
		cmd("w1", 20, false, "set", "k", "tokA", "px", "1000", "nx"),
		op(0, "w1", history.Release, history.Info, 100, 300, history.Value{Token: "tokA", Nodes: []string{"n1"}}),
		cmd("", 120, false, "evalsha", "cad", "1", "k", "tokA"),
		cmd("", 120, true, "GET", "k"),
		cmd("", 120, true, "DEL", "k"),
		op(1, "w2", history.Acquire, history.OK, 400, 410, history.Value{Token: "tokB", TTL: 1000 * ms, Nodes: []string{"n1"}}),
		cmd("w2", 405, false, "set", "k", "tokB", "px", "1000", "nx"),
		op(1, "w2", history.Release, history.OK, 500, 510, history.Value{Token: "tokB", Removed: true, Nodes: []string{"n1"}}),
		cmd("w2", 505, false, "evalsha", "cad", "1", "k", "tokB"),
		cmd("w2", 505, true, "GET", "k"),
		cmd("w2", 505, true, "DEL", "k"),
	}
	return handRun(ops)
}

// TestTrueClaimsOfAnUnattributedScriptHold: the key's release by its
// owner and the release's command, told by the token the script compared.
func TestTrueClaimsOfAnUnattributedScriptHold(t *testing.T) {
	h := unattributedRelease()
	cs := claimsOf(h)
	for _, want := range []func(claim.Claim) bool{
		kind(claim.Release, func(c claim.Claim) bool { return c.Client == "w1" && c.What != claim.Inferred }),
		ended("released"),
	} {
		if _, ok := claim.Find(cs, want); !ok {
			t.Fatalf("the run makes no such claim; its claims: %+v", cs)
		}
	}
	if r := verify.Verify(h, cs); len(r.Failures) > 0 {
		t.Errorf("%d of %d claims are refused:%s", len(r.Failures), len(cs), describe(r))
	}
}

// TestTrueClaimsAtTheEdgeOfTheStampsSlackHold: w2's SET NX ran exactly
// 5 ms before w1's key's deadline and took (w2 was granted). The account
// lets the node's answer decide a deadline up to 5 ms ahead of a command,
// that bound included; the verifier must read the same command the same
// way, not keep w1's key and find w2's SET created none.
func TestTrueClaimsAtTheEdgeOfTheStampsSlackHold(t *testing.T) {
	for _, at := range []int64{1015, 1016} {
		cmd, op := kCmdPlain, kOp
		ops := []history.Op{
			op(0, "w1", history.Acquire, history.OK, 10, 30, history.Value{Token: "tokA", TTL: 1000 * ms, Nodes: []string{"n1"}}),
			cmd("w1", 20, "set", "k", "tokA", "px", "1000", "nx"),
			{Process: 0, Client: "w1", F: history.Lost, Key: "k", Invoke: 900 * ms, Complete: 900 * ms, Type: history.OK},
			op(1, "w2", history.Acquire, history.OK, at-2, at+2, history.Value{Token: "tokB", TTL: 1000 * ms, Nodes: []string{"n1"}}),
			cmd("w2", at, "set", "k", "tokB", "px", "1000", "nx"),
			op(1, "w2", history.Release, history.OK, 1500, 1510, history.Value{Token: "tokB", Removed: true, Nodes: []string{"n1"}}),
			cmd("w2", 1505, "del", "k"),
		}
		h := handRun(ops)
		t.Run(fmt.Sprintf("a SET NX that took %d ms before the other key's deadline", 1020-at), func(t *testing.T) {
			cs := claimsOf(h)
			if _, ok := claim.Find(cs, kind(claim.KeyLife, func(c claim.Claim) bool { return c.Client == "w2" })); !ok {
				t.Fatalf("no key life of w2's; claims: %+v", cs)
			}
			if r := verify.Verify(h, cs); len(r.Failures) > 0 {
				t.Errorf("%d of %d claims are refused:%s", len(r.Failures), len(cs), describe(r))
			}
		})
	}
}

// acrossAGap: w1's key, set and released on n1 while it was observed,
// outlived a window in which n1's observer was reconnecting.
func acrossAGap(*testing.T) history.History {
	cmd, op := kCmdPlain, kOp
	ops := []history.Op{
		op(0, "w1", history.Acquire, history.OK, 10, 30, history.Value{Token: "tokA", TTL: 5000 * ms, Nodes: []string{"n1"}}),
		cmd("w1", 20, "set", "k", "tokA", "px", "5000", "nx"),
		{Process: history.NodeProcess, F: history.Unobserved, Value: history.Value{Node: "n1"}, Invoke: 500 * ms, Complete: 600 * ms, Type: history.OK},
		op(0, "w1", history.Release, history.OK, 1000, 1010, history.Value{Token: "tokA", Removed: true, Nodes: []string{"n1"}}),
		cmd("w1", 1005, "del", "k"),
		op(1, "w2", history.Acquire, history.OK, 1100, 1110, history.Value{Token: "tokB", TTL: 5000 * ms, Nodes: []string{"n1"}}),
		cmd("w2", 1105, "set", "k", "tokB", "px", "5000", "nx"),
		op(1, "w2", history.Release, history.OK, 1200, 1210, history.Value{Token: "tokB", Removed: true, Nodes: []string{"n1"}}),
		cmd("w2", 1205, "del", "k"),
	}
	return handRun(ops)
}

// TestAKeyLifeAcrossAnUnrecordedWindowIsCheckedWhereItWasRecorded: the
// end of a key life that outlived a gap in its node's record is not
// checkable, but its SET was recorded: who set it, which token and when
// are checked, not skipped with the rest (a fuzz of fencing-counter-aof,
// whose crash leaves such a gap, found any client and token accepted).
func TestAKeyLifeAcrossAnUnrecordedWindowIsCheckedWhereItWasRecorded(t *testing.T) {
	across := kind(claim.KeyLife, func(c claim.Claim) bool { return c.Client == "w1" && c.What != claim.Inferred })
	cases := []mutation{
		{"a key life across a gap is not told as another client's", acrossAGap, across, func(c *claim.Claim) { c.Client = "w2" }},
		{"a key life across a gap is not told with another token", acrossAGap, across, func(c *claim.Claim) { c.Token = "tokB" }},
		{"a key life across a gap is not told as set 300 ms later", acrossAGap, across, func(c *claim.Claim) { c.Start += 300 * ms }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.hist(t)
			c, ok := claim.Find(claimsOf(h), tc.pick)
			if !ok {
				t.Fatal("no key life of w1's")
			}
			if r := verify.Verify(h, []claim.Claim{c}); len(r.Failures) > 0 {
				t.Fatalf("the true claim is refused: %s", describe(r))
			}
			tc.mutate(&c)
			if r := verify.Verify(h, []claim.Claim{c}); len(r.Failures) != 1 {
				t.Errorf("the false claim %+v is not refused: %+v", c, r)
			}
		})
	}
}

// kCmd is n1's record of a command on key "k" at ms, sent by client
// (lua: run inside a script).
func kCmd(client string, at int64, lua bool, args ...string) history.Op {
	return history.Op{Process: history.NodeProcess, Client: client, F: history.NodeCmd, Key: "k",
		Value: history.Value{Node: "n1", Cmd: args, Lua: lua}, Invoke: at * ms, Complete: at * ms, Type: history.OK}
}

// kCmdPlain is kCmd of a command outside any script.
func kCmdPlain(client string, at int64, args ...string) history.Op {
	return kCmd(client, at, false, args...)
}

// kOp is client's operation f on key "k" from ms to ms.
func kOp(proc int, client string, f history.Func, typ history.Type, from, to int64, v history.Value) history.Op {
	return history.Op{Process: proc, Client: client, F: f, Key: "k", Value: v, Invoke: from * ms, Complete: to * ms, Type: typ}
}

// handRun is a one-node run of w1 and w2 on n1, observed throughout, made
// of ops (indexed here).
func handRun(ops []history.Op) history.History {
	for i := range ops {
		ops[i].Index = i
	}
	return history.History{Header: history.Header{Format: history.Format, Version: history.Version, Scenario: "hand", TimeScale: 1,
		Backend: "local", Algorithm: "safe", Workload: "payment", Clients: []string{"w1", "w2"}, Nodes: []string{"n1"},
		Observed: []string{"n1"}}, Ops: ops}
}
