package report

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/history/historytest"
)

// genBusy generates a realistic fenced payment history of about n
// operations: clients workers competing for keys (a window of 200 open
// invoices moving through keys over the run, a few of them hot), refused
// acquire attempts retried every 100 ms while the key is held, reads,
// charges and mark-paids, releases, a handful of stop-the-world pauses
// longer than the TTL (the paused holder's late charge is refused by the
// fenced resource and its release removes nothing) and one latency fault
// on the node. Ops are ordered by invoke, as the recorder writes them.
func genBusy(seed uint64, n, clients, keys int) history.History {
	rng := rand.New(rand.NewPCG(seed, 7))
	names := make([]string, clients)
	for i := range names {
		names[i] = fmt.Sprintf("w%d", i+1)
	}
	h := history.History{Header: history.Header{
		Format: history.Format, Version: history.Version, Scenario: "bench-busy", Seed: int64(seed), TimeScale: 1,
		Backend: "local", Algorithm: "fenced", Workload: "payment", FencingEnforced: true, Clients: names,
		Nodes: []string{"n1"}, RedisVersion: "7.0.15", Started: time.Unix(0, 0).UTC(),
	}}
	const (
		ms    = int64(time.Millisecond)
		ttl   = 10 * int64(time.Second)
		pause = 15 * int64(time.Second)
	)
	type held struct {
		key   int
		tok   string
		fence int64
		paid  bool // what it read
		wake  int64
	}
	var ops []history.Op
	fence := make([]int64, keys)    // last fence granted per key
	seen := make([]int64, keys)     // highest fence the resource accepted per key
	paid := make([]bool, keys)      // invoice state
	free := make([]int64, keys)     // instant the key is free again
	owner := make([]int, keys)      // last grantee
	clock := make([]int64, clients) // each client's own time
	tries := make([]int, clients)   // refused attempts in a row
	want := make([]int, clients)    // key a client is after, -1 none
	sleeping := make([]*held, clients)
	for c := range want {
		want[c] = -1
		clock[c] = int64(rng.IntN(1000)) * ms
	}
	add := func(c int, f history.Func, key int, v history.Value, t history.Type, d int64) {
		k := ""
		if key >= 0 {
			k = fmt.Sprintf("invoice-%d", key+1)
		}
		ops = append(ops, history.Op{Process: c, Client: names[c], F: f, Key: k, Value: v,
			Invoke: clock[c], Complete: clock[c] + d, Type: t})
		clock[c] += d + int64(rng.IntN(5)+1)*ms
	}
	pauses := 0
	for len(ops) < n {
		c := 0 // the client with the earliest clock acts next
		for i := range clock {
			if clock[i] < clock[c] {
				c = i
			}
		}
		if s := sleeping[c]; s != nil { // woke from a pause: its late charge
			sleeping[c] = nil
			k := s.key
			if !s.paid {
				if seen[k] > s.fence {
					add(c, history.Write, k, history.Value{Action: "charge", Fence: s.fence,
						Refusal: history.RefusalStaleFence, SeenFence: seen[k]}, history.Fail, 3*ms)
				} else {
					add(c, history.Write, k, history.Value{Action: "charge", Fence: s.fence}, history.OK, 3*ms)
					add(c, history.Write, k, history.Value{Action: "mark-paid", Fence: s.fence}, history.OK, 2*ms)
					seen[k], paid[k] = s.fence, true
				}
			}
			mine := owner[k] == c && fence[k] == s.fence && free[k] > clock[c]
			add(c, history.Release, k, history.Value{Token: s.tok, Removed: mine, Nodes: []string{"n1"}}, history.OK, 2*ms)
			if mine {
				free[k] = clock[c]
			}
			continue
		}
		k := want[c]
		if k < 0 { // invoices come and go: a window of 200 open ones, a few hot
			base := len(ops) * (keys - 200) / n
			if rng.IntN(4) == 0 {
				k = base + rng.IntN(8)
			} else {
				k = base + rng.IntN(200)
			}
			want[c] = k
		}
		if clock[c] < free[k] { // held: refused, retry in 100 ms or give up
			add(c, history.Acquire, k, history.Value{}, history.Fail, 2*ms)
			clock[c] += 100 * ms
			if tries[c]++; tries[c] >= 20 {
				tries[c], want[c] = 0, -1
			}
			continue
		}
		tries[c], want[c] = 0, -1
		fence[k]++
		tok := fmt.Sprintf("%016x", rng.Uint64())
		add(c, history.Acquire, k, history.Value{Token: tok, Fence: fence[k], TTL: ttl, Nodes: []string{"n1"}}, history.OK, 2*ms)
		granted := clock[c]
		owner[k] = c
		res := "unpaid"
		if paid[k] {
			res = "paid"
		}
		s := &held{key: k, tok: tok, fence: fence[k], paid: paid[k]}
		add(c, history.Read, k, history.Value{Action: "read-status", Result: res}, history.OK, 2*ms)
		if pauses < 5 && len(ops) > (pauses+1)*n/6 && !paid[k] {
			pauses++
			w := clock[c]
			st := historytest.Step("pause", names[c])
			st.ID, st.Duration = pauses, pause
			st.Trigger = history.Trigger{Kind: history.TriggerPoint, Client: names[c], Point: history.PointBeforeWrite, Occurrence: 1}
			ops = append(ops, history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault,
				Value:  historytest.Value(st),
				Invoke: w, Complete: w + pause, Type: history.Info})
			clock[c] = w + pause
			free[k] = granted + ttl // the key expires while c sleeps
			sleeping[c] = s
			continue
		}
		if !paid[k] {
			add(c, history.Write, k, history.Value{Action: "charge", Fence: s.fence}, history.OK, 3*ms)
			add(c, history.Write, k, history.Value{Action: "mark-paid", Fence: s.fence}, history.OK, 2*ms)
			seen[k], paid[k] = s.fence, true
		}
		clock[c] += int64(rng.IntN(200)) * ms // the critical section
		add(c, history.Release, k, history.Value{Token: tok, Removed: true, Nodes: []string{"n1"}}, history.OK, 2*ms)
		free[k] = clock[c]
	}
	end := int64(0)
	for _, o := range ops {
		end = max(end, o.Complete)
	}
	ops = append(ops, history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault,
		Value:  historytest.Value(historytest.Step("latency", "w1→n1", "w2→n1")),
		Invoke: end / 3, Complete: end/3 + 20*int64(time.Second), Type: history.Info})
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].Invoke < ops[j].Invoke })
	for i := range ops {
		ops[i].Index = i
	}
	h.Ops = ops
	return h
}

