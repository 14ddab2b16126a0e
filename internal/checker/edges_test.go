package checker

import (
	"context"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// leftHeld is local-lock-left-held's plan at time scale 1: w1 holds the
// lock from 0.01 s, its replies are cut from 1 s for 2 s (a step at a
// time), and its release came at 3.01 s — just after the heal — so it
// went through; w2 is granted at 3.1 s. A harness 900 ms late from 2.1 s
// (where the release was due) is what lets the release miss the cut.
func leftHeld(trigger history.Trigger) *hb {
	b := newHB(false)
	b.acquire("w1", inv1, 0, 0.01, 0)
	b.planned(b.fault("partition", []string{"w1→n1"}, 1, 3), trigger, 2)
	b.acquireFail("w2", inv1, 1.5, 1.51)
	b.release("w1", inv1, 3.01, 3.02, true)
	b.acquire("w2", inv1, 3.1, 3.11, 0)
	b.write("w2", inv1, workload.ActionCharge, 3.2, 3.21, 0)
	b.release("w2", inv1, 3.3, 3.31, true)
	return b
}

// planned gives the fault at history index f the trigger and the
// duration (scenario s at time scale 1) of its plan step, and adds the
// step to the header's plan.
func (b *hb) planned(f int, trigger history.Trigger, dur float64) {
	st := b.h.Ops[f].Value.Fault
	st.Trigger, st.Duration = trigger, ns(dur)
	b.h.Header.Plan = append(b.h.Header.Plan, *st)
}

// releaseLater moves w1's release of leftHeld (history index 3) to 3.5 s,
// out of every stretch of these cases.
func releaseLater(b *hb) { b.h.Ops[3].Invoke, b.h.Ops[3].Complete = ns(3.5), ns(3.51) }

func TestAStretchOfLatenessOverAFaultEdgeLosesTheOrderOfWhatCameInIt(t *testing.T) {
	at1 := history.Trigger{Kind: history.TriggerAt, At: ns(1)}
	tests := []struct {
		name    string
		h       func() *hb
		crossed bool
		end     bool
	}{
		{"a 900 ms stretch over the partition's end, with the cut client's release begun in it, is crossed",
			func() *hb { b := leftHeld(at1); b.lag(2.1, 3.0); return b }, true, true},
		{"a 30 ms stretch over the same end is under EdgeLag",
			func() *hb { b := leftHeld(at1); b.lag(2.975, 3.005); return b }, false, false},
		{"a stretch that ends before the edge is not over it",
			func() *hb { b := leftHeld(at1); b.lag(2.1, 2.9); return b }, false, false},
		{"an end due before the stretch began, with the release after it, kept the plan's order",
			func() *hb {
				b := leftHeld(at1)
				b.h.Ops[1].Complete = ns(3.05) // healed 50 ms late, due at 3 s
				b.h.Ops[3].Invoke, b.h.Ops[3].Complete = ns(3.055), ns(3.06)
				b.lag(3.01, 3.06)
				return b
			}, false, false},
		{"an operation begun before the end was due kept the plan's order",
			func() *hb {
				b := leftHeld(at1)
				releaseLater(b)
				b.acquireFail("w1", inv1, 2.95, 2.96)
				b.lag(2.1, 3.0)
				return b
			}, false, false},
		{"a stretch over the end with only another client's operation in it is not crossed: the cut was w1's alone",
			func() *hb {
				b := leftHeld(at1)
				releaseLater(b)
				b.acquireFail("w2", inv1, 3.005, 3.006)
				b.lag(2.1, 3.0)
				return b
			}, false, false},
		{"a stretch over the start of a step planned before the clients start is no race",
			func() *hb {
				b := leftHeld(history.Trigger{Kind: history.TriggerAt})
				b.lag(0.95, 1.01)
				b.acquireFail("w1", inv1, 1.005, 1.006)
				return b
			}, false, false},
		{"a stretch over the start of a step at a time, with the cut client's operation in it, is crossed",
			func() *hb {
				b := leftHeld(at1)
				b.lag(0.95, 1.01)
				b.acquireFail("w1", inv1, 1.005, 1.006)
				return b
			}, true, false},
		{"a stretch over the start of a step at w1's own point, with only w1's operation in it, is not crossed",
			func() *hb {
				b := leftHeld(history.Trigger{Kind: history.TriggerPoint, Client: "w1"})
				b.lag(0.95, 1.01)
				b.acquireFail("w1", inv1, 1.005, 1.006)
				return b
			}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.h()
			e, ok := edgeCrossed(account.New(b.h))
			if ok != tt.crossed {
				t.Fatalf("crossed %v (%+v), want %v", ok, e, tt.crossed)
			}
			if ok && (e.End != tt.end || e.Step != 2 || b.h.Ops[e.Op].Invoke <= e.LagFrom) {
				t.Errorf("edge %+v, want step 2's end %v with an operation begun in the stretch", e, tt.end)
			}
		})
	}
}

