package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/report/page"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
	"github.com/locksim/locksim/internal/workload"
)

//go:embed index.html.tmpl
var indexTemplate string

type pageStep struct {
	T, Text, Kind, Claim string
	Info                 bool
}

type pageAnomaly struct {
	Kind, Clients, Key, Window, Explain, Why, Checker string
	Claim                                             string // the anomaly's claim
	Informational                                     bool
}

// pageChecker is one row of the checkers table: the summary in the page's
// language, rendered from the checker's data, and in a language other
// than English the checker's own English words beside it; Claim the ids
// of the claims of its findings.
type pageChecker struct {
	Checker, Verdict, Summary, English, Claim string
}

type pageRun struct {
	Name, Value string
	Code        bool
}

// runPage is index.html's data.
type runPage struct {
	Lang               Lang
	Title, Description string
	DescriptionLang    string // "en" when a non-English page falls back to the English description
	Aborted, Cut       bool
	Emulated           bool
	Fix                *remedy
	FixedReport        string // relative link to the fixed scenario's latest report, when present
	Rate               bool
	// NoAcquires says, in place of the acquire charts, that no worker
	// tried to acquire a lock (a lock-free run: idempotency-key,
	// inventory-atomic-lua drew two empty charts; reader 15).
	NoAcquires           string
	NoCharts             string // why the PNGs were not drawn; "" when they were
	EmulatedText         string
	Verdict, VerdictWord string
	// Say is the headline's sentences under the verdict, each with its
	// claim's id.
	Say                     []said
	ExpectClass, ExpectText string
	// ExpectClaim are the claims the expectation's sentence rests on:
	// the checkers' verdicts and findings (Check and Anomaly claims).
	ExpectClaim              string
	Steps                    []pageStep
	Anomalies                []pageAnomaly
	Checkers                 []pageChecker
	TimelineHow, TimelineAlt string
	History                  historyInfo
	Run                      []pageRun
	YAML                     string
	// Timeline is the interactive SVG timeline (chart.RenderSVG), its stylesheet
	// and its script, all inline: the page loads nothing.
	Timeline    template.HTML
	TimelineCSS template.CSS
	TimelineJS  template.JS
	// Why is the run's causes by experiment (why.go); FixedRun the
	// remedy's sentence on its fixed_by run with the same faults.
	Why                     []whyRow
	FixedRun, FixedRunClaim string
	// Control is the run's fixed_by when it is the run without some of
	// its faults (sideWithout): told beside the experiments, not among
	// the remedies (reader9); nil otherwise.
	Control *controlLine
}

// controlLine names a fixed_by that is a control, the same run without
// some faults: what it is, the command that runs it, and its run with the
// same seed (its experiment's claim).
type controlLine struct {
	Text, Cmd, Run, Claim string
}

