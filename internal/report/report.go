package report

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/anishathalye/porcupine"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
	"github.com/locksim/locksim/internal/why"
	"github.com/locksim/locksim/internal/workload"
)

// Input is everything one run's report needs.
type Input struct {
	History history.History
	// Account is the run's account the checkers judged by
	// (checker.Report.Account); nil derives it from History. The report
	// tells what it says and derives nothing of its own.
	Account      *account.Account
	Verdict      checker.Verdict // merged verdict of the run
	Results      []checker.Result
	ScenarioYAML []byte // normalised scenario, written as scenario.yaml
	ScenarioFile string // path given by the user
	Description  string // scenario's description (may be empty)
	// DescriptionVI is the description in Vietnamese (the scenario's
	// description_vi); a vi report shows it, falling back to Description.
	DescriptionVI string
	// Library names the lock client process's adapter (the file name of
	// its program, "redis_py_lock.py"); "" for locksim's own algorithms.
	Library string
	// Lessons are the course lessons (42–51) the scenario illustrates
	// (its lesson:); the suite's lesson pages group runs by them.
	Lessons []int
	Expect  string // "", valid, invalid, unknown
	// ExpectKinds are the non-informational anomaly kinds the run must
	// show, exactly; nil when the kinds are not judged (see Judge).
	ExpectKinds []string
	// FixedBy is the scenario that shows the same fault made harmless
	// (the scenario's fixed_by); nil when it names none.
	FixedBy     *Fixed
	Reproduce   string  // copy-pasteable command, e.g. "locksim run scenarios/gc-pause.yaml --seed 42"
	Version     string  // locksim version
	WallSeconds float64 // wall time of the run, seconds
	// Porcupine is optional; nil means no history.html (the page says so).
	// Its operations' Call/Return times must be the history's true-time ns,
	// so fault windows can be added as annotations on the same axis.
	Porcupine *PorcupineView
	// Lang selects the message table (one of Languages; "" and unknown
	// languages fall back to English).
	Lang Lang
	// Aborted marks a run interrupted before its end (Ctrl-C): the page
	// shows an "ABORTED — partial history" banner and results.json
	// carries "aborted": true.
	Aborted bool
	// Cut marks a history that ends early (its file was cut off while
	// the run streamed it): like Aborted, the page says so, results.json
	// carries "cut": true and the expectation is not judged.
	Cut bool
	// SkipCharts leaves out timeline.png, latency.png and rate.png (a
	// sweep's unremarkable runs, where drawing them is most of a run's
	// CPU); the page says so and how to draw them (locksim check DIR).
	SkipCharts bool
	// KeepDrawing keeps the run's timeline drawing in the Results Write
	// returns (never in results.json), for a suite's lesson pages: they
	// draw a broken run and the run of its fix on one time axis. A suite
	// keeps it for the first run of each scenario only (memory).
	KeepDrawing bool
	// Counterfactuals are the run's experiments (package why): the same
	// seed without each planned fault, and so on. The headline names the
	// faults they found necessary; the page lists them all.
	Counterfactuals []why.Counterfactual
	// Retried are the causes of the earlier tries of a run a suite ran
	// again because the machine spoiled them (Results.Retried).
	Retried []string
}

// PorcupineView is the linearizability result history.html visualises.
type PorcupineView struct {
	Model porcupine.Model
	Info  porcupine.LinearizationInfo
	// Order is the checker's longest order per key (Linearization.Order):
	// history.html draws it; nil draws each key's first longest partial
	// linearization.
	Order map[int]int
}

