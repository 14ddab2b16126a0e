// Package suite runs many scenario runs as one invocation: the seeds of a
// sweep, a pool of parallel workers each reusing its cluster between its
// runs, the report of every run (with charts only for the notable ones of
// a sweep), the links between reports once every run has finished, the
// suite page, the violation rates and the JUnit file. Analyse is the
// check-and-report glue of one history, shared with `locksim check`.
//
// The CLI (internal/cli) keeps flags, usage, signals, printing and exit
// codes; this package decides nothing about them:
//
//	jobs := suite.Plan(scenarios, opts)   // one Job per scenario and seed
//	outs := suite.Run(ctx, jobs, opts)    // opts.Done is called as each run ends
//	for _, l := range suite.SweepLines(outs) { … }
//
// A run that ends because ctx was cancelled keeps its partial history and
// a report marked aborted; jobs not started by then are left out.
package suite

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/runner"
	"github.com/locksim/locksim/internal/scenario"
)

// Charts chooses which runs get timeline.png, latency.png and rate.png.
type Charts string

const (
	// ChartsNotable draws them for a scenario run once and, in a sweep,
	// for its first seed, every run that missed its expectation and, for
	// a scenario without one, every run that is not valid (drawing them
	// is most of a short run's CPU).
	ChartsNotable Charts = "notable"
	// ChartsAll draws them for every run.
	ChartsAll Charts = "all"
	// ChartsNone draws them for no run (shrink candidates, map cells:
	// their callers redraw the few reports they link; see Redraw).
	ChartsNone Charts = "none"
)

// Options configure a suite. The zero value runs each scenario once, one
// run at a time, into "reports", in English, on the default backend.
type Options struct {
	// Out is the report root: a run writes <Out>/<scenario>/<run-id>/, a
	// suite of more than one run also <Out>/index.html. Default "reports".
	Out string
	// Seed, when set, is the first seed of every scenario; else the
	// scenario's own seed, else one drawn (and logged) per scenario.
	Seed *int64
	// Count is the number of runs per scenario, with consecutive seeds
	// from the first (a sweep when > 1). Default 1.
	Count int
	// Parallel is the most runs at the same time. Default 1.
	Parallel int
	// Backend and External choose the nodes (runner.Options).
	Backend  string
	External *cluster.External
	// Reuse keeps each worker's cluster (nodes and proxies) for its next
	// run when the scenario needs the same shape; runner.Run resets it.
	Reuse bool
	// Charts: ChartsNotable (default) or ChartsAll.
	Charts Charts
	// Lang is the language of every report and of the suite page.
	Lang report.Lang
	// Version is locksim's version, logged first and written in reports.
	Version string
	// Reproduce returns the command that repeats one run (only the CLI
	// knows its flags); nil gives "locksim run <file> --seed N".
	Reproduce func(sc scenario.Scenario, seed int64) string
	// Logger receives every run's log lines; nil discards them.
	Logger *slog.Logger
	// Done, when set, is called once per finished run (aborted and failed
	// ones included), in the order the runs finish, one call at a time.
	Done func(Outcome)
	// Hook, when set (locksim serve), is called for each run just before
	// it starts, with its report directory and its runner options, which
	// it may extend: a copy of the history's stream (wrap ro.Stream), the
	// run's Control (ro.Started). It must not block.
	Hook func(dir string, ro *runner.Options)
	// RetryUnknown runs again, with the same seed, up to this many times
	// (0: never; the CLI's default is 2), a run the machine spoiled and
	// that did not do what its scenario promised: its verdict unknown
	// for a cause that is the machine's (report.Results.Spoiled: its
	// timing lost, its violations within the harness's lateness, an
	// exposure no contender tested, a failover no step asked for), or
	// no verdict at all (NoVerdict). A definite verdict is never rerun.
	// With two or more, the first rerun joins the first pass once the
	// spoiled run is checked, after the runs not started yet, the pool's
	// level halved; the others go after the pass, together, at half the
	// runs at once the pool was at. The rerun's outcome
	// replaces the run's, its results list the earlier tries' causes
	// (Retried), and the log says so.
	RetryUnknown int
	// Why runs the experiments of package why for every notable run
	// that came out invalid (a single run's, or a suite's notable ones;
	// see notable): the same seed without each planned fault, a pause or
	// latency also at half its length, and the scenario's fixed_by with
	// the same faults. The run's report, written once they are done,
	// tells them (report.Input.Counterfactuals); Done is called then.
	Why bool
}

func (o Options) out() string {
	if o.Out == "" {
		return "reports"
	}
	return o.Out
}

func (o Options) count() int { return max(o.Count, 1) }

func (o Options) log() *slog.Logger {
	if o.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return o.Logger
}

func (o Options) reproduce(sc scenario.Scenario, seed int64) string {
	if o.Reproduce != nil {
		return o.Reproduce(sc, seed)
	}
	return fmt.Sprintf("locksim run %s --seed %d", sc.File, seed)
}

