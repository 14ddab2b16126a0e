package faults_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
)

// manualSpec is the fault a scenario file of the same run would write,
// parsed by the scenario parser: what locksim serve hands to Manual.
func manualSpec(t *testing.T, fault string) faults.Spec {
	t.Helper()
	sc := parse(t, "clients: 2\nalgorithm: safe\nttl: 10s\nduration: 1m\nnodes: 3\nfaults:\n  - "+fault+"\n")
	return sc.Faults[0]
}

func TestFaultsFiredByHand(t *testing.T) {
	const head = "clients: 2\nalgorithm: safe\nttl: 10s\nduration: 1m\ntime_scale: 100\nnodes: 3\nfaults:\n  - {kind: pause, client: w2, point: before-write, duration: 5s}\n"
	t.Run("an open pause is recorded with the manual trigger and closes with the window it had when resumed", func(t *testing.T) {
		env := newFakeEnv("w1", "w2")
		s, rec := schedule(t, head, env)
		s.Start(context.Background())
		st, err := s.Manual(manualSpec(t, "{kind: pause, client: w1, at: 1s, duration: 30s}"), true)
		if err != nil {
			t.Fatal(err)
		}
		if st.ID != 2 || st.Trigger.Kind != history.TriggerManual || !st.UntilEnd || !env.has("freeze w1") {
			t.Fatalf("fired %+v with calls %v: want step #2 (after the plan's one), manual, open, w1 frozen", st, env.calls)
		}
		time.Sleep(20 * time.Millisecond)
		if err := s.EndManual(st.ID); err != nil {
			t.Fatal(err)
		}
		if !env.has("thaw w1") {
			t.Fatalf("calls %v: want w1 thawed", env.calls)
		}
		s.Stop()
		ops := faultOps(rec)
		if len(ops) != 1 || ops[0].Complete < 0 {
			t.Fatalf("fault ops %+v, want one closed op", ops)
		}
		got := ops[0].Value.Fault
		if got.UntilEnd || got.Duration < int64(20*time.Millisecond) || got.Duration > ops[0].Complete-ops[0].Invoke+int64(time.Millisecond) {
			t.Errorf("closed with %+v over [%d, %d]: want the window it had, ≥ 20 ms", got, ops[0].Invoke, ops[0].Complete)
		}
		if ms := s.ManualSteps(); len(ms) != 1 || ms[0].Duration != got.Duration {
			t.Errorf("manual steps %+v, want the one closed step", ms)
		}
	})
	t.Run("a cut with a duration heals by itself, and a step fired by hand replays as a fault at the time it fired", func(t *testing.T) {
		env := newFakeEnv("w1", "w2")
		s, _ := schedule(t, head, env)
		s.Start(context.Background())
		st, err := s.Manual(manualSpec(t, "{kind: partition, clients: [w2], nodes: [n3], direction: replies, duration: 2s}"), false)
		if err != nil {
			t.Fatal(err)
		}
		eventually(t, "the heal", func() bool { return env.has("uncut w2→n3") })
		s.Stop()
		sp, err := faults.SpecOf(s.ManualSteps()[0], 100)
		if err != nil {
			t.Fatal(err)
		}
		if sp.When.Kind != history.TriggerAt || sp.When.At != time.Duration(float64(st.Trigger.At)*100).Round(time.Microsecond) {
			t.Errorf("replayed as %+v, want at the time it fired (%d ns wall × 100)", sp.When, st.Trigger.At)
		}
	})
	t.Run("a pause with a duration keeps it, unless ended by hand first: then the window it had", func(t *testing.T) {
		env := newFakeEnv("w1", "w2")
		s, rec := schedule(t, head, env)
		s.Start(context.Background())
		long, err := s.Manual(manualSpec(t, "{kind: pause, client: w1, at: 1s, duration: 50s}"), false)
		if err != nil {
			t.Fatal(err)
		}
		short, err := s.Manual(manualSpec(t, "{kind: pause, client: w2, at: 1s, duration: 1s}"), false)
		if err != nil {
			t.Fatal(err)
		}
		eventually(t, "w2's thaw", func() bool { return env.has("thaw w2") })
		if err := s.EndManual(long.ID); err != nil {
			t.Fatal(err)
		}
		s.Stop()
		got := map[int]int64{}
		for _, op := range faultOps(rec) {
			got[op.Value.Fault.ID] = op.Value.Fault.Duration
		}
		if got[short.ID] != short.Duration {
			t.Errorf("the pause that ran its course closed with %d ns, want its planned %d", got[short.ID], short.Duration)
		}
		if got[long.ID] <= 0 || got[long.ID] >= long.Duration {
			t.Errorf("the pause ended by hand closed with %d ns, want the window it had (< its planned %d)", got[long.ID], long.Duration)
		}
	})
	t.Run("an instant jump closes at once, and nothing fires once the run is over", func(t *testing.T) {
		env := newFakeEnv("w1", "w2")
		s, rec := schedule(t, head, env)
		s.Start(context.Background())
		if _, err := s.Manual(manualSpec(t, "{kind: clock-jump, nodes: [n2], delta: 10s}"), true); err != nil || !env.has("shift n2") {
			t.Fatalf("err %v, calls %v: want n2's clock shifted", err, env.calls)
		}
		if err := s.EndManual(2); err == nil {
			t.Error("ending an instant step: want an error, it has no window")
		}
		s.Stop()
		if _, err := s.Manual(manualSpec(t, "{kind: crash, nodes: [n1]}"), true); !errors.Is(err, faults.ErrRunOver) {
			t.Errorf("after Stop: err %v, want ErrRunOver", err)
		}
		if ops := faultOps(rec); len(ops) != 1 || ops[0].Complete < 0 || !ops[0].Value.Fault.Instant() {
			t.Errorf("fault ops %+v, want the one instant jump, closed", ops)
		}
	})
	t.Run("a target the run does not have is refused before anything fires", func(t *testing.T) {
		env := newFakeEnv("w1", "w2")
		s, rec := schedule(t, head, env)
		s.Start(context.Background())
		sp := manualSpec(t, "{kind: crash, nodes: [n3]}")
		s2, _ := schedule(t, "clients: 2\nalgorithm: safe\nttl: 10s\nduration: 1m\nnodes: 1\n", env)
		s2.Start(context.Background())
		if _, err := s2.Manual(sp, true); err == nil {
			t.Error("crash of n3 on a one-node run: want an error")
		}
		s.Stop()
		s2.Stop()
		if n := len(faultOps(rec)); n != 0 {
			t.Errorf("%d fault ops, want none", n)
		}
	})
}
