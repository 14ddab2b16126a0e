package checker

import (
	"fmt"
	"slices"
	"time"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// EdgeCross is a fault window's edge that a stretch of the harness's own
// lateness spanned, with a client operation of a client the fault bears
// on begun in the same stretch (issue 32): the harness timers due in the
// stretch — the nemesis's edge and the client's next step alike — all
// fired at its end, in whatever order the scheduler ran them, so which
// came first was the machine's doing, not the plan's. A client's unlock
// planned 0.9 s (scenario time) before a partition healed ran just after
// the heal when the harness was 90 ms (wall) late at time scale 10, and
// a run that should have left the lock held came out valid
// (local-lock-left-held beside CPU hogs). Every value is wall ns.
type EdgeCross struct {
	// Step and Kind name the plan step (history FaultStep).
	Step int    `json:"step"`
	Kind string `json:"kind"`
	// End is true for the window's end (the fault healed or the paused
	// process resumed), false for its start.
	End bool `json:"end,omitempty"`
	// At is the edge as applied; for a crashed node's restart whose
	// return (the node up again) came after the stretch, when the restart
	// began (history Value.DeadTo): its timer fired in the stretch.
	At int64 `json:"at_ns"`
	// LagFrom and LagTo are the stretch: a harness timer due at LagFrom
	// fired only at LagTo (one history TimerLag span of the timer watch).
	LagFrom int64 `json:"lag_from_ns"`
	LagTo   int64 `json:"lag_to_ns"`
	// Op is the history index of the client operation begun in the
	// stretch (the first).
	Op int `json:"op"`
}

// EdgeLag is the shortest stretch of harness lateness (wall time) that
// edgeCrossed counts: runner.CongestedLag, from which a suite already
// counts the machine as too busy for its runs at once. At 10 ms (the
// recording floor) 114 of the 3,477 runs kept on the development machine,
// mostly run quiet, had a stretch over a fault edge; at 40 ms, 20 — both
// counting every client's operations and the orders the plan fixes; as
// edgeCrossed counts now, 1.
const EdgeLag = 40 * time.Millisecond

// edgeCrossed finds the first fault edge of a's history that a stretch
// of harness lateness of EdgeLag or more spanned, with an operation of a
// client the fault bears on (bearsOn) begun in that stretch, in an order
// the plan does not fix (ordered; an edge due before the stretch with
// the operation after it; an operation begun before the edge was due).
// A stretch spans an instant t when its timer was due before t and fired
// at or after t less history.LagRecordNS (what fired just after the
// stretch's end came from it too); an edge due less than LagRecordNS
// before the stretch's recorded start may have waited in it too (the
// watch ticks every 5 ms and records only lags of LagRecordNS or more).
// An edge's timer is due from when its step was applied (a crashed
// node's, from its kill's return: Value.DeadFrom), and a crashed node's
// restart fired when it began (Value.DeadTo), however long redis-server
// then took to come back.
func edgeCrossed(a *account.Account) (EdgeCross, bool) {
	h := a.H
	// One timer each, not merged: two shorter lags that touch are not a
	// timer that late, and a client's late start is its own timer only.
	var spans [][2]int64
	for _, op := range h.Ops {
		if op.F == history.TimerLag && op.Client == "" && op.Complete-op.Invoke >= int64(EdgeLag) {
			spans = append(spans, [2]int64{op.Invoke, op.Complete})
		}
	}
	if len(spans) == 0 {
		return EdgeCross{}, false
	}
	in := func(iv [2]int64, t int64) bool { return t > iv[0] && t <= iv[1]+history.LagRecordNS }
	for _, f := range LateFaults(h) {
		st := f.step
		for _, ed := range faultEdges(h, f) {
			applied := ed.At
			for _, iv := range spans {
				at := applied
				if !in(iv, at) {
					if !in(iv, ed.fired) {
						continue
					}
					at = ed.fired
				}
				for i, op := range h.Ops {
					// An edge due before the stretch began (by
					// LagRecordNS: see above) came first in the plan too
					// (what began in the stretch was due in it): an
					// operation that began after it kept the order. One
					// that began before the edge was even due was due
					// before it too, and kept it as well.
					if ed.due >= 0 && (ed.due <= iv[0]-history.LagRecordNS && op.Invoke >= applied || op.Invoke < ed.due) {
						continue
					}
					if isClientOp(op) && in(iv, op.Invoke) && bearsOn(st, op.Client) && !ordered(st, op.Client, ed.End) {
						e := ed.EdgeCross
						e.At, e.LagFrom, e.LagTo, e.Op = at, iv[0], iv[1], i
						return e, true
					}
				}
			}
		}
	}
	return EdgeCross{}, false
}

// faultEdge is one edge of an applied fault step's window: the
// EdgeCross fields that name it (Step, Kind, End, At: as applied), the
// instant its timer was due (-1: not known) and when it fired (if not
// when it was applied).
type faultEdge struct {
	EdgeCross
	due, fired int64
}

// faultEdges is the edges of f that a harness timer fired (wall ns): its
// start when timedStart, its end when the step has a planned length that
// ended before the history did (not a failover's: Sentinel decides it).
// The undo's timer is set once the step is applied; a crashed node's end
// is due from its kill's return and fired when its restart began
// (deadWindow).
func faultEdges(h history.History, f LateFault) []faultEdge {
	st := f.step
	var edges []faultEdge
	if timedStart(st) {
		due, ok := plannedStart(h, st)
		if !ok {
			due = -1
		}
		edges = append(edges, faultEdge{EdgeCross{Step: f.Step, Kind: f.Kind, At: f.Start}, due, f.Start})
	}
	if !st.Instant() && !st.UntilEnd && st.Duration > 0 && st.Effect != history.EffectFailover && f.End < h.End() {
		ed := faultEdge{EdgeCross{Step: f.Step, Kind: f.Kind, End: true, At: f.End}, f.Start + st.Duration, f.End}
		if from, to, ok := deadWindow(h, f); ok {
			ed.due, ed.fired = from+st.Duration, to
		}
		edges = append(edges, ed)
	}
	return edges
}

// edgeWhy is coverage's sentence for an edge crossed (English; the
// report tells it from the data in each language).
func edgeWhy(h history.History, e EdgeCross) string {
	sc := func(ns int64) time.Duration { return h.Header.ScenarioTime(ns).Round(time.Millisecond) }
	edge, op := edgeWord(e.End), h.Ops[e.Op]
	return fmt.Sprintf("the machine was too busy to keep compressed time: a harness timer due at t=%v fired only at t=%v (%v late, wall); step #%d (%s)'s %s came at t=%v and %s's %s began at t=%v, each in that stretch or the %v (wall) after it, so which came first was the machine's doing, not the plan's; run fewer at once (--parallel) or at a lower --time-scale",
		sc(e.LagFrom), sc(e.LagTo), time.Duration(e.LagTo-e.LagFrom).Round(time.Millisecond), e.Step, e.Kind, edge, sc(e.At), op.Client, op.F, sc(op.Invoke), time.Duration(history.LagRecordNS))
}

// edgeWord names a fault window's edge in coverage's sentences: its
// "end" when end, else its "start".
func edgeWord(end bool) string {
	if end {
		return "end"
	}
	return "start"
}

// deadWindow is when the nodes of f, a crash of nodes, were certainly
// not running (history Value.DeadFrom, DeadTo: from its kill's return to
// its restart's start); ok is false for another step, or when the
// history does not record it.
func deadWindow(h history.History, f LateFault) (from, to int64, ok bool) {
	if f.step.Effect != history.EffectCrashNode {
		return 0, 0, false
	}
	for _, op := range h.Faults() {
		if v := op.Value; v.Fault.ID == f.Step && op.Invoke == f.Start && v.DeadFrom > 0 && v.DeadTo >= v.DeadFrom {
			return v.DeadFrom, v.DeadTo, true
		}
	}
	return 0, 0, false
}

// timedStart reports whether step st's start came from a harness timer
// that can fire late against the clients' own: a time in the run, or a
// delay after a client's event, or a point a client reached (its own
// timers brought it there, the other clients' ran apart). A step before
// the clients start, and one fired by hand, has no such race.
func timedStart(st history.FaultStep) bool {
	switch st.Trigger.Kind {
	case history.TriggerAt:
		return st.Trigger.At > 0
	case history.TriggerEvent, history.TriggerPoint:
		return true
	}
	return false
}

// ordered reports an edge (end: the window's end, else its start) that
// client's operations are ordered with by construction: the start of a
// step fired at a point of client's own work, the end of a pause of
// client (frozen, it begins nothing until it runs again) and the end of
// its restart (its new incarnation begins only then).
func ordered(st history.FaultStep, client string, end bool) bool {
	if !end {
		return st.Trigger.Kind == history.TriggerPoint && st.Trigger.Client == client
	}
	return (st.Effect == history.EffectFreezeClient || st.Effect == history.EffectRestartClient) && slices.Contains(st.Clients, client)
}

// bearsOn reports whether the order of client's operations against step
// st's edges is what the step tests: a step on clients (a pause, a clock
// fault, their links cut or slowed) tests its own clients' operations
// against its window; a step on nodes alone (a crash, a restart, a node's
// clock) every client's. A contender's refused retry that fell on the
// other side of another client's pause changes nothing the run tests.
func bearsOn(st history.FaultStep, client string) bool {
	if len(st.Clients) == 0 && len(st.Links) == 0 {
		return true
	}
	return st.Touches(client)
}
