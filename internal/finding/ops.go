package finding

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// Open reports whether op's outcome is unknown: type info, or never
// completed. Such an op may have taken effect at any time after its invoke.
func Open(op history.Op) bool { return op.Type == history.Info || op.Complete < 0 }

// ClientOp reports whether op is a client's lock or resource op on a key
// (not a nemesis fault, not the final liveness probe, not a node event).
// It is told by what the op did, never by who recorded it: a client's
// operation under a reserved name or process id is still one (Decode
// refuses such a history; one built in memory is judged whole).
func ClientOp(op history.Op) bool {
	if op.Key == "" {
		return false
	}
	switch op.F {
	case history.Acquire, history.Release, history.Extend, history.Read, history.Write:
		return true
	}
	return false
}

// Accepted reports whether op is a write the resource accepted.
func Accepted(op history.Op) bool {
	return op.F == history.Write && op.Type == history.OK && op.Complete >= 0
}

// Secs formats true-time ns as scenario seconds, "30.0s" or "30.012s".
func Secs(h history.History, ns int64) string {
	s := h.Header.ScenarioSeconds(ns)
	if math.Abs(s*10-math.Round(s*10)) < 1e-6 {
		return strconv.FormatFloat(s, 'f', 1, 64) + "s"
	}
	return strconv.FormatFloat(s, 'f', 3, 64) + "s"
}

// At formats "t=30.0s".
func At(h history.History, ns int64) string { return "t=" + Secs(h, ns) }

// New is an anomaly with the common fields filled: times in true ns (and
// in scenario seconds), clients sorted and deduplicated, Explain one
// English sentence, ops the history indices it is about.
func New(h history.History, kind, key string, clients []string, start, end int64, explain string, ops ...int) Anomaly {
	cs := append([]string(nil), clients...)
	sort.Strings(cs)
	cs = slices.Compact(cs)
	return Anomaly{
		Kind: kind, Clients: cs, Key: key,
		Start: start, End: end,
		StartS: h.Header.ScenarioSeconds(start), EndS: h.Header.ScenarioSeconds(end),
		Explain: explain, Ops: ops,
	}
}

// Plural returns "1 thing" / "2 things".
func Plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// ActionName names a resource op for sentences: its Action, or its Func.
func ActionName(op history.Op) string {
	if op.Value.Action != "" {
		return op.Value.Action
	}
	return string(op.F)
}

// SortIdx stably sorts positions of h.Ops by a time of the op, skipping the
// sort when they are already in order (the usual case: histories are
// recorded in invoke order). The times are read once into a compact slice
// and sorted by (time, place in idx), which is the stable order.
func SortIdx(h history.History, idx []int, t func(*history.Op) int64) {
	sorted := true
	for j := 1; j < len(idx); j++ {
		if t(&h.Ops[idx[j]]) < t(&h.Ops[idx[j-1]]) {
			sorted = false
			break
		}
	}
	if sorted {
		return
	}
	type keyed struct {
		t   int64
		seq int
		i   int
	}
	ks := make([]keyed, len(idx))
	for j, i := range idx {
		ks[j] = keyed{t(&h.Ops[i]), j, i}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		switch {
		case a.t < b.t:
			return -1
		case a.t > b.t:
			return 1
		}
		return a.seq - b.seq
	})
	for j := range ks {
		idx[j] = ks[j].i
	}
}

// InvokeOf and CompleteOf are the times SortIdx sorts by.
func InvokeOf(op *history.Op) int64   { return op.Invoke }
func CompleteOf(op *history.Op) int64 { return op.Complete }

// GrantedAt is when an acquire took effect: an ok acquire at its return,
// one of unknown outcome at its invoke (Jepsen: it may have taken effect
// at any time after it).
func GrantedAt(op history.Op) int64 {
	if Open(op) {
		return op.Invoke
	}
	return op.Complete
}

// HoldAt is client's believed hold of key around instant t, if any.
func HoldAt(a *account.Account, client, key string, t int64) (account.Hold, bool) {
	for _, hd := range a.Holds {
		if hd.Client == client && hd.Key == key && hd.Start <= t && t <= hd.End {
			return hd, true
		}
	}
	return account.Hold{}, false
}

// Bearing adds to c the faults that bore on the stale holder when its key
// ended (c.At): a pause then, a pause before that used up part of the
// lease, another fault on the client or its links.
func Bearing(a *account.Account, stale account.Hold, c *Cause) {
	// The lock stood from its first key's SET, before its acquire
	// returned: a pause inside the acquire, after the SETs (a Redlock
	// client frozen between its quorum and its fencing token), bore on it.
	from := stale.Start
	if stale.Acquire >= 0 && stale.Acquire < len(a.H.Ops) {
		for _, l := range a.GrantedBy(stale.Acquire) {
			// Not before the acquire began (a key life it re-entered).
			from = min(from, max(l.Start, a.H.Ops[stale.Acquire].Invoke))
		}
	}
	for _, f := range a.Faults {
		st := f.Step
		if !st.Touches(stale.Client) || f.Start > c.At || f.End < from {
			continue
		}
		switch {
		case st.Effect == history.EffectFreezeClient && f.End >= c.At:
			c.Paused = true
		case st.Effect == history.EffectFreezeClient:
			c.PauseUsed = c.PauseUsed || c.Kind == account.EndExpired
		case c.During == 0 && f.End >= c.At:
			c.During = st.ID
		}
	}
}