// Results is results.json (and the --json line on stdout).
type Results struct {
	Scenario     string          `json:"scenario"`
	File         string          `json:"file"`
	Seed         int64           `json:"seed"`
	Backend      string          `json:"backend"` // local | embedded | external
	RedisVersion string          `json:"redis_version"`
	TimeScale    float64         `json:"time_scale"` // scenario s per wall s
	Verdict      checker.Verdict `json:"verdict"`
	Expect       string          `json:"expect"`
	// ExpectKinds are the anomaly kinds the expectation names (null when
	// it judges the verdict only).
	ExpectKinds []string `json:"expect_kinds"`
	// ExpectationMet is null when the scenario declares no expectation
	// (or the run was aborted or its history cut off).
	ExpectationMet *bool `json:"expectation_met"`
	// MissingKinds are expected kinds the run did not show;
	// UnexpectedKinds non-informational kinds it showed unexpected.
	MissingKinds    []string `json:"missing_kinds,omitempty"`
	UnexpectedKinds []string `json:"unexpected_kinds,omitempty"`
	// UnjudgedKinds are expected kinds this run could not show: only node
	// events reveal them and it recorded none (see Judge).
	UnjudgedKinds []string `json:"unjudged_kinds,omitempty"`
	// UndecidedKinds are expected kinds the run's checkers could not
	// decide (Judgement.Undecided): neither shown nor missing.
	UndecidedKinds []string `json:"undecided_kinds,omitempty"`
	// Checkers is each checker's verdict; one that found nothing to
	// check (the page's NOT CHECKED: fencing of a run without tokens) is
	// valid here and named in NotChecked too.
	Checkers   map[string]checker.Verdict `json:"checkers"`
	NotChecked []string                   `json:"not_checked,omitempty"`
	Anomalies  []checker.Anomaly          `json:"anomalies"`
	// ScenarioSeconds is the scenario time the history covers (last
	// instant, scenario s); WallSeconds the run's wall time (s), absent
	// where not known (a history checked with no results.json beside it).
	ScenarioSeconds float64 `json:"scenario_seconds"`
	WallSeconds     float64 `json:"wall_seconds,omitempty"`
	ReportDir       string  `json:"report_dir"`
	Reproduce       string  `json:"reproduce"`
	// Emulated is true when the nodes were miniredis, not redis-server.
	Emulated bool `json:"emulated"`
	// Aborted is true for a run interrupted before its end.
	Aborted bool `json:"aborted,omitempty"`
	// Cut is true for a history that ends early (a cut-off file).
	Cut bool `json:"cut,omitempty"`
	// FixedBy is the file of the scenario that shows the same fault made
	// harmless (the scenario's fixed_by, as a path like File).
	FixedBy string `json:"fixed_by,omitempty"`
	// FixedBySide is what FixedBy is when it is no fix (Fixed.Side: FixSide's
	// "control", "contrast.clock", "contrast.restart", or "control.without");
	// "" for a fix or when not known. A lesson page that has no run of it
	// names it by this, as the run's report does.
	FixedBySide string `json:"fixed_by_side,omitempty"`
	// Lang is the language of the report's pages.
	Lang Lang `json:"lang,omitempty"`
	// Started is when the run began (the history header's; zero in a
	// results.json written before it was kept): a suite's pages say which
	// runs they were made from by it.
	Started time.Time `json:"started,omitzero"`
	// MaxTimerLagMS is how late, at worst, a harness timer fired during
	// the run (wall ms; 0 when not measured): the machine's load. Coverage
	// makes a run unknown at its checker.LatenessBound (MaxTimerLag, a tenth of
	// the shortest TTL or of the shortest fault window).
	MaxTimerLagMS float64 `json:"max_timer_lag_ms"`
	// Spoiled says why an unknown verdict is the machine's doing, not
	// the scenario's (checker.Spoiled* causes: busy, margin, exposure,
	// off-plan, few-grants, fault-failed, unfired, untested), and
	// SpoiledWhy the coverage checker's reason in one clause; both empty
	// otherwise. A suite runs such a run again.
	Spoiled    string `json:"spoiled,omitempty"`
	SpoiledWhy string `json:"spoiled_why,omitempty"`
	// Effects counts the writes the resource accepted whose action is one
	// the lock protects (EffectActions: the workload's Effect actions, a
	// charge, a sale, a job run). A valid run with none shows no harm
	// done, not that the lock made a write safe.
	Effects       int      `json:"effects"`
	EffectActions []string `json:"effect_actions,omitempty"`
	// Retried lists, for a run a suite ran again because the machine
	// spoiled it (Spoiled), each earlier try's cause, in order; the
	// results are the last try's.
	Retried []string `json:"retried,omitempty"`
	// Error says why a run has no verdict (an infrastructure error; then
	// Verdict is empty and there is no report); empty otherwise.
	Error string `json:"error,omitempty"`

	// What a suite's lesson and requirements pages group and compare the
	// runs by, copied from the history header and the scenario (data, no
	// prose): the algorithm and its traits, the workload, whether the
	// resource checked fencing tokens (or epochs), each node's
	// persistence, the fault plan, the course lessons and the
	// description in the report's language. Headline is the verdict
	// sentence the run's page leads with, in its language.
	Algorithm       string              `json:"algorithm,omitempty"`
	Library         string              `json:"library,omitempty"`
	Traits          []string            `json:"traits,omitempty"`
	Workload        string              `json:"workload,omitempty"`
	FencingEnforced bool                `json:"fencing_enforced,omitempty"`
	Persistence     map[string]string   `json:"persistence,omitempty"`
	Plan            []history.FaultStep `json:"plan,omitempty"`
	Params          map[string]int64    `json:"params,omitempty"`
	Lessons         []int               `json:"lessons,omitempty"`
	Description     string              `json:"description,omitempty"`
	// DescriptionLang is "en" when a report in another language had no
	// description of its own language and gives the English one.
	DescriptionLang string `json:"description_lang,omitempty"`
	Headline        string `json:"headline,omitempty"`
	// HeadlineShort is Headline without the experiments' reproduce
	// commands (their machine paths), for the cards of suite and lesson
	// pages: each links to the run's page, which has them.
	HeadlineShort string `json:"headline_short,omitempty"`
	// Claims are the run's statements as data (issue 27): the account's
	// facts and the checkers' findings (account.Claims, checker.Claims),
	// numbered; `locksim check --claims DIR` verifies them against
	// history.jsonl.
	Claims []claim.Claim `json:"claims"`
	// Advice is what the report offers as having prevented the run's
	// anomalies: each remedy's message key, its words' arguments and the
	// ids of the claims it rests on (its anomaly's and its premises'),
	// from the table in remedy.go. Empty when nothing is offered.
	Advice []Advice `json:"advice,omitempty"`
	// Counterfactuals are the run's experiments with their verdicts and
	// reproduce lines (Input.Counterfactuals).
	Counterfactuals []why.Counterfactual `json:"counterfactuals,omitempty"`

	// drawing is the run's timeline as its page shows it, when
	// Input.KeepDrawing asked for it (a suite's lesson pages).
	drawing *chart.Drawing
}