// DefaultParallel is twelve runs per CPU, at most 32 (PerCPU): a run
// spends most of its wall time waiting (its scenario time, compressed),
// and while runs race their time charts are drawn one at a time
// (report.LimitDrawing). The pool's gate (adapt.go) lowers the level as
// soon as runs finish late and raises it again while they finish on time,
// so this is a ceiling, not a load. Measured on 2 CPUs, quiet: the
// catalogue of 137 files (nine Redlock files at time scale 0.5, 17–28 s
// each, their runs' walls adding up to 460 s) took 44 s at six per CPU,
// bound by the places (460 s / 12), and 35 s at twelve, bound by its
// longest run. (Sixteen per CPU, starting at twelve, measured 36–46 s
// against 35–42 s at twelve for the catalogue of 142 files: no gain.)
func DefaultParallel() int { return min(PerCPU*runtime.NumCPU(), 32) }

// PerCPU is the default number of runs at once per CPU (DefaultParallel).
const PerCPU = 12

// Job is one run to do: a scenario with one seed.
type Job struct {
	N        int // position in the suite, 0-based
	Scenario scenario.Scenario
	Seed     int64
	// Out, when set, is this run's report root instead of Options.Out
	// (a map's cells each have their own).
	Out string

	// Retry is 0 for a run's first try, k for its k-th rerun (a run the
	// machine spoiled; see Options.RetryUnknown).
	Retry int
	// retried are the causes of the earlier tries of a rerun, in order
	// (report.Results.Retried).
	retried []string

	// planned, firstSeed and planFiles are, when Plan made the job, how
	// many runs of its scenario file the whole plan has, the first one's
	// seed and how many scenarios the plan has: which runs are notable
	// does not change when only a shard of the plan runs.
	planned   int
	firstSeed int64
	// dir, when set, is the run's report directory, made before it
	// started (a run whose experiments start beside it, see speculate);
	// exp marks a job that is one of another run's experiments.
	dir       string
	exp       *experiment
	planFiles int
}

func (j Job) out(o Options) string {
	if j.Out != "" {
		return j.Out
	}
	return o.out()
}

// Outcome is a finished, failed or aborted run.
type Outcome struct {
	Job
	// Results is the run's results.json; nil when the run produced no
	// report (an infrastructure error, or interrupted before its workload
	// started).
	Results *report.Results
	// Aborted: the run was interrupted (ctx cancelled) before its end.
	Aborted bool
	// Err says why the run has no verdict, or what failed after it.
	Err string
	// Wall is the run's wall time.
	Wall time.Duration
	// Reproduce is the command that repeats the run.
	Reproduce string

	// pending is a run whose report waits for its experiments (Why).
	pending *pending
	// Parallel is how many runs the pool let go at once when this one
	// started (its adaptive level, at most Options.Parallel).
	Parallel int

	// late is the run's harness lateness (its history's worst timer lag
	// or fault step late or stretched), -1 without a history.
	late time.Duration
}

// Result is the run's results, or for a run with no report what is known
// of it and why it has no verdict.
func (o Outcome) Result() report.Results {
	if o.Results != nil {
		r := *o.Results
		r.Aborted = r.Aborted || o.Aborted
		return r
	}
	sc := o.Scenario
	return report.Results{Scenario: sc.Name, File: sc.File, Seed: o.Seed, Expect: sc.Expect.Verdict, ExpectKinds: sc.Expect.Kinds,
		TimeScale: sc.TimeScale, WallSeconds: o.Wall.Seconds(), Reproduce: o.Reproduce, FixedBy: sc.FixedByFile(),
		Aborted: o.Aborted, Error: o.Err}
}

// Passed reports whether the run did what its scenario promised: met its
// expectation, or without one came out valid. A run without a report
// did not pass.
func (o Outcome) Passed() bool {
	r := o.Results
	switch {
	case r == nil:
		return false
	case r.ExpectationMet != nil:
		return *r.ExpectationMet
	}
	return r.Verdict == checker.Valid
}

// Plan lists the runs of a suite: Count consecutive seeds per scenario,
// in the order given. A scenario with neither Options.Seed nor its own
// seed gets one drawn, logged.
func Plan(scs []scenario.Scenario, o Options) []Job {
	var jobs []Job
	for _, sc := range scs {
		var base int64
		switch {
		case o.Seed != nil:
			base = *o.Seed
		case sc.Seed != nil:
			base = *sc.Seed
		default:
			base = rand.Int64N(1 << 40)
			o.log().Info("seed drawn", "scenario", sc.Name, "seed", base)
		}
		for i := 0; i < o.count(); i++ {
			jobs = append(jobs, Job{N: len(jobs), Scenario: sc, Seed: base + int64(i), planned: o.count(), firstSeed: base, planFiles: len(scs)})
		}
	}
	return jobs
}

