package workload

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/lock"
)

// Payment charges invoices through a payment gateway that is not
// idempotent unless told so (lock-theory S01, S19): a second charge of one
// invoice is a double charge.
const Payment = "payment"

// The payment workload's actions.
const (
	ActionReadStatus = "read-status" // read, Result = ResultPaid | ResultUnpaid
	ActionCharge     = "charge"      // take the money
	ActionMarkPaid   = "mark-paid"   // set the invoice paid
	// ActionComplete is a job queue's completion (Bull's moveToFinished):
	// it sets the job record finished (the invoice paid) only while the
	// lock key still holds the writer's owner token (workload completion:
	// token); refused with RefusalLockMismatch otherwise.
	ActionComplete = "complete"
	// ActionRecordFailure writes the failure metadata into the job record
	// (Bull's Job._saveAttempt: failedReason), after a refused completion:
	// unchecked, or checked by token like the completion (workload
	// failure_record).
	ActionRecordFailure = "record-failure"
)

// ResourceJobStore is the resource of a job's completion and failure
// record (Action.Resource): the job queue's record of the job.
const ResourceJobStore = "job-store"

// Results of a read of an invoice's status (Value.Result).
const (
	ResultPaid   = "paid"
	ResultUnpaid = "unpaid"
)

// Completion and failure-record styles of the payment workload
// (workload completion, failure_record).
const (
	CompletionToken        = "token"
	FailureRecordUnchecked = "unchecked"
	FailureRecordToken     = "token"
)

func init() {
	Register(Kind{
		Name:  Payment,
		About: "charge an invoice through a non-idempotent gateway; a second charge is a double charge (idempotency: true keys charges)",
		Order: 10,
		// The completion and the failure record write the job's record in
		// the job store (Bull's moveToFinished and _saveAttempt), not the
		// gateway: only the charge goes to the gateway.
		Actions: []Action{{Name: ActionReadStatus}, {Name: ActionCharge, Effect: true}, {Name: ActionMarkPaid},
			{Name: ActionComplete, Resource: ResourceJobStore}, {Name: ActionRecordFailure, Resource: ResourceJobStore}},
		Object: "invoice",
		Keyed:  true,
		Fields: []string{"idempotency", "completion", "failure_record"},
		Guards: []string{GuardFencing, GuardCheckAndSet},
		// The gateway is outside Redis: no Redis command or script can
		// charge it atomically with a check (fix.atomic).
		Unadvised:    []string{"fix.atomic"},
		New:          func() Workload { return &payment{} },
		Model:        payModel,
		Question:     history.AnomalyDoubleEffect,
		Effects:      []Rule{doubleCharges, staleRecords},
		Deduplicates: dedupCharges,
		// The key makes a repeated charge, mark-paid or completion
		// harmless; a stale failure record still overwrites the finished
		// run's record (reader 18, stalled-job-failed-reason).
		Unkeyed: []string{ActionRecordFailure},
		Words:   paymentWords,
		Tell:    func(h history.History) Teller { return payTeller{h} },
	})
}

// payment is the payment workload's own fields.
type payment struct {
	// Idempotency: the payment gateway keys each charge by invoice and
	// refuses a second charge with the same key.
	Idempotency bool `yaml:"idempotency,omitempty"`
	// Completion, "token": the job ends with two writes of the job record
	// instead of mark-paid — a completion the resource accepts only while
	// the lock key on n1 still holds the writer's owner token (Bull's
	// moveToFinished), and, when that is refused, a failure record (Bull's
	// failedReason). The charge before them stays unguarded (the job's
	// side effect). "" keeps mark-paid.
	Completion string `yaml:"completion,omitempty"`
	// FailureRecord (with Completion): how the failure record after a
	// refused completion is written — "unchecked" (Bull's
	// Job._saveAttempt, the default: it overwrites whatever the record
	// holds) or "token" (checked like the completion, so refused too).
	FailureRecord string `yaml:"failure_record,omitempty"`
}

