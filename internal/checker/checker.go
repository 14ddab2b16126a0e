// Package checker judges a history: porcupine linearizability of the
// protected resource plus lock-specific checkers (mutex, fencing, effects).
// A found violation is a Result, never a Go error; a checker that panics or
// runs out of time gives Unknown, never Valid (Jepsen's check-safe).
//
// checker reads a history through its account (account, history), judges
// by the workloads' own models and effects rules (workload) and reports
// findings (finding), with porcupine; nothing of it needs Redis, so
// `locksim check` runs without it.
package checker

//go:generate go run ./gencatalogue

import (
	"context"
	"fmt"
	"time"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
)

// Verdict of a checker or a whole run (package finding's).
type Verdict = finding.Verdict

// Verdicts, merged invalid > unknown > valid.
const (
	Valid   = finding.Valid
	Invalid = finding.Invalid
	Unknown = finding.Unknown
)

// Merge returns the strongest verdict: Invalid > Unknown > Valid. Merge of
// nothing is Valid.
func Merge(vs ...Verdict) Verdict {
	out := Valid
	for _, v := range vs {
		switch {
		case v == Invalid:
			return Invalid
		case v == Unknown || (v != Valid && v != Invalid):
			out = Unknown
		}
	}
	return out
}

// Anomaly kinds (design §8). The names are the shared vocabulary of
// package history (history.AnomalyKinds), which the scenario parser
// validates `expect` kinds against.
const (
	KindMutexOverlap       = history.AnomalyMutexOverlap
	KindDoubleEffect       = history.AnomalyDoubleEffect
	KindStaleWriteAccepted = history.AnomalyStaleWriteAccepted
	KindForeignUnlock      = history.AnomalyForeignUnlock
	KindLostUpdate         = history.AnomalyLostUpdate
	KindOversell           = history.AnomalyOversell
	KindOverAdmission      = history.AnomalyOverAdmission
	KindSplitBrain         = history.AnomalySplitBrain
	KindDuplicateRun       = history.AnomalyDuplicateRun
	KindTokenRegression    = history.AnomalyTokenRegression
	KindUnavailable        = history.AnomalyUnavailable
	KindStuckLock          = history.AnomalyStuckLock
	KindOrphanedLease      = history.AnomalyOrphanedLease
	KindNotLinearizable    = history.AnomalyNotLinearizable
	// KindDuplicateWork is waste, not corruption: two clients did the same
	// work at once under an efficiency lock (Kleppmann 2016, "efficiency
	// vs correctness"; workload cache-rebuild). Always Informational.
	KindDuplicateWork = history.AnomalyDuplicateWork
	// KindResurrectedLease and KindHiddenLapse are what a lock told its
	// holder when its lease lapsed (lapse.go).
	KindResurrectedLease = history.AnomalyResurrectedLease
	KindHiddenLapse      = history.AnomalyHiddenLapse
)

// Anomaly is one finding (package finding's).
type Anomaly = finding.Anomaly

// Why an informational anomaly did no harm (Anomaly.Harmless).
const (
	HarmlessFenced      = finding.HarmlessFenced
	HarmlessNoWrite     = finding.HarmlessNoWrite
	HarmlessFencedOrder = finding.HarmlessFencedOrder
	HarmlessClaimOrder  = finding.HarmlessClaimOrder
	HarmlessCheckAndSet = finding.HarmlessCheckAndSet
	HarmlessIdempotent  = finding.HarmlessIdempotent
	HarmlessEfficiency  = finding.HarmlessEfficiency
	HarmlessLiveness    = finding.HarmlessLiveness
	HarmlessBounded     = finding.HarmlessBounded
	HarmlessMinHold     = finding.HarmlessMinHold
	HarmlessBusy        = finding.HarmlessBusy
	HarmlessUncontended = finding.HarmlessUncontended
)

// How a stuck lock's holder stopped using it (Anomaly.Quit).
const (
	QuitReleaseLost   = finding.QuitReleaseLost
	QuitReleaseFailed = finding.QuitReleaseFailed
	QuitReleaseKept   = finding.QuitReleaseKept
	QuitCrashed       = finding.QuitCrashed
	QuitDone          = finding.QuitDone
	QuitLost          = finding.QuitLost
)

