package checker

import (
	"context"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// hostSleep is redis-semaphore-4-host-sleep as it ran beside two CPU hogs
// in a loaded `make test` (times are its wall seconds, at time scale 1
// here): w2's refused tries took tries[k] seconds each, where the run's
// quickest took 4.7 ms, so its fourth began at 331.4 ms, just before the
// host sleep froze it (333.9 ms), and hung through it; the SET it sent on
// waking left w2's key behind, w1 lost its lock on waking and never
// charged, and w2 charged alone: valid, where the plan plays an overlap.
func hostSleep(tries ...float64) *hb {
	b := newHB(false)
	b.acquire("w1", inv1, 0.0002, 0.019, 0)
	b.read("w1", inv1, 0.019, 0.0371, "unpaid")
	at := 0.1338
	for _, d := range tries {
		b.acquireFail("w2", inv1, at, at+d)
		at += d + 0.0427
	}
	b.op("w2", history.Acquire, inv1, 0.3314, 2.0174, history.Info, history.Value{Token: "w2-tok"})
	b.planned(b.fault("pause", []string{"w1"}, 0.3336, 2.335), history.Trigger{Kind: history.TriggerAt, At: ns(0.3333)}, 2.0)
	b.planned(b.fault("pause", []string{"w2"}, 0.3339, 2.0012), history.Trigger{Kind: history.TriggerAt, At: ns(0.3333)}, 1.6667)
	b.planned(b.fault("pause-node", []string{"n1"}, 0.5005, 1.8366), history.Trigger{Kind: history.TriggerAt, At: ns(0.5)}, 1.3333)
	b.acquireFail("w2", inv1, 2.2981, 2.3028)
	b.lost("w1", inv1, 2.3516)
	b.acquire("w2", inv1, 3.707, 3.715, 0)
	b.write("w2", inv1, workload.ActionCharge, 4.426, 4.426, 0)
	b.release("w2", inv1, 4.426, 4.4624, true)
	b.acquire("w1", inv1, 4.4625, 4.4754, 0)
	b.release("w1", inv1, 4.4924, 4.5223, true)
	return b
}

// slowReader is w1 reading five times, the first in 5 ms, the next three
// in 50 ms each (129 ms behind its pace, DriftJitter spared), the fifth
// begun 5 ms before a pause of paused from 0.21 s to 0.3 s and in flight
// at it.
func slowReader(paused string) *hb {
	b := newHB(false)
	b.acquire("w1", inv1, 0, 0.001, 0)
	b.read("w1", inv1, 0.001, 0.006, "unpaid")
	for k := range 3 {
		at := 0.01 + 0.06*float64(k)
		b.read("w1", inv1, at, at+0.05, "unpaid")
	}
	b.read("w1", inv1, 0.205, 0.32, "unpaid")
	b.planned(b.fault("pause", []string{paused}, 0.21, 0.3), history.Trigger{Kind: history.TriggerAt, At: ns(0.21)}, 0.09)
	b.acquireFail("w2", inv1, 0.4, 0.401)
	return b
}

// afterAcquired is w1 acquiring at 0–10 ms, a crash of n1 planned 150
// ms after that acquire (at 0.16 s, for 50 ms), and w1's job reads: the
// first in 5 ms, the next three in 50 ms each (DriftJitter spared, 129
// ms behind its pace by its charge), the third in flight at the crash and
// the charge after it, where at its pace it came before it. The crash
// came on time after the event: w1's slowness after its acquire moved
// w1, not the edge.
func afterAcquired() *hb {
	b := newHB(false)
	b.acquire("w1", inv1, 0, 0.01, 0)
	b.read("w1", inv1, 0.011, 0.016, "unpaid")
	for k := range 3 {
		at := 0.02 + 0.06*float64(k)
		b.read("w1", inv1, at, at+0.05, "unpaid")
	}
	b.planned(b.fault("crash", []string{"n1"}, 0.16, 0.21), history.Trigger{Kind: history.TriggerEvent, Client: "w1", Event: history.EventAcquired, Delay: ns(0.15)}, 0.05)
	b.write("w1", inv1, workload.ActionCharge, 0.2, 0.201, 0)
	b.release("w1", inv1, 0.202, 0.203, true)
	return b
}

// beforeAcquired is w1 refused four times before it acquires at 0.19 s,
// the first in 5 ms, the next three in 50 ms each (129 ms behind its
// pace), a crash of n1 planned 150 ms after that acquire, and w1's reads
// after it, one begun after the crash: the acquire came as late as w1's
// slowness made it, and the crash with it.
func beforeAcquired() *hb {
	b := newHB(false)
	b.acquireFail("w1", inv1, 0, 0.005)
	for k := range 3 {
		at := 0.01 + 0.06*float64(k)
		b.acquireFail("w1", inv1, at, at+0.05)
	}
	b.acquire("w1", inv1, 0.19, 0.195, 0)
	b.planned(b.fault("crash", []string{"n1"}, 0.345, 0.395), history.Trigger{Kind: history.TriggerEvent, Client: "w1", Event: history.EventAcquired, Delay: ns(0.15)}, 0.05)
	b.read("w1", inv1, 0.2, 0.205, "unpaid")
	b.read("w1", inv1, 0.3, 0.305, "unpaid")
	b.read("w1", inv1, 0.35, 0.355, "unpaid")
	return b
}

// ownKeyTries is a Redlock run on n1–n3 in which w1 holds n1 and n2 and
// w2 tries four times: the first in 5 ms, the next two in 50 ms each (86
// ms behind its pace), each refused try setting w2's key on n3 and its
// unlock taking it back (a Lua DEL), the third answered at 1.2 s; n1
// crashes at 1.22 s, and w2's fourth try, at 1.25 s, is granted. With
// left, w2's key on n3 is one it set at 0.5 s and never took back, which
// expires at 1.19 s: its next try at its pace, after that, could have
// had n3.
func ownKeyTries(left bool) *hb {
	b := newHB(false)
	b.h.Header.Nodes = []string{"n1", "n2", "n3"}
	b.h.Header.Observed = b.h.Header.Nodes
	b.h.Header.Traits = []string{history.TraitMultiNode}
	cmd := func(c, node string, at float64, lua bool, args ...string) {
		b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, Client: c, F: history.NodeCmd,
			Key: inv1, Value: history.Value{Node: node, Cmd: args, Lua: lua}, Invoke: ns(at), Complete: ns(at), Type: history.OK})
	}
	b.op("w1", history.Acquire, inv1, 0, 0.01, history.OK, history.Value{Token: "w1-tok", TTL: ns(30), Nodes: []string{"n1", "n2"}})
	cmd("w1", "n1", 0.005, false, "SET", inv1, "w1-tok", "NX", "PX", "30000")
	cmd("w1", "n2", 0.005, false, "SET", inv1, "w1-tok", "NX", "PX", "30000")
	if left {
		cmd("w2", "n3", 0.5, false, "SET", inv1, "w2-old", "NX", "PX", "690")
	}
	for _, tr := range [][2]float64{{1.0, 1.005}, {1.05, 1.1}, {1.15, 1.2}} {
		b.acquireFail("w2", inv1, tr[0], tr[1])
		if !left {
			cmd("w2", "n3", tr[0]+0.001, false, "SET", inv1, "w2-tok", "NX", "PX", "30000")
			cmd("w2", "n3", tr[1]-0.001, true, "DEL", inv1)
		}
	}
	crashN1(b, 1.22)
	b.op("w2", history.Acquire, inv1, 1.25, 1.26, history.OK, history.Value{Token: "w2-tok", TTL: ns(30), Nodes: []string{"n1", "n3"}})
	cmd("w2", "n1", 1.251, false, "SET", inv1, "w2-tok", "NX", "PX", "30000")
	cmd("w2", "n3", 1.252, false, "SET", inv1, "w2-tok", "NX", "PX", "30000")
	return b
}

