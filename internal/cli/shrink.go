package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/shrink"
	"github.com/locksim/locksim/internal/suite"
)

const shrinkUsage = `Usage: locksim shrink <report dir | scenario [--seed N]> [flags]

Finds the smallest fault schedule that still breaks the lock. It starts
from a failing run — a report directory, or a scenario with the seed of a
failing run (--seed, else the file's own seed:) — writes its fault plan out as explicit faults (a random
nemesis's drawn steps included), then tries smaller schedules: fewer
faults, fewer keys and clients, fewer targets, a shorter run, shorter
durations, times on round values. A candidate is kept only when it is
invalid in every one of --k seeds (the run's seed and the next ones);
an unknown run counts as not failing. Every candidate is a real run of
each seed, on nodes reused from one candidate to the next.

It stops when a whole round of changes keeps none, or when the budget is
spent, and keeps the best schedule found so far. It writes, in
<out>/<scenario>-shrink/<time>/: minimal.yaml (the minimal scenario, with
a comment saying what it was shrunk from), original.yaml, shrink.html
(the two schedules side by side, every candidate, links to the reports),
shrink.json, and runs/ with every candidate's runs.

Examples:
  locksim shrink reports/fencing-random-nemesis/20261201-101500-seed1007
  locksim shrink scenarios/fencing-random-nemesis.yaml --seed 1007 --k 3
  locksim shrink reports/gc-pause/20261129-101500-seed42 --budget 200    # at most 200 runs
  locksim shrink my-incident.yaml --seed 7 --budget 5m --out /tmp/shrink

Exit codes: 0 a minimal failing schedule was written, 1 the run does not
fail in every seed (nothing to shrink), 254 bad usage or input, 255
internal or infrastructure error, 130/143 interrupted (the best schedule
so far is still written).

Flags:
`

type shrinkFlags struct {
	out       string
	k         int
	budget    time.Duration
	runs      int
	seed      int64
	seedSet   bool
	parallel  int
	timeScale float64
	backend   string
	lang      report.Lang
	verbose   bool
}

// parseBudget reads --budget: a duration ("60s", "5m") or a number of runs.
func parseBudget(s string) (time.Duration, int, error) {
	if n, err := strconv.Atoi(s); err == nil {
		if n < 1 {
			return 0, 0, fmt.Errorf("--budget %s: a number of runs must be ≥ 1", s)
		}
		return 0, n, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, 0, fmt.Errorf("--budget %q: want a duration like 60s or 5m, or a number of runs like 200", s)
	}
	return d, 0, nil
}

// budgetWord is a --budget as a command's first line says it: the wall
// time, or the number of runs.
func budgetWord(d time.Duration, runs int) string {
	if runs > 0 {
		return fmt.Sprintf("%d runs", runs)
	}
	return d.String()
}

// commandDir is <out>/<name>-<what>/<time>/, the one directory a shrink,
// a map or an exploration writes, once it is known to take files and
// redis-server is there for the local backend; else it prints why and
// returns the exit code (254 for --out, 255 for the backend).
func commandDir(what, out, name, backend string, stderr io.Writer) (string, int) {
	dir := filepath.Join(out, name+"-"+what, time.Now().Format("20060102-150405"))
	if err := checkWritable(dir); err != nil {
		fmt.Fprintf(stderr, "locksim %s: --out %s: %v\n", what, out, err)
		return "", exitUsage
	}
	if err := needRedis(backend); err != nil {
		fmt.Fprintf(stderr, "locksim %s: %v\n", what, err)
		return "", exitInternal
	}
	return dir, exitValid
}

// commandLog is a command's progress writer (stderr) and its logger:
// warnings only, or with verbose every run's lines.
func commandLog(stderr io.Writer, verbose bool) (*progress, *slog.Logger) {
	return progressLog(stderr, verbose, slog.LevelWarn, slog.LevelInfo)
}

// commandSession is what a shrink, a map or an exploration runs its runs
// in: a context that the first SIGINT or SIGTERM cancels (interrupted then
// holds the exit code the signal asks for, see handleSignals) and the pool
// of its runs into dir (commandPool). stop ends the signal handling and
// cancels the context; the caller closes the pool before it.
func commandSession(dir string, parallel int, backend string, lang report.Lang, log *slog.Logger) (ctx context.Context, pool *suite.Pool, interrupted *atomic.Int32, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	interrupted, stopSignals := handleSignals(cancel, log)
	return ctx, commandPool(dir, parallel, backend, lang, log), interrupted, func() { stopSignals(); cancel() }
}

// commandPool is the pool of a shrink, a map or an exploration: runs
// into dir, nodes reused, no charts but the few its caller redraws, each
// run's reproduce line naming its scenario file.
func commandPool(dir string, parallel int, backend string, lang report.Lang, log *slog.Logger) *suite.Pool {
	return suite.NewPool(suite.Options{Out: dir, Parallel: parallel, Backend: backend, Reuse: true,
		Charts: suite.ChartsNone, Lang: lang, Version: version(), Logger: log,
		Reproduce: func(sc scenario.Scenario, seed int64) string {
			return fmt.Sprintf("locksim run %s --seed %d", shellQuote(sc.File), seed)
		}})
}