func buildPage(in Input, m *model, res Results, hist historyInfo, say []said) runPage {
	headline := sayText(say)
	lang := normLang(in.Lang)
	h := in.History.Header
	p := runPage{
		Lang: lang, Title: tr(lang, "title", h.Scenario), Description: description(in), Aborted: in.Aborted, Cut: in.Cut,
		Fix: remedyOf(in, lang, res.Claims), Rate: true,
		Emulated: res.Emulated, EmulatedText: tr(lang, "emulated.warning", tr(lang, "emulated")),
		Verdict: string(res.Verdict), VerdictWord: tr(lang, "verdict."+string(res.Verdict)),
		Say: say, History: hist, YAML: string(in.ScenarioYAML),
		TimelineHow: timelineHow(lang, h.Workload), TimelineAlt: tr(lang, "alt.timeline.run", h.Scenario, headline),
	}
	n := 0 // the row's first anomaly, in allAnomalies' order
	for k, r := range in.Results {
		row := m.checkerRow(lang, r)
		// Its verdict and summary's counts (its Check claim), then its
		// findings.
		ids := []string{nthClaim(res.Claims, claim.Check, k)}
		for i := range r.Anomalies {
			ids = append(ids, nthClaim(res.Claims, claim.Anomaly, n+i))
		}
		n += len(r.Anomalies)
		row.Claim = joinIDs(ids)
		p.Checkers = append(p.Checkers, row)
	}
	p.DescriptionLang = descriptionLang(in)
	if in.Expect != "" {
		var ids []string
		for _, c := range res.Claims {
			if c.Kind == claim.Check || c.Kind == claim.Anomaly {
				ids = append(ids, c.ID)
			}
		}
		p.ExpectClaim = joinIDs(ids)
	}
	expect := expectWords(lang, in.Expect, in.ExpectKinds)
	switch {
	case in.Aborted && in.Expect != "":
		p.ExpectClass, p.ExpectText = "none", tr(lang, "expect.aborted", expect)
	case in.Cut && in.Expect != "":
		p.ExpectClass, p.ExpectText = "none", tr(lang, "expect.cut", expect)
	case res.ExpectationMet == nil && len(in.ScenarioYAML) == 0 && in.ScenarioFile == "":
		// A history checked alone: its scenario, and what it expects, are
		// not known here (a fresh reader: "declares no expected verdict"
		// of a scenario that expects valid).
		p.ExpectClass, p.ExpectText = "none", tr(lang, "expect.none.history")
	case res.ExpectationMet == nil:
		p.ExpectClass, p.ExpectText = "none", tr(lang, "expect.none")
	case *res.ExpectationMet:
		p.ExpectClass, p.ExpectText = "met", tr(lang, "expect.met", expect, tr(lang, "verdict."+string(res.Verdict)))
		if len(res.UnjudgedKinds) > 0 {
			p.ExpectText += " " + tr(lang, "expect.unjudged", kindWords(lang, res.UnjudgedKinds))
		}
		if len(res.UndecidedKinds) > 0 {
			p.ExpectText += " " + tr(lang, "expect.undecided", kindWords(lang, res.UndecidedKinds))
		}
	default:
		p.ExpectClass, p.ExpectText = "notmet", tr(lang, "expect.notmet", expect, tr(lang, "verdict."+string(res.Verdict)))
		if len(res.MissingKinds) > 0 {
			p.ExpectText += " " + tr(lang, "expect.missing", kindWords(lang, res.MissingKinds))
		}
		if len(res.UnexpectedKinds) > 0 {
			p.ExpectText += " " + tr(lang, "expect.unexpected", kindWords(lang, res.UnexpectedKinds))
		}
	}
	for _, s := range narrative(withLang(in, lang), m) {
		p.Steps = append(p.Steps, pageStep{T: instantIn(lang, s.T), Text: s.Text, Kind: s.Kind, Claim: s.Claim, Info: s.Info})
	}
	for i, a := range res.Anomalies {
		p.Anomalies = append(p.Anomalies, pageAnomaly{Kind: m.anomalyWord(lang, a), Clients: strings.Join(a.Clients, ", "), Key: a.Key,
			Window: windowText(lang, a), Explain: m.describeAnomaly(lang, a), Why: m.whyAnomaly(lang, a),
			Checker: a.Explain, Informational: a.Informational, Claim: nthClaim(res.Claims, claim.Anomaly, i)})
	}
	backend := h.Backend
	if res.Emulated {
		backend += " — " + tr(lang, "emulated")
	}
	redis := h.RedisVersion
	if redis == "" {
		redis = tr(lang, "unknown.value")
	}
	if res.Emulated {
		redis += " (" + tr(lang, "emulated") + ")"
	}
	add := func(k, v string, code bool) {
		if v != "" {
			p.Run = append(p.Run, pageRun{Name: tr(lang, k), Value: v, Code: code})
		}
	}
	add("run.file", in.ScenarioFile, true)
	add("run.seed", strconv.FormatInt(h.Seed, 10), true)
	add("run.reproduce", in.Reproduce, true)
	add("run.algorithm", h.Algorithm, true)
	add("run.workload", h.Workload, true)
	add("run.backend", backend, false)
	add("run.redis", redis, false)
	add("run.scale", tr(lang, "run.scale.text", number(res.TimeScale)), false)
	add("run.scenario.s", span(res.ScenarioSeconds).in(lang), false)
	if res.WallSeconds > 0 {
		// Not known of a history checked on its own (locksim check of a
		// history.jsonl with no results.json beside it): no row, not 0 s.
		add("run.wall", tr(lang, "run.wall.text", res.WallSeconds), false)
	}
	if t := loadRow(lang, in); t != "" {
		add("run.lag", t, false)
	}
	add("run.wallrate", wallRateText(lang, h), false)
	add("run.version", in.Version, true)
	return p
}

