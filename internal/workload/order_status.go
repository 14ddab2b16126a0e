package workload

import (
	"context"
	"fmt"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/lock"
)

// OrderStatus moves orders through a state machine under the lock: lesson
// 42 counts a state machine's transition among the locks kept for
// correctness. An order goes pending → paid → shipped, or pending →
// cancelled. Each client reads the order's state under the lock and
// applies the next transition it wants of it: w1, w3, … fulfil orders (pay
// a pending one, ship a paid one), w2, w4, … cancel pending ones. A stale
// holder that read pending and pays after another holder cancelled the
// order makes an illegal transition, cancelled → paid.
const OrderStatus = "order-status"

// The order-status workload's actions. An accepted transition records the
// state the resource found the order in (Value.Result).
const (
	ActionReadOrder = "read-order" // read, Result = the order's state
	ActionPay       = "pay"        // pending → paid
	ActionShip      = "ship"       // paid → shipped
	ActionCancel    = "cancel"     // pending → cancelled
)

// An order's states (Value.Result of a read, and of a transition: the
// state it was found in).
const (
	OrderPending   = "pending"
	OrderPaid      = "paid"
	OrderShipped   = "shipped"
	OrderCancelled = "cancelled"
)

// AnomalyIllegalTransition: the resource accepted a transition of an order
// that was not in the transition's source state (cancelled → paid).
const AnomalyIllegalTransition = "illegal-transition"

// transitions are the orders' state machine: each action's source and
// target state.
var transitions = map[string][2]string{
	ActionPay:    {OrderPending, OrderPaid},
	ActionShip:   {OrderPaid, OrderShipped},
	ActionCancel: {OrderPending, OrderCancelled},
}

func init() {
	Register(Kind{
		Name:  OrderStatus,
		About: "move an order pending → paid → shipped, or pending → cancelled, under the lock; a transition from another state is an illegal transition",
		Order: 80,
		Actions: []Action{{Name: ActionReadOrder}, {Name: ActionPay, Effect: true}, {Name: ActionShip, Effect: true},
			{Name: ActionCancel, Effect: true}},
		Object:   "order",
		Keyed:    true,
		Guards:   []string{GuardFencing, GuardCheckAndSet},
		New:      func() Workload { return &orderStatus{} },
		Model:    orderModel,
		Question: AnomalyIllegalTransition,
		Effects:  []Rule{illegalTransitions},
		Words:    orderWords,
		Tell:     func(history.History) Teller { return orderTeller{} },
		Anomalies: []AnomalyKind{{Name: AnomalyIllegalTransition, Rank: 0,
			About:  "an order went through a transition its state machine forbids (a cancelled order became paid)",
			Advice: []string{"fix.transition", "fix.fencing"}, Describe: describeTransition}},
	})
}

// orderStatus has no fields of its own: which transition a client wants
// follows from its place among the clients.
type orderStatus struct {
	noFields `yaml:"-"` // nothing of its own for scenario.Normalize to write back
}

func (*orderStatus) Start(env Env) Run { return &orders{newPerObject[string](env)} }

// orders is a run's order store: each order's state, pending until a
// transition moves it. The store applies a transition as a plain write of
// the new state (UPDATE orders SET status = …), whatever state the order
// is in: only the guard (fencing, check_and_set) can refuse it.
type orders struct{ perObject[string] }

func (r *orders) Work(ctx context.Context, c Client) {
	eachObject(ctx, c, func(key string) Body { return r.move(ctx, c, key) })
}

// state is an order's state. Call inside g.Do.
func (r *orders) state(key string) string {
	if s, ok := r.values[key]; ok {
		return s
	}
	return OrderPending
}

