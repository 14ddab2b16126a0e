package checker

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// Effects is the effects checker (design §8, lock-theory §8.1): it judges
// what the protected resource accepted, per workload, from the resource's
// own decisions (writes typed ok = accepted). Writes with an unknown outcome
// (info) are not counted: they may not have happened. Each rule looks only
// at its own actions, so a history of any workload runs them all:
//
//   - double-effect (payment; S01, S19): more than one accepted "charge"
//     of one invoice key. Charges refused by an idempotency key ("duplicate
//     idempotency key …") are refusals, not charges.
//   - lost-update (counter; Jepsen's lock-set idea): an accepted
//     "set-counter" whose Num is ≤ the Num of the previous accepted one on
//     that key, in the order of the resource's decisions (op Complete: the
//     harness serialises them); or, with no such pair, a final value (Num
//     of the last accepted set-counter) below the number of accepted
//     set-counters (the counter starts at 0 and every write adds one).
//     Inventory: an accepted "sell" whose Num (stock written back) is ≥
//     the previous accepted sell's Num (two sales wrote back the same
//     stock; S18). Two writes that overlap in time may have been applied
//     in either order, so between them only an equal value counts (see
//     regressed).
//   - oversell (inventory; S18): more accepted "sell"s on one item key than
//     Header.Params["stock"]; without that parameter, an accepted sell that
//     wrote back a negative stock.
//   - duplicate-run (cron; S22): more than one accepted "run-job" for one
//     job key (job@<fire time>).
//   - split-brain (leader; S20): client A's "lead" write is accepted
//     (invoked) after client B's later grant on that key completed, where
//     A's own latest grant before the write is older than B's (by fencing
//     epoch when both carry one, else by grant Complete), and B too had an
//     accepted "lead" under that grant: two leaders acted.
//   - stale-write-accepted (payment with completion: token; BR-23, bull
//     #1416): an accepted "complete" or "record-failure" of a job record
//     by client A invoked after client B's accepted "complete" of it,
//     where A's grant is older than B's: a superseded run's write
//     overwrote the newer run's record (see staleRecords).
//   - over-admission (semaphore; S21): more than Header.Params["permits"]
//     clients at once between their accepted "enter" (Complete: certainly
//     admitted) and their next "exit" (Invoke; when they never exit, their
//     crash (a crash-client fault) or else the end of the history). Without the parameter the rule cannot judge and is
//     skipped (said in the summary).
//   - duplicate-work (cache-rebuild): accepted "rebuild"s of two clients
//     on one key whose [Invoke, Complete] overlap (more than touching).
//     Always Informational: the lock is an efficiency lock, the waste is
//     not corruption (Kleppmann 2016, "efficiency vs correctness").
func Effects(ctx context.Context, h history.History) Result { return effects(ctx, account.New(h)) }

func effects(ctx context.Context, a *account.Account) Result {
	h := a.H
	ix := newAcceptedIndex(h)
	rules := []func(history.History, *acceptedIndex) effectFinding{
		func(h history.History, ix *acceptedIndex) effectFinding { return doubleCharges(a, ix) },
		lostUpdates, oversells, duplicateRuns, splitBrains, staleRecords, overAdmissions, duplicateWork,
	}
	var anomalies []Anomaly
	var parts []string
	for _, r := range rules {
		if err := ctx.Err(); err != nil {
			return Result{Checker: CheckerEffects, Verdict: Unknown, Summary: "not checked: " + err.Error()}
		}
		f := r(h, ix)
		anomalies = append(anomalies, f.anomalies...)
		if f.summary != "" {
			parts = append(parts, f.summary)
		}
	}
	if len(parts) == 0 {
		return Result{Checker: CheckerEffects, Verdict: Valid, Summary: "no accepted charges or other effects to judge"}
	}
	return Result{Checker: CheckerEffects, Verdict: verdictOf(anomalies), Summary: strings.Join(parts, "; "), Anomalies: anomalies}
}

