package suite

import (
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
)

func TestNotableRunsOfASuiteGetCharts(t *testing.T) {
	sweep := scenario.Scenario{File: "sweep.yaml", Expect: scenario.Expectation{Verdict: "valid"}}
	kinds := scenario.Scenario{File: "kinds.yaml", Expect: scenario.Expectation{Verdict: "invalid", Kinds: []string{checker.KindMutexOverlap}}}
	single := scenario.Scenario{File: "single.yaml", Expect: scenario.Expectation{Verdict: "valid"}}
	noExpect := scenario.Scenario{File: "free.yaml"}
	seeds := func(sc scenario.Scenario, from, to int64) []Job {
		var jobs []Job
		for seed := from; seed < to; seed++ {
			jobs = append(jobs, Job{Scenario: sc, Seed: seed})
		}
		return jobs
	}
	oneSweep := newNotable(seeds(sweep, 10, 14))
	alone := newNotable(seeds(single, 99, 100))
	var cat []Job
	for _, sc := range []scenario.Scenario{sweep, noExpect, kinds} {
		cat = append(cat, seeds(sc, 10, 14)...)
	}
	catalogue := newNotable(append(cat, Job{Scenario: single, Seed: 99}))
	// A plan of several scenarios sharded so that this invocation runs
	// one of them still draws as the whole plan does.
	plan := Plan([]scenario.Scenario{sweep, single}, Options{Seed: new(int64), Count: 2})
	shard := newNotable(plan[:2])
	judged := func(v checker.Verdict, kinds ...string) report.Input {
		var as []checker.Anomaly
		for _, k := range kinds {
			as = append(as, checker.Anomaly{Kind: k})
		}
		return report.Input{Verdict: v, Results: []checker.Result{{Verdict: v, Anomalies: as}}}
	}
	tests := []struct {
		name string
		n    *notable
		sc   scenario.Scenario
		seed int64
		in   report.Input
		want bool
	}{
		{"the first seed of a sweep of one scenario is drawn", oneSweep, sweep, 10, judged(checker.Valid), true},
		{"the first seed is drawn whatever its verdict", oneSweep, sweep, 10, judged(checker.Invalid), true},
		{"a later seed that met its expectation is not", oneSweep, sweep, 12, judged(checker.Valid), false},
		{"a run that missed its expectation is drawn", oneSweep, sweep, 13, judged(checker.Invalid), true},
		{"a single run is drawn", alone, single, 99, judged(checker.Valid), true},
		{"in a catalogue a run that met its expectation is not drawn, first seed or not", catalogue, sweep, 10, judged(checker.Valid), false},
		{"in a catalogue a scenario run once that met its expectation is not drawn", catalogue, single, 99, judged(checker.Valid), false},
		{"in a catalogue a run that missed its expectation is drawn", catalogue, single, 99, judged(checker.Unknown), true},
		{"a run with the expected kinds is not", catalogue, kinds, 11, judged(checker.Invalid, checker.KindMutexOverlap), false},
		{"a run with the right verdict and an unexpected kind is drawn", catalogue, kinds, 11, judged(checker.Invalid, checker.KindMutexOverlap, checker.KindLostUpdate), true},
		{"without an expectation a run that is not valid is drawn", catalogue, noExpect, 11, judged(checker.Invalid), true},
		{"and a valid one is not", catalogue, noExpect, 12, judged(checker.Valid), false},
		{"a shard of a plan of two scenarios draws as the plan does", shard, sweep, 0, judged(checker.Valid), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.n.charts(tt.sc, tt.seed, tt.in); got != tt.want {
				t.Errorf("charts = %v, want %v", got, tt.want)
			}
		})
	}
}
