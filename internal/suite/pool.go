package suite

import (
	"cmp"
	"context"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
)

// Pool is a set of Options.Parallel workers, each keeping its cluster
// (Options.Reuse) from one run to the next, across calls of Pool.Run: a
// shrink's candidates and a map's cells run on the same nodes as a
// sweep's seeds do. Close stops every node.
//
// A worker is busy only while its run uses the cluster: the run's
// history is saved, checked and its report written off the worker (at
// most one per CPU at a time), while the worker already runs its next job.
type Pool struct {
	o    Options
	envs chan *reusable // idle workers' clusters
	// gate adapts the runs at once to the machine's load (adapt.go).
	gate *gate
	// finishing bounds the runs being checked and reported at once.
	finishing chan struct{}
	mu        sync.Mutex
	closed    bool
}

// NewPool makes a pool of Options.Parallel (at least one) workers; no node
// starts before a run needs it.
func NewPool(o Options) *Pool {
	n := max(o.Parallel, 1)
	p := &Pool{o: o, envs: make(chan *reusable, n), gate: newGate(n), finishing: make(chan struct{}, max(1, runtime.NumCPU()))}
	for range n {
		p.envs <- &reusable{}
	}
	return p
}

// Run runs the jobs on the pool's workers and returns their outcomes in
// job order (by Job.N); Options.Done is called as each finishes. Jobs not
// started before ctx is cancelled are left out. Unlike the package's Run
// it writes no suite page and links no fixed scenario.
func (p *Pool) Run(ctx context.Context, jobs []Job) []Outcome { return p.RunEach(ctx, jobs, p.o.Done) }

// RunEach is Run with done called as each run finishes instead of
// Options.Done (one call at a time; nil for none).
func (p *Pool) RunEach(ctx context.Context, jobs []Job, done func(Outcome)) []Outcome {
	o := p.o
	if len(jobs) > 1 {
		// Runs still racing their scenario time keep half the CPUs while
		// others draw their charts.
		report.LimitDrawing(runtime.NumCPU() / 2)
	}
	notes := newNotable(jobs)
	next := make(chan Job)
	results := make(chan Outcome)
	var workers, finishers sync.WaitGroup
	for w := 0; w < min(cap(p.envs), len(jobs)); w++ {
		workers.Go(func() {
			env := <-p.envs
			defer func() { p.envs <- env }()
			for {
				started, level, ok := p.gate.tryEnter()
				if !ok {
					// Parked while fewer runs go at once: its nodes would
					// only burn the CPU the others lack (an idle
					// redis-server still ticks), so they stop, and start
					// again when it has a run.
					env.close()
					started, level = p.gate.enter()
				}
				j, ok := <-next
				if !ok {
					p.gate.leave(started, -1)
					return
				}
				out, finish := runJob(ctx, j, o, notes, env)
				out.Parallel = level
				p.gate.leave(started, out.late)
				if finish == nil {
					results <- out
					continue
				}
				p.finishing <- struct{}{}
				finishers.Go(func() {
					defer func() { <-p.finishing }()
					out := finish()
					out.Parallel = level
					results <- out
				})
			}
		})
	}
	go func() {
		defer close(next)
		for _, j := range longestFirst(jobs) {
			if ctx.Err() != nil {
				return
			}
			select {
			case next <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { workers.Wait(); finishers.Wait(); close(results) }()
	var outs []Outcome
	for out := range results {
		if done != nil && out.pending == nil && out.exp == nil {
			done(out)
		}
		outs = append(outs, out)
	}
	sort.Slice(outs, func(a, b int) bool { return outs[a].N < outs[b].N })
	return outs
}

// Level is how many runs the pool lets go at once now: Options.Parallel,
// lowered while the runs finish late and raised again as they finish on
// time (see Congested).
func (p *Pool) Level() int { return p.gate.Level() }

// Close stops every worker's nodes. The pool must not be running.
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.closed = true
	for range cap(p.envs) {
		env := <-p.envs
		env.close()
		p.envs <- env
	}
}

// longestFirst is the order the pool starts jobs in: in rounds, the k-th
// run of every scenario file in round k, and within a round the longest
// expected wall time first (scenario duration / time scale, and a Sentinel
// topology's failover time), so that a suite's slowest runs do not start
// last and leave the other workers idle at its end (longest processing
// time first), and a sweep's runs of one file do not all run at once and
// contend for the same thing (twelve aof-always nodes fsyncing together
// answered a SET only after 200 ms; twelve Sentinel topologies). Ties keep
// the suite's order; experiments (Options.Why) come after every run. It
// changes no run: each has its own seed, nodes and
// ports, and outcomes are returned in job order.
func longestFirst(jobs []Job) []Job {
	round := make(map[int]int, len(jobs)) // job N → its file's run number
	seen := map[string]int{}
	for _, j := range jobs {
		f := j.Scenario.File
		if f == "" {
			f = j.Scenario.Name
		}
		if f == "" {
			f = "#" + strconv.Itoa(j.N) // a scenario not from a file: runs of its own
		}
		round[j.N] = seen[f]
		seen[f]++
	}
	out := slices.Clone(jobs)
	slices.SortStableFunc(out, func(a, b Job) int {
		// A run before the experiments started beside it: its nodes
		// start first.
		if ea, eb := a.exp != nil, b.exp != nil; ea != eb {
			if ea {
				return 1
			}
			return -1
		}
		if c := cmp.Compare(round[a.N], round[b.N]); c != 0 {
			return c
		}
		return cmp.Compare(expectedWall(b), expectedWall(a))
	})
	return out
}

// expectedWall estimates a job's wall time from its scenario alone.
func expectedWall(j Job) time.Duration {
	sc := j.Scenario
	w := sc.Duration.D()
	if sc.TimeScale > 0 {
		w = time.Duration(float64(w) / sc.TimeScale)
	}
	if sc.ProbeEnabled() && slices.Contains(sc.Expect.Kinds, history.AnomalyUnavailable) {
		// Expected to find the lock stuck: the final probe waits out
		// its whole bound, after the duration.
		p := sc.ProbeWait().D()
		if sc.TimeScale > 0 {
			p = time.Duration(float64(p) / sc.TimeScale)
		}
		w += p
	}
	if sc.Sentinels > 0 {
		w += 3 * time.Second // Sentinel's own timers are not scaled
	}
	return w
}
