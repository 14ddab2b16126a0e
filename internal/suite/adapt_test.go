package suite

import (
	"testing"
	"time"

	"github.com/locksim/locksim/internal/history"
)

func TestTheRunsAtOnceFollowTheHarnessLateness(t *testing.T) {
	// run enters the gate and leaves it with lateness late; the runs go
	// one after the other (the level changes by what each one says).
	run := func(g *gate, late time.Duration) {
		started, _ := g.enter()
		g.leave(started, late)
	}
	on, off := 5*time.Millisecond, Congested
	tests := []struct {
		name    string
		ceiling int
		lates   []time.Duration
		cap     int
		want    int
	}{
		{"the pool starts at its ceiling", 12, nil, 0, 12},
		{"a late run halves the level", 12, []time.Duration{off}, 0, 6},
		{"late runs halve it again, each started after the last cut", 12, []time.Duration{off, off, off}, 0, 1},
		{"the level never goes below one", 2, []time.Duration{off, off, off}, 0, 1},
		{"runs on time raise it by about one per level's worth of runs", 12, []time.Duration{off, on, on, on, on, on, on, on}, 0, 7},
		{"it never rises past the ceiling", 3, []time.Duration{on, on, on, on, on, on}, 0, 3},
		{"a run with no history leaves the level alone", 12, []time.Duration{off, -1, -1}, 0, 6},
		{"a cap lowers it without changing what it learnt", 12, nil, 4, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGate(tt.ceiling)
			for _, l := range tt.lates {
				run(g, l)
			}
			g.limit(tt.cap)
			if got := g.Level(); got != tt.want {
				t.Errorf("level %d, want %d", got, tt.want)
			}
		})
	}
	t.Run("runs started before a cut do not cut again when they finish late", func(t *testing.T) {
		g := newGate(8)
		var starts []time.Time
		for range 4 {
			s, _ := g.enter()
			starts = append(starts, s)
		}
		time.Sleep(time.Millisecond) // the cut comes after every start
		for _, s := range starts {
			g.leave(s, off)
		}
		if got := g.Level(); got != 4 {
			t.Errorf("level %d after four late runs of one window, want 4 (one cut)", got)
		}
	})
	t.Run("no more runs go at once than the level allows", func(t *testing.T) {
		g := newGate(2)
		g.enter()
		g.enter() // a gate of two lets a second run in at once
		entered := make(chan struct{})
		go func() { g.enter(); close(entered) }()
		select {
		case <-entered:
			t.Fatal("a third run entered a gate of two")
		case <-time.After(50 * time.Millisecond):
		}
		g.leave(time.Now(), on)
		<-entered // the freed place lets it in, whatever the time it takes
	})
}

func TestAParkedWorkerGivesUpWaitingOnlyWhenNoPlaceCameFree(t *testing.T) {
	tests := []struct {
		name    string
		running int
		within  time.Duration
		enters  bool
	}{
		{"a free place is taken at once", 1, time.Hour, true},
		{"a free place is taken even with no time to wait", 1, 0, true},
		{"a full gate gives up when its time is up", 2, time.Millisecond, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGate(2)
			for range tt.running {
				g.enter()
			}
			if _, _, ok := g.enterWithin(tt.within); ok != tt.enters {
				t.Fatalf("entered %v, want %v", ok, tt.enters)
			}
			if want := min(2, tt.running+1); tt.enters && g.running != want || !tt.enters && g.running != tt.running {
				t.Errorf("%d runs in the gate after it", g.running)
			}
		})
	}
}

