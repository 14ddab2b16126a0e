// Package explore is `locksim explore`: it searches for fault schedules
// that make a lock's run invalid, when nobody has written the scenario
// that breaks it.
//
// It runs the lock once with no fault and reads that run's account
// (internal/account): its holds, each key's deadline and the renewals
// that moved it, the grants and the nodes that decide their quorum. Then,
// for every class of fault that applies to the lock's traits and
// topology (every registered fault kind, on nodes or on clients, a crash
// with each persistence), it aims faults at those windows — a pause that
// straddles a hold's expiry, a clock jump on the node that decides a
// quorum, a partition during a renewal, a crash between a grant and its
// persistence: lineage-driven fault injection (Alvaro, Rosen and
// Hellerstein, SIGMOD 2015), breaking what the success depended on —
// followed by schedules drawn at random from the seed, so the search is
// not only as good as its guide. Parameters are taken around the lock's
// own scales: its TTL, its renewal period, the job's length.
//
// Per class it stops at the first invalid run and shrinks that schedule
// with `locksim shrink`'s passes (internal/shrink) to the fewest faults
// and shortest durations still invalid in every one of K seeds, written
// as a plain scenario with `expect: invalid` and its kinds: a regression
// file. The profile (report.Profile: profile.json and a page per
// language) has one row per class — broken, with its smallest schedule,
// timeline and reproduce line, or survived N schedules over the values
// they took — with lesson 42's requirements each bears on.
//
// Runs go through a suite.Pool (parallel, nodes reused) as a sweep's do;
// a shard (suite.Shard) explores the classes whose name hashes to it, and
// Merge combines the shards' profiles. Every random choice comes from the
// seed.
package explore

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/shrink"
	"github.com/locksim/locksim/internal/suite"
)

// Options configure an exploration.
type Options struct {
	// Base is the fault-free scenario; JobSet says its job length was
	// given (else Explore picks it: see Explore).
	Base   scenario.Scenario
	JobSet bool
	// PersistenceSet: the base's persistence was given, so the crash
	// classes use it alone (else one crash class per persistence).
	PersistenceSet bool
	// Seed draws every random choice.
	Seed int64
	// Budget bounds the search's wall time, BudgetRuns its runs (0: no
	// bound; one of them must be set). Shrinking a violation found is not
	// counted: ShrinkBudget bounds each shrink (0: 60s).
	Budget       time.Duration
	BudgetRuns   int
	ShrinkBudget time.Duration
	// K is the number of seeds a smallest schedule must be invalid in
	// (default 3).
	K int
	// Classes, when set, are the only classes explored (by name).
	Classes []string
	// Shard is the part of the classes explored here.
	Shard suite.Shard
	// Pool runs every run, Parallel of them at a time; Dir is the
	// exploration's directory.
	Pool     *suite.Pool
	Parallel int
	Dir      string
	// Backend is the pool's node backend (embedded nodes have no
	// persistence).
	Backend string
	// Lang is the profile page's first language; Version locksim's.
	Lang    report.Lang
	Version string
	// Reproduce is the command that repeats the exploration.
	Reproduce string
	// Redraw draws the charts of a run's report (nil: none).
	Redraw func(reportDir string, sc scenario.Scenario) error
	// Progress is told what happens (nil: nothing).
	Progress func(Event)
	// Verbose makes Progress hear of every run.
	Verbose bool
}

// Event is something Progress is told.
type Event struct {
	// Elapsed is the exploration's wall time so far; Runs its runs.
	Elapsed time.Duration
	Runs    int
	Class   string
	// Line says what happened, in English (a log line).
	Line string
}

// Files and directories of an exploration.
const (
	RegressionsDir = "regressions"
	BaselineDir    = "baseline"
	ClassesDir     = "classes"
	ShrinksDir     = "shrinks"
)

func (o Options) k() int { return cmpOr(o.K, 3) }