// wants is the transition client c wants of an order in state s, "" for
// none: w1, w3, … fulfil (pay a pending order, ship a paid one); w2, w4,
// … cancel a pending one.
func wants(c Client, s string) string {
	if c.Index()%2 == 1 {
		if s == OrderPending {
			return ActionCancel
		}
		return ""
	}
	switch s {
	case OrderPending:
		return ActionPay
	case OrderPaid:
		return ActionShip
	}
	return ""
}

// move is the critical section: (claim with the fencing token,) read the
// order's state, decide the transition, do the job, apply it.
func (r *orders) move(ctx context.Context, c Client, key string) Body {
	return func(l lock.Lease) (bool, error) {
		if !claimFirst(c, r.g, key, l) {
			return true, nil
		}
		read := c.ReadResult(ctx, key, ActionReadOrder, func() (s string) {
			r.g.Do(func() { s = r.state(key) })
			return s
		})
		action := wants(c, read)
		if action == "" {
			return true, nil
		}
		if err := c.Job(ctx, l); err != nil {
			return false, err
		}
		if err := c.BeforeWrite(ctx, l); err != nil {
			return false, err
		}
		c.Write(key, action, ProofOf(l), func(note *history.Value) (ref Refusal, _ error) {
			r.g.Do(func() {
				if ref = r.g.Admit(key, ProofOf(l)); ref.Why != "" {
					return
				}
				note.Result = r.state(key) // what the store found
				r.values[key] = transitions[action][1]
			})
			return ref, nil
		})
		return true, nil
	}
}

// orderModel is the state machine: a read of an order returns its state;
// an accepted transition needs the order in its source state (and, when
// the write recorded the state it found, that state) and moves it to its
// target.
var orderModel = Model{
	Init: func(map[string]int64) any { return OrderPending },
	Read: func(s any, in Input, out Output) (bool, any) {
		if in.Action != ActionReadOrder || out.Result == "" {
			return true, s
		}
		return out.Result == s.(string), s
	},
	Apply: func(s any, in Input, out Output) (bool, any) {
		t, ok := transitions[in.Action]
		if !ok {
			return true, s
		}
		if s.(string) != t[0] || (out.Result != "" && out.Result != s.(string)) {
			return false, s
		}
		return true, t[1]
	},
	Hash:     func(s any) uint64 { return fnvString(fnvOffset, s.(string)) },
	Describe: func(s any) string { return ", order " + s.(string) },
}

// illegalTransitions is the state machine's rule: an accepted transition
// whose order the resource found in another state than the transition's
// source (the state the write recorded); the client whose transition had
// put the order in that state is the current one, the writer the stale
// one.
func illegalTransitions(a *account.Account, ix *Index) Finding {
	h := a.H
	var f Finding
	byKey := map[string][]int{}
	var keys []string
	for _, action := range []string{ActionPay, ActionShip, ActionCancel} {
		by, ks := ix.ByKey(action)
		for _, k := range ks {
			if _, seen := byKey[k]; !seen {
				keys = append(keys, k)
			}
			byKey[k] = append(byKey[k], by[k]...)
		}
	}
	total := 0
	for _, k := range keys {
		ws := byKey[k]
		finding.SortIdx(h, ws, finding.CompleteOf)
		total += len(ws)
		for j, wi := range ws {
			w := h.Ops[wi]
			t := transitions[w.Value.Action]
			found := w.Value.Result
			if found == "" || found == t[0] {
				continue
			}
			an := finding.New(h, AnomalyIllegalTransition, k, []string{w.Client}, w.Invoke, w.Complete, "", w.Index)
			an.Stale, an.Violating = w.Client, []int{w.Index}
			explain := fmt.Sprintf("the resource accepted %s's %s of %s at %s, which moved it from %s to %s", w.Client, w.Value.Action, k,
				finding.At(h, w.Complete), found, t[1])
			// The transition that had put the order in the state found.
			for p := j - 1; p >= 0; p-- {
				prev := h.Ops[ws[p]]
				if transitions[prev.Value.Action][1] != found {
					continue
				}
				an = finding.New(h, AnomalyIllegalTransition, k, []string{w.Client, prev.Client}, prev.Complete, w.Complete, "", prev.Index, w.Index)
				an.Stale, an.Current, an.Violating = w.Client, prev.Client, []int{w.Index}
				explain += fmt.Sprintf(": %s's %s had made it %s at %s", prev.Client, prev.Value.Action, found, finding.At(h, prev.Complete))
				break
			}
			an.Explain = explain + fmt.Sprintf("; %s moves an order from %s only (pending → paid → shipped, or pending → cancelled)", w.Value.Action, t[0])
			f.Anomalies = append(f.Anomalies, an)
		}
	}
	clean := ""
	if total > 0 {
		clean = fmt.Sprintf("%s on %s, none illegal", finding.Plural(total, "accepted transition", "accepted transitions"),
			finding.Plural(len(keys), "order", "orders"))
	}
	return summed(f, "illegal transition", "illegal transitions", clean)
}

