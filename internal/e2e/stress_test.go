package e2e

import (
	"context"
	"fmt"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/runner"
	"github.com/locksim/locksim/internal/scenario"
)

// stressYAML is the issue-8 stress scenario: 50 clients on one node, no
// faults, zero-length jobs, many invoices, no retry delay, at real time.
// The naive algorithm's commands (SET NX PX, DEL) are what the plain loop
// sends too. The node is not observed (issue 14: MONITOR costs Redis
// throughput; the observed figure is measured beside it).
const stressYAML = `
name: stress
seed: 1
observe: false
time_scale: 1
duration: %s
nodes: 1
clients: 50
algorithm: naive
ttl: 10s
retry_delay: 0s
stagger: 0s
workload:
  kind: payment
  keys: 100000
  read: 0s
  job: 0s
`

func needRedis(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		tb.Skip("redis-server not on PATH")
	}
}

// BenchmarkStressThroughput compares, side by side in one process and on
// the same proxies, the rate at which the harness records acquire+release
// operations (stress scenario: 50 clients, 1 node, no faults, zero-length
// jobs) with a plain go-redis loop sending the same commands (SET NX PX,
// DEL) from 50 goroutines. Target (issue 8): harness ≥ 0.8 × plain.
func BenchmarkStressThroughput(b *testing.B) {
	needRedis(b)
	const window = 2 * time.Second
	sc, err := scenario.Parse("stress.yaml", fmt.Appendf(nil, stressYAML, window))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	cl, err := cluster.Start(ctx, runner.ClusterOptions(sc, runner.Options{Backend: cluster.BackendLocal}))
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()

	observedSc := sc
	on := true
	observedSc.Observe = &on
	var harness, observed, plain, distinct float64
	for b.Loop() {
		distinct += plainLoop(b, cl, sc.TTL.D(), window, false)
		plain += plainLoop(b, cl, sc.TTL.D(), window, true)
		res, err := runner.Run(ctx, sc, runner.Options{Seed: 1, Cluster: cl})
		if err != nil {
			b.Fatal(err)
		}
		harness += lockOpRate(res.History.Ops, window)
		res, err = runner.Run(ctx, observedSc, runner.Options{Seed: 1, Cluster: cl})
		if err != nil {
			b.Fatal(err)
		}
		observed += lockOpRate(res.History.Ops, window)
	}
	n := float64(b.N)
	b.ReportMetric(harness/n, "harness-ops/s")
	b.ReportMetric(plain/n, "plain-ops/s")
	b.ReportMetric(harness/plain, "ratio")
	// The same run with the node observed (MONITOR): what observation costs.
	b.ReportMetric(observed/n, "observed-ops/s")
	b.ReportMetric(observed/plain, "observed-ratio")
	// For reference: the baseline loop (every goroutine on keys of
	// its own, no contention).
	b.ReportMetric(distinct/n, "plain-distinct-ops/s")
}

// lockOpRate is the number of acquire and release operations completed
// in the workload's window [0, window) of true time, per second. Later
// operations (wind-down, liveness probes) do not count.
func lockOpRate(ops []history.Op, window time.Duration) float64 {
	var n int
	for _, op := range ops {
		if (op.F == history.Acquire || op.F == history.Release) && op.Complete >= 0 && op.Complete < int64(window) {
			n++
		}
	}
	return float64(n) / window.Seconds()
}

// plainLoop runs, for window, one goroutine per client of cl, each with a
// go-redis client configured as the runner configures its clients, on the
// client's own proxy. shared: the stress workload's command sequence
// without the harness (for invoice-1, invoice-2, …: SET invoice-k tok NX
// PX ttl until it succeeds, then DEL invoice-k), so every goroutine meets
// the same contention as a harness client; else SET NX PX + DEL on keys of
// its own. It returns commands per second (one SET or one DEL = one
// operation, as one acquire or one release is in the harness).
func plainLoop(b *testing.B, cl *cluster.Cluster, ttl, window time.Duration, shared bool) float64 {
	b.Helper()
	if err := cl.Reset(context.Background()); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), window)
	defer cancel()
	var total atomic.Int64
	var wg sync.WaitGroup
	began := time.Now()
	for _, name := range cl.Clients() {
		c := redis.NewClient(&redis.Options{
			Addr: cl.LinkAddr(name, 0), Protocol: 2, MaxRetries: -1,
			DialTimeout: time.Second, ReadTimeout: time.Second, WriteTimeout: time.Second,
			ContextTimeoutEnabled: true, PoolSize: 4, DisableIdentity: true, DialerRetries: 1,
		})
		if err := c.Ping(context.Background()).Err(); err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			var n int64
			defer func() { total.Add(n) }()
			for i := 1; ctx.Err() == nil; i++ {
				key := fmt.Sprintf("%s-invoice-%d", name, i)
				if shared {
					key = fmt.Sprintf("invoice-%d", i)
				}
				for {
					ok, err := c.SetNX(ctx, key, "token-"+name, ttl).Result()
					if err != nil {
						return
					}
					n++
					if ok {
						break
					}
				}
				if c.Del(ctx, key).Err() != nil {
					return
				}
				n++
			}
		}()
	}
	wg.Wait()
	return float64(total.Load()) / time.Since(began).Seconds()
}