func (w *payment) Decode(d Decoder) {
	w.Idempotency, _ = d.Bool("idempotency")
	// The two-write job of BR-23: an unguarded charge, then a token-checked
	// completion, then on refusal a failure record.
	if v, ok := d.Enum("completion", "completion", []string{CompletionToken}); ok {
		if a := d.Algorithm(); a != "" && d.Traits().LockFree {
			d.Errorf("completion", "needs an algorithm that takes a lock (got %s): the completion checks the lock key's owner token", a)
		} else {
			w.Completion = v
		}
	}
	v, ok := d.Enum("failure_record", "failure record", []string{FailureRecordUnchecked, FailureRecordToken})
	switch {
	case !ok:
		if w.Completion != "" {
			w.FailureRecord = FailureRecordUnchecked
		}
	case !d.Has("completion"):
		d.Errorf("failure_record", "needs completion: token: the failure record is what a worker writes after its token-checked completion is refused")
	default:
		w.FailureRecord = v
	}
	if a := d.Algorithm(); a != "" && d.Traits().IdempotencyKey && !w.Idempotency {
		d.Errorf("idempotency", "%s", "algorithm "+a+" takes no lock and relies on the gateway's idempotency key; set \"idempotency: true\"")
	}
}

func (w *payment) Params(func(time.Duration) int64) map[string]int64 {
	p := map[string]int64{history.ParamIdempotency: flag(w.Idempotency)}
	if w.Completion == CompletionToken {
		p[history.ParamCompletionToken] = 1
		p[history.ParamFailureRecordToken] = flag(w.FailureRecord == FailureRecordToken)
	}
	return p
}

// flag is a boolean as a header parameter.
func flag(v bool) int64 {
	if v {
		return 1
	}
	return 0
}

func (w *payment) Start(env Env) Run {
	return &payments{perObject: newPerObject[*invoice](env), w: w}
}

// payments is a run's invoices and payment gateway. Every accepted charge
// is money taken, whatever the invoice's status: the gateway is not
// idempotent, unless idempotency is on: then it keys each charge by the
// invoice and refuses a second one (Stripe-style idempotency keys,
// lock-theory S19).
type payments struct {
	perObject[*invoice] // the invoices
	w                   *payment
}

type invoice struct {
	paid    bool
	charges int
	// failed is the job record's failure metadata (Bull's failedReason),
	// written by a record-failure; it overwrites a finished record.
	failed bool
}

func (r *payments) get(key string) *invoice {
	inv := r.values[key]
	if inv == nil {
		inv = &invoice{}
		r.values[key] = inv
	}
	return inv
}

func (r *payments) Work(ctx context.Context, c Client) {
	eachObject(ctx, c, func(key string) Body { return r.pay(ctx, c, key) })
}

// pay is the critical section: (claim with the fencing token,) read the
// invoice, do the slow job, charge, mark paid. Lock-free
// (idempotency-key), the client just charges with the invoice as its
// idempotency key.
func (r *payments) pay(ctx context.Context, c Client, key string) Body {
	return func(l lock.Lease) (bool, error) {
		if !c.LockFree() {
			if !claimFirst(c, r.g, key, l) {
				return true, nil
			}
			if c.ReadResult(ctx, key, ActionReadStatus, func() string { return r.status(key) }) == ResultPaid {
				return true, nil
			}
		}
		if err := c.Job(ctx, l); err != nil {
			return false, err
		}
		if err := c.BeforeWrite(ctx, l); err != nil {
			return false, err
		}
		charged := write(c, key, ActionCharge, ProofOf(l), r.charge)
		if r.w.Completion == CompletionToken {
			r.finishJob(ctx, c, key, l)
			return true, nil
		}
		if charged {
			write(c, key, ActionMarkPaid, ProofOf(l), r.markPaid)
		}
		return true, nil
	}
}

