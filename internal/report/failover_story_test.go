package report

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// Issue 27 (a fresh reader): a failover's sentence gave the step's took_ns
// ("Sentinel promoted the replica after 11.4 s") while the history's
// switch-master record came 16.0 s after the crash; and a replica that
// had received the whole stream was told "whatever it lacked is gone".
func TestAFailoverIsToldAtItsAnnouncementAndWithWhatItLost(t *testing.T) {
	const s = int64(1e9)
	tests := []struct {
		name     string
		offset   int64 // the promoted replica's, of the master's 600
		announce bool
		want     []string
		lack     []string
	}{
		{"a promotion announced is told at its switch-master record", 200, true,
			[]string{"announced it as the new master (switch-master) at t=2.5s, 1.5 s after n1 failed", "200 of the 600 bytes"}, []string{"after 0.9 s"}},
		{"a promotion never announced is told by the harness's ROLE poll, said so", 200, false,
			[]string{"it answered ROLE as a master 0.9 s after n1 failed (no sentinel's switch-master announcement was recorded)"}, []string{"announced"}},
		{"a replica with the whole stream lost nothing", 600, true,
			[]string{"had received all 600 bytes", "the promotion lost none of it"}, []string{"whatever it lacked"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := history.FaultStep{ID: 1, Kind: "failover", Effect: history.EffectFailover, Nodes: []string{"n1"}, FailoverMode: "crash",
				Promotions: []history.Promotion{{Group: "n1", Old: "n1", Promoted: "n1r1", MasterOffset: 600,
					ReplicaOffsets: map[string]int64{"n1r1": tt.offset}, TookNS: 9 * s / 10}}}
			ops := []history.Op{{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault, Type: history.OK,
				Value: history.Value{Fault: &st}, Invoke: s, Complete: 4 * s}}
			if tt.announce {
				ops = append(ops, history.Op{Process: history.NodeProcess, F: history.MasterSwitch, Type: history.OK,
					Value: history.Value{Node: "n1", Cmd: []string{"n1", "n1r1"}}, Invoke: 5 * s / 2, Complete: 5 * s / 2})
			}
			for i := range ops {
				ops[i].Index = i
			}
			h := history.History{Header: history.Header{Format: history.Format, Version: history.Version, TimeScale: 1, Algorithm: "safe",
				Clients: []string{"w1"}, Nodes: []string{"n1"}}, Ops: ops}
			a := account.New(h)
			m := newModel(h, a)
			got := m.faultSentence(English, a.Faults[0], "")
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			for _, w := range tt.lack {
				if strings.Contains(got, w) {
					t.Errorf("%q says %q", got, w)
				}
			}
		})
	}
}

