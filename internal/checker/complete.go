package checker

import (
	"cmp"
	"slices"

	"github.com/locksim/locksim/internal/history"
)

// complete sets the fields every anomaly carries whatever its checker: the
// writes that are the violation (Violating) and the instant it became true
// (At): for a violation made of writes, the last of them.
func complete(h history.History, an *Anomaly) {
	switch an.Kind {
	case KindMutexOverlap, KindOverAdmission, KindDuplicateWork:
		an.At = an.Start
	default:
		an.At = an.End
	}
	if an.Violating == nil {
		an.Violating = violatingWrites(h, *an)
	}
	// A violation made of writes is complete at the last of them: "ran 3
	// times" is true once the third run happened, not before.
	if n := len(an.Violating); n > 0 && an.At == an.End {
		last := h.Ops[an.Violating[0]].Invoke
		for _, i := range an.Violating[1:] {
			last = max(last, h.Ops[i].Invoke)
		}
		an.At = last
	}
	an.AtS = h.Header.ScenarioSeconds(an.At)
}

// violatingWrites picks, among an anomaly's accepted writes, the ones that
// are the violation: every write of the stale client where the kind has
// one (split brain, a stale write accepted, a token regression); the last
// write of a lost update; the sales past the stock of an oversell; the
// entries past the permits of an over-admission; and for a double effect
// or a duplicate run every one but the first, the one that would have been
// right alone.
func violatingWrites(h history.History, an Anomaly) []int {
	var ws []int
	for _, i := range an.Ops {
		if i >= 0 && i < len(h.Ops) && h.Ops[i].F == history.Write && h.Ops[i].Type == history.OK {
			ws = append(ws, i)
		}
	}
	slices.SortStableFunc(ws, func(x, y int) int { return cmp.Compare(h.Ops[x].Invoke, h.Ops[y].Invoke) })
	if len(ws) == 0 {
		return nil
	}
	switch an.Kind {
	case KindMutexOverlap, KindNotLinearizable, KindStuckLock, KindUnavailable, KindOrphanedLease, KindForeignUnlock, KindDuplicateWork:
		return nil
	case KindSplitBrain, KindStaleWriteAccepted, KindTokenRegression:
		if an.Stale != "" {
			var out []int
			for _, i := range ws {
				if h.Ops[i].Client == an.Stale {
					out = append(out, i)
				}
			}
			return out
		}
		return ws[len(ws)-1:]
	case KindLostUpdate:
		return ws[len(ws)-1:]
	case KindOversell:
		if stock, ok := h.Header.Params[history.ParamStock]; ok && int(stock) < len(ws) {
			return ws[max(int(stock), 0):]
		}
		return ws[len(ws)-1:]
	case KindOverAdmission:
		if permits, ok := h.Header.Params[history.ParamPermits]; ok && int(permits) < len(ws) {
			return ws[max(int(permits), 0):]
		}
		return ws[len(ws)-1:]
	}
	return ws[1:]
}
