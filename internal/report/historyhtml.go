package report

import (
	"sort"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
)

// historyInfo says whether history.html is written and, if not, why.
type historyInfo struct {
	Written bool
	Note    string // user-visible: why not written, or that only a window is shown
	Ops     int    // porcupine operations of the whole run
	// Window, when set, is the sub-history history.html shows instead of
	// the whole run (the run had more than MaxPorcupineOps operations).
	Window *history.History
}

// porcupineOps counts the operations porcupine sees: the client lock and
// resource operations on a key (checker.Porcupine's input).
func porcupineOps(h history.History) int {
	_, ops := checker.Porcupine(h)
	return len(ops)
}

func historyStatus(in Input, m *model) historyInfo {
	lang := normLang(in.Lang)
	if in.Porcupine == nil {
		return historyInfo{Note: tr(lang, "history.none")}
	}
	n := porcupineOps(in.History)
	if n <= MaxPorcupineOps {
		return historyInfo{Written: true, Ops: n}
	}
	w, t0, t1, shown := anomalyWindow(in, MaxPorcupineOps)
	if shown == 0 {
		return historyInfo{Note: tr(lang, "history.toobig", n, MaxPorcupineOps), Ops: n}
	}
	return historyInfo{Written: true, Ops: n, Window: &w,
		Note: tr(lang, "history.window", n, MaxPorcupineOps, shown, instant(m.sec(t0)), instant(m.sec(t1)))}
}

// anomalyWindow cuts the history down to at most limit porcupine
// operations: the densest run of consecutive client operations (by
// invoke) that contains the first anomaly's start (the middle of the run
// when there is none). Fault ops overlapping the window are kept. It
// returns the sub-history, its true-time bounds and its operation count.
func anomalyWindow(in Input, limit int) (history.History, int64, int64, int) {
	h := in.History
	var idx []int // client ops porcupine sees, by invoke
	for i, o := range h.Ops {
		if finding.ClientOp(o) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return h.Ops[idx[a]].Invoke < h.Ops[idx[b]].Invoke })
	if len(idx) == 0 || limit <= 0 {
		return history.History{}, 0, 0, 0
	}
	end := h.End()
	focus := end / 2
	first := int64(-1)
	for _, a := range allAnomalies(in.Results) {
		if !a.Informational && (first < 0 || a.Start < first) {
			first = a.Start
		}
	}
	if first < 0 {
		for _, a := range allAnomalies(in.Results) {
			if first < 0 || a.Start < first {
				first = a.Start
			}
		}
	}
	if first >= 0 {
		focus = first
	}
	fi := sort.Search(len(idx), func(i int) bool { return h.Ops[idx[i]].Invoke >= focus })
	fi = min(fi, len(idx)-1)
	size := min(limit, len(idx))
	// Among the windows of size ops containing fi, the busiest: the one
	// spanning the least time.
	bestLo, bestSpan := -1, int64(1<<62)
	for lo := max(0, fi-size+1); lo <= fi && lo+size <= len(idx); lo++ {
		span := h.Ops[idx[lo+size-1]].Invoke - h.Ops[idx[lo]].Invoke
		if span < bestSpan {
			bestLo, bestSpan = lo, span
		}
	}
	if bestLo < 0 {
		bestLo = max(0, len(idx)-size)
	}
	keep := map[int]bool{}
	t0, t1 := h.Ops[idx[bestLo]].Invoke, int64(0)
	for _, i := range idx[bestLo : bestLo+size] {
		keep[i] = true
		t1 = max(t1, opEnd(h.Ops[i], end))
	}
	out := history.History{Header: h.Header}
	for i, o := range h.Ops {
		isFault := o.F == history.Fault && o.Invoke <= t1 && opEnd(o, end) >= t0
		if keep[i] || isFault {
			out.Ops = append(out.Ops, o)
		}
	}
	return out, t0, t1, size
}

func (m *model) tokenLabel(lang Lang, l lease) string {
	if l.Fence > 0 {
		return tr(lang, "n.token.fence", l.Fence)
	}
	t := l.Token
	if short, ok := m.tokens[t]; ok {
		t = short // shortened only as far as it stays distinct
	}
	if t == "" {
		return "lock"
	}
	return tr(lang, "p.owner", t)
}