// Result is one checker's judgement.
type Result struct {
	Checker   string    `json:"checker"`
	Verdict   Verdict   `json:"verdict"`
	Summary   string    `json:"summary"`
	Anomalies []Anomaly `json:"anomalies,omitempty"`
	// Counts are the numbers the summary states, by claim.Check's count
	// names (final-probes, fenced-keys, ok-acquires, …): its Check
	// claim carries them for the verifier.
	Counts map[string]int `json:"counts,omitempty"`
	// Missed lists the IDs of the fault plan's steps (history
	// Header.Plan) that never took effect (coverage only).
	Missed []int `json:"missed_steps,omitempty"`
	// FailedSteps lists those of Missed that fired and failed to apply
	// (the harness could not play them: a failover no replica was
	// promoted for in time); a rerun can settle the run (SpoiledFault).
	FailedSteps []int `json:"failed_steps,omitempty"`
	// UnfiredLate: a step of Missed never fired (it did not fail) in a run
	// whose harness recorded a timer lag (history.LagRecordNS or more): a
	// late start can flip which client reaches a lock or a point first,
	// and with it whether a step triggered on a client's point or event
	// fires at all; a rerun can settle the run (SpoiledUnfired).
	UnfiredLate bool `json:"unfired_late,omitempty"`
	// UntestedLate: no fault overlapped a hold (Untested) in a run whose
	// harness recorded a timer lag (history.LagRecordNS or more): the
	// lateness may be what kept the faults and the holds apart; a rerun
	// can settle the run (SpoiledUntested).
	UntestedLate bool `json:"untested_late,omitempty"`
	// TimingLost: the machine was too busy to keep the run's compressed
	// time (coverage only); the run's valid verdict proves nothing and a
	// rerun with less load can settle it.
	TimingLost bool `json:"timing_lost,omitempty"`
	// RaceLost: the harness ran late past a tenth of the plan's shortest
	// fault window, though not past TimingLost's bound (coverage only): a
	// valid verdict proves nothing, the findings stand, and a rerun with
	// less load can settle it.
	RaceLost bool `json:"race_lost,omitempty"`
	// Edge is, when a stretch of the harness's lateness spanned a fault
	// window's edge and a client's operation begun in it is what made
	// RaceLost, that edge and stretch (coverage only; edgeCrossed): the
	// report tells it.
	Edge *EdgeCross `json:"edge,omitempty"`
	// Drift is, when a client's own operations ran so far behind their
	// pace that a fault window's edge moved across one of them, what made
	// RaceLost: that edge, client and operation (coverage only;
	// driftCrossed): the report tells it.
	Drift *DriftCross `json:"drift,omitempty"`
	// Stall is, when a client command that got no answer in time, with
	// no fault to explain it, is what made TimingLost or RaceLost (not
	// the harness's own lag), its history index (coverage only): the
	// report names it beside a machine load under its bound (reader 14).
	Stall *int `json:"stall,omitempty"`
	// Late is, when a fault step that missed its plan by coverage's bound
	// or more (it started late, or lasted longer than planned: a lock
	// client process said nothing that long after its SIGCONT) is what
	// made TimingLost, that step (coverage only): the report tells it.
	Late *LateFault `json:"late_fault,omitempty"`
	// OffPlan: the run's topology moved without its plan (Sentinel
	// promoted a replica no failover step asked for; coverage only). What
	// the run shows then is the environment's doing, not the scenario's: the
	// whole run is unknown, whatever it found.
	OffPlan bool `json:"off_plan,omitempty"`
	// HostClock: the host's wall clock, on which Redis counts every TTL,
	// ran apart from the run's own clock by more than MaxWallDrift over the
	// run (stepped or slewed: history.Header.WallRate; coverage only). The
	// nodes' keys did not live as the plan said, whatever the plan: the
	// whole run is unknown, whatever it found, and a rerun can settle it.
	HostClock bool `json:"host_clock,omitempty"`
	// ViolationsStand: the run proves nothing a valid verdict would say
	// (coverage only: lost timing or a step that never fired), but other
	// checkers found violations, which still happened: the run is invalid.
	ViolationsStand bool `json:"violations_stand,omitempty"`
	// Exposure is the run's first exposure window that no contender
	// tested (coverage only): the holder acted after its lease had
	// ended, and nobody tried to take the lock meanwhile, so the run
	// could not have shown a violation (Verdict Unknown).
	Exposure *Exposure `json:"exposure,omitempty"`
	// Marginal lists the run's violations, each beside the harness's
	// lateness around it, when every one of them is within it (coverage
	// only): a harness on time might have made none of them, so the run
	// is unknown, not invalid.
	Marginal []Margin `json:"within_lateness,omitempty"`
	// Untested is the number of the run's faults when none of them
	// overlapped a believed hold or an in-flight operation of a client
	// it affected (coverage only): the faults tested nothing, and the run
	// is unknown.
	Untested int `json:"untested_faults,omitempty"`
	// IdleKills are the kills coverage counted though the killed client
	// held nothing and had no operation in flight then (coverage only;
	// see IdleKill): the summary says what each met, not an overlap.
	IdleKills []IdleKill `json:"idle_kills,omitempty"`
	// ShortOfGrants: fewer grants than the minimum ran while the
	// harness's timers lagged (history.LagRecordNS or more), and the
	// faults did meet a hold (coverage only): the machine may be what
	// kept the contenders out before the run ended.
	ShortOfGrants bool `json:"short_of_grants,omitempty"`
	// NotChecked: the checker found nothing to check (fencing: no
	// operation carried a fencing token). Its Valid verdict leaves the run's
	// verdict alone and says nothing of what it checks: a page tells it as
	// not checked, never as a check that found no problem.
	NotChecked bool `json:"not_checked,omitempty"`

	why string // coverage's reason a valid verdict would prove nothing
}