// effectFinding is one rule's outcome: its anomalies and a summary clause
// ("" when the history had nothing for the rule).
type effectFinding struct {
	anomalies []Anomaly
	summary   string
}

// acceptedIndex holds the positions of accepted client writes per action
// and key, each sorted by Complete, built in one pass over the history.
type acceptedIndex struct {
	by map[string]map[string][]int // action → key → positions
}

func newAcceptedIndex(h history.History) *acceptedIndex {
	ix := &acceptedIndex{by: map[string]map[string][]int{}}
	for i := range h.Ops {
		op := &h.Ops[i]
		if op.F != history.Write || op.Type != history.OK || op.Complete < 0 || !isClientOp(*op) {
			continue
		}
		m := ix.by[op.Value.Action]
		if m == nil {
			m = map[string][]int{}
			ix.by[op.Value.Action] = m
		}
		m[op.Key] = append(m[op.Key], i)
	}
	for _, m := range ix.by {
		for _, v := range m {
			sortIdx(h, v, completeOf)
		}
	}
	return ix
}

// acceptedByKey returns the positions of accepted client writes with action,
// per key (sorted by Complete), and the sorted keys. The lists belong to
// the index: callers must not reorder them.
func (ix *acceptedIndex) acceptedByKey(action string) (map[string][]int, []string) {
	by := ix.by[action]
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return by, keys
}

// repeated reports every key with more than one accepted action (the
// double-effect and duplicate-run rules).
func repeated(h history.History, ix *acceptedIndex, action, kind, what, one, many, must string) effectFinding {
	by, keys := ix.acceptedByKey(action)
	var f effectFinding
	total := 0
	for _, k := range keys {
		cs := by[k]
		total += len(cs)
		if len(cs) < 2 {
			continue
		}
		var who, clients []string
		var ops []int
		for _, i := range cs {
			op := h.Ops[i]
			who = append(who, fmt.Sprintf("%s at %s", op.Client, at(h, op.Complete)))
			clients = append(clients, op.Client)
			ops = append(ops, op.Index)
		}
		explain := fmt.Sprintf("%s %s %d times (%s); %s", k, what, len(cs), strings.Join(who, ", "), must)
		f.anomalies = append(f.anomalies, newAnomaly(h, kind, k, clients,
			h.Ops[cs[0]].Complete, h.Ops[cs[len(cs)-1]].Complete, explain, ops...))
	}
	switch {
	case total == 0:
	case len(f.anomalies) == 0:
		f.summary = fmt.Sprintf("%s on %s, none twice", plural(total, "accepted "+action, "accepted "+action+"s"), plural(len(keys), one, many))
	default:
		f.summary = fmt.Sprintf("%s with more than one accepted %s", plural(len(f.anomalies), one, many), action)
	}
	return f
}

func doubleCharges(a *account.Account, ix *acceptedIndex) effectFinding {
	h := a.H
	f := repeated(h, ix, workload.ActionCharge, KindDoubleEffect, "was charged", "invoice", "invoices", "a payment must happen once")
	if len(f.anomalies) > 0 {
		f.summary = fmt.Sprintf("%s charged more than once", plural(len(f.anomalies), "invoice", "invoices"))
	}
	for i := range f.anomalies {
		lateCharge(a, &f.anomalies[i])
	}
	return f
}

