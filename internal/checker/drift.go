package checker

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// DriftCross is a fault window's edge that a client's own slowness moved
// across one of its operations (issue 32): on a busy machine a client's
// operations take longer than they do at its own pace (redis-semaphore
// 4.1.0's refused acquires in its Node.js process beside two CPU hogs:
// 10, 20 and 40 ms where the same run's quickest took 4.7 ms), its next
// ones begin that much later, and an operation that at its pace would have
// ended before a planned host sleep was in flight across it — the run
// played another course (a SET sent on waking, a grant nobody believed
// in) and came out valid where the plan plays an overlap, with the
// harness's own timers 16 ms late, under every bound. Every value is wall
// ns.
type DriftCross struct {
	// Step, Kind, End and At name the edge as EdgeCross does.
	Step int    `json:"step"`
	Kind string `json:"kind"`
	End  bool   `json:"end,omitempty"`
	At   int64  `json:"at_ns"`
	// Client is the client whose operations drifted and Op the history
	// index of its operation whose place against the edge moved.
	Client string `json:"client"`
	Op     int    `json:"op"`
	// InFlight: Op was in flight at the edge where at the client's own
	// pace it would have ended before it; otherwise Op began after the
	// edge where at that pace it would have begun before it.
	InFlight bool `json:"in_flight,omitempty"`
	// DriftNS is how far behind its own pace the client ran when Op
	// began: what its operations since Since that ended by then took
	// past the quickest of their kind and outcome in the run
	// (DriftJitter each spared; Op's own length counts for nothing), less
	// the drift an edge its event fired moved with; Slowed counts those
	// operations.
	DriftNS int64 `json:"drift_ns"`
	Slowed  int   `json:"slowed"`
	// Since is where the client's pace was last set by the plan: its
	// first operation, the end of its restart, or the end of its pause
	// when it went on at the wake (else where the drift carried through
	// the pause began: carried).
	Since int64 `json:"since_ns"`
}

// DriftFloor is the least drift (wall) driftCrossed counts: EdgeLag, the
// least stretch of the harness's own lateness that edgeCrossed counts
// over a fault's edge, so that a client's slowness counts from where the
// harness's own would.
const DriftFloor = int64(EdgeLag)

// DriftJitter is how much longer than the quickest of its kind and
// outcome in the run (wall) an operation may take and count as on pace:
// on a quiet machine the same refused acquire takes 0.3–2 ms in a Go
// client and 4–6 ms in a Node.js one.
const DriftJitter = int64(2 * time.Millisecond)

// paceOp is one operation of a client, in the order it began, with what
// its pace says of it.
type paceOp struct {
	i    int   // history index
	s, c int64 // invoke and complete (the history's end when never completed)
	// steps are the plan steps whose window it overlapped and that bear on
	// its client (its length may be theirs), from is when each began.
	steps, from []int64
	// excess is how much longer than the quickest of its kind and outcome
	// it took (DriftJitter spared), when it overlapped no fault and no
	// other operation of its client; drift is the excess of the client's
	// operations that ended before it began since its pace was last set
	// (since), slowed how many of them had any.
	excess, drift int64
	slowed        int
	since         int64
	quick         int64 // the quickest of its kind, any outcome (-1: none)
}

// driftCrossed finds the earliest fault edge of a's history whose place
// among a client's operations moved because the client ran behind its
// own pace by DriftFloor or more: at its pace — each of its operations
// since its pace was last set as long as the quickest of its kind and
// outcome in the run (DriftJitter spared), one that overlapped a fault
// step bearing on it as long as it was — an operation in flight at the
// edge would have ended before it, or one begun after it would have begun
// before it. The edge is set beside the client's pace shifted by the
// drift a client had at the event or point that fired the step (the edge
// moved with that client up to then; the step's delay after it ran on
// the harness's timer: firedBy). A client's pace is set by the plan at
// its first operation, at the end of its restart, and at the end of its
// pause, less the drift its own sleep carried through the pause
// (carried); orders the plan fixes (ordered) and clients a step does not
// bear on (bearsOn) do not count, nor does an operation that overlapped
// the step whose end is the edge (a fault's end is what let it finish). Operations that overlapped other
// operations of their client (a renewal beside the job) add no drift.
func driftCrossed(a *account.Account) (DriftCross, bool) {
	h := a.H
	faults := LateFaults(h)
	paces := clientPaces(h, faults)
	type at struct {
		f  LateFault
		ed faultEdge
	}
	var edges []at
	for _, f := range faults {
		for _, ed := range faultEdges(h, f) {
			edges = append(edges, at{f, ed})
		}
	}
	slices.SortStableFunc(edges, func(x, y at) int { return cmp.Compare(x.ed.At, y.ed.At) })
	clients := make([]string, 0, len(paces))
	for c := range paces {
		clients = append(clients, c)
	}
	slices.Sort(clients)
	for _, e := range edges {
		st := e.f.step
		shift := int64(0)
		if c := st.Trigger.Client; c != "" && (st.Trigger.Kind == history.TriggerEvent || st.Trigger.Kind == history.TriggerPoint) {
			shift = driftAt(paces[c], firedBy(h, e.f))
		}
		for _, c := range clients {
			if !bearsOn(st, c) || ordered(st, c, e.ed.End) {
				continue
			}
			if d, ok := crossedAt(a, c, paces[c], e.f, e.ed, shift); ok {
				d.Client = c
				return d, true
			}
		}
	}
	return DriftCross{}, false
}

