package report

import (
	"context"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/history/historytest"
)

// wb builds a hand-written history of one of issue 4's workloads (TimeScale
// 1: scenario seconds = true seconds) in the runner's conventions.
type wb struct {
	h     history.History
	procs map[string]int
}

func newWB(scenario, workload, algorithm string, fenced bool, params map[string]int64, clients ...string) *wb {
	return &wb{h: history.History{Header: history.Header{Format: history.Format, Version: history.Version, Scenario: scenario,
		TimeScale: 1, Backend: "local", Algorithm: algorithm, Workload: workload, FencingEnforced: fenced,
		Clients: clients, Nodes: []string{"n1"}, Params: params}}, procs: map[string]int{}}
}

func sec(s float64) int64 { return int64(s * 1e9) }

func (b *wb) op(c string, f history.Func, key string, inv, comp float64, t history.Type, v history.Value) {
	p, ok := b.procs[c]
	if !ok {
		p = len(b.procs)
		b.procs[c] = p
	}
	if c == history.NemesisClient {
		p = history.NemesisProcess
	}
	b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: p, Client: c, F: f, Key: key, Value: v,
		Invoke: sec(inv), Complete: sec(comp), Type: t})
}

func (b *wb) acquire(c, key string, inv, comp float64, fence int64, ttl float64) {
	b.op(c, history.Acquire, key, inv, comp, history.OK, history.Value{Token: c + "-tok", Fence: fence, TTL: sec(ttl), Nodes: []string{"n1"}})
}
func (b *wb) release(c, key string, inv, comp float64, removed bool) {
	b.op(c, history.Release, key, inv, comp, history.OK, history.Value{Removed: removed, Nodes: []string{"n1"}})
}
func (b *wb) write(c, key, action string, inv, comp float64, fence int64, n *int64) {
	b.op(c, history.Write, key, inv, comp, history.OK, history.Value{Action: action, Fence: fence, Num: n})
}
func (b *wb) refused(c, key, action string, inv, comp float64, fence int64, why string, seen int64) {
	b.op(c, history.Write, key, inv, comp, history.Fail, history.Value{Action: action, Fence: fence, Refusal: why, SeenFence: seen})
}
func (b *wb) read(c, key, action string, inv, comp float64, n int64) {
	b.op(c, history.Read, key, inv, comp, history.OK, history.Value{Action: action, Num: &n})
}
func (b *wb) pause(c string, from, to float64) {
	b.op(history.NemesisClient, history.Fault, "", from, to, history.OK,
		historytest.Value(historytest.Step("pause", c)))
}

func n64(n int64) *int64 { return &n }

// jumpOf is a jump of client's own clock by d scenario seconds.
func jumpOf(client string, d float64) history.Value {
	st := historytest.Step("clock-jump", client)
	st.Delta = sec(d)
	return historytest.Value(st)
}

// input checks the history with the real checkers and wraps it for the
// report; the expectation is the verdict the case is built to show.
func (b *wb) input(description string, expect checker.Verdict) Input {
	rep := checker.Check(context.Background(), b.h, checker.Options{})
	return Input{History: b.h, Results: rep.Results, Verdict: rep.Verdict, Expect: string(expect),
		ScenarioFile: "scenarios/" + b.h.Header.Scenario + ".yaml", Description: description,
		Reproduce: "locksim run scenarios/" + b.h.Header.Scenario + ".yaml --seed 1", Version: "v0.1.0-test", WallSeconds: 1, Lang: "en"}
}

