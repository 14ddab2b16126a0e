package clients

import (
	"testing"
	"time"
)

func TestFaultyClock(t *testing.T) {
	t.Run("a jump steps the local time by exactly the jump", func(t *testing.T) {
		c := NewFaultyClock()
		realBefore := time.Now()
		before := c.Now()
		c.Jump(15 * time.Second)
		got := c.Now().Sub(before)
		real := time.Since(realBefore) // brackets the two readings
		// At rate 1 the clock moved the jump plus the real time between
		// the readings, which a loaded machine can make long.
		if got < 15*time.Second || got > 15*time.Second+real {
			t.Errorf("after a 15s jump the clock moved %v (real time between the readings: at most %v)", got, real)
		}
	})
	t.Run("a backward jump moves the local time back", func(t *testing.T) {
		c := NewFaultyClock()
		before := c.Now()
		c.Jump(-time.Minute)
		if !c.Now().Before(before) {
			t.Error("clock did not go back")
		}
	})
	t.Run("a fast clock advances more than real time", func(t *testing.T) {
		c := NewFaultyClock()
		c.SetRate(100)
		// The real time between the two readings lies between inner and
		// outer, however long a loaded machine stalls around them.
		t0 := time.Now()
		before := c.Now()
		t1 := time.Now()
		time.Sleep(5 * time.Millisecond)
		t2 := time.Now()
		after := c.Now()
		t3 := time.Now()
		local, inner, outer := after.Sub(before), t2.Sub(t1), t3.Sub(t0)
		if local < 100*inner || local > 100*outer {
			t.Errorf("rate-100 clock advanced %v between readings %v to %v of real time apart", local, inner, outer)
		}
	})
}
