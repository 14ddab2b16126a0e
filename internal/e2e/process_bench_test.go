package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/runner"
	"github.com/locksim/locksim/internal/scenario"
)

// BenchmarkStressProcess runs the issue-8 stress scenario (50 clients, one
// node, no faults, zero-length jobs) on the same proxies: with locksim's
// in-process safe lock; with node-redlock (adapters/node/redlock.js, JSON
// Lines) in one Node.js process per CPU, its 50 clients spread over them
// as an application's workers would hold them (clients: {wN: {process:
// appK}}; each client keeps its own connections and links); and, for
// reference, once, with a Node process per client (50 processes, each a
// JIT that never warms up: a tenth of the rate). Target (issue 16): the
// process-per-CPU rate ≥ 0.5 × in-process.
//
// The two are run in turn, stressPairs times, each over a 5 s window
// (wall time), and the figures are the medians: on a 2-CPU machine one
// pair's ratio ranged from 0.40 to 0.67 with the machine's own noise, and
// a fresh Node process's first second runs a cold JIT into the scenario's
// opening convoy (fifty clients on invoice-1, where every refused Redlock
// attempt costs the library a second round trip: it unlocks after a failed
// attempt, redlock.js _lock). LOCKSIM_STRESS_CLIENTS and
// LOCKSIM_STRESS_PROCESSES change the counts.
func BenchmarkStressProcess(b *testing.B) {
	needRedis(b)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	for _, a := range clients.Adapters() {
		if a.Name == "node-redlock" {
			if err := a.Ready(root); err != nil {
				b.Skip(err)
			}
		}
	}
	const window = 5 * time.Second
	base := fmt.Sprintf(stressYAML, window)
	if c := os.Getenv("LOCKSIM_STRESS_CLIENTS"); c != "" {
		base = strings.Replace(base, "clients: 50", "clients: "+c, 1)
	}
	safe, err := scenario.Parse("stress.yaml", []byte(strings.Replace(base, "algorithm: naive", "algorithm: safe", 1)))
	if err != nil {
		b.Fatal(err)
	}
	procYAML := strings.Replace(base, "algorithm: naive",
		fmt.Sprintf("algorithm: process\nprocess: {command: [node, adapters/node/redlock.js], dir: %q}", root), 1)
	each, err := scenario.Parse("stress-process-each.yaml", []byte(procYAML))
	if err != nil {
		b.Fatal(err)
	}
	n := 50
	if c := os.Getenv("LOCKSIM_STRESS_CLIENTS"); c != "" {
		if n, err = strconv.Atoi(c); err != nil {
			b.Fatal(err)
		}
	}
	procs := runtime.NumCPU()
	if c := os.Getenv("LOCKSIM_STRESS_PROCESSES"); c != "" {
		if procs, err = strconv.Atoi(c); err != nil {
			b.Fatal(err)
		}
	}
	var grouped []string
	for i := 1; i <= n; i++ {
		grouped = append(grouped, fmt.Sprintf("w%d: {process: app%d}", i, 1+(i-1)%procs))
	}
	proc, err := scenario.Parse("stress-process.yaml", []byte(strings.Replace(procYAML, fmt.Sprintf("clients: %d", n),
		"clients: {"+strings.Join(grouped, ", ")+"}", 1)))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	cl, err := cluster.Start(ctx, runner.ClusterOptions(safe, runner.Options{Backend: cluster.BackendLocal}))
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	rate := func(sc scenario.Scenario) float64 {
		res, err := runner.Run(ctx, sc, runner.Options{Seed: 1, Cluster: cl})
		if err != nil {
			b.Fatal(err)
		}
		return lockOpRate(res.History.Ops, window)
	}
	var inproc, process, ratios []float64
	var perClient float64
	for b.Loop() {
		for range stressPairs {
			s, p := rate(safe), rate(proc)
			inproc, process, ratios = append(inproc, s), append(process, p), append(ratios, p/s)
		}
		perClient = rate(each)
	}
	b.ReportMetric(median(inproc), "safe-ops/s")
	b.ReportMetric(median(process), "process-ops/s")
	b.ReportMetric(median(ratios), "ratio")
	b.ReportMetric(slices.Min(ratios), "min-ratio")
	b.ReportMetric(perClient, "process-each-ops/s")
	b.ReportMetric(perClient/median(inproc), "each-ratio")
}

// stressPairs is how many in-process and process runs BenchmarkStressProcess
// makes, in turn, per iteration.
const stressPairs = 5

// median is the middle value of xs (the mean of the two middle ones for an
// even count); xs is not changed.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
