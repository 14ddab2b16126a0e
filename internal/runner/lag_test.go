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

// Issue 27 (a fresh reader, cache-rebuild-waste seed 8): w1's first
// operation came 267.7 ms of wall time after the run's start, planned at
// 0 s, while the page said the harness's timers fired at worst 54.6 ms
// late. A client's late start is the run's lateness too: recorded as its
// timer-lag span and counted.
func TestAClientsLateStartIsRecordedAsLateness(t *testing.T) {
	const ms = int64(time.Millisecond)
	tests := []struct {
		name      string
		planned   time.Duration
		startedMS int64 // wall ms after the run's start
		late      int64 // wall ns
	}{
		{"a client planned at 0 s that began 267.7 ms in was that late", 0, 267, 267 * ms},
		{"a client planned at 10 ms that began 289 ms in was 279 ms late", 10 * time.Millisecond, 289, 279 * ms},
		{"a client that began within a timer's jitter was on time", 10 * time.Millisecond, 15, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			rec := history.NewRecorder(start)
			got := startLateness(rec.Log(), start, "w1", tt.planned, start.Add(time.Duration(tt.startedMS*ms)))
			if got != tt.late {
				t.Errorf("lateness %d ns, want %d", got, tt.late)
			}
			var spans []history.Op
			for _, op := range rec.Ops() {
				if op.F == history.TimerLag {
					spans = append(spans, op)
				}
			}
			switch {
			case tt.late == 0 && len(spans) > 0:
				t.Errorf("recorded %+v for a start on time", spans)
			case tt.late > 0 && (len(spans) != 1 || spans[0].Client != "w1" || spans[0].Invoke != int64(tt.planned) || spans[0].Complete != tt.startedMS*ms):
				t.Errorf("spans %+v, want one of w1's from %d to %d", spans, int64(tt.planned), tt.startedMS*ms)
			}
		})
	}
}
