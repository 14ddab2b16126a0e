package clients

import (
	"sync"
	"time"
)

// FaultyClock is a client clock that can jump and run fast or slow, for
// clock faults (design §2: a client clock fault reaches an algorithm only
// through its Clock). Local time advances by rate × real elapsed time; Jump
// steps it. Durations are wall time. Safe for concurrent use.
type FaultyClock struct {
	mu    sync.Mutex
	real  time.Time // real time at the last change
	local time.Time // local time at the last change
	rate  float64
	// jumped is the sum of every step so far: what a monotonic clock,
	// which steps do not move, is behind (or ahead of) local time.
	jumped time.Duration
}

// NewFaultyClock returns a clock that agrees with time.Now() and runs at
// rate 1 until a fault is applied.
func NewFaultyClock() *FaultyClock {
	now := time.Now()
	return &FaultyClock{real: now, local: now, rate: 1}
}

// Now is the clock's local time.
func (c *FaultyClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked(time.Now())
}

func (c *FaultyClock) nowLocked(real time.Time) time.Time {
	return c.local.Add(time.Duration(float64(real.Sub(c.real)) * c.rate))
}

// Jump steps the clock by d (negative = backwards), as an NTP step or an
// operator's `date -s` would.
func (c *FaultyClock) Jump(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	real := time.Now()
	c.local, c.real = c.nowLocked(real).Add(d), real
	c.jumped += d
}

// Monotonic is the clock's monotonic view: it runs at the clock's rate but
// no Jump moves it (CLOCK_MONOTONIC under an NTP step; lock-theory S16b).
func (c *FaultyClock) Monotonic() Clock { return monotonic{c} }

type monotonic struct{ c *FaultyClock }

// Now is the clock's local time less every step it took.
func (m monotonic) Now() time.Time { return m.c.monoAt(time.Now()) }

// at and monoAt are the clock's local time and its monotonic view at the
// real instant real.
func (c *FaultyClock) at(real time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked(real)
}

func (c *FaultyClock) monoAt(real time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked(real).Add(-c.jumped)
}

// SetRate makes the clock advance rate seconds per real second from now on
// (1 = correct; 1.5 = 50 % fast). rate must be > 0.
func (c *FaultyClock) SetRate(rate float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	real := time.Now()
	c.local, c.real = c.nowLocked(real), real
	c.rate = rate
}
