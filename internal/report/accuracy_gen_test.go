package report

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/history/historytest"
	"github.com/locksim/locksim/internal/workload"
)

var updateAccuracy = flag.Bool("update-accuracy", false, "rewrite the crafted histories of the report-accuracy corpus (testdata/accuracy)")

// ab builds a crafted history for the report-accuracy corpus: client
// operations and, where the case needs them, the node events an observer
// would have recorded (times in scenario seconds, time scale 1).
type ab struct {
	h     history.History
	procs map[string]int
}

func newAB(scenario, algorithm string, nodes []string, observed bool, clients ...string) *ab {
	b := &ab{h: history.History{Header: history.Header{Format: history.Format, Version: history.Version, Scenario: scenario,
		Seed: 1, TimeScale: 1, Backend: "local", Algorithm: algorithm, Workload: workload.Payment,
		Clients: clients, Nodes: nodes, RedisVersion: "7.0.15", Params: map[string]int64{history.ParamKeys: 1, history.ParamClients: int64(len(clients))}}},
		procs: map[string]int{}}
	if observed {
		b.h.Header.Observed = nodes
	}
	if len(nodes) > 1 {
		b.h.Header.Traits = []string{history.TraitMultiNode}
	}
	b.h.Header.Persistence = map[string]string{}
	for _, n := range nodes {
		b.h.Header.Persistence[n] = "none"
	}
	return b
}

func (b *ab) add(c string, f history.Func, key string, inv, comp float64, t history.Type, v history.Value) int {
	p, ok := b.procs[c]
	if !ok {
		p = len(b.procs)
		b.procs[c] = p
	}
	if c == history.NemesisClient {
		p = history.NemesisProcess
	}
	op := history.Op{Index: len(b.h.Ops), Process: p, Client: c, F: f, Key: key, Value: v, Invoke: sec(inv), Complete: sec(comp), Type: t}
	if comp < 0 {
		op.Complete = -1
	}
	b.h.Ops = append(b.h.Ops, op)
	return op.Index
}

// node records that node ran args at t, sent by client (lua: inside the
// script of its preceding EVAL).
func (b *ab) node(n, client string, t float64, lua bool, args ...string) {
	key := ""
	if len(args) > 1 {
		key = args[1]
	}
	if c := strings.ToLower(args[0]); (c == "evalsha" || c == "eval") && len(args) > 3 {
		key = args[3]
	}
	b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, Client: client, F: history.NodeCmd, Key: key,
		Value: history.Value{Node: n, Cmd: args, Lua: lua}, Invoke: sec(t), Complete: sec(t), Type: history.OK})
}

func (b *ab) fault(st history.FaultStep, from, to float64) {
	st.ID = len(b.h.Header.Plan) + 1
	b.h.Header.Plan = append(b.h.Header.Plan, st)
	b.add(history.NemesisClient, history.Fault, "", from, to, history.OK, historytest.Value(st))
}