// Options tune Check.
type Options struct {
	// Timeout bounds the porcupine search (wall time, not scenario time);
	// 0 means DefaultTimeout. A search that runs out of time gives Unknown.
	Timeout time.Duration
}

// DefaultTimeout is the porcupine budget when Options.Timeout is 0.
const DefaultTimeout = 10 * time.Second

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

// Checker names, in the fixed order of Report.Results.
const (
	CheckerMutex        = "mutex"
	CheckerLinearizable = "linearizable"
	CheckerFencing      = "fencing"
	CheckerEffects      = "effects"
	CheckerLiveness     = "liveness"
	CheckerCoverage     = "coverage"
)

// Report is the judgement of a whole history.
type Report struct {
	// Verdict merges the Results' verdicts with Merge.
	Verdict Verdict `json:"verdict"`
	// Results in the fixed order mutex, linearizable, fencing, effects,
	// liveness, coverage.
	Results []Result `json:"results"`
	// Linearization is what the linearizable checker gave porcupine and got
	// back, for the report's porcupine.Visualize; nil when that checker
	// panicked before running porcupine.
	Linearization *Linearization `json:"-"`
	// Account is the run's facts the checkers judged by (nil when it could
	// not be derived); the report renders from the same.
	Account *account.Account `json:"-"`
}

// Anomalies returns every anomaly of every result, in result order
// (informational ones included; see Anomaly.Informational).
func (r Report) Anomalies() []Anomaly {
	var out []Anomaly
	for _, res := range r.Results {
		out = append(out, res.Anomalies...)
	}
	return out
}

// checkFunc is one checker, judging the history through its account. rep
// lets the linearizable checker hand back its porcupine artefacts.
type checkFunc func(ctx context.Context, a *account.Account, o Options, rep *Report) Result

