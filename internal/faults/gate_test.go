package faults_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/faults"
)

// TestPointThenLooksAsOfTheThaw: a check the client makes as it resumes
// sees the state as it stood when the pause ended, however late the
// scheduler runs the resumed goroutine (a loaded machine), so another of
// the client's goroutines released by the same thaw (a watchdog whose
// overdue renewal finds the lease lost) cannot get ahead of it.
func TestPointThenLooksAsOfTheThaw(t *testing.T) {
	t.Run("a check at a point the client is frozen at runs at the thaw, before any goroutine of the client runs again", func(t *testing.T) {
		var g *faults.Gate
		g = faults.NewGate(func(string) { g.Freeze() })
		var declared atomic.Bool // the state another goroutine changes after the thaw
		var sawLost bool
		done := make(chan error)
		go func() {
			done <- g.PointThen(context.Background(), "before-write", func() { sawLost = declared.Load() })
		}()
		// Wait until the client is frozen at the point.
		for faults.ThawChecks(g) == 0 {
			time.Sleep(time.Millisecond)
		}
		// The thaw releases the client; what runs next changes the state
		// (here the thawing goroutine itself, before the resumed one can
		// have been scheduled: a watchdog whose renewal found the lease
		// gone).
		g.Thaw()
		declared.Store(true)
		if err := <-done; err != nil {
			t.Fatalf("PointThen: %v", err)
		}
		if sawLost {
			t.Error("the check saw a change made after the thaw; it must see the state as the pause ended")
		}
	})
	t.Run("a check at a point the client is not frozen at runs at once", func(t *testing.T) {
		g := faults.NewGate(nil)
		ran := false
		if err := g.PointThen(context.Background(), "before-write", func() { ran = true }); err != nil || !ran {
			t.Errorf("PointThen = %v, check ran %v; want nil and true", err, ran)
		}
	})
	t.Run("a client that crashed while frozen reports the crash", func(t *testing.T) {
		var g *faults.Gate
		g = faults.NewGate(func(string) { g.Freeze() })
		done := make(chan error)
		go func() { done <- g.PointThen(context.Background(), "before-write", func() {}) }()
		for faults.ThawChecks(g) == 0 {
			time.Sleep(time.Millisecond)
		}
		g.Crash()
		g.Thaw()
		if err := <-done; err != faults.ErrCrashed {
			t.Errorf("PointThen = %v, want ErrCrashed", err)
		}
	})
}
