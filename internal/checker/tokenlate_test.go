package checker

import (
	"context"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// tokenLateHistory is redlock-gc-pause-fenced-token-late on one observed
// node: w1's key is set at 0 s (TTL 10 s) but its acquire returns only at
// 15 s, with token 2 taken after w2's grant at 10.5 s (token 1). w1
// claims with token 2; w2's charge with token 1 is refused; w1 charges.
// With lateReturn false, w1's acquire returns at once (token 1) and w2's
// carries token 2: the ordinary expiry.
func tokenLateHistory(lateReturn bool) history.History {
	b := newHB(true)
	b.h.Header.Nodes, b.h.Header.Clients, b.h.Header.Observed = []string{"n1"}, []string{"w1", "w2"}, []string{"n1"}
	b.h.Header.Workload = workload.Payment
	set := func(client string, t float64) {
		b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, Client: client, F: history.NodeCmd,
			Key: "invoice-1", Value: history.Value{Node: "n1", Cmd: []string{"set", "invoice-1", client + "-tok", "PX", "10000", "NX"}},
			Invoke: ns(t), Complete: ns(t), Type: history.OK})
	}
	w1Fence, w2Fence, w1Back := int64(2), int64(1), 15.0
	if !lateReturn {
		w1Fence, w2Fence, w1Back = 1, 2, 0.01
	}
	b.op("w1", history.Acquire, "invoice-1", 0, w1Back, history.OK, history.Value{Token: "w1-tok", Fence: w1Fence, TTL: ns(10), Nodes: []string{"n1"}})
	set("w1", 0.005)
	b.op("w2", history.Acquire, "invoice-1", 10.5, 10.51, history.OK, history.Value{Token: "w2-tok", Fence: w2Fence, TTL: ns(10), Nodes: []string{"n1"}})
	set("w2", 10.505)
	b.write("w2", "invoice-1", workload.ActionClaim, 10.52, 10.52, w2Fence)
	b.write("w1", "invoice-1", workload.ActionClaim, w1Back+0.01, w1Back+0.01, w1Fence)
	b.refused("w2", "invoice-1", workload.ActionCharge, 18.5, 18.5, w2Fence, history.RefusalStaleFence, max(w1Fence, w2Fence))
	b.op("w2", history.Release, "invoice-1", 18.6, 18.61, history.OK, history.Value{Token: "w2-tok", Removed: true, Nodes: []string{"n1"}})
	b.write("w1", "invoice-1", workload.ActionCharge, 23, 23, w1Fence)
	return b.h
}

func TestAStaleHolderWhoseTokenCameAfterTheNewGrantIsNotTakenForTheNewHolder(t *testing.T) {
	t.Run("w1, whose lock was gone before w2's was set, is the stale holder though its token is higher", func(t *testing.T) {
		r := Mutex(context.Background(), tokenLateHistory(true))
		var found bool
		for _, a := range r.Anomalies {
			if a.Kind != KindMutexOverlap {
				continue
			}
			found = true
			if a.Stale != "w1" || a.Informational {
				t.Errorf("stale %s, informational %v; want w1's overlap a violation: %s", a.Stale, a.Informational, a.Explain)
			}
			if !strings.Contains(a.Explain, "token was taken after the grant") {
				t.Errorf("explain does not say the token came after the grant: %s", a.Explain)
			}
		}
		if !found {
			t.Fatalf("no mutex-overlap in %+v", r.Anomalies)
		}
	})
	t.Run("an ordinary expiry keeps the lower token as the stale holder", func(t *testing.T) {
		r := Mutex(context.Background(), tokenLateHistory(false))
		for _, a := range r.Anomalies {
			if a.Kind == KindMutexOverlap && a.Stale != "w1" {
				t.Errorf("stale %s; want w1 (token 1): %s", a.Stale, a.Explain)
			}
		}
	})
}