// checkers is the fixed list Check runs; tests replace entries to inject a
// panicking checker.
var checkers = []struct {
	name string
	run  checkFunc
}{
	{CheckerMutex, func(ctx context.Context, a *account.Account, _ Options, _ *Report) Result { return mutex(ctx, a) }},
	{CheckerLinearizable, func(ctx context.Context, a *account.Account, o Options, rep *Report) Result {
		res, lin := linearizable(ctx, a.H, o, nodeRecordOf(a))
		rep.Linearization = &lin
		return res
	}},
	{CheckerFencing, func(ctx context.Context, a *account.Account, _ Options, _ *Report) Result {
		return issuerCauses(a, Fencing(ctx, a.H))
	}},
	{CheckerEffects, func(ctx context.Context, a *account.Account, _ Options, _ *Report) Result { return effects(ctx, a) }},
	{CheckerLiveness, func(ctx context.Context, a *account.Account, _ Options, _ *Report) Result { return liveness(ctx, a) }},
	{CheckerCoverage, func(ctx context.Context, a *account.Account, _ Options, _ *Report) Result { return coverage(ctx, a) }},
}

// Check runs every checker on h, each inside a recover wrapper (a panic
// gives Unknown with the panic text in the Summary, never Valid: Jepsen's
// check-safe, design §8), and merges the verdicts with Merge. A result
// with a verdict outside valid/invalid/unknown becomes Unknown; a result
// that lists a non-informational anomaly is Invalid whatever it said. A cancelled
// ctx makes the checkers that have not finished Unknown.
func Check(ctx context.Context, h history.History, o Options) Report {
	rep := Report{Results: make([]Result, 0, len(checkers))}
	vs := make([]Verdict, 0, len(checkers))
	a, err := newAccount(h)
	if err != nil {
		for _, c := range checkers {
			rep.Results = append(rep.Results, Result{Checker: c.name, Verdict: Unknown, Summary: err.Error()})
		}
		rep.Verdict = Unknown
		return rep
	}
	rep.Account = a
	for _, c := range checkers {
		r := safeRun(ctx, c.name, c.run, a, o, &rep)
		rep.Results = append(rep.Results, r)
		vs = append(vs, r.Verdict)
	}
	busyLiveness(&rep, vs)
	laterWrites(&rep, a)
	rep.Verdict = Merge(vs...)
	for _, r := range rep.Results {
		if r.OffPlan || r.HostClock {
			rep.Verdict = Unknown
		}
	}
	if rep.Verdict == Invalid {
		marginal(&rep, a)
	}
	if rep.Verdict == Invalid {
		for i, r := range rep.Results {
			if r.Checker == CheckerCoverage && r.Verdict == Unknown && r.why != "" {
				rep.Results[i].ViolationsStand = true
				rep.Results[i].Summary = "a valid verdict would prove nothing on this run (" + r.why + "), but the violations found still happened"
			}
		}
	}
	return rep
}

// marginal makes an invalid run unknown when each of its violations is
// within the harness's lateness around it (withinLateness), and says so
// on the coverage result.
func marginal(rep *Report, a *account.Account) {
	ms, within := withinLateness(a, rep.Anomalies())
	if !within {
		return
	}
	rep.Verdict = Unknown
	for i, r := range rep.Results {
		if r.Checker != CheckerCoverage {
			continue
		}
		m, d := ms[0], func(ns int64) time.Duration { return time.Duration(ns).Round(time.Millisecond) }
		why := fmt.Sprintf("the %s at %s was %v past the lease (wall), within the harness's own lateness of %v around it (timer lag %v, faults late %v, jitter %v), so a harness on time might not have made it",
			m.Kind, at(a.H, m.At), d(m.MarginNS), d(m.LatenessNS), d(m.LagNS), d(m.ShiftNS), d(m.JitterNS))
		if !m.Within() {
			why = fmt.Sprintf("the %s at %s was made while the harness had lost the run's timing (wall: timer lag %v, faults late %v, a command stalled %v with no fault to explain it; bound %v), so what came late may be what let it happen",
				m.Kind, at(a.H, m.At), d(m.LagNS), d(m.ShiftNS), d(m.StallNS), d(m.BoundNS))
		}
		if len(ms) > 1 {
			why += fmt.Sprintf(" (and %s more, each as untrusted)", plural(len(ms)-1, "violation", "violations"))
		}
		rep.Results[i] = unproven(Result{TimingLost: r.TimingLost, Marginal: ms}, why+"; run fewer at once (--parallel) or at a lower --time-scale")
		rep.Results[i].Summary = "the violations found may be the harness's doing: " + rep.Results[i].why
	}
}

