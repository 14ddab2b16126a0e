// Package checker judges a history: porcupine linearizability of the
// protected resource plus lock-specific checkers (mutex, fencing, effects).
// A found violation is a Result, never a Go error; a checker that panics or
// runs out of time gives Unknown, never Valid (Jepsen's check-safe).
//
// checker imports only history (and porcupine), so `locksim check` runs
// without Redis.
package checker

import (
	"context"
	"fmt"
	"time"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// Verdict of a checker or a whole run.
type Verdict string

// Verdicts, merged invalid > unknown > valid.
const (
	Valid   Verdict = "valid"
	Invalid Verdict = "invalid"
	Unknown Verdict = "unknown"
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
)

// Anomaly is one finding. Start and End are true time (wall ns since the
// run's start); StartS and EndS are the same instants in scenario seconds.
type Anomaly struct {
	Kind    string   `json:"kind"`
	Clients []string `json:"clients"`
	// The clients by what they did, where the kind has roles: Stale is the
	// holder (or leader, or writer) whose lease was superseded and Current
	// the one that superseded it (mutex-overlap, split-brain,
	// stale-write-accepted, token-regression); Deleter removed Owner's key
	// (foreign-unlock); Owner also holds a stuck or orphaned lease.
	Stale   string  `json:"stale,omitempty"`
	Current string  `json:"current,omitempty"`
	Deleter string  `json:"deleter,omitempty"`
	Owner   string  `json:"owner,omitempty"`
	Key     string  `json:"key"`
	Start   int64   `json:"start_ns"`
	End     int64   `json:"end_ns"`
	StartS  float64 `json:"start_s"`
	EndS    float64 `json:"end_s"`
	// Cause is why it happened, as data (see Cause); nil when the kind
	// needs none.
	Cause *Cause `json:"cause,omitempty"`
	// Explain is one plain English sentence, in scenario time, rendered
	// from the fields above.
	Explain string `json:"explain"`
	// Ops are the history indices the anomaly is about.
	Ops []int `json:"ops,omitempty"`
	// At is the instant the anomaly became true (true ns; AtS in scenario
	// seconds): the event that completes it — the second hold's start of
	// an overlap, the entry past the permits; the last of the writes that
	// are the violation (Violating); else End (a liveness finding is
	// known when its window closes).
	At  int64   `json:"at_ns"`
	AtS float64 `json:"at_s"`
	// Violating are the history indices of the accepted writes that are
	// the violation itself — the second charge, the stale leader's write,
	// the sale past the stock — as a timeline marks them; empty for kinds
	// about holds, not writes.
	Violating []int `json:"violating,omitempty"`
	// Informational anomalies are reported but do not make the verdict
	// invalid (e.g. a believed-hold overlap whose stale holder the fenced
	// resource refused every time).
	Informational bool `json:"informational,omitempty"`
	// Harmless says why an informational anomaly did no harm (Harmless*).
	Harmless string `json:"harmless,omitempty"`
}

// Why an informational anomaly did no harm (Anomaly.Harmless).
const (
	// HarmlessFenced: the resource refused the stale holder's writes by
	// their fencing token or epoch.
	HarmlessFenced = "fenced"
	// HarmlessCheckAndSet: the resource refused the stale holder's writes
	// because its currlock held the newer holder's token (check_and_set,
	// lock-theory §7.3).
	HarmlessCheckAndSet = "check-and-set"
	// HarmlessIdempotent: the idempotency key let only one charge through.
	HarmlessIdempotent = "idempotent"
	// HarmlessEfficiency: an efficiency lock; the overlap is wasted work.
	HarmlessEfficiency = "efficiency"
	// HarmlessLiveness: a liveness finding the scenario does not hold the
	// run to (no expect_live).
	HarmlessLiveness = "liveness"
	// HarmlessBusy: a liveness finding of a run whose machine was too busy
	// to keep its compressed time (coverage TimingLost): its bounds were
	// the machine's, not the lock's.
	HarmlessBusy = "busy"
)

// Result is one checker's judgement.
type Result struct {
	Checker   string    `json:"checker"`
	Verdict   Verdict   `json:"verdict"`
	Summary   string    `json:"summary"`
	Anomalies []Anomaly `json:"anomalies,omitempty"`
	// Missed lists the IDs of the fault plan's steps (history
	// Header.Plan) that never took effect (coverage only).
	Missed []int `json:"missed_steps,omitempty"`
	// TimingLost: the machine was too busy to keep the run's compressed
	// time (coverage only); the run's valid verdict proves nothing and a
	// rerun with less load can settle it.
	TimingLost bool `json:"timing_lost,omitempty"`
	// OffPlan: the run's topology moved without its plan (Sentinel
	// promoted a replica no failover step asked for; coverage only). What
	// the run shows then is the environment's doing, not the scenario's: the
	// whole run is unknown, whatever it found.
	OffPlan bool `json:"off_plan,omitempty"`
	// ViolationsStand: the run proves nothing a valid verdict would say
	// (coverage only: lost timing or a step that never fired), but other
	// checkers found violations, which still happened: the run is invalid.
	ViolationsStand bool `json:"violations_stand,omitempty"`

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
		res, lin := Linearizable(ctx, a.H, o)
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
	rep.Verdict = Merge(vs...)
	for _, r := range rep.Results {
		if r.OffPlan {
			rep.Verdict = Unknown
		}
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
		{CheckerMutex, "believed-hold intervals of different clients on one key must not overlap; also foreign-unlock"},
		{CheckerLinearizable, "porcupine: the lock and resource history must fit a sequential lease model, per key"},
		{CheckerFencing, "fencing tokens of grants strictly increase; accepted writes never go back to a lower token"},
		{CheckerEffects, "what the resource accepted: no double charge, lost update, oversell, duplicate run, split brain or over-admission; duplicate work (cache-rebuild) is informational"},
		{CheckerLiveness, "after faults heal the final probe acquire succeeds (stuck-lock, unavailable); a violation only when the scenario sets expect_live, else informational"},
		{CheckerCoverage, "the faults overlapped a believed hold or an in-flight lock op and enough acquires succeeded, else unknown (a run that proves nothing must not pass)"},
	}
}