// runClaims are the run's claims, numbered (Results.Claims): the
// account's facts, then the checkers' findings. The numbering is fixed by
// their order, so the story's steps (Step.Claim) and results.json name the
// same claims.
func runClaims(in Input, m *model) []claim.Claim {
	cs := append(m.a.Claims(), checker.Claims(in.Results)...)
	return claim.Number(append(cs, why.Claims(in.Counterfactuals)...))
}

// emulated reports whether the history's backend is emulated Redis.
func emulated(h history.Header) bool { return h.Backend == "embedded" }

// buildResults assembles results.json's content; dir is recorded as
// ReportDir.
func buildResults(in Input, dir string, m *model) Results {
	h := in.History.Header
	r := Results{
		Scenario: h.Scenario, File: in.ScenarioFile, Seed: h.Seed, Backend: h.Backend,
		RedisVersion: h.RedisVersion, TimeScale: m.scale, Verdict: in.Verdict, Expect: in.Expect,
		Checkers: map[string]checker.Verdict{}, Anomalies: allAnomalies(in.Results),
		ScenarioSeconds: m.sec(m.end), WallSeconds: in.WallSeconds, MaxTimerLagMS: float64(h.MaxTimerLagNS) / 1e6, ReportDir: dir,
		Reproduce: in.Reproduce, Emulated: emulated(h), Aborted: in.Aborted, Cut: in.Cut,
		ExpectKinds: in.ExpectKinds, Lang: normLang(in.Lang), Started: h.Started,
		Algorithm: h.Algorithm, Library: in.Library, Traits: h.Traits, Workload: h.Workload, FencingEnforced: h.FencingEnforced,
		Persistence: h.Persistence, Plan: h.Plan, Params: h.Params, Lessons: in.Lessons, Description: description(in),
		DescriptionLang: descriptionLang(in), Counterfactuals: in.Counterfactuals,
	}
	if in.FixedBy != nil {
		r.FixedBy, r.FixedBySide = in.FixedBy.File, in.FixedBy.Side
	}
	r.EffectActions = workload.Of(h).EffectActions()
	for _, op := range in.History.Ops {
		if finding.Accepted(op) && slices.Contains(r.EffectActions, op.Value.Action) {
			r.Effects++
		}
	}
	r.Claims = runClaims(in, m)
	r.Advice, _ = adviceOf(in, r.Claims)
	if r.Verdict == "" {
		var vs []checker.Verdict
		for _, c := range in.Results {
			vs = append(vs, c.Verdict)
		}
		r.Verdict = checker.Merge(vs...)
	}
	if r.Anomalies == nil {
		r.Anomalies = []checker.Anomaly{}
	}
	r.Spoiled, r.SpoiledWhy = checker.Spoiled(r.Verdict, in.Results)
	r.Retried = in.Retried
	for _, c := range in.Results {
		if c.NotChecked && !slices.Contains(r.NotChecked, c.Checker) {
			r.NotChecked = append(r.NotChecked, c.Checker)
		}
		if prev, ok := r.Checkers[c.Checker]; ok {
			r.Checkers[c.Checker] = checker.Merge(prev, c.Verdict)
		} else {
			r.Checkers[c.Checker] = c.Verdict
		}
	}
	// A partial history can neither meet nor miss an expectation.
	if in.Expect != "" && !in.Aborted && !in.Cut {
		j := Judge(in.Expect, in.ExpectKinds, r.Verdict, r.Anomalies, len(in.History.Header.Observed) > 0, UndecidedKinds(in.Results)...)
		r.ExpectationMet, r.MissingKinds, r.UnexpectedKinds, r.UnjudgedKinds = &j.Met, j.Missing, j.Unexpected, j.Unjudged
		r.UndecidedKinds = j.Undecided
	}
	return r
}

