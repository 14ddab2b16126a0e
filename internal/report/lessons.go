package report

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/report/page"

	"github.com/locksim/locksim/internal/algo"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/lesson"
	"github.com/locksim/locksim/internal/report/chart"
	"github.com/locksim/locksim/internal/scenario"
)

// Suite pages beside index.html: one per course lesson its runs name, and
// the requirements scorecard.
const (
	RequirementsFile = "requirements.html"
)

// LessonFile is the page of course lesson n in a suite directory.
func LessonFile(n int) string { return "lesson-" + strconv.Itoa(n) + ".html" }

// runCard is one run as the suite's pages show it.
type runCard struct {
	Scenario, Seed, Verdict, VerdictWord string
	Headline, Description, DescLang      string
	Expect, Met, MetClass, Wall          string
	Faults                               string // the fault plan in words
	Link, Thumb, Alt                     string // relative to the page; "" when unknown
	Error                                string
	Aborted                              bool
	Fix                                  string // the fixed_by scenario's name, "" when none
	// Notes are what a lesson page says under a run it shows alone
	// (cardNotes): its count over seeds, what it is the fix of.
	Notes []string
	// Below marks a card whose timeline is drawn under the pair, on the
	// axis it shares with the other run (its thumbnail is left out).
	Below bool
}

// suiteRun is a run of the suite with what its pages need of it.
type suiteRun struct {
	R    Results
	Card runCard
}

// newSuiteRuns makes the cards of every run, with links relative to outDir.
func newSuiteRuns(lang Lang, outDir string, runs []Results) []*suiteRun {
	out := make([]*suiteRun, 0, len(runs))
	for _, r := range runs {
		headline := r.HeadlineShort
		if headline == "" { // results written before it existed
			headline = r.Headline
		}
		c := runCard{Scenario: r.Scenario, Seed: strconv.FormatInt(r.Seed, 10), Verdict: string(r.Verdict),
			VerdictWord: tr(lang, "verdict."+string(r.Verdict)), Headline: headline, Description: r.Description, DescLang: r.DescriptionLang,
			Wall: decimal{r.WallSeconds, 2}.in(lang), Aborted: r.Aborted,
			Met: tr(lang, "suite.none"), MetClass: "none", Expect: tr(lang, "suite.none"), Faults: planWords(lang, r)}
		if r.Expect != "" {
			c.Expect = expectWords(lang, r.Expect, r.ExpectKinds)
		}
		if r.Error != "" {
			c.Verdict, c.VerdictWord, c.Error = "error", tr(lang, "suite.error"), r.Error
		}
		if r.ExpectationMet != nil {
			if *r.ExpectationMet {
				c.Met, c.MetClass = tr(lang, "suite.yes"), "met"
			} else {
				c.Met, c.MetClass = tr(lang, "suite.no"), "notmet"
			}
		}
		if r.ReportDir != "" {
			if _, err := os.Stat(filepath.Join(r.ReportDir, TimelineFile)); err == nil {
				c.Thumb = suiteRel(outDir, filepath.Join(r.ReportDir, TimelineFile))
			}
			c.Link = suiteRel(outDir, filepath.Join(r.ReportDir, IndexFile))
		}
		c.Alt = tr(lang, "alt.timeline.run", r.Scenario, headline)
		if r.FixedBy != "" {
			c.Fix = scenarioName(r.FixedBy)
		}
		out = append(out, &suiteRun{R: r, Card: c})
	}
	return out
}