// lateCharge finds, among a double-effect's charges, the earliest one made
// after its writer's lock was gone from the node, and records why it was
// gone (Cause, with Write the late charge) and who acted on the lost lock
// (Stale) and who held it then (Current).
func lateCharge(a *account.Account, an *Anomaly) {
	h := a.H
	for _, oi := range an.Ops {
		w := &h.Ops[oi]
		hold, ok := holdAt(a, w.Client, w.Key, w.Invoke)
		if !ok || hold.Possible {
			continue
		}
		lives := a.GrantedBy(hold.Acquire)
		if len(lives) == 0 {
			continue
		}
		// The lock is lost once fewer than a quorum of its granting nodes
		// (one for a single node) still hold its key.
		need := 1
		if len(lives) > 1 {
			need = len(h.Header.Nodes)/2 + 1
		}
		var ended []account.KeyLife
		for _, l := range lives {
			if l.End <= w.Invoke {
				ended = append(ended, l)
			}
		}
		if len(lives)-len(ended) >= need || len(ended) == 0 {
			continue
		}
		// The node whose loss broke the quorum: the latest to end.
		last := ended[0]
		for _, l := range ended[1:] {
			if l.End > last.End {
				last = l
			}
		}
		c := &Cause{Kind: last.Ended.Kind, Client: w.Client, Nodes: []string{last.Node}, At: last.End, By: last.Ended.By,
			Step: last.Ended.Step, TTL: hold.TTL, Observed: last.Observed, Write: w.Index}
		if c.Kind == account.EndReleased && last.Owner != w.Client && a.Reentered(hold.Acquire) {
			c.Kind = CauseSharerReleased // its owner, sharing the token, released it
		}
		bearing(a, hold, c)
		token := h.Ops[hold.Acquire].Value.Token
		for _, l := range a.Keys() {
			if l.Node == last.Node && l.Key == w.Key && l.Owner == w.Client && l.Grant < 0 && token != "" && l.Value == token &&
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

func duplicateRuns(h history.History, ix *acceptedIndex) effectFinding {
	return repeated(h, ix, workload.ActionRunJob, KindDuplicateRun, "ran", "fire time", "fire times", "a scheduled job must run once per fire time")
}

func lostUpdates(h history.History, ix *acceptedIndex) effectFinding {
	var f effectFinding
	var clauses []string
	// counter: set-counter values must strictly increase.
	by, keys := ix.acceptedByKey(workload.ActionSetCounter)
	writes := 0
	for _, k := range keys {
		ws := withNum(h, by[k])
		writes += len(ws)
		found := false
		for j := 1; j < len(ws); j++ {
			prev, cur := h.Ops[ws[j-1]], h.Ops[ws[j]]
			if !regressed(prev, cur, +1) {
				continue
			}
			found = true
			// It should have written prev+1: every increment from its
			// value up to that one is lost.
			lost := *prev.Value.Num + 1 - *cur.Value.Num
			explain := fmt.Sprintf("the resource accepted %s's write of %s = %d at %s after %s's write of %d at %s; %s lost",
				cur.Client, k, *cur.Value.Num, at(h, cur.Complete), prev.Client, *prev.Value.Num, at(h, prev.Complete), plural(int(lost), "increment was", "increments were"))
			f.anomalies = append(f.anomalies, newAnomaly(h, KindLostUpdate, k, []string{prev.Client, cur.Client},
				prev.Complete, cur.Complete, explain, prev.Index, cur.Index))
		}
		if !found && len(ws) > 0 {
			last := h.Ops[ws[len(ws)-1]]
			if *last.Value.Num < int64(len(ws)) {
				first := h.Ops[ws[0]]
				explain := fmt.Sprintf("%s ended at %d after %d accepted increments; %d were lost",
					k, *last.Value.Num, len(ws), int64(len(ws))-*last.Value.Num)
				f.anomalies = append(f.anomalies, newAnomaly(h, KindLostUpdate, k, []string{first.Client, last.Client},
					first.Complete, last.Complete, explain, first.Index, last.Index))
			}
		}
	}
	if writes > 0 {
		clauses = append(clauses, fmt.Sprintf("%s on %s", plural(writes, "accepted counter write", "accepted counter writes"), plural(len(keys), "counter", "counters")))
	}
	// inventory: the stock written back must strictly decrease.
	by, keys = ix.acceptedByKey(workload.ActionSell)
	for _, k := range keys {
		ws := withNum(h, by[k])
		for j := 1; j < len(ws); j++ {
			prev, cur := h.Ops[ws[j-1]], h.Ops[ws[j]]
			if !regressed(prev, cur, -1) {
				continue
			}
			// It should have written prev−1: its own sale and every one
			// its value undid went unsubtracted.
			lost := *cur.Value.Num - *prev.Value.Num + 1
			explain := fmt.Sprintf("%s's sale of %s wrote back stock %d at %s, after %s's sale had already written back %d at %s; %s not subtracted",
				cur.Client, k, *cur.Value.Num, at(h, cur.Complete), prev.Client, *prev.Value.Num, at(h, prev.Complete), plural(int(lost), "sale was", "sales were"))
			f.anomalies = append(f.anomalies, newAnomaly(h, KindLostUpdate, k, []string{prev.Client, cur.Client},
				prev.Complete, cur.Complete, explain, prev.Index, cur.Index))
		}
	}
	n := 0
	for _, a := range f.anomalies {
		if a.Kind == KindLostUpdate {
			n++
		}
	}
	if n > 0 {
		f.summary = plural(n, "lost update", "lost updates")
	} else if len(clauses) > 0 {
		f.summary = clauses[0] + ", no lost update"
	}
	return f
}

// regressed reports whether cur, accepted after prev (Complete order), lost
// prev's update: the value must move in direction dir (+1 counter, -1
// stock). Two writes of the same value always lose one. When the two
// operations overlap in time, the resource may have applied them in either
// order (atomic sells on Redis finish in the same instant), so only equal
// values count then; when prev completed before cur was invoked, the
// real-time order is the order they were applied in.
func regressed(prev, cur history.Op, dir int64) bool {
	p, c := *prev.Value.Num, *cur.Value.Num
	if p == c {
		return true
	}
	if cur.Invoke <= prev.Complete {
		return false
	}
	return (c-p)*dir < 0
}

// withNum keeps the positions whose op has a Num.
func withNum(h history.History, idx []int) []int {
	out := idx[:0:0]
	for _, i := range idx {
		if h.Ops[i].Value.Num != nil {
			out = append(out, i)
		}
	}
	return out
}

func oversells(h history.History, ix *acceptedIndex) effectFinding {
	var f effectFinding
	by, keys := ix.acceptedByKey(workload.ActionSell)
	stock, haveStock := h.Header.Params[history.ParamStock]
	total := 0
	for _, k := range keys {
		ss := by[k]
		total += len(ss)
		if haveStock {
			if int64(len(ss)) <= stock {
				continue
			}
			extra := ss[stock:]
			var clients []string
			var ops []int
			for _, i := range extra {
				clients = append(clients, h.Ops[i].Client)
				ops = append(ops, h.Ops[i].Index)
			}
			start := h.Ops[ss[0]].Complete
			if stock > 0 {
				start = h.Ops[ss[stock-1]].Complete
			}
			first := h.Ops[extra[0]]
			explain := fmt.Sprintf("the shop sold %d items of %s with only %d in stock; %s's sale at %s was one too many",
				len(ss), k, stock, first.Client, at(h, first.Complete))
			f.anomalies = append(f.anomalies, newAnomaly(h, KindOversell, k, clients, start, h.Ops[extra[len(extra)-1]].Complete, explain, ops...))
			continue
		}
		for _, i := range ss {
			op := h.Ops[i]
			if op.Value.Num != nil && *op.Value.Num < 0 {
				explain := fmt.Sprintf("%s's sale of %s at %s left the stock at %d; stock must never go below 0",
					op.Client, k, at(h, op.Complete), *op.Value.Num)
				f.anomalies = append(f.anomalies, newAnomaly(h, KindOversell, k, []string{op.Client}, op.Complete, op.Complete, explain, op.Index))
				break
			}
		}
	}
	switch {
	case total == 0:
	case len(f.anomalies) > 0:
		f.summary = fmt.Sprintf("%s oversold", plural(len(f.anomalies), "item", "items"))
	case haveStock:
		f.summary = fmt.Sprintf("%s on %s, none beyond the stock of %d", plural(total, "accepted sale", "accepted sales"), plural(len(keys), "item", "items"), stock)
	default:
		f.summary = fmt.Sprintf("%s, stock never below 0 (no stock parameter)", plural(total, "accepted sale", "accepted sales"))
	}
	return f
}

func splitBrains(h history.History, ix *acceptedIndex) effectFinding {
	var f effectFinding
	by, keys := ix.acceptedByKey(workload.ActionLead)
	if len(keys) == 0 {
		return f
	}
	tm := newTerms(h)
	term := tm.term
	total := 0
	for _, k := range keys {
		ws := by[k]
		total += len(ws)
		reported := map[[2]string]bool{}
		for _, wi := range ws {
			w := &h.Ops[wi]
			tw := term(w)
			for _, bi := range ws {
				b := &h.Ops[bi]
				if b.Client == w.Client || reported[[2]string{w.Client, b.Client}] {
					continue
				}
				tb := term(b)
				if tb < 0 {
					continue
				}
				g := &h.Ops[tb]
				elected := grantedAt(*g)
				if elected >= w.Invoke {
					continue // b's election came after w: w is not from an older term
				}
				// b's term is the later one: by the epochs the writes carry
				// when both do, else by the grants' order.
				switch {
				case w.Value.Fence > 0 && b.Value.Fence > 0:
					if b.Value.Fence <= w.Value.Fence {
						continue
					}
				case tw < 0:
					continue // no grant of its own: not this rule's finding
				default:
					if grantedAt(h.Ops[tw]) >= elected {
						continue
					}
				}
				reported[[2]string{w.Client, b.Client}] = true
				explain := fmt.Sprintf("%s was elected leader of %s at %s, yet the resource accepted %s's lead write at %s from an older term; two leaders acted",
					b.Client, k, at(h, elected), w.Client, at(h, w.Complete))
				if w.Value.Fence > 0 && b.Value.Fence > 0 {
					explain = fmt.Sprintf("%s was elected leader of %s at %s (its writes carry epoch %d), yet the resource accepted %s's lead write with epoch %d at %s; two leaders acted",
						b.Client, k, at(h, elected), b.Value.Fence, w.Client, w.Value.Fence, at(h, w.Complete))
				}
				ops := []int{g.Index, b.Index, w.Index}
				if tw >= 0 {
					ops = append([]int{h.Ops[tw].Index}, ops...)
				}
				an := newAnomaly(h, KindSplitBrain, k, []string{w.Client, b.Client}, elected, w.Complete, explain, ops...)
				an.Stale, an.Current = w.Client, b.Client
				f.anomalies = append(f.anomalies, an)
			}
		}
	}
	if len(f.anomalies) > 0 {
		f.summary = plural(len(f.anomalies), "split brain", "split brains")
	} else {
		f.summary = fmt.Sprintf("%s, one leader at a time", plural(total, "accepted lead write", "accepted lead writes"))
	}
	return f
}

// terms are each client's grants of each key, by the instant each took
// effect, to find the grant a write was made under.
type terms struct {
	h      history.History
	grants map[[2]string][]grant
}

// grant is one ok (or perhaps ok) acquire: at is grantedAt, op its
// position in the history.
type grant struct {
	at int64
	op int
}

func newTerms(h history.History) terms {
	t := terms{h: h, grants: map[[2]string][]grant{}}
	for i := range h.Ops {
		op := &h.Ops[i]
		if op.F != history.Acquire || !isClientOp(*op) || op.Type == history.Fail {
			continue
		}
		k := [2]string{op.Client, op.Key}
		t.grants[k] = append(t.grants[k], grant{grantedAt(*op), i})
	}
	for _, v := range t.grants {
		slices.SortFunc(v, func(a, b grant) int { return cmp.Compare(a.at, b.at) })
	}
	return t
}

// term is the position of the writer's latest grant of the write's key
// before the write was invoked; -1 when it had none.
func (t terms) term(w *history.Op) int {
	gs := t.grants[[2]string{w.Client, w.Key}]
	n := sort.Search(len(gs), func(j int) bool { return gs[j].at > w.Invoke })
	if n == 0 {
		return -1
	}
	return gs[n-1].op
}

// staleRecords is the two-write job's rule (workload completion: token;
// BR-23, bull #1416): an accepted write of a job record — a completion or
// a failure record — by client A invoked after client B's accepted
// completion of that record, B's grant being later than A's: A's run was
// superseded, and its write overwrote the record of B's finished run. It
// is a stale-write-accepted with A stale and B current.
func staleRecords(h history.History, ix *acceptedIndex) effectFinding {
	var f effectFinding
	done, keys := ix.acceptedByKey(workload.ActionComplete)
	failed, fkeys := ix.acceptedByKey(workload.ActionRecordFailure)
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
		sortIdx(h, writes, completeOf)
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
				if tb < 0 || grantedAt(h.Ops[tb]) <= grantedAt(h.Ops[tw]) {
					continue // b's run is not the newer one
				}
				reported[[2]string{w.Client, b.Client}] = true
				explain := fmt.Sprintf("the resource accepted %s's %s on %s at %s, under a grant older than %s's, after %s's completion of it at %s; a superseded run's write overwrote the record of the newer run",
					w.Client, actionName(*w), k, at(h, w.Complete), b.Client, b.Client, at(h, b.Complete))
				an := newAnomaly(h, KindStaleWriteAccepted, k, []string{w.Client, b.Client}, b.Complete, w.Complete, explain,
					h.Ops[tw].Index, h.Ops[tb].Index, b.Index, w.Index)
				an.Stale, an.Current = w.Client, b.Client
				an.Violating = []int{w.Index}
				f.anomalies = append(f.anomalies, an)
			}
		}
	}
	if len(f.anomalies) > 0 {
		f.summary = plural(len(f.anomalies), "job record overwritten by a superseded run", "job records overwritten by superseded runs")
	} else {
		f.summary = fmt.Sprintf("%s, none by a superseded run", plural(total, "accepted job-record write", "accepted job-record writes"))
	}
	return f
}