// parseBudgetSeed reads --budget and --seed ("" when not given).
func parseBudgetSeed(budget, seed string) (d time.Duration, runs int, n int64, seedSet bool, err error) {
	if d, runs, err = parseBudget(budget); err != nil {
		return 0, 0, 0, false, err
	}
	if seed == "" {
		return d, runs, 0, false, nil
	}
	if n, err = strconv.ParseInt(seed, 10, 64); err != nil {
		return 0, 0, 0, false, fmt.Errorf("--seed %q: not an integer", seed)
	}
	return d, runs, n, true, nil
}

func parseShrinkFlags(args []string, stderr io.Writer) (f shrinkFlags, pos []string, code int, ok bool) {
	fs := flag.NewFlagSet("shrink", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, shrinkUsage); fs.PrintDefaults() }
	fs.StringVar(&f.out, "out", "reports", "report root: the shrink writes <out>/<scenario>-shrink/<time>/")
	fs.IntVar(&f.k, "k", 5, "seeds a candidate must be invalid in, all of them (the run's seed and the next k-1)")
	budget := fs.String("budget", "60s", "stop after this much wall time (e.g. 60s, 5m) or this many runs (e.g. 200), keeping the best schedule so far")
	seed := fs.String("seed", "", "with a scenario file: the seed of the failing run (default: the file's seed:)")
	fs.IntVar(&f.parallel, "parallel", suite.DefaultParallel(), fmt.Sprintf("runs at the same time; a candidate's k runs go together (default %d per CPU)", suite.PerCPU))
	fs.Float64Var(&f.timeScale, "time-scale", 0, "with a scenario file: time compression (default: the scenario's time_scale)")
	poolFlags(fs, &f.backend, &f.lang, &f.verbose)
	pos, code, ok = parseCommandFlags(fs, args)
	if !ok {
		return f, nil, code, false
	}
	var err error
	bad := func(format string, a ...any) (shrinkFlags, []string, int, bool) {
		fmt.Fprintf(stderr, "locksim shrink: "+format+"\n", a...)
		return f, nil, exitUsage, false
	}
	if f.budget, f.runs, f.seed, f.seedSet, err = parseBudgetSeed(*budget, *seed); err != nil {
		return bad("%v", err)
	}
	switch {
	case len(pos) != 1:
		return bad("give one report directory, or one scenario file with --seed (try: locksim shrink --help)")
	case f.k < 1 || f.k > 100:
		return bad("--k %d: must be between 1 and 100", f.k)
	case f.parallel < 1:
		return bad("--parallel %d: must be ≥ 1", f.parallel)
	case f.backend != "" && f.backend != cluster.BackendLocal && f.backend != cluster.BackendEmbedded:
		return bad("--backend %q: want %s or %s", f.backend, cluster.BackendLocal, cluster.BackendEmbedded)
	case f.timeScale < 0 || f.timeScale > scenario.MaxTimeScale:
		return bad("--time-scale %g: must be in (0, %d]", f.timeScale, scenario.MaxTimeScale)
	}
	return f, pos, exitValid, true
}

// shrinkSource reads what to shrink: a report directory, or a scenario
// file with --seed.
func shrinkSource(f shrinkFlags, path string, stderr io.Writer) (shrink.Source, int) {
	st, err := os.Stat(path)
	if err != nil {
		fmt.Fprintf(stderr, "locksim shrink: %v\n", err)
		return shrink.Source{}, exitUsage
	}
	if st.IsDir() {
		if f.seedSet || f.timeScale > 0 {
			fmt.Fprintln(stderr, "locksim shrink: a report directory has its own seed and time scale; --seed and --time-scale are for a scenario file")
			return shrink.Source{}, exitUsage
		}
		src, err := shrink.FromReport(path)
		if err != nil {
			fmt.Fprintf(stderr, "locksim shrink: %v\n", err)
			if errors.Is(err, shrink.ErrNotInvalid) {
				fmt.Fprintln(stderr, "locksim shrink: only an invalid run has a failure to shrink")
			}
			return shrink.Source{}, exitUsage
		}
		return src, exitValid
	}
	scs, code := loadAll([]string{path}, f.timeScale, stderr)
	if code != exitValid {
		return shrink.Source{}, code
	}
	seed := f.seed
	switch {
	case f.seedSet:
	case scs[0].Seed != nil:
		seed = *scs[0].Seed // the file's own seed: `locksim run` uses it too
	default:
		fmt.Fprintf(stderr, "locksim shrink: %s is a scenario file without a seed: give the seed of its failing run with --seed N\n", path)
		return shrink.Source{}, exitUsage
	}
	src, err := shrink.FromScenario(scs[0], seed)
	if err != nil {
		fmt.Fprintf(stderr, "locksim shrink: %v\n", err)
		return shrink.Source{}, exitUsage
	}
	return src, exitValid
}

