package report

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/locksim/locksim/internal/checker"
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
		Note: tr(lang, "history.window", n, MaxPorcupineOps, shown, fmtT(m.sec(t0)), fmtT(m.sec(t1)))}
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
		switch o.F {
		case history.Acquire, history.Release, history.Extend, history.Read, history.Write:
			if o.Process != history.NemesisProcess && o.Key != "" {
				idx = append(idx, i)
			}
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

// writeHistoryHTML writes porcupine's visualisation with the fault
// windows, the derived lock holds and the anomaly windows as annotations
// (true-time ns, the same axis as the operations).
func writeHistoryHTML(path string, in Input, m *model, hist historyInfo) error {
	lang := normLang(in.Lang)
	model, info := in.Porcupine.Model, in.Porcupine.Info // copy: annotations are ours only
	if hist.Window != nil {
		// Rebuild a smaller porcupine input from the window's ops.
		var ops []porcupine.Operation
		model, ops = checker.Porcupine(*hist.Window)
		_, info = porcupine.CheckOperationsVerbose(model, ops, 10*time.Second)
		in.History = *hist.Window
		m = newModel(in.History, nil) // the window's own account: its op indices are its own
	}
	var anns []porcupine.Annotation
	for _, w := range m.faults {
		desc := faultWord(lang, w.Step.Kind) + " " + strings.Join(targetsOf(w.Step), ",")
		anns = append(anns, porcupine.Annotation{
			Tag: "faults", Start: w.Start, End: w.End, Description: desc,
			Details:         fmt.Sprintf("t=%ss → t=%ss (scenario): %s", fmtT(m.sec(w.Start)), fmtT(m.sec(w.End)), m.faultSentence(lang, w, m.faultDur(w))),
			BackgroundColor: "#d0d0d0",
		})
	}
	multiNode := len(m.nodes) > 1
	for _, l := range m.leases {
		end := l.BelievedEnd
		label := l.Client + " " + m.tokenLabel(in.Lang, l)
		if multiNode {
			// Node events: when the key existed on each node.
			for _, k := range l.Lives {
				ne := min(k.End, m.end)
				anns = append(anns, porcupine.Annotation{
					Tag: "node " + k.Node, Start: k.Start, End: ne, Description: label,
					Details:         fmt.Sprintf("%s on %s (owner token %s): key on node t=%ss → t=%ss (scenario), ended: %s", l.Client, k.Node, l.Token, fmtT(m.sec(k.Start)), fmtT(m.sec(ne)), endWord(lang, k.Ended)),
					BackgroundColor: clientCSS(m.laneOf(l.Client)),
				})
			}
		}
		anns = append(anns, porcupine.Annotation{
			Tag: "lock " + l.Key, Start: l.Start, End: l.KeyEnd, Description: label,
			Details:         fmt.Sprintf("%s (owner token %s): lock in Redis t=%ss → t=%ss (scenario)", l.Client, l.Token, fmtT(m.sec(l.Start)), fmtT(m.sec(min(l.KeyEnd, m.end)))),
			BackgroundColor: clientCSS(m.laneOf(l.Client)),
		})
		if l.EndHow != "" && end > l.KeyEnd {
			anns = append(anns, porcupine.Annotation{
				Tag: "lock " + l.Key, Start: l.KeyEnd, End: end, Description: l.Client + " still believes",
				Details:         fmt.Sprintf("%s believes it holds the lock, but the key is gone (t=%ss → t=%ss)", l.Client, fmtT(m.sec(l.KeyEnd)), fmtT(m.sec(end))),
				BackgroundColor: "#ffe0e0",
			})
		}
	}
	for _, a := range allAnomalies(in.Results) {
		bg := "#ff9a9a"
		if a.Informational {
			bg = "#fff0b0"
		}
		anns = append(anns, porcupine.Annotation{
			Tag: "anomalies", Start: a.Start, End: a.End, Description: a.Kind,
			Details: a.Explain, BackgroundColor: bg,
		})
	}
	info.AddAnnotations(anns)
	return porcupine.VisualizePath(model, info, path)
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