func overAdmissions(h history.History, _ *acceptedIndex) effectFinding {
	var f effectFinding
	type ev struct {
		t      int64
		delta  int
		client string
		op     int
	}
	perKey := map[string][]ev{}
	var keys []string
	eoh := h.End()
	inside := map[[2]string]int{} // client,key → position of its open enter
	idx := make([]int, 0)
	for i := range h.Ops {
		op := &h.Ops[i]
		if isClientOp(*op) && op.F == history.Write && (op.Value.Action == workload.ActionEnter || op.Value.Action == workload.ActionExit) {
			idx = append(idx, i)
		}
	}
	sortIdx(h, idx, invokeOf)
	enters := 0
	add := func(k string, e ev) {
		if _, ok := perKey[k]; !ok {
			keys = append(keys, k)
		}
		perKey[k] = append(perKey[k], e)
	}
	for _, i := range idx {
		op := h.Ops[i]
		ck := [2]string{op.Client, op.Key}
		switch op.Value.Action {
		case workload.ActionEnter:
			if !accepted(op) {
				continue
			}
			if _, ok := inside[ck]; ok {
				continue // already inside: a second enter adds no permit
			}
			enters++
			inside[ck] = i
			add(op.Key, ev{op.Complete, +1, op.Client, op.Index})
		case workload.ActionExit:
			if _, ok := inside[ck]; !ok {
				continue
			}
			delete(inside, ck)
			add(op.Key, ev{op.Invoke, -1, op.Client, op.Index})
		}
	}
	// A client that never exits is inside until the end of the history, or
	// until a crash killed it (as a believed hold ends at a crash).
	crashes := account.ClientCrashes(h)
	for ck, i := range inside {
		end := eoh
		for _, t := range crashes[ck[0]] {
			if t >= h.Ops[i].Complete {
				end = min(end, t)
				break
			}
		}
		add(ck[1], ev{end, -1, ck[0], -1})
	}
	if enters == 0 {
		return f
	}
	permits, ok := h.Header.Params[history.ParamPermits]
	if !ok {
		f.summary = fmt.Sprintf("%s, not judged: no permits parameter", plural(enters, "accepted enter", "accepted enters"))
		return f
	}
	sort.Strings(keys)
	for _, k := range keys {
		es := perKey[k]
		// exits before enters at one instant: touching is not overlap
		sort.SliceStable(es, func(a, b int) bool {
			if es[a].t != es[b].t {
				return es[a].t < es[b].t
			}
			return es[a].delta < es[b].delta
		})
		in := map[string]int{}
		var start int64
		var peak int64
		var peakClients []string
		var ops []int
		over := false
		for _, e := range es {
			if e.delta > 0 {
				in[e.client] = e.op
			} else {
				delete(in, e.client)
			}
			n := int64(len(in))
			switch {
			case n > permits && !over:
				over, start, peak = true, e.t, 0
				fallthrough
			case n > permits:
				if n > peak {
					peak = n
					peakClients, ops = nil, nil // fresh: earlier anomalies keep theirs
					for c, o := range in {
						peakClients = append(peakClients, c)
						ops = append(ops, o)
					}
					sort.Strings(peakClients)
					sort.Ints(ops)
				}
			case over:
				over = false
				explain := fmt.Sprintf("%d clients (%s) were inside %s at once from %s to %s, with only %d permits",
					peak, strings.Join(peakClients, ", "), k, at(h, start), at(h, e.t), permits)
				f.anomalies = append(f.anomalies, newAnomaly(h, KindOverAdmission, k, peakClients, start, e.t, explain, ops...))
			}
		}
	}
	if len(f.anomalies) > 0 {
		f.summary = plural(len(f.anomalies), "over-admission", "over-admissions")
	} else {
		f.summary = fmt.Sprintf("%s, never more than %d inside at once", plural(enters, "accepted enter", "accepted enters"), permits)
	}
	return f
}

