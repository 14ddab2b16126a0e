package report

import (
	"slices"

	"github.com/locksim/locksim/internal/checker"
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
}

// Judge compares a run with its expectation: the expected verdict and,
// when kinds is not nil, the set of non-informational anomaly kinds it
// must show (every one, and no other). Informational anomalies never
// count, whatever their kind.
func Judge(verdict string, kinds []string, got checker.Verdict, anomalies []checker.Anomaly) Judgement {
	j := Judgement{Met: checker.Verdict(verdict) == got}
	if kinds == nil {
		return j
	}
	found := ViolationKinds(anomalies)
	slices.Sort(found)
	for _, k := range kinds {
		if !slices.Contains(found, k) && !slices.Contains(j.Missing, k) {
			j.Missing = append(j.Missing, k)
		}
	}
	for _, k := range found {
		if !slices.Contains(kinds, k) {
			j.Unexpected = append(j.Unexpected, k)
		}
	}
	slices.Sort(j.Missing)
	j.Met = j.Met && len(j.Missing) == 0 && len(j.Unexpected) == 0
	return j
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
