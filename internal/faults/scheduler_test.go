package faults_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
)

// fakeEnv records what steps do to the run.
type fakeEnv struct {
	mu      sync.Mutex
	calls   []string
	gates   map[string]*faults.Gate
	failing map[string]bool // node names whose operations fail
}

func newFakeEnv(clients ...string) *fakeEnv {
	e := &fakeEnv{gates: map[string]*faults.Gate{}, failing: map[string]bool{}}
	for _, c := range clients {
		e.gates[c] = faults.NewGate(nil)
	}
	return e
}

func (e *fakeEnv) record(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.calls = append(e.calls, s)
}

func (e *fakeEnv) has(s string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Contains(e.calls, s)
}

func (e *fakeEnv) Link(c, n string) (faults.Link, error) { return fakeLink{e, c + "→" + n}, nil }
func (e *fakeEnv) Node(n string) (faults.Node, error)    { return fakeNode{e, n}, nil }
func (e *fakeEnv) Client(c string) (faults.Client, error) {
	g, ok := e.gates[c]
	if !ok {
		return nil, fmt.Errorf("no client %s", c)
	}
	return fakeClient{e, c, g}, nil
}

type fakeLink struct {
	e    *fakeEnv
	name string
}

func (l fakeLink) Cut(mode, dir string) error          { l.e.record("cut " + l.name); return nil }
func (l fakeLink) Uncut() error                        { l.e.record("uncut " + l.name); return nil }
func (l fakeLink) AddLatency(_, _ time.Duration) error { l.e.record("slow " + l.name); return nil }
func (l fakeLink) RemoveLatency() error                { l.e.record("fast " + l.name); return nil }
func (l fakeLink) Reset() error                        { l.e.record("reset " + l.name); return nil }
func (l fakeLink) RemoveReset() error                  { l.e.record("unreset " + l.name); return nil }

type fakeNode struct {
	e    *fakeEnv
	name string
}

func (n fakeNode) op(what string) error {
	if n.e.failing[n.name] {
		return errors.New(n.name + " is down")
	}
	n.e.record(what + " " + n.name)
	return nil
}
func (n fakeNode) Kill() error                                         { return n.op("kill") }
func (n fakeNode) Restart(context.Context) error                       { return n.op("restart") }
func (n fakeNode) Pause() error                                        { return n.op("stop") }
func (n fakeNode) Resume() error                                       { return n.op("cont") }
func (n fakeNode) ShiftClock(_ context.Context, d time.Duration) error { return n.op("shift") }
func (n fakeNode) DeleteKey(_ context.Context, k string) error         { return n.op("del " + k + " on") }

type fakeClient struct {
	e    *fakeEnv
	name string
	g    *faults.Gate
}

func (c fakeClient) Freeze()             { c.e.record("freeze " + c.name); c.g.Freeze() }
func (c fakeClient) Thaw()               { c.e.record("thaw " + c.name); c.g.Thaw() }
func (c fakeClient) Crash()              { c.e.record("crash " + c.name); c.g.Crash() }
func (c fakeClient) Starve()             { c.e.record("starve " + c.name) }
func (c fakeClient) Feed()               { c.e.record("feed " + c.name) }
func (c fakeClient) Clock() faults.Clock { return fakeClock{c} }

type fakeClock struct{ c fakeClient }

func (k fakeClock) Jump(time.Duration) { k.c.e.record("jump " + k.c.name) }
func (k fakeClock) SetRate(float64)    { k.c.e.record("rate " + k.c.name) }

func schedule(t *testing.T, yaml string, env *fakeEnv) (*faults.Scheduler, *history.Recorder) {
	t.Helper()
	sc := parse(t, yaml)
	plan, err := faults.NewPlan(sc.Faults, sc.Nemesis, 1, topology(sc))
	if err != nil {
		t.Fatal(err)
	}
	rec := history.NewRecorder(time.Now())
	return faults.NewScheduler(plan, env, rec, faults.SchedulerOptions{}), rec
}

func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func faultOps(rec *history.Recorder) []history.Op {
	var out []history.Op
	for _, op := range rec.Ops() {
		if op.F == history.Fault {
			out = append(out, op)
		}
	}
	return out
}