// File names inside a report directory.
const (
	IndexFile    = "index.html"
	TimelineFile = "timeline.png"
	LatencyFile  = "latency.png"
	HistoryFile  = "history.html"
)

// MaxPorcupineOps caps history.html: a larger history is visualised only
// in the busiest window of this many operations around the first anomaly
// (the whole page would be unusable). A variable so tests can lower it.
var MaxPorcupineOps = 20000

// Headline is the one plain sentence under the verdict banner, derived from
// the anomalies: a double effect first, then a mutex overlap, then any
// other; for a valid run whose stale write the resource refused, the
// fencing sentence.
func Headline(in Input) string {
	m := newModel(in.History, in.Account)
	return m.withCauses(in, headline(in, m))
}

// said is one sentence a report says and the id of the claim it renders
// (data-claim; "" when it rests on none, as "no checker found a
// problem").
type said struct{ Text, Claim string }

// sayText joins sentences into one text.
func sayText(ss []said) string {
	var parts []string
	for _, s := range ss {
		parts = append(parts, s.Text)
	}
	return strings.Join(parts, " ")
}

// headline is headlineOf's words, for a caller without the run's claims.
func headline(in Input, m *model) string { return sayText(headlineOf(in, m, runClaims(in, m))) }

// headlineOf is the headline's sentences, each with the claim it renders:
// the anomaly it tells, or the refused write (cs are the run's numbered
// claims, runClaims).
func headlineOf(in Input, m *model, cs []claim.Claim) []said {
	lang := in.Lang
	verdict := in.Verdict
	all := allAnomalies(in.Results)
	lead, anyAnom := leadAnomaly(all)
	// A headline no finding tells rests on the checkers' verdicts: their
	// Check claims (one per result, in order).
	checks := func(match func(checker.Result) bool) string {
		var ids []string
		for i, r := range in.Results {
			if match(r) {
				ids = append(ids, nthClaim(cs, claim.Check, i))
			}
		}
		return joinIDs(ids)
	}
	every := func(checker.Result) bool { return true }
	one := func(s string) []said { return []said{{Text: s, Claim: checks(every)}} }
	if in.Aborted && !anyAnom {
		return one(tr(lang, "say.aborted"))
	}
	if in.Cut && !anyAnom {
		return one(tr(lang, "say.cut"))
	}
	if s, ok := m.busyHeadline(lang, in); ok {
		// The coverage checker's verdict, and, of an exposure it tells,
		// the exposure's own claim (the first Exposure claim: coverage
		// reports one).
		id := checks(func(r checker.Result) bool { return r.Checker == checker.CheckerCoverage })
		if exposureTold(in) {
			id = joinIDs([]string{nthClaim(cs, claim.Exposure, 0), id})
		}
		return []said{{Text: s, Claim: id}}
	}
	offPlan := false
	for _, r := range in.Results {
		offPlan = offPlan || r.OffPlan || r.HostClock
	}
	if anyAnom && verdict != checker.Valid && !offPlan {
		n := lead
		c, _ := nthClaimOf(cs, claim.Anomaly, n)
		out := []said{{Text: m.anomalyHeadline(lang, in, all[n], c), Claim: c.ID}}
		if s, ok := m.lostTotal(lang, all, n, cs); ok && all[n].Kind == checker.KindLostUpdate {
			out = append(out, s)
		}
		return out
	}
	if s := m.otherHeadline(in, cs); s.Text != "" {
		return []said{s}
	}
	// Valid: did a check at the resource refuse a late write? Each check
	// gets its own sentence, rendered from the refused write's claim (its
	// reason, its token and the one the resource had seen): the fencing
	// token only where the write carried one and the resource had seen a
	// higher one; a sale refused for want of stock is no save at all.
	// Checks that each refused a write (an idempotency key the charge, the
	// lock check the completion and the failure record) all held: each
	// check and action is said once, in the order they refused.
	var refused []said
	told := map[[2]string]bool{}
	for _, c := range cs {
		k := [2]string{c.Refusal, c.Action}
		if c.Kind != claim.Op || c.What != string(history.Write) || c.How != string(history.Fail) || told[k] {
			continue
		}
		if s := refusedHeadline(lang, c, in.History.Header.Params[history.ParamEpochCheck] != 0); s != "" {
			told[k] = true
			refused = append(refused, said{Text: s, Claim: c.ID})
		}
	}
	if len(refused) > 0 {
		return refused
	}
	if slices.Contains(in.History.Header.Traits, history.TraitLockFree) {
		return one(tr(lang, "say.valid.lockfree")) // no lock to keep a promise
	}
	for n, a := range allAnomalies(in.Results) {
		// The lock broke, harmlessly: it kept no promise to tell.
		if a.Kind == checker.KindMutexOverlap && (a.Harmless == checker.HarmlessFencedOrder || a.Harmless == checker.HarmlessClaimOrder || a.Harmless == checker.HarmlessNoWrite) {
			return []said{{Text: tr(lang, "say.valid."+a.Harmless, a.Stale, a.Current, a.Key), Claim: nthClaim(cs, claim.Anomaly, n)}}
		}
	}
	// An informational liveness finding breaks no promise of the lock,
	// but the headline does not hide it (reader 6: watchdog-unlock-lost's
	// orphaned lease of 27 s under "No checker found a problem").
	var info []string
	for _, a := range allAnomalies(in.Results) {
		live := a.Kind == checker.KindOrphanedLease || a.Kind == checker.KindStuckLock || a.Kind == checker.KindUnavailable
		if w := m.anomalyWord(lang, a); a.Informational && live && !slices.Contains(info, w) {
			info = append(info, w)
		}
	}
	out := one(tr(lang, "say.valid"))
	if len(info) > 0 {
		out = one(tr(lang, "say.valid.info", strings.Join(info, ", ")))
	}
	return append(out, m.untested(lang, cs)...)
}