// wallRateText is the host clock row: the rate the host's wall clock
// ran at against the run's clock (Header.WallRate), on which Redis counts
// TTLs, when it differed by 0.01 % or more; "" otherwise.
func wallRateText(lang Lang, h history.Header) string {
	r := h.WallRate
	if r <= 0 || math.Abs(r-1) < 1e-4 {
		return ""
	}
	key := "run.wallrate.fast"
	if r < 1 {
		key = "run.wallrate.slow"
	}
	if math.Abs(r-1) > checker.MaxWallDrift {
		return tr(lang, "run.wallrate.apart", r) // stepped: no one rate to allow for
	}
	return tr(lang, key, r, 100*math.Abs(1-1/r))
}

// lagText is the machine load row: the run's worst lateness (the
// header's, wall and scenario time) and, when a client began its workload
// late (history.LateStart), which one, by how much and when it was
// planned; "" when nothing was measured.
func lagText(lang Lang, h history.History) string {
	lag := h.Header.MaxTimerLagNS
	if lag <= 0 {
		return ""
	}
	wall, scen, rule := float64(lag)/1e6, float64(lag)*h.Header.TimeScale/1e9, lagRule(lang, h)
	if op, ok := h.LateStart(); ok {
		return tr(lang, "run.lag.start", wall, scen, op.Client, float64(op.Complete-op.Invoke)/1e6, instant(h.Header.ScenarioSeconds(op.Invoke)), rule)
	}
	return tr(lang, "run.lag.text", wall, scen, rule)
}

// loadRow is the machine load row of the run in: lagText, and whether
// this run's lateness crossed the bound it states.
func loadRow(lang Lang, in Input) string {
	row := lagText(lang, in.History)
	h := in.History
	if row == "" {
		return ""
	}
	// Reader 14: a row over its own bound beside an invalid verdict, and
	// one under it beside a run a stalled command spoiled, each read as
	// the page contradicting itself.
	if h.Header.MaxTimerLagNS >= checker.LatenessBound(h).NS {
		switch in.Verdict {
		case checker.Invalid:
			return row + tr(lang, "run.lag.over.stands")
		case checker.Unknown:
			return row + tr(lang, "run.lag.over")
		}
		return row
	}
	for _, r := range in.Results {
		if r.Checker == checker.CheckerCoverage && r.Stall != nil {
			if w := stallWhat(lang, h, *r.Stall); w != "" {
				return row + tr(lang, "run.lag.under.stall", w)
			}
		}
		if r.Checker == checker.CheckerCoverage && r.Edge != nil {
			if w := edgeWhat(lang, h, r.Edge); w != "" {
				return row + tr(lang, "run.lag.under.edge", w)
			}
		}
		if r.Checker == checker.CheckerCoverage && r.Drift != nil {
			if w := driftWhat(lang, h, r.Drift); w != "" {
				return row + tr(lang, "run.lag.under.drift", w)
			}
		}
	}
	return row
}

// stallWhat names the client command at history index i that stalled
// the run with no fault to explain it (coverage's Result.Stall): whose,
// to which node, when, and how long it waited (wall); "" when i is not
// one of h's operations.
func stallWhat(lang Lang, h history.History, i int) string {
	if i < 0 || i >= len(h.Ops) {
		return ""
	}
	op := h.Ops[i]
	key := "sum.stall.what"
	if op.Type != history.Info {
		key = "sum.stall.what.late"
	}
	took := float64(op.Complete-op.Invoke) / 1e6
	return tr(lang, key, op.Client, strings.Join(op.Value.Cmd, " "), op.Value.Node, instantMs(h.Header.ScenarioSeconds(op.Invoke)), math.Round(took))
}

