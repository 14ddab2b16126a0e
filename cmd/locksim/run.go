package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/runner"
	"github.com/locksim/locksim/internal/scenario"
)

const runUsage = `Usage: locksim run <file|dir>... [flags]

Runs each scenario: starts its Redis nodes (real redis-server when on PATH,
else the embedded emulated backend), drives the lock clients through
toxiproxy, injects the faults, saves history.jsonl, checks it and writes a
report to <out>/<scenario>/<run-id>/. A directory means every *.yaml in it.

Examples:
  locksim run scenarios/gc-pause.yaml
  locksim run scenarios/gc-pause.yaml --seed 7 --time-scale 1   # real time
  locksim run scenarios/gc-pause.yaml --count 20                # seeds N..N+19
  locksim run scenarios/ --json > results.jsonl

Flags:
`

// runFlags are the flags of `locksim run`.
type runFlags struct {
	out       string
	seed      int64
	seedSet   bool
	count     int
	timeScale float64
	backend   string
	json      bool
	lang      string
	verbose   bool
}

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

func cmdRun(args []string, stdout, stderr io.Writer) int {
	var f runFlags
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, runUsage); fs.PrintDefaults() }
	fs.StringVar(&f.out, "out", "reports", "report root directory")
	seed := fs.String("seed", "", "seed for every random choice (default: the scenario's seed, else drawn and printed)")
	fs.IntVar(&f.count, "count", 1, "runs per scenario, with consecutive seeds")
	fs.Float64Var(&f.timeScale, "time-scale", 0, "time compression: wall = scenario time / X (default: the scenario's time_scale; 1 = real time)")
	fs.StringVar(&f.backend, "backend", "", "node backend: local (redis-server), embedded (miniredis, emulated) (default: local when redis-server is on PATH)")
	fs.BoolVar(&f.json, "json", false, "print one results object per run as JSON Lines on stdout")
	fs.StringVar(&f.lang, "lang", "en", "report language: en")
	fs.BoolVar(&f.verbose, "v", false, "debug logging")
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitValid
		}
		return exitUsage
	}
	if *seed != "" {
		if _, err := fmt.Sscan(*seed, &f.seed); err != nil {
			fmt.Fprintf(stderr, "locksim run: --seed %q: not an integer\n", *seed)
			return exitUsage
		}
		f.seedSet = true
	}
	switch {
	case len(paths) == 0:
		fmt.Fprintln(stderr, "locksim run: no scenario given (try: locksim run scenarios/gc-pause.yaml)")
		return exitUsage
	case f.count < 1:
		fmt.Fprintf(stderr, "locksim run: --count %d: must be ≥ 1\n", f.count)
		return exitUsage
	case f.timeScale < 0 || f.timeScale > 10000:
		fmt.Fprintf(stderr, "locksim run: --time-scale %g: must be in (0, 10000]\n", f.timeScale)
		return exitUsage
	case f.backend != "" && f.backend != "local" && f.backend != "embedded":
		fmt.Fprintf(stderr, "locksim run: --backend %q: want local or embedded\n", f.backend)
		return exitUsage
	case f.lang != "en":
		fmt.Fprintf(stderr, "locksim run: --lang %q: want en\n", f.lang)
		return exitUsage
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

	level := slog.LevelInfo
	if f.verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	codes := []int{}
	for _, sc := range scs {
		base := resolveSeed(sc, f)
		for i := 0; i < f.count; i++ {
			c := runOne(ctx, sc, base+int64(i), f, log, stdout)
			codes = append(codes, c)
			if ctx.Err() != nil {
				return exitInternal
			}
		}
	}
	return combine(codes)
}