func cmdShrink(args []string, stdout, stderr io.Writer) int {
	f, pos, code, ok := parseShrinkFlags(args, stderr)
	if !ok {
		return code
	}
	src, code := shrinkSource(f, pos[0], stderr)
	if code != exitValid {
		return code
	}
	dir, code := commandDir("shrink", f.out, src.Scenario.Name, f.backend, stderr)
	if code != exitValid {
		return code
	}
	prog, log := commandLog(stderr, f.verbose)
	seeds := fmt.Sprintf("seeds %d..%d", src.Seed, src.Seed+int64(f.k)-1)
	if f.k == 1 {
		seeds = fmt.Sprintf("seed %d", src.Seed)
	}
	fmt.Fprintf(stderr, "locksim shrink: %s, %d faults; a candidate must be invalid in %s (k=%d); budget %s; into %s\n",
		src.From, len(src.Scenario.Faults), seeds, f.k, budgetWord(f.budget, f.runs), dir)

	ctx, pool, interrupted, stop := commandSession(dir, f.parallel, f.backend, f.lang, log)
	defer stop()
	defer pool.Close()
	o := shrink.Options{K: f.k, Seed: src.Seed, Budget: f.budget, BudgetRuns: f.runs,
		Eval:     &shrink.PoolEval{Pool: pool, Dir: filepath.Join(dir, "runs")},
		Progress: func(st shrink.Step) { fmt.Fprintln(prog, shrinkLine(st)) }}
	res, err := shrink.Shrink(ctx, src.Scenario, o)
	notFailing := errors.Is(err, shrink.ErrNotFailing)
	if err != nil && !notFailing && ctx.Err() == nil {
		fmt.Fprintf(stderr, "locksim shrink: %v\n", err)
		return exitInternal
	}
	redraw := func(d string, sc scenario.Scenario) error {
		_, err := suite.Redraw(context.WithoutCancel(ctx), d, sc, f.lang, version())
		return err
	}
	sum, werr := shrink.Write(dir, src, res, version(), redraw)
	if werr != nil {
		fmt.Fprintf(stderr, "locksim shrink: %v\n", werr)
		return exitInternal
	}
	fmt.Fprintf(stdout, "%s\n", shrinkSummary(src, res, sum))
	if c := interrupted.Load(); c != 0 {
		return int(c)
	}
	if notFailing {
		return exitInvalid
	}
	return exitValid
}

// shrinkLine is the progress line of one candidate.
func shrinkLine(st shrink.Step) string {
	head := fmt.Sprintf("shrink #%d [%d runs, %.1fs] %s", st.N, st.TotalRuns, st.Elapsed.Seconds(), st.Change)
	if st.Skipped != "" {
		return head + ": skipped (" + st.Skipped + ")"
	}
	var invalid int
	for _, r := range st.Runs {
		if r.Verdict == "invalid" {
			invalid++
		}
	}
	if st.Failing {
		return fmt.Sprintf("%s: invalid %d/%d — kept (%d faults)", head, invalid, len(st.Runs), st.Faults)
	}
	var others []string
	for _, r := range st.Runs {
		if r.Verdict != "invalid" {
			v := string(r.Verdict)
			if v == "" {
				v = "no verdict"
			}
			others = append(others, fmt.Sprintf("seed %d %s", r.Seed, v))
		}
	}
	return fmt.Sprintf("%s: invalid %d/%d (%s) — dropped", head, invalid, len(st.Runs), strings.Join(others, ", "))
}

// shrinkSummary is the result on stdout.
func shrinkSummary(src shrink.Source, res shrink.Result, sum shrink.Summary) string {
	var b strings.Builder
	if !sum.Failing {
		fmt.Fprintf(&b, "%s: the original schedule is not invalid in every seed (%s); nothing to shrink. page=%s",
			src.Scenario.Name, runsWord(res.Original.Runs), sum.Page)
		if sum.OriginalReport != "" {
			fmt.Fprintf(&b, " report=%s", filepath.Join(sum.OriginalReport, report.IndexFile))
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%s: %d faults → %d", src.Scenario.Name, sum.OriginalFaults, sum.MinimalFaults)
	if len(sum.Kinds) > 0 {
		fmt.Fprintf(&b, ", still invalid (%s)", strings.Join(sum.Kinds, ", "))
	}
	fmt.Fprintf(&b, " in %d/%d seeds; %d candidates, %d runs, %.1fs", len(res.Seeds), len(res.Seeds), sum.Candidates, sum.Runs, sum.ElapsedSeconds)
	if sum.Exhausted {
		b.WriteString(" (budget spent: best so far)")
	}
	for i, s := range sum.MinimalSteps {
		fmt.Fprintf(&b, "\n  %d. %s", i+1, s)
	}
	fmt.Fprintf(&b, "\nminimal=%s page=%s", sum.Minimal, sum.Page)
	if sum.MinimalReport != "" {
		fmt.Fprintf(&b, " report=%s", filepath.Join(sum.MinimalReport, report.IndexFile))
	}
	return b.String()
}

func runsWord(runs []shrink.Run) string {
	var parts []string
	for _, r := range runs {
		v := string(r.Verdict)
		if v == "" {
			v = "no verdict"
		}
		parts = append(parts, fmt.Sprintf("seed %d %s", r.Seed, v))
	}
	return strings.Join(parts, ", ")
}
