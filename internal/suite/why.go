package suite

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/why"
)

// WhyDir is the directory, inside a run's report directory, of its
// experiments (Options.Why): each one's scenario file and report.
const WhyDir = "why"

// afterLine is the log line of experiments run after the runs.
const afterLine = "experiments: the same seeds without each fault"

// experiment marks a job that is one of another run's experiments.
type experiment struct {
	parent  int // the run's Job.N
	variant why.Variant
	// yaml is the experiment's normalised scenario, to tell whether an
	// experiment started before its run ended is still the one its
	// history's plan asks for.
	yaml string
}

// pending is a run whose report waits for its experiments: its report's
// input, checked, and its report directory; draft, for a run whose
// experiments run beside it, is its report begun while they run.
type pending struct {
	in    report.Input
	dir   string
	draft *report.Draft
}

// wantsWhy reports whether a run judged as in, notable or not, gets its
// experiments: a notable invalid run, neither aborted nor cut, with a
// fault in its plan.
func wantsWhy(in report.Input, notable bool) bool {
	return notable && in.Verdict == checker.Invalid && !in.Aborted && !in.Cut && len(in.History.Header.Plan) > 0
}

// speculate starts a single run's experiments beside it when its scenario
// expects it to be invalid, they are few (maxBeside) and it has no
// Sentinels: they then take no longer than the run itself
// (gc-pause end to end, issue 27). They are made from the plan resolved
// before the run (why.Plan); explain keeps them only if the run came out
// invalid and its history's plan asks for the same experiments, and
// removes them otherwise.
func speculate(jobs []Job, o Options) []Job {
	if !o.Why || len(jobs) != 1 || jobs[0].Scenario.Expect.Verdict != string(checker.Invalid) || jobs[0].Scenario.Sentinels > 0 {
		// A Sentinel topology's experiments run after it: four at once
		// (nodes, replicas, three sentinels each, timers not scaled) would
		// take what its own failover needs.
		return jobs
	}
	j := jobs[0]
	steps, err := why.Plan(j.Scenario, j.Seed)
	if err != nil || len(steps) == 0 {
		return jobs
	}
	dir, err := newRunDir(j.out(o), j.Scenario.Name, j.Seed)
	if err != nil {
		return jobs // runOne says why
	}
	exps, err := experiments(j, dir, steps, len(jobs), o)
	if err != nil || len(exps) > maxBeside {
		if err != nil {
			o.log().Warn("experiments not started beside the run", "err", err)
		}
		// Run after it, if it is invalid (explain).
		_ = os.RemoveAll(filepath.Join(dir, WhyDir))
		_ = os.Remove(dir)
		return jobs
	}
	jobs[0].dir = dir
	return append(jobs, exps...)
}

// maxBeside is the most experiments started beside a run: more would take
// the CPU its compressed time needs (ten random faults' sixteen
// experiments beside fencing-off-random-nemesis left it with one acquire
// on a loaded machine: unknown). gc-pause has three.
const maxBeside = 3

// experiments are the jobs of run j's experiments with its plan's steps,
// numbered from n, each scenario written into dir/why/<name>.yaml and its
// report under dir/why/.
func experiments(j Job, dir string, steps []history.FaultStep, n int, o Options) ([]Job, error) {
	var fix *why.Fix
	if f := j.Scenario.FixedByFile(); f != "" {
		sc, err := scenario.Load(f)
		var plan []history.FaultStep
		if err == nil && !why.SameFaults(j.Scenario, sc) {
			plan, err = why.Plan(sc, j.Seed) // its own faults: which of the run's it lacks
		}
		if err != nil {
			o.log().Warn("fixed_by not run", "file", f, "err", err)
		} else {
			fix = &why.Fix{Scenario: sc, Plan: plan}
		}
	}
	vs, errs := why.Variants(j.Scenario, steps, fix)
	for _, err := range errs {
		o.log().Warn("experiment left out", "err", err)
	}
	out := filepath.Join(dir, WhyDir)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("experiments: %w", err)
	}
	jobs := make([]Job, 0, len(vs))
	for _, v := range vs {
		b, err := scenario.Normalize(v.Scenario)
		if err != nil {
			return nil, fmt.Errorf("experiment %s: %w", v.Label, err)
		}
		file := filepath.Join(out, v.Scenario.Name+".yaml")
		if err := os.WriteFile(file, b, 0o644); err != nil {
			return nil, fmt.Errorf("experiment %s: %w", v.Label, err)
		}
		v.Scenario.File = file
		jobs = append(jobs, Job{N: n + len(jobs), Scenario: v.Scenario, Seed: j.Seed, Out: out,
			exp: &experiment{parent: j.N, variant: v, yaml: string(b)}})
	}
	return jobs, nil
}

// splitExperiments separates the experiments' outcomes from the runs'.
func splitExperiments(all []Outcome) (runs []Outcome, exps map[int][]Outcome) {
	exps = map[int][]Outcome{}
	for _, o := range all {
		if o.exp != nil {
			exps[o.exp.parent] = append(exps[o.exp.parent], o)
			continue
		}
		runs = append(runs, o)
	}
	return runs, exps
}