// finishJob is the second write of a two-write job (workload completion:
// token; Bull's moveToFinished, then Job._saveAttempt): the completion,
// which the resource accepts only while the lock key on n1 still holds the
// lease's owner token, and, when it is refused, the failure record —
// unchecked (it overwrites whatever the job record holds) or checked the
// same way. The token check is one GET of the lock key on the client's own
// link to n1, as Bull's Lua script reads it.
func (r *payments) finishJob(ctx context.Context, c Client, key string, l lock.Lease) {
	owns := func() (bool, error) {
		octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.OpTimeout())
		defer cancel()
		v, err := c.Node().Cmd.Get(octx, l.Key).Result()
		switch {
		case errors.Is(err, redis.Nil):
			return false, nil
		case err != nil:
			return false, fmt.Errorf("check the owner token of %s on n1: %w", l.Key, err)
		}
		return v == l.Token, nil
	}
	checked := func(action string, do func(key string, p Proof, owns bool) Refusal) history.Type {
		return c.Write(key, action, ProofOf(l), func(*history.Value) (Refusal, error) {
			ok, err := owns()
			if err != nil {
				return Refusal{}, err
			}
			return do(key, ProofOf(l), ok), nil
		})
	}
	if checked(ActionComplete, r.complete) != history.Fail {
		return
	}
	if r.w.FailureRecord != FailureRecordToken {
		c.Write(key, ActionRecordFailure, ProofOf(l), func(*history.Value) (Refusal, error) {
			return r.recordFailure(key, ProofOf(l), false, true), nil
		})
		return
	}
	checked(ActionRecordFailure, func(key string, p Proof, owns bool) Refusal {
		return r.recordFailure(key, p, true, owns)
	})
}

// status reads an invoice: ResultPaid or ResultUnpaid.
func (r *payments) status(key string) string {
	res := ResultUnpaid
	r.g.Do(func() {
		if r.get(key).paid {
			res = ResultPaid
		}
	})
	return res
}

// charge takes the money.
func (r *payments) charge(key string, p Proof) (ref Refusal) {
	r.g.Do(func() {
		inv := r.get(key)
		if ref = r.g.Admit(key, p); ref.Why != "" {
			return
		}
		if r.w.Idempotency && inv.charges > 0 {
			ref = Refusal{Why: history.RefusalDuplicateKey}
			return
		}
		inv.charges++
	})
	return ref
}

// markPaid sets the invoice's status to paid.
func (r *payments) markPaid(key string, p Proof) (ref Refusal) {
	r.g.Do(func() {
		if ref = r.g.Admit(key, p); ref.Why == "" {
			r.get(key).paid = true
		}
	})
	return ref
}

// complete is a job queue's completion (Bull's moveToFinished): the
// invoice's record set finished (paid), once owns — the token check the
// client ran on the lock key — said the writer still holds the lock.
func (r *payments) complete(key string, p Proof, owns bool) (ref Refusal) {
	r.g.Do(func() {
		if !owns {
			ref = Refusal{Why: history.RefusalLockMismatch}
			return
		}
		if ref = r.g.Admit(key, p); ref.Why != "" {
			return
		}
		inv := r.get(key)
		inv.paid, inv.failed = true, false
	})
	return ref
}

// recordFailure writes the failure metadata into the invoice's job record
// (Bull's failedReason): refused only when checked and owns is false.
func (r *payments) recordFailure(key string, p Proof, checked, owns bool) (ref Refusal) {
	r.g.Do(func() {
		if checked && !owns {
			ref = Refusal{Why: history.RefusalLockMismatch}
			return
		}
		if ref = r.g.Admit(key, p); ref.Why == "" {
			r.get(key).failed = true
		}
	})
	return ref
}

// payState is an invoice as the lease model sees it: accepted charges and
// whether it is paid.
type payState struct {
	Charged int
	Paid    bool
}

