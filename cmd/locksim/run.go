package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/runner"
	"github.com/locksim/locksim/internal/scenario"
)

const runUsage = `Usage: locksim run <file|dir|glob>... [flags]

Runs each scenario: starts its Redis nodes (real redis-server when on PATH,
else the embedded emulated backend), drives the lock clients through
toxiproxy, injects the faults, saves history.jsonl, checks it and writes a
report to <out>/<scenario>/<run-id>/. A directory means every *.yaml in it;
a path with * ? or [ is a glob. Runs go in parallel (--parallel), each with
its own nodes and ports. A suite (more than one run) also writes
<out>/index.html and prints a summary table on stdout.

Ctrl-C (or SIGTERM) stops the workload, heals the faults, stops the nodes,
saves the partial history with the report marked aborted and exits 130
(143); a second Ctrl-C exits at once, still killing every node.

Examples:
  locksim run scenarios/gc-pause.yaml
  locksim run scenarios/gc-pause.yaml --seed 7 --time-scale 1   # real time
  locksim run scenarios/gc-pause.yaml --count 50                # seeds N..N+49, violation rate
                                                                # (charts for notable runs only; --charts all)
  locksim run scenarios/ --junit out.xml                        # CI: every scenario, JUnit XML
  locksim run 'scenarios/gc-*.yaml' --parallel 2 --out /tmp/rep
  locksim run scenarios/ --json > results.jsonl

Exit codes: 0 valid (or expectation met), 1 invalid (or not met), 2 unknown,
254 bad usage or scenario, 255 internal or infrastructure error, 130/143
interrupted. Several runs combine as 255 > 254 > 1 > 2 > 0.

Flags:
`

// runFlags are the flags of `locksim run`.
type runFlags struct {
	out       string
	seed      int64
	seedSet   bool
	count     int
	parallel  int
	timeScale float64
	backend   string
	json      bool
	junit     string
	lang      report.Lang
	verbose   bool

	// External backend (--backend external).
	clusterFile string
	redisAddrs  string
	toxiproxy   string
	proxyHost   string
	external    *cluster.External
	// reuse keeps each parallel worker's nodes and proxies between its
	// consecutive runs (reset in between) instead of starting new ones.
	reuse bool
	// charts is "all" or "notable" (--charts); notes is the shared record
	// that decides which runs of a sweep are notable.
	charts string
	notes  *notable
}

// Values of --charts.
const (
	chartsAll     = "all"
	chartsNotable = "notable"
)

// notable decides which runs of a sweep get charts (timeline.png,
// latency.png, rate.png): drawing them is most of a short run's CPU, and a
// sweep of 1000 runs needs pictures only of what differs. A run is notable
// when its scenario runs only once in this invocation, when it has its
// scenario's first seed, when it missed its expectation, or, for a scenario
// that declares none, when it is not valid. The choice depends on the seeds
// and verdicts alone, not on which run finishes first.
type notable struct {
	runs  map[string]int   // runs planned per scenario file
	first map[string]int64 // first seed per scenario file
}

func newNotable(jobs []job) *notable {
	n := &notable{runs: map[string]int{}, first: map[string]int64{}}
	for _, j := range jobs {
		if n.runs[j.sc.File] == 0 {
			n.first[j.sc.File] = j.seed
		}
		n.runs[j.sc.File]++
	}
	return n
}

// charts reports whether the run of sc with this seed and verdict gets
// charts.
func (n *notable) charts(sc scenario.Scenario, seed int64, verdict checker.Verdict) bool {
	if n == nil {
		return true
	}
	switch {
	case n.runs[sc.File] <= 1, seed == n.first[sc.File]:
		return true
	case sc.Expect.Verdict != "":
		return sc.Expect.Verdict != string(verdict)
	default:
		return verdict != checker.Valid
	}
}

// exitNow ends the process at once (second interrupt); a variable for tests.
var exitNow = os.Exit

// parseInterleaved parses flags that may stand before, between or after the
// positional arguments ("run a.yaml --seed 7").
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// job is one run to do: a scenario with one seed.
type job struct {
	n    int // position in the suite, 0-based
	sc   scenario.Scenario
	seed int64
}

