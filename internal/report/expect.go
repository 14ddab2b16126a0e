package report

import (
	"slices"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// Judgement is how a run measured up to its scenario's expectation.
type Judgement struct {
	// Met: the verdict is the expected one and, when kinds are judged,
	// the run showed exactly the expected kinds.
	Met bool
	// Missing are expected kinds the run did not show; Unexpected are
	// non-informational kinds it showed that were not expected. Both
	// sorted, nil when none (and always nil when kinds are not judged).
	Missing, Unexpected []string
	// Unjudged are expected kinds the run could not be held to: ones only
	// node events can show (history.NeedsNodeEvents) in a run that
	// recorded none. Sorted, nil when none.
	Unjudged []string
	// Undecided are expected kinds whose checker came out unknown in this
	// run (UndecidedKinds: porcupine gave up on a loaded machine), so the
	// run can neither show nor rule them out. Sorted, nil when none.
	Undecided []string
}

// UndecidedKinds are the kinds no checker of rs could decide: a
// linearizability check that came out unknown (porcupine's time limit, a
// history it could not read) decides neither way whether the history was
// not-linearizable.
func UndecidedKinds(rs []checker.Result) []string {
	for _, r := range rs {
		if r.Checker == checker.CheckerLinearizable && r.Verdict == checker.Unknown {
			return []string{checker.KindNotLinearizable}
		}
	}
	return nil
}

// Judge compares a run with its expectation: the expected verdict and,
// when kinds is not nil, the set of non-informational anomaly kinds it
// must show (every one, and no other). Informational anomalies never
// count, whatever their kind. observed tells whether the run recorded node
// events (history.Header.Observed not empty); without them an expected
// kind that needs them is unjudged when absent, not missing.
//
// undecided (UndecidedKinds) are kinds this run's checkers could not
// decide: an expected one the run did not show is undecided, not missing.
func Judge(verdict string, kinds []string, got checker.Verdict, anomalies []checker.Anomaly, observed bool, undecided ...string) Judgement {
	j := Judgement{Met: checker.Verdict(verdict) == got}
	if kinds == nil {
		return j
	}
	found := ViolationKinds(anomalies)
	slices.Sort(found)
	for _, k := range kinds {
		switch {
		case slices.Contains(found, k), slices.Contains(j.Missing, k), slices.Contains(j.Unjudged, k), slices.Contains(j.Undecided, k):
		case !observed && history.NeedsNodeEvents(k):
			j.Unjudged = append(j.Unjudged, k)
		case slices.Contains(undecided, k):
			j.Undecided = append(j.Undecided, k)
		default:
			j.Missing = append(j.Missing, k)
		}
	}
	for _, k := range found {
		if !slices.Contains(kinds, k) {
			j.Unexpected = append(j.Unexpected, k)
		}
	}
	slices.Sort(j.Missing)
	slices.Sort(j.Unjudged)
	slices.Sort(j.Undecided)
	j.Met = j.Met && len(j.Missing) == 0 && len(j.Unexpected) == 0
	return j
}

// InformationalKinds lists the kinds of the informational anomalies (a
// finding the checker judged harmless), each once, in the order first
// seen.
func InformationalKinds(anomalies []checker.Anomaly) []string {
	var ks []string
	for _, a := range anomalies {
		if a.Informational && !slices.Contains(ks, a.Kind) {
			ks = append(ks, a.Kind)
		}
	}
	return ks
}

// ViolationKinds lists the kinds of the non-informational anomalies, each
// once, in the order first seen.
func ViolationKinds(anomalies []checker.Anomaly) []string {
	var ks []string
	for _, a := range anomalies {
		if !a.Informational && !slices.Contains(ks, a.Kind) {
			ks = append(ks, a.Kind)
		}
	}
	return ks
}
