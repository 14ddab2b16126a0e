package checker

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// gcPauseIdempotent is gc-pause with an idempotent gateway: w1's late charge
// is refused as a duplicate after w2 charged (lock-theory S19).
func gcPauseIdempotent(refuse bool) history.History {
	b := newHB(false).workload("payment", "safe", map[string]int64{history.ParamIdempotency: 1})
	b.acquire("w1", "invoice-1", 0, 0, 0)
	b.read("w1", "invoice-1", 0, 0.1, "unpaid")
	b.acquire("w2", "invoice-1", 30.1, 30.1, 0)
	b.read("w2", "invoice-1", 30.1, 30.2, "unpaid")
	b.write("w2", "invoice-1", workload.ActionCharge, 31, 31, 0)
	b.write("w2", "invoice-1", workload.ActionMarkPaid, 31, 31, 0)
	b.release("w2", "invoice-1", 31.2, 31.2, true)
	if refuse {
		b.refused("w1", "invoice-1", workload.ActionCharge, 36, 36, 0, history.RefusalDuplicateKey, 0)
	} else {
		b.write("w1", "invoice-1", workload.ActionCharge, 36, 36, 0)
	}
	b.release("w1", "invoice-1", 36.1, 36.1, false)
	return b.h
}

func TestAnIdempotencyKeyMakesTheOverlapInformational(t *testing.T) {
	tests := []struct {
		name      string
		refuse    bool
		want      Verdict
		wantInfo  bool
		wantKinds []string
	}{
		{"a stale charge refused as a duplicate leaves the history valid", true, Valid, true, nil},
		{"a stale charge accepted is still a violation", false, Invalid, false, []string{KindDoubleEffect}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Check(context.Background(), gcPauseIdempotent(tt.refuse), Options{})
			if rep.Verdict != tt.want {
				t.Fatalf("verdict %s, want %s: %+v", rep.Verdict, tt.want, rep.Results)
			}
			found := false
			for _, a := range rep.Anomalies() {
				if a.Kind == KindMutexOverlap {
					found = true
					if a.Informational != tt.wantInfo {
						t.Errorf("overlap informational = %v, want %v", a.Informational, tt.wantInfo)
					}
				}
			}
			if !found {
				t.Error("the w1/w2 overlap is not reported at all")
			}
			for _, k := range tt.wantKinds {
				if !hasKind(rep.Anomalies(), k) {
					t.Errorf("no %s anomaly", k)
				}
			}
		})
	}
}

func hasKind(as []Anomaly, kind string) bool {
	for _, a := range as {
		if a.Kind == kind {
			return true
		}
	}
	return false
}

func TestCoverageCountsOnlyTheClientsAFaultReaches(t *testing.T) {
	base := func() *hb {
		b := newHB(false)
		b.h.Header.Clients = []string{"w1", "w2"}
		b.h.Header.Nodes = []string{"n1"}
		b.acquire("w1", "k", 0, 0, 0)
		b.release("w1", "k", 5, 5, true)
		b.acquire("w2", "k", 10, 10, 0)
		b.release("w2", "k", 15, 15, true)
		return b
	}
	tests := []struct {
		name    string
		targets []string
		kind    string
		from    float64
		to      float64
		want    Verdict
	}{
		{"a partition of w2 while only w1 holds proves nothing", []string{"w2→n1"}, "partition", 1, 4, Unknown},
		{"a partition of w1 while w1 holds is covered", []string{"w1→n1"}, "partition", 1, 4, Valid},
		{"a node fault reaches every client", []string{"n1"}, "pause-node", 1, 4, Valid},
		{"a jump of w2's clock lasts until w2 holds the lock", []string{"w2"}, "clock-jump", 6, 6, Valid},
		{"a pause of w2 while only w1 holds proves nothing", []string{"w2"}, "pause", 1, 4, Unknown},
		{"a pause of w1 while w1 holds is covered", []string{"w1"}, "pause", 1, 4, Valid},
		{"a jump of w1's clock after its last hold proves nothing", []string{"w1"}, "clock-jump", 6, 6, Unknown},
		{"a jump of n1's clock between holds proves nothing", []string{"n1"}, "clock-jump", 6, 6, Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := base()
			b.fault(tt.kind, tt.targets, tt.from, tt.to)
			if got := Coverage(context.Background(), b.h); got.Verdict != tt.want {
				t.Errorf("coverage %s (%s), want %s", got.Verdict, got.Summary, tt.want)
			}
		})
	}
}

