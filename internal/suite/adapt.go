package suite

import (
	"sync"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/runner"
)

// Congested is the harness lateness (wall time) from which a finished run
// tells its pool the machine is too busy for the runs at once: its worst
// harness timer lag, or the most one of its fault steps started late or
// lasted longer than planned. Coverage calls a run's timing lost at
// checker.MaxTimerLag (100 ms, and a tenth of the TTL) and compares every
// violation's margin (the shipped scenarios keep 100 ms of wall time or
// more) with the lateness around it: the pool backs off well before
// either.
const Congested = runner.CongestedLag

// growEvery is how long the process's timer watch must see no congested
// timer (runner.LastCongested), and the gate no cut and no raise, before
// the level rises by one while runs wait for a place: the additive
// increase a round-trip time brings TCP (RFC 5681, §3.1), here on the
// clock, as runs that hold their places for tens of seconds (a Redlock
// suite's 30 s runs at time scale 0.5) finish too seldom to raise it: the
// catalogue, cut from 18 to 9 at its start, let its nine 17–31 s runs
// hold every place while 120 short runs waited, for 16 s.
const growEvery = time.Second

// gate is the pool's adaptive number of runs at once (issue 32): additive
// increase, multiplicative decrease, as TCP's congestion window (RFC
// 5681, §3.1: one more per window of clean runs, half at a loss). A run
// that finished with its harness lateness under Congested raises the
// level by 1/level; one at or over it halves the level, once per window —
// only a run started after the last cut cuts again, as TCP cuts once per
// loss event. The level never exceeds the ceiling (Options.Parallel) nor
// a cap a caller sets (a rerun at lower concurrency), and never goes
// below one.
type gate struct {
	mu      sync.Mutex
	cond    *sync.Cond
	level   float64
	ceiling int
	cap     int // 0: none
	running int
	waiting int // runs waiting for a place
	cut     time.Time
	raised  time.Time // last raise by grow
}

func newGate(ceiling int) *gate {
	g := &gate{level: float64(max(ceiling, 1)), ceiling: max(ceiling, 1)}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// allowed is how many runs may go at once now. The caller holds g.mu.
func (g *gate) allowed() int {
	n := max(1, int(g.level))
	if g.cap > 0 {
		n = min(n, g.cap)
	}
	return n
}

// enter waits for a free place and takes it; it returns when the run
// started and the level then.
func (g *gate) enter() (time.Time, int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.waiting++
	for g.running >= g.allowed() {
		g.cond.Wait()
	}
	g.waiting--
	g.running++
	return time.Now(), g.allowed()
}

// enterWithin is enter, giving up after d of waiting: ok is false when no
// place came free within d (the caller then decides what to do before it
// waits on with enter).
func (g *gate) enterWithin(d time.Duration) (time.Time, int, bool) {
	deadline := time.Now().Add(d)
	t := time.AfterFunc(d, func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.cond.Broadcast()
	})
	defer t.Stop()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.waiting++
	defer func() { g.waiting-- }()
	for g.running >= g.allowed() {
		if !time.Now().Before(deadline) {
			return time.Time{}, 0, false
		}
		g.cond.Wait()
	}
	g.running++
	return time.Now(), g.allowed(), true
}

// leave gives back the place of a run that started at started and whose
// harness lateness was late (negative: not measured, the level stays).
func (g *gate) leave(started time.Time, late time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.running--
	switch {
	case late < 0:
	case late >= Congested:
		g.halve(started)
	default:
		g.level = min(float64(g.ceiling), g.level+1/g.level)
	}
	g.cond.Broadcast()
}

// spoiled halves the level for a run that started at started and that
// the machine spoiled, once per window as leave does.
func (g *gate) spoiled(started time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.halve(started)
}

// halve halves the level for a run that started at started, unless it
// started before the last cut (once per window); the caller holds g.mu.
func (g *gate) halve(started time.Time) {
	if started.After(g.cut) {
		g.level = max(1, g.level/2)
		g.cut = time.Now()
	}
}

// grow raises the level by one at now when runs wait for a place and
// neither the timer watch (congested: when it last saw a late timer), a
// cut nor the last raise came within growEvery; it reports whether it
// raised. The pool calls it every growEvery while it runs.
func (g *gate) grow(now, congested time.Time) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.waiting == 0 || g.level >= float64(g.ceiling) {
		return false
	}
	for _, t := range []time.Time{congested, g.cut, g.raised} {
		if now.Sub(t) < growEvery {
			return false
		}
	}
	g.level = min(float64(g.ceiling), g.level+1)
	g.raised = now
	g.cond.Broadcast()
	return true
}

// Level is how many runs may go at once now.
func (g *gate) Level() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.allowed()
}

// limit caps the level at n (0: no cap) and returns the previous cap.
func (g *gate) limit(n int) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	prev := g.cap
	g.cap = n
	g.cond.Broadcast()
	return prev
}

// lateness is how late the harness was in run h, for the pool: its worst
// timer lag, or the most a fault step started late or ran long. A crash
// of a node runs long by the node's restart (a redis-server's start, an
// AOF's load: 40 to 110 ms of wall time measured in a catalogue at load
// 11 for runs whose timer lag stayed under 25 ms), which is the fault's
// own cost, not the machine's: it counts only from checker.MaxTimerLag,
// where coverage takes the run's timing as lost. A client that began its
// workload late is not counted here either (its TimerLag span names the
// client; the header's worst includes it, for the verdict): runs started
// together start late together, at the burst of their set-up, which says
// nothing of the machine during the runs (the catalogue fell to 3 runs at
// once and doubled its wall time on it), so only the timer watch's spans
// (no client) and the fault steps count.
func lateness(h history.History) time.Duration {
	late := time.Duration(h.Header.MaxTimerLagNS)
	var watch, start time.Duration
	for _, op := range h.Ops {
		if op.F != history.TimerLag {
			continue
		}
		if d := time.Duration(op.Complete - op.Invoke); op.Client == "" {
			watch = max(watch, d)
		} else {
			start = max(start, d)
		}
	}
	if start > 0 && start >= late {
		late = watch // the header's worst was a client's start
	}
	crash := map[int]bool{}
	for _, op := range h.Faults() {
		if op.Value.Fault != nil && op.Value.Fault.Effect == history.EffectCrashNode {
			crash[op.Value.Fault.ID] = true
		}
	}
	for _, f := range checker.LateFaults(h) {
		stretch := time.Duration(f.StretchNS)
		if crash[f.Step] && stretch < checker.MaxTimerLag {
			stretch = 0
		}
		late = max(late, time.Duration(f.LateStartNS), stretch)
	}
	return late
}
