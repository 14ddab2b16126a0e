package report

import (
	"context"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// Issue 27 (a fresh reader, cache-rebuild-waste seed 8): the machine
// load row said "harness timers fired up to 54.6 ms late" of a run whose
// w1 began its workload 267.7 ms of wall time (26.8 s of scenario time)
// after its planned start at 0 s. A client's late start is the run's
// lateness too, and the row names it.
func TestTheMachineLoadRowTellsAClientsLateStart(t *testing.T) {
	const ms = int64(1e6)
	tests := []struct {
		name       string
		lang       Lang
		lag        int64
		ops        []history.Op
		want, lack string
	}{
		{"a late client start is named with its lateness and plan", English, 2677 * ms / 10,
			[]history.Op{{Process: history.NodeProcess, F: history.TimerLag, Client: "w1", Type: history.OK, Invoke: 0, Complete: 2677 * ms / 10}},
			"counting its timers and the clients' starts; of the clients, w1 began its workload latest, 267.7 ms (wall) after its planned start at t=0.0s", "harness timers fired"},
		{"a Vietnamese row names it too", Vietnamese, 2677 * ms / 10,
			[]history.Op{{Process: history.NodeProcess, F: history.TimerLag, Client: "w1", Type: history.OK, Invoke: 0, Complete: 2677 * ms / 10}},
			"w1 bắt đầu công việc muộn nhất, muộn 267,7 ms (wall time) so với lúc dự kiến t=0,0s", "bộ hẹn giờ của harness trễ"},
		// Issue 27 (a fresh reader, redlock-clock-jump seed 8, vi): the
		// worst lateness (35.7 ms) was a harness timer's, w1's start only
		// 13.7 ms; the row said "counting timers and client starts: w1
		// began 13.7 ms late", as if w1's start were the worst.
		{"a client start later than plan but not the worst is not told as the worst", English, 357 * ms / 10,
			[]history.Op{
				{Process: history.NodeProcess, F: history.TimerLag, Client: "w1", Type: history.OK, Invoke: 0, Complete: 137 * ms / 10},
				{Process: history.NodeProcess, F: history.TimerLag, Type: history.OK, Invoke: 300 * ms, Complete: 3357 * ms / 10},
			},
			"of the clients, w1 began its workload latest, 13.7 ms (wall)", "starts: w1"},
		{"with every client on time, the timers' lag is told", English, 546 * ms / 10,
			[]history.Op{{Process: history.NodeProcess, F: history.TimerLag, Type: history.OK, Invoke: 300 * ms, Complete: 3546 * ms / 10}},
			"harness timers fired up to 54.6 ms late (wall), 5.46 s of scenario time", "began its workload"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := history.History{Header: history.Header{TimeScale: 100, MaxTimerLagNS: tt.lag, Clients: []string{"w1", "w2"}}, Ops: tt.ops}
			got := lagText(tt.lang, h)
			if !strings.Contains(got, tt.want) || strings.Contains(got, tt.lack) {
				t.Errorf("row %q: want %q, and no %q", got, tt.want, tt.lack)
			}
		})
	}
}

// A freshly booted CI VM slewed its wall clock 0.5 % fast: Redis counted
// every TTL on it, so a report says so, in each language, fast or slow.
func TestTheHostClockRowTellsAWallClockThatRanApart(t *testing.T) {
	tests := []struct {
		name string
		lang Lang
		rate float64
		want string
	}{
		{"a wall clock 0.5 % fast shortens each TTL", English, 1.005, "ran fast, at 1.0050× the run's own clock: each TTL here lasted 0.50 % less"},
		{"a wall clock 0.5 % slow lengthens each TTL", English, 0.995, "ran slow, at 0.9950× the run's own clock: each TTL here lasted 0.50 % more"},
		{"a Vietnamese row says fast as fast", Vietnamese, 1.005, "chạy nhanh, bằng 1,0050 lần"},
		{"a Vietnamese row says slow as slow", Vietnamese, 0.995, "chạy chậm, bằng 0,9950 lần"},
		{"a wall clock set mid-run is told as set, not as a slew allowed for", English, 4.1, "ran at 4.10× the run's own clock: it was set (stepped or slewed hard) during the run"},
		{"a Vietnamese row says a set clock as set", Vietnamese, 4.1, "nó đã bị chỉnh (nhảy hoặc bị kéo mạnh) trong lúc chạy"},
		{"a rate within 0.01 % has no row", English, 1.00005, ""},
		{"an unmeasured rate has no row", English, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := wallRateText(tt.lang, history.Header{WallRate: tt.rate})
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("row %q: want %q", got, tt.want)
			}
		})
	}
}

