package faults_test

import (
	"context"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
)

// hearingClient is a fakeClient whose thaw is heard (faults.ThawHearer),
// silent for silent after it, with round trip rtt; ok false: not
// measured.
type hearingClient struct {
	fakeClient
	silent, rtt time.Duration
	ok          bool
}

func (c hearingClient) ThawHeard(context.Context) (time.Time, time.Duration, bool) {
	c.Thaw()
	return time.Now().Add(c.silent), c.rtt, c.ok
}

// hearingEnv gives hearingClients.
type hearingEnv struct {
	*fakeEnv
	silent, rtt time.Duration
	ok          bool
}

func (e hearingEnv) Client(name string) (faults.Client, error) {
	c, err := e.fakeEnv.Client(name)
	if err != nil {
		return nil, err
	}
	return hearingClient{c.(fakeClient), e.silent, e.rtt, e.ok}, nil
}

// Issue 32: a pause's record keeps what its undo heard of the thawed lock
// client process — when it was first heard from, its round trip — while
// its window still ends at the thaw (the SIGCONT).
func TestAPausesRecordKeepsWhenItsThawedProcessWasHeardFrom(t *testing.T) {
	const yaml = "clients: 2\nalgorithm: safe\nttl: 10s\nduration: 1m\ntime_scale: 100\nfaults:\n  - {kind: pause, client: w1, at: 1s, duration: 2s}\n"
	tests := []struct {
		name string
		ok   bool
	}{
		{"a thaw heard 300 ms on is recorded with its round trip", true},
		{"a thaw not measured records nothing", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := hearingEnv{newFakeEnv("w1", "w2"), 300 * time.Millisecond, time.Millisecond, tt.ok}
			sc := parse(t, yaml)
			plan, err := faults.NewPlan(sc.Faults, sc.Nemesis, 1, topology(sc))
			if err != nil {
				t.Fatal(err)
			}
			rec := history.NewRecorder(time.Now())
			s := faults.NewScheduler(plan, env, rec, faults.SchedulerOptions{})
			ctx := context.Background()
			s.Start(ctx)
			eventually(t, "the thaw", func() bool { return env.has("thaw w1") })
			eventually(t, "the pause's operation to close", func() bool { ops := faultOps(rec); return len(ops) == 1 && ops[0].Complete >= 0 })
			s.Stop()
			op := faultOps(rec)[0]
			v := op.Value
			if !tt.ok {
				if v.ThawHeard != 0 || v.ThawRTT != 0 {
					t.Errorf("thaw heard at %d, rtt %d: want nothing recorded", v.ThawHeard, v.ThawRTT)
				}
				return
			}
			if silent := time.Duration(v.ThawHeard - op.Complete); silent < 300*time.Millisecond || silent > 10*time.Second || v.ThawRTT != int64(time.Millisecond) {
				t.Errorf("pause [%d, %d] heard %v after its end, rtt %v: want 300 ms on, 1 ms", op.Invoke, op.Complete, silent, time.Duration(v.ThawRTT))
			}
			if d := op.Complete - op.Invoke; d > int64(time.Second) {
				t.Errorf("the pause's window lasted %v: it ends at the thaw, not when the process was heard from", time.Duration(d))
			}
		})
	}
}
