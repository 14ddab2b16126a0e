package checker

import (
	"context"
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// TestAForeignUnlockTheNodeRecordedIsFoundWhateverTheClientsBelieved
// crafts releases the client rule cannot judge (the releaser had an
// acquire of unknown outcome on the key before it, which might have
// applied late) and checks that the mutex checker still finds the foreign
// unlock the node's own record shows: the DEL removed the key another
// client's SET had made.
func TestAForeignUnlockTheNodeRecordedIsFoundWhateverTheClientsBelieved(t *testing.T) {
	cmd := func(client string, at int64, args ...string) history.Op {
		return history.Op{Process: history.NodeProcess, Client: client, F: history.NodeCmd, Key: "k",
			Value: history.Value{Node: "n1", Cmd: args}, Invoke: at * 1e6, Complete: at * 1e6, Type: history.OK}
	}
	acq := func(proc int, client string, typ history.Type, from, to int64, tok string) history.Op {
		return history.Op{Process: proc, Client: client, F: history.Acquire, Key: "k", Type: typ, Invoke: from * 1e6, Complete: to * 1e6,
			Value: history.Value{Token: tok, TTL: 100e6, Nodes: []string{"n1"}}}
	}
	for _, tc := range []struct {
		name    string
		ops     []history.Op
		foreign bool
	}{
		{"a release after an own acquire of unknown outcome whose DEL removed another client's key is a foreign unlock", []history.Op{
			{Process: 0, Client: "w1", F: history.Acquire, Key: "k", Type: history.Info, Invoke: 0, Complete: -1, Value: history.Value{Token: "a0", TTL: 100e6}},
			cmd("w1", 5, "set", "k", "a0", "px", "100", "nx"),
			acq(2, "w1", history.OK, 200, 210, "a1"),
			cmd("w1", 205, "set", "k", "a1", "px", "100", "nx"),
			acq(1, "w2", history.OK, 320, 330, "b"),
			cmd("w2", 325, "set", "k", "b", "px", "1000", "nx"),
			{Process: 2, Client: "w1", F: history.Release, Key: "k", Type: history.OK, Invoke: 400e6, Complete: 410e6, Value: history.Value{Removed: true, Nodes: []string{"n1"}}},
			cmd("w1", 405, "del", "k"),
		}, true},
		{"the same release after the releaser's own key was set again is not", []history.Op{
			{Process: 0, Client: "w1", F: history.Acquire, Key: "k", Type: history.Info, Invoke: 0, Complete: -1, Value: history.Value{Token: "a0", TTL: 100e6}},
			cmd("w1", 5, "set", "k", "a0", "px", "100", "nx"),
			acq(2, "w1", history.OK, 200, 210, "a1"),
			cmd("w1", 205, "set", "k", "a1", "px", "1000", "nx"),
			{Process: 2, Client: "w1", F: history.Release, Key: "k", Type: history.OK, Invoke: 400e6, Complete: 410e6, Value: history.Value{Removed: true, Nodes: []string{"n1"}}},
			cmd("w1", 405, "del", "k"),
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ops := slices.Clone(tc.ops)
			for i := range ops {
				ops[i].Index = i
			}
			h := history.History{Header: history.Header{Format: history.Format, Version: history.Version, Scenario: "fooler", TimeScale: 1,
				Backend: "local", Algorithm: "naive", Workload: "payment", Clients: []string{"w1", "w2"}, Nodes: []string{"n1"},
				Observed: []string{"n1"}}, Ops: ops}
			r := Mutex(context.Background(), h)
			found := slices.ContainsFunc(r.Anomalies, func(a Anomaly) bool { return a.Kind == KindForeignUnlock })
			if found != tc.foreign {
				t.Errorf("foreign unlock found: %v, want %v (%s: %+v)", found, tc.foreign, r.Verdict, r.Anomalies)
			}
		})
	}
}
