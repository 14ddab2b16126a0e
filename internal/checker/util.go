package checker

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/locksim/locksim/internal/history"
)

// open reports whether op's outcome is unknown: type info, or never
// completed. Such an op may have taken effect at any time after its invoke.
func open(op history.Op) bool { return op.Type == history.Info || op.Complete < 0 }

// isClientOp reports whether op is a client's lock or resource op on a key
// (not a nemesis fault, not the final liveness probe).
func isClientOp(op history.Op) bool {
	if op.Process == history.NemesisProcess || op.Client == history.NemesisClient || op.Key == "" {
		return false
	}
	switch op.F {
	case history.Acquire, history.Release, history.Extend, history.Read, history.Write:
		return true
	}
	return false
}

// accepted reports whether op is a write the resource accepted.
func accepted(op history.Op) bool {
	return op.F == history.Write && op.Type == history.OK && op.Complete >= 0
}

// fenceRefusal reports whether a refused write was refused because of its
// lease: a stale fencing token (or epoch, lock-theory §7.2) or, under
// check-and-set, an owner token that is no longer the resource's currlock
// (§7.3) — the resource's own reason codes. A refusal for any other
// reason is no evidence about who held the lock.
func fenceRefusal(op history.Op) bool {
	return op.Value.Refusal == history.RefusalStaleFence || op.Value.Refusal == history.RefusalLockChanged
}

// duplicateRefusal reports whether a refused write was refused because its
// idempotency key had already been used.
func duplicateRefusal(op history.Op) bool { return op.Value.Refusal == history.RefusalDuplicateKey }

// secs formats true-time ns as scenario seconds, "30.0s" or "30.012s".
func secs(h history.History, ns int64) string {
	s := h.Header.ScenarioSeconds(ns)
	if math.Abs(s*10-math.Round(s*10)) < 1e-6 {
		return strconv.FormatFloat(s, 'f', 1, 64) + "s"
	}
	return strconv.FormatFloat(s, 'f', 3, 64) + "s"
}

// at formats "t=30.0s".
func at(h history.History, ns int64) string { return "t=" + secs(h, ns) }

// newAnomaly fills the common fields; clients are sorted and deduplicated.
func newAnomaly(h history.History, kind, key string, clients []string, start, end int64, explain string, ops ...int) Anomaly {
	cs := append([]string(nil), clients...)
	sort.Strings(cs)
	cs = compactStrings(cs)
	return Anomaly{
		Kind: kind, Clients: cs, Key: key,
		Start: start, End: end,
		StartS: h.Header.ScenarioSeconds(start), EndS: h.Header.ScenarioSeconds(end),
		Explain: explain, Ops: ops,
	}
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// plural returns "1 thing" / "2 things".
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// actionName names a resource op for sentences: its Action, or its Func.
func actionName(op history.Op) string {
	if op.Value.Action != "" {
		return op.Value.Action
	}
	return string(op.F)
}

// sortIdx stably sorts positions of h.Ops by a time of the op, skipping the
// sort when they are already in order (the usual case: histories are
// recorded in invoke order). The times are read once into a compact slice
// and sorted by (time, place in idx), which is the stable order.
func sortIdx(h history.History, idx []int, t func(*history.Op) int64) {
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

func invokeOf(op *history.Op) int64   { return op.Invoke }
func completeOf(op *history.Op) int64 { return op.Complete }