// untested is the sentence a valid run of a fenced lock owes its reader
// when no write was refused for its fencing token (its Absent claim): the
// token was never tested, whatever the VALID seems to credit it with
// (teacher14 T14-1: lesson 44 promised "its card says so"). The first
// holder told it had lost its lock is named, with when.
func (m *model) untested(lang Lang, cs []claim.Claim) []said {
	i := slices.IndexFunc(cs, func(c claim.Claim) bool { return c.Kind == claim.Absent && c.What == claim.NoFenceRefusal })
	if i < 0 {
		return nil
	}
	var lost *claim.Claim
	for j, c := range cs {
		if c.Kind == claim.Hold && c.How == account.HoldLost && (lost == nil || c.End < lost.End) {
			lost = &cs[j]
		}
	}
	if lost == nil {
		return []said{{Text: tr(lang, "say.valid.untested"), Claim: cs[i].ID}}
	}
	return []said{{Text: tr(lang, "say.valid.untested.lost", lost.Client, instantIn(lang, m.sec(lost.End))), Claim: joinIDs([]string{lost.ID, cs[i].ID})}}
}

// nthClaim is the id of the n-th (from 0) claim of kind k in cs; "" when
// there are fewer.
func nthClaim(cs []claim.Claim, k claim.Kind, n int) string {
	c, _ := nthClaimOf(cs, k, n)
	return c.ID
}

