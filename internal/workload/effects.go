package workload

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
)

// Rule is one effects rule of a workload (design §8, lock-theory §8.1): it
// judges what the protected resource accepted, from the resource's own
// decisions (writes typed ok = accepted), through the run's account.
// Writes with an unknown outcome (info) are not counted: they may not have
// happened. A rule looks only at its own actions, so it finds nothing in
// another workload's history.
type Rule func(a *account.Account, ix *Index) Finding

// Finding is one rule's outcome: its anomalies and a summary clause (""
// when the history had nothing for the rule).
type Finding struct {
	Anomalies []finding.Anomaly
	Summary   string
	// Unknown: the rule could not judge (a parameter it needs is
	// missing); the effects checker is then unknown, never valid.
	Unknown bool
}

// summed is f with its Summary: how many anomalies it holds, the noun in
// its singular (one) or plural (many) form, or clean when it holds none.
func summed(f Finding, one, many, clean string) Finding {
	if len(f.Anomalies) > 0 {
		f.Summary = finding.Plural(len(f.Anomalies), one, many)
	} else {
		f.Summary = clean
	}
	return f
}

// Index holds the positions of accepted client writes per action and key,
// each sorted by Complete, built in one pass over the history.
type Index struct {
	by map[string]map[string][]int // action → key → positions
}

// NewIndex indexes h's accepted client writes.
func NewIndex(h history.History) *Index {
	ix := &Index{by: map[string]map[string][]int{}}
	for i := range h.Ops {
		op := &h.Ops[i]
		if op.F != history.Write || op.Type != history.OK || op.Complete < 0 || !finding.ClientOp(*op) {
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
			finding.SortIdx(h, v, finding.CompleteOf)
		}
	}
	return ix
}

// ByKey returns the positions of accepted client writes with action, per
// key (sorted by Complete), and the sorted keys. The lists belong to the
// index: callers must not reorder them.
func (ix *Index) ByKey(action string) (map[string][]int, []string) {
	by := ix.by[action]
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return by, keys
}

// repeated reports every key with more than one accepted action (a double
// charge, a duplicate run).
func repeated(h history.History, ix *Index, action, kind, what, one, many, must string) Finding {
	by, keys := ix.ByKey(action)
	var f Finding
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
			// When each began (its invoke), as the report's story and
			// explanation tell it: one instant per run, the same everywhere.
			who = append(who, fmt.Sprintf("%s at %s", op.Client, finding.At(h, op.Invoke)))
			clients = append(clients, op.Client)
			ops = append(ops, op.Index)
		}
		explain := fmt.Sprintf("%s %s %d times (each when it began: %s); %s", k, what, len(cs), strings.Join(who, ", "), must)
		f.Anomalies = append(f.Anomalies, finding.New(h, kind, k, clients,
			h.Ops[cs[0]].Complete, h.Ops[cs[len(cs)-1]].Complete, explain, ops...))
	}
	switch {
	case total == 0:
	case len(f.Anomalies) == 0:
		f.Summary = fmt.Sprintf("%s on %s, none twice", finding.Plural(total, "accepted "+action, "accepted "+action+"s"), finding.Plural(len(keys), one, many))
	default:
		f.Summary = fmt.Sprintf("%s with more than one accepted %s", finding.Plural(len(f.Anomalies), one, many), action)
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

// regressions are the lost updates among accepted writes ws of key
// (positions in Complete order, each with a Num): every two in a row whose
// values did not move in direction dir (regressed), told by explain with
// the writes the later one wiped out (Anomaly.Lost).
func regressions(h history.History, key string, ws []int, dir int64, explain func(prev, cur history.Op, lost []history.Op) string) []finding.Anomaly {
	var out []finding.Anomaly
	gone := map[int]bool{} // writes an earlier one had already wiped out
	for j := 1; j < len(ws); j++ {
		prev, cur := h.Ops[ws[j-1]], h.Ops[ws[j]]
		if regressed(prev, cur, dir) {
			lost := wipedOut(h, ws[:j], gone, *cur.Value.Num, dir)
			for _, o := range lost {
				gone[o.Index] = true
			}
			an := finding.New(h, history.AnomalyLostUpdate, key, []string{prev.Client, cur.Client},
				prev.Complete, cur.Complete, explain(prev, cur, lost), prev.Index, cur.Index)
			for _, o := range lost {
				an.Lost = append(an.Lost, o.Index)
			}
			out = append(out, an)
		}
	}
	return out
}

// wipedOut is the accepted writes before a write of value v (ws, in
// Complete order) whose updates it undid: going back from the last, every
// write whose value is already v or past it in direction dir (a stock
// written down to v or below, a counter up to v or above); the first
// one short of v was kept. A write an earlier one had already wiped out
// (gone, by history index) was no longer in the value: it is passed
// over, not counted twice. In invoke order.
func wipedOut(h history.History, ws []int, gone map[int]bool, v, dir int64) []history.Op {
	var out []history.Op
	for i := len(ws) - 1; i >= 0; i-- {
		o := h.Ops[ws[i]]
		if gone[o.Index] {
			continue
		}
		if (*o.Value.Num-v)*dir < 0 {
			break
		}
		out = append(out, o)
	}
	slices.Reverse(out)
	return out
}

// lostList names lost writes "w2's at t=12.3s, w3's at t=13.8s", each by
// when it began.
func lostList(h history.History, lost []history.Op) string {
	var parts []string
	for _, o := range lost {
		parts = append(parts, fmt.Sprintf("%s's at %s", o.Client, finding.At(h, o.Invoke)))
	}
	return strings.Join(parts, ", ")
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

// terms are each client's grants of each key, by the instant each took
// effect, to find the grant a write was made under.
type terms struct {
	h      history.History
	grants map[[2]string][]grant
}

// grant is one ok (or perhaps ok) acquire: at is finding.GrantedAt, op its
// position in the history.
type grant struct {
	at int64
	op int
}

func newTerms(h history.History) terms {
	t := terms{h: h, grants: map[[2]string][]grant{}}
	for i := range h.Ops {
		op := &h.Ops[i]
		if op.F != history.Acquire || !finding.ClientOp(*op) || op.Type == history.Fail {
			continue
		}
		k := [2]string{op.Client, op.Key}
		t.grants[k] = append(t.grants[k], grant{finding.GrantedAt(*op), i})
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
