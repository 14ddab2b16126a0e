// Command benchsum runs locksim's benchmarks (issues 8, 18 and 29) and prints
// every figure as "figure / measured / target / PASS|FAIL" (`make bench`).
//
// It builds the test binaries of internal/checker and internal/e2e, runs
// each benchmark in its own process (so that the process's peak RSS is the
// memory figure) and exits 1 when a figure misses its target. Benchmarks
// never fail because something is slow; only this summary judges.
//
//	go run ./internal/e2e/cmd/benchsum [-sweep-count 1000] [-shard-count 300] [-only regexp]
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
)

type bench struct {
	pkg, name string
	times     int
	env       []string
}

type figure struct {
	name    string
	bench   string
	metric  string // metric unit, "s/op" (ns/op ÷ 1e9) or "maxrss-MiB"
	target  float64
	atMost  bool // true: measured ≤ target passes; false: measured ≥ target
	unit    string
	command string
	info    bool // printed without a target
}

func main() {
	sweepCount := flag.Int("sweep-count", 1000, "runs of the sweep figure (issue: 1000)")
	shardCount := flag.Int("shard-count", 600, "runs of the shard figure (each done twice: whole, then in three shards)")
	only := flag.String("only", "", "run only benchmarks whose name matches this regexp")
	flag.Parse()

	root, err := moduleRoot()
	if err != nil {
		fatal(err)
	}
	tmp, err := os.MkdirTemp("", "locksim-bench-*")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(tmp)

	benches := benchList(*sweepCount, *shardCount)
	re := regexp.MustCompile(".")
	if *only != "" {
		re = regexp.MustCompile(*only)
	}
	results, failed := runAll(root, tmp, benches, re)
	allPass := printFigures(figureList(*sweepCount, *shardCount), results, failed, re)
	fmt.Println()
	fmt.Println("Commands (from the module root):")
	for _, b := range benches {
		if re.MatchString(b.name) {
			fmt.Println("  " + command(b))
		}
	}
	if !allPass {
		fmt.Println("\nSome figures miss their target.")
		_ = os.RemoveAll(tmp)
		os.Exit(1)
	}
	fmt.Println("\nAll figures meet their targets.")
}

// command is the go test command line that runs b alone.
func command(b bench) string {
	env := strings.Join(b.env, " ")
	if env != "" {
		env += " "
	}
	return fmt.Sprintf("%sgo test -run '^$' -bench '^%s$' -benchtime %dx %s", env, b.name, b.times, b.pkg)
}

// runAll builds each package's test binary once and runs every benchmark
// re matches in its own process: its metrics by benchmark, or why it
// failed.
func runAll(root, tmp string, benches []bench, re *regexp.Regexp) (map[string]map[string]float64, map[string]string) {
	bins := map[string]string{}
	results := map[string]map[string]float64{}
	failed := map[string]string{}
	for _, b := range benches {
		if !re.MatchString(b.name) {
			continue
		}
		bin, ok := bins[b.pkg]
		if !ok {
			bin = filepath.Join(tmp, filepath.Base(b.pkg)+".test")
			c := exec.Command("go", "test", "-c", "-o", bin, b.pkg)
			c.Dir, c.Stdout, c.Stderr = root, os.Stderr, os.Stderr
			if err := c.Run(); err != nil {
				fatal(fmt.Errorf("build %s: %w", b.pkg, err))
			}
			bins[b.pkg] = bin
		}
		fmt.Fprintf(os.Stderr, "benchsum: %s\n", command(b))
		m, err := runBench(root, bin, b)
		if err != nil {
			failed[b.name] = err.Error()
			fmt.Fprintf(os.Stderr, "benchsum: %s: %v\n", b.name, err)
			continue
		}
		results[b.name] = m
	}
	return results, failed
}

