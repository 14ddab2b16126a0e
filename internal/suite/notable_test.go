package suite

import (
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
)

func TestNotableRunsOfASweepGetCharts(t *testing.T) {
	sweep := scenario.Scenario{File: "sweep.yaml", Expect: scenario.Expectation{Verdict: "valid"}}
	kinds := scenario.Scenario{File: "kinds.yaml", Expect: scenario.Expectation{Verdict: "invalid", Kinds: []string{checker.KindMutexOverlap}}}
	single := scenario.Scenario{File: "single.yaml", Expect: scenario.Expectation{Verdict: "valid"}}
	noExpect := scenario.Scenario{File: "free.yaml"}
	var jobs []Job
	for seed := int64(10); seed < 14; seed++ {
		jobs = append(jobs, Job{Scenario: sweep, Seed: seed}, Job{Scenario: noExpect, Seed: seed}, Job{Scenario: kinds, Seed: seed})
	}
	n := newNotable(append(jobs, Job{Scenario: single, Seed: 99}))
	judged := func(v checker.Verdict, kinds ...string) report.Input {
		var as []checker.Anomaly
		for _, k := range kinds {
			as = append(as, checker.Anomaly{Kind: k})
		}
		return report.Input{Verdict: v, Results: []checker.Result{{Verdict: v, Anomalies: as}}}
	}
	tests := []struct {
		name string
		sc   scenario.Scenario
		seed int64
		in   report.Input
		want bool
	}{
		{"the first seed of a sweep is drawn", sweep, 10, judged(checker.Valid), true},
		{"the first seed is drawn whatever its verdict", sweep, 10, judged(checker.Invalid), true},
		{"a later seed that met its expectation is not", sweep, 12, judged(checker.Valid), false},
		{"a run that missed its expectation is drawn", sweep, 13, judged(checker.Invalid), true},
		{"a run with the expected kinds is not", kinds, 11, judged(checker.Invalid, checker.KindMutexOverlap), false},
		{"a run with the right verdict and an unexpected kind is drawn", kinds, 11, judged(checker.Invalid, checker.KindMutexOverlap, checker.KindLostUpdate), true},
		{"a scenario run once is drawn", single, 99, judged(checker.Valid), true},
		{"without an expectation a run that is not valid is drawn", noExpect, 11, judged(checker.Invalid), true},
		{"and a valid one is not", noExpect, 12, judged(checker.Valid), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := n.charts(tt.sc, tt.seed, tt.in); got != tt.want {
				t.Errorf("charts = %v, want %v", got, tt.want)
			}
		})
	}
}
