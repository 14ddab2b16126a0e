package checker

import (
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// Reader 6 (A6): the machine load row stated only the TTL rule, while a
// run with a 485 ms lag under a 10 s TTL came out unknown "over a tenth of
// the shortest fault window of the plan". The row now states
// LatenessBound, which must be the very bound timingLost and raceLost
// apply: at it the run's timing is lost, a nanosecond under it is not.
func TestLatenessBoundIsTheBoundTheCheckerApplies(t *testing.T) {
	const ms = int64(1e6)
	step := func(id int, d int64) history.FaultStep {
		return history.FaultStep{ID: id, Kind: "crash", Effect: history.EffectCrashNode, Nodes: []string{"n3"}, Duration: d}
	}
	tests := []struct {
		name string
		ttl  int64
		plan []history.FaultStep
		want LagBound
	}{
		{"a 10 s TTL with no fault window is bound at a tenth of the TTL", 10000 * ms, nil, LagBound{NS: 1000 * ms, TTL: 10000 * ms}},
		{"a 600 ms crash window under a 10 s TTL brings the bound down to the 100 ms floor", 10000 * ms, []history.FaultStep{step(1, 600*ms)}, LagBound{NS: 100 * ms}},
		{"a 3 s window under a 10 s TTL is bound at a tenth of the window", 10000 * ms, []history.FaultStep{step(1, 5000*ms), step(2, 3000*ms)}, LagBound{NS: 300 * ms, Step: 2, Window: 3000 * ms}},
		{"a window longer than the TTL leaves the TTL's bound", 2000 * ms, []history.FaultStep{step(1, 8000*ms)}, LagBound{NS: 200 * ms, TTL: 2000 * ms}},
		{"a short TTL is bound at the floor", 500 * ms, nil, LagBound{NS: 100 * ms}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := history.History{Header: history.Header{TimeScale: 1, Clients: []string{"w1"}, Plan: tt.plan},
				Ops: []history.Op{{Index: 0, Client: "w1", F: history.Acquire, Key: "k", Type: history.OK,
					Value: history.Value{Token: "t1", TTL: tt.ttl}, Invoke: 10 * ms, Complete: 11 * ms}}}
			got := LatenessBound(h)
			if got != tt.want {
				t.Fatalf("LatenessBound = %+v, want %+v", got, tt.want)
			}
			for _, lag := range []int64{got.NS, got.NS - 1} {
				h.Header.MaxTimerLagNS = lag
				_, timing := timingLost(h)
				_, _, race := raceLost(account.New(h))
				if lost := timing || race; lost != (lag >= got.NS) {
					t.Errorf("a lag of %d ns against a bound of %d: lost = %v", lag, got.NS, lost)
				}
			}
		})
	}
}
