package clients_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/lock"
)

// TestWaitLocks checks the WAIT locks on a real master with two replicas,
// each behind its own replication link: the grant counts only when enough
// replicas acknowledged it, and a grant that does not count is taken back.
func TestWaitLocks(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("redis-server is required when CI=true: %v", err)
		}
		t.Skip("redis-server not on PATH")
	}
	tests := []struct {
		name      string
		algorithm string
		cut       []string // replication links cut before the acquire
		killed    []string // replicas killed before the acquire
		granted   bool
	}{
		{"safe-wait is granted when a replica acknowledges the key", "safe-wait", nil, nil, true},
		{"safe-wait is granted when one of two replicas acknowledges", "safe-wait", []string{"n1r2"}, nil, true},
		{"safe-wait is refused, and its key removed, when no replica acknowledges", "safe-wait", []string{"n1r1", "n1r2"}, nil, false},
		{"safe-wait-all is refused while one of two replicas lags", "safe-wait-all", []string{"n1r2"}, nil, false},
		{"safe-wait-all is granted when every replica acknowledges", "safe-wait-all", nil, nil, true},
		// Lesson 47's WAIT caveat (issue 34, teacher #15): the master
		// stops counting a replica whose connection closed, so the
		// client waits for the others only; with none left it asks
		// WAIT 1 and is refused.
		{"safe-wait-all is granted with one of two replicas down, which the master no longer counts", "safe-wait-all", nil, []string{"n1r2"}, true},
		{"safe-wait-all is refused with every replica down, for it still asks WAIT 1", "safe-wait-all", nil, []string{"n1r1", "n1r2"}, false},
		{"fenced-wait hands out a fence once a replica has the counter", "fenced-wait", []string{"n1r1"}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cl, err := cluster.Start(ctx, cluster.Options{Backend: cluster.BackendLocal, Nodes: 1, Replicas: 2, Clients: []string{"w1"}})
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			for _, r := range tt.cut {
				if err := cl.ReplicationLink(r).Cut(cluster.CutDrop, cluster.DirBoth); err != nil {
					t.Fatal(err)
				}
			}
			master := redis.NewClient(&redis.Options{Addr: cl.NodeAddr(0), DisableIdentity: true})
			defer master.Close()
			killReplicas(ctx, t, cl, master, tt.killed)
			rc := redis.NewClient(&redis.Options{Addr: cl.LinkAddr("w1", 0), Protocol: 2, MaxRetries: -1, DisableIdentity: true,
				ReadTimeout: 2 * time.Second})
			defer rc.Close()
			lk, err := clients.New(tt.algorithm, clients.Config{Config: lock.Config{Nodes: []clients.Node{{Name: "n1", Cmd: rc}},
				TTL: 10 * time.Second, Rand: rand.New(rand.NewPCG(1, 2))}, OpTimeout: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			l, err := lk.Acquire(ctx, "lock")
			held, _ := master.Exists(ctx, "lock").Result()
			if !tt.granted {
				if !errors.Is(err, clients.ErrNotAcquired) || !errors.Is(err, clients.ErrNotReplicated) {
					t.Fatalf("Acquire = %v, want ErrNotReplicated (an ErrNotAcquired)", err)
				}
				if held != 0 {
					t.Fatal("the refused grant's key is still on the master")
				}
				return
			}
			if err != nil {
				t.Fatalf("Acquire: %v", err)
			}
			if held != 1 {
				t.Fatal("the granted key is not on the master")
			}
			acked := 0
			for _, r := range cl.GroupReplicas("n1") {
				rr := redis.NewClient(&redis.Options{Addr: cl.NodeByName(r).Addr(), DisableIdentity: true})
				if v, _ := rr.Get(ctx, "lock").Result(); v == l.Token {
					acked++
				}
				_ = rr.Close()
			}
			if acked == 0 {
				t.Fatal("granted, but no replica holds the key")
			}
			if a, _ := clients.Lookup(tt.algorithm); a.Traits.Fenced && l.Fence < 1 {
				t.Fatalf("fence %d, want ≥ 1", l.Fence)
			}
		})
	}
}

// killReplicas kills the named replicas and waits until the master no
// longer counts them (INFO replication connected_slaves).
func killReplicas(ctx context.Context, t *testing.T, cl *cluster.Cluster, master *redis.Client, names []string) {
	t.Helper()
	if len(names) == 0 {
		return
	}
	for _, r := range names {
		if err := cl.NodeByName(r).Kill(); err != nil {
			t.Fatal(err)
		}
	}
	want := fmt.Sprintf("connected_slaves:%d", len(cl.GroupReplicas("n1"))-len(names))
	deadline := time.Now().Add(5 * time.Second)
	for {
		info, err := master.Info(ctx, "replication").Result()
		if err == nil && strings.Contains(info, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the master still counts a killed replica 5 s after the kill (want %s): %v\n%s", want, err, info)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
