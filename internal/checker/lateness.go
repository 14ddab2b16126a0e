package checker

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// The harness's own lateness (issue 32): a run compresses time, so a
// harness that is late — a timer that fires after its time, a fault that
// starts after or lasts longer than planned — changes the incident it
// plays. These are the facts of that lateness, derived once from the
// history, and the margin of a violation that the lateness is compared
// with. Every value is wall ns.

// LateFault is how far one applied fault step missed its plan.
type LateFault struct {
	// Step and Kind name the plan step (history FaultStep).
	Step int    `json:"step"`
	Kind string `json:"kind"`
	// LateStartNS is the actual start minus the planned one: for a step
	// at a time, its time; for a step on a client's event, that event's
	// instant plus its delay. 0 when the step was on time or early, or
	// has no planned instant (a point in a client's work fires inside
	// the client).
	LateStartNS int64 `json:"late_start_ns,omitempty"`
	// StretchNS is the actual active window minus the planned duration
	// (0 when not longer, or when the step has no planned length: an
	// instant, a step until the end, a failover, whose length Sentinel
	// decides).
	StretchNS int64 `json:"stretch_ns,omitempty"`
	// Start and End are the step's actual window: a pause of a lock
	// client process's up to when the process ran again (ThawLateNS).
	Start int64 `json:"start_ns"`
	End   int64 `json:"end_ns"`
	// PlannedNS is the step's planned duration (history FaultStep
	// Duration; 0 for none).
	PlannedNS int64 `json:"planned_ns,omitempty"`
	// Of a pause of a lock client process whose thaw was heard (history
	// Value.ThawHeard, ThawRTT): Client is the paused client; SilentNS
	// how long the process said nothing after its SIGCONT (ThawHeard −
	// the recorded window's end), RTTNS its round trip once running, and
	// ThawLateNS = SilentNS − RTTNS (0 when not more): how long the
	// machine left the process stopped past the SIGCONT, counted in the
	// step's window and its stretch (a SIGCONT sent on time is not a
	// process running on time: redis-semaphore-4-host-sleep beside CPU
	// hogs). All 0 when not measured.
	Client     string `json:"client,omitempty"`
	SilentNS   int64  `json:"silent_ns,omitempty"`
	RTTNS      int64  `json:"rtt_ns,omitempty"`
	ThawLateNS int64  `json:"thaw_late_ns,omitempty"`

	step history.FaultStep
}

// Shift is how much later than planned the step's window ended: its late
// start plus its stretch.
func (f LateFault) Shift() int64 { return f.LateStartNS + f.StretchNS }

// lateness holds a run's lateness facts: the harness's timer lags (as
// merged, sorted intervals) and each applied fault's miss of its plan.
type lateness struct {
	lags   [][2]int64
	faults []LateFault
}

// newLateness derives a's lateness facts.
func newLateness(h history.History) lateness {
	var l lateness
	for _, op := range h.Ops {
		if op.F == history.TimerLag && op.Complete > op.Invoke {
			l.lags = append(l.lags, [2]int64{op.Invoke, op.Complete})
		}
	}
	slices.SortFunc(l.lags, func(x, y [2]int64) int { return cmp.Compare(x[0], y[0]) })
	merged := l.lags[:0]
	for _, iv := range l.lags {
		if n := len(merged); n > 0 && iv[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], iv[1])
			continue
		}
		merged = append(merged, iv)
	}
	l.lags = merged
	l.faults = LateFaults(h)
	return l
}

// LateFaults is how far each applied fault step of h missed its plan, in
// history order: its late start and its stretch.
func LateFaults(h history.History) []LateFault {
	var out []LateFault
	end := h.End()
	for _, op := range h.Faults() {
		if op.Type == history.Fail {
			continue
		}
		st := *op.Value.Fault
		f := LateFault{Step: st.ID, Kind: st.Kind, Start: op.Invoke, End: op.Complete, PlannedNS: st.Duration, step: st}
		if f.End < 0 {
			f.End = end
		}
		if heard := op.Value.ThawHeard; heard > 0 && op.Complete >= 0 && st.Effect == history.EffectFreezeClient && len(st.Clients) > 0 {
			f.Client, f.SilentNS, f.RTTNS = st.Clients[0], max(0, heard-op.Complete), op.Value.ThawRTT
			f.ThawLateNS = max(0, f.SilentNS-f.RTTNS)
			f.End += f.ThawLateNS
		}
		if planned, ok := plannedStart(h, st); ok && f.Start > planned {
			f.LateStartNS = f.Start - planned
		}
		if st.Duration > 0 && !st.UntilEnd && !st.Instant() && st.Effect != history.EffectFailover {
			f.StretchNS = max(0, (f.End-f.Start)-st.Duration)
		}
		out = append(out, f)
	}
	return out
}