func TestSchedulerCarriesOutThePlan(t *testing.T) {
	const head = "clients: 2\nalgorithm: safe\nttl: 10s\nduration: 1m\ntime_scale: 100\n"
	t.Run("a timed step is applied, held for its duration and undone", func(t *testing.T) {
		env := newFakeEnv("w1", "w2")
		s, rec := schedule(t, head+"faults:\n  - {kind: partition, at: 1s, duration: 2s, clients: [w1], nodes: [n1]}\n", env)
		ctx := context.Background()
		s.Prepare(ctx)
		s.Start(ctx)
		eventually(t, "the undo", func() bool { return env.has("uncut w1→n1") })
		s.Stop()
		ops := faultOps(rec)
		if len(ops) != 1 || ops[0].Type != history.OK || ops[0].Value.Fault.ID != 1 {
			t.Fatalf("fault ops %+v, want one ok op of step 1", ops)
		}
		// 1 s and 2 s of scenario time at scale 100: 10 ms and 20 ms wall.
		if ops[0].Invoke < int64(10*time.Millisecond) || ops[0].Complete-ops[0].Invoke < int64(20*time.Millisecond) {
			t.Errorf("window [%d, %d] ns: want from ≥ 10 ms, lasting ≥ 20 ms", ops[0].Invoke, ops[0].Complete)
		}
	})
	t.Run("a point step fires the nth time the client reaches the point and freezes it there", func(t *testing.T) {
		env := newFakeEnv("w1", "w2")
		s, rec := schedule(t, head+"faults:\n  - {kind: pause, client: w1, point: before-write, occurrence: 2, duration: 5s}\n", env)
		g := faults.NewGate(func(p string) { s.Point("w1", p) })
		env.gates["w1"] = g
		ctx := context.Background()
		s.Start(ctx)
		if err := g.Point(ctx, history.PointBeforeWrite); err != nil || env.has("freeze w1") {
			t.Fatalf("the first time: err %v, calls %v; want nothing to fire", err, env.calls)
		}
		began := time.Now()
		if err := g.Point(ctx, history.PointBeforeWrite); err != nil {
			t.Fatal(err)
		}
		// The gate let the client pass only after the thaw.
		if !env.has("thaw w1") || time.Since(began) < 50*time.Millisecond {
			t.Errorf("passed after %v with calls %v; want to wait out the 50 ms pause", time.Since(began), env.calls)
		}
		s.Stop()
		if ops := faultOps(rec); len(ops) != 1 || ops[0].Value.Fault.Trigger.Occurrence != 2 {
			t.Errorf("fault ops %+v", ops)
		}
	})
	t.Run("an event step waits for its event and fires its delay later", func(t *testing.T) {
		env := newFakeEnv("w1", "w2")
		s, rec := schedule(t, head+"nodes: 5\nfaults:\n  - {kind: crash, when: {client: w1, event: granted-by, node: n3}, delay: 1s, nodes: [n3], restart_after: 1s}\n  - {kind: crash-client, client: w2, when: {client: w2, event: acquired}}\n", env)
		ctx := context.Background()
		s.Start(ctx)
		s.Event("w1", []string{"n1", "n2"})
		time.Sleep(30 * time.Millisecond)
		if env.has("kill n3") {
			t.Fatal("the crash fired on a grant by n1, n2")
		}
		s.Event("w1", []string{"n3"})
		eventually(t, "the restart", func() bool { return env.has("restart n3") })
		s.Stop()
		if fired := s.Fired(); !fired[1] || fired[2] {
			t.Errorf("fired %v: want step 1 only (w2 never acquired)", fired)
		}
		if n := len(faultOps(rec)); n != 1 {
			t.Errorf("%d fault ops, want 1", n)
		}
		eventually(t, "the crash's operation to close", func() bool { ops := faultOps(rec); return len(ops) == 1 && ops[0].Complete >= 0 })
		op := faultOps(rec)[0]
		if v := op.Value; v.DeadFrom < op.Invoke || v.DeadTo < v.DeadFrom || v.DeadTo > op.Complete || v.DeadTo == 0 {
			t.Errorf("crash op [%d, %d] records its nodes down over [%d, %d]: want a window inside it, from the kill's return to the restart's start", op.Invoke, op.Complete, v.DeadFrom, v.DeadTo)
		}
	})
	t.Run("a step whose apply fails is recorded as failed and not held", func(t *testing.T) {
		env := newFakeEnv("w1", "w2")
		env.failing["n1"] = true
		s, rec := schedule(t, head+"faults:\n  - {kind: pause-node, at: 0s, duration: 1s, nodes: [n1]}\n", env)
		ctx := context.Background()
		s.Prepare(ctx)
		s.Start(ctx)
		s.Stop()
		ops := faultOps(rec)
		if len(ops) != 1 || ops[0].Type != history.Fail || ops[0].Error == "" {
			t.Fatalf("fault ops %+v, want one failed op with its error", ops)
		}
	})
	t.Run("finish undoes a step that lasts until the end and closes its operation", func(t *testing.T) {
		env := newFakeEnv("w1", "w2")
		s, rec := schedule(t, head+"faults:\n  - {kind: latency, at: 0s, nodes: all, latency: 5ms}\n  - {kind: clock-jump, at: 0s, clients: [w2], delta: 5s}\n", env)
		ctx := context.Background()
		s.Prepare(ctx)
		s.Start(ctx)
		s.Stop()
		if env.has("fast w1→n1") {
			t.Fatal("undone before Finish")
		}
		if err := s.Finish(); err != nil {
			t.Fatal(err)
		}
		if !env.has("fast w1→n1") || !env.has("fast w2→n1") || !env.has("jump w2") {
			t.Errorf("calls %v", env.calls)
		}
		for _, op := range faultOps(rec) {
			if op.Open() || op.Type != history.OK {
				t.Errorf("op %+v left open", op)
			}
		}
	})
}
