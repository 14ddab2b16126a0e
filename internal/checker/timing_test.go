package checker

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

func TestARunThatLostItsTimingProvesNothing(t *testing.T) {
	tests := []struct {
		name    string
		h       func() history.History
		lag     time.Duration
		scale   float64
		want    Verdict
		mention string
	}{
		{"a quiet machine leaves a valid run valid", sequentialHistory, 20 * time.Millisecond, 50, Valid, ""},
		{"a 150 ms stall at time_scale 50 makes a valid run unknown", sequentialHistory, 150 * time.Millisecond, 50, Unknown, "too busy"},
		{"the same stall in real time is a small part of the TTL", sequentialHistory, 150 * time.Millisecond, 1, Valid, ""},
		{"a violation found under a stall still happened", func() history.History { return kleppmann1(false) }, 150 * time.Millisecond, 50, Invalid, ""},
		{"the shortest TTL granted decides, not a long one beside it", twoTTLs, 150 * time.Millisecond, 1, Unknown, "over a tenth of the 1s TTL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.h()
			h.Header.MaxTimerLagNS, h.Header.TimeScale = int64(tt.lag), tt.scale
			// The histories speak scenario seconds; at a time scale their
			// times and TTLs, in wall time, shrink by it.
			wall := func(ns int64) int64 { return int64(float64(ns) / tt.scale) }
			for i := range h.Ops {
				o := &h.Ops[i]
				o.Value.TTL, o.Invoke = wall(o.Value.TTL), wall(o.Invoke)
				if o.Complete > 0 {
					o.Complete = wall(o.Complete)
				}
			}
			rep := Check(context.Background(), h, Options{})
			if rep.Verdict != tt.want {
				t.Fatalf("verdict %s, want %s: %+v", rep.Verdict, tt.want, rep.Results)
			}
			if tt.mention != "" {
				for _, r := range rep.Results {
					if r.Checker == CheckerCoverage && !strings.Contains(r.Summary, tt.mention) {
						t.Errorf("coverage says %q, want it to mention %q", r.Summary, tt.mention)
					}
				}
			}
		})
	}
}

func TestTheOverlapSaysWhetherThePauseOutlastedTheLease(t *testing.T) {
	tests := []struct {
		name        string
		pauseEnd    float64
		want, wrong string
	}{
		{"a pause past the expiry is why the lease expired", 70, "expired while it was paused", "used up part"},
		{"a pause that ended long before the expiry only used up part of the lease", 25, "a pause having used up part of it", "while it was paused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newHB(false)
			b.acquireTTL("w1", inv1, 0, 0.1, 0, 60)
			b.read("w1", inv1, 0.2, 0.3, "unpaid")
			b.fault("pause", []string{"w1"}, 0.4, tt.pauseEnd)
			b.acquireTTL("w2", inv1, 60.2, 60.3, 0, 60)
			b.write("w1", inv1, workload.ActionCharge, 71, 71.1, 0)
			b.release("w1", inv1, 71.2, 71.3, false)
			b.release("w2", inv1, 72, 72.1, true)
			rep := Check(context.Background(), b.h, Options{})
			for _, a := range rep.Anomalies() {
				if a.Kind != KindMutexOverlap {
					continue
				}
				if !strings.Contains(a.Explain, tt.want) || strings.Contains(a.Explain, tt.wrong) {
					t.Errorf("explanation %q, want %q", a.Explain, tt.want)
				}
				return
			}
			t.Fatal("no mutex-overlap")
		})
	}
}

// twoTTLs: a key with a 1 s lease and one with a 10 min lease in one run.
func twoTTLs() history.History {
	b := newHB(false)
	b.acquireTTL("w1", "k-short", 0, 0.01, 0, 1)
	b.write("w1", "k-short", workload.ActionCharge, 0.1, 0.2, 0)
	b.release("w1", "k-short", 0.3, 0.31, true)
	b.acquireTTL("w2", "k-short", 0.5, 0.51, 0, 1)
	b.release("w2", "k-short", 0.6, 0.61, true)
	b.acquireTTL("w3", "k-long", 0, 0.01, 0, 600)
	b.release("w3", "k-long", 0.6, 0.61, true)
	return b.h
}