// lagRule is the machine load row's rule: the lateness at which a run
// proves nothing, in general and for h, with what set h's bound
// (checker.LatenessBound, the checker's own figure).
func lagRule(lang Lang, h history.History) string {
	b := checker.LatenessBound(h)
	by := tr(lang, "run.lag.by.floor")
	switch {
	case b.Step > 0:
		for _, st := range h.Header.Plan {
			if st.ID == b.Step {
				by = tr(lang, "run.lag.by.window", st.ID, faultWord(lang, st), joinAnd(lang, targetsOf(st)), span(h.Header.ScenarioTime(b.Window).Seconds()))
			}
		}
	case b.TTL > 0:
		by = tr(lang, "run.lag.by.ttl", span(h.Header.ScenarioTime(b.TTL).Seconds()))
	}
	return tr(lang, "run.lag.rule", checker.MaxTimerLag.Milliseconds(), float64(b.NS)/1e6, by)
}

func withLang(in Input, lang Lang) Input { in.Lang = lang; return in }

// descriptionLang is "en" when a page in another language shows the
// English description for want of its own, "" otherwise.
func descriptionLang(in Input) string {
	if normLang(in.Lang) != English && in.DescriptionVI == "" && in.Description != "" {
		return string(English)
	}
	return ""
}

// timelineHow is the timeline's legend in the words of the workload: a
// permit or a lock held, the protected object, what a write is.
func timelineHow(lang Lang, wl string) string {
	hold := tr(lang, "wl.hold.lock")
	if k, _ := workload.Lookup(wl); k.Permits {
		hold = tr(lang, "wl.hold.semaphore")
	}
	if _, ok := messages[English]["wl."+wl]; !ok {
		return tr(lang, "h.timeline.how")
	}
	return tr(lang, "h.timeline.how.wl", hold, tr(lang, "wl."+wl), tr(lang, "wl.write."+wl))
}

// checkerRow renders a checker's result: in English its own summary; in
// another language a summary rendered from its data (verdict, findings'
// kinds, missed steps, lost timing), with the English one beside it.
func (m *model) checkerRow(lang Lang, r checker.Result) pageChecker {
	row := pageChecker{Checker: r.Checker, Verdict: string(r.Verdict), Summary: r.Summary}
	if r.NotChecked {
		// Nothing to check is no check that found nothing (issue 27):
		// its Valid verdict is shown as not checked, in every language.
		row.Verdict = "notchecked"
	}
	if lang == English {
		return row
	}
	row.English = r.Summary
	row.Summary = m.dataSummary(lang, r)
	return row
}