// plannedStart is when step st was planned to start (wall ns): its time,
// or its client event's instant plus its delay. ok is false for a step at
// a client's point (it fires inside the client, on time by construction),
// one before the clients start, and one whose event never happened.
func plannedStart(h history.History, st history.FaultStep) (int64, bool) {
	t := st.Trigger
	switch t.Kind {
	case history.TriggerAt:
		return t.At, t.At > 0
	case history.TriggerEvent:
		for _, op := range h.Ops {
			if op.F != history.Acquire || op.Client != t.Client || op.Type != history.OK || op.Complete < 0 || op.Process == history.NodeProcess {
				continue
			}
			if t.Event == history.EventGrantedBy && !slices.Contains(op.Value.Nodes, t.Node) {
				continue
			}
			return op.Complete + t.Delay, true
		}
	}
	return 0, false
}

// lagIn is the worst timer lag of the harness that began within [from,
// to] (recorded history.TimerLag spans, merged where they touch): the
// most one sleep in that window (a job, a pause's hold, a retry delay)
// can have ended later than planned from the harness's own lateness.
func (l lateness) lagIn(from, to int64) int64 {
	var worst int64
	for _, iv := range l.lags {
		if iv[0] > to {
			break
		}
		if iv[1] >= from {
			worst = max(worst, iv[1]-iv[0])
		}
	}
	return worst
}

// faultShiftIn is how much later than planned the fault steps acting on
// any of clients themselves (their process, clock or links) ended, among
// those whose window meets [from, to]: the sum of their shifts (late start
// plus stretch), with the steps that shifted: how much later than planned
// the stale holder may have acted because of them.
func (l lateness) faultShiftIn(from, to int64, clients []string) (int64, []int) {
	var sum int64
	var steps []int
	for _, f := range l.faults {
		if f.Shift() <= 0 || f.Start > to || f.End < from {
			continue
		}
		if !slices.ContainsFunc(clients, f.step.Touches) {
			// A step on nodes, or on another client, ending late delays
			// the grant the violation needs, never lengthens it.
			continue
		}
		sum += f.Shift()
		steps = append(steps, f.Step)
	}
	return sum, steps
}

// Margin is one violation set beside the harness's lateness around it
// (coverage: Result.Marginal): its margin, the lateness measured over the
// stale holder's hold up to the violation, and the two compared.
type Margin struct {
	Kind    string   `json:"kind"`
	Clients []string `json:"clients"`
	Key     string   `json:"key"`
	// At is when the violation became true (the anomaly's At).
	At int64 `json:"at_ns"`
	// Timed: the violation rests on timing (see margin), and MarginNS is
	// how far past the stale holder's lease it went: an overlap's
	// length, or how long after its lease ended the stale holder's write
	// came. A violation that does not (a foreign unlock, a token
	// regression, a lock granted while the other's key was there) is
	// untrusted only when the harness lost the timing around it (Lost).
	Timed    bool  `json:"timed"`
	MarginNS int64 `json:"margin_ns"`
	// LatenessNS = LagNS + ShiftNS + JitterNS: the harness timers' worst
	// lag in the window, the late starts and stretches of the fault steps
	// bearing on its clients there (Steps), and the timer jitter below
	// history.LagRecordNS that no record shows.
	LatenessNS int64 `json:"lateness_ns"`
	LagNS      int64 `json:"lag_ns"`
	ShiftNS    int64 `json:"shift_ns"`
	JitterNS   int64 `json:"jitter_ns"`
	Steps      []int `json:"steps,omitempty"`
	// StallNS is the longest command of the violation's clients, in the
	// window, that stalled with no fault to explain it (coverage's
	// unexplained stalls); 0 when none did.
	StallNS int64 `json:"stall_ns,omitempty"`
	// BoundNS is coverage's bound on the harness's lateness (MaxTimerLag,
	// or a tenth of the shortest TTL when longer).
	BoundNS int64 `json:"bound_ns"`
	// From is the window's start: the stale holder's grant.
	From int64 `json:"from_ns"`
}