// expandPaths turns files and directories into a sorted list of scenario
// files; a directory contributes its *.yaml and *.yml files.
func expandPaths(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("scenario %s: %w", p, err)
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		for _, pat := range []string{"*.yaml", "*.yml"} {
			m, _ := filepath.Glob(filepath.Join(p, pat))
			found = append(found, m...)
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("directory %s has no *.yaml scenario", p)
		}
		sort.Strings(found)
		out = append(out, found...)
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
			sc.TimeScale = timeScale
			if wall := time.Duration(float64(sc.TTL) / timeScale); wall < time.Millisecond {
				fmt.Fprintf(stderr, "%s: ttl %v at --time-scale %g is %v of wall time; Redis PX needs at least 1ms\n", file, sc.TTL, timeScale, wall)
				bad = true
				continue
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

// runOne runs one scenario with one seed and returns its exit code.
func runOne(ctx context.Context, sc scenario.Scenario, seed int64, f runFlags, log *slog.Logger, stdout io.Writer) int {
	repro := reproduceCommand(sc, seed, f)
	log.Info("locksim run", "scenario", sc.Name, "seed", seed, "time_scale", sc.TimeScale, "version", version(), "reproduce", repro)
	res, err := runner.Run(ctx, sc, runner.Options{Seed: seed, Backend: f.backend, Logger: log})
	if err != nil {
		log.Error("run failed", "scenario", sc.Name, "err", err)
		return exitInternal
	}
	if res.History.Header.Backend == "embedded" {
		log.Warn("redis-server not used: embedded backend (emulated Redis, miniredis); install redis-server for the real thing")
	}
	dir, err := newRunDir(f.out, sc.Name, seed)
	if err != nil {
		log.Error("report directory", "err", err)
		return exitInternal
	}
	// Save before checking (Jepsen): the history survives a checker crash.
	if err := history.WriteFile(filepath.Join(dir, "history.jsonl"), res.History); err != nil {
		log.Error("save history", "err", err)
		return exitInternal
	}
	in, err := analyse(ctx, sc, res.History, repro)
	if err != nil {
		log.Error("check", "err", err)
		return exitInternal
	}
	in.WallSeconds = res.Wall.Seconds()
	return finish(dir, in, f.json, log, stdout)
}

// analyse checks a history and assembles the report's input.
func analyse(ctx context.Context, sc scenario.Scenario, h history.History, repro string) (report.Input, error) {
	norm, err := scenario.Normalize(sc)
	if err != nil {
		return report.Input{}, fmt.Errorf("normalise scenario: %w", err)
	}
	rep := checker.Check(ctx, h, checker.Options{})
	var pv *report.PorcupineView
	if l := rep.Linearization; l != nil {
		pv = &report.PorcupineView{Model: l.Model, Info: l.Info}
	}
	return report.Input{
		History: h, Verdict: rep.Verdict, Results: rep.Results, ScenarioYAML: norm,
		ScenarioFile: sc.File, Description: sc.Description, Expect: sc.Expect,
		Reproduce: repro, Version: version(), Porcupine: pv, Lang: "en",
	}, nil
}

// finish writes the report, prints the summary and returns the exit code.
func finish(dir string, in report.Input, asJSON bool, log *slog.Logger, stdout io.Writer) int {
	results, err := report.Write(dir, in)
	if err != nil {
		log.Error("write report", "dir", dir, "err", err)
		return exitInternal
	}
	if asJSON {
		b, err := json.Marshal(results)
		if err != nil {
			log.Error("encode results", "err", err)
			return exitInternal
		}
		fmt.Fprintln(stdout, string(b))
	} else {
		fmt.Fprintln(stdout, summaryLine(results))
	}
	log.Info("report written", "path", filepath.Join(dir, "index.html"))
	return exitCode(results)
}

func summaryLine(r report.Results) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", r.Scenario, strings.ToUpper(string(r.Verdict)))
	kinds := map[string]bool{}
	var ks []string
	for _, a := range r.Anomalies {
		if !a.Informational && !kinds[a.Kind] {
			kinds[a.Kind] = true
			ks = append(ks, a.Kind)
		}
	}
	if len(ks) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(ks, ", "))
	}
	if r.Expect != "" {
		met := r.ExpectationMet != nil && *r.ExpectationMet
		if met {
			fmt.Fprintf(&b, " — expected %s: met", r.Expect)
		} else {
			fmt.Fprintf(&b, " — expected %s, got %s: NOT MET", r.Expect, r.Verdict)
		}
	}
	fmt.Fprintf(&b, " seed=%d", r.Seed)
	if r.Emulated {
		b.WriteString(" [emulated Redis]")
	}
	fmt.Fprintf(&b, " report=%s", filepath.Join(r.ReportDir, "index.html"))
	return b.String()
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
	parts := []string{"locksim", "run", sc.File, "--seed", fmt.Sprint(seed)}
	if f.timeScale > 0 {
		parts = append(parts, "--time-scale", fmt.Sprint(f.timeScale))
	}
	if f.backend != "" {
		parts = append(parts, "--backend", f.backend)
	}
	return strings.Join(parts, " ")
}
