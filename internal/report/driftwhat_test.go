package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// Issue 32: redis-semaphore-4-host-sleep beside two CPU hogs, w2's
// refused tries ran 50 ms (wall) behind their pace, so its fourth was in
// flight at its host sleep (2 s, time scale 6). Every language tells
// whose operations drifted, by how much, which operation and which edge,
// with the history's numbers (scenario time for instants, wall for the
// drift).
func TestAClientsDriftIsToldInEveryLanguage(t *testing.T) {
	wall := func(scenarioS float64) int64 { return int64(scenarioS * 1e9 / 6) }
	st := history.FaultStep{ID: 3, Kind: "pause", Effect: history.EffectFreezeClient, Clients: []string{"w2"}, Cause: history.PauseSleep,
		Trigger: history.Trigger{Kind: history.TriggerAt, At: wall(2)}, Duration: wall(10)}
	h := history.History{Header: history.Header{TimeScale: 6, Plan: []history.FaultStep{st}}, Ops: []history.Op{
		{Index: 0, Client: "w2", F: history.Acquire, Key: "invoice-1", Invoke: wall(1.988), Complete: wall(12.1), Type: history.Info},
	}}
	for _, tt := range []struct {
		name string
		d    checker.DriftCross
		want map[Lang][]string
	}{
		{"an operation in flight at the edge", checker.DriftCross{Step: 3, Kind: "pause", At: wall(2), Client: "w2", Op: 0, InFlight: true, DriftNS: 50e6, Slowed: 3, Since: wall(0.8)},
			map[Lang][]string{
				English:    {"the machine was too busy for w2 to keep its own pace: from t=0.8s, w2's operations with no fault over them ran slower than the quickest of their kind in the run (3 of them), which put it 50 ms (wall) behind its own pace, so its acquire", "that began at t=1.988s was in flight at the start of step #3 (", "at t=2.0s, where at its pace it would have ended before it"},
				Vietnamese: {"máy quá bận nên w2 không giữ được nhịp của chính nó: từ t=0,8s, các thao tác của w2 không bị lỗi nào phủ lên đã chạy chậm hơn thao tác nhanh nhất cùng loại trong lần chạy (3 thao tác), khiến nó trễ nhịp của chính nó 50 ms (wall time)", "bắt đầu lúc t=1,988s vẫn đang chạy ở điểm bắt đầu của bước #3 (", "đã xong trước thời điểm ấy"},
			}},
		{"an operation begun after the edge", checker.DriftCross{Step: 3, Kind: "pause", End: true, At: wall(1.9), Client: "w2", Op: 0, DriftNS: 45e6, Slowed: 1, Since: wall(0.8)},
			map[Lang][]string{
				English:    {"(1 of them), which put it 45 ms (wall) behind its own pace", "began at t=1.988s, after the end of step #3 (", "at t=1.9s, where at its pace it would have begun before it"},
				Vietnamese: {"chỉ bắt đầu lúc t=1,988s, sau điểm kết thúc của bước #3 (", "đã bắt đầu trước thời điểm ấy"},
			}},
	} {
		// Every value the sentence takes is one the data gives.
		for _, lang := range []Lang{English, Vietnamese} {
			if got := driftWhat(lang, h, &tt.d); strings.Contains(got, "%!") {
				t.Errorf("%s: %q has a verb with no value", lang, got)
			}
		}
		r := checker.Result{Checker: checker.CheckerCoverage, Verdict: checker.Unknown, RaceLost: true, Drift: &tt.d}
		m := &model{h: h}
		for _, lang := range []Lang{English, Vietnamese} {
			t.Run(string(lang)+" tells "+tt.name, func(t *testing.T) {
				got := m.dataSummary(lang, r)
				for _, w := range tt.want[lang] {
					if !strings.Contains(got, w) {
						t.Errorf("%q lacks %q", got, w)
					}
				}
			})
		}
	}
}

// Issue 32: a stretch of the harness's own lateness over a fault's edge,
// with a client's operation begun in it, is told with its numbers in
// every language (local-lock-left-held's unlock past its partition's
// heal).
func TestAnEdgeTheHarnessLatenessSpannedIsToldInEveryLanguage(t *testing.T) {
	wall := func(scenarioS float64) int64 { return int64(scenarioS * 1e9 / 10) }
	st := history.FaultStep{ID: 2, Kind: "partition", Effect: history.EffectCutLinks, Links: []history.Link{{Client: "w1", Node: "n1"}},
		Trigger: history.Trigger{Kind: history.TriggerAt, At: wall(8)}, Duration: wall(3.7)}
	h := history.History{Header: history.Header{TimeScale: 10, Plan: []history.FaultStep{st}}, Ops: []history.Op{
		{Index: 0, Client: "w1", F: history.Release, Key: "invoice-1", Invoke: wall(11.707), Complete: wall(11.72), Type: history.OK},
	}}
	e := checker.EdgeCross{Step: 2, Kind: "partition", End: true, At: wall(11.707), LagFrom: wall(8.904), LagTo: wall(11.731), Op: 0}
	m := &model{h: h}
	r := checker.Result{Checker: checker.CheckerCoverage, Verdict: checker.Unknown, RaceLost: true, Edge: &e}
	for lang, want := range map[Lang][]string{
		English:    {"a harness timer due at t=8.904s fired only at t=11.731s (283 ms late, wall); the end of step #2 (", "at t=11.707s and w1's"},
		Vietnamese: {"một bộ hẹn giờ của harness đến hạn lúc t=8,904s chỉ chạy lúc t=11,731s (trễ 283 ms", "điểm kết thúc của bước #2 ("},
	} {
		t.Run(string(lang)+" tells the stretch, the edge and the operation", func(t *testing.T) {
			got := m.dataSummary(lang, r)
			for _, w := range want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
		})
	}
}
