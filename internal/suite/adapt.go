package suite

import (
	"math"
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
	wmax    float64   // the level the last cut halved
	raised  time.Time // last raise by grow
}

// cubicC is CUBIC's scaling constant (RFC 9438, §4.1: 0.4, its window in
// segments and its time in seconds; here runs and seconds of wall time).
const cubicC = 0.4

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
		g.wmax = g.level
		g.level = max(1, g.level/2)
		g.cut = time.Now()
	}
}

// grow raises the level at now when runs wait for a place and neither
// the timer watch (congested: when it last saw a late timer), a cut nor
// the last raise came within growEvery; it reports whether it raised.
// The pool calls it every growEvery while it runs. It raises by one, or
// to CUBIC's window if that is more (RFC 9438, §4.2: W(t) = C(t-K)³ +
// Wmax, K = ∛(Wmax(1-β)/C), t the time since the last cut, Wmax the level
// that cut halved, β = 1/2 as the cut halves): back near the level that
// was last too many quickly, then slowly past it. Cuts took a quiet
// catalogue from 24 runs at once to 7 in its first 12 s, and one a second
// brought it back to 19 only at its end, while 100 short runs waited.
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
	next := g.level + 1
	if !g.cut.IsZero() && g.wmax > 0 {
		k := math.Cbrt(g.wmax / 2 / cubicC)
		next = max(next, cubicC*math.Pow(now.Sub(g.cut).Seconds()-k, 3)+g.wmax)
	}
	g.level = min(float64(g.ceiling), next)
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
// timer lag, or the most a fault step started late or ran long. A crashed
// node's step runs long by the node's restart after its dead window (a
// redis-server's start, an AOF's load, a replica's sync with its master:
// 98 to 197 ms of wall time measured on a quiet machine for power-loss-*,
// redlock-delayed-restart and failover-wait-all), which is the fault's own
// cost, not the machine's: where the history records the dead window
// (Value.DeadFrom, DeadTo: from the kill's return to the restart's start,
// both on the harness's timers) the step counts only by how much longer
// than planned that window was; where it does not, the stretch counts only
// from checker.MaxTimerLag, where coverage takes the run's timing as
// lost. (Counting the restart cut a quiet catalogue's level twice, from
// 24 to 10, at failover-wait-all's 125 ms and power-loss-always's 108.) A
// client that began its workload late is not counted here either (its
// TimerLag span names the client; the header's worst includes it, for the
// verdict): runs started together start late together, at the burst of
// their set-up, which says nothing of the machine during the runs (the
// catalogue fell to 3 runs at once and doubled its wall time on it), so
// only the timer watch's spans (no client) and the fault steps count.
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
	// A crash step's dead window, by its step and start (LateFault's).
	type applied struct{ step, start int64 }
	crash := map[applied]history.Value{}
	for _, op := range h.Faults() {
		if op.Value.Fault != nil && op.Value.Fault.Effect == history.EffectCrashNode {
			crash[applied{int64(op.Value.Fault.ID), op.Invoke}] = op.Value
		}
	}
	for _, f := range checker.LateFaults(h) {
		stretch := time.Duration(f.StretchNS)
		if v, ok := crash[applied{int64(f.Step), f.Start}]; ok {
			switch {
			case v.DeadFrom > 0 && v.DeadTo >= v.DeadFrom:
				stretch = max(0, time.Duration(v.DeadTo-v.DeadFrom-f.PlannedNS))
			case stretch < checker.MaxTimerLag:
				stretch = 0
			}
		}
		late = max(late, time.Duration(f.LateStartNS), stretch)
	}
	return late
}