// printFigures prints the table of figures whose benchmark re matches and
// reports whether every one met its target.
func printFigures(figures []figure, results map[string]map[string]float64, failed map[string]string, re *regexp.Regexp) bool {
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FIGURE\tMEASURED\tTARGET\tRESULT")
	allPass := true
	for _, f := range figures {
		if !re.MatchString(f.bench) {
			continue
		}
		m, ok := results[f.bench]
		v, have := m[f.metric]
		switch {
		case !ok || !have:
			why := failed[f.bench]
			if why == "" {
				why = "no figure"
			}
			fmt.Fprintf(tw, "%s\t-\t%s\tFAIL (%s)\n", f.name, targetText(f), firstLine(why))
			allPass = allPass && f.info
		case f.info:
			fmt.Fprintf(tw, "%s\t%s\t-\tinfo\n", f.name, num(v, f.unit))
		default:
			pass := v >= f.target
			if f.atMost {
				pass = v <= f.target
			}
			allPass = allPass && pass
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.name, num(v, f.unit), targetText(f), passText(pass))
		}
	}
	_ = tw.Flush()
	return allPass
}

// benchList is every benchmark benchsum runs, in order: the sweep and the
// shard figures with their run counts.
func benchList(sweepCount, shardCount int) []bench {
	sweep := fmt.Sprintf("LOCKSIM_SWEEP_COUNT=%d", sweepCount)
	shards := fmt.Sprintf("LOCKSIM_SHARD_COUNT=%d", shardCount)
	return []bench{
		{"./internal/e2e", "BenchmarkGCPauseEndToEnd", 3, nil},
		{"./internal/e2e", "BenchmarkFailoverEndToEnd", 5, nil},
		{"./internal/e2e", "BenchmarkCatalogue", 3, nil},
		{"./internal/e2e", "BenchmarkStressThroughput", 2, nil},
		{"./internal/e2e", "BenchmarkStressProcess", 1, nil},
		{"./internal/checker", "BenchmarkCheck1M", 2, nil},
		{"./internal/checker", "BenchmarkLinearizable100k", 2, nil},
		{"./internal/e2e", "BenchmarkCheckCommand100k", 1, nil},
		{"./internal/e2e", "BenchmarkSweep", 1, []string{sweep}},
		{"./internal/e2e", "BenchmarkReportWrite100k", 2, nil},
		{"./internal/e2e", "BenchmarkMap", 1, nil},
		{"./internal/e2e", "BenchmarkShrink", 1, nil},
		{"./internal/e2e", "BenchmarkShards", 1, []string{shards}},
		{"./internal/e2e", "BenchmarkExploreFirstViolation", 1, nil},
	}
}