// outcome is a finished (or failed, or aborted) run.
type outcome struct {
	job
	code int
	// res is nil when the run produced no report (infrastructure error,
	// or interrupted before the workload started).
	res     *report.Results
	aborted bool
	err     string
	wall    time.Duration
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	var f runFlags
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, runUsage); fs.PrintDefaults() }
	fs.StringVar(&f.out, "out", "reports", "report root directory")
	seed := fs.String("seed", "", "seed for every random choice (default: the scenario's seed, else drawn and printed)")
	fs.IntVar(&f.count, "count", 1, "runs per scenario, with consecutive seeds; >1 prints the violation rate")
	fs.IntVar(&f.parallel, "parallel", defaultParallel(), "runs at the same time; default 4 per CPU, capped at 32 (runs mostly wait in scenario time; more than that can make runs lose their timing, which coverage then reports as unknown)")
	fs.Float64Var(&f.timeScale, "time-scale", 0, "time compression: wall = scenario time / X (default: the scenario's time_scale; 1 = real time)")
	fs.StringVar(&f.backend, "backend", "", "node backend: local (redis-server), embedded (miniredis, emulated), external (existing nodes and toxiproxy server) (default: local when redis-server is on PATH)")
	fs.StringVar(&f.clusterFile, "cluster", "", "external backend: YAML file with a cluster: block (toxiproxy, proxy_host, nodes with addr and kill/restart/pause/resume argument lists)")
	fs.StringVar(&f.redisAddrs, "redis-addrs", "", "external backend: comma-separated host:port of the Redis nodes (n1, n2, …)")
	fs.StringVar(&f.toxiproxy, "toxiproxy", "", "external backend: toxiproxy API host:port (e.g. 127.0.0.1:8474)")
	fs.StringVar(&f.proxyHost, "proxy-host", "", "external backend: host the proxies listen on and locksim dials (default 127.0.0.1)")
	fs.BoolVar(&f.reuse, "reuse", true, "reuse each worker's nodes and proxies between consecutive runs (FLUSHALL, toxics removed); false starts fresh ones per run")
	fs.StringVar(&f.charts, "charts", chartsNotable, "which runs get timeline/latency/rate PNGs: notable (a scenario run once; in a sweep its first seed, every run that missed its expectation and, without an expectation, every run that is not valid) or all")
	fs.BoolVar(&f.json, "json", false, "print one results object per run as JSON Lines on stdout (instead of the summary)")
	fs.StringVar(&f.junit, "junit", "", "write a JUnit XML file: one test case per run, a failure per unmet expectation")
	f.lang = report.English
	fs.Var(&f.lang, "lang", "report language: "+report.LanguageList()+" (en English, vi Vietnamese)")
	fs.BoolVar(&f.verbose, "v", false, "debug logging")
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitValid
		}
		return exitUsage
	}
	if *seed != "" {
		n, err := strconv.ParseInt(*seed, 10, 64)
		if err != nil {
			fmt.Fprintf(stderr, "locksim run: --seed %q: not an integer\n", *seed)
			return exitUsage
		}
		f.seed, f.seedSet = n, true
	}
	timeScaleSet := false
	fs.Visit(func(fl *flag.Flag) { timeScaleSet = timeScaleSet || fl.Name == "time-scale" })
	switch {
	case len(paths) == 0:
		fmt.Fprintln(stderr, "locksim run: no scenario given (try: locksim run scenarios/gc-pause.yaml)")
		return exitUsage
	case f.count < 1:
		fmt.Fprintf(stderr, "locksim run: --count %d: must be ≥ 1\n", f.count)
		return exitUsage
	case f.seedSet && f.seed > math.MaxInt64-int64(f.count-1):
		fmt.Fprintf(stderr, "locksim run: --seed %d with --count %d: the last seed would overflow int64\n", f.seed, f.count)
		return exitUsage
	case f.parallel < 1:
		fmt.Fprintf(stderr, "locksim run: --parallel %d: must be ≥ 1\n", f.parallel)
		return exitUsage
	case timeScaleSet && !(f.timeScale > 0 && f.timeScale <= 10000): // also refuses NaN
		fmt.Fprintf(stderr, "locksim run: --time-scale %g: must be in (0, 10000]\n", f.timeScale)
		return exitUsage
	case f.backend != "" && f.backend != "local" && f.backend != "embedded" && f.backend != cluster.BackendExternal:
		fmt.Fprintf(stderr, "locksim run: --backend %q: want local, embedded or external\n", f.backend)
		return exitUsage
	case f.backend != cluster.BackendExternal && (f.clusterFile != "" || f.redisAddrs != "" || f.toxiproxy != "" || f.proxyHost != ""):
		fmt.Fprintln(stderr, "locksim run: --cluster, --redis-addrs, --toxiproxy and --proxy-host need --backend external")
		return exitUsage
	case f.charts != chartsAll && f.charts != chartsNotable:
		fmt.Fprintf(stderr, "locksim run: --charts %q: want notable or all\n", f.charts)
		return exitUsage
	}

	if f.parallel > 4*runtime.NumCPU() {
		fmt.Fprintf(stderr, "warning: --parallel %d is more than 4 runs per CPU (%d CPUs): runs may lose their compressed timing; coverage reports such runs as unknown\n", f.parallel, runtime.NumCPU())
	}
	if f.backend == cluster.BackendExternal {
		if f.external, err = externalConfig(f); err != nil {
			fmt.Fprintf(stderr, "locksim run: %v\n", err)
			return exitUsage
		}
		// One set of nodes: runs take turns on it.
		f.parallel = 1
	}
	files, err := expandPaths(paths)
	if err != nil {
		fmt.Fprintf(stderr, "locksim run: %v\n", err)
		return exitUsage
	}
	// Parse everything before starting anything: bad input starts nothing.
	scs, code := loadAll(files, f.timeScale, stderr)
	if code != exitValid {
		return code
	}
	// Reports must have somewhere to go before anything starts.
	if err := checkWritable(f.out); err != nil {
		fmt.Fprintf(stderr, "locksim run: --out %s: %v\n", f.out, err)
		return exitUsage
	}
	if f.junit != "" {
		if st, err := os.Stat(f.junit); err == nil && st.IsDir() {
			fmt.Fprintf(stderr, "locksim run: --junit %s: is a directory; give a file name\n", f.junit)
			return exitUsage
		}
		if err := checkWritable(filepath.Dir(f.junit)); err != nil {
			fmt.Fprintf(stderr, "locksim run: --junit %s: %v\n", f.junit, err)
			return exitUsage
		}
	}
	if f.backend == cluster.BackendLocal {
		if _, err := exec.LookPath("redis-server"); err != nil {
			fmt.Fprintf(stderr, "locksim run: --backend local: redis-server not found on PATH (%v); install redis-server or use --backend embedded (emulated Redis)\n", err)
			return exitInternal
		}
	}

	prog := newProgress(stderr)
	level := slog.LevelInfo
	if f.verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(prog, &slog.HandlerOptions{Level: level}))

	var jobs []job
	for _, sc := range scs {
		base := resolveSeed(sc, f)
		if !f.seedSet && sc.Seed == nil {
			log.Info("seed drawn", "scenario", sc.Name, "seed", base)
		}
		for i := 0; i < f.count; i++ {
			jobs = append(jobs, job{n: len(jobs), sc: sc, seed: base + int64(i)})
		}
	}

	f.notes = newNotable(jobs)
	if len(jobs) > 1 {
		// Runs still racing their scenario time keep half the CPUs while
		// others draw their charts.
		report.LimitDrawing(runtime.NumCPU() / 2)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	interrupted, stopSignals := handleSignals(cancel, log)
	defer stopSignals()

	prog.start(len(jobs))
	outs := runAll(ctx, jobs, f, log, func(o *outcome) {
		if o.aborted {
			o.code = int(interrupted.Load())
		}
		prog.finished(*o, len(jobs))
		if f.json {
			printJSON(stdout, *o, f, log)
		}
	})
	prog.stop()

	if len(outs) > 1 {
		writeSuite(f.out, outs, f, log)
	}
	if !f.json {
		printSummary(stdout, outs, f.count > 1)
	} else if f.count > 1 {
		for _, line := range sweepLines(outs) {
			log.Info(line)
		}
	}
	if f.junit != "" {
		if err := writeJUnit(f.junit, outs); err != nil {
			log.Error("write JUnit file", "file", f.junit, "err", err)
			return exitInternal
		}
		log.Info("JUnit written", "file", f.junit)
	}
	if c := interrupted.Load(); c != 0 {
		log.Warn("interrupted", "runs_finished", countFinished(outs), "runs_planned", len(jobs), "exit", c)
		return int(c)
	}
	codes := make([]int, len(outs))
	for i, o := range outs {
		codes[i] = o.code
	}
	if len(outs) > 1 {
		log.Info("suite report written", "path", filepath.Join(f.out, "index.html"))
	} else if len(outs) == 1 && outs[0].res != nil {
		log.Info("report written", "path", filepath.Join(outs[0].res.ReportDir, "index.html"))
	}
	return combine(codes)
}