// crossedAt sets edge ed of fault f beside ops, client's operations at
// their pace, each shifted earlier by its drift less shift (the edge's
// own); see driftCrossed.
func crossedAt(a *account.Account, client string, ops []paceOp, f LateFault, ed faultEdge, shift int64) (DriftCross, bool) {
	e := ed.At
	quietStart := func(o paceOp) int64 { return o.s - (o.drift - shift) }
	quietEnd := func(o paceOp) int64 { return quietStart(o) + o.quick + DriftJitter }
	// The client's place at the edge as it ran: the last operation begun
	// by then (j), and whether it was still in flight; at its pace, the
	// last one begun by then (k).
	j := -1
	for m, o := range ops {
		if o.s <= e {
			j = m
		}
	}
	k := j
	for m := j + 1; m < len(ops) && ops[m].drift-shift >= DriftFloor && quietStart(ops[m]) <= e; m++ {
		k = m
	}
	cross := func(o paceOp, inFlight bool) (DriftCross, bool) {
		return DriftCross{Step: ed.Step, Kind: ed.Kind, End: ed.End, At: e, Op: o.i, InFlight: inFlight, DriftNS: o.drift - shift, Slowed: o.slowed, Since: o.since}, true
	}
	if d, ok := inFlightAt(ops, j, f, ed, shift); ok {
		return d, true
	}
	if k > j {
		// Begun after the edge, where at its pace it began before it —
		// unless the client was between two tries of one loop of refused
		// acquires either way: its next try would have been refused too
		// (no one freed the lock from when the try before it asked, or
		// from when the next began at its pace, if earlier, to the edge),
		// and what it did after that try as it ran (a grant the edge let
		// through, and its job) is no part of its course at its pace.
		if n := ops[j+1]; n.quick >= 0 && quietEnd(n) < e && (j < 0 || ops[j].c < e) && retrying(a, client, ops, j, n.i, f.Step, min(ops[max(j, 0)].s, quietStart(n)), e) {
			return DriftCross{}, false
		}
		return cross(ops[j+1], false)
	}
	return DriftCross{}, false
}

// inFlightAt reports ops[j], client's last operation begun by the edge
// ed of fault f, in flight at the edge where at its pace (shifted by
// shift, the edge's own drift) it would have ended before it, because of
// the drift: as quick as its kind from where it began, it would still
// have been in flight. Its own length counts for nothing (an operation
// may wait by design: a WAIT for replicas), nor does one that a fault's
// window before the edge overlapped (what it waited for may be that
// fault's), nor one the edge's own step ended (the fault's end is what
// let it finish).
func inFlightAt(ops []paceOp, j int, f LateFault, ed faultEdge, shift int64) (DriftCross, bool) {
	if j < 0 {
		return DriftCross{}, false
	}
	e, o := ed.At, ops[j]
	drift := o.drift - shift
	if o.c < e || o.quick < 0 || drift < DriftFloor || o.s-drift+o.quick+DriftJitter >= e || o.s+o.quick+DriftJitter < e {
		return DriftCross{}, false
	}
	for m, st := range o.steps {
		if st == int64(f.Step) && ed.End || st != int64(f.Step) && o.from[m] <= e {
			return DriftCross{}, false
		}
	}
	return DriftCross{Step: ed.Step, Kind: ed.Kind, End: ed.End, At: e, Op: o.i, InFlight: true, DriftNS: drift, Slowed: o.slowed, Since: o.since}, true
}

