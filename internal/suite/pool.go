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

	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/runner"
	"github.com/locksim/locksim/internal/why"
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
	// finishing bounds the runs being checked and reported at once: half
	// the CPUs, so that the runs still racing their scenario time keep the
	// other half (with every CPU checking, the catalogue at 18 at once saw
	// its timers fire 40–190 ms late as its first runs finished, and
	// reran 4 runs; with half, none).
	finishing chan struct{}
	// setting bounds the runs setting up at once (runner.Options.SetUpDone:
	// starting or resetting nodes, starting client processes): half the
	// CPUs, so that the runs racing their scenario time keep the other
	// half. The catalogue's 24 runs set up at once at its start made the
	// timers of the first ones fire 100–160 ms late, and 9 runs were
	// spoiled and ran again, one of them a 17 s Redlock run at its end.
	setting chan struct{}
	mu      sync.Mutex
	closed  bool
}

// NewPool makes a pool of Options.Parallel (at least one) workers; no node
// starts before a run needs it.
func NewPool(o Options) *Pool {
	n := max(o.Parallel, 1)
	p := &Pool{o: o, envs: make(chan *reusable, n), gate: newGate(n), finishing: make(chan struct{}, max(1, runtime.NumCPU()/2)),
		setting: make(chan struct{}, max(1, runtime.NumCPU()/2))}
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
	return p.runEach(ctx, jobs, done, 0)
}

// runEach is RunEach that runs again, up to inline times, each run the
// machine spoiled (Outcome.spoiled) once it comes back, after the jobs
// not started yet, the pool's level halved first (a spoiled run cuts as
// a late one does): its rerun starts as the pass's last runs start, not
// after the slowest of them ends (the catalogue's reruns after its pass
// ran 1 to 3 at once for 5 to 8 s of its 30 to 40), and not at once
// either, into the load that spoiled it (fencing-random-nemesis --count
// 1000 beside load: reruns pushed ahead of the waiting runs were
// spoiled again). The outcome returned for a job is its last try's; done
// is called for every try.
func (p *Pool) runEach(ctx context.Context, jobs []Job, done func(Outcome), inline int) []Outcome {
	o := p.o
	if len(jobs) > 1 {
		// Runs still racing their scenario time keep half the CPUs while
		// others draw their charts; the reports written after them
		// (explain's) draw on all.
		defer report.RacingRuns()()
	}
	notes := newNotable(jobs)
	nworkers := min(cap(p.envs), len(jobs))
	q := newQueue(jobs, nworkers)
	defer context.AfterFunc(ctx, q.wake)()
	results := make(chan Outcome)
	var workers, finishers sync.WaitGroup
	for w := 0; w < nworkers; w++ {
		workers.Go(func() {
			env := <-p.envs
			defer func() { p.envs <- env }()
			for {
				started, level, ok := p.gate.enterWithin(keepParked)
				if !ok {
					// Parked a while as fewer runs go at once: its nodes
					// stop, and start again when it has a run.
					env.close()
					started, level = p.gate.enter()
				}
				j, ok := q.take(ctx, func(j Job) bool { return env.fits(j, o) })
				if !ok {
					p.gate.leave(started, -1)
					return
				}
				p.setting <- struct{}{}
				setUpDone := sync.OnceFunc(func() { <-p.setting })
				// A set-up waiting on its processes (replicas syncing,
				// sentinels learning their peers) lets another set up.
				waiting := func() func() {
					<-p.setting
					return func() { p.setting <- struct{}{} }
				}
				out, finish := runJob(ctx, j, o, notes, env, setUpDone, waiting)
				setUpDone()
				out.Parallel = level
				p.gate.leave(started, out.late)
				if finish == nil {
					p.again(q, out, started, inline)
					results <- out
					q.done()
					continue
				}
				p.finishing <- struct{}{}
				finishers.Go(func() {
					defer func() { <-p.finishing }()
					out := finish()
					out.Parallel = level
					p.again(q, out, started, inline)
					results <- out
					q.done()
				})
			}
		})
	}
	stopGrow := make(chan struct{})
	go func() {
		t := time.NewTicker(growEvery)
		defer t.Stop()
		for {
			select {
			case <-stopGrow:
				return
			case now := <-t.C:
				p.gate.grow(now, runner.LastCongested())
			}
		}
	}()
	go func() { workers.Wait(); finishers.Wait(); close(stopGrow); close(results) }()
	var outs []Outcome
	at := map[int]int{} // job N → its position in outs
	for out := range results {
		if done != nil && out.pending == nil && out.exp == nil {
			done(out)
		}
		if i, ok := at[out.N]; ok {
			if out.Retry > outs[i].Retry {
				outs[i] = out // a rerun's outcome replaces its earlier try's
			}
			continue
		}
		at[out.N] = len(outs)
		outs = append(outs, out)
	}
	sort.Slice(outs, func(a, b int) bool { return outs[a].N < outs[b].N })
	return outs
}

// again puts the rerun of out, a run that started at started, after the
// jobs not started yet when the machine spoiled it and it has had fewer
// than tries reruns (rerunOf), and halves the pool's level as a late run
// does: a spoiled run's lateness may be under Congested (a violation
// within it, an edge crossed), but it spoiled the run all the same.
func (p *Pool) again(q *queue, out Outcome, started time.Time, tries int) {
	j, ok := rerunOf(out, tries)
	if !ok {
		return
	}
	p.gate.spoiled(started)
	q.push(j)
	p.o.log().Info("running again a run the machine spoiled", "scenario", j.Scenario.Name, "seed", j.Seed, "try", j.Retry, "cause", j.retried[len(j.retried)-1])
}