// Run runs the jobs, at most Options.Parallel at a time, each with its own
// nodes and ports, and returns their outcomes in job order. Jobs not
// started before ctx is cancelled are left out. Once every run has
// finished, each report links the report of its scenario's fixed_by (this
// suite's, else the newest one in Out in the same language), and a suite
// of more than one run writes <Out>/index.html.
func Run(ctx context.Context, jobs []Job, o Options) []Outcome {
	p := NewPool(o)
	defer p.Close()
	jobs = speculate(jobs, o)
	outs, early := splitExperiments(p.runEach(ctx, jobs, o.Done, min(1, o.RetryUnknown-1)))
	retrySpoiled(ctx, p, outs, o)
	explain(ctx, p, outs, early, o)
	linkFixed(outs, o)
	if len(outs) > 1 {
		runs := make([]report.Results, 0, len(outs))
		for _, out := range outs {
			runs = append(runs, out.Result()) // runs with errors too
		}
		if err := report.WriteSuite(o.out(), runs, o.Lang); err != nil {
			o.log().Error("write suite index", "err", err)
		}
	}
	return outs
}

// linkFixed links every report whose scenario names a fixed_by to a report
// of that scenario: the first of this suite's runs of it, else the newest
// earlier one under Out in the same language. It runs after every run has
// finished, so the link does not depend on which finished first.
func linkFixed(outs []Outcome, o Options) {
	first := map[string]string{} // scenario file → its first report's index.html
	for _, out := range outs {
		if out.Results == nil {
			continue
		}
		if k := fileKey(out.Scenario.File); first[k] == "" {
			first[k] = filepath.Join(out.Results.ReportDir, report.IndexFile)
		}
	}
	earlier := map[string]string{} // fixed file → its newest earlier report ("" when none)
	for _, out := range outs {
		fixed := out.Scenario.FixedByFile()
		if out.Results == nil || fixed == "" {
			continue
		}
		k := fileKey(fixed)
		target := first[k]
		if target == "" {
			if _, ok := earlier[k]; !ok {
				earlier[k] = report.LatestReport(o.out(), fixedName(fixed), o.Lang)
			}
			target = earlier[k]
		}
		if target == "" {
			continue
		}
		if err := report.LinkFixed(out.Results.ReportDir, target); err != nil {
			o.log().Warn("link the fixed scenario's report", "report", out.Results.ReportDir, "err", err)
		}
	}
}

// fileKey identifies a scenario file however its path was written.
func fileKey(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}

// fixedName is the name of the scenario in file: its name field, or its
// base name when the file cannot be read.
func fixedName(file string) string {
	if sc, err := scenario.Load(file); err == nil {
		return sc.Name
	}
	base := filepath.Base(file)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// retrySpoiled reruns the runs the machine spoiled (Options.RetryUnknown),
// replacing each one's outcome in outs with its rerun's (Pool.Rerun).
func retrySpoiled(ctx context.Context, p *Pool, outs []Outcome, o Options) {
	p.Rerun(ctx, outs, o.RetryUnknown, o.Done)
}

// Rerun runs again, with the same seed, until it has had tries reruns
// (Job.Retry counts those it had), each run of outs
// the machine spoiled (an unknown whose cause is the machine's, or nodes
// that did not start; never a definite verdict, nor a run that did what
// its scenario promised), replacing its outcome in outs (same position)
// with its rerun's, whose results list the earlier tries' causes
// (report.Results.Retried). Each round runs the spoiled runs of the round
// before together, at half the pool's level then (at least one at a
// time); done is called as each rerun finishes.
func (p *Pool) Rerun(ctx context.Context, outs []Outcome, tries int, done func(Outcome)) {
	for ctx.Err() == nil {
		at := map[int]int{} // job N → position in outs
		var jobs []Job
		for i, out := range outs {
			j, ok := rerunOf(out, tries)
			if !ok {
				continue
			}
			at[j.N] = i
			jobs = append(jobs, j)
			p.o.log().Info("running again a run the machine spoiled", "scenario", j.Scenario.Name, "seed", j.Seed, "try", j.Retry, "cause", j.retried[len(j.retried)-1])
		}
		if len(jobs) == 0 {
			return
		}
		prev := p.gate.limit(max(1, p.Level()/2))
		again := p.RunEach(ctx, jobs, done)
		p.gate.limit(prev)
		for _, a := range again {
			outs[at[a.N]] = a
		}
	}
}

// NoVerdict is the rerun cause of a run that got no verdict (an
// infrastructure error: its nodes did not start or could not be reached).
const NoVerdict = "no-verdict"

// spoiled says whether the machine spoiled the run, and how: an unknown
// verdict whose cause is the machine's (report.Results.Spoiled), or nodes
// that got no verdict (NoVerdict); never a run that did what its scenario
// promised, nor one interrupted.
func (o Outcome) spoiled() (string, bool) {
	switch {
	case o.Aborted || o.Passed():
		return "", false
	case o.pending != nil:
		// An invalid run whose report waits for its experiments (Why):
		// a definite verdict, its results not written yet.
		return "", false
	case o.Results == nil:
		// No verdict at all: on a loaded machine a node not ready or not
		// reachable within its bound; an error that is not the machine's
		// comes back twice more, and says so each time.
		return NoVerdict, true
	}
	return o.Results.Spoiled, o.Results.Spoiled != ""
}
