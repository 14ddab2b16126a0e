package report

import "github.com/locksim/locksim/internal/checker"

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
)

// sideOf says what f is beside the broken run b; contrast is a pair the
// lesson file declares a contrast.
func sideOf(b, f Results, contrast bool) fixSide {
	switch {
	case contrast:
		return sideContrast
	case isControl(f.Algorithm):
		// An in-process lock every client shares tests the checkers; it
		// spans no pods, so it is no fix a reader can deploy, valid or not.
		return sideControl
	case clockContrast(b, f):
		return sideClock
	case restartContrast(b, f):
		return sideRestart
	case partialFix(f):
		return sidePartial
	case f.Verdict != checker.Valid || f.Error != "" || f.Aborted:
		return sideNoEvidence
	}
	return sideFixed
}

// kind is the side's kind on a page (lesson.side.*, the pair's CSS):
// fixed, contrast or control.
func (s fixSide) kind() string {
	switch s {
	case sideContrast, sideClock, sideRestart:
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
	case sideContrast, sideClock, sideRestart:
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