func duplicateWork(h history.History, ix *acceptedIndex) effectFinding {
	var f effectFinding
	by, keys := ix.acceptedByKey(workload.ActionRebuild)
	total := 0
	for _, k := range keys {
		rs := slices.Clone(by[k])
		total += len(rs)
		sortIdx(h, rs, invokeOf)
		for a := 0; a < len(rs); a++ {
			ra := h.Ops[rs[a]]
			for b := a + 1; b < len(rs); b++ {
				rb := h.Ops[rs[b]]
				if rb.Invoke >= ra.Complete {
					break
				}
				if rb.Client == ra.Client {
					continue
				}
				end := min(ra.Complete, rb.Complete)
				explain := fmt.Sprintf("%s and %s both rebuilt %s from %s to %s: wasted work, not corruption (an efficiency lock)",
					ra.Client, rb.Client, k, at(h, rb.Invoke), at(h, end))
				an := newAnomaly(h, KindDuplicateWork, k, []string{ra.Client, rb.Client}, rb.Invoke, end, explain, ra.Index, rb.Index)
				an.Informational = true
				f.anomalies = append(f.anomalies, an)
			}
		}
	}
	switch {
	case total == 0:
	case len(f.anomalies) > 0:
		f.summary = fmt.Sprintf("%s of %s overlapped (informational: duplicate work)", plural(len(f.anomalies), "pair", "pairs"), plural(total, "rebuild", "rebuilds"))
	default:
		f.summary = fmt.Sprintf("%s, none at the same time", plural(total, "rebuild", "rebuilds"))
	}
	return f
}