// payModel: a read of the status says paid iff the invoice is paid; an
// accepted charge needs none before it (a second is a double charge);
// mark-paid and a completion set it paid; a charge refused as a duplicate
// of its idempotency key is legal only once a charge went through.
var payModel = Model{
	Init: func(map[string]int64) any { return payState{} },
	Read: func(s any, in Input, out Output) (bool, any) {
		p := s.(payState)
		if in.Action == ActionReadStatus {
			switch out.Result {
			case ResultPaid:
				return p.Paid, p
			case ResultUnpaid:
				return !p.Paid, p
			}
		}
		return true, p
	},
	Apply: func(s any, in Input, _ Output) (bool, any) {
		p := s.(payState)
		switch in.Action {
		case ActionCharge:
			if p.Charged != 0 {
				return false, p
			}
			p.Charged++
		case ActionMarkPaid, ActionComplete:
			p.Paid = true
		}
		return true, p
	},
	Refused: func(s any, in Input, out Output) bool {
		if in.Action == ActionCharge && out.Refusal == history.RefusalDuplicateKey {
			return s.(payState).Charged > 0
		}
		return true
	},
	Hash: func(s any) uint64 {
		p := s.(payState)
		v := uint64(p.Charged) << 1
		if p.Paid {
			v |= 1
		}
		return v
	},
	Describe: func(s any) string {
		p := s.(payState)
		paid := ResultUnpaid
		if p.Paid {
			paid = ResultPaid
		}
		return fmt.Sprintf(", charged %d, %s", p.Charged, paid)
	},
}

// dedupCharges: with idempotency on, the gateway keys each charge by the
// invoice.
func dedupCharges(params map[string]int64) string {
	if params[history.ParamIdempotency] == 1 {
		return ActionCharge
	}
	return ""
}

// doubleCharges is the double-effect rule (S01, S19): more than one
// accepted charge of one invoice. Charges refused by an idempotency key
// are refusals, not charges.
func doubleCharges(a *account.Account, ix *Index) Finding {
	h := a.H
	f := repeated(h, ix, ActionCharge, history.AnomalyDoubleEffect, "was charged", "invoice", "invoices", "a payment must happen once")
	if len(f.Anomalies) > 0 {
		f.Summary = fmt.Sprintf("%s charged more than once", finding.Plural(len(f.Anomalies), "invoice", "invoices"))
	}
	for i := range f.Anomalies {
		lateCharge(a, &f.Anomalies[i])
	}
	return f
}

// lateCharge finds, among a double-effect's charges, the earliest one made
// after its writer's lock was gone from the node, and records why it was
// gone (Cause, with Write the late charge) and who acted on the lost lock
// (Stale) and who held it then (Current).
func lateCharge(a *account.Account, an *finding.Anomaly) {
	h := a.H
	for _, oi := range an.Ops {
		w := &h.Ops[oi]
		hold, ok := finding.HoldAt(a, w.Client, w.Key, w.Invoke)
		if !ok || hold.Possible {
			continue
		}
		// The lock is lost when the account's grant ends: once fewer than
		// a quorum of its granting nodes (one for a single node) still
		// hold its key, not when the last of them lets it go.
		g, ok := a.GrantOf(hold.Acquire)
		if !ok || len(g.Lives) == 0 || g.Ended.Kind == account.EndHeld || g.End > w.Invoke {
			continue
		}
		// The key life whose end broke the quorum.
		last := g.Lives[0]
		for _, l := range g.Lives {
			if l.Node == g.EndNode && l.LostAt() == g.End {
				last = l
			}
		}
		c := &finding.Cause{Kind: last.Ended.Kind, Client: w.Client, Nodes: []string{last.Node}, At: last.LostAt(), By: last.Ended.By,
			Step: last.Ended.Step, TTL: hold.TTL, Observed: last.Observed, Write: w.Index}
		if c.Kind == account.EndReleased && last.Owner != w.Client && a.Reentered(hold.Acquire) {
			c.Kind = finding.CauseSharerReleased // its owner, sharing the token, released it
		}
		finding.Bearing(a, hold, c)
		token := h.Ops[hold.Acquire].Value.Token
		for _, l := range a.Keys() {
			if l.Node == last.Node && l.Key == last.Key && l.Owner == w.Client && l.Grant < 0 && token != "" && l.Value == token &&
				l.Start > last.End && l.Start <= w.Invoke {
				c.Reset = l.Start // its own extend set the lost key again (BR-08)
				break
			}
		}
		an.Cause, an.Stale = c, w.Client
		for _, other := range an.Clients {
			if other != w.Client {
				an.Current = other
				break
			}
		}
		return
	}
}