// figureList is every figure benchsum prints, with its target.
func figureList(sweepCount, shardCount int) []figure {
	return []figure{
		{name: "gc-pause.yaml end to end with its experiments (wall per run)", bench: "BenchmarkGCPauseEndToEnd", metric: "wall-s/run", target: 1.2, atMost: true, unit: "s"},
		{name: "  gc-pause.yaml end to end, --why=false (wall per run)", bench: "BenchmarkGCPauseEndToEnd", metric: "nowhy-wall-s/run", unit: "s", info: true},
		{name: "gc-pause compression factor (scenario s / wall s)", bench: "BenchmarkGCPauseEndToEnd", metric: "x-compression", unit: "x", info: true},
		{name: "failover-wait.yaml end to end: master, replica, 3 sentinels (wall per run)", bench: "BenchmarkFailoverEndToEnd", metric: "failover-wait-wall-s/run", target: 6.0, atMost: true, unit: "s"},
		{name: "  the failover's own time: crash → first client operation on the promoted master (median of 5)", bench: "BenchmarkFailoverEndToEnd", metric: "failover-wait-own-median-s", target: 2.0, atMost: true, unit: "s"},
		{name: "  the failover's own time, worst of 5", bench: "BenchmarkFailoverEndToEnd", metric: "failover-wait-own-worst-s", unit: "s", info: true},
		{name: "failover-lost-lock.yaml end to end (wall per run)", bench: "BenchmarkFailoverEndToEnd", metric: "failover-lost-lock-wall-s/run", unit: "s", info: true},
		{name: "  the failover's own time (median of 5; worst below)", bench: "BenchmarkFailoverEndToEnd", metric: "failover-lost-lock-own-median-s", unit: "s", info: true},
		{name: "  the failover's own time, worst of 5", bench: "BenchmarkFailoverEndToEnd", metric: "failover-lost-lock-own-worst-s", unit: "s", info: true},
		{name: "scenarios/ + scenarios/field/ catalogue, default parallelism, --why=false (wall, median of 3)", bench: "BenchmarkCatalogue", metric: "wall-s", target: 30, atMost: true, unit: "s"},
		{name: "  the catalogue's wall time, worst of 3", bench: "BenchmarkCatalogue", metric: "worst-wall-s", unit: "s", info: true},
		{name: "catalogue compression factor (scenario s / wall s)", bench: "BenchmarkCatalogue", metric: "x-compression", unit: "x", info: true},
		{name: "catalogue expectations met (after the reruns of runs the machine spoiled)", bench: "BenchmarkCatalogue", metric: "met-fraction", target: 1, unit: ""},
		{name: "catalogue CPU per scenario file: locksim, redis-server, sentinels, adapters (user + system)", bench: "BenchmarkCatalogue", metric: "cpu-s/file", target: 0.295, atMost: true, unit: "CPU-s"},
		{name: "stress: harness acquire+release rate", bench: "BenchmarkStressThroughput", metric: "harness-ops/s", unit: "ops/s", info: true},
		{name: "stress: plain go-redis loop, same commands and proxies", bench: "BenchmarkStressThroughput", metric: "plain-ops/s", unit: "ops/s", info: true},
		{name: "stress: harness / plain ratio (nodes not observed)", bench: "BenchmarkStressThroughput", metric: "ratio", target: 0.8, unit: "x"},
		{name: "stress, nodes observed (MONITOR): harness acquire+release rate", bench: "BenchmarkStressThroughput", metric: "observed-ops/s", unit: "ops/s", info: true},
		{name: "stress, nodes observed: harness / plain ratio", bench: "BenchmarkStressThroughput", metric: "observed-ratio", unit: "x", info: true},
		{name: "stress: plain loop on own keys (issue baseline, reference)", bench: "BenchmarkStressThroughput", metric: "plain-distinct-ops/s", unit: "ops/s", info: true},
		{name: "stress, in-process safe lock: acquire+release rate (median)", bench: "BenchmarkStressProcess", metric: "safe-ops/s", unit: "ops/s", info: true},
		{name: "stress, node-redlock, the 50 clients in one Node process per CPU (JSON Lines): acquire+release rate (median)", bench: "BenchmarkStressProcess", metric: "process-ops/s", unit: "ops/s", info: true},
		{name: "stress: node-redlock (a process per CPU) / in-process safe, median of 5 pairs run in turn, 5 s each", bench: "BenchmarkStressProcess", metric: "ratio", target: 0.5, unit: "x"},
		{name: "stress: the lowest of those 5 pairs' ratios", bench: "BenchmarkStressProcess", metric: "min-ratio", unit: "x", info: true},
		{name: "stress, node-redlock, a Node process per client (50): acquire+release rate", bench: "BenchmarkStressProcess", metric: "process-each-ops/s", unit: "ops/s", info: true},
		{name: "stress: node-redlock (a process per client) / in-process safe", bench: "BenchmarkStressProcess", metric: "each-ratio", unit: "x", info: true},
		{name: "mutex+fencing+effects, 1,000,000 ops", bench: "BenchmarkCheck1M", metric: "s/op", target: 2, atMost: true, unit: "s"},
		{name: "  peak RSS (incl. generating the history)", bench: "BenchmarkCheck1M", metric: "maxrss-MiB", target: 1024, atMost: true, unit: "MiB"},
		{name: "porcupine, 100,000 ops / 1,000 keys", bench: "BenchmarkLinearizable100k", metric: "s/op", target: 5, atMost: true, unit: "s"},
		{name: "  peak RSS (incl. generating the history)", bench: "BenchmarkLinearizable100k", metric: "maxrss-MiB", target: 1024, atMost: true, unit: "MiB"},
		{name: "`locksim check` of a 100,000-op history prints progress", bench: "BenchmarkCheckCommand100k", metric: "progress-lines", target: 1, unit: "lines"},
		{name: "`locksim check`, 100,000-op history, check + report (wall)", bench: "BenchmarkCheckCommand100k", metric: "wall-s", unit: "s", info: true},
		{name: fmt.Sprintf("sweep --count %d of fencing-random-nemesis.yaml, one node (wall)", sweepCount), bench: "BenchmarkSweep", metric: "wall-s", target: 30 * float64(sweepCount) / 1000, atMost: true, unit: "s"},
		{name: "  sweep runs with expected verdict", bench: "BenchmarkSweep", metric: "met-fraction", target: 1, unit: ""},
		{name: "report for a 100,000-op history (write)", bench: "BenchmarkReportWrite100k", metric: "s/op", target: 3, atMost: true, unit: "s"},
		{name: "  history.html size", bench: "BenchmarkReportWrite100k", metric: "history-html-MB", target: 20, atMost: true, unit: "MB"},
		{name: "  index.html size", bench: "BenchmarkReportWrite100k", metric: "index-html-MB", target: 20, atMost: true, unit: "MB"},
		{name: "map of gc-pause, 5 × 5 cells × 10 seeds = 250 runs (wall)", bench: "BenchmarkMap", metric: "wall-s", target: 45, atMost: true, unit: "s"},
		{name: "  cells on the side of pause + work = TTL the map promises", bench: "BenchmarkMap", metric: "shape-fraction", target: 1, unit: ""},
		{name: "shrink a failing 10-fault random schedule, fence off, k = 5 (wall)", bench: "BenchmarkShrink", metric: "wall-s", target: 60, atMost: true, unit: "s"},
		{name: "  faults left in the minimal schedule", bench: "BenchmarkShrink", metric: "minimal-faults", target: 2, atMost: true, unit: ""},
		{name: fmt.Sprintf("--shard 1/3, 2/3, 3/3 one after another + merge / one run, --count %d", shardCount), bench: "BenchmarkShards", metric: "sharded/whole", target: 1.15, atMost: true, unit: "x"},
		{name: "  merge gives the unsharded verdicts, rates and exit code", bench: "BenchmarkShards", metric: "same-results", target: 1, unit: ""},
		{name: "explore --algorithm safe, no scenario: time to the first violation (median of 3 seeds)", bench: "BenchmarkExploreFirstViolation", metric: "first-violation-s", target: 30, atMost: true, unit: "s"},
		{name: "  the machine's 1-minute load average when it began", bench: "BenchmarkExploreFirstViolation", metric: "load1", unit: "", info: true},
	}

}