func TestARunValidOnlyBecauseALateHarnessMovedTheReleasePastTheHealIsUnknownAndRetried(t *testing.T) {
	b := leftHeld(history.Trigger{Kind: history.TriggerAt, At: ns(1)})
	if rep := Check(context.Background(), b.h, Options{}); rep.Verdict != Valid {
		t.Fatalf("without the stretch: %s, want valid (the plan's test case is wrong): %+v", rep.Verdict, rep.Results)
	}
	b.lag(2.1, 3.0)
	rep := Check(context.Background(), b.h, Options{})
	if rep.Verdict != Unknown {
		t.Fatalf("verdict %s, want unknown: %+v", rep.Verdict, rep.Results)
	}
	cov := rep.Results[len(rep.Results)-1]
	if cov.Edge == nil || !cov.RaceLost || !strings.Contains(cov.Summary, "step #2 (partition)'s end came at t=3s and w1's release began at t=3.01s") {
		t.Errorf("coverage %q (edge %+v), want the partition's end and w1's release named", cov.Summary, cov.Edge)
	}
	if c, _ := Spoiled(rep.Verdict, rep.Results); c != SpoiledBusy {
		t.Errorf("spoiled %q, want %q: a rerun with less load can settle it", c, SpoiledBusy)
	}
}

// crashed is a history in which n1 is crashed from 1 s for 2 s (a step at
// a time): its kill returned at deadFrom, its restart began at deadTo and
// returned (redis-server up again) at up; w1 holds the lock from 0.01 s.
func crashed(deadFrom, deadTo, up float64) *hb {
	b := newHB(false)
	b.acquire("w1", inv1, 0, 0.01, 0)
	f := b.fault("crash", []string{"n1"}, 1, up)
	b.h.Ops[f].Value.DeadFrom, b.h.Ops[f].Value.DeadTo = ns(deadFrom), ns(deadTo)
	b.planned(f, history.Trigger{Kind: history.TriggerAt, At: ns(1)}, 2)
	return b
}

func TestAStretchOverAFaultEdgeIsJudgedByWhenTheEdgeWasDueAndWhenItFired(t *testing.T) {
	tests := []struct {
		name    string
		h       func() *hb
		crossed bool
		at      float64 // the edge named, scenario s
	}{
		{"an end due 5 ms before the stretch was recorded may have waited in it, and a release begun after it may have been due before it",
			func() *hb {
				b := leftHeld(history.Trigger{Kind: history.TriggerAt, At: ns(1)})
				b.h.Ops[1].Complete = ns(3.05) // healed 50 ms late, due at 3 s
				b.h.Ops[3].Invoke, b.h.Ops[3].Complete = ns(3.055), ns(3.06)
				b.lag(3.005, 3.06) // the watch's tick before was on time at 3 s
				return b
			}, true, 3.05},
		{"a restarted client's first operation after its restart came after it by construction",
			func() *hb {
				b := newHB(false)
				b.acquire("w1", inv1, 0, 0.01, 0)
				b.planned(b.fault("restart-client", []string{"w1"}, 1, 3.001), history.Trigger{Kind: history.TriggerAt, At: ns(1)}, 2)
				b.acquireFail("w1", inv1, 3.005, 3.01) // the new incarnation's first acquire
				b.lag(2.99, 3.05)
				return b
			}, false, 0},
		{"an operation begun before a crashed node's restart was due, counted from its kill's return, kept the plan's order",
			func() *hb {
				b := crashed(1.03, 3.08, 3.085) // the kill took 30 ms: the restart was due at 3.03 s
				b.acquireFail("w2", inv1, 3.025, 3.03)
				b.release("w1", inv1, 3.3, 3.31, true)
				b.lag(3.02, 3.08)
				return b
			}, false, 0},
		{"a crashed node's restart that began in the stretch is over it, however long redis-server took to come back",
			func() *hb {
				b := crashed(1.001, 3.06, 3.12) // the restart fired at the stretch's end; the node was up 60 ms later
				b.acquireFail("w2", inv1, 3.061, 3.065)
				b.release("w1", inv1, 3.3, 3.31, true)
				b.lag(2.95, 3.06)
				return b
			}, true, 3.06},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.h()
			e, ok := edgeCrossed(account.New(b.h))
			if ok != tt.crossed {
				t.Fatalf("crossed %v (%+v), want %v", ok, e, tt.crossed)
			}
			if ok && (!e.End || e.Step != 2 || e.At != ns(tt.at) || b.h.Ops[e.Op].Invoke <= e.LagFrom) {
				t.Errorf("edge %+v, want step 2's end at %v s with an operation begun in the stretch", e, tt.at)
			}
		})
	}
}
