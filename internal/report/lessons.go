package report

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/report/page"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/locksim/locksim/internal/algo"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
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
		c := runCard{Scenario: r.Scenario, Seed: strconv.FormatInt(r.Seed, 10), Verdict: string(r.Verdict),
			VerdictWord: tr(lang, "verdict."+string(r.Verdict)), Headline: r.Headline, Description: r.Description, DescLang: r.DescriptionLang,
			Wall: fmt.Sprintf("%.2f", r.WallSeconds), Aborted: r.Aborted,
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
		c.Alt = tr(lang, "alt.timeline.run", r.Scenario, r.Headline)
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
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return aa == bb
}

// fixOf finds the run of r's fixed_by scenario: the one with r's seed if
// there is one, else the first.
func fixOf(r *suiteRun, runs []*suiteRun) *suiteRun {
	var first *suiteRun
	for _, f := range runs {
		if f == r || !sameFile(f.R.File, r.R.FixedBy) {
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

// planWords tells a run's fault plan in scenario time: "GC pause on w1
// for 35s, clock jump on n3", or "no fault". A duration is formatted by
// fmtDur, as every duration on a page is.
func planWords(lang Lang, r Results) string {
	if len(r.Plan) == 0 {
		return tr(lang, "lesson.fault.none")
	}
	h := history.Header{TimeScale: r.TimeScale}
	parts := make([]string, 0, len(r.Plan))
	for _, st := range r.Plan {
		targets := joinAnd(lang, targetsOf(st))
		if st.Duration > 0 {
			parts = append(parts, tr(lang, "lesson.step.for", faultWord(lang, st), targets,
				fmtDur(h.ScenarioSeconds(st.Duration))))
		} else {
			parts = append(parts, tr(lang, "lesson.step", faultWord(lang, st), targets))
		}
	}
	return strings.Join(parts, ", ")
}

// scenarioPlan is a run's fault plan as its scenario file states it: every
// wall-time field (durations, clock deltas, latencies, trigger times,
// toxics' ms) in scenario time rounded to the millisecond, step ids and
// what the run did with a step (its failovers' promotions) left out. Two
// runs with different time scales planned the same faults when their
// scenario plans are equal.
func scenarioPlan(plan []history.FaultStep, timeScale float64) []history.FaultStep {
	h := history.Header{TimeScale: timeScale}
	sc := func(ns int64) int64 { return int64(h.ScenarioTime(ns).Round(time.Millisecond)) }
	out := make([]history.FaultStep, len(plan))
	for i, st := range plan {
		st.ID, st.Promotions = 0, nil
		st.Duration, st.Delta, st.Latency, st.Jitter = sc(st.Duration), sc(st.Delta), sc(st.Latency), sc(st.Jitter)
		st.Trigger.At, st.Trigger.Delay = sc(st.Trigger.At), sc(st.Trigger.Delay)
		if st.Toxic != nil {
			t := *st.Toxic
			t.Attributes = maps.Clone(t.Attributes)
			for _, k := range []string{"latency", "jitter", "delay", "timeout"} {
				if v, ok := t.Attributes[k]; ok {
					t.Attributes[k] = sc(v*int64(time.Millisecond)) / int64(time.Millisecond)
				}
			}
			st.Toxic = &t
		}
		out[i] = st
	}
	return out
}

// samePlan tells whether two runs planned the same fault steps, compared
// as structured data in scenario time (scenarioPlan), never as words.
func samePlan(a, b Results) bool {
	return reflect.DeepEqual(scenarioPlan(a.Plan, a.TimeScale), scenarioPlan(b.Plan, b.TimeScale))
}

// sameFaults tells whether two runs planned the same faults, fired at
// another moment or on another trigger.
func sameFaults(a, b Results) bool {
	x, y := scenarioPlan(a.Plan, a.TimeScale), scenarioPlan(b.Plan, b.TimeScale)
	for i := range x {
		x[i].Trigger = history.Trigger{}
	}
	for i := range y {
		y[i].Trigger = history.Trigger{}
	}
	return reflect.DeepEqual(x, y)
}

// diffLine is one line of a "what to change" diff: Op is "-", "+" or " ".
type diffLine struct{ Op, Text string }

// codeChange is one change a fix makes, as a comment and the code.
type codeChange struct {
	Note  string
	Lines []diffLine
}

// pairView is a broken run beside the run of its fixed_by scenario.
type pairView struct {
	Broken, Fixed       runCard
	Seeds, Faults, Axis string
	// FixedLabel heads the fixed side: "fixed" only when the run shown
	// there is valid, "no evidence" otherwise (FixedClass "fixed" or
	// "noevidence"); Evidence tells how many seeds of each file this suite
	// ran and how many the fix was valid in (never a bare VALID).
	FixedLabel, FixedClass string
	Evidence               []string
	// Question is the lesson file's "predict before you look" question
	// for this pair, "" when it has none.
	Question string
	// Strip is what each side showed of the lesson's requirements
	// (Shows), one row per requirement.
	Strip []stripRow
	// Timelines is the two runs' SVG timelines, one above the other on
	// one time axis (a sync group: zooming one zooms both); "" when a
	// run's drawing was not kept (a later run of the scenario).
	Timelines template.HTML
	Changes   []codeChange
	YAML      []diffLine
	YAMLNone  bool
}

// runFields is a run's scenario as path → value (scenario.Flatten of its
// normalised scenario.yaml); nil when the run kept none.
func runFields(r Results) map[string]string {
	if r.ReportDir == "" {
		return nil
	}
	raw, err := os.ReadFile(filepath.Join(r.ReportDir, "scenario.yaml"))
	if err != nil {
		return nil
	}
	m, err := scenario.Flatten(raw)
	if err != nil {
		return nil
	}
	return m
}

// changes are the code changes from broken to fixed, chosen by what the
// two runs' headers say of them (algorithm, traits, fencing, workload
// parameters, persistence) and by the fields their scenario files differ
// in (claim-first, check-and-set, the failure record's check, the TTL of
// one algorithm), in this order.
func changes(lang Lang, b, f Results) []codeChange {
	return changesOf(lang, b, f, runFields(b), runFields(f))
}

// changesOf is changes with the two scenarios' fields given (bf, ff: path
// → value, as scenario.Flatten gives them; nil when unknown).
func changesOf(lang Lang, b, f Results, bf, ff map[string]string) []codeChange {
	var out []codeChange
	add := func(note string, lines ...string) {
		c := codeChange{Note: note}
		for _, l := range lines {
			c.Lines = append(c.Lines, diffLine{Op: l[:1], Text: l[1:]})
		}
		out = append(out, c)
	}
	param := func(r Results, k string) bool { return r.Params[k] != 0 }
	if b.Algorithm == "no-lock" && f.Algorithm != "no-lock" {
		add(tr(lang, "diff.shared"), "-func Acquire(key string) { return }", "+func Acquire(key string) { sharedMutex.Lock() }")
	}
	if b.Algorithm == "naive" && f.Algorithm != "naive" {
		add(tr(lang, "diff.unlock"),
			"-DEL lock-key",
			"+EVAL \"if redis.call('GET', KEYS[1]) == ARGV[1] then",
			"+        return redis.call('DEL', KEYS[1])",
			"+      end",
			"+      return 0\" 1 lock-key owner-token")
	}
	if b.Algorithm == "setnx-expire" && f.Algorithm != "setnx-expire" {
		add(tr(lang, "diff.ttl"), "-SETNX lock-key owner-token", "-PEXPIRE lock-key ttl", "+SET lock-key owner-token NX PX ttl")
	}
	if b.Algorithm == "redlock-nocheck" && f.Algorithm == "redlock" {
		add(tr(lang, "diff.validity"),
			" granted := setOnEveryNode(key, token, ttl) >= quorum",
			"+validity := ttl - elapsed - drift",
			"+if validity <= 0 { unlockEveryNode(key, token); return retry }")
	}
	if f.Algorithm == "watchdog" && b.Algorithm != "watchdog" {
		add(tr(lang, "diff.watchdog"),
			"+for range time.Tick(ttl / 3) {",
			"+    EVAL \"if redis.call('GET', KEYS[1]) == ARGV[1] then",
			"+            return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0\" 1 lock-key owner-token ttl",
			"+    if err != nil || reply == 0 { job.Stop(); break }   // failed, timed out or key gone: the lock is lost",
			"+}")
	}
	bFenced, fFenced := slices.Contains(b.Traits, history.TraitFenced), slices.Contains(f.Traits, history.TraitFenced)
	if fFenced && !bFenced {
		add(tr(lang, "diff.fence.grant"),
			"-SET lock-key owner-token NX PX ttl",
			"+EVAL \"if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then",
			"+        return redis.call('INCR', KEYS[2])",
			"+      end\" 2 lock-key fence-counter owner-token ttl")
	}
	turnedOn := func(path string) bool { return ff[path] == "true" && bf[path] != "true" }
	// Check-and-set claims with the lock's unique token (its own step
	// below), never with a fencing token.
	if turnedOn("workload.claim") && ff["workload.check_and_set"] != "true" {
		add(tr(lang, "diff.claim"),
			" grant := acquire(key)",
			"+resource.Claim(key, grant.token)   // at once, before anything slow",
			" work(); resource.Write(key, value, grant.token)")
	}
	if turnedOn("workload.check_and_set") {
		add(tr(lang, "diff.cas"),
			"+resource.SetCurrlock(key, grant.token)   // at once, after the grant",
			"+if currlock[key] != grant.token { refuse }   // in the same step as the write",
			" accept(write)")
	}
	if ff["workload.failure_record"] != bf["workload.failure_record"] && ff["workload.failure_record"] == "token" {
		add(tr(lang, "diff.failurerecord"),
			"-HSET job failedReason err",
			"+EVAL \"if redis.call('GET', KEYS[1]) == ARGV[1] then",
			"+        return redis.call('HSET', KEYS[2], 'failedReason', ARGV[2])",
			"+      end return 0\" 2 lock-key job owner-token err")
	}
	if bt, ft := bf["ttl"], ff["ttl"]; b.Algorithm == f.Algorithm && bt != "" && ft != "" && bt != ft {
		add(tr(lang, "diff.ttlvalue"), "-ttl := "+bt, "+ttl := "+ft)
	}
	if param(f, history.ParamEpochCheck) && !param(b, history.ParamEpochCheck) {
		add(tr(lang, "diff.epoch"), "+if write.epoch < highestEpoch { refuse }", "+highestEpoch = write.epoch", " accept(write)")
	} else if f.FencingEnforced && !b.FencingEnforced {
		w := tr(lang, "wl.write."+f.Workload)
		add(tr(lang, "diff.fence"), "+if token < highestToken[key] { refuse }   // "+w, "+highestToken[key] = token", " accept(write)")
	}
	if f.Algorithm == "atomic-lua" && b.Algorithm != "atomic-lua" {
		add(tr(lang, "diff.stock"),
			"-lock(item); stock := GET stock-key",
			"-if stock > 0 { SET stock-key stock-1 }; unlock(item)",
			"+EVAL \"local s = tonumber(redis.call('GET', KEYS[1]))",
			"+      if s ~= nil and s > 0 then return redis.call('DECR', KEYS[1]) end",
			"+      return -1\" 1 stock-key")
	}
	if param(f, history.ParamIdempotency) && !param(b, history.ParamIdempotency) {
		add(tr(lang, "diff.idempotency"), "-gateway.Charge(invoice)", "+gateway.Charge(invoice, IdempotencyKey(invoice))")
	}
	if param(f, history.ParamLockPerFire) && !param(b, history.ParamLockPerFire) {
		add(tr(lang, "diff.perfire"), "-key := \"lock:\" + job", "+key := \"lock:\" + job + \"@\" + fireTime", "-release(key)")
	}
	switch {
	case f.Algorithm == "safe-wait-all" && b.Algorithm == "safe-wait":
		add(tr(lang, "diff.wait", tr(lang, "diff.wait.all")),
			"-if WAIT 1 timeout < 1 { release(); return retry }",
			"+if WAIT replicas timeout < replicas { release(); return retry }")
	case strings.HasSuffix(f.Algorithm, "-wait") && !strings.Contains(b.Algorithm, "-wait"):
		add(tr(lang, "diff.wait", tr(lang, "diff.wait.one")), " SET lock-key owner-token NX PX ttl",
			"+if WAIT 1 timeout < 1 {   // WAIT returns how many replicas acknowledged",
			"+    release(); return retry",
			"+}")
	}
	// Persistence: the nodes the fix made aof-always (every node, or the
	// few node_persistence names).
	var aofNodes []string
	var before []string
	for _, n := range sortedKeys(f.Persistence) {
		if f.Persistence[n] == "aof-always" && b.Persistence[n] != "aof-always" {
			aofNodes = append(aofNodes, n)
			if p := b.Persistence[n]; !slices.Contains(before, p) {
				before = append(before, p)
			}
		}
	}
	if len(aofNodes) > 0 {
		var lines []string
		for _, p := range before {
			switch p {
			case "rdb":
				lines = append(lines, "-appendonly no        # rdb")
			case "aof-everysec":
				lines = append(lines, "-appendfsync everysec")
			default:
				lines = append(lines, "-appendonly no")
			}
		}
		lines = append(lines, "+appendonly yes       # "+strings.Join(aofNodes, ", "), "+appendfsync always")
		add(tr(lang, "diff.aof"), lines...)
	}
	return out
}

// yamlDiff is the unified diff of the two runs' normalised scenario.yaml,
// without the lines that differ by name and description alone.
func yamlDiff(b, f Results) (lines []diffLine, ok bool) {
	read := func(r Results) []string {
		if r.ReportDir == "" {
			return nil
		}
		raw, err := os.ReadFile(filepath.Join(r.ReportDir, "scenario.yaml"))
		if err != nil {
			return nil
		}
		var keep []string
		for _, l := range difflib.SplitLines(string(raw)) {
			if strings.HasPrefix(l, "name:") || strings.HasPrefix(l, "description:") || strings.HasPrefix(l, "description_vi:") ||
				strings.HasPrefix(l, "seed:") || strings.HasPrefix(l, "lesson:") {
				continue
			}
			keep = append(keep, l)
		}
		return keep
	}
	a, c := read(b), read(f)
	if a == nil || c == nil {
		return nil, false
	}
	text, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{A: a, B: c, Context: 1})
	if err != nil {
		return nil, false
	}
	for _, l := range difflib.SplitLines(text) {
		l = strings.TrimRight(l, "\n")
		switch {
		case l == "", strings.HasPrefix(l, "---"), strings.HasPrefix(l, "+++"):
		case strings.HasPrefix(l, "@@"):
			lines = append(lines, diffLine{Op: "@", Text: "…"})
		default:
			lines = append(lines, diffLine{Op: l[:1], Text: l[1:]})
		}
	}
	return lines, true
}

// pairOf puts a broken run beside its fix, saying what they share; sync
// names the pair's time axis on its page.
func pairOf(lang Lang, b, f *suiteRun, sync string) pairView {
	p := pairView{Broken: b.Card, Fixed: f.Card, FixedLabel: tr(lang, "lesson.fixed"), FixedClass: "fixed"}
	switch {
	case f.R.Verdict != checker.Valid || f.R.Error != "" || f.R.Aborted:
		p.FixedLabel, p.FixedClass = tr(lang, "lesson.noevidence"), "noevidence"
	case isControl(f.R.Algorithm):
		// An in-process lock every client shares tests the checkers; it
		// spans no pods, so it is no fix a reader can deploy.
		p.FixedLabel, p.FixedClass = tr(lang, "lesson.control"), "noevidence"
	}
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
	default:
		p.Faults = tr(lang, "lesson.fault.diff", b.Card.Faults, f.Card.Faults)
	}
	bs, fs := fmtT(b.R.ScenarioSeconds), fmtT(f.R.ScenarioSeconds)
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
	} else if bs == fs {
		p.Axis = tr(lang, "lesson.axis.same", bs)
	} else {
		p.Axis = tr(lang, "lesson.axis.diff", bs, fs)
	}
	p.Changes = changes(lang, b.R, f.R)
	if y, ok := yamlDiff(b.R, f.R); ok {
		p.YAML = y
		p.YAMLNone = len(y) == 0
	}
	return p
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
	Requirements       []string
	Takeaways, Caveats []string
	Nav                []navItem
	Pairs              []pairView
	Missing            []string
	More               []runCard
	NoPair             bool
	Index, Req         string
	ReqLabel           string
	IndexLabel         string
	// The timelines' stylesheet and script, when a pair draws its runs.
	TimelineCSS template.CSS
	TimelineJS  template.JS
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
		b, f := pairShown(r, runs)
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
// and of its fix: the lowest seed whose fix run is valid, or, when no run
// of the fix is, the lowest seed (its fixed side is then shown as no
// evidence). The page states every seed's count beside it.
func pairShown(r *suiteRun, runs []*suiteRun) (broken, fixed *suiteRun) {
	var cands [][2]*suiteRun
	for _, b := range runs {
		if !sameRunFile(b, r) {
			continue
		}
		if f := fixOf(b, runs); f != nil && f.R.Seed == b.R.Seed {
			cands = append(cands, [2]*suiteRun{b, f})
		}
	}
	if len(cands) == 0 {
		return r, fixOf(r, runs)
	}
	slices.SortStableFunc(cands, func(x, y [2]*suiteRun) int { return cmp.Compare(x[0].R.Seed, y[0].R.Seed) })
	for _, c := range cands {
		if c[1].R.Verdict == checker.Valid && c[1].R.Error == "" && !c[1].R.Aborted {
			return c[0], c[1]
		}
	}
	return cands[0][0], cands[0][1]
}

// seedTally counts the runs of r's scenario file in the suite by verdict
// (an error, an aborted run counted as such), with the seeds' range.
type seedTally struct {
	N, Valid, Invalid, Unknown, Error int
	Lo, Hi                            int64
}

func tallyOf(r *suiteRun, runs []*suiteRun) seedTally {
	var t seedTally
	for _, o := range runs {
		if !sameRunFile(o, r) {
			continue
		}
		if t.N == 0 || o.R.Seed < t.Lo {
			t.Lo = o.R.Seed
		}
		if t.N == 0 || o.R.Seed > t.Hi {
			t.Hi = o.R.Seed
		}
		t.N++
		switch {
		case o.R.Error != "" || o.R.Aborted:
			t.Error++
		case o.R.Verdict == checker.Valid:
			t.Valid++
		case o.R.Verdict == checker.Invalid:
			t.Invalid++
		default:
			t.Unknown++
		}
	}
	return t
}

// seedsWord is a tally's seeds: "seed 42" or "seeds 42–51".
func (t seedTally) seedsWord(lang Lang) string {
	if t.Lo == t.Hi {
		return tr(lang, "lesson.seeds.one", t.Lo)
	}
	return tr(lang, "lesson.seeds.range", t.Lo, t.Hi)
}

// others says what a tally's runs that were not valid came out as.
func (t seedTally) others(lang Lang) string {
	var parts []string
	for _, c := range []struct {
		n   int
		key string
	}{{t.Invalid, "verdict.invalid"}, {t.Unknown, "verdict.unknown"}, {t.Error, "suite.error"}} {
		if c.n > 0 {
			parts = append(parts, strconv.Itoa(c.n)+" "+tr(lang, c.key))
		}
	}
	return joinAnd(lang, parts)
}

// evidence is what a pair's page says of the seeds behind it: how often the
// broken file was invalid and the fix valid, over how many seeds; a fix
// run at fewer than MinEvidenceSeeds seeds is said to be too few.
func evidence(lang Lang, b, f *suiteRun, runs []*suiteRun) []string {
	bt, ft := tallyOf(b, runs), tallyOf(f, runs)
	out := []string{tr(lang, "lesson.evidence.broken", bt.Invalid, bt.N, bt.seedsWord(lang))}
	fix := tr(lang, "lesson.evidence.fixed", ft.Valid, ft.N, ft.seedsWord(lang))
	if ft.Valid < ft.N {
		fix += " " + tr(lang, "lesson.evidence.rest", ft.others(lang))
	}
	out = append(out, fix)
	if ft.N < MinEvidenceSeeds {
		out = append(out, tr(lang, "lesson.evidence.few", MinEvidenceSeeds, b.R.File, f.R.File, MinEvidenceSeeds))
	} else if ft.Valid == ft.N {
		out = append(out, tr(lang, "lesson.evidence.scope"))
	}
	return out
}

// writeLessonPages writes one page per lesson the runs name.
func writeLessonPages(outDir string, lang Lang, runs []*suiteRun) error {
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
			Index: IndexFile, Req: RequirementsFile, NoPair: len(g.Pairs) == 0}
		l := texts[n]
		if l != nil {
			pg.Goal = l.Goal.In(string(normLang(lang)))
			for _, r := range l.Requirements {
				pg.Requirements = append(pg.Requirements, tr(lang, "req."+reqCode(r)))
			}
			for _, t := range l.Takeaways {
				pg.Takeaways = append(pg.Takeaways, t.In(string(normLang(lang))))
			}
			for _, c := range l.Caveats {
				pg.Caveats = append(pg.Caveats, c.In(string(normLang(lang))))
			}
		}
		for i, p := range g.Pairs {
			pv := pairOf(lang, p[0], p[1], "pair-"+strconv.Itoa(i))
			pv.Evidence = evidence(lang, p[0], p[1], runs)
			reqs := Requirements()
			if l != nil {
				if q, ok := l.Question(p[0].R.File); ok {
					pv.Question = q.In(string(normLang(lang)))
				}
				reqs = nil
				for _, r := range l.Requirements {
					reqs = append(reqs, reqCode(r))
				}
			}
			pv.Strip = strip(lang, p[0].R, p[1].R, reqs)
			if pv.Timelines != "" {
				pg.TimelineCSS, pg.TimelineJS = template.CSS(chart.TimelineCSS()), template.JS(chart.TimelineJS)
			}
			pg.Pairs = append(pg.Pairs, pv)
		}
		for _, r := range g.Missing {
			pg.Missing = append(pg.Missing, tr(lang, "lesson.missing.fix", r.R.Scenario, r.R.FixedBy))
			pg.More = append(pg.More, r.Card)
		}
		for _, r := range g.Others {
			pg.More = append(pg.More, r.Card)
		}
		if err := writeTemplate(filepath.Join(outDir, LessonFile(n)), t, pg); err != nil {
			return err
		}
	}
	return nil
}

