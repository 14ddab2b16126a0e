package suite

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/why"
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
		{"a run's experiments start its fix first, then a halved fault, then one without a fault",
			func() []Job {
				exp := func(n int, c why.Change) Job {
					j := job(n, 2*time.Minute, 50, 0)
					j.exp = &experiment{variant: why.Variant{Change: c}}
					return j
				}
				return []Job{job(0, 2*time.Minute, 50, 0), exp(1, why.Without), exp(2, why.Half), exp(3, why.FixedBy)}
			}(), []int{0, 3, 2, 1}},
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

func TestAWorkerTakesAJobItsNodesFitFromThoseAboutToStart(t *testing.T) {
	// job n lasts 100-n s of wall time (longest first is 0, 1, 2, …) on
	// nodes nodes; file names it, so that two jobs of one file are two
	// rounds.
	job := func(n, nodes int, file string) Job {
		return Job{N: n, Scenario: scenario.Scenario{File: file, Nodes: nodes, Duration: scenario.Duration(time.Duration(100-n) * time.Second), TimeScale: 1}}
	}
	fiveNodes := func(j Job) bool { return j.Scenario.Nodes == 5 }
	tests := []struct {
		name   string
		jobs   []Job
		window int
		fits   func(Job) bool
		want   int
	}{
		{"a worker without nodes takes the longest job",
			[]Job{job(0, 1, "a"), job(1, 5, "b")}, 4, nil, 0},
		{"a worker whose nodes fit a job in the window takes it",
			[]Job{job(0, 1, "a"), job(1, 1, "b"), job(2, 5, "c")}, 3, fiveNodes, 2},
		{"a job its nodes fit past the window waits its turn",
			[]Job{job(0, 1, "a"), job(1, 1, "b"), job(2, 5, "c")}, 2, fiveNodes, 0},
		{"the first job that fits goes first",
			[]Job{job(0, 1, "a"), job(1, 5, "b"), job(2, 5, "c")}, 3, fiveNodes, 1},
		{"a job of the next round waits for this round's",
			[]Job{job(0, 1, "a"), job(1, 5, "a")}, 4, fiveNodes, 0},
		{"a worker whose nodes fit nothing takes the longest job",
			[]Job{job(0, 1, "a"), job(1, 1, "b")}, 4, fiveNodes, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := newQueue(tt.jobs, tt.window)
			j, ok := q.take(context.Background(), tt.fits)
			if !ok || j.N != tt.want {
				t.Fatalf("took job %d (%v), want %d", j.N, ok, tt.want)
			}
			// Every job is still handed out, once.
			seen := map[int]bool{j.N: true}
			q.done()
			for {
				j, ok := q.take(context.Background(), tt.fits)
				if ok {
					q.done()
				}
				if !ok {
					break
				}
				if seen[j.N] {
					t.Fatalf("job %d handed out twice", j.N)
				}
				seen[j.N] = true
			}
			if len(seen) != len(tt.jobs) {
				t.Fatalf("handed out %d jobs of %d", len(seen), len(tt.jobs))
			}
		})
	}
}

func TestAQueueHandsOutNothingOnceItsContextIsDone(t *testing.T) {
	q := newQueue([]Job{{N: 0}, {N: 1}}, 2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if j, ok := q.take(ctx, nil); ok {
		t.Fatalf("took job %d after cancel", j.N)
	}
}

func TestAQueueWaitsForAHandedOutJobThatMayComeBackAndHandsItOut(t *testing.T) {
	q := newQueue([]Job{{N: 0}, {N: 1}}, 1)
	first, _ := q.take(context.Background(), nil)
	_, _ = q.take(context.Background(), nil) // the second
	took := make(chan Job)
	go func() {
		j, ok := q.take(context.Background(), nil)
		if !ok {
			j.N = -1
		}
		took <- j
	}()
	q.done() // the second ended for good
	again := first
	again.Retry = 1
	q.push(again) // the first comes back to run again
	q.done()
	if j := <-took; j.N != first.N || j.Retry != 1 {
		t.Fatalf("took job %d try %d, want job %d's rerun", j.N, j.Retry, first.N)
	}
	q.done() // the rerun ended
	if j, ok := q.take(context.Background(), nil); ok {
		t.Fatalf("took job %d after every job ended", j.N)
	}
}

func TestARerunGoesBeforeTheShorterJobsNotStartedYet(t *testing.T) {
	job := func(n int, dur time.Duration) Job {
		return Job{N: n, Scenario: scenario.Scenario{Duration: scenario.Duration(dur), TimeScale: 1}}
	}
	exp := job(9, time.Minute)
	exp.exp = &experiment{}
	tests := []struct {
		name  string
		queue []Job
		rerun Job
		want  []int
	}{
		{"a long rerun goes before the shorter jobs", []Job{job(1, 20*time.Second), job(2, 5*time.Second)}, job(0, 10*time.Second), []int{1, 0, 2}},
		{"a rerun goes after the jobs as long as it", []Job{job(1, 10*time.Second), job(2, 10*time.Second)}, job(0, 10*time.Second), []int{1, 2, 0}},
		{"a rerun goes before the experiments, however long", []Job{job(1, 20*time.Second), exp}, job(0, time.Second), []int{1, 0, 9}},
		{"a rerun into an empty queue is its only job", nil, job(0, time.Second), []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := &queue{jobs: tt.queue}
			q.cond = sync.NewCond(&q.mu)
			q.push(tt.rerun)
			if got := ns(q.jobs); !slices.Equal(got, tt.want) {
				t.Errorf("queue %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAQueueWaitingForAJobStopsWhenItsContextIsDone(t *testing.T) {
	q := newQueue([]Job{{N: 0}}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(ctx, q.wake)
	defer stop()
	if _, ok := q.take(ctx, nil); !ok {
		t.Fatal("took nothing")
	}
	res := make(chan bool)
	go func() {
		_, ok := q.take(ctx, nil)
		res <- ok
	}()
	cancel()
	if <-res {
		t.Fatal("took a job after cancel")
	}
}