// staleRecords is the two-write job's rule (workload completion: token;
// BR-23, bull #1416): an accepted write of a job record — a completion or
// a failure record — by client A invoked after client B's accepted
// completion of that record, B's grant being later than A's: A's run was
// superseded, and its write overwrote the record of B's finished run. It
// is a stale-write-accepted with A stale and B current.
func staleRecords(a *account.Account, ix *Index) Finding {
	h := a.H
	var f Finding
	done, keys := ix.ByKey(ActionComplete)
	failed, fkeys := ix.ByKey(ActionRecordFailure)
	if len(keys) == 0 && len(fkeys) == 0 {
		return f
	}
	tm := newTerms(h)
	total := 0
	for _, k := range keys {
		total += len(done[k])
	}
	for _, k := range fkeys {
		total += len(failed[k])
	}
	for _, k := range keys {
		writes := append(append([]int(nil), done[k]...), failed[k]...)
		finding.SortIdx(h, writes, finding.CompleteOf)
		reported := map[[2]string]bool{}
		for _, wi := range writes {
			w := &h.Ops[wi]
			tw := tm.term(w)
			if tw < 0 {
				continue
			}
			for _, bi := range done[k] {
				b := &h.Ops[bi]
				if b.Client == w.Client || b.Complete >= w.Invoke || reported[[2]string{w.Client, b.Client}] {
					continue
				}
				tb := tm.term(b)
				if tb < 0 || finding.GrantedAt(h.Ops[tb]) <= finding.GrantedAt(h.Ops[tw]) {
					continue // b's run is not the newer one
				}
				reported[[2]string{w.Client, b.Client}] = true
				explain := fmt.Sprintf("the resource accepted %s's %s on %s at %s, under a grant older than %s's, after %s's completion of it at %s; a superseded run's write overwrote the record of the newer run",
					w.Client, finding.ActionName(*w), k, finding.At(h, w.Complete), b.Client, b.Client, finding.At(h, b.Complete))
				an := finding.New(h, history.AnomalyStaleWriteAccepted, k, []string{w.Client, b.Client}, b.Complete, w.Complete, explain,
					h.Ops[tw].Index, h.Ops[tb].Index, b.Index, w.Index)
				an.Stale, an.Current = w.Client, b.Client
				an.Violating = []int{w.Index}
				f.Anomalies = append(f.Anomalies, an)
			}
		}
	}
	return summed(f, "job record overwritten by a superseded run", "job records overwritten by superseded runs",
		fmt.Sprintf("%s, none by a superseded run", finding.Plural(total, "accepted job-record write", "accepted job-record writes")))
}

