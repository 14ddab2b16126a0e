package workload

import (
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// orderHistory is a hand-written order-status history on order-1, times in
// scenario seconds at time scale 1; each op is (client, f, action, result,
// invoke, complete).
func orderHistory(ops ...history.Op) history.History {
	h := history.History{Header: history.Header{Format: history.Format, Version: history.Version, TimeScale: 1,
		Workload: OrderStatus, Clients: []string{"w1", "w2"}}}
	for i, op := range ops {
		op.Index, op.Key = i, "order-1"
		if op.Client == "w2" {
			op.Process = 1
		}
		h.Ops = append(h.Ops, op)
	}
	return h
}

func orderOp(client string, f history.Func, action, result string, inv, comp float64) history.Op {
	v := history.Value{Action: action, Result: result}
	if f == history.Acquire {
		v = history.Value{Token: client + "-tok", TTL: 10e9}
	}
	return history.Op{Client: client, F: f, Value: v, Invoke: int64(inv * 1e9), Complete: int64(comp * 1e9), Type: history.OK}
}

func TestAnIllegalTransitionIsFoundAndExplained(t *testing.T) {
	tests := []struct {
		name    string
		h       history.History
		illegal bool
		summary string
	}{
		{"a paused holder's payment of an order another cancelled is illegal", orderHistory(
			orderOp("w1", history.Acquire, "", "", 0, 0.1),
			orderOp("w1", history.Read, ActionReadOrder, OrderPending, 0.1, 0.2),
			orderOp("w2", history.Acquire, "", "", 11, 11.1),
			orderOp("w2", history.Read, ActionReadOrder, OrderPending, 11.1, 11.2),
			orderOp("w2", history.Write, ActionCancel, OrderPending, 12, 12.1),
			orderOp("w2", history.Release, "", "", 12.2, 12.3),
			orderOp("w1", history.Write, ActionPay, OrderCancelled, 26, 26.1),
		), true, "1 illegal transition"},
		{"payment then shipment, each from its source state, is legal", orderHistory(
			orderOp("w1", history.Acquire, "", "", 0, 0.1),
			orderOp("w1", history.Write, ActionPay, OrderPending, 1, 1.1),
			orderOp("w1", history.Write, ActionShip, OrderPaid, 2, 2.1),
		), false, "2 accepted transitions on 1 order, none illegal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := illegalTransitions(account.New(tt.h), NewIndex(tt.h))
			if f.Summary != tt.summary {
				t.Errorf("summary %q, want %q", f.Summary, tt.summary)
			}
			if got := len(f.Anomalies) > 0; got != tt.illegal {
				t.Fatalf("anomalies %+v, want illegal = %v", f.Anomalies, tt.illegal)
			}
			if !tt.illegal {
				return
			}
			a := f.Anomalies[0]
			if a.Kind != AnomalyIllegalTransition || a.Stale != "w1" || a.Current != "w2" || len(a.Violating) != 1 || a.Violating[0] != 6 {
				t.Errorf("anomaly %+v: want w1's pay (op 6) stale, w2 current", a)
			}
			w, ok := describeTransition(tt.h, a)
			if !ok || w.Key != "a.illegal-transition" || w.Args[0] != "w1" || w.Args[1] != "w2" ||
				w.Args[3] != Term("result.order-status.cancelled") || w.Args[4] != Term("result.order-status.paid") {
				t.Errorf("described as %+v", w)
			}
		})
	}
}

func TestTheOrderModelAllowsOnlyTheStateMachinesTransitions(t *testing.T) {
	k, _ := Lookup(OrderStatus)
	m := LeaseModel(k, nil)
	write := func(action, found string) (Input, Output) {
		return Input{F: history.Write, Client: "w1", Key: "order-1", Action: action}, Output{Type: history.OK, Result: found}
	}
	held := func() interface{} {
		_, s := m.Step(m.Init(), Input{F: history.Acquire, Client: "w1", Key: "order-1"}, Output{Type: history.OK})
		return s
	}
	tests := []struct {
		name    string
		actions [][2]string // action, state found
		legal   bool
	}{
		{"pay then ship is legal", [][2]string{{ActionPay, OrderPending}, {ActionShip, OrderPaid}}, true},
		{"cancel a pending order is legal", [][2]string{{ActionCancel, OrderPending}}, true},
		{"pay a cancelled order is illegal", [][2]string{{ActionCancel, OrderPending}, {ActionPay, OrderCancelled}}, false},
		{"ship an order not paid is illegal", [][2]string{{ActionShip, OrderPending}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, legal := held(), true
			for _, a := range tt.actions {
				in, out := write(a[0], a[1])
				if legal, s = m.Step(s, in, out); !legal {
					break
				}
			}
			if legal != tt.legal {
				t.Errorf("legal = %v, want %v", legal, tt.legal)
			}
		})
	}
}

func TestAFulfilmentWorkerAndACancellerWantTheirTransitions(t *testing.T) {
	tests := []struct {
		name  string
		index int
		state string
		want  string
	}{
		{"w1 pays a pending order", 0, OrderPending, ActionPay},
		{"w1 ships a paid order", 0, OrderPaid, ActionShip},
		{"w1 leaves a cancelled order alone", 0, OrderCancelled, ""},
		{"w2 cancels a pending order", 1, OrderPending, ActionCancel},
		{"w2 leaves a paid order alone", 1, OrderPaid, ""},
		{"w3 fulfils like w1", 2, OrderPending, ActionPay},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := wants(indexed{i: tt.index}, tt.state); got != tt.want {
				t.Errorf("wants %q, want %q", got, tt.want)
			}
		})
	}
}

// indexed is a Client with only its place among the clients (wants calls
// nothing else).
type indexed struct {
	Client
	i int
}

func (c indexed) Index() int { return c.i }