func (o Options) shrinkBudget() time.Duration { return cmpOr(o.ShrinkBudget, 60*time.Second) }

// explorer is one exploration in progress.
type explorer struct {
	o     Options
	began time.Time
	runs  atomic.Int64 // every run, shrinks' included
	// searchRuns counts the search's runs (BudgetRuns); abandoned the
	// runs that never ended (guard).
	searchRuns atomic.Int64
	abandoned  atomic.Int64
	mu         sync.Mutex // Progress
}

func (x *explorer) elapsed() time.Duration { return time.Since(x.began) }

func (x *explorer) say(class, format string, args ...any) {
	if x.o.Progress == nil {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.o.Progress(Event{Elapsed: x.elapsed(), Runs: int(x.runs.Load()), Class: class, Line: fmt.Sprintf(format, args...)})
}

// Explore runs an exploration and returns its profile, also written into
// Options.Dir (profile.json, the pages, regressions/). Without a job
// length given, the fault-free run first has a job of twice the TTL: a
// lock that renews its lease through it (the account shows its deadline
// moved, the run valid) keeps that job, so faults can strike while it
// renews; any other gets a job of half the TTL (long enough for a node's
// restart to fall inside it, short enough to end within the lease). An
// interrupted exploration (ctx cancelled) still writes what it found,
// marked so.
func Explore(ctx context.Context, o Options) (report.Profile, error) {
	if o.Pool == nil {
		return report.Profile{}, errors.New("explore: no pool")
	}
	if o.Budget <= 0 && o.BudgetRuns <= 0 {
		return report.Profile{}, errors.New("explore: no budget")
	}
	x := &explorer{o: o, began: time.Now()}
	for _, d := range []string{RegressionsDir, BaselineDir, ClassesDir, ShrinksDir} {
		if err := os.MkdirAll(filepath.Join(o.Dir, d), 0o755); err != nil {
			return report.Profile{}, fmt.Errorf("explore: %w", err)
		}
	}
	base, bl, acc, err := x.baseline(ctx)
	if err != nil {
		return report.Profile{}, err
	}
	p := x.profileHead(base)
	p.Baseline = bl.run
	e := x.env(base, acc)
	if e.renewal > 0 {
		p.RenewalSeconds = e.renewal.Seconds()
	}
	all := classes(e)
	p.PlanHash = planHash(base, o.Seed, all)
	switch {
	case bl.verdict == checker.Invalid:
		p.BaselineBroken = true
	case len(e.ws) == 0:
		return p, fmt.Errorf("explore: the fault-free run granted no lock (%s): there is nothing to aim faults at", bl.run.Report)
	default:
		var todo []*class
		for _, c := range all {
			if skip := x.skip(c, e); skip != nil {
				p.NotApplicable = append(p.NotApplicable, *skip)
				continue
			}
			todo = append(todo, c)
		}
		var refused []report.ProfileSkip
		p.Rows, refused = x.search(ctx, e, todo)
		p.NotApplicable = append(p.NotApplicable, refused...)
	}
	p.Runs, p.ElapsedSeconds, p.Abandoned = int(x.runs.Load()), x.elapsed().Seconds(), int(x.abandoned.Load())
	p.Interrupted = ctx.Err() != nil
	if err := Write(o.Dir, p, o.Lang); err != nil {
		return p, err
	}
	return p, nil
}

// Write writes a profile into dir: profile.json and its pages.
func Write(dir string, p report.Profile, lang report.Lang) error {
	if err := report.WriteProfileJSON(dir, p); err != nil {
		return fmt.Errorf("explore: %w", err)
	}
	if err := report.WriteProfile(dir, p, lang); err != nil {
		return fmt.Errorf("explore: %w", err)
	}
	return nil
}

// skip says why class c is not explored here, or nil.
func (x *explorer) skip(c *class, e *env) *report.ProfileSkip {
	s := &report.ProfileSkip{Class: c.Name, Kind: c.Kind}
	switch {
	case len(x.o.Classes) > 0 && !slices.Contains(x.o.Classes, c.Name):
		s.Reason = naNotChosen
	case !x.o.Shard.Has(suite.Job{Scenario: scenario.Scenario{Name: c.Name}, Seed: x.o.Seed}):
		s.Reason, s.Arg = naOtherShard, shardOf(c.Name, x.o.Seed, x.o.Shard.N)
	default:
		s.Reason, s.Arg = c.applies(e)
	}
	if s.Reason == "" {
		return nil
	}
	return s
}

// shardOf is the shard "K/N" a class is explored in.
func shardOf(class string, seed int64, n int) string {
	return fmt.Sprintf("%d/%d", suite.RunHash(class, seed)%uint64(n)+1, n)
}

// ClassNames lists every class an exploration may have, in the profile's
// order (some apply only to some locks and topologies).
func ClassNames() []string {
	var out []string
	for _, c := range classes(&env{}) {
		out = append(out, c.Name)
	}
	return out
}

// planHash identifies an exploration for merge: its base scenario, seed
// and classes (hex FNV-1a).
func planHash(base scenario.Scenario, seed int64, cs []*class) string {
	h := fnv.New64a()
	b, _ := scenario.Normalize(base)
	h.Write(b)
	fmt.Fprintf(h, "\x00%d", seed)
	for _, c := range cs {
		fmt.Fprintf(h, "\x00%s", c.Name)
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// profileHead is the profile's facts of the exploration itself.
func (x *explorer) profileHead(base scenario.Scenario) report.Profile {
	o := x.o
	b, _ := scenario.Normalize(base)
	budget := o.Budget.String()
	if o.BudgetRuns > 0 {
		budget = fmt.Sprintf("%d runs", o.BudgetRuns)
		if o.Budget > 0 {
			budget = fmt.Sprintf("%s or %d runs", o.Budget, o.BudgetRuns)
		}
	}
	p := report.Profile{Algorithm: base.Algorithm, Workload: base.Workload.Kind, Nodes: base.Nodes, Replicas: base.Replicas,
		Sentinels: base.Sentinels, Clients: base.Clients, Persistence: base.Persistence, Fencing: base.Workload.Fenced(),
		TTLSeconds: base.TTL.D().Seconds(), JobSeconds: base.Workload.Job.D().Seconds(), TimeScale: base.TimeScale,
		Seed: o.Seed, Budget: budget, ShrinkBudget: o.shrinkBudget().String(), K: o.k(), Shard: o.Shard.String(),
		Version: o.Version, Backend: o.Backend, Reproduce: o.Reproduce, BaseYAML: string(b)}
	if a, ok := clients.Lookup(base.Algorithm); ok {
		p.Traits = strings.Split(a.Traits.String(), "; ")
		if p.Traits[0] == "" {
			p.Traits = nil
		}
	}
	return p
}

// env is the classes' view of the base and its fault-free run.
func (x *explorer) env(base scenario.Scenario, acc *account.Account) *env {
	t := base.FaultTopology()
	e := &env{base: base, traits: base.Traits(), backend: x.o.Backend, scale: base.TimeScale, ttl: base.TTL.D(),
		nodes: t.Nodes, clients: t.Clients, replicas: t.Replicas, grain: max(base.TTL.D()/100, time.Millisecond),
		persistence: base.Persistence, persistenceSet: x.o.PersistenceSet,
		replicated: base.Replicas > 0, withSentinels: base.Sentinels > 0}
	if acc != nil {
		e.ws = windows(acc, e.traits.MultiNode, base.Nodes)
		var last int64
		for _, w := range e.ws {
			last = max(last, w.End)
		}
		e.end = time.Duration(float64(last) * e.scale)
		e.renewal = renewalPeriod(e.ws, e.scale)
	}
	return e
}

// renewalPeriod is the median time between a hold's grant or renewal and
// its next renewal, scenario time (0: no renewal).
func renewalPeriod(ws []window, scale float64) time.Duration {
	var gaps []int64
	for _, w := range ws {
		prev := w.Grant
		for _, r := range w.Renewals {
			gaps = append(gaps, r-prev)
			prev = r
		}
	}
	if len(gaps) == 0 {
		return 0
	}
	slices.Sort(gaps)
	return time.Duration(float64(gaps[len(gaps)/2]) * scale).Round(time.Millisecond)
}

// classSeed is the generator of a class's random choices: from the seed
// and the class's name alone, so a class draws the same schedules however
// many classes run beside it, in whichever shard.
func classSeed(seed int64, class string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(class))
	return rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
}

// baselineRun is the fault-free run's outcome.
type baselineRun struct {
	verdict checker.Verdict
	run     report.ProfileRun
}

// baseline runs the fault-free scenario (with a long job first, when the
// job length is left to the exploration) and reads its account. A run
// that comes out unknown (a busy machine) is run again, up to three times.
func (x *explorer) baseline(ctx context.Context) (scenario.Scenario, baselineRun, *account.Account, error) {
	base := x.o.Base
	try := func(sc scenario.Scenario) (baselineRun, *account.Account, error) {
		var last suite.Outcome
		for i := range 3 {
			out, err := x.runOne(ctx, sc, x.o.Seed+int64(i), filepath.Join(x.o.Dir, BaselineDir))
			if err != nil {
				return baselineRun{}, nil, err
			}
			last = out
			if out.Results != nil && out.Results.Verdict != checker.Unknown {
				break
			}
		}
		if last.Results == nil {
			return baselineRun{}, nil, fmt.Errorf("explore: the fault-free run has no verdict: %s", last.Err)
		}
		r := last.Results
		bl := baselineRun{verdict: r.Verdict, run: x.profileRun(r, sc, filepath.Join(x.o.Dir, BaselineDir))}
		if r.Verdict == checker.Unknown {
			return bl, nil, fmt.Errorf("explore: the fault-free run came out unknown three times (the machine is too busy to keep its time: %s)", bl.run.Report)
		}
		h, err := history.ReadFile(filepath.Join(r.ReportDir, "history.jsonl"))
		if err != nil {
			return bl, nil, fmt.Errorf("explore: %w", err)
		}
		return bl, account.New(h), nil
	}
	if !x.o.JobSet {
		long, err := withJob(base, 2*base.TTL.D())
		if err != nil {
			return base, baselineRun{}, nil, fmt.Errorf("explore: %w", err)
		}
		bl, acc, err := try(long)
		if err != nil {
			return base, bl, nil, err
		}
		if bl.verdict == checker.Valid && renews(windows(acc, long.Traits().MultiNode, long.Nodes)) {
			x.say("", "the fault-free run with a job of %s (2 TTLs) is valid and renews its lease: exploring with that job", long.Workload.Job)
			return long, bl, acc, nil
		}
		if base, err = withJob(base, max(base.TTL.D()/2, time.Millisecond)); err != nil {
			return base, baselineRun{}, nil, fmt.Errorf("explore: %w", err)
		}
		x.say("", "the lock does not renew a lease through a job of 2 TTLs: exploring with a job of %s (half the TTL)", base.Workload.Job)
	}
	bl, acc, err := try(base)
	if err == nil {
		x.say("", "fault-free run: %s (%s)", bl.verdict, bl.run.Report)
	}
	return base, bl, acc, err
}

// runOne runs sc once with seed, its report under dir, with sc written
// there as the file the report's reproduce line names.
func (x *explorer) runOne(ctx context.Context, sc scenario.Scenario, seed int64, dir string) (suite.Outcome, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return suite.Outcome{}, fmt.Errorf("explore: %w", err)
	}
	b, err := scenario.Normalize(sc)
	if err != nil {
		return suite.Outcome{}, fmt.Errorf("explore: %w", err)
	}
	file := filepath.Join(dir, "scenario.yaml")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		return suite.Outcome{}, fmt.Errorf("explore: %w", err)
	}
	sc.File = file
	job := suite.Job{Scenario: sc, Seed: seed, Out: dir}
	var outs []suite.Outcome
	if !x.guard(sc, func() { outs = x.o.Pool.Run(ctx, []suite.Job{job}) }) {
		return suite.Outcome{Job: job, Err: fmt.Sprintf("abandoned: no end after %s (under %s)", stuckAfter(sc), dir)}, nil
	}
	x.runs.Add(1)
	if len(outs) != 1 {
		return suite.Outcome{Job: job, Aborted: true, Err: "not started"}, nil
	}
	return outs[0], nil
}