// pausedInJob is w1 reading five times, the first in 5 ms, the next
// three in 50 ms each (129 ms behind its pace by 0.18 s), then sleeping
// through its job, paused from 0.5 s to 0.7 s, and charging at charge
// (its sleep's end, if after the wake); n1 crashes at crash.
func pausedInJob(charge, crash float64) *hb {
	b := newHB(false)
	b.acquire("w1", inv1, 0, 0.001, 0)
	b.read("w1", inv1, 0.001, 0.006, "unpaid")
	for k := range 3 {
		at := 0.01 + 0.06*float64(k)
		b.read("w1", inv1, at, at+0.05, "unpaid")
	}
	b.planned(b.fault("pause", []string{"w1"}, 0.5, 0.7), history.Trigger{Kind: history.TriggerAt, At: ns(0.5)}, 0.2)
	b.write("w1", inv1, workload.ActionCharge, charge, charge+0.001, 0)
	b.release("w1", inv1, charge+0.002, charge+0.003, true)
	b.planned(b.fault("crash", []string{"n1"}, crash, crash+0.01), history.Trigger{Kind: history.TriggerAt, At: ns(crash)}, 0.01)
	return b
}

// crashN1 adds a crash of n1 planned at at (scenario seconds) for 10 ms.
func crashN1(b *hb, at float64) {
	b.planned(b.fault("crash", []string{"n1"}, at, at+0.01), history.Trigger{Kind: history.TriggerAt, At: ns(at)}, 0.01)
}