// Reader 6 (A6): redlock-restart-without-1 was unknown with a 485 ms lag
// "over a tenth of the shortest fault window of the plan" (a 600 ms crash
// window), yet its machine load row stated only the TTL rule, by which a
// 485 ms lag under a 10 s TTL counts. The row states the checker's rule
// and this run's bound (checker.LatenessBound), with what set it.
func TestTheMachineLoadRowStatesTheBoundTheCheckerApplies(t *testing.T) {
	const ms = int64(1e6)
	crash := func(d int64) []history.FaultStep {
		return []history.FaultStep{{ID: 27, Kind: "crash", Effect: history.EffectCrashNode, Nodes: []string{"n3"}, Duration: d}}
	}
	tests := []struct {
		name string
		lang Lang
		plan []history.FaultStep
		want []string
	}{
		{"a short crash window brings the bound to the floor, and the rule names fault windows", English, crash(600 * ms),
			[]string{"or a tenth of its shortest fault window or more, makes a run prove nothing (unknown): for this run, 100 ms or more, the floor itself"}},
		{"a long crash window sets the bound and is named", English, crash(3000 * ms),
			[]string{"for this run, 300 ms or more, a tenth of its shortest fault window, step #27 (", "on n3, 1.5s of scenario time)"}},
		{"with no fault window the TTL sets it", English, nil,
			[]string{"for this run, 1000 ms or more, a tenth of its shortest TTL (5s of scenario time)"}},
		{"a Vietnamese row names fault windows too", Vietnamese, crash(600 * ms),
			[]string{"hoặc từ một phần mười khoảng fault ngắn nhất của nó trở lên", "với lần chạy này là từ 100 ms trở lên, chính là mức sàn"}},
		{"a Vietnamese row names the TTL that sets it", Vietnamese, nil,
			[]string{"bằng một phần mười TTL ngắn nhất của nó (5 s thời gian kịch bản)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := history.History{Header: history.Header{TimeScale: 0.5, MaxTimerLagNS: 485 * ms, Clients: []string{"w1"}, Plan: tt.plan},
				Ops: []history.Op{{Client: "w1", F: history.Acquire, Key: "k", Type: history.OK, Value: history.Value{Token: "t1", TTL: 10000 * ms}, Invoke: 10 * ms, Complete: 11 * ms}}}
			got := lagText(tt.lang, h)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("row %q: want %q", got, w)
				}
			}
		})
	}
}

// TestARunWhoseHostClockWasSetSaysSoInItsHeadline: a stored invalid run
// (c19n: a double charge across a node freeze) read as if the host's
// wall clock had run at 4.1× the run's (an 8 s step in a CI rehearsal)
// is unknown, and its headline blames the clock, not the lock: no
// finding of it is the scenario's.
func TestARunWhoseHostClockWasSetSaysSoInItsHeadline(t *testing.T) {
	for _, tc := range []struct {
		lang      Lang
		want, not string
	}{
		{English, "Inconclusive: the host's wall clock, on which Redis counts every TTL, was set while the run went", "charged twice"},
		{Vietnamese, "Chưa kết luận được: đồng hồ hệ thống của máy", "hai lần"},
	} {
		t.Run("the "+string(tc.lang)+" headline blames the host's clock", func(t *testing.T) {
			in := adviceRun(t, "c19n-expiry-on-a-stopped-node")
			in.History.Header.WallRate = 4.1
			rep := checker.Check(context.Background(), in.History, checker.Options{})
			in = Input{History: in.History, Account: rep.Account, Verdict: rep.Verdict, Results: rep.Results, Lang: tc.lang, SkipCharts: true}
			_, r := writeReport(t, in)
			if r.Verdict != checker.Unknown || !strings.Contains(r.Headline, tc.want) || strings.Contains(r.Headline, tc.not) {
				t.Errorf("verdict %s, headline %q: want unknown and %q, not %q", r.Verdict, r.Headline, tc.want, tc.not)
			}
		})
	}
}
