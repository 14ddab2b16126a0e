package suite

import (
	"testing"
	"time"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/scenario"
)

func TestThePoolStartsTheLongestRunsFirst(t *testing.T) {
	job := func(n int, dur time.Duration, scale float64, sentinels int) Job {
		return Job{N: n, Scenario: scenario.Scenario{Duration: scenario.Duration(dur), TimeScale: scale, Sentinels: sentinels}}
	}
	// stuck is a job expected to find the lock unavailable, probing for
	// probe (scenario time) after its duration.
	stuck := func(n int, dur time.Duration, scale float64, probe time.Duration) Job {
		j := job(n, dur, scale, 0)
		j.Scenario.ExpectLive, j.Scenario.Algorithm = true, "safe"
		j.Scenario.ProbeTimeout = scenario.Duration(probe)
		j.Scenario.Expect = scenario.Expectation{Verdict: "invalid", Kinds: []string{history.AnomalyUnavailable}}
		return j
	}
	tests := []struct {
		name string
		jobs []Job
		want []int
	}{
		{"a longer wall time goes first, whatever the file order",
			[]Job{job(0, 10*time.Second, 10, 0), job(1, 60*time.Second, 10, 0), job(2, 40*time.Second, 20, 0)}, []int{1, 2, 0}},
		{"a Sentinel topology counts its unscaled failover time",
			[]Job{job(0, 40*time.Second, 10, 0), job(1, 20*time.Second, 10, 3)}, []int{1, 0}},
		{"a run expected to find the lock unavailable counts its final probe's wait",
			[]Job{job(0, 40*time.Second, 10, 0), stuck(1, 20*time.Second, 10, 30*time.Second)}, []int{1, 0}},
		{"a sweep starts every file's first run before any file's second",
			func() []Job {
				a := job(0, 60*time.Second, 10, 0)
				a.Scenario.File = "long.yaml"
				a2 := a
				a2.N = 1
				b := job(2, 10*time.Second, 10, 0)
				b.Scenario.File = "short.yaml"
				b2 := b
				b2.N = 3
				return []Job{a, a2, b, b2}
			}(), []int{0, 2, 1, 3}},
		{"equal estimates keep the suite's order",
			[]Job{job(0, 10*time.Second, 10, 0), job(1, 20*time.Second, 20, 0), job(2, 5*time.Second, 5, 0)}, []int{0, 1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := longestFirst(tt.jobs)
			for i, j := range got {
				if j.N != tt.want[i] {
					t.Fatalf("order %v, want %v", ns(got), tt.want)
				}
			}
			if tt.jobs[0].N != 0 {
				t.Fatal("longestFirst reordered its input")
			}
		})
	}
}

func ns(jobs []Job) []int {
	out := make([]int, len(jobs))
	for i, j := range jobs {
		out[i] = j.N
	}
	return out
}