// workloadStories are issue 4's workloads, one broken or wasteful run each.
func workloadStories() []struct {
	name string
	in   Input
} {
	var out []struct {
		name string
		in   Input
	}
	add := func(name string, in Input) {
		out = append(out, struct {
			name string
			in   Input
		}{name, in})
	}
	{ // lock-theory S18 run A
		b := newWB("inventory-oversell", "inventory", "single", false, map[string]int64{"stock": 1}, "b1", "b2")
		b.acquire("b1", "item-1", 0, 0.1, 0, 2)
		b.read("b1", "item-1", "read-stock", 0.2, 0.3, 1)
		b.pause("b1", 0.4, 3.4)
		b.acquire("b2", "item-1", 2.1, 2.2, 0, 2)
		b.read("b2", "item-1", "read-stock", 2.3, 2.4, 1)
		b.write("b2", "item-1", "sell", 2.5, 2.6, 0, n64(0))
		b.release("b2", "item-1", 2.7, 2.8, true)
		b.write("b1", "item-1", "sell", 3.5, 3.6, 0, n64(-1))
		b.release("b1", "item-1", 3.7, 3.8, false)
		add("inventory-oversell", b.input("S18 run A: b1 pauses between reading the stock and selling.", checker.Invalid))
	}
	{ // counter, Kleppmann timeline 1
		b := newWB("counter-lost-update", "counter", "single", false, nil, "w1", "w2")
		b.acquire("w1", "counter-1", 0, 0.1, 0, 10)
		b.read("w1", "counter-1", "read-counter", 0.2, 0.3, 41)
		b.pause("w1", 1, 15)
		b.acquire("w2", "counter-1", 10.1, 10.2, 0, 10)
		b.read("w2", "counter-1", "read-counter", 10.3, 10.4, 41)
		b.write("w2", "counter-1", "set-counter", 10.5, 10.6, 0, n64(42))
		b.release("w2", "counter-1", 10.7, 10.8, true)
		b.write("w1", "counter-1", "set-counter", 15.1, 15.2, 0, n64(42))
		b.release("w1", "counter-1", 15.3, 15.4, false)
		add("counter-lost-update", b.input("w1 pauses between its read and its write of the counter.", checker.Invalid))
	}
	{ // lock-theory S22 run A
		b := newWB("cron-duplicate-run", "cron", "single", false, nil, "s1", "s2")
		b.acquire("s2", "lock:J", 59.2, 59.3, 0, 30)
		b.write("s2", "job@3", "run-job", 59.4, 59.7, 0, nil)
		b.release("s2", "lock:J", 59.8, 59.9, true)
		b.op(history.NemesisClient, history.Fault, "", 59, 61, history.OK, jumpOf("s1", -0.8))
		b.acquire("s1", "lock:J", 60, 60.1, 0, 30)
		b.write("s1", "job@3", "run-job", 60.2, 60.5, 0, nil)
		b.release("s1", "lock:J", 60.6, 60.7, true)
		add("cron-duplicate-run", b.input("S22 run A: lock + DEL with skewed scheduler clocks.", checker.Invalid))
	}
	{ // lock-theory S20 without an epoch check
		b := newWB("leader-split-brain", "leader", "lease", false, nil, "L1", "L2")
		b.acquire("L1", "leader", 0, 0.1, 1, 5)
		b.write("L1", "leader", "lead", 1, 1.1, 1, nil)
		b.pause("L1", 10, 18)
		b.acquire("L2", "leader", 15, 15.1, 2, 5)
		b.write("L2", "leader", "lead", 15.5, 15.6, 2, nil)
		b.write("L1", "leader", "lead", 18, 18.1, 1, nil)
		b.op("L1", history.Lost, "leader", 18.5, 18.5, history.OK, history.Value{})
		add("leader-split-brain", b.input("S20: the old leader's queued write goes out after a new election.", checker.Invalid))
	}
	{ // lock-theory S21 run A
		b := newWB("semaphore-over-admission", "semaphore", "zset-semaphore", false, map[string]int64{"permits": 2}, "S1", "S2", "S3")
		b.acquire("S1", "sem-1", 0, 0.1, 0, 10)
		b.write("S1", "sem-1", "enter", 0.2, 0.3, 0, nil)
		b.acquire("S2", "sem-1", 1, 1.1, 0, 10)
		b.write("S2", "sem-1", "enter", 1.2, 1.3, 0, nil)
		b.op(history.NemesisClient, history.Fault, "", 2, 4, history.OK, jumpOf("S3", 15))
		b.acquire("S3", "sem-1", 3, 3.1, 0, 10)
		b.write("S3", "sem-1", "enter", 3.2, 3.3, 0, nil)
		b.write("S3", "sem-1", "exit", 8, 8.1, 0, nil)
		b.release("S3", "sem-1", 8.2, 8.3, true)
		b.write("S1", "sem-1", "exit", 9, 9.1, 0, nil)
		b.release("S1", "sem-1", 9.2, 9.3, true)
		b.write("S2", "sem-1", "exit", 9.5, 9.6, 0, nil)
		b.release("S2", "sem-1", 9.7, 9.8, true)
		add("semaphore-over-admission", b.input("S21 run A: S3's fast clock purges the holders' entries.", checker.Invalid))
	}
	{ // efficiency lock
		b := newWB("cache-rebuild-waste", "cache-rebuild", "single", false, nil, "w1", "w2")
		b.acquire("w1", "cache-1", 0, 0.1, 0, 5)
		b.pause("w1", 1, 7)
		b.write("w1", "cache-1", "rebuild", 0.5, 8, 0, nil)
		b.acquire("w2", "cache-1", 5.1, 5.2, 0, 5)
		b.write("w2", "cache-1", "rebuild", 5.3, 7.5, 0, nil)
		b.release("w2", "cache-1", 7.6, 7.7, true)
		b.release("w1", "cache-1", 8.1, 8.2, false)
		add("cache-rebuild-waste", b.input("An efficiency lock: w1's lease expires mid-rebuild and w2 rebuilds too.", checker.Valid))
	}
	{ // lock-theory S05 (done) and S24-like stuck lock at the final probe
		b := newWB("done-and-stuck", "payment", "single", false, map[string]int64{"expect_live": 1}, "A", "B", "C", "probe")
		b.acquire("A", "invoice-1", 0, 0.01, 0, 10)
		b.write("A", "invoice-1", "claim", 1, 1.1, 0, nil)
		b.op("A", history.Done, "invoice-1", 8, 8, history.OK, history.Value{})
		b.pause("A", 8, 13)
		b.acquire("B", "invoice-1", 9.99, 10, 0, 10)
		b.release("A", "invoice-1", 13, 13.01, false)
		b.release("B", "invoice-1", 18, 18.01, true)
		b.acquire("C", "invoice-1", 18.1, 18.11, 0, 0)
		b.op("probe", history.Probe, "invoice-1", 40, 45, history.Fail, history.Value{})
		add("done-and-stuck", b.input("S05: A finishes at 8 s, pauses before its safe release; later C takes the lock with no TTL and stops.", checker.Invalid))
	}
	return out
}
