package checker

import (
	"cmp"
	"slices"

	"github.com/locksim/locksim/internal/history"
)

// complete sets the fields every anomaly carries whatever its checker: the
// writes that are the violation (Violating) and the instant it became true
// (At): for a violation made of writes, the last of them; for a duplicate
// run, its second run, the one that should not have happened.
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
	// times" is true once the third run happened, "charged twice" at the
	// second charge, whichever of them was the wrong one.
	if an.At == an.End && len(an.Violating) > 0 {
		last := int64(-1)
		for _, i := range an.Ops {
			if i >= 0 && i < len(h.Ops) && h.Ops[i].F == history.Write && h.Ops[i].Type == history.OK {
				last = max(last, h.Ops[i].Invoke)
			}
		}
		if last >= 0 {
			an.At = last
		}
	}
	// A job ran more than once for one fire time as soon as it ran the
	// second time: every run after the first is the violation (Violating,
	// in invoke order), and the first of those is when it became true.
	// "Ran 3 times" is told beside it, never as the instant's fact (a
	// fresh reader, issue 27: the step sat at the third run).
	if an.Kind == KindDuplicateRun && len(an.Violating) > 0 {
		first := int64(-1)
		for _, i := range an.Violating {
			if i >= 0 && i < len(h.Ops) && (first < 0 || h.Ops[i].Invoke < first) {
				first = h.Ops[i].Invoke
			}
		}
		if first >= 0 {
			an.At = first
		}
	}
	an.AtS = h.Header.ScenarioSeconds(an.At)
}

// violatingWrites picks, among an anomaly's accepted writes, the ones that
// are the violation: every write of the stale client where the kind has
// one (split brain, a stale write accepted, a token regression); the
// charge made on a lost lock of a double effect (else every charge but the
// first); the last write of a lost update; the sales past the stock of an
// oversell; the entries past the permits of an over-admission; and for a
// duplicate run every run but the first, the one that would have been
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
	case KindMutexOverlap, KindNotLinearizable, KindStuckLock, KindUnavailable, KindOrphanedLease, KindForeignUnlock, KindDuplicateWork,
		KindResurrectedLease, KindHiddenLapse:
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
	case KindDoubleEffect:
		// The charge made on a lock already lost (its cause's Write) is the
		// one that should not have happened, first or not; without one,
		// every charge after the first.
		if an.Cause != nil && an.Cause.Write > 0 && slices.Contains(ws, an.Cause.Write) {
			return []int{an.Cause.Write}
		}
		return ws[1:]
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