// Within reports whether the violation rests on timing and its margin is
// within the lateness: a harness on time might not have made it.
func (m Margin) Within() bool { return m.Timed && m.MarginNS <= m.LatenessNS }

// Lost reports whether the harness lost the run's timing while the
// violation was in the making: a timer lag or a fault's miss past the
// bound, or a command stalled with no fault to explain it, in the window.
// Whatever the margin, what a late harness delayed then (a renewal, a
// validity check, a retry) may be what let the violation happen.
func (m Margin) Lost() bool { return m.LagNS >= m.BoundNS || m.ShiftNS >= m.BoundNS || m.StallNS > 0 }

// Untrusted reports whether the violation may be the harness's doing.
func (m Margin) Untrusted() bool { return m.Within() || m.Lost() }

// timedEnd reports whether a key that ended this way ended at a time the
// run's timing set (it ran out, or a fault planned at a time removed it),
// so that a late harness can have moved the stale holder past it. A key
// another client deleted, a lock that never excluded, a holder that may
// never have held: those violations do not rest on timing.
func timedEnd(kind string) bool {
	switch kind {
	case account.EndExpired, account.EndClock, account.EndCrashed, account.EndFailover, account.EndJanitor:
		return true
	}
	return false
}

// margin is an's margin and whether it rests on timing at all: an
// overlap of beliefs (its length), a double charge (how long after the
// stale holder's key ended its charge came) or an orphaned lease (how far
// past the TTL its key outlived its owner's belief) whose key ran out or
// was lost to a planned fault. Other violations are structural.
func margin(h history.History, an Anomaly) (int64, bool) {
	c := an.Cause
	if c == nil || !timedEnd(c.Kind) || c.At <= 0 {
		return 0, false
	}
	switch an.Kind {
	case KindMutexOverlap:
		return an.End - an.Start, true
	case KindOrphanedLease:
		// An orphan breaks liveness when its key outlived its owner's
		// belief by more than the TTL: a renewal in flight when a late
		// crash came adds its lateness (scheduler-heartbeat-own-queue
		// seed 31: 1.2 ms past the TTL, the crash 9.1 ms late).
		if c.TTL > 0 {
			return an.End - an.Start - c.TTL, true
		}
	case KindDoubleEffect:
		if c.Write > 0 && c.Write < len(h.Ops) {
			return h.Ops[c.Write].Invoke - c.At, true
		}
	}
	return 0, false
}

// follows reports a kind that follows from an overlap of holds and is
// judged with it: when every overlap is within the harness's lateness, so
// are the writes made in it (porcupine's verdict, a lost update, an
// oversell, a stale leader's write, a run repeated, a charge twice).
func follows(kind string) bool {
	switch kind {
	case KindNotLinearizable, KindLostUpdate, KindOversell, KindSplitBrain, KindStaleWriteAccepted, KindDuplicateRun, KindDoubleEffect:
		return true
	}
	return false
}

