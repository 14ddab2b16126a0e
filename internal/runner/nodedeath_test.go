package runner

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/cluster"
)

func TestANodeThatDiesOnItsOwnGivesNoVerdict(t *testing.T) {
	if testBackend(t) != cluster.BackendLocal {
		t.Skip("needs redis-server: an embedded node has no process to die")
	}
	sc := parse(t, `
name: node-dies
seed: 1
time_scale: 10
duration: 20s
clients: 2
algorithm: safe
ttl: 30s
retry_delay: 250ms
workload:
  kind: payment
  job: 10s
`)
	ctx := context.Background()
	cl, err := cluster.Start(ctx, ClusterOptions(sc, Options{Backend: cluster.BackendLocal}))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	pid := cl.Node(0).PID()
	go func() {
		time.Sleep(300 * time.Millisecond) // w1 is inside its 1 s (wall) job
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}()
	res, err := Run(ctx, sc, Options{Seed: 1, Cluster: cl})
	if err == nil {
		t.Fatalf("run returned a result (%d ops) although n1 died on its own", len(res.History.Ops))
	}
	if !strings.Contains(err.Error(), "node n1 died on its own") || !strings.Contains(err.Error(), "log tail") {
		t.Errorf("error does not name the node and its log: %v", err)
	}
}