func targetText(f figure) string {
	if f.info {
		return "-"
	}
	if f.atMost {
		return "≤ " + num(f.target, f.unit)
	}
	return "≥ " + num(f.target, f.unit)
}

func passText(p bool) string {
	if p {
		return "PASS"
	}
	return "FAIL"
}

func num(v float64, unit string) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	if v >= 1000 {
		s = strconv.FormatFloat(v, 'f', 0, 64)
	}
	if unit == "" {
		return s
	}
	return s + " " + unit
}

// runBench runs one benchmark in its own process and returns its metrics
// (the reported ones, plus "s/op" and "maxrss-MiB").
func runBench(root, bin string, b bench) (map[string]float64, error) {
	c := exec.Command(bin, "-test.run", "^$", "-test.bench", "^"+b.name+"$",
		"-test.benchtime", fmt.Sprintf("%dx", b.times), "-test.timeout", "30m")
	c.Dir = filepath.Join(root, strings.TrimPrefix(b.pkg, "./"))
	c.Env = append(os.Environ(), b.env...)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	began := time.Now()
	err := c.Run()
	wall := time.Since(began)
	if err != nil {
		return nil, fmt.Errorf("%v (%s)\n%s", err, wall.Round(time.Millisecond), lastLines(out.String(), 15))
	}
	m, ok := parse(out.String(), b.name)
	if !ok {
		return nil, fmt.Errorf("no result line\n%s", lastLines(out.String(), 15))
	}
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		m["maxrss-MiB"] = float64(ru.Maxrss) / 1024 // Linux: KiB
	}
	return m, nil
}

// parse reads "BenchmarkX-2  N  123 ns/op  4.5 unit …".
func parse(out, name string) (map[string]float64, bool) {
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 4 || (fs[0] != name && !strings.HasPrefix(fs[0], name+"-")) {
			continue
		}
		m := map[string]float64{}
		for i := 2; i+1 < len(fs); i += 2 {
			v, err := strconv.ParseFloat(fs[i], 64)
			if err != nil {
				continue
			}
			m[fs[i+1]] = v
		}
		if ns, ok := m["ns/op"]; ok {
			m["s/op"] = ns / 1e9
		}
		return m, true
	}
	return nil, false
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not inside the locksim module")
	}
	return filepath.Dir(gomod), nil
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "benchsum:", err)
	os.Exit(2)
}