// stuckAfter bounds a run's wall time: a minute beyond three times what
// its scenario can take (its duration and final probe, compressed, and
// Sentinel's unscaled timers).
func stuckAfter(sc scenario.Scenario) time.Duration {
	scale := max(sc.TimeScale, 1e-3)
	w := time.Duration(float64(sc.Duration.D()+sc.ProbeWait().D()) / scale)
	if sc.Sentinels > 0 {
		w += 10 * time.Second
	}
	return time.Minute + 3*w
}

// guard runs run, a run of sc, and reports whether it ended within
// stuckAfter. One that does not is abandoned — its pool worker and nodes
// with it, until the process exits — and counted (Abandoned): toxiproxy
// 2.5.0 can deadlock removing a toxic from a connection that is closing
// (Shopify/toxiproxy #558), and one such run must not stop the
// exploration.
func (x *explorer) guard(sc scenario.Scenario, run func()) bool {
	done := make(chan struct{})
	go func() { defer close(done); run() }()
	t := time.NewTimer(stuckAfter(sc))
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		x.abandoned.Add(1)
		x.say("", "%s: a run has not ended after %s: abandoned", sc.Name, stuckAfter(sc))
		return false
	}
}

// guardedEval is a shrink's evaluator whose candidates' runs are guarded
// like the search's.
type guardedEval struct {
	x     *explorer
	inner shrink.Evaluator
}

