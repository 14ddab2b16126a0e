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

// Gate is a client's pause gate. Everything the client does (its job, its
// renewer, its timers) passes through the gate and stops while it is
// frozen, as a stop-the-world GC or SIGSTOP would stop it. A Gate is safe
// for concurrent use.
type Gate struct {
	// atPoint, when set, is told each time the client reaches a named
	// point of its work; it fires the steps planned there (the
	// Scheduler's Point), which may freeze or crash the client.
	atPoint func(point string)

	mu      sync.Mutex
	frozen  int           // freezes in force (steps may overlap)
	thawed  chan struct{} // nil when not frozen; closed on the last thaw
	atThaw  []func()      // PointThen checks waiting for the last thaw
	crashed bool
}

// NewGate returns a client's gate; atPoint (may be nil) is called at every
// named point before the client passes it.
func NewGate(atPoint func(point string)) *Gate { return &Gate{atPoint: atPoint} }

// Point is called by the client when it reaches a named point: the steps
// planned there fire, and the calling goroutine then waits while the
// client is frozen. It returns ErrCrashed once the client crashed, and
// ctx.Err() when ctx ends first.
func (g *Gate) Point(ctx context.Context, point string) error {
	if g.Crashed() {
		return ErrCrashed
	}
	if g.atPoint != nil {
		g.atPoint(point)
	}
	return g.Wait(ctx)
}

// PointThen is Point for a client that checks its state the moment it
// passes: check runs when the point is passed — at once when the client
// is not frozen, else inside the thaw that ends the pause, before any of
// the client's goroutines runs again. So the check sees the state as it
// stood when the pause ended, however late a loaded machine schedules the
// resumed goroutine: a watchdog released by the same thaw, whose overdue
// renewal then finds the lease gone, cannot get ahead of a job that woke
// to write (a stop-the-world pause resumes the job where it stopped). The
// errors are Point's; check's result is meaningful only when it returns
// nil.
func (g *Gate) PointThen(ctx context.Context, point string, check func()) error {
	if g.Crashed() {
		return ErrCrashed
	}
	if g.atPoint != nil {
		g.atPoint(point)
	}
	g.mu.Lock()
	ch, crashed := g.thawed, g.crashed
	if ch == nil && !crashed {
		check()
	} else if ch != nil {
		g.atThaw = append(g.atThaw, check)
	}
	g.mu.Unlock()
	return g.await(ctx, ch, crashed)
}

// Freeze stops the client's world until a matching Thaw: from now on its
// goroutines wait at their next Point, Wait or Sleep.
func (g *Gate) Freeze() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.frozen++
	if g.thawed == nil {
		g.thawed = make(chan struct{})
	}
}

// Thaw ends one Freeze; the client runs again when none is left.
func (g *Gate) Thaw() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.frozen == 0 {
		return
	}
	g.frozen--
	if g.frozen == 0 {
		for _, check := range g.atThaw {
			check()
		}
		g.atThaw = nil
		close(g.thawed)
		g.thawed = nil
	}
}

// Crash stops the client for good: from now on every Point, Wait and Sleep
// of the gate returns ErrCrashed (at once, or when a freeze in progress
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

// Wait blocks while the client is frozen, so that other goroutines of the
// client (a renewer, a timer) stop too. It returns at once when not frozen.
func (g *Gate) Wait(ctx context.Context) error {
	g.mu.Lock()
	ch, crashed := g.thawed, g.crashed
	g.mu.Unlock()
	return g.await(ctx, ch, crashed)
}

// await blocks until thawed closes (nil: not frozen) or ctx ends, and
// tells a crash, before or during the freeze, as ErrCrashed.
func (g *Gate) await(ctx context.Context, thawed chan struct{}, crashed bool) error {
	if crashed {
		return ErrCrashed
	}
	if thawed == nil {
		return ctx.Err()
	}
	select {
	case <-thawed:
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
