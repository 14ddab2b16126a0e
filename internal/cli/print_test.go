package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/suite"
)

func TestTheSummarySaysWhichRunsTheMachineSpoiledAndWhy(t *testing.T) {
	met, notMet := true, false
	run := func(name string, v checker.Verdict, m *bool, spoiled, why string, retried ...string) suite.Outcome {
		return suite.Outcome{Job: suite.Job{Scenario: scenario.Scenario{Name: name, Expect: scenario.Expectation{Verdict: "invalid"}}, Seed: 7},
			Results: &report.Results{Scenario: name, Seed: 7, Verdict: v, Expect: "invalid", ExpectationMet: m, Spoiled: spoiled, SpoiledWhy: why,
				Retried: retried, Reproduce: "locksim run " + name + ".yaml --seed 7"}}
	}
	outs := []suite.Outcome{
		run("gc-pause", checker.Invalid, &met, "", "", checker.SpoiledBusy),
		run("client-clock-skew", checker.Unknown, &notMet, checker.SpoiledMargin, "the mutex-overlap at t=10.2s was 30ms past the lease (wall), within the harness's own lateness of 90ms around it",
			checker.SpoiledMargin, checker.SpoiledMargin),
		run("fencing-counter-aof", checker.Invalid, &met, "", ""),
	}
	var b bytes.Buffer
	printSummary(&b, outs, false)
	got := b.String()
	for _, want := range []string{
		"NOT MET client-clock-skew seed 7: expected invalid, got unknown: the mutex-overlap at t=10.2s was 30ms past the lease (wall), within the harness's own lateness of 90ms around it (after 2 reruns) (locksim run client-clock-skew.yaml --seed 7)",
		"3 runs: 0 valid, 2 invalid, 1 unknown; expectations 2 met, 1 not met; 2 runs rerun (1 busy, 2 margin), 1 still spoiled",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "NOT MET gc-pause") {
		t.Errorf("a run that met its expectation on its rerun is listed as not met:\n%s", got)
	}
}
