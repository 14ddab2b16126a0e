package verify_test

import (
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// small builds a one-node history of ops (times in ms) for the cases the
// catalogue's runs found.
func small(ops ...history.Op) history.History {
	for i := range ops {
		ops[i].Index = i
		ops[i].Invoke *= ms
		if ops[i].Complete > 0 {
			ops[i].Complete *= ms
		}
	}
	return history.History{Header: history.Header{Format: history.Format, Version: history.Version, Scenario: "case", TimeScale: 1,
		Backend: "local", Algorithm: "safe", Workload: "payment", Clients: []string{"w1", "w2"}, Nodes: []string{"n1"},
		Observed: []string{"n1"}}, Ops: ops}
}

func nodeCmd(client, key string, at int64, args ...string) history.Op {
	return history.Op{Process: history.NodeProcess, Client: client, F: history.NodeCmd, Key: key,
		Value: history.Value{Node: "n1", Cmd: args}, Invoke: at, Complete: at, Type: history.OK}
}

func clientOp(proc int, client, key string, f history.Func, typ history.Type, from, to int64, v history.Value) history.Op {
	return history.Op{Process: proc, Client: client, F: f, Key: key, Value: v, Invoke: from, Complete: to, Type: typ}
}

func TestClaimsOfRunsTheCatalogueFoundHold(t *testing.T) {
	ok := func(tok string) history.Value { return history.Value{Token: tok, TTL: 300 * ms, Nodes: []string{"n1"}} }
	for _, tc := range []struct {
		name string
		h    history.History
		want func(claim.Claim) bool
	}{
		{"a release whose DEL removed two keys holds for its own, and the other client's key is claimed deleted by it (scheduler-stop-releases-foreign-queue)",
			small(
				clientOp(0, "w1", "leader-1", history.Acquire, history.OK, 10, 20, ok("1")),
				nodeCmd("w1", "leader-1", 15, "set", "leader-1", "1", "px", "5000", "nx"),
				clientOp(1, "w2", "leader-2", history.Acquire, history.OK, 30, 40, ok("2")),
				nodeCmd("w2", "leader-2", 35, "set", "leader-2", "2", "px", "5000", "nx"),
				clientOp(1, "w2", "leader-2", history.Release, history.OK, 100, 120, history.Value{Token: "2", Removed: true, Nodes: []string{"n1"}}),
				nodeCmd("w2", "leader-2", 110, "del", "leader-1", "leader-2"),
			),
			func(c claim.Claim) bool {
				return c.Kind == claim.KeyLife && c.Key == "leader-1" && c.How == "deleted" && c.By == "w2"
			}},
		{"a SET at the deadline of the key before it took when the attempt that sent it succeeded, though a failed attempt ended 2 ms before (watchdog-starved)",
			small(
				clientOp(0, "w1", "k", history.Acquire, history.OK, 0, 10, ok("a")),
				nodeCmd("w1", "k", 5, "set", "k", "a", "px", "300", "nx"),
				clientOp(1, "w2", "k", history.Acquire, history.Fail, 290, 302, history.Value{TTL: 300 * ms}),
				nodeCmd("w2", "k", 295, "set", "k", "b", "px", "300", "nx"),
				clientOp(1, "w2", "k", history.Acquire, history.OK, 303, 310, ok("c")),
				nodeCmd("w2", "k", 306, "set", "k", "c", "px", "300", "nx"),
				clientOp(1, "w2", "k", history.Release, history.OK, 400, 410, history.Value{Token: "c", Removed: true, Nodes: []string{"n1"}}),
				nodeCmd("w2", "k", 405, "del", "k"),
			),
			func(c claim.Claim) bool { return c.Kind == claim.KeyLife && c.Token == "c" && c.How == "released" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := claimsOf(tc.h)
			if _, ok := claim.Find(cs, tc.want); !ok {
				t.Errorf("the account makes no such claim: %+v", cs)
			}
			if r := verify.Verify(tc.h, cs); len(r.Failures) > 0 {
				t.Errorf("%d of %d claims are false:%s", len(r.Failures), len(cs), describe(r))
			}
		})
	}
}