func TestAStallNoFaultExplainsMakesAValidRunUnknown(t *testing.T) {
	// stall adds w2's command to n1, sent at from seconds and answered (or
	// given up) after took, to h.
	stall := func(h *history.History, from float64, took time.Duration, answered bool) {
		typ := history.Info
		if answered {
			typ = history.OK
		}
		h.Ops = append(h.Ops, history.Op{Index: len(h.Ops), Process: history.NodeProcess, Client: "w2", F: history.Stalled, Key: inv1,
			Value: history.Value{Node: "n1", Cmd: []string{"set", inv1}}, Invoke: ns(from), Complete: ns(from) + int64(took), Type: typ})
	}
	tests := []struct {
		name    string
		build   func() history.History
		want    Verdict
		mention string
	}{
		{"a command that got no answer within its deadline, with no fault about, loses the run's timing", func() history.History {
			h := sequentialHistory()
			stall(&h, 0.5, 50*time.Millisecond, false)
			return h
		}, Unknown, "w2's set invoice-1 to n1 at t=0.5s got no answer within its 50ms deadline"},
		{"a command cut off by a partition of its link is the fault at work", func() history.History {
			b := newHB(false)
			b.h = sequentialHistory()
			b.fault("partition", []string{"w2→n1"}, 0.4, 0.6)
			stall(&b.h, 0.5, 50*time.Millisecond, false)
			return b.h
		}, Valid, ""},
		{"a command to a node that came back from a crash a moment ago is the crash at work", func() history.History {
			b := newHB(false)
			b.h = sequentialHistory()
			b.fault("crash", []string{"n1"}, 0.3, 0.4)
			stall(&b.h, 0.6, 50*time.Millisecond, false)
			return b.h
		}, Valid, ""},
		{"a partition of another client's link explains nothing", func() history.History {
			b := newHB(false)
			b.h = sequentialHistory()
			b.fault("partition", []string{"w1→n1"}, 0.4, 0.6)
			stall(&b.h, 0.5, 50*time.Millisecond, false)
			return b.h
		}, Unknown, "no fault stood between them"},
		{"an answer 150 ms late is a lost race beside a 1 s TTL", func() history.History {
			h := twoTTLs()
			stall(&h, 0.4, 150*time.Millisecond, true)
			return h
		}, Unknown, "answered only after 150ms"},
		{"an answer 150 ms late is nothing beside a 30 s TTL", func() history.History {
			h := sequentialHistory()
			stall(&h, 0.5, 150*time.Millisecond, true)
			return h
		}, Valid, ""},
		{"a violation found beside a stall after it still happened", func() history.History {
			h := kleppmann1(false)
			stall(&h, 38, 50*time.Millisecond, false)
			return h
		}, Invalid, "no fault stood between them"},
		{"a violation made while a command stalled with no fault about may be the machine's doing", func() history.History {
			h := kleppmann1(false)
			stall(&h, 20, 50*time.Millisecond, false)
			return h
		}, Unknown, "a command stalled 50ms with no fault to explain it"},
		{"a final probe's slow node changes nothing when the probe got the lock", func() history.History {
			return probeStalled(stall, history.OK)
		}, Valid, ""},
		{"a final probe's slow node may be why the probe got no answer", func() history.History {
			return probeStalled(stall, history.Info)
		}, Unknown, "probe's set invoice-1 to n1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Check(context.Background(), tt.build(), Options{})
			if rep.Verdict != tt.want {
				t.Fatalf("verdict %s, want %s: %+v", rep.Verdict, tt.want, rep.Results)
			}
			for _, r := range rep.Results {
				if r.Checker != CheckerCoverage {
					continue
				}
				if r.TimingLost != (tt.mention != "") {
					t.Errorf("TimingLost %v; coverage says %q", r.TimingLost, r.Summary)
				}
				if tt.mention != "" && !strings.Contains(r.Summary, tt.mention) {
					t.Errorf("coverage says %q, want it to mention %q", r.Summary, tt.mention)
				}
			}
		})
	}
}