// scenarioName is the name of the scenario in file: its name field, or
// its base name when the file cannot be read.
func scenarioName(file string) string {
	if sc, err := scenario.Load(file); err == nil && sc.Name != "" {
		return sc.Name
	}
	base := filepath.Base(file)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// sameFile tells whether two scenario paths name one file.
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	// Two paths both relative to the working directory, or both
	// absolute, and neither climbing out with "..", are the same file
	// exactly when they clean alike; filepath.Abs asks the OS for the
	// working directory each time (a catalogue's suite page compared
	// files some 100,000 times: 0.5 s of CPU).
	ca, cb := filepath.Clean(a), filepath.Clean(b)
	if filepath.IsAbs(ca) == filepath.IsAbs(cb) && !climbs(ca) && !climbs(cb) {
		return ca == cb
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return aa == bb
}

// climbs says whether the clean path p has a ".." element.
func climbs(p string) bool {
	return slices.Contains(strings.Split(filepath.ToSlash(p), "/"), "..")
}

// fixOf finds the run of r's fixed_by scenario: the one with r's seed if
// there is one, else the first.
func fixOf(r *suiteRun, runs []*suiteRun) *suiteRun {
	return runFor(r, runs, func(file string) bool { return sameFile(file, r.R.FixedBy) })
}

// runFor finds, among runs other than r, the run of a file is accepts:
// the one with r's seed if there is one, else the first; nil when none.
func runFor(r *suiteRun, runs []*suiteRun, is func(file string) bool) *suiteRun {
	var first *suiteRun
	for _, f := range runs {
		if f == r || f.R.File == "" || !is(f.R.File) {
			continue
		}
		if f.R.Seed == r.R.Seed {
			return f
		}
		if first == nil {
			first = f
		}
	}
	return first
}

// baseIs accepts a scenario path whose file name is base (gc-pause.yaml),
// as a lesson file names scenarios.
func baseIs(base string) func(string) bool {
	return func(file string) bool { return filepath.Base(file) == base }
}

// pairOf puts a broken run beside its fix, saying what they share; sync
// names the pair's time axis on its page.
func pairOf(lang Lang, b, f *suiteRun, sync string) pairView {
	return pairAs(lang, b, f, sync, false)
}

// pairAs is pairOf; contrast labels the right side a contrast, not a fix,
// on its card and its timeline alike.
func pairAs(lang Lang, b, f *suiteRun, sync string, contrast bool) pairView {
	s := sideOf(b.R, f.R, contrast)
	p := pairView{Broken: b.Card, Fixed: f.Card, FixedLabel: s.label(lang, f.R), FixedClass: s.class(), Side: s.kind()}
	if b.R.Seed == f.R.Seed {
		p.Seeds = tr(lang, "lesson.seed.same", b.R.Seed)
	} else {
		p.Seeds = tr(lang, "lesson.seed.diff", b.R.Seed, f.R.Seed)
	}
	switch {
	case samePlan(b.R, f.R):
		p.Faults = tr(lang, "lesson.fault.same", b.Card.Faults)
	case sameFaults(b.R, f.R):
		p.Faults = tr(lang, "lesson.fault.when", b.Card.Faults)
	case p.Side == "contrast":
		p.Faults = tr(lang, "lesson.fault.diff.contrast", b.Card.Faults, f.Card.Faults)
	default:
		p.Faults = tr(lang, "lesson.fault.diff", b.Card.Faults, f.Card.Faults)
	}
	if samePlan(b.R, f.R) || sameFaults(b.R, f.R) {
		if w := firedApart(lang, b.R, f.R, p.Side); w != "" {
			p.Faults += " " + w
		}
	}
	bs, fs := instant(b.R.ScenarioSeconds), instant(f.R.ScenarioSeconds)
	if bd, fd := b.R.drawing, f.R.drawing; bd != nil && fd != nil {
		o := chart.SVGOptions{Sync: sync, Start: min(bd.Start, fd.Start), End: max(bd.End, fd.End)}
		var t strings.Builder
		for _, side := range []struct {
			label string
			c     runCard
			d     *chart.Drawing
		}{{tr(lang, "lesson.broken"), b.Card, bd}, {p.FixedLabel, f.Card, fd}} {
			fmt.Fprintf(&t, "<p class=\"tl-label\">%s: %s</p>\n", template.HTMLEscapeString(side.label), template.HTMLEscapeString(side.c.Scenario))
			t.WriteString(chart.RenderSVG(side.d, o))
		}
		p.Timelines = template.HTML(t.String())
		p.Broken.Below, p.Fixed.Below = true, true
		p.Axis = tr(lang, "lesson.axis.shared")
	} else {
		p.Axis = axisWords(lang, b.Card, f.Card, bs, fs, p.Side)
	}
	p.Changes = changes(lang, b.R, f.R)
	if y, ok := yamlDiff(b.R, f.R); ok {
		p.YAML = y
		p.YAMLNone = len(y) == 0
	}
	return p
}

// axisWords says how long a pair's two runs lasted in scenario time when
// they are not drawn on one axis: as their timelines' spans when both
// runs have a timeline image, else as the runs' own, for a run whose
// charts were skipped (a suite's runs that met their expectation) has no
// timeline to span anything. side is the right side's kind: fixed,
// contrast or control.
func axisWords(lang Lang, b, f runCard, bs, fs instant, side string) string {
	kind := "lesson.axis"
	if b.Thumb == "" || f.Thumb == "" {
		kind = "lesson.axis.runs"
	}
	if chart.Tenths(float64(bs)) == chart.Tenths(float64(fs)) { // the same when written
		return tr(lang, kind+".same", bs)
	}
	return tr(lang, kind+".diff", bs, fs, tr(lang, "lesson.side."+side))
}

// contrastOf puts a broken run beside a contrast run (lesson.Pair's
// Contrast): a run of another scenario, not a fix of it, so the page says
// what each came out as and offers no change to make.
func contrastOf(lang Lang, b, c *suiteRun, sync string, runs []*suiteRun) pairView {
	p := pairAs(lang, b, c, sync, true)
	// No change to make, but the whole difference between the two files
	// stays shown (a second teacher: slow-job and cache-rebuild-waste
	// differ in time scale, duration and read time too).
	p.Changes = nil
	if !samePlan(b.R, c.R) && !sameFaults(b.R, c.R) {
		p.Faults = tr(lang, "lesson.fault.diff.contrast", b.Card.Faults, c.Card.Faults)
	}
	bt, ct := tallyOf(b, runs), tallyOf(c, runs)
	p.Evidence = []string{
		tr(lang, "lesson.evidence.broken", bt.Invalid, bt.N, bt.seedsWord(lang)) + bt.rerunWords(lang),
		tr(lang, "lesson.evidence.contrast", ct.Valid, ct.N, ct.seedsWord(lang)),
	}
	if ct.Valid < ct.N {
		p.Evidence[1] += " " + tr(lang, "lesson.evidence.rest", ct.others(lang))
	}
	p.Evidence[1] += ct.rerunWords(lang)
	if ct.N < MinEvidenceSeeds {
		p.Evidence = append(p.Evidence, tr(lang, "lesson.evidence.few.contrast", MinEvidenceSeeds, b.R.File, c.R.File, MinEvidenceSeeds))
	}
	return p
}

// firstRunOf is the run of the scenario file named base (gc-pause.yaml)
// with the lowest seed among runs, or nil when the suite ran none.
func firstRunOf(base string, runs []*suiteRun) *suiteRun {
	var first *suiteRun
	for _, r := range runs {
		if r.R.File == "" || filepath.Base(r.R.File) != base {
			continue
		}
		if first == nil || r.R.Seed < first.R.Seed {
			first = r
		}
	}
	return first
}

// isControl tells whether algorithm is a harness control (control-mutex,
// no-lock): the checkers' known-good or known-bad lock.
func isControl(algorithm string) bool {
	a, ok := algo.Lookup(algorithm)
	return ok && a.Traits.Control
}

// navItem links a suite page.
type navItem struct {
	Label, Href string
	Current     bool
}

// lessonPage is one lesson's page.
type lessonPage struct {
	Lang        Lang
	Title, Head string
	// The lesson's own words (scenarios/lessons/N.yaml) in the page's
	// language: its goal, the requirements of lesson 42 it bears on,
	// takeaways and caveats; Goal is "" when the lesson has no file.
	Goal               string
	RequirementsHead   string
	Requirements       []reqName
	Takeaways, Caveats []lessonNote
	Nav                []navItem
	Pairs              []pairView
	Missing            []missingLine
	More               []runCard
	NoPair             bool
	Index, Req         string
	ReqLabel           string
	IndexLabel         string
	// The timelines' stylesheet and script, when a pair draws its runs.
	TimelineCSS template.CSS
	TimelineJS  template.JS
	MadeFrom    string // the suite's madeFrom
}

// lessonsOf lists the lessons the runs name, ascending.
func lessonsOf(runs []*suiteRun) []int {
	var ls []int
	for _, r := range runs {
		for _, l := range r.R.Lessons {
			if !slices.Contains(ls, l) {
				ls = append(ls, l)
			}
		}
	}
	slices.Sort(ls)
	return ls
}

func lessonName(lang Lang, n int) string { return tr(lang, "lesson."+strconv.Itoa(n)) }

func lessonNav(lang Lang, lessons []int, current int) []navItem {
	var nav []navItem
	for _, l := range lessons {
		nav = append(nav, navItem{Label: tr(lang, "lesson.word", l), Href: LessonFile(l), Current: l == current})
	}
	return nav
}

// lessonGroup is the runs of one lesson in the order its pages show them:
// each broken scenario's run followed by the run of its fix, then the
// others. A scenario run at several seeds (--count) is shown once: its
// pair at one seed, the others counted (seedTally).
type lessonGroup struct {
	Pairs   [][2]*suiteRun
	Missing []*suiteRun // broken runs whose fix this suite did not run
	Others  []*suiteRun
}

// MinEvidenceSeeds is how many seeds of a fix a lesson page needs before
// it calls the fix's valid runs evidence (issue 34: "valid in N of N
// seeds", N ≥ 10); fewer are said to be too few.
const MinEvidenceSeeds = 10

func groupLesson(n int, runs []*suiteRun) lessonGroup {
	var g lessonGroup
	used := map[*suiteRun]bool{}
	in := func(r *suiteRun) bool { return n == 0 && len(r.R.Lessons) == 0 || slices.Contains(r.R.Lessons, n) }
	seen := func(r *suiteRun) bool {
		return slices.ContainsFunc(runs, func(o *suiteRun) bool { return used[o] && sameRunFile(o, r) })
	}
	for _, r := range runs {
		if !in(r) || r.R.FixedBy == "" || used[r] || seen(r) {
			continue
		}
		b, f := pairShown(r, runs, func(b *suiteRun) *suiteRun { return fixOf(b, runs) })
		if f != nil {
			g.Pairs = append(g.Pairs, [2]*suiteRun{b, f})
			used[b], used[f] = true, true
		} else {
			g.Missing = append(g.Missing, r)
			used[r] = true
		}
	}
	for _, r := range runs {
		if in(r) && !used[r] && !seen(r) {
			g.Others = append(g.Others, r)
			used[r] = true
		}
	}
	return g
}

// sameRunFile tells whether two runs are of one scenario file (a run
// without a file is its own).
func sameRunFile(a, b *suiteRun) bool {
	if a.R.File == "" || b.R.File == "" {
		return a == b
	}
	return sameFile(a.R.File, b.R.File)
}

// pairShown picks the seed a pair is shown at, among the runs of r's file
// and of its fix (fixFor finds a run's fix, at its seed when it can): the
// lowest seed whose fix run is valid, or, when no run of the fix is, the
// lowest seed (its fixed side is then shown as no evidence). The page
// states every seed's count beside it.
func pairShown(r *suiteRun, runs []*suiteRun, fixFor func(*suiteRun) *suiteRun) (broken, fixed *suiteRun) {
	var cands [][2]*suiteRun
	for _, b := range runs {
		if !sameRunFile(b, r) {
			continue
		}
		if f := fixFor(b); f != nil && f.R.Seed == b.R.Seed {
			cands = append(cands, [2]*suiteRun{b, f})
		}
	}
	if len(cands) == 0 {
		return r, fixFor(r)
	}
	slices.SortStableFunc(cands, func(x, y [2]*suiteRun) int { return cmp.Compare(x[0].R.Seed, y[0].R.Seed) })
	for _, c := range cands {
		if c[1].R.Verdict == checker.Valid && c[1].R.Error == "" && !c[1].R.Aborted {
			return c[0], c[1]
		}
	}
	return cands[0][0], cands[0][1]
}

// writeLessonPages writes one page per lesson the runs name.
func writeLessonPages(outDir string, lang Lang, runs []*suiteRun, made string) error {
	lessons := lessonsOf(runs)
	t, err := page.Parse("lesson", suiteCSS+lessonTemplate, pageFuncs(lang))
	if err != nil {
		return fmt.Errorf("parse lesson template: %w", err)
	}
	texts, err := lesson.All()
	if err != nil {
		return fmt.Errorf("lesson files: %w", err)
	}
	for _, n := range lessons {
		g := groupLesson(n, runs)
		pg := lessonPage{Lang: lang, Title: tr(lang, "lesson.page.title", n, lessonName(lang, n)),
			Head: tr(lang, "lesson.title", n, lessonName(lang, n)), Nav: lessonNav(lang, lessons, n),
			Index: IndexFile, Req: RequirementsFile, NoPair: len(g.Pairs) == 0, MadeFrom: made}
		l := texts[n]
		if l != nil {
			pg.Goal = l.Goal.In(string(normLang(lang)))
			pg.RequirementsHead = tr(lang, "lesson.requirements")
			if n == requirementsLesson {
				pg.RequirementsHead = tr(lang, "lesson.requirements.own")
			}
			for _, r := range l.Requirements {
				pg.Requirements = append(pg.Requirements, reqNameOf(lang, reqCode(r)))
			}
			pg.Takeaways = lessonNotes(lang, outDir, l.Takeaways, l.TakeawayRuns, runs)
			pg.Caveats = lessonNotes(lang, outDir, l.Caveats, l.CaveatRuns, runs)
			// Every run is sped up: a reader of real Redis must know.
			switch lo, hi := timeScales(n, runs); {
			case hi == 0: // no run says its scale
			case lo == hi:
				// The example is the page's own scale (a fresh teacher: it
				// named time scale 50 on pages that ran none at 50).
				pg.Caveats = append(pg.Caveats, lessonNote{Text: tr(lang, "lesson.caveat.time.one", fmtScale(hi), fmtScale(hi), span(30/hi).in(lang))})
			default:
				pg.Caveats = append(pg.Caveats, lessonNote{Text: tr(lang, "lesson.caveat.time", fmtScale(lo), fmtScale(hi), fmtScale(hi), span(30/hi).in(lang))})
			}
		}
		shown := map[*suiteRun]bool{}
		pg.Pairs, pg.Missing = lessonPairs(lang, l, g, runs, shown)
		pg.NoPair = len(pg.Pairs) == 0
		for _, pv := range pg.Pairs {
			if pv.Timelines != "" {
				pg.TimelineCSS, pg.TimelineJS = template.CSS(chart.TimelineCSS()), template.JS(chart.TimelineJS)
			}
		}
		for _, r := range g.Missing {
			pg.Missing = append(pg.Missing, missingFix(lang, outDir, r))
			c := r.Card
			c.Notes = cardNotes(lang, r, runs)
			pg.More = append(pg.More, c)
		}
		for _, r := range g.Others {
			if !shown[r] {
				c := r.Card
				c.Notes = cardNotes(lang, r, runs)
				pg.More = append(pg.More, c)
			}
		}
		if err := writeTemplate(filepath.Join(outDir, LessonFile(n)), t, pg); err != nil {
			return err
		}
	}
	return nil
}

// lessonPairs builds a lesson page's pairs: each broken run of the
// lesson beside its fixed_by's run (g.Pairs), and each pair the lesson
// file declares with a fix or a contrast of its own, in the order the
// lesson file lists its pairs (pairs it does not list come last). Runs a
// declared pair shows are marked in shown; missing says which declared
// pairs the suite did not run.
func lessonPairs(lang Lang, l *lesson.Lesson, g lessonGroup, runs []*suiteRun, shown map[*suiteRun]bool) (pairs []pairView, missing []missingLine) {
	reqs := Requirements()
	var order []string // each pair's broken file name, as pairs
	if l != nil {
		reqs = nil
		for _, r := range l.Requirements {
			reqs = append(reqs, reqCode(r))
		}
	}
	add := func(pv pairView, b, f *suiteRun, broken string) {
		pv.Strip = strip(lang, b.R, f.R, reqs)
		pairs = append(pairs, pv)
		order = append(order, broken)
	}
	for _, p := range g.Pairs {
		pv := pairOf(lang, p[0], p[1], "pair-"+strconv.Itoa(len(pairs)))
		pv.Evidence = evidence(lang, p[0], p[1], runs)
		if l != nil {
			if q, ok := l.Question(p[0].R.File); ok {
				pv.Question = q.In(string(normLang(lang)))
			}
		}
		add(pv, p[0], p[1], filepath.Base(p[0].R.File))
	}
	if l == nil {
		return pairs, nil
	}
	for _, cp := range l.Pairs {
		if cp.Contrast == "" && cp.Fix == "" {
			continue
		}
		var b, c *suiteRun
		if r := firstRunOf(cp.Broken, runs); r != nil {
			b, c = pairShown(r, runs, func(b *suiteRun) *suiteRun { return runFor(b, runs, baseIs(cp.Fix+cp.Contrast)) })
		}
		if b == nil || c == nil {
			missing = append(missing, missingPair(lang, cp.Broken, cp.Fix+cp.Contrast, runs))
			continue
		}
		sync := "pair-" + strconv.Itoa(len(pairs))
		var pv pairView
		if cp.Fix != "" {
			pv = pairOf(lang, b, c, sync)
			pv.Evidence = evidence(lang, b, c, runs)
		} else {
			pv = contrastOf(lang, b, c, sync, runs)
		}
		pv.Question = cp.Question.In(string(normLang(lang)))
		add(pv, b, c, cp.Broken)
		shown[b], shown[c] = true, true
	}
	rank := func(broken string) int {
		if i := slices.IndexFunc(l.Pairs, func(p lesson.Pair) bool { return p.Broken == broken }); i >= 0 {
			return i
		}
		return len(l.Pairs)
	}
	idx := make([]int, len(pairs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(rank(order[a]), rank(order[b])) })
	sorted := make([]pairView, len(pairs))
	for i, j := range idx {
		sorted[i] = pairs[j]
	}
	return sorted, missing
}

func pageFuncs(lang Lang) template.FuncMap {
	return template.FuncMap{
		"t":    func(key string) string { return tr(lang, key) },
		"tf":   func(key string, args ...any) string { return tr(lang, key, args...) },
		"mark": verdictMark,
	}
}

func writeTemplate(path string, t *template.Template, data any) error {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return fmt.Errorf("render %s: %w", filepath.Base(path), err)
	}
	return os.WriteFile(path, glossFirstUse(b.Bytes()), 0o644)
}

// verdictMark is the shape that tells a verdict besides its colour.
func verdictMark(v string) string {
	switch checker.Verdict(v) {
	case checker.Valid:
		return "✔"
	case checker.Invalid:
		return "✘"
	case checker.Unknown:
		return "?"
	}
	return "⚠"
}

// timeScales is the lowest and highest time scale of lesson n's runs (0,
// 0 when none says).
func timeScales(n int, runs []*suiteRun) (lo, hi float64) {
	for _, r := range runs {
		if ts := r.R.TimeScale; ts > 0 && slices.Contains(r.R.Lessons, n) {
			if lo == 0 || ts < lo {
				lo = ts
			}
			hi = max(hi, ts)
		}
	}
	return lo, hi
}

// fmtScale is a time scale as a scenario file gives it: 0.5, 10.
func fmtScale(ts float64) decimal { return decimal{ts, -1} }