// handleSignals cancels the run on the first SIGINT/SIGTERM and records the
// exit code it asks for (130, 143; 0 while none came). A second signal kills
// every node of every run and exits at once. stop ends the handling.
func handleSignals(cancel context.CancelFunc, log *slog.Logger) (code *atomic.Int32, stop func()) {
	code = new(atomic.Int32)
	sigs := make(chan os.Signal, 2)
	done := make(chan struct{})
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		for first := true; ; first = false {
			var s os.Signal
			select {
			case s = <-sigs:
			case <-done:
				return
			}
			if first {
				code.Store(int32(128 + int(s.(syscall.Signal))))
				log.Warn("interrupted: stopping the workload, healing faults, stopping nodes and saving partial histories (again to exit at once)", "signal", s.String())
				cancel()
				continue
			}
			log.Error("interrupted again: killing every node and exiting now", "signal", s.String())
			if err := cluster.KillAll(); err != nil {
				log.Error("kill nodes", "err", err)
			}
			exitNow(int(code.Load()))
			return
		}
	}()
	return code, func() { signal.Stop(sigs); close(done) }
}

// runAll runs the jobs, at most f.parallel at a time, calls done as each
// finishes and returns the outcomes in job order. Jobs not started before
// ctx is cancelled are left out.
func runAll(ctx context.Context, jobs []job, f runFlags, log *slog.Logger, done func(*outcome)) []outcome {
	next := make(chan job)
	results := make(chan outcome)
	var wg sync.WaitGroup
	for w := 0; w < min(f.parallel, len(jobs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var env reusable
			defer env.close()
			for j := range next {
				jlog := log.With("scenario", j.sc.Name, "seed", j.seed)
				// First line of every run: the seed and how to repeat it.
				jlog.Info("locksim run", "time_scale", j.sc.TimeScale, "version", version(), "reproduce", reproduceCommand(j.sc, j.seed, f))
				cl, err := env.get(ctx, j, f, jlog)
				if err != nil {
					o := outcome{job: j, code: exitInternal, err: "start cluster: " + err.Error(), aborted: ctx.Err() != nil}
					jlog.Error("run failed; no verdict", "err", o.err)
					results <- o
					continue
				}
				o := runOne(ctx, j, f, cl, jlog)
				if o.code == exitInternal {
					// Never carry a cluster that may be broken into the
					// next run.
					env.close()
				}
				results <- o
			}
		}()
	}
	go func() {
		defer close(next)
		for _, j := range jobs {
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
	go func() { wg.Wait(); close(results) }()
	var outs []outcome
	for o := range results {
		done(&o)
		outs = append(outs, o)
	}
	sort.Slice(outs, func(a, b int) bool { return outs[a].n < outs[b].n })
	return outs
}

// expandPaths turns files, directories and globs into a list of scenario
// files without duplicates; a directory contributes its *.yaml and *.yml
// files (sorted).
func expandPaths(paths []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[filepath.Clean(p)] {
			seen[filepath.Clean(p)] = true
			out = append(out, p)
		}
	}
	var expand func(p string, fromGlob bool) error
	expand = func(p string, fromGlob bool) error {
		if !fromGlob && strings.ContainsAny(p, "*?[") {
			m, err := filepath.Glob(p)
			if err != nil {
				return fmt.Errorf("pattern %s: %w", p, err)
			}
			if len(m) == 0 {
				return fmt.Errorf("pattern %s matches no file", p)
			}
			for _, q := range m {
				if err := expand(q, true); err != nil {
					return err
				}
			}
			return nil
		}
		st, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("scenario %s: %w", p, err)
		}
		if !st.IsDir() {
			add(p)
			return nil
		}
		var found []string
		for _, pat := range []string{"*.yaml", "*.yml"} {
			m, _ := filepath.Glob(filepath.Join(p, pat))
			found = append(found, m...)
		}
		if len(found) == 0 {
			return fmt.Errorf("directory %s has no *.yaml scenario", p)
		}
		sort.Strings(found)
		for _, q := range found {
			add(q)
		}
		return nil
	}
	for _, p := range paths {
		if err := expand(p, false); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// loadAll parses every file and reports every problem; it returns
// exitUsage when any file is bad.
func loadAll(files []string, timeScale float64, stderr io.Writer) ([]scenario.Scenario, int) {
	var scs []scenario.Scenario
	bad := false
	for _, file := range files {
		sc, err := scenario.Load(file)
		if err != nil {
			fmt.Fprintln(stderr, err)
			bad = true
			continue
		}
		if timeScale > 0 {
			declared := sc.TimeScale
			sc.TimeScale = timeScale
			wall := time.Duration(float64(sc.TTL) / timeScale)
			if wall < time.Millisecond {
				fmt.Fprintf(stderr, "%s: ttl %v at --time-scale %g is %v of wall time; Redis PX needs at least 1ms\n", file, sc.TTL, timeScale, wall)
				bad = true
				continue
			}
			if wall < minSteadyTTL {
				fmt.Fprintf(stderr, "warning: %s: ttl %v at --time-scale %g is only %v of wall time: scheduling delays of a few ms become seconds of scenario time, and the verdict may differ from the scenario's own time_scale %g\n",
					file, sc.TTL, timeScale, wall, declared)
			}
		}
		scs = append(scs, sc)
	}
	if bad {
		return nil, exitUsage
	}
	return scs, exitValid
}

func resolveSeed(sc scenario.Scenario, f runFlags) int64 {
	switch {
	case f.seedSet:
		return f.seed
	case sc.Seed != nil:
		return *sc.Seed
	default:
		return rand.Int64N(1 << 40)
	}
}

// reusable is one worker's cluster, kept between its consecutive runs
// (--reuse): a run whose scenario needs the same shape (nodes,
// persistence, clients) gets it back after runner.Run resets it; another
// shape closes it and starts a new one.
type reusable struct{ cl *cluster.Cluster }

// get returns the cluster for j, or nil without reuse (the run then starts
// its own).
func (e *reusable) get(ctx context.Context, j job, f runFlags, log *slog.Logger) (*cluster.Cluster, error) {
	if !f.reuse {
		return nil, nil
	}
	o := runner.ClusterOptions(j.sc, runnerOptions(f, j.seed, nil, log))
	if e.cl != nil && e.cl.Fits(o) {
		return e.cl, nil
	}
	e.close()
	cl, err := cluster.Start(ctx, o)
	if err != nil {
		return nil, err
	}
	e.cl = cl
	return cl, nil
}

func (e *reusable) close() {
	if e.cl != nil {
		_ = e.cl.Close()
		e.cl = nil
	}
}

// runnerOptions are the runner options of one run.
func runnerOptions(f runFlags, seed int64, cl *cluster.Cluster, log *slog.Logger) runner.Options {
	return runner.Options{Seed: seed, Backend: f.backend, Logger: log, Cluster: cl, External: f.external}
}

// runOne runs one scenario with one seed (its "locksim run" line is
// already logged). An infrastructure error gives exit 255 and no verdict;
// an interrupted run keeps its partial history and a report marked aborted.
func runOne(ctx context.Context, j job, f runFlags, cl *cluster.Cluster, log *slog.Logger) outcome {
	sc, seed := j.sc, j.seed
	o := outcome{job: j}
	repro := reproduceCommand(sc, seed, f)
	began := time.Now()
	res, err := runner.Run(ctx, sc, runnerOptions(f, seed, cl, log))
	o.wall = time.Since(began)
	if err != nil {
		if ctx.Err() == nil || res == nil {
			o.code, o.err, o.aborted = exitInternal, err.Error(), ctx.Err() != nil
			if o.aborted {
				log.Warn("run interrupted before its workload started; nothing to save", "err", err)
			} else {
				log.Error("run failed; no verdict", "err", err)
			}
			return o
		}
		o.aborted = true
		log.Warn("run interrupted; saving the partial history", "ops", len(res.History.Ops))
	}
	if res.History.Header.Backend == "embedded" {
		log.Warn("redis-server not used: embedded backend (emulated Redis, miniredis); install redis-server for the real thing")
	}
	fail := func(what string, err error) outcome {
		log.Error(what, "err", err)
		o.code, o.err = exitInternal, fmt.Sprintf("%s: %v", what, err)
		return o
	}
	dir, err := newRunDir(f.out, sc.Name, seed)
	if err != nil {
		return fail("report directory", err)
	}
	// Save before checking (Jepsen): the history survives a checker crash.
	if err := history.WriteFile(filepath.Join(dir, "history.jsonl"), res.History); err != nil {
		return fail("save history", err)
	}
	// An aborted run is still checked: its violations are real, but a clean
	// partial history proves nothing (analyse makes it unknown).
	in, err := analyse(context.WithoutCancel(ctx), sc, res.History, repro, o.aborted, f.lang)
	if err != nil {
		return fail("check", err)
	}
	in.WallSeconds = res.Wall.Seconds()
	in.SkipCharts = f.charts == chartsNotable && !f.notes.charts(sc, seed, in.Verdict)
	r, err := report.Write(dir, in)
	if err != nil {
		return fail("write report", err)
	}
	o.res, o.code = &r, exitCode(r)
	log.Info("report written", "verdict", r.Verdict, "path", filepath.Join(dir, "index.html"))
	return o
}

// analyse checks a history and assembles the report's input. The verdict of
// an aborted run is invalid when a violation was found, else unknown.
func analyse(ctx context.Context, sc scenario.Scenario, h history.History, repro string, aborted bool, lang report.Lang) (report.Input, error) {
	// A history checked on its own (no scenario.yaml beside it) has only
	// the header's name and scale: write no scenario.yaml from that.
	var norm []byte
	if sc.Clients > 0 {
		var err error
		if norm, err = scenario.Normalize(sc); err != nil {
			return report.Input{}, fmt.Errorf("normalise scenario: %w", err)
		}
	}
	rep := checker.Check(ctx, h, checker.Options{})
	var pv *report.PorcupineView
	if l := rep.Linearization; l != nil {
		pv = &report.PorcupineView{Model: l.Model, Info: l.Info}
	}
	verdict := rep.Verdict
	if aborted && verdict != checker.Invalid {
		verdict = checker.Unknown
	}
	return report.Input{
		History: h, Verdict: verdict, Results: rep.Results, ScenarioYAML: norm,
		ScenarioFile: sc.File, Description: sc.Description, Expect: sc.Expect.Verdict,
		Reproduce: repro, Version: version(), Porcupine: pv, Lang: lang, Aborted: aborted,
	}, nil
}

// runLine is one --json line: the results object plus what the CLI knows.
type runLine struct {
	report.Results
	ExitCode int `json:"exit_code"`
}

func lineOf(o outcome, f runFlags) runLine {
	l := runLine{Results: resultsOf(o, f), ExitCode: o.code}
	l.Aborted = o.aborted
	return l
}

// resultsOf is the run's results; for a run with no report, what is known
// of it and why it has no verdict.
func resultsOf(o outcome, f runFlags) report.Results {
	if o.res != nil {
		return *o.res
	}
	return report.Results{Scenario: o.sc.Name, File: o.sc.File, Seed: o.seed, Expect: o.sc.Expect.Verdict,
		TimeScale: o.sc.TimeScale, WallSeconds: o.wall.Seconds(), Reproduce: reproduceCommand(o.sc, o.seed, f),
		Aborted: o.aborted, Error: o.err}
}

func printJSON(stdout io.Writer, o outcome, f runFlags, log *slog.Logger) {
	b, err := json.Marshal(lineOf(o, f))
	if err != nil {
		log.Error("encode results", "err", err)
		return
	}
	fmt.Fprintln(stdout, string(b))
}

// summaryLine is a one-line summary of one run's results.
func summaryLine(r report.Results) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", r.Scenario, strings.ToUpper(string(r.Verdict)))
	if ks := violationKinds(r); len(ks) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(ks, ", "))
	}
	switch m := r.ExpectationMet; {
	case m != nil && *m:
		fmt.Fprintf(&b, " — expected %s: met", r.Expect)
	case m != nil:
		fmt.Fprintf(&b, " — expected %s, got %s: NOT MET", r.Expect, r.Verdict)
	case r.Expect != "":
		fmt.Fprintf(&b, " — expected %s: not judged", r.Expect)
	}
	fmt.Fprintf(&b, " seed=%d", r.Seed)
	if r.Emulated {
		b.WriteString(" [emulated Redis]")
	}
	fmt.Fprintf(&b, " report=%s", filepath.Join(r.ReportDir, "index.html"))
	return b.String()
}

