package report

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/report/page"

	"github.com/locksim/locksim/internal/checker"
)

type suitePage struct {
	Lang          Lang
	Title, Totals string
	// Rates has one line per scenario run more than once (a sweep): its
	// violation rate and the seeds of its invalid runs.
	Rates  []string
	Nav    []navItem
	Req    string
	Groups []suiteGroup
	// MadeFrom says which runs the pages were made from (madeFrom).
	MadeFrom string
}

// suiteGroup is one lesson's runs on the index (or the runs that name no
// lesson), each broken run followed by the run of its fix.
type suiteGroup struct {
	ID, Head, Page string
	Items          []suiteItem
}

type suiteItem struct {
	Run runCard
	Fix *runCard
	// Pair says what Fix is beside Run (fixSide.pairLine: fixed by, a
	// partial fix, a contrast, a control) and names it.
	Pair string
}

// maxRateSeeds is how many invalid seeds a suite page's rate line lists.
const maxRateSeeds = 30

// SweepRate is one scenario's tally over the runs of an invocation: how
// many runs got a verdict (Runs), how many of those were invalid (with
// their seeds, in run order) or unknown, and how many had no verdict
// (Errors) or were interrupted (Aborted; not counted in Runs).
type SweepRate struct {
	Scenario, File         string
	Runs, Invalid, Unknown int
	Errors, Aborted        int
	InvalidSeeds           []int64
}

// SweepRates tallies runs per scenario file, in the order the files first
// appear.
func SweepRates(runs []Results) []SweepRate {
	var out []SweepRate
	at := map[string]int{}
	for _, r := range runs {
		k := r.File + "\x00" + r.Scenario
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, SweepRate{Scenario: r.Scenario, File: r.File})
		}
		g := &out[i]
		switch {
		case r.Aborted:
			g.Aborted++
		case r.Error != "":
			g.Errors++
		default:
			g.Runs++
			switch r.Verdict {
			case checker.Invalid:
				g.Invalid++
				g.InvalidSeeds = append(g.InvalidSeeds, r.Seed)
			case checker.Unknown:
				g.Unknown++
			}
		}
	}
	return out
}

// sweepRates gives, per scenario file run more than once, "name: k of n
// runs invalid (p%), …; invalid seeds: …".
func sweepRates(lang Lang, runs []Results) []string {
	var out []string
	for _, g := range SweepRates(runs) {
		if g.Runs+g.Errors+g.Aborted < 2 {
			continue
		}
		pct := 0.0
		if g.Runs > 0 {
			pct = 100 * float64(g.Invalid) / float64(g.Runs)
		}
		line := tr(lang, "suite.rate", g.Scenario, g.Invalid, g.Runs, pct, g.Unknown, g.Errors)
		if len(g.InvalidSeeds) > 0 {
			seeds := make([]string, 0, min(len(g.InvalidSeeds), maxRateSeeds+1))
			for i, sd := range g.InvalidSeeds {
				if i == maxRateSeeds {
					seeds = append(seeds, "…")
					break
				}
				seeds = append(seeds, strconv.FormatInt(sd, 10))
			}
			line += " " + tr(lang, "suite.rate.seeds", strings.Join(seeds, " "))
		}
		out = append(out, line)
	}
	return out
}

// suiteRel is target relative to outDir, slash-separated, "" when it
// cannot be expressed.
func suiteRel(outDir, target string) string {
	if target == "" {
		return ""
	}
	if !filepath.IsAbs(target) {
		if abs, err := filepath.Abs(target); err == nil {
			target = abs
		}
	}
	base, err := filepath.Abs(outDir)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(base, target)
	if err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}

