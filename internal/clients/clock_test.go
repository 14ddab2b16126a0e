package clients

import (
	"testing"
	"time"
)

func TestFaultyClock(t *testing.T) {
	t.Run("a jump steps the local time by exactly the jump", func(t *testing.T) {
		c := NewFaultyClock()
		before := c.Now()
		c.Jump(15 * time.Second)
		got := c.Now().Sub(before)
		if got < 15*time.Second || got > 15*time.Second+50*time.Millisecond {
			t.Errorf("after a 15s jump the clock moved %v", got)
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
		before, realBefore := c.Now(), time.Now()
		time.Sleep(5 * time.Millisecond)
		local, real := c.Now().Sub(before), time.Since(realBefore)
		if local < 50*real {
			t.Errorf("rate-100 clock advanced %v in %v of real time", local, real)
		}
	})
}