func (g guardedEval) Eval(ctx context.Context, sc scenario.Scenario, seeds []int64) (runs []shrink.Run, dir string, err error) {
	if !g.x.guard(sc, func() { runs, dir, err = g.inner.Eval(ctx, sc, seeds) }) {
		return nil, "", fmt.Errorf("abandoned: no end after %s", stuckAfter(sc))
	}
	return runs, dir, err
}

// profileRun is a run as the profile shows it, paths relative to the
// exploration's directory.
func (x *explorer) profileRun(r *report.Results, sc scenario.Scenario, _ string) report.ProfileRun {
	pr := report.ProfileRun{Verdict: string(r.Verdict), Kinds: report.ViolationKinds(r.Anomalies), Seed: r.Seed,
		Faults: len(r.Plan), Reproduce: r.Reproduce, Seconds: r.WallSeconds}
	for _, s := range r.Plan {
		pr.Steps = append(pr.Steps, describe(s, sc.TimeScale))
	}
	if r.ReportDir != "" {
		pr.Report = x.rel(filepath.Join(r.ReportDir, report.IndexFile))
		if _, err := os.Stat(filepath.Join(r.ReportDir, "timeline.png")); err == nil {
			pr.Timeline = x.rel(filepath.Join(r.ReportDir, "timeline.png"))
		}
	}
	if sc.File != "" {
		pr.File = x.rel(sc.File)
	}
	return pr
}

// rel is path relative to the exploration's directory.
func (x *explorer) rel(path string) string { return relTo(x.o.Dir, path) }

// relTo is path relative to dir, with forward slashes (path itself when
// that cannot be said).
func relTo(dir, path string) string {
	a, err1 := filepath.Abs(dir)
	b, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return path
	}
	r, err := filepath.Rel(a, b)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}
