package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/suite"
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
(143); a second Ctrl-C more than a second later exits at once, still
killing every node (two at once, as timeout -s INT sends them, are one).

Examples:
  locksim run scenarios/gc-pause.yaml
  locksim run scenarios/gc-pause.yaml --seed 7 --time-scale 1   # real time
  locksim run scenarios/gc-pause.yaml --count 50                # seeds N..N+49, violation rate
                                                                # (charts for notable runs only; --charts all)
  locksim run scenarios/ --junit out.xml                        # CI: every scenario, JUnit XML
  locksim run 'scenarios/gc-*.yaml' --parallel 2 --out /tmp/rep
  locksim run scenarios/ --json > results.jsonl
  locksim run scenarios/gc-pause.yaml --why=false               # no experiments (see --why)
  locksim run scenarios/ --count 20 --seed 1 --shard 2/3 --out shard-2
                                                                # one of three machines; then
                                                                # locksim merge shard-1 shard-2 shard-3 --out all

Exit codes: 0 valid (or expectation met), 1 invalid (or not met), 2 unknown,
254 bad usage or scenario, 255 internal or infrastructure error, 130/143
interrupted. Several runs combine as 255 > 254 > 1 > 2 > 0.

Flags:
`

// runFlags are the flags of `locksim run`.
type runFlags struct {
	retryUnknown int
	out          string
	seed         int64
	seedSet      bool
	count        int
	parallel     int
	timeScale    float64
	backend      string
	json         bool
	junit        string
	lang         report.Lang
	verbose      bool
	// reuse keeps each parallel worker's nodes and proxies between its
	// consecutive runs (reset in between) instead of starting new ones.
	reuse bool
	// charts is suite.ChartsNotable or suite.ChartsAll (--charts).
	charts string
	// shard is the part of the runs this invocation does (--shard K/N).
	shard suite.Shard
	// why runs an invalid run's experiments (--why, package why).
	why bool

	// External backend (--backend external).
	clusterFile string
	redisAddrs  string
	toxiproxy   string
	proxyHost   string
	external    *cluster.External
}

// parseCommandFlags parses a subcommand's flags, interleaved with its
// arguments: the arguments, or false and the exit code to stop with
// (exitValid after -h, exitUsage on a bad flag: fs has said why).
func parseCommandFlags(fs *flag.FlagSet, args []string) ([]string, int, bool) {
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, exitValid, false
		}
		return nil, exitUsage, false
	}
	return pos, exitValid, true
}

// poolFlags adds the flags of a command that runs many runs on local
// nodes (map, shrink): --backend, --lang (English by default) and -v.
func poolFlags(fs *flag.FlagSet, backend *string, lang *report.Lang, verbose *bool) {
	fs.StringVar(backend, "backend", "", "node backend: local (redis-server) or embedded (miniredis, emulated) (default: local when redis-server is on PATH)")
	*lang = report.English
	fs.Var(lang, "lang", "report language: "+report.LanguageList())
	fs.BoolVar(verbose, "v", false, "log every run")
}

// parseInterleaved parses flags that may stand before, between or after the
// positional arguments ("run a.yaml --seed 7").
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	if err := checkFlags(fs, args); err != nil {
		return nil, err
	}
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

func cmdRun(args []string, stdout, stderr io.Writer) int {
	f, paths, code, ok := parseRunFlags(args, stderr)
	if !ok {
		return code
	}
	scs, code := prepareRun(&f, paths, stderr)
	if code != exitValid {
		return code
	}

	prog, log := progressLog(stderr, f.verbose, slog.LevelInfo, slog.LevelDebug)
	// go-redis reports every failed dial (a crashed node, a cut link) on
	// stderr by itself; those are the faults the run injects, so they go to
	// the debug log.
	redis.SetLogger(redisLog{log})
	opts := suite.Options{
		RetryUnknown: f.retryUnknown,
		Out:          f.out, Count: f.count, Parallel: f.parallel, Backend: f.backend, External: f.external,
		Reuse: f.reuse, Charts: suite.Charts(f.charts), Lang: f.lang, Version: version(), Logger: log, Why: f.why,
		Reproduce: func(sc scenario.Scenario, seed int64) string { return reproduceCommand(sc, seed, f) },
	}
	if f.seedSet {
		opts.Seed = &f.seed
	}
	plan := suite.Plan(scs, opts)
	jobs := f.shard.Of(plan)
	if !f.shard.Whole() {
		log.Info("shard", "shard", f.shard.String(), "runs", len(jobs), "of", len(plan))
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	interrupted, stopSignals := handleSignals(cancel, log)
	defer stopSignals()

	prog.start(len(jobs))
	opts.Done = func(o suite.Outcome) {
		prog.finished(o, len(jobs))
		if f.json {
			printJSON(stdout, o, codeOf(o, int(interrupted.Load())), log)
		}
	}
	outs := suite.Run(ctx, jobs, opts)
	prog.stop()

	if !f.json {
		printSummary(stdout, outs, f.count > 1)
	} else if f.count > 1 {
		for _, line := range suite.SweepLines(outs) {
			log.Info(line)
		}
	}
	if f.junit != "" {
		if err := suite.WriteJUnit(f.junit, outs); err != nil {
			log.Error("write JUnit file", "file", f.junit, "err", err)
			return exitInternal
		}
		log.Info("JUnit written", "file", f.junit)
	}
	codes := make([]int, len(outs))
	for i, o := range outs {
		codes[i] = codeOf(o, int(interrupted.Load()))
	}
	if !f.shard.Whole() {
		m := suite.NewManifest(f.out, f.shard, plan, len(jobs), outs, codes, int(interrupted.Load()), f.lang)
		if err := suite.WriteManifest(f.out, m); err != nil {
			log.Error("write the shard manifest", "err", err)
			return exitInternal
		}
		log.Info("shard manifest written", "path", filepath.Join(f.out, suite.ManifestFile))
	}
	if c := interrupted.Load(); c != 0 {
		log.Warn("interrupted", "runs_finished", countFinished(outs), "runs_planned", len(jobs), "exit", c)
		return int(c)
	}
	// A single run's "report written" is the suite's, logged as it wrote
	// it (with its verdict); saying it again here doubled it (issue 31).
	if len(outs) > 1 {
		log.Info("suite report written", "path", filepath.Join(f.out, report.IndexFile))
	}
	return combine(codes)
}

// parseRunFlags parses and checks run's flags against the values the
// packages themselves accept; ok is false when nothing is to run (code
// then is the exit code: 0 for --help, 254 for bad usage).
func parseRunFlags(args []string, stderr io.Writer) (f runFlags, paths []string, code int, ok bool) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, runUsage); fs.PrintDefaults() }
	fs.StringVar(&f.out, "out", "reports", "report root directory")
	seed := fs.String("seed", "", "seed for every random choice (default: the scenario's seed, else drawn and printed)")
	fs.IntVar(&f.count, "count", 1, "runs per scenario, with consecutive seeds; >1 prints the violation rate")
	fs.IntVar(&f.retryUnknown, "retry-unknown", 2, "run again, with the same seed and at half the runs at once, up to N times, a run the machine spoiled: unknown because its timing was lost, its violations were within the harness's own lateness or no contender tested its exposure (or it got no verdict: a node not started or reached); a definite verdict is never rerun; the summary and the JSON say which runs were and why (0: never)")
	fs.IntVar(&f.parallel, "parallel", 0, fmt.Sprintf("the most runs at the same time; default %d per CPU (%d here), capped at 32 (runs mostly wait in scenario time); fewer go at once while runs finish late on a busy machine, and more again as they finish on time", suite.PerCPU, suite.DefaultParallel()))
	fs.Float64Var(&f.timeScale, "time-scale", 0, "time compression: wall = scenario time / X (default: the scenario's time_scale; 1 = real time)")
	fs.StringVar(&f.backend, "backend", "", "node backend: local (redis-server), embedded (miniredis, emulated), external (existing nodes and toxiproxy server) (default: local when redis-server is on PATH)")
	fs.StringVar(&f.clusterFile, "cluster", "", "external backend: YAML file with a cluster: block (toxiproxy, proxy_host, nodes with addr and kill/restart/pause/resume argument lists)")
	fs.StringVar(&f.redisAddrs, "redis-addrs", "", "external backend: comma-separated host:port of the Redis nodes (n1, n2, …)")
	fs.StringVar(&f.toxiproxy, "toxiproxy", "", "external backend: toxiproxy API host:port (e.g. 127.0.0.1:8474)")
	fs.StringVar(&f.proxyHost, "proxy-host", "", "external backend: host the proxies listen on and locksim dials (default 127.0.0.1)")
	fs.BoolVar(&f.reuse, "reuse", true, "reuse each worker's nodes and proxies between consecutive runs (FLUSHALL, toxics removed), and keep a closed cluster's nodes without persistence idle (up to 32) for the next cluster to take; false starts fresh ones per run")
	fs.StringVar(&f.charts, "charts", string(suite.ChartsNotable), "which runs get timeline/latency/rate PNGs: notable (a single run; in a sweep of one scenario, its first seed; in any suite, every run that missed its expectation and, without an expectation, every run that is not valid) or all")
	fs.BoolVar(&f.json, "json", false, "print one results object per run as JSON Lines on stdout (instead of the summary)")
	fs.StringVar(&f.junit, "junit", "", "write a JUnit XML file: one test case per run, a failure per unmet expectation")
	f.lang = report.English
	fs.Var(&f.lang, "lang", "report language: "+report.LanguageList()+" (en English, vi Vietnamese)")
	shard := fs.String("shard", "", "run only part K of N of the runs (e.g. 2/3): each scenario × seed is placed by a hash, so N invocations with K = 1..N do every run exactly once; needs fixed seeds (--seed or each scenario's seed) and writes "+suite.ManifestFile+" for locksim merge")
	fs.BoolVar(&f.why, "why", true, "causes by experiment: for an invalid run (in a suite, each notable one) run the same seed again without each planned fault, a pause or latency also at half its length, and its fixed_by scenario with the same faults; the headline names the faults without which the seed is valid, the report lists every experiment with its verdict and reproduce line (in <run>/"+suite.WhyDir+"/)")
	fs.BoolVar(&f.verbose, "v", false, "debug logging")
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return f, nil, exitValid, false
		}
		return f, nil, exitUsage, false
	}
	if *seed != "" {
		n, err := strconv.ParseInt(*seed, 10, 64)
		if err != nil {
			fmt.Fprintf(stderr, "locksim run: --seed %q: not an integer\n", *seed)
			return f, nil, exitUsage, false
		}
		f.seed, f.seedSet = n, true
	}
	if *shard != "" {
		sh, err := suite.ParseShard(*shard)
		if err != nil {
			fmt.Fprintf(stderr, "locksim run: --shard: %v\n", err)
			return f, nil, exitUsage, false
		}
		f.shard = sh
	}
	timeScaleSet, parallelSet := false, false
	fs.Visit(func(fl *flag.Flag) {
		timeScaleSet = timeScaleSet || fl.Name == "time-scale"
		parallelSet = parallelSet || fl.Name == "parallel"
	})
	if !parallelSet {
		f.parallel = suite.DefaultParallel()
	}
	switch {
	case len(paths) == 0:
		fmt.Fprintln(stderr, "locksim run: no scenario given (try: locksim run scenarios/gc-pause.yaml)")
	case f.count < 1:
		fmt.Fprintf(stderr, "locksim run: --count %d: must be ≥ 1\n", f.count)
	case f.seedSet && f.seed > math.MaxInt64-int64(f.count-1):
		fmt.Fprintf(stderr, "locksim run: --seed %d with --count %d: the last seed would overflow int64\n", f.seed, f.count)
	case f.parallel < 1:
		fmt.Fprintf(stderr, "locksim run: --parallel %d: must be ≥ 1\n", f.parallel)
	case f.retryUnknown < 0:
		fmt.Fprintf(stderr, "locksim run: --retry-unknown %d: must be ≥ 0\n", f.retryUnknown)
	case timeScaleSet && !(f.timeScale > 0 && f.timeScale <= scenario.MaxTimeScale): // also refuses NaN
		fmt.Fprintf(stderr, "locksim run: --time-scale %g: must be in (0, %d]\n", f.timeScale, scenario.MaxTimeScale)
	case f.backend != "" && f.backend != cluster.BackendLocal && f.backend != cluster.BackendEmbedded && f.backend != cluster.BackendExternal:
		fmt.Fprintf(stderr, "locksim run: --backend %q: want %s, %s or %s\n", f.backend, cluster.BackendLocal, cluster.BackendEmbedded, cluster.BackendExternal)
	case f.backend != cluster.BackendExternal && (f.clusterFile != "" || f.redisAddrs != "" || f.toxiproxy != "" || f.proxyHost != ""):
		fmt.Fprintln(stderr, "locksim run: --cluster, --redis-addrs, --toxiproxy and --proxy-host need --backend external")
	case suite.Charts(f.charts) != suite.ChartsAll && suite.Charts(f.charts) != suite.ChartsNotable:
		fmt.Fprintf(stderr, "locksim run: --charts %q: want %s or %s\n", f.charts, suite.ChartsNotable, suite.ChartsAll)
	default:
		return f, paths, exitValid, true
	}
	return f, nil, exitUsage, false
}

// prepareRun does every check that needs no node: the external backend's
// configuration, the scenario files (all of them parsed before anything
// starts), somewhere for the reports to go, redis-server for local nodes.
func prepareRun(f *runFlags, paths []string, stderr io.Writer) ([]scenario.Scenario, int) {
	var err error
	if f.parallel > suite.DefaultParallel() && f.parallel > suite.PerCPU*runtime.NumCPU() {
		fmt.Fprintf(stderr, "warning: --parallel %d is more than %d runs per CPU (%d CPUs): runs may lose their compressed timing; coverage reports such runs as unknown\n", f.parallel, suite.PerCPU, runtime.NumCPU())
	}
	if f.backend == cluster.BackendExternal {
		if f.external, err = externalConfig(*f); err != nil {
			fmt.Fprintf(stderr, "locksim run: %v\n", err)
			return nil, exitUsage
		}
		// One set of nodes: runs take turns on it.
		f.parallel = 1
	}
	files, err := expandPaths(paths)
	if err != nil {
		fmt.Fprintf(stderr, "locksim run: %v\n", err)
		return nil, exitUsage
	}
	// Parse everything before starting anything: bad input starts nothing.
	scs, code := loadAll(files, f.timeScale, stderr)
	if code != exitValid {
		return nil, code
	}
	if !f.shard.Whole() && !f.seedSet {
		// A drawn seed differs on every machine: the shards would not be
		// parts of one plan.
		for _, sc := range scs {
			if sc.Seed == nil {
				fmt.Fprintf(stderr, "locksim run: --shard %s: %s has no seed, and a drawn one would differ on every shard; give --seed N or a seed in the file\n", f.shard, sc.File)
				return nil, exitUsage
			}
		}
	}
	// Reports must have somewhere to go before anything starts.
	if err := checkWritable(f.out); err != nil {
		fmt.Fprintf(stderr, "locksim run: --out %s: %v\n", f.out, err)
		return nil, exitUsage
	}
	if f.junit != "" {
		if st, err := os.Stat(f.junit); err == nil && st.IsDir() {
			fmt.Fprintf(stderr, "locksim run: --junit %s: is a directory; give a file name\n", f.junit)
			return nil, exitUsage
		}
		if err := checkWritable(filepath.Dir(f.junit)); err != nil {
			fmt.Fprintf(stderr, "locksim run: --junit %s: %v\n", f.junit, err)
			return nil, exitUsage
		}
	}
	if err := needRedis(f.backend); err != nil {
		fmt.Fprintf(stderr, "locksim run: %v\n", err)
		return nil, exitInternal
	}
	return scs, exitValid
}

// needRedis says what is missing for --backend local: redis-server on
// PATH. Another backend (or none, which falls back to embedded) needs
// nothing.
func needRedis(backend string) error {
	if backend != cluster.BackendLocal {
		return nil
	}
	if _, err := exec.LookPath("redis-server"); err != nil {
		return fmt.Errorf("--backend local: redis-server not found on PATH (%v); install redis-server or use --backend embedded (emulated Redis)", err)
	}
	return nil
}

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
// exitUsage when any file is bad. A --time-scale replaces each file's
// time_scale, under the parser's own TTL rule.
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
			if err := scenario.CheckTTLAtScale(sc.TTL, timeScale); err != nil {
				fmt.Fprintf(stderr, "%s: --time-scale %g: %v\n", file, timeScale, err)
				bad = true
				continue
			}
			if wall := time.Duration(float64(sc.TTL) / timeScale); wall < minSteadyTTL {
				fmt.Fprintf(stderr, "warning: %s: ttl %v at --time-scale %g is only %v of wall time: scheduling delays of a few ms become seconds of scenario time, and the verdict may differ from the scenario's own time_scale %g\n",
					file, sc.TTL, timeScale, wall, declared)
			}
		}
		printWarnings(stderr, sc) // at the run's time scale
		scs = append(scs, sc)
	}
	if bad {
		return nil, exitUsage
	}
	return scs, exitValid
}

// runLine is one --json line: the results object plus the exit code.
type runLine struct {
	report.Results
	ExitCode int `json:"exit_code"`
}

func printJSON(stdout io.Writer, o suite.Outcome, code int, log *slog.Logger) {
	b, err := json.Marshal(runLine{Results: o.Result(), ExitCode: code})
	if err != nil {
		log.Error("encode results", "err", err)
		return
	}
	fmt.Fprintln(stdout, string(b))
}

// codeOf is a run's exit code: the interrupt's (130, 143) for an aborted
// run, 255 for a run without a verdict, else what its results say.
func codeOf(o suite.Outcome, interrupted int) int {
	switch {
	case o.Aborted && interrupted != 0:
		return interrupted
	case o.Results == nil:
		return exitInternal
	}
	return exitCode(*o.Results)
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

// redisLog sends go-redis's own log lines to the run's logger at debug
// level.
type redisLog struct{ l *slog.Logger }

func (r redisLog) Printf(ctx context.Context, format string, v ...any) {
	r.l.DebugContext(ctx, "redis client: "+fmt.Sprintf(format, v...))
}