// WriteSuite writes <outDir>/index.html for a multi-scenario run and,
// beside it, one page per course lesson its runs name (LessonFile) and
// requirements.html. The index gives the totals, the sweep rates and the
// runs grouped by lesson (a run under the first lesson it names; the runs
// that name none last), each broken run followed by the run of its
// fixed_by scenario: scenario, verdict and headline, expected, met, seed,
// wall seconds, an eagerly loaded thumbnail of its timeline.png and a link to
// its index.html, both by relative path from outDir to the run's
// ReportDir; a run with Error set has no verdict and says why. The pages
// are self-contained (no network); lang is "en" or "vi".
func WriteSuite(outDir string, runs []Results, lang Lang) error {
	lang = normLang(lang)
	pg := suitePage{Lang: lang, Title: tr(lang, "suite.title", len(runs)), Req: RequirementsFile}
	var nv, ni, nu, ne, met, notMet int
	for _, r := range runs {
		switch {
		case r.Error != "":
			ne++
		case r.Verdict == checker.Valid:
			nv++
		case r.Verdict == checker.Invalid:
			ni++
		default:
			nu++
		}
		if r.ExpectationMet != nil {
			if *r.ExpectationMet {
				met++
			} else {
				notMet++
			}
		}
	}
	pg.Totals = tr(lang, "suite.totals", len(runs), nv, ni, nu, met, notMet)
	pg.MadeFrom = madeFrom(lang, runs)
	pg.Rates = sweepRates(lang, runs)
	if ne > 0 {
		pg.Totals += " " + tr(lang, "suite.errors", ne)
	}
	srs := newSuiteRuns(lang, outDir, runs)
	lessons := lessonsOf(srs)
	pg.Nav = lessonNav(lang, lessons, 0)
	placed := map[*suiteRun]bool{}
	group := func(n int) {
		g := suiteGroup{ID: "lesson-" + strconv.Itoa(n), Head: tr(lang, "lesson.title", n, lessonName(lang, n)), Page: LessonFile(n)}
		if n == 0 {
			g = suiteGroup{ID: "other", Head: tr(lang, "lesson.other")}
		}
		first := func(r *suiteRun) bool {
			if n == 0 {
				return len(r.R.Lessons) == 0
			}
			return len(r.R.Lessons) > 0 && r.R.Lessons[0] == n
		}
		for _, r := range srs {
			if placed[r] || !first(r) {
				continue
			}
			placed[r] = true
			it := suiteItem{Run: r.Card}
			if f := fixOf(r, srs); f != nil && !placed[f] && r.R.FixedBy != "" {
				placed[f] = true
				c := f.Card
				it.Fix, it.Pair = &c, sideOf(r.R, f.R, false).pairLine(lang, f.R)
			}
			g.Items = append(g.Items, it)
		}
		if len(g.Items) > 0 {
			pg.Groups = append(pg.Groups, g)
		}
	}
	for _, n := range lessons {
		group(n)
	}
	group(0)
	// A fix whose own first lesson came before its broken run's was
	// placed there: nothing is left out, nothing shown twice.
	t, err := page.Parse("suite", suiteCSS+indexTemplateSuite, pageFuncs(lang))
	if err != nil {
		return fmt.Errorf("parse suite template: %w", err)
	}
	if err := writeTemplate(filepath.Join(outDir, IndexFile), t, pg); err != nil {
		return err
	}
	if err := writeLessonPages(outDir, lang, srs, pg.MadeFrom); err != nil {
		return err
	}
	return writeRequirements(outDir, lang, srs)
}

// madeFrom is a suite's footer line: the pages were made from these runs,
// begun when the first of them began, and a page in another language
// comes only from its own runs of the same files and seeds, whose times
// (and, rarely, an informational finding) can differ where such pages
// exist: a suite knows nothing of another language's run, so the line
// does not say there was one. "" unless every run's
// report is in lang (runs rendered in another language are not this
// language's own run) and at least one run says when it began.
func madeFrom(lang Lang, runs []Results) string {
	var first time.Time
	for _, r := range runs {
		if normLang(r.Lang) != lang {
			return ""
		}
		if !r.Started.IsZero() && (first.IsZero() || r.Started.Before(first)) {
			first = r.Started
		}
	}
	if first.IsZero() {
		return ""
	}
	return tr(lang, "suite.madefrom", len(runs), first.UTC().Format("2006-01-02 15:04:05"))
}