// stripRow is one requirement as a pair's two runs showed it.
type stripRow struct {
	Requirement    string
	Broken, Fixed  string // the showing's mark and word
	BClass, FClass string // req-kept, req-broken or empty
}

// stripCell tells what run r showed of req: kept, broken or not shown;
// for safety kept while two clients believed they held the lock (an
// informational overlap: the resource refused the stale write), the
// course's definition broken and the harm prevented.
func stripCell(lang Lang, r Results, req string) (text, class string) {
	switch Shows(r, req) {
	case Kept:
		if req == ReqSafety && slices.ContainsFunc(r.Anomalies, func(a checker.Anomaly) bool {
			return a.Informational && a.Kind == checker.KindMutexOverlap
		}) {
			return "✔ " + tr(lang, "lesson.strip.prevented"), "req-kept"
		}
		return "✔ " + tr(lang, "req.kept"), "req-kept"
	case Broken:
		return "✘ " + tr(lang, "req.broken"), "req-broken"
	}
	return "– " + tr(lang, "lesson.strip.notshown"), ""
}

// strip is a pair's requirements strip over the lesson's requirements
// (reqs: report codes, in the course's order).
func strip(lang Lang, b, f Results, reqs []string) []stripRow {
	var out []stripRow
	for _, req := range reqs {
		row := stripRow{Requirement: tr(lang, "req."+req)}
		row.Broken, row.BClass = stripCell(lang, b, req)
		row.Fixed, row.FClass = stripCell(lang, f, req)
		out = append(out, row)
	}
	return out
}

