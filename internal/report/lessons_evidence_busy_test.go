package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
)

// A fix valid in 9 of 10 runs whose other run was unknown because every
// try of it was spoiled by the machine's load says so, from the run's own
// unknown reason, and keeps the "not a proof" line; an unknown of another
// reason (a violation within the lateness) is not called the machine's
// load (teacher11 G6: failover-fence-wait seed 33, tried 3 times, all
// "machine too busy").
func TestAFixsUnknownRunSaysItWasTheMachinesLoad(t *testing.T) {
	broken := func(seed int64) *suiteRun {
		return &suiteRun{R: Results{File: "scenarios/failover-fence.yaml", Seed: seed, Verdict: checker.Invalid}}
	}
	fixed := func(seed int64, v checker.Verdict, spoiled string, retried ...string) *suiteRun {
		return &suiteRun{R: Results{File: "scenarios/failover-fence-wait.yaml", Seed: seed, Verdict: v, Spoiled: spoiled, Retried: retried}}
	}
	suite := func(last *suiteRun) ([]*suiteRun, *suiteRun, *suiteRun) {
		var runs []*suiteRun
		for s := int64(24); s < 34; s++ {
			runs = append(runs, broken(s))
			if s < 33 {
				runs = append(runs, fixed(s, checker.Valid, ""))
			}
		}
		runs = append(runs, last)
		return runs, runs[0], runs[1]
	}
	for _, lang := range []Lang{English, Vietnamese} {
		runs, b, f := suite(fixed(33, checker.Unknown, checker.SpoiledBusy, checker.SpoiledBusy, checker.SpoiledBusy))
		got := strings.Join(evidence(lang, b, f, runs), " ")
		for _, want := range []string{tr(lang, "lesson.evidence.busy.one"), tr(lang, "lesson.evidence.scope")} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: %q lacks %q", lang, got, want)
			}
		}
		runs, b, f = suite(fixed(33, checker.Unknown, checker.SpoiledMargin))
		got = strings.Join(evidence(lang, b, f, runs), " ")
		if strings.Contains(got, tr(lang, "lesson.evidence.busy.one")) || strings.Contains(got, tr(lang, "lesson.evidence.scope")) {
			t.Errorf("%s: a near-violation's unknown is called the machine's load: %q", lang, got)
		}
	}
}
