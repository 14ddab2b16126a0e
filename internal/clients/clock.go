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