// nthClaimOf is the n-th claim of kind k in cs, and whether there is one.
func nthClaimOf(cs []claim.Claim, k claim.Kind, n int) (claim.Claim, bool) {
	for _, c := range cs {
		if c.Kind != k {
			continue
		}
		if n == 0 {
			return c, true
		}
		n--
	}
	return claim.Claim{}, false
}

// anomalyHeadline is the headline of an invalid run whose first finding
// is a, whose claim is c (an overlap's stale write, its Accepted).
func (m *model) anomalyHeadline(lang Lang, in Input, a checker.Anomaly, c claim.Claim) string {
	switch a.Kind {
	case checker.KindDoubleEffect:
		return m.doubleHeadline(lang, in, a)
	case checker.KindMutexOverlap:
		stale, current := holderRoles(a)
		if c := a.Cause; c != nil && c.Kind == checker.CauseNodeHeldAnother {
			return tr(lang, "say.overlap.node", current, a.Key, joinAnd(lang, c.Nodes), stale)
		}
		if len(c.Accepted) > 0 && c.Accepted[0] < len(m.h.Ops) {
			// The harm, the stale write the resource let through, first:
			// two holders alone a check-and-set or fence may have made
			// harmless (teacher 3, F2). Its claim's, which the verifier
			// checks against the resource's records.
			w := m.h.Ops[c.Accepted[0]]
			return tr(lang, "say.overlap.accepted", stale, actionWord(lang, finding.ActionName(w)), instant(m.sec(w.Complete)), a.Key,
				m.causeText(lang, a.Cause, stale, current))
		}
		return tr(lang, "say.overlap.cause", joinAnd(lang, a.Clients), a.Key, a.EndS-a.StartS, m.causeText(lang, a.Cause, stale, current))
	case checker.KindStaleWriteAccepted:
		return m.staleHeadline(lang, a)
	}
	if _, ok := messages["en"]["say."+a.Kind]; ok {
		return tr(lang, "say."+a.Kind, m.describeAnomaly(lang, a))
	}
	return tr(lang, "say.other", upperFirst(kindWord(lang, anomalyLabel(a))), m.describeAnomaly(lang, a))
}

