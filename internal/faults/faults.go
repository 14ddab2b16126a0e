// Package faults holds the fault kinds a nemesis injects and the seeded plan
// of when they fire. A pause freezes a client at a named point of its work
// through its [Gate], as a stop-the-world GC or SIGSTOP would.
//
// Durations here are wall time unless a name says otherwise; the runner
// converts scenario time with the run's time scale.
package faults

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrCrashed is what a crashed client's gate returns from then on: the
// client stopped for good.
var ErrCrashed = errors.New("client crashed")

// Pause is one planned pause of a client: the Occurrence-th time the client
// reaches Point, it freezes for Duration (wall time).
type Pause struct {
	Client     string
	Point      string
	Occurrence int
	Duration   time.Duration
	// Scenario is the pause's length in scenario time, for the record.
	Scenario time.Duration
	// Crash makes the client stop for good at Point instead of pausing.
	Crash bool
}

// Hooks tell the nemesis's observer when a fault starts and ends, so the
// runner can record it in the history. Either may be nil.
type Hooks struct {
	Start func(p Pause) (end func())
	// Crash is called once when a planned crash stops the client.
	Crash func(p Pause)
}

// Gate is a client's pause gate. Everything the client does (its job, its
// renewer, its timers) passes through the gate and stops while it is
// frozen. A Gate is safe for concurrent use.
type Gate struct {
	client string
	hooks  Hooks

	mu      sync.Mutex
	seen    map[string]int // times each point was reached
	plan    []Pause
	thawed  chan struct{} // nil when not frozen; closed on thaw
	crashed bool
}

// NewGate returns the gate of client with its planned pauses.
func NewGate(client string, plan []Pause, hooks Hooks) *Gate {
	var mine []Pause
	for _, p := range plan {
		if p.Client == client {
			mine = append(mine, p)
		}
	}
	return &Gate{client: client, hooks: hooks, seen: map[string]int{}, plan: mine}
}

// Point is called by the client when it reaches a named point. When a pause
// is planned there, the calling goroutine freezes the whole client for the
// pause's duration and then returns. It returns ctx.Err() when ctx ends
// first (the pause is still recorded as ended then).
func (g *Gate) Point(ctx context.Context, point string) error {
	g.mu.Lock()
	if g.crashed {
		g.mu.Unlock()
		return ErrCrashed
	}
	if len(g.plan) == 0 { // nothing planned here: no need to count
		g.mu.Unlock()
		return g.Wait(ctx)
	}
	g.seen[point]++
	n := g.seen[point]
	var hit *Pause
	for i := range g.plan {
		if g.plan[i].Point == point && g.plan[i].Occurrence == n {
			hit = &g.plan[i]
			break
		}
	}
	g.mu.Unlock()
	if hit == nil {
		return g.Wait(ctx)
	}
	if hit.Crash {
		g.Crash()
		if g.hooks.Crash != nil {
			g.hooks.Crash(*hit)
		}
		return ErrCrashed
	}
	return g.Freeze(ctx, *hit)
}

// Crash stops the client for good: from now on every Point, Wait and Sleep
// of the gate returns ErrCrashed (at once, or when a pause in progress
// ends), so the client's job and its renewer both stop.
func (g *Gate) Crash() {
	g.mu.Lock()
	g.crashed = true
	g.mu.Unlock()
}

// Crashed reports whether the client crashed.
func (g *Gate) Crashed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.crashed
}

// Freeze stops the client for p.Duration, recording the fault through the
// hooks, and returns when it thaws or ctx ends.
func (g *Gate) Freeze(ctx context.Context, p Pause) error {
	thawed := make(chan struct{})
	g.mu.Lock()
	g.thawed = thawed
	g.mu.Unlock()
	var end func()
	if g.hooks.Start != nil {
		end = g.hooks.Start(p)
	}
	t := time.NewTimer(p.Duration)
	var err error
	select {
	case <-t.C:
	case <-ctx.Done():
		t.Stop()
		err = ctx.Err()
	}
	g.mu.Lock()
	g.thawed = nil
	g.mu.Unlock()
	close(thawed)
	if end != nil {
		end()
	}
	if err == nil && g.Crashed() {
		err = ErrCrashed
	}
	return err
}

// Wait blocks while the client is frozen, so that other goroutines of the
// client (a renewer, a timer) stop too. It returns at once when not frozen.
func (g *Gate) Wait(ctx context.Context) error {
	g.mu.Lock()
	ch, crashed := g.thawed, g.crashed
	g.mu.Unlock()
	if crashed {
		return ErrCrashed
	}
	if ch == nil {
		return ctx.Err()
	}
	select {
	case <-ch:
		if g.Crashed() {
			return ErrCrashed
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ErrStopped is returned by SleepOr when its stop channel closed first.
var ErrStopped = errors.New("sleep stopped")

// Sleep waits d (wall time) as the client: a freeze that begins during the
// sleep extends it until the thaw, as a stop-the-world pause would.
func (g *Gate) Sleep(ctx context.Context, d time.Duration) error {
	return g.SleepOr(ctx, d, nil)
}

// SleepOr is Sleep that also ends, with ErrStopped, when stop closes (a
// watchdog declaring the lease lost); a nil stop never closes.
func (g *Gate) SleepOr(ctx context.Context, d time.Duration, stop <-chan struct{}) error {
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		case <-stop:
			return ErrStopped
		}
	}
	return g.Wait(ctx)
}

// Latch holds back whoever waits on it while it is shut: a starve-renewals
// fault shuts the client's renewer latch, so only its renewals wait while
// its job runs on. Safe for concurrent use; the zero value is open.
type Latch struct {
	mu sync.Mutex
	ch chan struct{} // nil when open; closed on open
}

// Shut makes Wait block until Open.
func (l *Latch) Shut() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ch == nil {
		l.ch = make(chan struct{})
	}
}

// Open releases every waiter; it is a no-op on an open latch.
func (l *Latch) Open() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ch != nil {
		close(l.ch)
		l.ch = nil
	}
}

// Wait returns when the latch is open or ctx ends (then ctx.Err()).
func (l *Latch) Wait(ctx context.Context) error {
	l.mu.Lock()
	ch := l.ch
	l.mu.Unlock()
	if ch == nil {
		return ctx.Err()
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
