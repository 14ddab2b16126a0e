package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/runner"
	"github.com/locksim/locksim/internal/scenario"
)

// BenchmarkStressProcess runs the issue-8 stress scenario (50 clients, one
// node, no faults, zero-length jobs) twice on the same proxies: with
// locksim's in-process safe lock, and with every client a Node.js process
// running node-redlock (adapters/node/redlock.js) over the JSON Lines
// protocol. Target (issue 16): process ≥ 0.5 × in-process.
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
	const window = 3 * time.Second
	base := fmt.Sprintf(stressYAML, window)
	if c := os.Getenv("LOCKSIM_STRESS_CLIENTS"); c != "" {
		base = strings.Replace(base, "clients: 50", "clients: "+c, 1)
	}
	safe, err := scenario.Parse("stress.yaml", []byte(strings.Replace(base, "algorithm: naive", "algorithm: safe", 1)))
	if err != nil {
		b.Fatal(err)
	}
	proc, err := scenario.Parse("stress-process.yaml", []byte(strings.Replace(base, "algorithm: naive",
		fmt.Sprintf("algorithm: process\nprocess: {command: [node, adapters/node/redlock.js], dir: %q}", root), 1)))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	cl, err := cluster.Start(ctx, runner.ClusterOptions(safe, runner.Options{Backend: cluster.BackendLocal}))
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	var inproc, process float64
	for b.Loop() {
		res, err := runner.Run(ctx, safe, runner.Options{Seed: 1, Cluster: cl})
		if err != nil {
			b.Fatal(err)
		}
		inproc += lockOpRate(res.History.Ops, window)
		res, err = runner.Run(ctx, proc, runner.Options{Seed: 1, Cluster: cl})
		if err != nil {
			b.Fatal(err)
		}
		process += lockOpRate(res.History.Ops, window)
	}
	n := float64(b.N)
	b.ReportMetric(inproc/n, "safe-ops/s")
	b.ReportMetric(process/n, "process-ops/s")
	b.ReportMetric(process/inproc, "ratio")
	_ = os.Stderr
}
