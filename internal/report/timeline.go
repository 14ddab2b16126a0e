package report

import (
	"fmt"
	"sort"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
	"github.com/locksim/locksim/internal/workload"
)

// band is a violation window on the timeline: overlapping anomalies are
// merged into one band with one label listing their kinds.
type band struct {
	s, e  float64 // scenario s
	kinds []string
}

// violationWindow is the one window a violation is told over, scenario
// s: from when it held (finding.Anomaly.HeldFromS: a kind made of events,
// such as a second charge, from the event that made it one) to its end.
// The timeline's band, its tip and the anomalies table all give it (issue
// 27, a fresh reader: the table said 20.2–25.4 s, first charge to second,
// over a band at the second charge only).
func violationWindow(a checker.Anomaly) (s, e float64) { return a.HeldFromS(), a.EndS }

// windowText is a violation's window as the anomalies table gives it:
// "20.2 – 25.4", or one instant when both ends round alike.
func windowText(lang Lang, a checker.Anomaly) string {
	s, e := violationWindow(a)
	if chart.Tenths(s) == chart.Tenths(e) {
		return instantIn(lang, s)
	}
	return instantIn(lang, s) + " – " + instantIn(lang, e)
}

// mergeBands merges the non-informational anomalies' windows that overlap
// or touch (come within minW of each other: one title for windows a
// reader sees as one) into bands, ordered by start. A band ends where its
// last window ends: an instant is not widened (reader 15, reader 16 F8: a
// band drawn to 71.46 s for a window that ended at 70.4 s); the renderers
// keep every band at least 2 px wide.
func mergeBands(as []checker.Anomaly, minW float64) []band {
	var bs []band
	for _, a := range as {
		if a.Informational {
			continue
		}
		s, e := violationWindow(a) // from when it became a violation
		bs = append(bs, band{s, max(e, s), []string{anomalyLabel(a)}})
	}
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].s < bs[j].s })
	var out []band
	for _, b := range bs {
		if n := len(out); n > 0 && b.s <= max(out[n-1].e, out[n-1].s+minW)+minW {
			last := &out[n-1]
			last.e = max(last.e, b.e)
			for _, k := range b.kinds {
				if !containsStr(last.kinds, k) {
					last.kinds = append(last.kinds, k)
				}
			}
			continue
		}
		out = append(out, b)
	}
	return out
}

// faultLegendWord names a fault step's kind in the legend.
func faultLegendWord(lang Lang, st history.FaultStep) string {
	if st.Effect == history.EffectFreezeClient {
		return tr(lang, causeKey("p.pause", st))
	}
	return faultWord(lang, st)
}

// endWord labels where a key ended: lost in a crash, deleted by a
// janitor, or expired (its TTL, perhaps shortened by a clock jump).
func endWord(lang Lang, e account.End) string {
	if key, ok := endWords[e.Kind]; ok {
		return tr(lang, key)
	}
	return tr(lang, "p.expired")
}

// endWords are the message keys of endWord by the account's end kind.
var endWords = map[string]string{
	account.EndCrashed:  "p.lost.crash",
	account.EndJanitor:  "p.deleted",
	account.EndDeleted:  "p.removed",
	account.EndRestored: "p.restored",
	account.EndReleased: "p.released",
	// A SET of another value replaced it (a ShedLock release's own
	// rewrite, a plain SET of another client): not an expiry.
	account.EndOverwritten: "p.overwritten",
	account.EndPurged:      "p.purged",
	account.EndClock:       "p.clock",
	account.EndFailover:    "p.failover",
	account.EndHeld:        "p.held",
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// fenceOf is the fencing token a write was made under: its own, else the
// token of the lease its client held then; 0 when none.
func (m *model) fenceOf(o history.Op) int64 {
	if o.Value.Fence > 0 {
		return o.Value.Fence
	}
	if l, ok := m.leaseAt(o.Client, o.Key, o.Invoke); ok {
		return l.Fence
	}
	return 0
}

// effectAction reports whether a write action is a workload's effect (the
// thing the lock protects, workload.Action.Effect), drawn as a big marker:
// a charge, a sale, a counter write, a job run, a leader action, a
// semaphore entry, a rebuild. Other writes (claim, mark-paid, exit) are
// small squares.
func effectAction(action string) bool {
	a, ok := workload.ActionOf(action)
	return action == "" || (ok && a.Effect)
}

// actWord labels an accepted write's marker with its own action, in its
// workload's words: "charged", "sold", "set 3", "wrote failedReason"… An
// action its workload gives no timeline word is named by its legend word
// (never another action's: a failure record labelled "charged" told a
// double charge that the gateway had refused, teacher finding 28); a write
// that records no action (an old payment history) was a charge.
func actWord(lang Lang, o history.Op) string {
	if _, ok := messages["en"]["p.act."+o.Value.Action]; !ok {
		if o.Value.Action == "" {
			return tr(lang, "p.charged")
		}
		return actionLegendWord(lang, o.Value.Action)
	}
	w := tr(lang, "p.act."+o.Value.Action)
	if a, _ := workload.ActionOf(o.Value.Action); o.Value.Num != nil && a.Num {
		w += fmt.Sprintf(" %d", *o.Value.Num)
	}
	return w
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}