// crafted are the corpus cases built by hand (the others are stored runs
// of shipped scenarios and cases of the checker corpus).
func crafted() map[string]history.History {
	out := map[string]history.History{}

	// Class 2: w1's lease expired while it worked; w2 took the lock and
	// gave it back at once; w1's extend, a SET of its own token, then
	// re-created the key, and w1's compare-and-delete removed that key, its
	// own. The lease did lapse (an overlap), but no one removed another's
	// key: no foreign unlock, and safe unlock is not the remedy.
	b := newAB("extend-recreates-own-key", "safe", []string{"n1"}, true, "w1", "w2")
	b.add("w1", history.Acquire, "invoice-1", 0, 0.1, history.OK, history.Value{Token: "tokA", TTL: sec(5), Nodes: []string{"n1"}})
	b.node("n1", "w1", 0.05, false, "set", "invoice-1", "tokA", "px", "5000", "nx")
	b.add("w1", history.Read, "invoice-1", 0.2, 0.3, history.OK, history.Value{Action: workload.ActionReadStatus, Result: "unpaid"})
	b.add("w2", history.Acquire, "invoice-1", 5.2, 5.3, history.OK, history.Value{Token: "tokB", TTL: sec(5), Nodes: []string{"n1"}})
	b.node("n1", "w2", 5.25, false, "set", "invoice-1", "tokB", "px", "5000", "nx")
	b.add("w2", history.Release, "invoice-1", 5.4, 5.5, history.OK, history.Value{Token: "tokB", Removed: true, Nodes: []string{"n1"}})
	b.node("n1", "w2", 5.45, false, "evalsha", "sha1:cad", "1", "invoice-1", "tokB")
	b.node("n1", "w2", 5.45, true, "GET", "invoice-1")
	b.node("n1", "w2", 5.45, true, "DEL", "invoice-1")
	b.add("w1", history.Extend, "invoice-1", 6, 6.1, history.OK, history.Value{Token: "tokA", TTL: sec(5)})
	b.node("n1", "w1", 6.05, false, "set", "invoice-1", "tokA", "px", "5000")
	b.add("w1", history.Write, "invoice-1", 7, 7.1, history.OK, history.Value{Action: workload.ActionCharge})
	b.add("w1", history.Release, "invoice-1", 8, 8.1, history.OK, history.Value{Token: "tokA", Removed: true, Nodes: []string{"n1"}})
	b.node("n1", "w1", 8.05, false, "evalsha", "sha1:cad", "1", "invoice-1", "tokA")
	b.node("n1", "w1", 8.05, true, "GET", "invoice-1")
	b.node("n1", "w1", 8.05, true, "DEL", "invoice-1")
	out["c02-extend-recreates-own-key"] = b.h

	// Class 4: w1's own clock jumps back 10 s (an instant step) at 1 s; its
	// lease runs out in Redis at 10 s while w1, counting on its clock, works
	// on; w2 is granted the key at 10.2 s and both charge. The clock jump
	// cannot have expired the key: the TTL did.
	b = newAB("client-clock-jump-back", "safe", []string{"n1"}, true, "w1", "w2")
	b.add("w1", history.Acquire, "invoice-1", 0, 0.1, history.OK, history.Value{Token: "tokA", TTL: sec(10), Nodes: []string{"n1"}})
	b.node("n1", "w1", 0.05, false, "set", "invoice-1", "tokA", "px", "10000", "nx")
	b.add("w1", history.Read, "invoice-1", 0.2, 0.3, history.OK, history.Value{Action: workload.ActionReadStatus, Result: "unpaid"})
	jump := historytest.Step("clock-jump", "w1")
	jump.Delta = sec(-10)
	b.fault(jump, 1, 1)
	for t := 2.0; t < 10; t += 2 {
		b.add("w2", history.Acquire, "invoice-1", t, t+0.05, history.Fail, history.Value{TTL: sec(10)})
		b.node("n1", "w2", t+0.02, false, "set", "invoice-1", "tok"+string(rune('0'+int(t))), "px", "10000", "nx")
	}
	b.add("w2", history.Acquire, "invoice-1", 10.1, 10.2, history.OK, history.Value{Token: "tokB", TTL: sec(10), Nodes: []string{"n1"}})
	b.node("n1", "w2", 10.15, false, "set", "invoice-1", "tokB", "px", "10000", "nx")
	b.add("w2", history.Read, "invoice-1", 10.3, 10.4, history.OK, history.Value{Action: workload.ActionReadStatus, Result: "unpaid"})
	b.add("w2", history.Write, "invoice-1", 11, 11.1, history.OK, history.Value{Action: workload.ActionCharge})
	b.add("w1", history.Write, "invoice-1", 15, 15.1, history.OK, history.Value{Action: workload.ActionCharge})
	b.add("w2", history.Release, "invoice-1", 16, 16.1, history.OK, history.Value{Token: "tokB", Removed: true, Nodes: []string{"n1"}})
	b.node("n1", "w2", 16.05, false, "evalsha", "sha1:cad", "1", "invoice-1", "tokB")
	b.node("n1", "w2", 16.05, true, "GET", "invoice-1")
	b.node("n1", "w2", 16.05, true, "DEL", "invoice-1")
	b.add("w1", history.Release, "invoice-1", 17, 17.1, history.OK, history.Value{Token: "tokA", Nodes: []string{"n1"}})
	b.node("n1", "w1", 17.05, false, "evalsha", "sha1:cad", "1", "invoice-1", "tokA")
	b.node("n1", "w1", 17.05, true, "GET", "invoice-1")
	out["c04-client-clock-jump-back"] = b.h

	// Class 7, first half: w1 is paused past its lease; w2 takes the lock
	// and is paused past its own lease too; w1's release then finds
	// nothing. w2 did not release the lock: its key expired.
	b = newAB("release-after-two-expiries", "safe", []string{"n1"}, true, "w1", "w2")
	b.add("w1", history.Acquire, "invoice-1", 0, 0.1, history.OK, history.Value{Token: "tokA", TTL: sec(5), Nodes: []string{"n1"}})
	b.node("n1", "w1", 0.05, false, "set", "invoice-1", "tokA", "px", "5000", "nx")
	b.fault(historytest.Step("pause", "w1"), 1, 20)
	b.add("w2", history.Acquire, "invoice-1", 5.2, 5.3, history.OK, history.Value{Token: "tokB", TTL: sec(5), Nodes: []string{"n1"}})
	b.node("n1", "w2", 5.25, false, "set", "invoice-1", "tokB", "px", "5000", "nx")
	b.fault(historytest.Step("pause", "w2"), 6, 21)
	b.add("w1", history.Release, "invoice-1", 20.1, 20.2, history.OK, history.Value{Token: "tokA", Nodes: []string{"n1"}})
	b.node("n1", "w1", 20.15, false, "evalsha", "sha1:cad", "1", "invoice-1", "tokA")
	b.node("n1", "w1", 20.15, true, "GET", "invoice-1")
	b.add("w2", history.Release, "invoice-1", 21.1, 21.2, history.OK, history.Value{Token: "tokB", Nodes: []string{"n1"}})
	b.node("n1", "w2", 21.15, false, "evalsha", "sha1:cad", "1", "invoice-1", "tokB")
	b.node("n1", "w2", 21.15, true, "GET", "invoice-1")
	out["c07a-release-after-two-expiries"] = b.h

	// Class 7, second half: a Redlock grant under latency. n1–n3 ran w1's
	// SET at ≈0.1 s but their replies came back only at 3 s; the keys expire
	// on the nodes 10 s after the SET, at ≈10.1 s, not at 13 s.
	nodes := []string{"n1", "n2", "n3", "n4", "n5"}
	b = newAB("redlock-latency-expiry", "redlock", nodes, true, "w1", "w2")
	b.h.Header.Params[history.ParamMinAcquires] = 1 // one grant is the case
	b.add("w1", history.Acquire, "invoice-1", 0, 3, history.OK, history.Value{Token: "tokA", TTL: sec(10), Nodes: []string{"n1", "n2", "n3"}})
	for i, n := range nodes[:3] {
		b.node(n, "w1", 0.1+float64(i)*0.01, false, "set", "invoice-1", "tokA", "px", "10000", "nx")
	}
	b.add("w1", history.Read, "invoice-1", 3.1, 3.2, history.OK, history.Value{Action: workload.ActionReadStatus, Result: "unpaid"})
	b.add("w1", history.Write, "invoice-1", 4, 4.1, history.OK, history.Value{Action: workload.ActionCharge})
	b.add("w1", history.Write, "invoice-1", 4.2, 4.3, history.OK, history.Value{Action: workload.ActionMarkPaid})
	b.add("w1", history.Release, "invoice-1", 12, 12.5, history.OK, history.Value{Token: "tokA"})
	for i, n := range nodes {
		b.node(n, "w1", 12.1+float64(i)*0.01, false, "evalsha", "sha1:cad", "1", "invoice-1", "tokA")
		b.node(n, "w1", 12.1+float64(i)*0.01, true, "GET", "invoice-1")
	}
	out["c07b-redlock-latency-expiry"] = b.h

	// Issue 27 (a reader of client-clock-step-back, finding 14): a Redlock
	// on 3 nodes whose SETs ran at 0.1, 0.2 and 0.9 s: its keys expire at
	// 10.1, 10.2 and 10.9 s, and the lock is lost at 10.2 s, when fewer
	// than 2 of them remain. w1 charges at 13.0 s: 2.8 s after it lost
	// its lock, not 2.1 s (after n3's key, the last, expired).
	b = newAB("redlock-quorum-lost-before-last-key", "redlock", nodes[:3], true, "w1", "w2")
	b.h.Header.Params[history.ParamMinAcquires] = 1
	b.add("w1", history.Acquire, "invoice-1", 0, 1, history.OK, history.Value{Token: "tokA", TTL: sec(10), Nodes: nodes[:3]})
	for i, t := range []float64{0.1, 0.2, 0.9} {
		b.node(nodes[i], "w1", t, false, "set", "invoice-1", "tokA", "px", "10000", "nx")
	}
	b.add("w1", history.Read, "invoice-1", 1.1, 1.2, history.OK, history.Value{Action: workload.ActionReadStatus, Result: "unpaid"})
	b.add("w2", history.Acquire, "invoice-1", 10.25, 10.4, history.OK, history.Value{Token: "tokB", TTL: sec(10), Nodes: nodes[:2]})
	for i, t := range []float64{0.3, 0.32, 0.34} {
		b.node(nodes[i], "w2", 10+t, false, "set", "invoice-1", "tokB", "px", "10000", "nx")
	}
	b.add("w2", history.Read, "invoice-1", 10.5, 10.6, history.OK, history.Value{Action: workload.ActionReadStatus, Result: "unpaid"})
	b.add("w1", history.Write, "invoice-1", 13, 13.1, history.OK, history.Value{Action: workload.ActionCharge})
	b.add("w1", history.Write, "invoice-1", 13.2, 13.3, history.OK, history.Value{Action: workload.ActionMarkPaid})
	b.add("w2", history.Write, "invoice-1", 14, 14.1, history.OK, history.Value{Action: workload.ActionCharge})
	b.add("w2", history.Write, "invoice-1", 14.2, 14.3, history.OK, history.Value{Action: workload.ActionMarkPaid})
	b.add("w2", history.Release, "invoice-1", 15, 15.2, history.OK, history.Value{Token: "tokB", Removed: true})
	for i, n := range nodes[:3] {
		b.node(n, "w2", 15.05+float64(i)*0.01, false, "evalsha", "sha1:cad", "1", "invoice-1", "tokB")
		b.node(n, "w2", 15.05+float64(i)*0.01, true, "GET", "invoice-1")
		if i < 2 {
			b.node(n, "w2", 15.05+float64(i)*0.01, true, "DEL", "invoice-1")
		}
	}
	out["c36w-redlock-quorum-lost-before-last-key"] = b.h

	// Class 9: owner tokens that share their first eight characters.
	b = newAB("tokens-sharing-a-prefix", "safe", []string{"n1"}, false, "w1", "w2")
	b.add("w1", history.Acquire, "invoice-1", 0, 0.1, history.OK, history.Value{Token: "179610a1b2c3", TTL: sec(10), Nodes: []string{"n1"}})
	b.add("w1", history.Read, "invoice-1", 0.2, 0.3, history.OK, history.Value{Action: workload.ActionReadStatus, Result: "unpaid"})
	b.add("w1", history.Write, "invoice-1", 0.4, 0.5, history.OK, history.Value{Action: workload.ActionCharge})
	b.add("w1", history.Write, "invoice-1", 0.6, 0.7, history.OK, history.Value{Action: workload.ActionMarkPaid})
	b.add("w1", history.Release, "invoice-1", 1, 1.1, history.OK, history.Value{Token: "179610a1b2c3", Removed: true, Nodes: []string{"n1"}})
	b.add("w2", history.Acquire, "invoice-1", 2, 2.1, history.OK, history.Value{Token: "179610a1ffee", TTL: sec(10), Nodes: []string{"n1"}})
	b.add("w2", history.Read, "invoice-1", 2.2, 2.3, history.OK, history.Value{Action: workload.ActionReadStatus, Result: "paid"})
	b.add("w2", history.Release, "invoice-1", 3, 3.1, history.OK, history.Value{Token: "179610a1ffee", Removed: true, Nodes: []string{"n1"}})
	out["c09-tokens-sharing-a-prefix"] = b.h
	return out
}

// TestCraftedAccuracyHistoriesAreStored keeps the stored crafted histories
// equal to what crafted() builds (-update-accuracy rewrites them).
func TestCraftedAccuracyHistoriesAreStored(t *testing.T) {
	for name, h := range crafted() {
		path := filepath.Join("testdata", "accuracy", name+".jsonl")
		if *updateAccuracy {
			if err := history.WriteFile(path, h); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Run(name+" is stored as built", func(t *testing.T) {
			got, err := history.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Ops) != len(h.Ops) || got.Header.Scenario != h.Header.Scenario {
				t.Errorf("stored %d ops of %q, crafted() builds %d of %q: run go test -update-accuracy", len(got.Ops), got.Header.Scenario, len(h.Ops), h.Header.Scenario)
			}
		})
	}
}
