package report

import (
	"strings"
	"testing"

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
			"w1 bắt đầu công việc muộn nhất, muộn 267,7 ms (thời gian thực) so với lúc dự kiến t=0,0s", "bộ hẹn giờ của harness trễ"},
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
