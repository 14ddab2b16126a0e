package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// Issue 32: redis-semaphore-4-host-sleep beside CPU hogs, w2's pause
// (2 s to 12 s at time scale 6) sent SIGCONT on time and its Node process
// said nothing for 400 ms of wall time after it. Every language tells that
// reason, with the history's numbers: the step, whose process, how long
// the pause lasted for it against its plan (scenario time), and the
// silence (wall).
func TestAProcessThatSaidNothingAfterItsThawIsToldInEveryLanguage(t *testing.T) {
	const sec = int64(1e9)
	wall := func(scenarioS float64) int64 { return int64(scenarioS * float64(sec) / 6) }
	st := history.FaultStep{ID: 3, Kind: "pause", Effect: history.EffectFreezeClient, Clients: []string{"w2"}, Cause: history.PauseSleep,
		Trigger: history.Trigger{Kind: history.TriggerAt, At: wall(2)}, Duration: wall(10)}
	h := history.History{Header: history.Header{TimeScale: 6, Plan: []history.FaultStep{st}}}
	silent := int64(400e6)
	late := &checker.LateFault{Step: 3, Kind: "pause", Start: wall(2), End: wall(12) + silent, PlannedNS: wall(10),
		Client: "w2", SilentNS: silent, ThawLateNS: silent, StretchNS: silent}
	r := checker.Result{Checker: checker.CheckerCoverage, Verdict: checker.Unknown, TimingLost: true, Late: late}
	m := &model{h: h}
	for _, tt := range []struct {
		lang Lang
		want []string
	}{
		{English, []string{"step #3 (", "lasted 12.4s of scenario time for w2's process instead of its planned 10s", "said nothing for 400 ms (wall) after its SIGCONT"}},
		{Vietnamese, []string{"bước #3 (", "process của w2", "không gửi gì trong 400 ms (wall time) sau khi nhận SIGCONT"}},
	} {
		t.Run(string(tt.lang)+" tells whose process said nothing, and how long", func(t *testing.T) {
			got := m.dataSummary(tt.lang, r)
			t.Log(got)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s: %q lacks %q", tt.lang, got, w)
				}
			}
		})
	}
	t.Run("a step late to start or stretched by its own window is told without a process", func(t *testing.T) {
		for _, f := range []checker.LateFault{{Step: 3, Kind: "pause", Start: wall(2), End: wall(13), PlannedNS: wall(10), StretchNS: wall(1)},
			{Step: 3, Kind: "pause", Start: wall(3), End: wall(13), PlannedNS: wall(10), LateStartNS: wall(1)}} {
			got := m.dataSummary(English, checker.Result{Checker: checker.CheckerCoverage, Verdict: checker.Unknown, TimingLost: true, Late: &f})
			if !strings.Contains(got, "step #3") || strings.Contains(got, "process") {
				t.Errorf("%q", got)
			}
		}
	})
}