// describeTransition tells an illegal transition from its finding: the
// stale writer's transition (its violating write, with the state it found)
// and, when the checker named one, the current client's transition before
// it.
func describeTransition(h history.History, a finding.Anomaly) (Words, bool) {
	if len(a.Violating) == 0 || a.Violating[0] >= len(h.Ops) {
		return Words{}, false
	}
	w := h.Ops[a.Violating[0]]
	t, ok := transitions[w.Value.Action]
	if !ok || w.Value.Result == "" {
		return Words{}, false
	}
	found, to := Term("result."+OrderStatus+"."+w.Value.Result), Term("result."+OrderStatus+"."+t[1])
	at := At(h.Header.ScenarioSeconds(w.Invoke))
	if a.Current == "" {
		return Say("a.illegal-transition.plain", w.Client, a.Key, found, to, at), true
	}
	return Say("a.illegal-transition", w.Client, a.Current, a.Key, found, to, at), true
}

// orderTeller tells a transition with the states it moved the order
// between.
type orderTeller struct{}

func (orderTeller) Read(history.Op) (Words, bool) { return Words{}, false }

func (orderTeller) Write(o history.Op, tok string) (Words, bool) {
	t, ok := transitions[o.Value.Action]
	if !ok || o.Value.Result == "" {
		return Words{}, false
	}
	from, to := Term("result."+OrderStatus+"."+o.Value.Result), Term("result."+OrderStatus+"."+t[1])
	if o.Value.Result != t[0] {
		return Say("n.write.transition.illegal", o.Client, o.Key, from, to, tok), true
	}
	return Say("n.write.transition", o.Client, o.Key, from, to, tok), true
}