func benchInput(b *testing.B, h history.History) Input {
	b.Helper()
	rep := checker.Check(context.Background(), h, checker.Options{Timeout: time.Minute})
	var pv *PorcupineView
	if l := rep.Linearization; l != nil {
		pv = &PorcupineView{Model: l.Model, Info: l.Info, Order: l.Order}
	}
	return Input{History: h, Verdict: rep.Verdict, Results: rep.Results, ScenarioFile: "generated",
		Reproduce: "go test -bench WriteReport ./internal/report", Version: "bench", Porcupine: pv, Lang: "en",
		ScenarioYAML: []byte("name: bench-busy\n")}
}

func benchWrite(b *testing.B, in Input) {
	var size int64
	for b.Loop() {
		dir := b.TempDir()
		if _, err := Write(dir, in); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if st, err := os.Stat(filepath.Join(dir, HistoryFile)); err == nil {
			size = st.Size()
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(len(in.History.Ops)), "ops")
	b.ReportMetric(float64(size)/1e6, "history-MB")
}

// BenchmarkWriteReport100k writes the whole report of a generated,
// checked 100,000-operation history. Target (issue 8): ≤ 3 s on two
// cores, history.html ≤ 20 MB.
func BenchmarkWriteReport100k(b *testing.B) {
	in := benchInput(b, genBusy(1, 100_000, 24, 4000))
	b.Logf("verdict %s, %d anomalies", in.Verdict, len(allAnomalies(in.Results)))
	benchWrite(b, in)
}

// BenchmarkWriteReportGCPause writes the report of the small gc-pause run
// (the per-run cost of a shipped scenario).
func BenchmarkWriteReportGCPause(b *testing.B) {
	in := gcPauseInput("local", false)
	in.Porcupine = porcupineView(in.History)
	benchWrite(b, in)
}

// BenchmarkWriteReport10k is BenchmarkWriteReport100k at a tenth of the
// size, to see how the cost grows.
func BenchmarkWriteReport10k(b *testing.B) {
	benchWrite(b, benchInput(b, genBusy(1, 10_000, 24, 400)))
}