// retrying reports whether client's operations ops[j] up to the one at
// history index last are acquires, all refused but the last (whose
// answer came after the edge at e), and no other client's hold on their
// key, nor any key of the lock on a node but by the edge's own step or
// one the client set since from and took back (a refused Redlock try's
// unlock: the node is as it was), ended between from and e (wall ns): at
// the edge the client was between two tries of one loop, at its pace as
// it ran. From is when ops[j] began (a hold that ended while it was in
// flight ended after it asked: it was refused, and the lock was free
// after it) or when the last began at the client's pace, if earlier.
func retrying(a *account.Account, client string, ops []paceOp, j, last, step int, from, e int64) bool {
	if j < 0 {
		return false
	}
	h := a.H
	key := h.Ops[ops[j].i].Key
	for _, o := range ops[j:] {
		op := h.Ops[o.i]
		if op.F != history.Acquire || op.Key != key || o.i != last && op.Type == history.OK {
			return false
		}
		if o.i == last {
			break
		}
	}
	for _, hd := range a.Holds {
		if hd.Client != client && hd.Key == key && hd.End >= from && hd.End <= e {
			return false
		}
	}
	keys := a.LockKeysOf(key)
	for _, l := range a.Keys() {
		if !(l.Owner == client && l.Start >= from) && (l.Key == key || slices.Contains(keys, l.Key)) && l.End >= from && l.End <= e && l.Ended.Step != step {
			return false
		}
	}
	return true
}

// firedBy is the instant (wall ns) of the client's event or point that
// fired f's step: the event's own (plannedStart less the step's delay),
// or f's start for a point, which fires inside the client. The client's
// slowness after it moved the client, not the edge: the step's delay ran
// on the harness's timer.
func firedBy(h history.History, f LateFault) int64 {
	t := f.step.Trigger
	if t.Kind != history.TriggerEvent {
		return f.Start
	}
	if due, ok := plannedStart(h, f.step); ok {
		return due - t.Delay
	}
	return f.Start - t.Delay
}

// driftAt is how far behind its pace a client ran at t: the drift of its
// operations that ended by then.
func driftAt(ops []paceOp, t int64) int64 {
	var d int64
	for _, o := range ops {
		if o.s <= t && o.c <= t {
			d = o.drift + o.excess
		}
	}
	return d
}

// clientPaces is each client's operations of h (finding's client
// operations, probes aside) at their pace (paceOp), in the order they
// began, given the run's applied faults.
func clientPaces(h history.History, faults []LateFault) map[string][]paceOp {
	end := h.End()
	type group struct {
		c     string
		f     history.Func
		t     history.Type
		anyOf bool
	}
	paces := map[string][]paceOp{}
	quick := map[group]int64{}
	note := func(g group, d int64) {
		if q, ok := quick[g]; !ok || d < q {
			quick[g] = d
		}
	}
	// Where each client's pace was set by the plan: the ends of its
	// pauses and restarts.
	resets := map[string][]pauseWindow{}
	for _, f := range faults {
		if f.step.Effect == history.EffectFreezeClient || f.step.Effect == history.EffectRestartClient {
			for _, c := range f.step.Clients {
				resets[c] = append(resets[c], pauseWindow{f.Start, f.End, f.step.Effect == history.EffectFreezeClient})
			}
		}
	}
	for i, op := range h.Ops {
		if !isClientOp(op) || op.Client == history.ProbeClient {
			continue
		}
		o := paceOp{i: i, s: op.Invoke, c: op.Complete}
		if o.c < 0 {
			o.c = end
		}
		for _, f := range faults {
			if f.Start <= o.c && f.End >= o.s && bearsOn(f.step, op.Client) {
				o.steps, o.from = append(o.steps, int64(f.Step)), append(o.from, f.Start)
			}
		}
		if len(o.steps) == 0 && op.Complete >= 0 {
			note(group{op.Client, op.F, op.Type, false}, o.c-o.s)
			note(group{op.Client, op.F, "", true}, o.c-o.s)
		}
		paces[op.Client] = append(paces[op.Client], o)
	}
	for c, ops := range paces {
		slices.SortStableFunc(ops, func(x, y paceOp) int { return cmp.Compare(x.s, y.s) })
		before := int64(-1) // the latest end of an answered operation begun before ops[k]
		// An operation with excess overlaps no other: it ended before the
		// next one began, so every later one began after it. A drift is
		// the excess of those begun since its pace was set, and what a
		// pause carried (in order: prefix sums, one pass).
		sum, slow := make([]int64, len(ops)+1), make([]int, len(ops)+1)
		type carry struct {
			d      int64
			slowed int
			since  int64
		}
		carries := map[int]carry{} // by index in resets[c]
		for k := range ops {
			o := &ops[k]
			op := h.Ops[o.i]
			o.quick = -1
			if q, ok := quick[group{c, op.F, "", true}]; ok {
				o.quick = q
			}
			// No other operation of the client overlapped it: none begun
			// before it ended after it began (a renewal begun two
			// operations back may span it; of those never answered, the
			// one just before it: a restarted client's new incarnation
			// runs beside no one), none begun after it began before it
			// ended.
			alone := (k == 0 || ops[k-1].c <= o.s) && before <= o.s && (k+1 == len(ops) || ops[k+1].s >= o.c)
			if op.Complete >= 0 {
				before = max(before, o.c)
			}
			if q, ok := quick[group{c, op.F, op.Type, false}]; ok && alone && len(o.steps) == 0 && op.Complete >= 0 {
				o.excess = max(0, o.c-o.s-q-DriftJitter)
			}
			o.since = ops[0].s
			last := -1
			for m, r := range resets[c] {
				if r.to <= o.s && (last < 0 || r.to > resets[c][last].to) {
					last = m
				}
			}
			from := o.since
			if last >= 0 {
				w := resets[c][last]
				from, o.since = w.to, w.to
				cr, ok := carries[last]
				if !ok && w.freeze {
					cr.d, cr.slowed, cr.since = carried(ops[:k+1], w)
					carries[last] = cr
				}
				if cr.d > 0 {
					o.drift, o.slowed, o.since = cr.d, cr.slowed, cr.since
				}
			}
			lo, _ := slices.BinarySearchFunc(ops[:k], from, func(p paceOp, t int64) int { return cmp.Compare(p.s, t) })
			o.drift += sum[k] - sum[lo]
			o.slowed += slow[k] - slow[lo]
			sum[k+1], slow[k+1] = sum[k]+o.excess, slow[k]
			if o.excess > 0 {
				slow[k+1]++
			}
		}
	}
	return paces
}