// paymentWords are the payment workload's sentences and words in the report's
// languages (package report renders them; verbs and argument order as
// the comments say).
var paymentWords = map[string]map[string]string{
	"en": {
		"question.payment":               "Will the invoice be charged twice?",                // locksim serve asks it before a run
		"n.write.charge":                 "%s charged %s%s: accepted by the payment gateway.", // client, key, token suffix
		"n.write.markpaid":               "%s marked %s as paid%s.",
		"n.write.complete":               "%s completed the job %s%s: its lock key still held its owner token, so the record is finished.",                      // client, key, token suffix
		"n.write.record-failure":         "%s wrote its failure record (failedReason) into the job %s%s, unchecked: accepted.",                                  // client, key, token suffix
		"n.write.record-failure.checked": "%s wrote its failure record (failedReason) into the job %s%s: its lock key still held its owner token, so accepted.", // client, key, token suffix
		"result.paid":                    "paid",                                                                                                                // a read of an invoice's status
		"result.unpaid":                  "unpaid",
		"wl.payment":                     "invoice",
		"wl.write.payment":               "charge",
		"wl.resource.payment":            "the payment gateway",
		"lane.resource.payment":          "payment gateway",
		"resource.job-store":             "job store", // the completion and failedReason writes go to the job record, not the gateway
		"act.charge":                     "charge",
		"act.mark-paid":                  "mark-paid",
		"act.complete":                   "completion (token-checked)",
		"act.record-failure":             "failure record (failedReason)",
		// The timeline's label on an accepted write, after its client's
		// name ("w1 charged"): each action its own, never another's.
		"p.act.charge":         "charged",
		"p.act.mark-paid":      "marked paid",
		"p.act.complete":       "completed",
		"p.act.record-failure": "wrote failedReason",
	},
	"vi": {
		"question.payment":               "Hoá đơn có bị trừ tiền hai lần không?",
		"n.write.charge":                 "%s trừ tiền %s%s: cổng thanh toán chấp nhận.",
		"n.write.markpaid":               "%s đánh dấu %s là đã thanh toán%s.",
		"n.write.complete":               "%s hoàn thành job %s%s: key lock vẫn giữ owner token của nó, nên bản ghi của job là đã xong.",
		"n.write.record-failure":         "%s ghi lý do thất bại (failedReason) vào job %s%s mà không kiểm tra gì: được chấp nhận.",
		"n.write.record-failure.checked": "%s ghi lý do thất bại (failedReason) vào job %s%s: key lock vẫn giữ owner token của nó, nên được chấp nhận.",
		"result.paid":                    "đã thanh toán",
		"result.unpaid":                  "chưa thanh toán",
		"wl.payment":                     "hoá đơn",
		"wl.write.payment":               "lần trừ tiền",
		"wl.resource.payment":            "cổng thanh toán",
		"lane.resource.payment":          "cổng thanh toán",
		"resource.job-store":             "kho lưu job",
		"act.charge":                     "trừ tiền",
		"act.mark-paid":                  "đánh dấu đã thanh toán",
		"act.complete":                   "hoàn thành job (kiểm tra token)",
		"act.record-failure":             "ghi lý do thất bại (failedReason)",
		"p.act.charge":                   "đã trừ tiền",
		"p.act.mark-paid":                "đã đánh dấu đã thanh toán",
		"p.act.complete":                 "đã hoàn thành job",
		"p.act.record-failure":           "đã ghi failedReason",
	},
}

// payTeller tells a payment's writes.
type payTeller struct{ h history.History }

func (payTeller) Read(history.Op) (Words, bool) { return Words{}, false }

func (t payTeller) Write(o history.Op, tok string) (Words, bool) {
	switch o.Value.Action {
	case ActionCharge:
		return Say("n.write.charge", o.Client, o.Key, tok), true
	case ActionMarkPaid:
		return Say("n.write.markpaid", o.Client, o.Key, tok), true
	case ActionComplete:
		return Say("n.write.complete", o.Client, o.Key, tok), true
	case ActionRecordFailure:
		if t.h.Header.Params[history.ParamFailureRecordToken] == 1 {
			return Say("n.write.record-failure.checked", o.Client, o.Key, tok), true
		}
		return Say("n.write.record-failure", o.Client, o.Key, tok), true
	}
	return Words{}, false
}
