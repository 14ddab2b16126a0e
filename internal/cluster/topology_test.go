package cluster

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// requireSentinel skips a Sentinel test when redis-sentinel is missing,
// except under CI=true, where it is a failure.
func requireSentinel(t *testing.T) {
	t.Helper()
	requireBackend(t, BackendLocal)
	if _, err := exec.LookPath("redis-sentinel"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("redis-sentinel is required when CI=true: %v", err)
		}
		t.Skipf("redis-sentinel not on PATH: %v", err)
	}
}

// masterClient is a client of w's that finds group's master through the
// sentinels, as the runner builds them.
func masterClient(t *testing.T, c *Cluster, client, group string) *redis.Client {
	t.Helper()
	rc := redis.NewClient(&redis.Options{Dialer: c.MasterDialer(client, group), Protocol: 2, MaxRetries: -1,
		DialTimeout: time.Second, ReadTimeout: time.Second, WriteTimeout: time.Second, PoolSize: 2, DisableIdentity: true})
	t.Cleanup(func() { _ = rc.Close() })
	return rc
}

func TestReplicasAndSentinels(t *testing.T) {
	requireSentinel(t)
	// A failover-timeout of 3 s: when a loaded machine lets the sentinels
	// see the master down at once and split their votes, Sentinel tries
	// again after twice failover-timeout (sentinel.c), inside the wait
	// below; with 30 s it never did (CI: "no replica promoted within 10s").
	opts := Options{Backend: BackendLocal, Nodes: 1, Replicas: 2, Sentinels: 3, Clients: []string{"w1", "w2"},
		Sentinel: SentinelOptions{DownAfter: 200 * time.Millisecond, FailoverTimeout: 3 * time.Second}}
	ctx := context.Background()

	t.Run("each replica follows its master through its own replication link, and a cut link stops its stream", func(t *testing.T) {
		c := startCluster(t, opts)
		if got := c.GroupReplicas("n1"); len(got) != 2 || got[0] != "n1r1" || got[1] != "n1r2" {
			t.Fatalf("replicas of n1 = %v, want [n1r1 n1r2]", got)
		}
		m := testClient(t, c.NodeByName("n1").Addr())
		if err := c.ReplicationLink("n1r2").Cut(CutDrop, DirBoth); err != nil {
			t.Fatal(err)
		}
		if err := m.Set(ctx, "k", "v", 0).Err(); err != nil {
			t.Fatal(err)
		}
		r1 := testClient(t, c.NodeByName("n1r1").Addr())
		if err := eventually(settle, func() error { return r1.Get(ctx, "k").Err() }); err != nil {
			t.Fatalf("n1r1 never got the key: %v", err)
		}
		r2 := testClient(t, c.NodeByName("n1r2").Addr())
		if n, err := r2.Exists(ctx, "k").Result(); err != nil || n != 0 {
			t.Fatalf("n1r2 behind a cut link has the key (exists %d, %v)", n, err)
		}
		if err := c.ReplicationLink("n1r2").Uncut(); err != nil {
			t.Fatal(err)
		}
		if err := eventually(settle, func() error { return r2.Get(ctx, "k").Err() }); err != nil {
			t.Fatalf("n1r2 never caught up after the heal: %v", err)
		}
	})

	t.Run("a crashed master is replaced by a replica the sentinels promote, and clients follow it through their links", func(t *testing.T) {
		c := startCluster(t, opts)
		w1 := masterClient(t, c, "w1", "n1")
		if err := w1.Set(ctx, "lock", "a", 0).Err(); err != nil {
			t.Fatal(err)
		}
		// Without WAIT the SET may not have reached a replica yet (BR-20).
		if n, err := w1.Wait(ctx, 2, 5*time.Second).Result(); err != nil || n != 2 {
			t.Fatalf("WAIT 2 = %d, %v", n, err)
		}
		p, err := c.Failover(ctx, "n1", FailoverCrash, 2*settle)
		if err != nil {
			t.Fatalf("failover: %v", err)
		}
		if p.Old != "n1" || (p.Promoted != "n1r1" && p.Promoted != "n1r2") || p.MasterOffset <= 0 || p.PromotedOffset <= 0 {
			t.Fatalf("promotion = %+v", p)
		}
		w2 := masterClient(t, c, "w2", "n1")
		if err := eventually(settle, func() error {
			m, err := c.Master(ctx, "n1")
			if err != nil {
				return err
			}
			if m.Name() != p.Promoted {
				return context.DeadlineExceeded
			}
			return w2.Set(ctx, "after", "b", 0).Err()
		}); err != nil {
			t.Fatalf("w2 could not write on the promoted master: %v", err)
		}
		if v, err := testClient(t, c.NodeByName(p.Promoted).Addr()).Get(ctx, "lock").Result(); err != nil || v != "a" {
			t.Fatalf("promoted replica's lock = %q, %v; want the replicated value a", v, err)
		}
	})

	t.Run("a client cut from one sentinel finds the master through another", func(t *testing.T) {
		c := startCluster(t, opts)
		if err := c.LinkByName("w1", "s1").Cut(CutRefuse, DirBoth); err != nil {
			t.Fatal(err)
		}
		w1 := masterClient(t, c, "w1", "n1")
		if err := w1.Set(ctx, "k", "v", 0).Err(); err != nil {
			t.Fatalf("w1, cut from s1, cannot reach the master: %v", err)
		}
		for _, s := range []string{"s1", "s2", "s3"} {
			if err := c.LinkByName("w1", s).Cut(CutRefuse, DirBoth); err != nil {
				t.Fatal(err)
			}
		}
		cut := masterClient(t, c, "w1", "n1")
		if err := cut.Ping(ctx).Err(); err == nil {
			t.Fatal("a client cut from every sentinel still found a master")
		}
	})

	t.Run("a stopped master is replaced, and once resumed the sentinels still name the promoted replica", func(t *testing.T) {
		c := startCluster(t, opts)
		p, err := c.Failover(ctx, "n1", FailoverStop, 2*settle)
		if err != nil {
			t.Fatalf("failover: %v", err)
		}
		if p.Promoted == "" || c.NodeByName("n1").State() != StatePaused {
			t.Fatalf("promotion %+v, n1 %s; want a replica promoted and n1 paused", p, c.NodeByName("n1").State())
		}
		every := func() error {
			for _, s := range c.Sentinels() {
				v, err := s.admin().Do(ctx, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", "n1").StringSlice()
				if err != nil || len(v) != 2 || v[0]+":"+v[1] != c.NodeByName(p.Promoted).Addr() {
					return fmt.Errorf("%s names %v (%v), want %s", s.Name(), v, err, p.Promoted)
				}
			}
			return nil
		}
		if err := eventually(settle, every); err != nil {
			t.Fatal(err)
		}
		if err := c.NodeByName("n1").Resume(); err != nil {
			t.Fatal(err)
		}
		// The resumed n1 may still call itself master for a while (the
		// split brain of a stopped master); the sentinels' answer stands.
		if err := every(); err != nil {
			t.Errorf("after n1 resumed: %v", err)
		}
	})

	t.Run("SENTINEL FAILOVER promotes a replica while the master is alive", func(t *testing.T) {
		c := startCluster(t, opts)
		p, err := c.Failover(ctx, "n1", FailoverCommand, 2*settle)
		if err != nil {
			t.Fatalf("failover: %v", err)
		}
		if p.Promoted == "" || p.Promoted == "n1" {
			t.Fatalf("promotion = %+v", p)
		}
	})
}

func TestASentinelWhosePortWasTakenStartsOnAnotherPort(t *testing.T) {
	requireSentinel(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	taken := l.Addr().(*net.TCPAddr).Port
	sentinelPortTaken.Store(int64(taken))
	defer sentinelPortTaken.Store(0)
	c := startCluster(t, Options{Backend: BackendLocal, Nodes: 1, Replicas: 1, Sentinels: 3, Clients: []string{"w1"},
		Sentinel: SentinelOptions{DownAfter: 200 * time.Millisecond, FailoverTimeout: 30 * time.Second}})
	if sentinelPortTaken.Load() != 0 {
		t.Fatal("the cluster never tried the taken port")
	}
	for _, s := range c.topo.sentinels {
		if p := s.impl.(*localNode).port; p == taken {
			t.Errorf("sentinel %s is on the taken port %d", s.name, p)
		}
	}
	if err := masterClient(t, c, "w1", "n1").Set(context.Background(), "k", "v", 0).Err(); err != nil {
		t.Fatalf("the sentinels started on their second ports do not find the master: %v", err)
	}
}

// A start's waits on processes doing their own work (replicas syncing,
// sentinels learning their peers) go between Options.Waiting and the
// function it returns, once each, and the start is whole when it returns:
// a suite lets another run set up meanwhile.
func TestAStartHandsItsWaitsToWaiting(t *testing.T) {
	requireSentinel(t)
	var waits, resumes int
	waiting := true // no two waits at once, and none open at the end
	opts := Options{Backend: BackendLocal, Nodes: 1, Replicas: 1, Sentinels: 3, Clients: []string{"w1"},
		Sentinel: SentinelOptions{DownAfter: 200 * time.Millisecond, FailoverTimeout: 3 * time.Second},
		Waiting: func() func() {
			if !waiting {
				t.Error("a wait began inside another")
			}
			waits++
			waiting = false
			return func() { resumes++; waiting = true }
		}}
	c := startCluster(t, opts)
	if waits != 2 || resumes != 2 || !waiting {
		t.Errorf("%d waits, %d resumes (open: %v); want 2 of each, the replicas' and the sentinels', both closed", waits, resumes, !waiting)
	}
	if got := c.GroupReplicas("n1"); len(got) != 1 {
		t.Errorf("replicas of n1 = %v, want one", got)
	}
	if len(c.Sentinels()) != 3 {
		t.Errorf("%d sentinels, want 3", len(c.Sentinels()))
	}
}