// Reader2 #15 (coverage-miss): "no fault (of 1) overlapped a believed
// lock hold" was said of a partition that ran over w1's hold but cut only
// w2: the finding says whose holds it counts, and records how many faults
// tested nothing for a page that tells it in another language.
func TestCoverageSaysNoFaultMetAHoldOfAClientItAffected(t *testing.T) {
	b := newHB(false)
	b.h.Header.Clients = []string{"w1", "w2"}
	b.h.Header.Nodes = []string{"n1"}
	b.acquire("w1", "k", 0, 0, 0)
	b.release("w1", "k", 5, 5, true)
	b.acquire("w2", "k", 10, 10, 0)
	b.release("w2", "k", 15, 15, true)
	b.fault("partition", []string{"w2→n1"}, 1, 4)
	got := Coverage(context.Background(), b.h)
	if !strings.Contains(got.Summary, "no fault (of 1) overlapped a believed lock hold or an in-flight lock operation of a client it affected") {
		t.Errorf("summary %q does not say the partition met no hold of a client it cut", got.Summary)
	}
	if got.Untested != 1 {
		t.Errorf("Untested = %d, want 1 (the one fault tested nothing)", got.Untested)
	}
}

// Issue 27 (a fresh reader): "2 of 2 faults overlapped a believed lock
// hold or an in-flight lock operation" was said of two client clock jumps
// whose records ended before the first acquire. A jump is instant and its
// offset lasts: coverage still counts it, and says how.
func TestCoverageSaysAClockJumpBeforeEveryHoldBoreOnItByItsOffset(t *testing.T) {
	type fault struct {
		kind     string
		targets  []string
		from, to float64
	}
	tests := []struct {
		name       string
		faults     []fault
		want, lack string
	}{
		{"two jumps before any hold bore on one by their offsets",
			[]fault{{"clock-jump", []string{"w1"}, -1, -1}, {"clock-jump", []string{"w2"}, -1, -1}},
			"2 of 2 faults bore on a believed lock hold or an in-flight lock operation: 2 client clock jumps applied before one, whose offsets lasted through it; 2 ok acquires",
			"overlapped"},
		{"a jump before w2's hold and a partition during w1's are told apart",
			[]fault{{"clock-jump", []string{"w2"}, 6, 6}, {"partition", []string{"w1→n1"}, 1, 4}},
			"2 of 2 faults bore on a believed lock hold or an in-flight lock operation: 1 overlapped one, and 1 client clock jump applied before one, whose offset lasted through it; 2 ok acquires",
			"2 of 2 faults overlapped"},
		{"a partition during a hold overlapped it",
			[]fault{{"partition", []string{"w1→n1"}, 1, 4}},
			"1 of 1 fault overlapped a believed lock hold or an in-flight lock operation; 2 ok acquires", "bore on"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newHB(false)
			b.h.Header.Clients = []string{"w1", "w2"}
			b.h.Header.Nodes = []string{"n1"}
			for _, f := range tt.faults {
				if f.from < 0 { // before the clients start
					i := b.fault(f.kind, f.targets, 0, 0)
					b.h.Ops[i].Invoke, b.h.Ops[i].Complete = ns(0.001), ns(0.002)
				} else {
					b.fault(f.kind, f.targets, f.from, f.to)
				}
			}
			b.acquire("w1", "k", 0.5, 0.5, 0)
			b.release("w1", "k", 5, 5, true)
			b.acquire("w2", "k", 10, 10, 0)
			b.release("w2", "k", 15, 15, true)
			got := Coverage(context.Background(), b.h)
			if got.Verdict != Valid || got.Summary != tt.want || strings.Contains(got.Summary, tt.lack) {
				t.Errorf("coverage %s %q\nwant valid %q (no %q)", got.Verdict, got.Summary, tt.want, tt.lack)
			}
		})
	}
}

