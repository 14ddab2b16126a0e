package report

import (
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// lateWhat tells the fault step that missed its plan and so made a run's
// timing lost (coverage's Result.Late), from the checker's data: a lock
// client process that said nothing long after its SIGCONT, a step that
// lasted longer than planned, or one that started late; "" when f is nil
// or names no step of the plan.
func (m *model) lateWhat(lang Lang, f *checker.LateFault) string {
	if f == nil {
		return ""
	}
	for _, st := range m.h.Header.Plan {
		if st.ID != f.Step {
			continue
		}
		sc := func(ns int64) span { return span(m.h.Header.ScenarioTime(ns).Seconds()) }
		switch {
		case f.ThawLateNS > 0:
			return tr(lang, "sum.late.what.thaw", st.ID, faultWord(lang, st), sc(f.End-f.Start), f.Client, sc(f.PlannedNS), float64(f.SilentNS)/1e6)
		case f.StretchNS > 0:
			return tr(lang, "sum.late.what.stretch", st.ID, faultWord(lang, st), sc(f.End-f.Start), sc(f.PlannedNS))
		case f.LateStartNS > 0:
			return tr(lang, "sum.late.what.start", st.ID, faultWord(lang, st), sc(f.LateStartNS))
		}
	}
	return ""
}

// edgeWhat is the "what" of sum.stall for a run of h whose harness
// lateness spanned a fault edge with a client's operation begun in it
// (coverage's Result.Edge), from its data; "" when e names no step or
// operation of h.
func edgeWhat(lang Lang, h history.History, e *checker.EdgeCross) string {
	st, op, ok := edgeOf(h, e.Step, e.Op)
	if !ok {
		return ""
	}
	sec := h.Header.ScenarioSeconds
	return tr(lang, "sum.late.what.edge", instantMs(sec(e.LagFrom)), instantMs(sec(e.LagTo)), float64(e.LagTo-e.LagFrom)/1e6,
		edgeWordIn(lang, e.End), st.ID, faultWord(lang, st), instantMs(sec(e.At)), op.Client, opWord(lang, op.F), instantMs(sec(op.Invoke)), float64(history.LagRecordNS)/1e6)
}

// edgeOf is the plan step of h with id step and h's operation at index
// op, both named by a coverage edge or drift; ok is false when either is
// not h's.
func edgeOf(h history.History, step, op int) (history.FaultStep, history.Op, bool) {
	if op < 0 || op >= len(h.Ops) {
		return history.FaultStep{}, history.Op{}, false
	}
	for _, st := range h.Header.Plan {
		if st.ID == step {
			return st, h.Ops[op], true
		}
	}
	return history.FaultStep{}, history.Op{}, false
}

// edgeWordIn names a fault window's edge in lang: its end when end, else
// its start.
func edgeWordIn(lang Lang, end bool) string {
	if end {
		return tr(lang, "sum.late.edge.end")
	}
	return tr(lang, "sum.late.edge.start")
}

// driftWhat is the "what" of sum.stall for a run of h whose client's own
// slowness moved a fault edge across one of its operations (coverage's
// Result.Drift), from its data; "" when d names no step or operation of
// h.
func driftWhat(lang Lang, h history.History, d *checker.DriftCross) string {
	st, op, ok := edgeOf(h, d.Step, d.Op)
	if !ok {
		return ""
	}
	sec := h.Header.ScenarioSeconds
	place := "sum.late.drift.after"
	if d.InFlight {
		place = "sum.late.drift.inflight"
	}
	return tr(lang, "sum.late.what.drift", instantMs(sec(d.Since)), d.Client, float64(d.DriftNS)/1e6, d.Slowed,
		tr(lang, place, opWord(lang, op.F), instantMs(sec(op.Invoke)), edgeWordIn(lang, d.End), st.ID, faultWord(lang, st), instantMs(sec(d.At))))
}

// busyHeadline is the headline of an unknown run whose verdict the
// harness's lateness could have made (issue 32), from the coverage
// checker's data: an exposure no contender tested ("w1's charge came
// 1.0 s after its lease ended; no other client tried…"), or violations
// each within the lateness around them. ok is false for any other run.
func (m *model) busyHeadline(lang Lang, in Input) (string, bool) {
	if in.Verdict != checker.Unknown {
		return "", false
	}
	for _, r := range in.Results {
		if r.Checker != checker.CheckerCoverage {
			continue
		}
		switch {
		case r.HostClock:
			// The host's clock was set mid-run: every TTL on the nodes ran
			// off the plan, so nothing the run found is the scenario's.
			return tr(lang, "say.unknown.hostclock", in.History.Header.WallRate), true
		case len(r.Marginal) > 0:
			g := r.Marginal[0]
			switch {
			case g.Within():
			case g.LagNS >= g.BoundNS || g.ShiftNS >= g.BoundNS:
				return tr(lang, "say.unknown.lost", m.kindWord(lang, g.Kind), float64(max(g.LagNS, g.ShiftNS))/1e6, float64(g.BoundNS)/1e6), true
			default: // a command stalled with no fault to explain it
				return tr(lang, "say.unknown.stall", m.kindWord(lang, g.Kind), float64(g.StallNS)/1e6), true
			}
			return tr(lang, "say.unknown.margin", m.kindWord(lang, g.Kind), float64(g.MarginNS)/1e6, float64(g.LatenessNS)/1e6), true
		case r.Exposure != nil:
			e := r.Exposure
			ops := in.History.Ops
			if e.First < 0 || e.First >= len(ops) {
				return "", false
			}
			after := m.sec(ops[e.First].Invoke) - m.sec(e.LeaseEnd)
			s := tr(lang, "say.unknown.exposure", e.Client, actionWord(lang, e.Action), after)
			switch t := e.Short; {
			case t != nil && t.Granted > 0:
				// A try in flight in the window, granted after it.
				s = tr(lang, "say.unknown.exposure.late", e.Client, actionWord(lang, e.Action), after, t.Client, instant(m.sec(t.At)), instant(m.sec(t.Granted)))
			case t != nil && t.GaveUp != "":
				// A try the nodes let in that its own guard gave up
				// (history.RefusalValidity, RefusalNotReplicated).
				s = tr(lang, "say.unknown.exposure.gaveup."+t.GaveUp, e.Client, actionWord(lang, e.Action), after, t.Client, instant(m.sec(t.At)))
			case t != nil && t.Need == 1 && t.ScriptRefused:
				// A lock on one node, free, whose script refused the try
				// for a reason of its own (a fair lock's queue).
				s = tr(lang, "say.unknown.exposure.refused.free", e.Client, actionWord(lang, e.Action), after, t.Client, instant(m.sec(t.At)))
			case t != nil && t.Need == 1 && t.KeyOwner == t.Client:
				// A lock on one node, its key the try's own from an
				// earlier acquire.
				s = tr(lang, "say.unknown.exposure.taken.own", e.Client, actionWord(lang, e.Action), after, t.Client, instant(m.sec(t.At)))
			case t != nil && t.Need == 1 && t.KeyOwner != "":
				s = tr(lang, "say.unknown.exposure.taken", e.Client, actionWord(lang, e.Action), after, t.Client, instant(m.sec(t.At)), t.KeyOwner)
			case t != nil && t.Need == 1:
				s = tr(lang, "say.unknown.exposure.taken.someone", e.Client, actionWord(lang, e.Action), after, t.Client, instant(m.sec(t.At)))
			case t != nil:
				s = tr(lang, "say.unknown.exposure.short", e.Client, actionWord(lang, e.Action), after, t.Need, e.Client, t.Client, instant(m.sec(t.At)), t.Met)
			}
			if t := e.LastTry; t != nil {
				s += tr(lang, "say.unknown.exposure.last", t.Client, instant(m.sec(t.At)))
			}
			if t := e.NextTry; t != nil {
				s += tr(lang, "say.unknown.exposure.next", t.Client, instant(m.sec(t.At)))
			}
			return s, true
		}
	}
	return "", false
}

// exposureTold reports whether busyHeadline tells the coverage checker's
// exposure (not a host clock set mid-run, nor a marginal verdict, which
// it tells first).
func exposureTold(in Input) bool {
	for _, r := range in.Results {
		if r.Checker == checker.CheckerCoverage {
			return !r.HostClock && len(r.Marginal) == 0 && r.Exposure != nil
		}
	}
	return false
}

// opWord is the word of a client operation of kind f in lang: the
// history page's ("write", "read", …), else the story's, else f itself.
func opWord(lang Lang, f history.Func) string {
	for _, key := range []string{"hist.f." + string(f), "f." + string(f)} {
		if _, ok := messages[English][key]; ok {
			return tr(lang, key)
		}
	}
	return string(f)
}
