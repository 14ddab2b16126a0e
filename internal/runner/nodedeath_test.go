package runner

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

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
	// Kill n1 once a client holds the invoice's lock (it is inside its 1 s
	// wall job then), not after a fixed sleep, which a loaded machine's
	// slow start-up could make land before the workload began.
	direct := redis.NewClient(&redis.Options{Addr: cl.NodeAddr(0), MaxRetries: -1, DisableIdentity: true})
	defer direct.Close()
	go func() {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if n, err := direct.Exists(ctx, "invoice-1").Result(); err == nil && n == 1 {
				break
			}
		}
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