// dataSummary is a checker's finding told from its data alone.
func (m *model) dataSummary(lang Lang, r checker.Result) string {
	if r.NotChecked {
		what := "sum.notchecked." + r.Checker
		if _, ok := messages[English][what]; !ok {
			return tr(lang, "verdict.notchecked")
		}
		return tr(lang, "sum.notchecked", tr(lang, what))
	}
	if r.Verdict == checker.Unknown || r.OffPlan || r.TimingLost || len(r.Missed) > 0 {
		switch {
		case len(r.Marginal) > 0:
			return tr(lang, "sum.margin")
		case r.Exposure != nil && !r.ViolationsStand && r.Exposure.Short != nil && r.Exposure.Short.Granted > 0:
			return tr(lang, "sum.exposure.late")
		case r.Exposure != nil && !r.ViolationsStand && r.Exposure.Short != nil:
			return tr(lang, "sum.exposure.short")
		case r.Exposure != nil && !r.ViolationsStand:
			return tr(lang, "sum.exposure")
		case r.ViolationsStand && len(r.Missed) > 0:
			return tr(lang, "sum.missed.stands", m.missedSteps(lang, r.Missed))
		case r.ViolationsStand && r.Stall != nil && stallWhat(lang, m.h, *r.Stall) != "":
			return tr(lang, "sum.stall.stands", stallWhat(lang, m.h, *r.Stall))
		case r.ViolationsStand && r.TimingLost && m.lateWhat(lang, r.Late) != "":
			return tr(lang, "sum.stall.stands", m.lateWhat(lang, r.Late))
		case r.ViolationsStand && r.TimingLost:
			return tr(lang, "sum.busy.stands")
		case r.ViolationsStand:
			return tr(lang, "sum.unknown.stands")
		case len(r.Missed) > 0:
			return tr(lang, "sum.missed", m.missedSteps(lang, r.Missed))
		case r.OffPlan:
			return tr(lang, "sum.offplan")
		case r.HostClock:
			return tr(lang, "sum.hostclock")
		case r.Stall != nil && stallWhat(lang, m.h, *r.Stall) != "":
			// The command that stalled it, as English's checker words
			// name it (reader 14, cat14vi: "too busy" beside a load
			// under its bound).
			return tr(lang, "sum.stall", stallWhat(lang, m.h, *r.Stall))
		case r.TimingLost && m.lateWhat(lang, r.Late) != "":
			// The step that missed its plan, as English's checker words
			// name it (a process thawed on time that said nothing long
			// after: issue 32).
			return tr(lang, "sum.stall", m.lateWhat(lang, r.Late))
		case r.TimingLost:
			return tr(lang, "sum.busy")
		case r.Edge != nil && edgeWhat(lang, m.h, r.Edge) != "":
			return tr(lang, "sum.stall", edgeWhat(lang, m.h, r.Edge))
		case r.Drift != nil && driftWhat(lang, m.h, r.Drift) != "":
			return tr(lang, "sum.drift", r.Drift.Client, driftWhat(lang, m.h, r.Drift))
		case r.RaceLost:
			return tr(lang, "sum.race")
		case r.ShortOfGrants:
			return tr(lang, "sum.shortofgrants")
		case r.Untested > 0:
			return tr(lang, "sum.untested", r.Untested)
		case r.Verdict == checker.Unknown:
			return tr(lang, "sum.unknown")
		}
	}
	var words []string
	n, info := 0, true
	for _, a := range r.Anomalies {
		n++
		info = info && a.Informational
		if w := m.anomalyWord(lang, a); !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	switch {
	case n == 0 && r.Checker == checker.CheckerLiveness && r.Counts[claim.FinalProbes] == 0:
		// No final probe: the refused acquires alone were judged (reader 13).
		return tr(lang, "sum.liveness.noprobe", r.Counts[claim.RefusedAcquires])
	case n == 0 && r.Checker == checker.CheckerCoverage && r.Counts != nil && r.Counts[claim.Faults] == 0:
		// What English says of a run with no faults (reader 15, 16:
		// "không thấy vấn đề" beside "no faults in this run: nothing to
		// cover; 3 ok acquires").
		if w, ok := r.Counts[claim.AcceptedWrites]; ok {
			return tr(lang, "sum.coverage.nofaults.writes", w)
		}
		return tr(lang, "sum.coverage.nofaults", r.Counts[claim.OKAcquires])
	case n == 0 && r.Checker == checker.CheckerLiveness && r.Counts[claim.FinalProbes] > 0 && r.Counts[claim.FailedProbes] == 0:
		return tr(lang, "sum.liveness.probes", r.Counts[claim.FinalProbes])
	case n == 0:
		return tr(lang, "sum.valid")
	case info && n == 1:
		// One finding is not "all" of anything (a fresh reader, issue 27:
		// "1 phát hiện, tất cả chỉ mang tính thông tin").
		return tr(lang, "sum.invalid.info.one", n, strings.Join(words, ", "))
	case info:
		return tr(lang, "sum.invalid.info", n, strings.Join(words, ", "))
	case n == 1:
		return tr(lang, "sum.invalid.one", n, strings.Join(words, ", "))
	}
	return tr(lang, "sum.invalid", n, strings.Join(words, ", "))
}

// description is the scenario's description in the report's language:
// description_vi in a vi report when the scenario gives one.
func description(in Input) string {
	if normLang(in.Lang) == Vietnamese && in.DescriptionVI != "" {
		return in.DescriptionVI
	}
	return in.Description
}

// expectWords is the expectation in lang: "INVALID", or with its kinds
// "INVALID (double-effect, mutex-overlap)".
func expectWords(lang Lang, verdict string, kinds []string) string {
	w := tr(lang, "verdict."+verdict)
	if len(kinds) > 0 {
		w += " (" + kindWords(lang, kinds) + ")"
	}
	return w
}

// kindWords lists anomaly kinds as the scenario's expect writes them (the
// same in every language), comma-separated.
func kindWords(_ Lang, kinds []string) string { return strings.Join(kinds, ", ") }

func writeIndex(path string, in Input, m *model, res Results, hist historyInfo, say []said, d *chart.Drawing) error {
	lang := normLang(in.Lang)
	t, err := page.Parse("index", indexTemplate, template.FuncMap{
		"t":  func(key string) string { return tr(lang, key) },
		"tf": func(key string, args ...any) string { return tr(lang, key, args...) },
	})
	if err != nil {
		return fmt.Errorf("parse template: %w", err)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create index: %w", err)
	}
	pg := buildPage(in, m, res, hist, say)
	if d != nil {
		pg.Timeline = template.HTML(chart.RenderSVG(d.Windowed(chart.MaxSVGShapes, focusOf(in, m)), chart.SVGOptions{}))
		pg.TimelineCSS = template.CSS(chart.TimelineCSS())
		pg.TimelineJS = template.JS(chart.TimelineJS)
	}
	if in.SkipCharts {
		cmd := "locksim check " + filepath.Dir(path)
		if lang != English {
			cmd += " --lang " + string(lang)
		}
		pg.NoCharts = tr(lang, "charts.skipped", cmd)
	}
	if !slices.ContainsFunc(in.History.Ops, func(o history.Op) bool { return o.F == history.Acquire }) {
		pg.NoAcquires = tr(lang, "charts.noacquires")
	}
	pg.Why = m.whySection(lang, in, filepath.Dir(path), res.Claims)
	pg.FixedRun, pg.FixedRunClaim = m.fixedRun(lang, in, res.Claims)
	if pg.Fix != nil && (pg.Fix.FixedKey == "fix.fixed.own" || in.FixedBy != nil && in.FixedBy.Side != "") {
		// The fix's own faults, as its experiment's claim names them
		// (redlock-no-clock-jump: the run's without its clock jump).
		if e, ok := claim.Find(res.Claims, func(c claim.Claim) bool {
			return c.ID == pg.FixedRunClaim && (len(c.Steps) > 0 || len(c.Changed) > 0)
		}); ok {
			key := pg.Fix.FixedKey + ".as"
			if pg.Fix.FixedKey == "fix.fixed.own" {
				key = "fix.fixed.own.as"
			}
			pg.Fix.FixedKey, pg.Fix.FixedFaults = key, m.fixFaults(lang, e)
		}
	}
	if pg.Fix != nil && pg.Fix.Fixed != "" && in.FixedBy.Side == FixSideWithout {
		pg.Control = m.control(lang, in, pg.Fix, res.Claims)
		pg.Fix.Fixed, pg.FixedRun, pg.FixedRunClaim = "", "", ""
	}
	if pg.Fix != nil && (pg.Fix.Fixed != "" || pg.Control != nil) && in.FixedBy.Report != "" {
		if rel, err := relLink(filepath.Dir(path), in.FixedBy.Report); err == nil {
			pg.FixedReport = rel
		}
	}
	// Whole in memory: the template writes in hundreds of small pieces,
	// and the page's first use of a loanword is glossed (glossFirstUse).
	var b bytes.Buffer
	if err := t.Execute(&b, pg); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(glossFirstUse(b.Bytes())); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