// violationKinds lists the non-informational anomaly kinds, first seen first.
func violationKinds(r report.Results) []string {
	seen := map[string]bool{}
	var ks []string
	for _, a := range r.Anomalies {
		if !a.Informational && !seen[a.Kind] {
			seen[a.Kind] = true
			ks = append(ks, a.Kind)
		}
	}
	return ks
}

// exitCode maps a run's results to the process exit code (design §10).
func exitCode(r report.Results) int {
	if r.ExpectationMet != nil {
		if *r.ExpectationMet {
			return exitValid
		}
		return exitInvalid
	}
	switch r.Verdict {
	case checker.Valid:
		return exitValid
	case checker.Invalid:
		return exitInvalid
	default:
		return exitUnknown
	}
}

// combine merges the exit codes of several runs: 255 > 254 > 1 > 2 > 0.
func combine(codes []int) int {
	rank := map[int]int{exitInternal: 5, exitUsage: 4, exitInvalid: 3, exitUnknown: 2, exitValid: 1}
	best := exitValid
	for _, c := range codes {
		if rank[c] > rank[best] {
			best = c
		}
	}
	return best
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

// reproduceCommand is the copy-pasteable command that repeats this run.
func reproduceCommand(sc scenario.Scenario, seed int64, f runFlags) string {
	parts := []string{"locksim", "run", shellQuote(sc.File), "--seed", fmt.Sprint(seed)}
	if f.timeScale > 0 {
		parts = append(parts, "--time-scale", fmt.Sprint(f.timeScale))
	}
	if f.backend != "" {
		parts = append(parts, "--backend", f.backend)
	}
	if f.clusterFile != "" {
		parts = append(parts, "--cluster", shellQuote(f.clusterFile))
	}
	if f.redisAddrs != "" {
		parts = append(parts, "--redis-addrs", shellQuote(f.redisAddrs))
	}
	if f.toxiproxy != "" {
		parts = append(parts, "--toxiproxy", shellQuote(f.toxiproxy))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// checkWritable makes sure dir exists (creating it) and takes a file.
func checkWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	probe, err := os.CreateTemp(dir, ".locksim-write-check-*")
	if err != nil {
		return err
	}
	name := probe.Name()
	_ = probe.Close()
	return os.Remove(name)
}

// minSteadyTTL is the wall-time TTL below which a compressed run's timing
// races become too tight for a loaded machine (the shipped scenarios keep
// 100–200 ms of wall time on every race they depend on).
const minSteadyTTL = 50 * time.Millisecond

// defaultParallel is --parallel's default: four runs per CPU, at most 32.
// A run spends most of its wall time waiting (its scenario time, compressed);
// drawing its charts is most of its CPU.
func defaultParallel() int { return min(4*runtime.NumCPU(), 32) }