// explain runs the experiments of every run waiting for them (those
// started beside it are kept when they are still the ones its history's
// plan asks for), all on the pool at once, then writes each run's report
// with them and calls Options.Done for it. Experiments started beside a
// run that did not come out invalid are removed.
func explain(ctx context.Context, p *Pool, outs []Outcome, early map[int][]Outcome, o Options) {
	var jobs []Job
	found := map[int][]Outcome{} // run N → its experiments' outcomes
	n := 1 << 30                 // experiment jobs' numbers, after every run's
	for i := range outs {
		out := &outs[i]
		if out.pending == nil {
			if ex := early[out.N]; len(ex) > 0 {
				removeExperiments(out)
			}
			continue
		}
		plan := out.pending.in.History.Header.Plan
		exps, err := experiments(out.Job, out.pending.dir, plan, n, o)
		if err == nil && len(early[out.N]) > 0 {
			if same(exps, early[out.N]) {
				found[out.N] = early[out.N]
				continue
			}
			// Not the experiments the history's plan asks for: run those.
			_ = os.RemoveAll(filepath.Join(out.pending.dir, WhyDir))
			exps, err = experiments(out.Job, out.pending.dir, plan, n, o)
		}
		if err != nil {
			o.log().Error("experiments", "scenario", out.Scenario.Name, "seed", out.Seed, "err", err)
			continue
		}
		jobs = append(jobs, exps...)
		n += len(exps)
	}
	if len(jobs) > 0 {
		o.log().Info(afterLine, "runs", len(jobs))
		for _, e := range p.RunEach(ctx, jobs, nil) {
			found[e.exp.parent] = append(found[e.exp.parent], e)
		}
	}
	var wg sync.WaitGroup
	slots := make(chan struct{}, max(1, runtime.NumCPU()))
	var mu sync.Mutex
	for i := range outs {
		if outs[i].pending == nil {
			continue
		}
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			out := &outs[i]
			pd := out.pending
			cf := counterfactuals(found[out.N])
			if pd.draft == nil {
				pd.draft = report.Begin(pd.dir, pd.in)
			}
			r, err := pd.draft.Finish(cf)
			out.pending = nil
			if err != nil {
				o.log().Error("write report", "scenario", out.Scenario.Name, "seed", out.Seed, "err", err)
				out.Err = "write report: " + err.Error()
			} else {
				out.Results = &r
				o.log().Info("report written", "scenario", out.Scenario.Name, "seed", out.Seed, "verdict", r.Verdict, "path", filepath.Join(pd.dir, report.IndexFile))
			}
			if o.Done != nil {
				mu.Lock()
				o.Done(*out)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}

// same reports whether the experiments started beside a run (got) are
// exactly the ones its history's plan asks for (want).
func same(want []Job, got []Outcome) bool {
	if len(want) != len(got) || len(got) == 0 {
		return false
	}
	for i := range want {
		if want[i].exp.yaml != got[i].exp.yaml || want[i].exp.variant.Label != got[i].exp.variant.Label {
			return false
		}
	}
	return true
}

// removeExperiments removes the experiments started beside a run that
// did not come out invalid, and the run's directory when nothing else is
// in it.
func removeExperiments(out *Outcome) {
	dir := out.Job.dir
	if dir == "" {
		return
	}
	_ = os.RemoveAll(filepath.Join(dir, WhyDir))
	_ = os.Remove(dir) // only if empty: the run saved nothing
}

// demote logs an experiment's Info lines at Debug (locksim run -v shows
// them); warnings and errors stay.
type demote struct{ slog.Handler }

func (d demote) Enabled(ctx context.Context, l slog.Level) bool {
	if l == slog.LevelInfo {
		l = slog.LevelDebug
	}
	return d.Handler.Enabled(ctx, l)
}

func (d demote) Handle(ctx context.Context, r slog.Record) error {
	if r.Level == slog.LevelInfo {
		r.Level = slog.LevelDebug
	}
	return d.Handler.Handle(ctx, r)
}

func (d demote) WithAttrs(as []slog.Attr) slog.Handler { return demote{d.Handler.WithAttrs(as)} }
func (d demote) WithGroup(g string) slog.Handler       { return demote{d.Handler.WithGroup(g)} }

// counterfactuals are the experiments' records, in their order.
func counterfactuals(exps []Outcome) []why.Counterfactual {
	var out []why.Counterfactual
	for _, e := range exps {
		c := e.exp.variant.Counterfactual()
		c.Reproduce, c.Error = e.Reproduce, e.Err
		if e.Results != nil {
			c.Report = e.Results.ReportDir
			if !e.Aborted && !e.Results.Aborted {
				c.Verdict, c.Spoiled = e.Results.Verdict, e.Results.Spoiled
			}
			c.Kinds = report.ViolationKinds(e.Results.Anomalies)
			c.InfoKinds = report.InformationalKinds(e.Results.Anomalies)
			if !e.Aborted && !e.Results.Aborted {
				n := e.Results.Effects
				c.Effects, c.EffectActions = &n, e.Results.EffectActions
			}
			if len(c.Changed) > 0 && e.Results.ReportDir != "" {
				// How the fix's changed steps fired in its run: a crash
				// moved from inside the acquire to after it is another
				// experiment (reader 2, finding 3).
				if ex, err := history.ReadFile(filepath.Join(e.Results.ReportDir, "history.jsonl")); err == nil {
					c.Fired = why.FiredIn(ex, c.Changed)
				}
			}
		}
		out = append(out, c)
	}
	return out
}
