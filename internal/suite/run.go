package suite

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/runner"
)

// runJob runs one job on the worker's cluster env (started or reused as
// the scenario needs); its first log line has the seed and the reproduce
// command. A run that got a history returns finish, which saves, checks
// and reports it without the cluster; otherwise the outcome is final.
//
// setUpDone is called once the run's set-up is over (its cluster started
// or reset, its clients started), or earlier when it fails; waiting is
// the cluster's Options.Waiting.
func runJob(ctx context.Context, j Job, o Options, notes *notable, env *reusable, setUpDone func(), waiting func() func()) (Outcome, func() Outcome) {
	log := o.log().With("scenario", j.Scenario.Name, "seed", j.Seed)
	if j.exp != nil {
		// An experiment's lines are its run's detail: the run's own first
		// line stays the first (seed, reproduce).
		log = slog.New(demote{log.Handler()})
	}
	repro := o.reproduce(j.Scenario, j.Seed)
	// First line of every run: the seed and how to repeat it.
	log.Info("locksim run", "time_scale", j.Scenario.TimeScale, "version", o.Version, "reproduce", repro)
	cl, err := env.get(ctx, j, o, log, waiting)
	if err != nil {
		out := Outcome{Job: j, Reproduce: repro, Err: "start cluster: " + err.Error(), Aborted: ctx.Err() != nil, late: -1}
		log.Error("run failed; no verdict", "err", out.Err)
		return out, nil
	}
	out, finish := runOne(ctx, j, o, notes, cl, repro, log, setUpDone)
	if finish == nil && out.Results == nil {
		// Never carry a cluster that may be broken into the next run.
		env.close()
	}
	return out, finish
}

// reusable is one worker's cluster, kept between its consecutive runs
// (Options.Reuse): a run whose scenario needs the same shape (nodes,
// persistence, clients) gets it back after runner.Run resets it; another
// shape closes it and starts a new one.
type reusable struct{ cl *cluster.Cluster }

// get returns the cluster for j, or nil without reuse (the run then starts
// its own).
func (e *reusable) get(ctx context.Context, j Job, o Options, log *slog.Logger, waiting func() func()) (*cluster.Cluster, error) {
	if !o.Reuse {
		return nil, nil
	}
	co := runner.ClusterOptions(j.Scenario, runnerOptions(o, j.Seed, nil, log))
	if e.cl != nil && e.cl.Fits(co) {
		return e.cl, nil
	}
	// Nodes of another shape's cluster go to the process's idle pool
	// when it closes, and a new cluster takes them from there (the pool
	// drains them when it closes).
	co.Pooled, co.Waiting = true, waiting
	e.close()
	cl, err := cluster.Start(ctx, co)
	if err != nil {
		return nil, err
	}
	e.cl = cl
	return cl, nil
}

// fits reports whether e's cluster, kept from its last run, fits j: j
// would run on it without starting nodes.
func (e *reusable) fits(j Job, o Options) bool {
	if !o.Reuse || e.cl == nil {
		return false
	}
	return e.cl.Fits(runner.ClusterOptions(j.Scenario, runnerOptions(o, j.Seed, nil, o.log())))
}

func (e *reusable) close() {
	if e.cl != nil {
		_ = e.cl.Close()
		e.cl = nil
	}
}

// runnerOptions are the runner options of one run.
func runnerOptions(o Options, seed int64, cl *cluster.Cluster, log *slog.Logger) runner.Options {
	return runner.Options{Seed: seed, Backend: o.Backend, Logger: log, Cluster: cl, External: o.External}
}