// otherHeadline is the headline of an invalid run no anomaly tells, an
// unknown run, a valid run's informational finding (wasted work, a
// liveness problem) or a valid cron run's fires, with the claim it
// renders (a checker's Check claim, the finding's, the fires' Op claims);
// no text for the others. cs are the run's numbered claims.
func (m *model) otherHeadline(in Input, cs []claim.Claim) said {
	lang := in.Lang
	check := func(i int) string { return nthClaim(cs, claim.Check, i) }
	switch in.Verdict {
	case checker.Invalid:
		for i, r := range in.Results {
			if r.Verdict == checker.Invalid {
				if normLang(lang) != English {
					return said{Text: tr(lang, "say.other", r.Checker, m.dataSummary(lang, r)), Claim: check(i)}
				}
				return said{Text: tr(lang, "say.other", r.Checker, r.Summary), Claim: check(i)}
			}
		}
	case checker.Unknown:
		for i, r := range in.Results {
			if r.Checker == checker.CheckerCoverage && len(r.Missed) > 0 {
				return said{Text: tr(lang, "say.unknown.missed", m.missedSteps(lang, r.Missed)), Claim: check(i)}
			}
		}
		var unknown []string
		for i, r := range in.Results {
			if r.Verdict == checker.Unknown && r.Summary != "" {
				if normLang(lang) != English {
					// The checker's summary is English: tell its data.
					return said{Text: tr(lang, "say.unknown", m.dataSummary(lang, r)), Claim: check(i)}
				}
				return said{Text: tr(lang, "say.unknown", r.Summary), Claim: check(i)}
			}
			if r.Verdict == checker.Unknown {
				unknown = append(unknown, check(i))
			}
		}
		return said{Text: tr(lang, "say.unknown.plain"), Claim: joinIDs(unknown)}
	case checker.Valid:
		// Valid but with informational findings that are not about
		// fencing: wasted work (an efficiency lock) or a liveness problem.
		for n, a := range allAnomalies(in.Results) {
			switch a.Kind {
			case checker.KindDuplicateWork:
				return said{Text: tr(lang, "say.waste", m.describeAnomaly(lang, a)), Claim: nthClaim(cs, claim.Anomaly, n)}
			case checker.KindStuckLock, checker.KindUnavailable:
				return said{Text: tr(lang, "say.notlive", m.describeAnomaly(lang, a)), Claim: nthClaim(cs, claim.Anomaly, n)}
			}
		}
		// Scheduled runs (the cron workload's run-job records): which
		// scheduler ran each fire time, and when against the schedule (a
		// fire runs when a scheduler's own clock reaches it).
		if s, ok := m.firesHeadline(lang, cs); ok {
			return s
		}
	}
	return said{}
}

// thawedLife returns the key life of key on one of nodes that ended at
// end, an expiry whose deadline had passed while its node was stopped (the
// KeyLife claim's Thawed: it left when the node resumed). key is the
// resource's: the node's key may be one a lock derived from it
// (redis-semaphore's mutex:invoice-1, reader 13), as LockKeysOf has it.
func (m *model) thawedLife(nodes []string, key string, end int64) (account.KeyLife, bool) {
	keys := m.a.LockKeysOf(key)
	for _, k := range m.a.Keys() {
		if slices.Contains(keys, k.Key) && k.End == end && slices.Contains(nodes, k.Node) && k.Observed &&
			k.Ended.Kind == account.EndExpired && k.Deadline >= 0 && k.Deadline < k.End && !k.ExpiredAsKept() {
			return k, true
		}
	}
	return account.KeyLife{}, false
}