// withinLateness sets each violation of the run beside the lateness
// around it (a liveness finding, and a kind that follows from an overlap,
// are judged elsewhere). marginal is true when every one is untrusted: a
// violation resting on timing whose margin is within its lateness, or any
// violation made while the harness had lost the run's timing around it
// (Margin.Lost). The harness, not the scenario, may then have made every
// one of them, and the run is unknown. One violation past its lateness
// and made on time — or structural (a foreign unlock, a token regression,
// a lock granted while the other's key was there) and made on time —
// keeps the run invalid.
func withinLateness(a *account.Account, anoms []Anomaly) (ms []Margin, marginal bool) {
	h := a.H
	l := newLateness(h)
	stalls := unexplainedStalls(a)
	// A kind that follows from an overlap is judged with the overlap only
	// when it was made in one: its span meets the window (the stale
	// grant to the violation's end) of a violation judged here. A charge
	// accepted twice, with no late charge among them, far from any
	// overlap, is a violation of its own (a mutated or replayed write, a
	// client charging twice under its own lease), set beside the
	// lateness around it like any structural one.
	var windows [][2]int64
	for _, an := range anoms {
		if !judgedHere(an) {
			continue
		}
		if _, timed := margin(h, an); timed || !follows(an.Kind) {
			windows = append(windows, [2]int64{staleGrant(a, an), max(an.At, an.End)})
		}
	}
	madeIn := func(an Anomaly) bool {
		return slices.ContainsFunc(windows, func(w [2]int64) bool { return an.Start <= w[1] && max(an.At, an.End) >= w[0] })
	}
	for _, an := range anoms {
		if !judgedHere(an) {
			continue
		}
		mg, timed := margin(h, an)
		if !timed && follows(an.Kind) && madeIn(an) {
			continue
		}
		m := Margin{Kind: an.Kind, Clients: an.Clients, Key: an.Key, At: an.At, Timed: timed, MarginNS: mg, JitterNS: history.LagRecordNS}
		m.From = staleGrant(a, an)
		clients := an.Clients
		if an.Stale != "" {
			clients = []string{an.Stale}
		}
		// The window runs to the violation's end: an overlap lasts as
		// long as the stale holder's belief, which a late renewal or
		// validity check lengthens.
		to := max(an.At, an.End)
		m.LagNS = l.lagIn(m.From, to)
		m.ShiftNS, m.Steps = l.faultShiftIn(m.From, to, clients)
		m.LatenessNS = m.LagNS + m.ShiftNS + m.JitterNS
		m.BoundNS = timingBound(h)
		for _, st := range stalls {
			if st.Invoke <= to && st.Complete >= m.From && slices.Contains(an.Clients, st.Client) {
				m.StallNS = max(m.StallNS, st.Complete-st.Invoke)
			}
		}
		ms = append(ms, m)
	}
	if len(ms) == 0 {
		return nil, false
	}
	for _, m := range ms {
		if !m.Untrusted() {
			return ms, false
		}
	}
	return ms, true
}

// judgedHere reports whether withinLateness sets an beside the lateness
// around it: every violation the verdict rests on but a liveness finding
// other than an orphaned lease. Liveness findings of a run that lost its
// timing are already informational (busyLiveness); a stuck lock or an
// unavailable stretch is judged against its own bound. An unbounded
// orphan is a violation like a safety one: its key outlived the TTL by a
// margin the harness's lateness can make.
func judgedHere(an Anomaly) bool {
	if an.Informational {
		return false
	}
	return !history.LivenessKind(an.Kind) || an.Kind == KindOrphanedLease
}

// staleGrant is when the stale holder of an got the hold the violation
// came from: the start of its believed hold that was open at the
// violation's start (its cause's instant for a charge), else that start.
func staleGrant(a *account.Account, an Anomaly) int64 {
	client := an.Stale
	if client == "" && len(an.Clients) > 0 {
		client = an.Clients[0]
	}
	t := an.Start
	if an.Kind == KindDoubleEffect && an.Cause != nil {
		t = an.Cause.At
	}
	from := t
	var last int64 = -1 // the start of client's latest hold on the key before t
	for _, hd := range a.Holds {
		if hd.Client != client || hd.Key != an.Key || hd.Start > t {
			continue
		}
		if t <= hd.End {
			from = min(from, hd.Start)
		}
		last = max(last, hd.Start)
	}
	if an.Kind == KindForeignUnlock && from == t && last >= 0 {
		// A release removes the key after its client left the hold
		// (done, then release): the hold it ended is the window, in
		// which a late harness can have kept the other's key alive
		// (scheduler-pid-heartbeat seed 25: w1's first job 121 ms
		// late, and w2's renewals kept the shared key w1's release
		// deleted).
		from = last
	}
	return from
}