// noTryAtSleep ends hostSleep's fourth try of w2 at once: no try in
// flight at its host sleep.
func noTryAtSleep(b *hb) { b.h.Ops[opAt(b, "w2", 0.3314)].Complete = ns(0.3316) }

// opAt is the history index of c's operation invoked at inv (scenario
// seconds) in b.
func opAt(b *hb, c string, inv float64) int {
	for i, op := range b.h.Ops {
		if op.Client == c && op.Invoke == ns(inv) {
			return i
		}
	}
	panic("no such operation")
}

func TestAClientsOwnSlownessThatMovedAFaultEdgeAcrossItsOperationsLosesTheOrder(t *testing.T) {
	tests := []struct {
		name     string
		h        func() *hb
		crossed  bool
		inFlight bool
		client   string
	}{
		{"w2's tries 53 ms behind their pace had one in flight at its host sleep, where at its pace it would have ended before it",
			func() *hb { return hostSleep(0.0099, 0.0204, 0.040) }, true, true, "w2"},
		{"the same tries at their quiet length kept the plan's course",
			func() *hb { return hostSleep(0.0049, 0.0051, 0.0047) }, false, false, ""},
		{"a try in flight at the sleep only by its own length, begun 32 ms before it, is not the drift's doing",
			func() *hb {
				b := hostSleep(0.0099, 0.0204, 0.040)
				b.h.Ops[opAt(b, "w2", 0.3314)].Invoke = ns(0.302)
				return b
			}, false, false, ""},
		{"30 ms behind is under DriftFloor, the lateness the harness's own timers are allowed over an edge",
			func() *hb { return hostSleep(0.0099, 0.0104, 0.020) }, false, false, ""},
		{"slowness inside another fault's window is that fault's: a latency on w2's link over its slow tries",
			func() *hb {
				b := hostSleep(0.0099, 0.0204, 0.040)
				b.planned(b.fault("latency", []string{"w2→n1"}, 0.13, 0.30), history.Trigger{Kind: history.TriggerAt, At: ns(0.13)}, 0.17)
				return b
			}, false, false, ""},
		{"a try that began after a node's crash, where at its pace it would have been in flight at it, crossed the crash's start",
			func() *hb {
				b := hostSleep(0.0099, 0.0204, 0.0367)
				crashN1(b, 0.29)
				return b
			}, true, false, "w2"},
		{"a crash between two refused tries, at its pace as it ran, is the same place in one loop of tries",
			func() *hb {
				b := hostSleep(0.0099, 0.0204, 0.040)
				noTryAtSleep(b)
				crashN1(b, 0.31)
				return b
			}, false, false, ""},
		{"but not when another client's hold ended between them: the try at its pace could have been granted",
			func() *hb {
				b := hostSleep(0.0099, 0.0204, 0.040)
				b.release("w1", inv1, 0.295, 0.296, true)
				crashN1(b, 0.31)
				return b
			}, true, false, "w2"},
		{"nor when another client's hold ended while the refused try before the edge was in flight: the try read the lock before it was freed",
			func() *hb {
				b := hostSleep(0.0099, 0.0204, 0.040)
				noTryAtSleep(b)
				b.release("w1", inv1, 0.26, 0.261, true) // during w2's third try (0.2495–0.2895 s)
				crashN1(b, 0.31)
				return b
			}, true, false, "w2"},
		{"a refused Redlock try's own key, set and taken back within the try, freed nothing for the next",
			func() *hb { return ownKeyTries(false) }, false, false, ""},
		{"but a key the client left from before its tries, gone between them, may have",
			func() *hb { return ownKeyTries(true) }, true, false, "w2"},
		{"w1's slow reads, one in flight at a pause of w2 alone, do not count: the pause was not w1's",
			func() *hb { return slowReader("w2") }, false, false, ""},
		{"the same reads against a pause of w1 itself moved its edge",
			func() *hb { return slowReader("w1") }, true, true, "w1"},
		{"a slow renewal beside the job adds no drift",
			func() *hb {
				b := hostSleep(0.0049, 0.0051, 0.0047)
				b.op("w2", history.Extend, inv1, 0.14, 0.30, history.OK, history.Value{})
				return b
			}, false, false, ""},
		{"an edge a client's event fired moves with that client's slowness before the event",
			beforeAcquired, false, false, ""},
		{"an edge a client's event fired moves with the drift it had at the event, not with its slowness after it",
			afterAcquired, true, false, "w1"},
		{"reads a long renewal overlapped add no drift, though it began before the read before them",
			func() *hb {
				b := slowReader("w1")
				b.op("w1", history.Extend, inv1, 0.0095, 0.2, history.OK, history.Value{}) // a renewal's WAIT on the reads' connection
				return b
			}, false, false, ""},
		{"drift before w2's own pause counts for nothing after it: its pace is set again when it wakes and goes on at once",
			func() *hb {
				b := hostSleep(0.0099, 0.0204, 0.040)
				noTryAtSleep(b)
				b.acquireFail("w2", inv1, 2.0025, 2.0072) // at the wake: the try in flight at the crash is the plan's
				crashN1(b, 2.004)
				return b
			}, false, false, ""},
		{"drift before a pause that fell in its job's sleep outlives it: the sleep ended after the wake, drift earlier at its pace",
			func() *hb { return pausedInJob(1.0, 0.95) }, true, false, "w1"},
		{"but not when the sleep ended within the pause: at its pace and as it ran, the client went on at the wake",
			func() *hb { return pausedInJob(0.7, 0.7015) }, false, false, ""},
		{"nor through a restart: the new incarnation begins its course anew",
			func() *hb {
				b := pausedInJob(1.0, 0.95)
				st := b.h.Ops[opAt(b, "nemesis", 0.5)].Value.Fault
				*st = stepOf("restart-client", []string{"w1"})
				st.ID, st.Trigger, st.Duration = 6, history.Trigger{Kind: history.TriggerAt, At: ns(0.5)}, ns(0.2)
				b.h.Header.Plan[0] = *st
				return b
			}, false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.h()
			d, ok := driftCrossed(account.New(b.h))
			if ok != tt.crossed {
				t.Fatalf("crossed = %v (%+v), want %v", ok, d, tt.crossed)
			}
			if !ok {
				return
			}
			if d.InFlight != tt.inFlight || d.Client != tt.client || d.DriftNS < DriftFloor {
				t.Errorf("got %+v, want in flight %v, client %s, drift ≥ %d", d, tt.inFlight, tt.client, DriftFloor)
			}
			if op := b.h.Ops[d.Op]; op.Client != tt.client {
				t.Errorf("op #%d is %s's %s, want one of %s's", d.Op, op.Client, op.F, tt.client)
			}
		})
	}
}

func TestAValidRunWhoseClientDriftedAcrossAFaultEdgeIsUnknown(t *testing.T) {
	b := hostSleep(0.0099, 0.0204, 0.040)
	r := Coverage(context.Background(), b.h)
	if r.Verdict != Unknown || !r.RaceLost || r.Drift == nil {
		t.Fatalf("coverage = %s (race lost %v, drift %+v): %s; want unknown with the drift", r.Verdict, r.RaceLost, r.Drift, r.Summary)
	}
	for _, want := range []string{"too busy for w2 to keep its own pace", "w2's operations with no fault over them ran slower than the quickest of their kind in the run (3 of them), which put it 50.2ms (wall) behind its own pace", "in flight at the start of step #", "would have ended before it"} {
		if !strings.Contains(r.Summary, want) {
			t.Errorf("summary %q lacks %q", r.Summary, want)
		}
	}
	if cause, _ := Spoiled(r.Verdict, []Result{r}); cause == "" {
		t.Error("a drift crossed is not counted as the machine's doing: a suite would not rerun it")
	}
}
