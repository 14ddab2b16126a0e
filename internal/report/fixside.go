package report

import (
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/why"
)

// fixSide is what the run shown beside a broken run is, as every suite
// page names it: a fix, a partial fix (one still invalid as its scenario
// expects), a fix whose run is no evidence, a contrast (another scenario
// of the same shape; a clock assumption holding; a crashed node kept
// down), or a harness control. sideOf is the one rule; a lesson page's
// pair heads its side with "lesson."+side, the suite's index its
// "↓ …" line with "suite.pair."+side (issue 34: the index said "fixed by"
// of an invalid partial fix, a contrast and a control).
type fixSide string

const (
	sideFixed      fixSide = "fixed"
	sidePartial    fixSide = "partial"
	sideNoEvidence fixSide = "noevidence"
	sideContrast   fixSide = "contrast"
	sideClock      fixSide = "contrast.clock"
	sideRestart    fixSide = "contrast.restart"
	sideControl    fixSide = "control"
	// sideWithout: the run's scenario with some faults left out and
	// nothing else changed (why.FewerFaults): a control, the same run
	// without them, no remedy (reader9). Only a run's report names its
	// fixed_by so (FixSideWithout); a lesson page groups it with the
	// contrasts.
	sideWithout fixSide = "control.without"
)

// FixSideWithout is Fixed.Side of a fixed_by that is the run's scenario
// with some of its faults left out and nothing else (why.FewerFaults).
const FixSideWithout = string(sideWithout)

// sideOf says what f is beside the broken run b; contrast is a pair the
// lesson file declares a contrast.
func sideOf(b, f Results, contrast bool) fixSide {
	switch {
	case contrast:
		return sideContrast
	}
	if s := operationalSide(f.Algorithm, runFields(b), runFields(f)); s != "" {
		return s
	}
	switch {
	case partialFix(f):
		return sidePartial
	case f.Verdict != checker.Valid || f.Error != "" || f.Aborted:
		return sideNoEvidence
	}
	return sideFixed
}

// operationalSide is what a fixed_by scenario is when it is no change to
// the lock whatever its run shows: a harness control (its algorithm), the
// clock assumption holding or a crashed node kept down (the two files'
// fields, bf and ff: scenario.ClockContrast, scenario.DelayedRestart); ""
// otherwise. A run's report names its fixed_by by the same rule (FixSide).
func operationalSide(fixAlgorithm string, bf, ff map[string]string) fixSide {
	switch {
	case isControl(fixAlgorithm):
		// An in-process lock every client shares tests the checkers; it
		// spans no pods, so it is no fix a reader can deploy, valid or not.
		return sideControl
	case scenario.ClockContrast(bf, ff):
		return sideClock
	case scenario.DelayedRestart(bf, ff):
		return sideRestart
	}
	return ""
}

// FixSide is what the fixed_by scenario of a broken scenario is when it
// is no fix (Fixed.Side: "control", "contrast.clock", "contrast.restart"),
// "" when it is one; fixAlgorithm is the fix's algorithm, bf and ff the two
// files' fields (scenario.Flatten of each normalised). The suite's pages
// name it by the same rule (sideOf).
func FixSide(fixAlgorithm string, bf, ff map[string]string) string {
	return string(operationalSide(fixAlgorithm, bf, ff))
}

// kind is the side's kind on a page (lesson.side.*, the pair's CSS):
// fixed, contrast or control.
func (s fixSide) kind() string {
	switch s {
	case sideContrast, sideClock, sideRestart, sideWithout:
		return "contrast"
	case sideControl:
		return "control"
	}
	return "fixed"
}

// class is the CSS class that heads the side: fixed only for a valid
// fix, contrast for a contrast, noevidence for the rest.
func (s fixSide) class() string {
	switch s {
	case sideFixed:
		return "fixed"
	case sideContrast, sideClock, sideRestart, sideWithout:
		return "contrast"
	}
	return "noevidence"
}

// label heads a lesson page's side of a pair.
func (s fixSide) label(lang Lang, f Results) string {
	if s == sidePartial {
		return tr(lang, "lesson.partial", expectedWords(lang, f.ExpectKinds))
	}
	return tr(lang, "lesson."+string(s))
}

// pairLine is the suite index's line between a broken run and f, the run
// of its fixed_by: what f is, then its name.
func (s fixSide) pairLine(lang Lang, f Results) string {
	if s == sidePartial {
		return tr(lang, "suite.pair."+string(s), f.Scenario, expectedWords(lang, f.ExpectKinds))
	}
	return tr(lang, "suite.pair."+string(s), f.Scenario)
}

// control is the line of a fixed_by that is the run without some of its
// faults (sideWithout), from r (the remedy that named it) and its
// experiment's claim among cs: "the same run without …", its command, and
// what its run with the same seed showed.
func (m *model) control(lang Lang, in Input, r *remedy, cs []claim.Claim) *controlLine {
	c := &controlLine{Text: tr(lang, "fix.control.without", r.Fixed), Cmd: r.FixedCmd}
	for _, x := range in.Counterfactuals {
		if x.Change != why.FixedByOwn || x.Verdict == "" {
			continue
		}
		e, ok := claim.Find(cs, func(e claim.Claim) bool {
			return e.Kind == claim.Experiment && e.What == string(x.Change) && e.How == string(x.Verdict)
		})
		if !ok {
			continue
		}
		if len(e.Steps) > 0 && len(e.Changed) == 0 {
			var steps []string
			for _, id := range e.Steps {
				steps = append(steps, m.stepPhrase(lang, id))
			}
			c.Text = tr(lang, "fix.control.without.as", r.Fixed, joinAnd(lang, steps))
		}
		c.Run, c.Claim = tr(lang, "why.control."+string(x.Verdict), x.Name, x.Reproduce), e.ID
	}
	return c
}