// lateFault finds a fault step that started later or lasted longer than
// planned by MaxTimerLag and a tenth of the shortest TTL or more (wall
// time): a node that took that long to come back from a crash, a pause or
// a partition that healed that late, a lock client process that said
// nothing that long after its SIGCONT, a step at a time that fired that
// late. The harness, not the scenario, set the fault's timing then, and
// the races the scenario keeps around it (a restart before the next
// client's grant, the holder's job after it) went the machine's way. It
// returns coverage's reason and the step.
func lateFault(a *account.Account) (string, *LateFault, bool) {
	h := a.H
	slack := timingBound(h)
	for _, f := range LateFaults(h) {
		sc := h.Header.ScenarioTime
		switch {
		case f.StretchNS >= slack && f.ThawLateNS > 0:
			why := sprintf("step #%d (%s) lasted %v of scenario time for %s's process instead of its planned %v: the process said nothing for %v (wall) after its SIGCONT",
				f.Step, f.Kind, sc(f.End-f.Start).Round(msRound), f.Client, sc(f.PlannedNS).Round(msRound), time.Duration(f.SilentNS).Round(msRound))
			if f.RTTNS > 0 {
				why += sprintf(", against a round trip of %v once it ran", time.Duration(f.RTTNS).Round(time.Microsecond))
			}
			return busyWhy(why), &f, true
		case f.StretchNS >= slack:
			return busyWhy(sprintf("step #%d (%s) lasted %v of scenario time instead of its planned %v",
				f.Step, f.Kind, sc(f.End-f.Start).Round(msRound), sc(f.PlannedNS).Round(msRound))), &f, true
		case f.LateStartNS >= slack:
			return busyWhy(sprintf("step #%d (%s) started %v of scenario time after its planned start",
				f.Step, f.Kind, sc(f.LateStartNS).Round(msRound))), &f, true
		}
	}
	return "", nil, false
}

// Why an unknown run's verdict is the machine's doing, not the scenario's
// (Spoiled): a rerun with less load around it can settle it.
const (
	// SpoiledBusy: the harness's timers, a client's command or a fault
	// step ran late past coverage's bound (timer lag, a stall no fault
	// explains, a fault late or stretched).
	SpoiledBusy = "busy"
	// SpoiledMargin: every violation found is within the lateness
	// around it (Result.Marginal).
	SpoiledMargin = "margin"
	// SpoiledExposure: a holder acted after its lease ended and no
	// contender tried meanwhile (Result.Exposure).
	SpoiledExposure = "exposure"
	// SpoiledOffPlan: Sentinel promoted a replica no step asked for.
	SpoiledOffPlan = "off-plan"
	// SpoiledFewGrants: too few grants ran while the harness was late
	// (Result.ShortOfGrants).
	SpoiledFewGrants = "few-grants"
	// SpoiledFault: a step of the plan fired and failed to apply
	// (Result.FailedSteps): the harness could not play the scenario.
	SpoiledFault = "fault-failed"
	// SpoiledUnfired: a step never fired in a run whose harness ran late
	// (Result.UnfiredLate): which client came first may have been the
	// machine's doing (payment-idempotency at time scale 50 starts w2 20 ms
	// of wall time after w1; a w1 that began 25 ms late let w2 pay first,
	// and w1 never reached the write its pause waited for).
	SpoiledUnfired = "unfired"
	// SpoiledUntested: no fault overlapped a hold in a run whose harness
	// ran late (Result.UntestedLate): fencing-random-nemesis seed 1859
	// beside two CPU hogs, valid on a quiet machine.
	SpoiledUntested = "untested"
)

// Spoiled says why a run of verdict v with results rs is unknown because
// of the machine: a Spoiled* cause and coverage's reason in one clause
// (without its advice). Both are "" when v is not Unknown, or when the
// unknown is the scenario's or a checker's own (a step that never fired
// on a harness on time, too few grants on one on time, a checker that
// could not decide): a rerun would say the same.
func Spoiled(v Verdict, rs []Result) (cause, why string) {
	if v != Unknown {
		return "", ""
	}
	for _, r := range rs {
		if r.Checker != CheckerCoverage || r.Verdict != Unknown {
			continue
		}
		switch {
		case r.OffPlan:
			cause = SpoiledOffPlan
		case len(r.Marginal) > 0:
			cause = SpoiledMargin
		case r.Exposure != nil:
			cause = SpoiledExposure
		case r.TimingLost || r.RaceLost:
			cause = SpoiledBusy
		case r.ShortOfGrants:
			cause = SpoiledFewGrants
		case len(r.FailedSteps) > 0:
			cause = SpoiledFault
		case r.UnfiredLate:
			cause = SpoiledUnfired
		case r.UntestedLate:
			cause = SpoiledUntested
		default:
			return "", ""
		}
		why, _, _ = strings.Cut(r.why, "; run fewer at once")
		return cause, why
	}
	return "", ""
}
