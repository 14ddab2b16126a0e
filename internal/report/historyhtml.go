package report

import (
	"fmt"
	"strings"

	"github.com/anishathalye/porcupine"

	"github.com/locksim/locksim/internal/history"
)

// historyInfo says whether history.html is written and, if not, why.
type historyInfo struct {
	Written bool
	Note    string // user-visible, when not written
	Ops     int    // porcupine operations (resource reads and writes)
}

// porcupineOps counts the operations porcupine sees: the resource's reads
// and writes (the linearizable checker's input, design §8).
func porcupineOps(h history.History) int {
	n := 0
	for _, o := range h.Ops {
		if o.F == history.Read || o.F == history.Write {
			n++
		}
	}
	return n
}

func historyStatus(in Input) historyInfo {
	n := porcupineOps(in.History)
	switch {
	case in.Porcupine == nil:
		return historyInfo{Note: tr(in.Lang, "history.none"), Ops: n}
	case n > MaxPorcupineOps:
		return historyInfo{Note: tr(in.Lang, "history.toobig", n, MaxPorcupineOps), Ops: n}
	}
	return historyInfo{Written: true, Ops: n}
}

// writeHistoryHTML writes porcupine's visualisation with the fault
// windows, the derived lock holds and the anomaly windows as annotations
// (true-time ns, the same axis as the operations).
func writeHistoryHTML(path string, in Input) error {
	m := newModel(in.History)
	info := in.Porcupine.Info // copy: annotations are ours only
	var anns []porcupine.Annotation
	for _, w := range m.faults {
		desc := w.Fault + " " + strings.Join(w.Targets, ",")
		anns = append(anns, porcupine.Annotation{
			Tag: "faults", Start: w.Start, End: w.End, Description: desc,
			Details:         fmt.Sprintf("%s t=%ss → t=%ss (scenario) %s %s", desc, fmtT(m.sec(w.Start)), fmtT(m.sec(w.End)), w.Point, w.Detail),
			BackgroundColor: "#d0d0d0",
		})
	}
	for _, l := range m.leases {
		end := l.BelievedEnd
		label := l.Client + " " + tokenLabel(l)
		anns = append(anns, porcupine.Annotation{
			Tag: "lock " + l.Key, Start: l.Start, End: l.KeyEnd, Description: label,
			Details:         fmt.Sprintf("%s: key in Redis t=%ss → t=%ss (scenario)", label, fmtT(m.sec(l.Start)), fmtT(m.sec(l.KeyEnd))),
			BackgroundColor: clientCSS(m.laneOf(l.Client)),
		})
		if end > l.KeyEnd {
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
	return porcupine.VisualizePath(in.Porcupine.Model, info, path)
}

func tokenLabel(l lease) string {
	if l.Fence > 0 {
		return fmt.Sprintf("token %d", l.Fence)
	}
	t := l.Token
	if len(t) > 6 {
		t = t[:6]
	}
	if t == "" {
		return "lock"
	}
	return "owner " + t
}