// runOne runs one scenario with one seed into a report directory made
// before the run starts, with history.jsonl open in it. An infrastructure
// error gives no verdict (and no directory when nothing was saved); an
// interrupted run keeps its partial history and a report marked aborted.
// Once the run has its history, finish does the rest: save it whole,
// check it, write the report.
func runOne(ctx context.Context, j Job, o Options, notes *notable, cl *cluster.Cluster, repro string, log *slog.Logger, setUpDone func()) (Outcome, func() Outcome) {
	sc, seed := j.Scenario, j.Seed
	out := Outcome{Job: j, Reproduce: repro, late: -1}
	fail := func(what string, err error) Outcome {
		log.Error(what, "err", err)
		out.Err = fmt.Sprintf("%s: %v", what, err)
		return out
	}
	dir := j.dir
	if dir == "" {
		var err error
		if dir, err = newRunDir(j.out(o), sc.Name, seed); err != nil {
			return fail("report directory", err), nil
		}
	}
	histPath := filepath.Join(dir, "history.jsonl")
	hist, err := os.Create(histPath)
	if err != nil {
		return fail("open history", err), nil
	}
	ro := runnerOptions(o, seed, cl, log)
	ro.SetUpDone = setUpDone
	// The history streams into the report directory while the run goes: a
	// run killed mid-way leaves it behind, and `locksim check` reads it
	// back with History.Cut set.
	ro.Stream = hist
	if o.Hook != nil {
		o.Hook(dir, &ro)
	}
	began := time.Now()
	res, runErr := runner.Run(ctx, sc, ro)
	out.Wall = time.Since(began)
	if res != nil {
		out.late = lateness(res.History)
	}
	if err := hist.Close(); err != nil && runErr == nil {
		runErr = fmt.Errorf("history file: %w", err)
	}
	if runErr != nil {
		if ctx.Err() == nil || res == nil {
			out.Err, out.Aborted = runErr.Error(), ctx.Err() != nil
			removeIfNothingSaved(dir, histPath)
			if out.Aborted {
				log.Warn("run interrupted before its workload started; nothing to save", "err", runErr)
			} else {
				log.Error("run failed; no verdict", "err", runErr)
			}
			return out, nil
		}
		out.Aborted = true
		log.Warn("run interrupted; saving the partial history", "ops", len(res.History.Ops))
	}
	finish := func() Outcome {
		if res.History.Header.Backend == "embedded" {
			log.Warn("redis-server not used: embedded backend (emulated Redis, miniredis); install redis-server for the real thing")
		}
		// Save before checking (Jepsen): the history survives a checker
		// crash. The whole history replaces what was streamed.
		if err := history.WriteFile(histPath, res.History); err != nil {
			return fail("save history", err)
		}
		// An aborted run is still checked: its violations are real, but a
		// clean partial history proves nothing (Analyse makes it unknown).
		in, err := Analyse(context.WithoutCancel(ctx), sc, res.History, AnalyseOptions{
			Reproduce: repro, Aborted: out.Aborted, Lang: o.Lang, Version: o.Version})
		if err != nil {
			return fail("check", err)
		}
		in.WallSeconds = res.Wall.Seconds()
		in.Retried = j.retried
		switch o.Charts {
		case ChartsAll:
		case ChartsNone:
			in.SkipCharts = true
		default:
			in.SkipCharts = !notes.charts(sc, seed, in)
		}
		if cause, _ := checker.Spoiled(in.Verdict, in.Results); cause != "" && j.Retry < o.RetryUnknown {
			// The machine spoiled it and it runs again: its rerun's
			// report is the one to draw.
			in.SkipCharts = true
		}
		// The lesson pages draw a scenario's first run beside its fix.
		in.KeepDrawing = len(sc.Lessons) > 0 && (j.planned == 0 || j.Seed == j.firstSeed) && j.exp == nil
		if j.exp != nil {
			in.SkipCharts = true // an experiment's page is read for its verdict
		}
		if o.Why && j.exp == nil && wantsWhy(in, notes.explains(sc, seed, in)) {
			// Its report waits for its experiments (explain).
			out.pending = &pending{in: in, dir: dir}
			if j.dir != "" {
				// Its experiments started beside it and still run: the
				// files they cannot change are drawn meanwhile.
				out.pending.draft = report.Begin(dir, in)
			}
			return out
		}
		r, err := report.Write(dir, in)
		if err != nil {
			return fail("write report", err)
		}
		out.Results = &r
		log.Info("report written", "verdict", r.Verdict, "path", filepath.Join(dir, report.IndexFile))
		return out
	}
	return out, finish
}

// removeIfNothingSaved removes a run's report directory when its history
// file is empty: a run that failed before recording anything leaves no
// trace in the report root.
func removeIfNothingSaved(dir, histPath string) {
	if st, err := os.Stat(histPath); err != nil || st.Size() > 0 {
		return
	}
	_ = os.Remove(histPath)
	_ = os.Remove(dir) // only if empty
}

// newRunDir creates <out>/<scenario>/<yyyymmdd-hhmmss>-seed<N>[-k]/.
func newRunDir(out, name string, seed int64) (string, error) {
	base := filepath.Join(out, name, fmt.Sprintf("%s-seed%d", time.Now().Format("20060102-150405"), seed))
	dir := base
	for k := 2; ; k++ {
		err := os.MkdirAll(filepath.Dir(dir), 0o755)
		if err == nil {
			err = os.Mkdir(dir, 0o755)
		}
		if err == nil {
			return dir, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return "", fmt.Errorf("create report directory: %w", err)
		}
		dir = fmt.Sprintf("%s-%d", base, k)
	}
}