// reqCode is the report's code of a requirement as a lesson file names
// it (lesson.Requirements and Requirements are in the same order).
func reqCode(name string) string {
	if i := slices.Index(lesson.Requirements, name); i >= 0 && i < len(Requirements()) {
		return Requirements()[i]
	}
	return name
}

// reqCell is one cell of the requirements grid.
type reqCell struct {
	Runs  []reqRun
	Empty string // what is missing, when no run shows it
	NA    string
}

type reqRun struct {
	Name, Link, Verdict, VerdictWord, Showing, Mark string
}

type reqRow struct {
	Algorithm string
	Cells     []reqCell
}

type reqPage struct {
	Lang        Lang
	Title, Head string
	Nav         []navItem
	Cols        []string
	Rules       []string
	Rows        []reqRow
	Index       string
}

// algorithmLabel is a run's row on the requirements page: its algorithm
// (the library's name for redsync and redislock; a lock client process
// is "process" with its adapter's file name).
func algorithmLabel(r Results) string {
	if r.Library != "" {
		return r.Algorithm + ": " + r.Library
	}
	return r.Algorithm
}

// writeRequirements writes requirements.html: algorithm × requirement.
func writeRequirements(outDir string, lang Lang, runs []*suiteRun) error {
	pg := reqPage{Lang: lang, Title: tr(lang, "req.page.title"), Head: tr(lang, "req.title"),
		Nav: lessonNav(lang, lessonsOf(runs), 0), Index: IndexFile}
	for _, req := range Requirements() {
		pg.Cols = append(pg.Cols, tr(lang, "req."+req))
		pg.Rules = append(pg.Rules, tr(lang, "req."+req)+": "+tr(lang, "req."+req+".rule"))
	}
	var algs []string
	byAlg := map[string][]*suiteRun{}
	for _, r := range runs {
		if !Judged(r.R) {
			continue // an error, an interrupted or an unknown run proves nothing
		}
		a := algorithmLabel(r.R)
		if _, ok := byAlg[a]; !ok {
			algs = append(algs, a)
		}
		byAlg[a] = append(byAlg[a], r)
	}
	slices.Sort(algs)
	for _, a := range algs {
		row := reqRow{Algorithm: a}
		for _, req := range Requirements() {
			var cell reqCell
			seen := map[string]bool{}
			lockFreeOnly := true
			for _, r := range byAlg[a] {
				lockFreeOnly = lockFreeOnly && lockFree(r.R)
				s := Shows(r.R, req)
				if s == NotShown || seen[r.R.Scenario+string(rune(s))] {
					continue
				}
				seen[r.R.Scenario+string(rune(s))] = true
				rr := reqRun{Name: r.R.Scenario, Link: r.Card.Link, Verdict: string(r.R.Verdict), VerdictWord: tr(lang, "verdict."+string(r.R.Verdict))}
				if s == Kept {
					rr.Showing, rr.Mark = tr(lang, "req.kept"), "✔"
				} else {
					rr.Showing, rr.Mark = tr(lang, "req.broken"), "✘"
				}
				cell.Runs = append(cell.Runs, rr)
			}
			need := tr(lang, "req.need.any")
			switch req {
			case ReqFaultTolerance:
				need = tr(lang, "req.need.fault")
			case ReqDeadlockFree:
				need = tr(lang, "req.need.holder")
			}
			var ran []string
			for _, r := range byAlg[a] {
				if !slices.Contains(ran, r.R.Scenario) {
					ran = append(ran, r.R.Scenario)
				}
			}
			switch {
			case len(cell.Runs) > 0:
			case lockFreeOnly && req != ReqSafety:
				cell.NA = tr(lang, "req.na", a)
			case req == ReqLiveness:
				cell.Empty = tr(lang, "req.empty")
			default:
				// Its runs did not test it (no such fault) or their
				// findings do not tell (an overlap of unknown cause).
				cell.Empty = tr(lang, "req.undecided", joinAnd(lang, ran), a, need)
			}
			row.Cells = append(row.Cells, cell)
		}
		pg.Rows = append(pg.Rows, row)
	}
	t, err := page.Parse("req", suiteCSS+requirementsTemplate, pageFuncs(lang))
	if err != nil {
		return fmt.Errorf("parse requirements template: %w", err)
	}
	return writeTemplate(filepath.Join(outDir, RequirementsFile), t, pg)
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
	return os.WriteFile(path, b.Bytes(), 0o644)
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
