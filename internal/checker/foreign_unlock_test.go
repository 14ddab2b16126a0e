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

// TestAReleaseAfterTheOtherKeyRanOutOnTheWallClockIsNoCertainForeignUnlock:
// on an unobserved node whose host wall clock ran 1 % fast, w1's 10 s key
// (set by 10.01 s) ran out on the node by 10.01 + 10/1.01 = 19.911 s of the
// run's clock. w2's acquire of unknown outcome at 19.92 s may then have
// set w2's own key, and its release at 19.95 s removed that: the client
// rule must not call it certain because 19.95 s is before 10 s + 10 s.
func TestAReleaseAfterTheOtherKeyRanOutOnTheWallClockIsNoCertainForeignUnlock(t *testing.T) {
	build := func(wallRate float64) history.History {
		b := newHB(false)
		b.h.Header.Nodes, b.h.Header.WallRate = []string{"n1"}, wallRate
		b.acquireTTL("w2", inv1, 0, 0.01, 0, 10)
		b.lost("w2", inv1, 9.9)
		b.acquireTTL("w1", inv1, 10, 10.01, 0, 10)
		b.acquireInfo("w2", inv1, 19.92)
		b.release("w2", inv1, 19.95, 19.96, true)
		return named(b.h, "wall-fast")
	}
	foreign := func(h history.History) bool {
		return slices.ContainsFunc(Mutex(context.Background(), h).Anomalies, func(a Anomaly) bool { return a.Kind == KindForeignUnlock })
	}
	t.Run("with the host's wall clock 1 % fast the release may have removed w2's own late key", func(t *testing.T) {
		if foreign(build(1.01)) {
			t.Error("a certain foreign unlock, though w1's key had run out on the node before w2's acquire of unknown outcome")
		}
	})
	t.Run("with the wall clock at the run's rate w1's key still stood and the unlock is certain", func(t *testing.T) {
		if !foreign(build(0)) {
			t.Error("no foreign unlock")
		}
	})
}