func TestAPromotionNoFailoverExplainsMakesAValidRunUnknown(t *testing.T) {
	// sw adds Sentinel's announcement that n1r2 replaced n1 at s seconds.
	sw := func(h *history.History, s float64) {
		h.Ops = append(h.Ops, history.Op{Index: len(h.Ops), Process: history.NodeProcess, F: history.MasterSwitch,
			Value: history.Value{Node: "n1", Cmd: []string{"n1", "n1r2"}}, Invoke: ns(s), Complete: ns(s), Type: history.OK})
	}
	failover := func(b *hb, from, to float64, promoted ...history.Promotion) {
		i := len(b.h.Ops)
		st := history.FaultStep{ID: i + 1, Kind: "failover", Effect: history.EffectFailover, Nodes: []string{"n1"}, Promotions: promoted}
		b.h.Ops = append(b.h.Ops, history.Op{Index: i, Process: history.NemesisProcess, Client: history.NemesisClient,
			F: history.Fault, Value: history.Value{Fault: &st}, Invoke: ns(from), Complete: ns(to), Type: history.OK})
	}
	tests := []struct {
		name  string
		build func() history.History
		want  Verdict
	}{
		{"a promotion with no failover in the plan loses the run's footing", func() history.History {
			h := sequentialHistory()
			sw(&h, 1.5)
			return h
		}, Unknown},
		{"a promotion inside a planned failover is that failover", func() history.History {
			b := newHB(false)
			b.h = sequentialHistory()
			failover(b, 1, 2)
			sw(&b.h, 1.5)
			return b.h
		}, Valid},
		{"a second promotion long after the planned failover is not it", func() history.History {
			b := newHB(false)
			b.h = sequentialHistory()
			failover(b, 0.1, 0.2)
			sw(&b.h, 2.9)
			return b.h
		}, Unknown},
		{"a SENTINEL FAILOVER announced long after its step, naming the promotion the step recorded, is that failover", func() history.History {
			b := newHB(false)
			b.h = sequentialHistory()
			failover(b, 0.1, 0.2, history.Promotion{Group: "n1", Old: "n1", Promoted: "n1r2"})
			sw(&b.h, 2.9)
			return b.h
		}, Valid},
		{"a second announcement of the same promotion is not explained twice", func() history.History {
			b := newHB(false)
			b.h = sequentialHistory()
			failover(b, 0.1, 0.2, history.Promotion{Group: "n1", Old: "n1", Promoted: "n1r2"})
			sw(&b.h, 2.9)
			sw(&b.h, 3.5)
			return b.h
		}, Unknown},
		{"a violation after an unplanned promotion is the environment's doing, not the scenario's", func() history.History {
			h := kleppmann1(false)
			sw(&h, 1.5)
			return h
		}, Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Check(context.Background(), tt.build(), Options{})
			if rep.Verdict != tt.want {
				t.Errorf("verdict %s, want %s: %+v", rep.Verdict, tt.want, rep.Results)
			}
		})
	}
}

func TestAFaultThatOutlastedItsPlanMakesAValidRunUnknown(t *testing.T) {
	// crash adds a crash of n1 planned for 0.3 s, from 0.6 s, that lasted
	// `lasted` seconds (the history's TTLs are 30 s: a tenth is 3 s).
	crash := func(lasted float64) history.History {
		b := newHB(false)
		b.h = sequentialHistory()
		i := b.fault("crash", []string{"n1"}, 0.6, 0.6+lasted)
		b.h.Ops[i].Value.Fault.Duration = ns(0.3)
		return b.h
	}
	tests := []struct {
		name   string
		lasted float64
		want   Verdict
	}{
		{"a restart that took a moment longer than planned changes nothing", 0.5, Valid},
		{"a restart that took seconds longer than planned was the machine's, not the scenario's", 4, Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Check(context.Background(), crash(tt.lasted), Options{})
			if rep.Verdict != tt.want {
				t.Errorf("verdict %s, want %s: %+v", rep.Verdict, tt.want, rep.Results)
			}
		})
	}
}

// probeStalled is sequentialHistory with a final probe of type t whose
// SET to n1 got no answer within 50 ms (added by stall).
func probeStalled(stall func(*history.History, float64, time.Duration, bool), t history.Type) history.History {
	h := sequentialHistory()
	h.Ops = append(h.Ops, probeOp(len(h.Ops), t))
	stall(&h, 0.5, 50*time.Millisecond, false)
	h.Ops[len(h.Ops)-1].Client = history.ProbeClient
	return h
}

// probeOp is a final probe's attempt on invoice-1, at the history's end,
// of type t.
func probeOp(i int, t history.Type) history.Op {
	return history.Op{Index: i, Process: 9, Client: history.ProbeClient, F: history.Probe, Key: inv1,
		Invoke: ns(0.9), Complete: ns(0.9) + int64(time.Millisecond), Type: t}
}

func TestACoverageRowBesideAViolationSaysTheViolationStands(t *testing.T) {
	h := kleppmann1(false)
	h.Ops = append(h.Ops, history.Op{Index: len(h.Ops), Process: history.NodeProcess, Client: "w2", F: history.Stalled, Key: inv1,
		Value: history.Value{Node: "n1", Cmd: []string{"set", inv1}}, Invoke: ns(38), Complete: ns(38) + int64(50*time.Millisecond), Type: history.Info})
	rep := Check(context.Background(), h, Options{})
	if rep.Verdict != Invalid {
		t.Fatalf("verdict %s, want invalid", rep.Verdict)
	}
	for _, r := range rep.Results {
		if r.Checker != CheckerCoverage {
			continue
		}
		// "this run proves nothing" beside an INVALID verdict was false
		// (a report reviewer): the violations stand.
		if !r.ViolationsStand || strings.Contains(r.Summary, "this run proves nothing") || !strings.Contains(r.Summary, "the violations found still happened") {
			t.Fatalf("coverage: stands %v, %q", r.ViolationsStand, r.Summary)
		}
		return
	}
	t.Fatal("no coverage result")
}