// pauseWindow is a pause (freeze) or restart of a client, from its
// start to its end (wall ns).
type pauseWindow struct {
	from, to int64
	freeze   bool
}

// carried is the drift a client whose operations up to one begun after
// pause w are ops carried through it: what it ran behind its pace
// when w began, but no more than how long after w's end that first
// operation began. Frozen between two operations, the client was in a
// sleep of its own (a job, a retry delay) whose timer ran through the
// pause; at its pace that sleep began and ended as much earlier, and a
// sleep that ended within the pause ended there either way — the client
// went on at the wake, its pace set again. An operation in flight at the
// pause carries nothing (at its pace it ended before the pause, and the
// edge says so, or it too was in flight). Slowed and since are the
// operations that drift counts and where it began.
func carried(ops []paceOp, w pauseWindow) (d int64, slowed int, since int64) {
	var before, next *paceOp
	for m := range ops {
		p := &ops[m]
		switch {
		case p.s < w.to && p.c > w.from:
			return 0, 0, 0
		case p.c <= w.from:
			before = p
		case p.s >= w.to && next == nil:
			next = p
		}
	}
	if before == nil || next == nil {
		return 0, 0, 0
	}
	d, slowed = before.drift+before.excess, before.slowed
	if before.excess > 0 {
		slowed++
	}
	return min(d, next.s-w.to), slowed, before.since
}

// driftWhy is coverage's sentence for a drift crossed (English; the
// report tells it from the data in each language).
func driftWhy(h history.History, d DriftCross) string {
	sc := func(ns int64) time.Duration { return h.Header.ScenarioTime(ns).Round(time.Millisecond) }
	edge, op := edgeWord(d.End), h.Ops[d.Op]
	place := fmt.Sprintf("its %s that began at t=%v was in flight at the %s of step #%d (%s) at t=%v, where at its own pace it would have ended before it", op.F, sc(op.Invoke), edge, d.Step, d.Kind, sc(d.At))
	if !d.InFlight {
		place = fmt.Sprintf("its %s began at t=%v, after the %s of step #%d (%s) at t=%v, where at its own pace it would have begun before it", op.F, sc(op.Invoke), edge, d.Step, d.Kind, sc(d.At))
	}
	return fmt.Sprintf("the machine was too busy for %[1]s to keep its own pace: from t=%[2]v, %[1]s's operations with no fault over them ran slower than the quickest of their kind in the run (%[4]d of them), which put it %[3]v (wall) behind its own pace, so %[5]s: which came first was the machine's doing, not the plan's; run fewer at once (--parallel) or at a lower --time-scale",
		d.Client, sc(d.Since), time.Duration(d.DriftNS).Round(100*time.Microsecond), d.Slowed, place)
}
