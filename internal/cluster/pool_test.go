package cluster

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"
)

func TestPooledClustersShareTheirNodesThroughTheIdlePool(t *testing.T) {
	requireBackend(t, BackendLocal)
	if err := DrainPool(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = DrainPool() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := func(o Options) *Cluster {
		t.Helper()
		c, err := Start(ctx, o)
		if err != nil {
			t.Fatalf("Start: %v", err)
		}
		return c
	}
	// A 2-node cluster leaves data, a script and a TTL behind.
	first := start(Options{Backend: BackendLocal, Nodes: 2, Clients: []string{"w1"}, Pooled: true})
	pids := map[int]bool{}
	for _, n := range first.Nodes() {
		pids[n.PID()] = true
		rc := testClient(t, n.Addr())
		if err := rc.Set(ctx, "invoice-1", "w1-token", time.Hour).Err(); err != nil {
			t.Fatal(err)
		}
		if err := rc.ScriptLoad(ctx, "return 1").Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	t.Run("a closed pooled cluster gives its nodes to the idle pool", func(t *testing.T) {
		if got := IdleNodes(); got != 2 {
			t.Errorf("%d idle nodes, want 2", got)
		}
	})
	t.Run("an idle node ticks once a second", func(t *testing.T) {
		idle.mu.Lock()
		var ns []*localNode
		for _, b := range idle.nodes {
			ns = append(ns, b...)
		}
		idle.mu.Unlock()
		for _, n := range ns {
			if hz := configHz(ctx, t, n.addr()); hz != idleHz {
				t.Errorf("idle node %s: hz %s, want %s", n.addr(), hz, idleHz)
			}
		}
	})
	// A cluster of another shape (one node, two clients) takes one.
	second := start(Options{Backend: BackendLocal, Nodes: 1, Clients: []string{"w1", "w2"}, Pooled: true})
	n := second.Nodes()[0]
	rc := testClient(t, n.Addr())
	t.Run("the next pooled cluster takes an idle node instead of starting one", func(t *testing.T) {
		if !pids[n.PID()] || IdleNodes() != 1 {
			t.Errorf("node pid %d, idle %d; want one of %v and 1 idle", n.PID(), IdleNodes(), pids)
		}
	})
	t.Run("it ticks again at Redis's default of 10 a second", func(t *testing.T) {
		if hz := configHz(ctx, t, n.Addr()); hz != runHz {
			t.Errorf("hz %s, want %s", hz, runHz)
		}
	})
	t.Run("it comes empty: no key and no script of the run before", func(t *testing.T) {
		if keys, err := rc.DBSize(ctx).Result(); err != nil || keys != 0 {
			t.Errorf("DBSIZE %d (%v), want 0", keys, err)
		}
		if ex, err := rc.ScriptExists(ctx, "e0e1f9fabfc9d4800c877a703b823ac0578ff8db").Result(); err != nil || ex[0] {
			t.Errorf("the script of the run before is still loaded (%v, %v)", ex, err)
		}
	})
	t.Run("it answers through the new cluster's proxies under its new name", func(t *testing.T) {
		if n.Name() != "n1" {
			t.Errorf("name %q, want n1", n.Name())
		}
		pc := testClient(t, second.Links()[1].Addr())
		if err := pc.Ping(ctx).Err(); err != nil {
			t.Errorf("w2's proxy to it: %v", err)
		}
	})
	// A killed node is not given back; a node with persistence never is.
	if err := n.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := second.Close(); err != nil {
		t.Fatal(err)
	}
	aof := start(Options{Backend: BackendLocal, Nodes: 1, Clients: []string{"w1"}, Persistence: PersistenceAOFAlways, Pooled: true})
	if err := aof.Close(); err != nil {
		t.Fatal(err)
	}
	t.Run("a node that is down or has persistence is stopped, not pooled", func(t *testing.T) {
		if got := IdleNodes(); got != 1 {
			t.Errorf("%d idle nodes, want 1 (the one the second cluster left idle)", got)
		}
	})
	idlePID := 0
	for p := range pids {
		if p != n.PID() {
			idlePID = p
		}
	}
	t.Run("DrainPool stops every idle node", func(t *testing.T) {
		if err := DrainPool(); err != nil {
			t.Fatal(err)
		}
		if IdleNodes() != 0 {
			t.Errorf("%d idle nodes after DrainPool", IdleNodes())
		}
		err := eventually(settle, func() error {
			if syscall.Kill(idlePID, 0) == nil {
				return errors.New("still running")
			}
			return nil
		})
		if err != nil {
			t.Errorf("redis-server %d: %v after DrainPool", idlePID, err)
		}
	})
}

// configHz is CONFIG GET hz of the node at addr.
func configHz(ctx context.Context, t *testing.T, addr string) string {
	t.Helper()
	got, err := testClient(t, addr).ConfigGet(ctx, "hz").Result()
	if err != nil {
		t.Fatalf("CONFIG GET hz: %v", err)
	}
	return got["hz"]
}
