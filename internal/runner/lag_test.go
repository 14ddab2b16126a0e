package runner

import (
	"testing"
	"time"

	"github.com/locksim/locksim/internal/history"
)

func TestOneTimerLagWatchServesEveryRunAndRecordsItsLags(t *testing.T) {
	a, b := history.NewRecorder(time.Now()), history.NewRecorder(time.Now())
	stopA, stopB := watchTimerLag(a), watchTimerLag(b)
	time.Sleep(20 * time.Millisecond)
	// Hold the watch still for 40 ms: its next tick is at least 35 ms
	// late, for both runs at once (it was due at most lagTick after the
	// hold began, and a loaded machine can only make it later).
	lagWatch.mu.Lock()
	time.Sleep(40 * time.Millisecond)
	lagWatch.mu.Unlock()
	time.Sleep(30 * time.Millisecond)
	worstA, worstB := stopA(), stopB()
	for name, r := range map[string]struct {
		rec   *history.Recorder
		worst time.Duration
	}{"first": {a, worstA}, "second": {b, worstB}} {
		t.Run("the "+name+" run gets the lag as its worst and as a record", func(t *testing.T) {
			if r.worst < 35*time.Millisecond {
				t.Errorf("worst lag %v, want at least the 40 ms hold", r.worst)
			}
			found := false
			for _, op := range r.rec.Ops() {
				if op.F == history.TimerLag && op.Complete-op.Invoke >= int64(35*time.Millisecond) && op.Invoke >= 0 {
					found = true
				}
			}
			if !found {
				t.Errorf("no timer-lag record of the hold among %d ops", len(r.rec.Ops()))
			}
		})
	}
	t.Run("the watch stops when no run is left", func(t *testing.T) {
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			lagWatch.mu.Lock()
			running := lagWatch.running
			lagWatch.mu.Unlock()
			if !running {
				return
			}
			if time.Now().After(deadline) {
				t.Fatal("the watch still runs with no run to serve")
			}
		}
	})
}
