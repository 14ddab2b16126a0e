package checker

import (
	"context"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// staleRun is a fenced Redlock-style run on nodes (quorum N/2+1): w1's
// keys are set on w1On at the instants given (TTL 10 s) and its acquire
// returns at w1Back with token w1Fence; w2's keys on w2On, its acquire
// [10.5 s, w2Back] with token w2Fence. Each claims with its token as its
// acquire returns; the fenced resource refuses the lower token's charge
// once it has seen the higher, and accepts the higher's charge at 20 s.
type staleRun struct {
	nodes            []string
	w1On, w2On       []any // node, instant (s), …
	w1Back, w2Back   float64
	w1Fence, w2Fence int64
}

func (r staleRun) history() history.History {
	b := newHB(true)
	b.h.Header.Nodes, b.h.Header.Clients, b.h.Header.Observed = r.nodes, []string{"w1", "w2"}, r.nodes
	b.h.Header.Workload = workload.Payment
	if len(r.nodes) > 1 {
		b.h.Header.Traits = []string{history.TraitFenced, history.TraitMultiNode}
	}
	set := func(client string, on []any) {
		for i := 0; i+1 < len(on); i += 2 {
			b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, Client: client, F: history.NodeCmd,
				Key: inv1, Value: history.Value{Node: on[i].(string), Cmd: []string{"set", inv1, client + "-tok", "PX", "10000", "NX"}},
				Invoke: ns(on[i+1].(float64)), Complete: ns(on[i+1].(float64)), Type: history.OK})
		}
	}
	b.op("w1", history.Acquire, inv1, 0, r.w1Back, history.OK, history.Value{Token: "w1-tok", Fence: r.w1Fence, TTL: ns(10), Nodes: r.nodes})
	set("w1", r.w1On)
	b.op("w2", history.Acquire, inv1, 10.5, r.w2Back, history.OK, history.Value{Token: "w2-tok", Fence: r.w2Fence, TTL: ns(10), Nodes: r.nodes})
	set("w2", r.w2On)
	type claim struct {
		client string
		at     float64
		fence  int64
	}
	first, second := claim{"w1", r.w1Back + 0.01, r.w1Fence}, claim{"w2", r.w2Back + 0.01, r.w2Fence}
	if second.at < first.at {
		first, second = second, first
	}
	hi := max(r.w1Fence, r.w2Fence)
	lo := first
	if second.fence < first.fence {
		lo = second
	}
	for _, c := range []claim{first, second} {
		if c == lo && c == second {
			b.refused(c.client, inv1, workload.ActionClaim, c.at, c.at, c.fence, history.RefusalStaleFence, hi)
			continue
		}
		b.write(c.client, inv1, workload.ActionClaim, c.at, c.at, c.fence)
	}
	b.refused(lo.client, inv1, workload.ActionCharge, 19, 19, lo.fence, history.RefusalStaleFence, hi)
	hiClient := "w1"
	if r.w2Fence > r.w1Fence {
		hiClient = "w2"
	}
	b.write(hiClient, inv1, workload.ActionCharge, 20, 20, hi)
	b.op("w1", history.Release, inv1, 21, 21.01, history.OK, history.Value{Token: "w1-tok", Nodes: r.nodes})
	b.op("w2", history.Release, inv1, 21.1, 21.11, history.OK, history.Value{Token: "w2-tok", Nodes: r.nodes})
	return b.h
}

func TestTheStaleHolderIsTheOneWhoseLockWasGoneBeforeTheOtherStood(t *testing.T) {
	n3 := []string{"n1", "n2", "n3"}
	for _, tt := range []struct {
		name    string
		run     staleRun
		stale   string
		info    bool
		verdict Verdict
	}{
		{"w1, whose token came after w2's grant but whose acquire returned first, is stale: its lock was gone before w2's was set",
			staleRun{nodes: []string{"n1"}, w1On: []any{"n1", 0.005}, w2On: []any{"n1", 10.505},
				w1Back: 10.8, w2Back: 12, w1Fence: 2, w2Fence: 1},
			"w1", false, Invalid},
		{"w1, whose token came after w2's grant and whose acquire returned last, is stale",
			staleRun{nodes: []string{"n1"}, w1On: []any{"n1", 0.005}, w2On: []any{"n1", 10.505},
				w1Back: 15, w2Back: 10.51, w1Fence: 2, w2Fence: 1},
			"w1", false, Invalid},
		{"of three nodes, w1 whose acquire returned first is stale when its quorum was gone before w2 stood on two",
			staleRun{nodes: n3, w1On: []any{"n1", 0.005, "n2", 0.006, "n3", 0.4}, w2On: []any{"n1", 10.1, "n2", 10.505, "n3", 10.6},
				w1Back: 10.8, w2Back: 12, w1Fence: 2, w2Fence: 1},
			"w1", false, Invalid},
		{"of three nodes, w1 whose acquire returned last is stale when w2's first key came before w1's quorum was gone but its second after",
			staleRun{nodes: n3, w1On: []any{"n1", 0.005, "n2", 0.55, "n3", 0.6}, w2On: []any{"n1", 10.505, "n2", 10.56, "n3", 10.61},
				w1Back: 15, w2Back: 10.7, w1Fence: 2, w2Fence: 1},
			"w1", false, Invalid},
		{"an ordinary expiry keeps the lower token, which returned first, as the stale holder",
			staleRun{nodes: []string{"n1"}, w1On: []any{"n1", 0.005}, w2On: []any{"n1", 10.505},
				w1Back: 0.01, w2Back: 10.51, w1Fence: 1, w2Fence: 2},
			"w1", true, Valid},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.run.history()
			if rep := Check(context.Background(), h, Options{}); rep.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s", rep.Verdict, tt.verdict)
			}
			r := Mutex(context.Background(), h)
			var found bool
			for _, a := range r.Anomalies {
				if a.Kind != KindMutexOverlap {
					continue
				}
				found = true
				if a.Stale != tt.stale || a.Informational != tt.info {
					t.Errorf("stale %s, informational %v; want %s, %v: %s", a.Stale, a.Informational, tt.stale, tt.info, a.Explain)
				}
			}
			if !found {
				t.Fatalf("no mutex-overlap in %+v", r.Anomalies)
			}
		})
	}
}