func TestARunsLatenessIsItsWorstTimerLagOrFaultMiss(t *testing.T) {
	ms := func(n int64) int64 { return n * int64(time.Millisecond) }
	pause := func(at, planned, start, end int64) history.Op {
		st := history.FaultStep{ID: 1, Kind: "pause", Effect: history.EffectFreezeClient, Clients: []string{"w1"},
			Trigger: history.Trigger{Kind: history.TriggerAt, At: at}, Duration: planned}
		return history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault,
			Value: history.Value{Fault: &st}, Invoke: start, Complete: end, Type: history.OK}
	}
	crash := func(at, planned, start, end int64) history.Op {
		st := history.FaultStep{ID: 1, Kind: "crash", Effect: history.EffectCrashNode, Nodes: []string{"n1"},
			Trigger: history.Trigger{Kind: history.TriggerAt, At: at}, Duration: planned}
		return history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault,
			Value: history.Value{Fault: &st}, Invoke: start, Complete: end, Type: history.OK}
	}
	dead := func(op history.Op, from, to int64) history.Op {
		op.Value.DeadFrom, op.Value.DeadTo = from, to
		return op
	}
	tests := []struct {
		name string
		lag  int64
		ops  []history.Op
		want time.Duration
	}{
		{"the worst timer lag", ms(30), nil, 30 * time.Millisecond},
		{"a pause that healed 70 ms late", ms(10), []history.Op{pause(ms(100), ms(200), ms(100), ms(370))}, 70 * time.Millisecond},
		{"a pause that started 50 ms late", 0, []history.Op{pause(ms(100), ms(200), ms(150), ms(350))}, 50 * time.Millisecond},
		{"a fault on time leaves the lag", ms(12), []history.Op{pause(ms(100), ms(200), ms(101), ms(301))}, 12 * time.Millisecond},
		{"a crash whose node took 60 ms to restart leaves the lag", ms(8), []history.Op{crash(ms(100), ms(30), ms(100), ms(190))}, 8 * time.Millisecond},
		{"a crash that started 50 ms late counts", ms(8), []history.Op{crash(ms(100), ms(30), ms(150), ms(180))}, 50 * time.Millisecond},
		{"a crash whose node took 120 ms to restart counts when its dead window is not recorded", ms(8), []history.Op{crash(ms(100), ms(30), ms(100), ms(250))}, 120 * time.Millisecond},
		{"a crash whose node took 120 ms to restart after a dead window on time leaves the lag", ms(8),
			[]history.Op{dead(crash(ms(100), ms(30), ms(100), ms(250)), ms(101), ms(131))}, 8 * time.Millisecond},
		{"a crash whose dead window lasted 50 ms past its plan counts by that much", ms(8),
			[]history.Op{dead(crash(ms(100), ms(30), ms(100), ms(250)), ms(101), ms(181))}, 50 * time.Millisecond},
		{"a client that began its workload 60 ms late leaves the timer watch's lag", ms(60), []history.Op{
			{Process: history.NodeProcess, F: history.TimerLag, Client: "w1", Invoke: 0, Complete: ms(60), Type: history.OK},
			{Process: history.NodeProcess, F: history.TimerLag, Invoke: ms(500), Complete: ms(515), Type: history.OK},
		}, 15 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := history.History{Header: history.Header{MaxTimerLagNS: tt.lag, TimeScale: 1}, Ops: tt.ops}
			if got := lateness(h); got != tt.want {
				t.Errorf("lateness %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTheLevelGrowsOnTheClockWhileRunsWaitAndTheMachineIsQuiet(t *testing.T) {
	now := time.Date(2026, 12, 3, 8, 0, 0, 0, time.UTC)
	long := now.Add(-10 * growEvery)
	recent := now.Add(-growEvery / 2)
	tests := []struct {
		name      string
		waiting   int
		level     float64
		congested time.Time
		cut       time.Time
		wmax      float64
		raised    time.Time
		want      int
	}{
		{"a quiet second with runs waiting raises the level by one", 2, 6, long, long, 0, long, 7},
		{"a late timer within the last second holds it", 2, 6, recent, long, 0, long, 6},
		{"a cut within the last second holds it", 2, 6, long, recent, 12, long, 6},
		{"it rises at most once a second", 2, 6, long, long, 0, recent, 6},
		{"with no run waiting it stays, as TCP's window does when the sender has nothing to send", 0, 6, long, long, 0, long, 6},
		{"it never rises past the ceiling", 2, 12, long, long, 0, long, 12},
		{"a watch that never saw a late timer does not hold it", 1, 3, time.Time{}, time.Time{}, 0, time.Time{}, 4},
		// CUBIC, Wmax 12: K = ∛(12/2/0.4) = 2.47 s; W(1 s) = 0.4(1-2.47)³+12 = 10.7.
		{"a second after a cut from 12 to 6 it comes back to CUBIC's window", 2, 6, long, now.Add(-time.Second), 12, long, 10},
		{"it rises by one where CUBIC's window is lower (a second after a cut from 4: 3.86)", 2, 3, long, now.Add(-time.Second), 4, long, 4},
		{"CUBIC's window past the ceiling stops at the ceiling", 2, 8, long, long, 12, long, 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGate(12)
			g.level, g.waiting, g.cut, g.wmax, g.raised = tt.level, tt.waiting, tt.cut, tt.wmax, tt.raised
			g.grow(now, tt.congested)
			if got := g.Level(); got != tt.want {
				t.Errorf("level %d, want %d", got, tt.want)
			}
		})
	}
}
