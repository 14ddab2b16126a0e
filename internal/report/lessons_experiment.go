package report

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/why"
)

// experimentFixText is a lesson page's line on a broken run's fix that
// the suite ran only as an experiment c of that run r: its verdict, and
// what that one run is evidence of. A fix or contrast that came out valid
// carries the same N-of-N and few-seeds lines as every other fix on the
// page (teacher8 N1: a bare "VALID"); a partial fix, one its scenario
// expects to stay invalid, is told so, with the kinds of the run it no
// longer showed (teacher8 N2: "The fix … INVALID" and nothing more).
func experimentFixText(lang Lang, kind string, r *suiteRun, c why.Counterfactual) string {
	verdict := tr(lang, "verdict."+string(c.Verdict))
	if expected, ok := partialExperiment(lang, r, c); ok {
		var gone []string
		for _, k := range ViolationKinds(r.R.Anomalies) {
			if !slices.Contains(c.Kinds, k) {
				gone = append(gone, kindWord(lang, k))
			}
		}
		text := tr(lang, "lesson.missing.partial.why", r.R.Scenario, r.R.FixedBy, expected, r.R.Seed, verdict)
		if len(gone) > 0 {
			text += " " + tr(lang, "lesson.missing.partial.gone", joinAnd(lang, gone))
		}
		return text
	}
	text := tr(lang, "lesson.missing."+kind+".why", r.R.Scenario, r.R.FixedBy, r.R.Seed, verdict)
	if c.Verdict != checker.Valid || kind == "control" {
		return text
	}
	seeds := tr(lang, "lesson.seeds.one", r.R.Seed)
	broken := r.R.File
	if broken == "" {
		broken = shippedFile(r.R.Scenario + ".yaml")
	}
	if kind == "contrast" {
		return text + " " + tr(lang, "lesson.evidence.contrast", 1, 1, seeds) + " " +
			tr(lang, "lesson.evidence.few.contrast", MinEvidenceSeeds, broken, r.R.FixedBy, MinEvidenceSeeds)
	}
	return text + " " + tr(lang, "lesson.evidence.fixed", 1, 1, seeds) + " " +
		tr(lang, "lesson.evidence.few", MinEvidenceSeeds, broken, r.R.FixedBy, MinEvidenceSeeds)
}

// partialExperiment tells whether experiment c ran a partial fix: it came
// out invalid, as the shipped fix's scenario expects (with the kinds it
// names, when it names some); expected are those kinds in words.
func partialExperiment(lang Lang, r *suiteRun, c why.Counterfactual) (expected string, ok bool) {
	if c.Verdict != checker.Invalid {
		return "", false
	}
	sc, _, found := shippedScenario(strings.TrimPrefix(shippedFile(filepath.Base(r.R.FixedBy)), "scenarios/"))
	if !found || sc.Expect.Verdict != string(checker.Invalid) {
		return "", false
	}
	kinds := slices.Sorted(slices.Values(c.Kinds))
	if sc.Expect.Kinds != nil && !slices.Equal(kinds, sc.Expect.Kinds) {
		return "", false
	}
	return expectedWords(lang, kinds), true
}