// orderWords are the order-status workload's sentences and words in the
// report's languages (package report renders them; verbs and argument
// order as the comments say).
var orderWords = map[string]map[string]string{
	"en": {
		"question.order-status":         "Will an order make a transition its state machine forbids?", // locksim serve asks it before a run
		"wl.order-status":               "order",
		"wl.write.order-status":         "state transition",
		"wl.resource.order-status":      "the order store",
		"lane.resource.order-status":    "order store",
		"result.order-status.pending":   "pending",
		"result.order-status.paid":      "paid",
		"result.order-status.shipped":   "shipped",
		"result.order-status.cancelled": "cancelled",
		"act.pay":                       "payment",
		"act.ship":                      "shipment",
		"act.cancel":                    "cancellation",
		"p.act.pay":                     "paid",
		"p.act.ship":                    "shipped",
		"p.act.cancel":                  "cancelled",
		"n.write.transition":            "%s moved %s from %s to %s%s.",                                                                                         // client, key, state found, new state, token suffix
		"n.write.transition.illegal":    "%s moved %s from %s to %s%s — an illegal transition: an order goes pending → paid → shipped, or pending → cancelled.", // client, key, state found, new state, token suffix
		"kind.illegal-transition":       "illegal state transition",
		"why.illegal-transition":        "Correctness: an order went through a transition its state machine forbids (a cancelled order became paid, say): the order's state is now wrong.",
		"say.illegal-transition":        "An illegal state transition: %s",                                                                                                                   // describe
		"a.illegal-transition":          "%[1]s moved %[3]s from %[4]s to %[5]s at t=%[6]ss, after %[2]s had made it %[4]s: an order goes pending → paid → shipped, or pending → cancelled.", // stale, current, key, state found, new state, t
		"a.illegal-transition.plain":    "%[1]s moved %[2]s from %[3]s to %[4]s at t=%[5]ss: an order goes pending → paid → shipped, or pending → cancelled.",                                // client, key, state found, new state, t
		"fix.transition":                "Make each transition a compare-and-set on the order's state: apply pay only while the order is still pending (UPDATE orders SET status = 'paid' WHERE id = ? AND status = 'pending', or one Lua script that checks and sets), so a holder that decided from a stale read is refused whoever holds the lock (lesson 42).",
	},
	"vi": {
		"question.order-status":         "Đơn hàng có chuyển trạng thái mà máy trạng thái của nó cấm không?",
		"wl.order-status":               "đơn hàng",
		"wl.write.order-status":         "lần chuyển trạng thái",
		"wl.resource.order-status":      "kho đơn hàng",
		"lane.resource.order-status":    "kho đơn hàng",
		"result.order-status.pending":   "chờ thanh toán",
		"result.order-status.paid":      "đã thanh toán",
		"result.order-status.shipped":   "đã giao",
		"result.order-status.cancelled": "đã huỷ",
		"act.pay":                       "thanh toán",
		"act.ship":                      "giao hàng",
		"act.cancel":                    "huỷ đơn",
		"p.act.pay":                     "đã thanh toán",
		"p.act.ship":                    "đã giao",
		"p.act.cancel":                  "đã huỷ",
		"n.write.transition":            "%s chuyển %s từ %s sang %s%s.",
		"n.write.transition.illegal":    "%s chuyển %s từ %s sang %s%s — một lần chuyển trạng thái không hợp lệ: đơn hàng chỉ được chuyển theo chờ thanh toán → đã thanh toán → đã giao, hoặc chờ thanh toán → đã huỷ.",
		"kind.illegal-transition":       "chuyển trạng thái không hợp lệ",
		"why.illegal-transition":        "Tính đúng đắn: một đơn hàng đã đi qua một lần chuyển trạng thái mà máy trạng thái của nó cấm (chẳng hạn một đơn đã huỷ lại thành đã thanh toán): trạng thái của đơn giờ đã sai.",
		"say.illegal-transition":        "Một lần chuyển trạng thái không hợp lệ: %s",
		"a.illegal-transition":          "%[1]s chuyển %[3]s từ %[4]s sang %[5]s lúc t=%[6]ss, sau khi %[2]s đã chuyển nó sang %[4]s: đơn hàng chỉ được chuyển theo chờ thanh toán → đã thanh toán → đã giao, hoặc chờ thanh toán → đã huỷ.",
		"a.illegal-transition.plain":    "%[1]s chuyển %[2]s từ %[3]s sang %[4]s lúc t=%[5]ss: đơn hàng chỉ được chuyển theo chờ thanh toán → đã thanh toán → đã giao, hoặc chờ thanh toán → đã huỷ.",
		"fix.transition":                "Biến mỗi lần chuyển trạng thái thành một compare-and-set trên trạng thái của đơn: chỉ thanh toán khi đơn vẫn đang chờ thanh toán (UPDATE orders SET status = 'paid' WHERE id = ? AND status = 'pending', hoặc một Lua script vừa kiểm tra vừa ghi), để lần ghi của một client giữ lock đã quyết định từ một lần đọc cũ bị từ chối, bất kể ai đang giữ lock (bài 42).",
	},
}