func TestConcurrentAtomicSalesAreNotALostUpdate(t *testing.T) {
	num := func(n int64) *int64 { return &n }
	sell := func(b *hb, c string, inv, comp float64, left int64) {
		b.op(c, history.Write, "item-1", inv, comp, history.OK, history.Value{Action: workload.ActionSell, Num: num(left)})
	}
	tests := []struct {
		name string
		make func(b *hb)
		want bool
	}{
		{"two overlapping sales that finish in either order are fine", func(b *hb) {
			sell(b, "w1", 1, 2, 4) // applied second by Redis…
			sell(b, "w2", 1, 2, 5) // …but recorded as finishing after
		}, false},
		{"two sales that write back the same stock lose one", func(b *hb) {
			sell(b, "w1", 1, 2, 4)
			sell(b, "w2", 1, 2, 4)
		}, true},
		{"a later sale that writes back more stock lost an update", func(b *hb) {
			sell(b, "w1", 1, 2, 4)
			sell(b, "w2", 3, 4, 5)
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newHB(false)
			b.h.Header.Params = map[string]int64{"stock": 10}
			tt.make(b)
			got := hasKind(Effects(context.Background(), b.h).Anomalies, KindLostUpdate)
			if got != tt.want {
				t.Errorf("lost-update reported = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAPlanThatNeverFiredProvesNothing(t *testing.T) {
	pause := stepOf("pause", []string{"w1"})
	pause.ID, pause.Trigger = 1, history.Trigger{Kind: history.TriggerPoint, Client: "w1", Point: history.PointBeforeWrite, Occurrence: 3}
	latency := stepOf("latency", []string{"w1→n1", "w2→n1"})
	latency.ID, latency.Trigger = 2, history.Trigger{Kind: history.TriggerAt}
	optional := pause
	optional.Optional = true
	tests := []struct {
		name   string
		plan   []history.FaultStep
		fired  []history.FaultStep // applied during the run
		failed []history.FaultStep // tried, refused by the cluster
		want   Verdict
		missed []int
	}{
		{"a run with no fault planned is not penalised", nil, nil, nil, Valid, nil},
		{"a run whose planned faults never fired is unknown", []history.FaultStep{pause}, nil, nil, Unknown, []int{1}},
		{"a planned pause that never fired makes the run unknown even when another fault fired and overlapped",
			[]history.FaultStep{pause, latency}, []history.FaultStep{latency}, nil, Unknown, []int{1}},
		{"a step that failed to apply counts as never fired", []history.FaultStep{latency}, nil, []history.FaultStep{latency}, Unknown, []int{2}},
		{"an optional step that never fired is no reason to doubt the run",
			[]history.FaultStep{optional, latency}, []history.FaultStep{latency}, nil, Valid, nil},
		{"every planned step fired and overlapped a hold", []history.FaultStep{latency}, []history.FaultStep{latency}, nil, Valid, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newHB(false)
			b.h.Header.Plan = tt.plan
			b.acquire("w1", "k", 0, 0, 0)
			for _, st := range tt.fired {
				b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NemesisProcess, Client: history.NemesisClient,
					F: history.Fault, Value: history.Value{Fault: &st}, Invoke: 0, Complete: ns(10), Type: history.OK})
			}
			for _, st := range tt.failed {
				b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NemesisProcess, Client: history.NemesisClient,
					F: history.Fault, Value: history.Value{Fault: &st}, Invoke: 0, Complete: 0, Type: history.Fail, Error: "node is not running"})
			}
			b.release("w1", "k", 1, 1, true)
			b.acquire("w2", "k", 2, 2, 0)
			b.release("w2", "k", 3, 3, true)
			got := Coverage(context.Background(), b.h)
			if got.Verdict != tt.want || !slices.Equal(got.Missed, tt.missed) {
				t.Errorf("coverage %s (%s), missed %v; want %s, missed %v", got.Verdict, got.Summary, got.Missed, tt.want, tt.missed)
			}
		})
	}
}