// doubleHeadline is the headline of a double effect a: the checker's cause
// (the late write, and how its writer's lock had left Redis before it, the
// account's fact), else the clients that both acted.
func (m *model) doubleHeadline(lang Lang, in Input, a checker.Anomaly) string {
	// The checker's cause: the late charge and how its writer's
	// lock had left Redis before it (the account's fact).
	if c := a.Cause; c != nil && c.Write > 0 && c.Write < len(in.History.Ops) {
		w := in.History.Ops[c.Write]
		late := m.sec(w.Invoke) - m.sec(c.At)
		switch {
		case c.Reset > 0:
			return tr(lang, "say.double.reset", a.Key, w.Client, instant(m.sec(c.At)), instant(m.sec(c.Reset)), late)
		}
		if k, ok := m.thawedLife(c.Nodes, a.Key, c.At); ok {
			// Its TTL ran out while its node was stopped: told from then,
			// and when the node, waking, dropped it.
			return tr(lang, "say.double.thawed", a.Key, w.Client, m.sec(w.Invoke)-m.sec(k.Deadline), k.Node, late)
		}
		switch c.Kind {
		case account.EndClock:
			key := "say.double.clock"
			if st, ok := m.step(c.Step); ok && st.Rate != 0 {
				// A clock that ran fast, not one that jumped.
				key = "say.double.clock.rate"
			}
			if !slices.Contains(in.History.Header.Traits, history.TraitMultiNode) {
				// One node: no majority to lose; its key expired early.
				key += ".one"
			}
			return tr(lang, key, a.Key, w.Client, late, joinAnd(lang, c.Nodes))
		case account.EndDeleted:
			return tr(lang, "say.double.removed", a.Key, w.Client, c.By, late)
		case account.EndRestored:
			return tr(lang, "say.double.restored", a.Key, w.Client, c.By, late)
		case account.EndCrashed:
			return tr(lang, "say.double.crash", a.Key, w.Client, late)
		case account.EndJanitor:
			return tr(lang, "say.double.deleted", a.Key, w.Client, late)
		case account.EndFailover:
			if fate, promoted, _, ok := m.failoverLoss(lang, c.Step); ok {
				if r, ok := m.copyLost(c.Step); ok {
					return tr(lang, "say.double.failover.copy", a.Key, w.Client, late, joinAnd(lang, c.Nodes), fate, promoted, r)
				}
				return tr(lang, "say.double.failover.fate", a.Key, w.Client, late, joinAnd(lang, c.Nodes), fate, promoted)
			}
			return tr(lang, "say.double.failover", a.Key, w.Client, late, joinAnd(lang, c.Nodes))
		case checker.CauseSharerReleased:
			// The late writer's grant re-entered the sharer's key
			// (CauseSharerReleased's rule): that grant, not the release
			// that came later, is what let both act (teacher7 F11).
			return tr(lang, "say.double.sharer", a.Key, w.Client, c.By)
		}
		return tr(lang, "say.double.late", a.Key, w.Client, late)
	}
	return tr(lang, "say.double", a.Key, joinAnd(lang, a.Clients))
}

// refusedHeadline is the headline of a valid run whose resource refused
// a write, rendered from the write's claim c (claim.Op: its client, key,
// action, refusal and tokens), by the check that refused it; "" when the
// refusal saved nothing (out of stock, a reason the report does not
// know).
func refusedHeadline(lang Lang, c claim.Claim, epoch bool) string {
	action := c.Action
	if action == "" {
		action = "write"
	}
	act := actionWord(lang, action)
	switch c.Refusal {
	case history.RefusalStaleFence:
		tok, seen := c.Fence, c.SeenFence
		switch {
		case tok <= 0 || seen <= tok:
			return ""
		case epoch && action == workload.ActionLead:
			// A leader's own write: "w1's leader action as the leader" says
			// it twice.
			return tr(lang, "say.fenced.epoch.lead", c.Client, tok, seen)
		case epoch:
			return tr(lang, "say.fenced.epoch", c.Client, act, tok, seen)
		}
		return tr(lang, "say.fenced", c.Client, act, tok, seen)
	case history.RefusalLockChanged:
		return tr(lang, "say.refused.cas", c.Client, act, c.Key)
	case history.RefusalDuplicateKey:
		return tr(lang, "say.refused.idempotency", c.Client, act, c.Key)
	case history.RefusalLockMismatch:
		return tr(lang, "say.refused.lockcheck", c.Client, act, c.Key)
	}
	return ""
}

// rank is where the headline tells a finding of kind: by prio, or by its
// workload's registration (workload.AnomalyKind.Rank); 9 for the others.
func rank(prio map[string]int, kind string) int {
	if r, ok := prio[kind]; ok {
		return r
	}
	if ak, ok := workload.AnomalyOf(kind); ok {
		return ak.Rank
	}
	return 9
}

// upperFirst starts a sentence: its first letter in upper case.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
