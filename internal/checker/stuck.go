package checker

import (
	"fmt"
	"slices"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
)

// quitWords tell, in Explain's English, how a stuck lock's holder stopped
// using it (finding.Quit*).
var quitWords = map[string]string{
	finding.QuitReleaseLost:   "'s release got no answer",
	finding.QuitReleaseFailed: "'s release failed",
	finding.QuitReleaseKept:   "'s release left the key",
	finding.QuitCrashed:       " crashed",
	finding.QuitDone:          " left its critical section",
	finding.QuitLost:          " gave its lease up as lost",
}

// stuckAnomaly is the stuck-lock finding of probe pr, refused while the
// key of g's client held the lock, which it took at since (true ns). The
// window "stuck, nobody using it" starts when that client stopped using
// the lock (stoppedUsing) — its lost release, its crash — not at since,
// which the anomaly keeps as Since; it ends at end. Its ops are g, the
// probe, then the op that ended the use, if any.
func stuckAnomaly(a *account.Account, g, pr history.Op, since, end int64, explain string) Anomaly {
	h := a.H
	start, quit, op := stoppedUsing(a, g, pr, since)
	ops := []int{g.Index, pr.Index}
	if op >= 0 {
		ops = append(ops, op)
	}
	if quit != "" {
		explain += fmt.Sprintf("; it stopped using it at %s, when %s%s", at(h, start), g.Client, quitWords[quit])
	}
	an := newAnomaly(h, KindStuckLock, pr.Key, []string{g.Client}, start, end, explain, ops...)
	an.Since, an.Quit = since, quit
	return an
}

// stoppedUsing is when and how g's client stopped using the lock g
// granted it before probe pr: its first release of the key invoked at or
// after since and before the probe, with no acquire of the key by it in
// between (how it was answered: finding.QuitRelease*); else a fault that
// killed it (crash-client, restart-client) before it acquired again; else
// the end of its belief, when a done or a lost op ended it. It returns the
// instant (true ns), the finding.Quit* word and the history index of the
// op (-1 for a crash); since, "" and -1 when the client never stopped.
func stoppedUsing(a *account.Account, g, pr history.Op, since int64) (int64, string, int) {
	h := a.H
	rel := -1
	for i := range h.Ops {
		op := &h.Ops[i]
		if op.Client != g.Client || op.Key != g.Key || op.Process < 0 || op.Invoke <= g.Invoke || op.Invoke >= pr.Invoke {
			continue
		}
		if op.F == history.Acquire || (op.F == history.Release && op.Invoke >= since) {
			if rel < 0 || op.Invoke < h.Ops[rel].Invoke {
				rel = i
			}
		}
	}
	if rel >= 0 && h.Ops[rel].F == history.Release {
		op := h.Ops[rel]
		switch {
		case finding.Open(op):
			return op.Invoke, finding.QuitReleaseLost, rel
		case op.Type == history.Fail:
			return op.Invoke, finding.QuitReleaseFailed, rel
		default:
			return op.Invoke, finding.QuitReleaseKept, rel
		}
	}
	// before is when the client took the lock again (its next acquire), or
	// the probe.
	before := pr.Invoke
	if rel >= 0 {
		before = h.Ops[rel].Invoke
	}
	for i := range h.Ops {
		op := &h.Ops[i]
		if st := op.Value.Fault; op.F == history.Fault && st != nil && op.Type != history.Fail &&
			(st.Effect == history.EffectCrashClient || st.Effect == history.EffectRestartClient) &&
			slices.Contains(st.Clients, g.Client) && op.Invoke >= since && op.Invoke < before {
			return op.Invoke, finding.QuitCrashed, -1
		}
	}
	for _, hd := range a.Holds {
		if hd.Acquire != g.Index || hd.End < since || hd.End > before {
			continue
		}
		switch {
		case hd.Ended == account.HoldDone && hd.EndOp >= 0:
			return hd.End, finding.QuitDone, hd.EndOp
		case hd.Ended == account.HoldLost && hd.EndOp >= 0:
			return hd.End, finding.QuitLost, hd.EndOp
		}
	}
	return since, "", -1
}
