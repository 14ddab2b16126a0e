package checker

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// Issue 27 (a fresh reader, cache-rebuild-waste seed 8): w1 began its
// workload 267.7 ms of wall time after its planned start at 0 s (26.8 s of
// a 30 s TTL at scale 100), and the run was valid. A client's late start
// is the run's lateness: past the bound it loses the run's timing, and the
// reason names the client, not a timer.
func TestAClientsLateStartLosesTheRunsTiming(t *testing.T) {
	const ms = int64(1e6)
	acquire := history.Op{Index: 1, Process: 0, Client: "w1", F: history.Acquire, Key: "k", Type: history.OK,
		Value: history.Value{Token: "t1", TTL: 300 * ms}, Invoke: 268 * ms, Complete: 269 * ms}
	tests := []struct {
		name       string
		late       history.Op
		lag        int64
		lost       bool
		want, lack string
	}{
		{"a client 267.7 ms late loses it, named", history.Op{Index: 0, Process: history.NodeProcess, F: history.TimerLag, Client: "w1", Type: history.OK, Invoke: 0, Complete: 2677 * ms / 10},
			2677 * ms / 10, true, "w1 began its workload (planned at t=0.0s) 268ms late (wall)", "a harness timer fired"},
		{"a timer 120 ms late loses it, said of the timer", history.Op{Index: 0, Process: history.NodeProcess, F: history.TimerLag, Type: history.OK, Invoke: 500 * ms, Complete: 620 * ms},
			120 * ms, true, "a harness timer fired 120ms late", "began its workload"},
		{"a client 54 ms late keeps it", history.Op{Index: 0, Process: history.NodeProcess, F: history.TimerLag, Client: "w1", Type: history.OK, Invoke: 0, Complete: 54 * ms},
			54 * ms, false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := history.History{Header: history.Header{TimeScale: 100, MaxTimerLagNS: tt.lag, Clients: []string{"w1"}},
				Ops: []history.Op{tt.late, acquire}}
			why, lost := timingLost(h)
			if lost != tt.lost || !strings.Contains(why, tt.want) || (tt.lack != "" && strings.Contains(why, tt.lack)) {
				t.Errorf("timingLost = %q, %v; want %v with %q and no %q", why, lost, tt.lost, tt.want, tt.lack)
			}
		})
	}
}