// readerRun is a stored run's history (testdata/reader/<name>.jsonl, a
// fresh reader's fixture, issue 27) checked, as the report is given it.
func readerRun(t *testing.T, name string, lang Lang) (Input, *model) {
	t.Helper()
	h, err := history.ReadFile(filepath.Join("testdata", "reader", name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rep := checker.Check(context.Background(), h, checker.Options{})
	in := Input{History: h, Account: rep.Account, Verdict: rep.Verdict, Results: rep.Results, Lang: lang}
	return in, newModel(in.History, in.Account)
}

// Issue 27 (a fresh reader, failover-wait-two-replicas seed 24): "w1 kept
// acting on a lock lost 49.5 s earlier, when n1 failed over" and "w1's
// key … was lost in the failover of n1", while n1 crashed at t=0.7s and
// Sentinel announced n1r2 only at t=19.5s. The loss is told by what
// happened (the master crashed), with the replica promoted in its place
// and when; never as a failover at the crash. n1r1, which had
// acknowledged w1's WAIT 1, still had the key until it crashed itself:
// the lock was lost only then (a sixth reader, A15: "lost when n1
// crashed", while n1r1 still had it).
func TestAKeyLostWithACrashedMasterIsToldAtTheCrash(t *testing.T) {
	tests := []struct {
		lang       Lang
		where      string
		want, lack []string
	}{
		{English, "headline", []string{"lost 49.5 s earlier, when n1r1, the replica that had acknowledged its key, crashed, after n1, the master holding it, crashed;",
			"(n1r2, announced at t=19.5s)"}, []string{"failed over to", "lost 49.5 s earlier, when n1, the master"}},
		{English, "story", []string{"w1's key invoice-1 was lost when n1r1, the replica that had acknowledged it, crashed, after n1, the master holding it, crashed at t=0.7s:",
			"(n1r2, announced at t=19.5s)",
			"its key was gone (it was lost at t=0.8s, when n1r1, the replica that had acknowledged it, crashed after n1, the master holding it, crashed, and n1r2, the replica promoted in its place, had not received all n1 had written;"},
			[]string{"lost in the failover", "failed over at", "was lost when n1, the master"}},
		{Vietnamese, "headline", []string{"khi n1r1, replica đã xác nhận key của nó, bị crash, sau khi n1, master giữ nó, bị crash", "(n1r2, được thông báo lúc t=19,5s)"}, []string{"failover sang"}},
		{Vietnamese, "story", []string{"bị mất khi n1r1, replica đã xác nhận nó, bị crash, sau khi n1, master giữ nó, bị crash lúc t=0,7s", "n1r2, được thông báo lúc t=19,5s"}, []string{"trong lần failover"}},
	}
	for _, tt := range tests {
		t.Run("the "+string(tt.lang)+" "+tt.where+" tells the loss at n1's crash", func(t *testing.T) {
			in, m := readerRun(t, "failover-wait-two-replicas-seed24", tt.lang)
			got := headline(in, m)
			if tt.where == "story" {
				var ss []string
				for _, s := range narrative(in, m) {
					ss = append(ss, s.Text)
				}
				got = strings.Join(ss, "\n")
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s lacks %q:\n%s", tt.where, w, got)
				}
			}
			for _, w := range tt.lack {
				if strings.Contains(got, w) {
					t.Errorf("%s says %q:\n%s", tt.where, w, got)
				}
			}
		})
	}
}

// Issue 27 (a fresh reader, failover-wait-two-replicas seed 24): the dark
// "node crash" band of n1r1 covered every row (w1, w2, the probe, n1,
// n1r2, the payment gateway) from 0.8 s to 15.8 s, as if everything was
// down, while n1r1 had no row and its name was nowhere in the picture.
// A crashed replica gets a row under its master, and only that row is
// shaded.
func TestACrashedReplicaIsShadedOnItsOwnRow(t *testing.T) {
	in, m := readerRun(t, "failover-wait-two-replicas-seed24", English)
	d := buildDrawing(in, m, "")
	row := -1
	for i, l := range d.Lanes {
		if l.Name == "n1r1" {
			row = i
		}
	}
	t.Run("n1r1 has a row, called a replica of n1", func(t *testing.T) {
		if row < 0 {
			t.Fatalf("no row for n1r1 among %+v", d.Lanes)
		}
		if d.Lanes[row].Sub != "replica of n1" {
			t.Errorf("n1r1's row is %+v", d.Lanes[row])
		}
	})
	t.Run("its crash shades only its row", func(t *testing.T) {
		found := false
		for _, s := range d.Shapes {
			if s.Kind != chart.ShShade || s.Sub != history.EffectCrashNode {
				continue
			}
			found = true
			if s.Lane != row || s.Lane2 != row {
				t.Errorf("the crash is shaded on rows %d–%d, want n1r1's (%d) alone", s.Lane, s.Lane2, row)
			}
		}
		if !found {
			t.Error("the crash is not drawn")
		}
	})
}

// Issue 27 (a fresh reader, counter-gc-pause seed 11): the latency and
// rate charts shaded w1's GC pause across w2's points with the legend
// "GC pause (client frozen)", as if every client was frozen. A perf
// chart's shade says whose fault it is.
func TestAPerfChartsShadeSaysWhoseFaultItIs(t *testing.T) {
	tests := []struct {
		lang Lang
		want string
	}{
		{English, "pause (client frozen): w1"}, // counter-gc-pause names no cause: no GC claimed
		{Vietnamese, ": w1"},
	}
	for _, tt := range tests {
		t.Run("the "+string(tt.lang)+" legend names w1", func(t *testing.T) {
			_, m := readerRun(t, "counter-gc-pause-seed11", tt.lang)
			var texts []string
			for _, e := range shadeFaults(chart.NewPlot(""), m, tt.lang, 1) {
				texts = append(texts, e.Text)
			}
			if !slices.ContainsFunc(texts, func(s string) bool { return strings.HasSuffix(s, tt.want) }) {
				t.Errorf("legend %q lacks an entry ending %q", texts, tt.want)
			}
		})
	}
}

// A fault on what has no row (a sentinel) still shades every row, and
// names what it acted on there, never as if everything was down (issue
// 27).
func TestAFaultOnWhatHasNoRowNamesItsTarget(t *testing.T) {
	in, _ := readerRun(t, "failover-wait-two-replicas-seed24", English)
	h := in.History
	h.Ops = slices.Clone(h.Ops)
	for i, op := range h.Ops {
		if op.F == history.Fault && op.Value.Fault != nil && op.Value.Fault.Effect == history.EffectCrashNode {
			st := *op.Value.Fault
			st.Nodes = []string{"sentinel2"}
			h.Ops[i].Value.Fault = &st
		}
	}
	in.History = h
	in.Account = account.New(h)
	m := newModel(h, in.Account)
	d := buildDrawing(in, m, "")
	if !slices.ContainsFunc(d.Labels, func(l chart.Label) bool { return l.Text == "node crash: sentinel2" }) {
		var texts []string
		for _, l := range d.Labels {
			texts = append(texts, l.Text)
		}
		t.Errorf("no label names sentinel2's crash among %q", texts)
	}
}