// rerunOf is the job that runs out again, and true, when the machine
// spoiled out (never an experiment) and it has had fewer than tries
// reruns.
func rerunOf(out Outcome, tries int) (Job, bool) {
	if out.exp != nil || out.Retry >= tries {
		return Job{}, false
	}
	cause, ok := out.spoiled()
	if !ok {
		return Job{}, false
	}
	j := out.Job
	j.Retry, j.retried = j.Retry+1, append(slices.Clone(j.retried), cause)
	return j, true
}

// keepParked is how long a worker parked while fewer runs go at once
// keeps its nodes: an idle redis-server (hz 10) costs about 2 ms of CPU a
// second (measured: 10 idle nodes, 0.58 CPU-s in 30 s), starting and
// stopping one, proxies included, about 50 ms. Keeping them this long
// and then stopping them (the rent-or-buy rule) costs at most twice what
// knowing how long the park would last would have.
const keepParked = 25 * time.Second

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
	// The idle nodes the clusters gave back as they closed.
	if err := cluster.DrainPool(); err != nil {
		p.o.log().Warn("stopping the idle nodes failed", "err", err)
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
	round := rounds(jobs)
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
		if c := cmp.Compare(expectedWall(b), expectedWall(a)); c != 0 || a.exp == nil {
			return c
		}
		return cmp.Compare(lastingRank(a.exp.variant.Change), lastingRank(b.exp.variant.Change))
	})
	return out
}

// lastingRank orders a run's experiments of one duration by how long
// they are likely to last, longest first: its fix with the same faults
// lasts as long as the run, one with a pause or latency halved less, one
// without a fault least (gc-pause's fix started last and its report
// waited 0.12 s for it, issue 27).
func lastingRank(c why.Change) int {
	switch c {
	case why.FixedBy, why.FixedByOwn:
		return 0
	case why.Half:
		return 1
	default:
		return 2
	}
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

// rounds maps each job's N to its file's run number: the k-th run of a
// scenario file is in round k.
func rounds(jobs []Job) map[int]int {
	round := make(map[int]int, len(jobs))
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
	return round
}

// queue hands out a pool's jobs in longestFirst's order, except that a
// worker whose nodes a job a little further on fits takes that one:
// starting and stopping a cluster (redis-server processes, proxies) cost
// more CPU than most runs, and a catalogue's scenarios come in a dozen
// shapes, not in order of shape. The job taken instead of the first is
// one of the next window (the workers: the jobs about to start anyway),
// in the same round (a sweep's k-th runs before its k+1-th) and of the
// same kind (runs before experiments), so the longest runs still start
// first. It changes no run: each job keeps its seed, and a reused
// cluster is reset between runs as before.
type queue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	jobs   []Job // not taken yet, in order
	open   int   // handed out, not done
	round  map[int]int
	window int
}

func newQueue(jobs []Job, window int) *queue {
	q := &queue{jobs: longestFirst(jobs), round: rounds(jobs), window: max(window, 1)}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// push puts j, a spoiled run's rerun, before the first job not taken yet
// that is expected to be shorter (expectedWall) or is an experiment, as
// longestFirst would have placed it, rounds aside: a sweep's rerun goes
// after every run of its file not started yet (its equals), and a
// catalogue's 17 s Redlock run spoiled at its start starts again as the
// next place frees, not after the 120 short runs behind it (the catalogue
// then ended at 43 s instead of 28). The caller pushes before it calls
// done for the run j reruns.
func (q *queue) push(j Job) {
	q.mu.Lock()
	defer q.mu.Unlock()
	w := expectedWall(j)
	at := len(q.jobs)
	for i, o := range q.jobs {
		if o.exp != nil || expectedWall(o) < w {
			at = i
			break
		}
	}
	q.jobs = slices.Insert(q.jobs, at, j)
	q.cond.Broadcast()
}

// done tells q that a job it handed out has ended and will push nothing
// more.
func (q *queue) done() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.open--
	q.cond.Broadcast()
}

// wake wakes the workers waiting in take (ctx is done).
func (q *queue) wake() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.cond.Broadcast()
}

// take removes and returns the next job for a worker whose nodes fit
// tells apart (nil: any job): the first job that fits among the window,
// else the first job. While no job is left but some handed out have not
// ended (done), it waits: one may come back to run again (push). ok is
// false when no job is left nor can come, or ctx is done.
func (q *queue) take(ctx context.Context, fits func(Job) bool) (Job, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.jobs) == 0 && q.open > 0 && ctx.Err() == nil {
		q.cond.Wait()
	}
	if len(q.jobs) == 0 || ctx.Err() != nil {
		return Job{}, false
	}
	q.open++
	at := 0
	if fits != nil {
		head := q.jobs[0]
		for i := 0; i < min(q.window, len(q.jobs)); i++ {
			j := q.jobs[i]
			if q.round[j.N] != q.round[head.N] || (j.exp != nil) != (head.exp != nil) {
				break
			}
			if fits(j) {
				at = i
				break
			}
		}
	}
	j := q.jobs[at]
	q.jobs = slices.Delete(q.jobs, at, at+1)
	return j, true
}