// unproven is coverage's finding that the run proves nothing, for why.
func unproven(r Result, why string) Result {
	r.Checker, r.Verdict, r.why = CheckerCoverage, Unknown, why
	r.Summary = "this run proves nothing: " + why
	return r
}

// busyLiveness makes the liveness findings of a run that lost its timing
// informational: a probe that timed out or a lock unavailable past its
// bound says more about a loaded machine than about the lock. Safety
// findings stand (the violation happened, however slowly).
func busyLiveness(rep *Report, vs []Verdict) {
	busy := false
	for _, r := range rep.Results {
		busy = busy || (r.Checker == CheckerCoverage && r.TimingLost)
	}
	if !busy {
		return
	}
	for i := range rep.Results {
		r := &rep.Results[i]
		if r.Checker != CheckerLiveness || r.Verdict != Invalid {
			continue
		}
		for j := range r.Anomalies {
			if !r.Anomalies[j].Informational {
				r.Anomalies[j].Informational, r.Anomalies[j].Harmless = true, HarmlessBusy
			}
		}
		r.Verdict = Unknown
		r.Summary += " (not judged: the machine was too busy to keep the run's compressed time)"
		vs[i] = Unknown
	}
}

// newAccount derives h's account; a panic in the derivation gives an
// error, and every checker Unknown, never Valid.
func newAccount(h history.History) (a *account.Account, err error) {
	defer func() {
		if p := recover(); p != nil {
			a, err = nil, fmt.Errorf("deriving the run's account panicked: %v", p)
		}
	}()
	return account.New(h), nil
}

func safeRun(ctx context.Context, name string, f checkFunc, a *account.Account, o Options, rep *Report) (r Result) {
	defer func() {
		if p := recover(); p != nil {
			r = Result{Checker: name, Verdict: Unknown, Summary: fmt.Sprintf("checker panicked: %v", p)}
		}
	}()
	if err := ctx.Err(); err != nil {
		return Result{Checker: name, Verdict: Unknown, Summary: "not checked: " + err.Error()}
	}
	r = f(ctx, a, o, rep)
	r.Checker = name
	for i := range r.Anomalies {
		complete(a.H, &r.Anomalies[i])
	}
	switch {
	case r.Verdict != Valid && r.Verdict != Invalid && r.Verdict != Unknown:
		r.Summary = fmt.Sprintf("checker gave no verdict (%q): %s", r.Verdict, r.Summary)
		r.Verdict = Unknown
	case r.Verdict != Invalid && verdictOf(r.Anomalies) == Invalid:
		// A violation found is a violation, whatever the checker said.
		r.Verdict = Invalid
	}
	return r
}

// verdictOf is Invalid when any anomaly is not informational.
func verdictOf(as []Anomaly) Verdict {
	for _, a := range as {
		if !a.Informational {
			return Invalid
		}
	}
	return Valid
}

// About describes one checker for `locksim list`.
type About struct{ Name, About string }

// Checkers lists the checkers Check runs, in order, with one line each.
func Checkers() []About {
	return []About{
		{CheckerMutex, "believed-hold intervals of different clients on one key must not overlap; also foreign-unlock, resurrected-lease and hidden-lapse (what the lock told its holder when its lease lapsed)"},
		{CheckerLinearizable, "porcupine: the lock and resource history must fit a sequential lease model, per key"},
		{CheckerFencing, "fencing tokens of grants strictly increase; accepted writes never go back to a lower token"},
		{CheckerEffects, "what the resource accepted: no double charge, lost update, oversell, duplicate run, split brain or over-admission; duplicate work (cache-rebuild) is informational"},
		{CheckerLiveness, "after faults heal the final probe acquire succeeds (stuck-lock, unavailable); a violation only when the scenario sets expect_live, else informational"},
		{CheckerCoverage, "the faults overlapped a believed hold or an in-flight lock op of a client they affected (a client clock jump before one counts by the offset it left, a pause by the op it held back, a kill of a client that had tried the lock by what a dead contender leaves behind) and enough acquires succeeded, else unknown (a run that proves nothing must not pass)"},
	}
}
