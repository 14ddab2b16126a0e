package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func TestLocalNodeLifecycle(t *testing.T) {
	requireBackend(t, BackendLocal)
	ctx := context.Background()
	c, err := Start(ctx, Options{Backend: BackendLocal, Nodes: 1, Clients: []string{"w1"}})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	closed := false
	t.Cleanup(func() {
		if !closed {
			_ = c.Close()
		}
	})
	node := c.Node(0)
	pid, dir := node.PID(), node.Dir()

	t.Run("the cluster reports a real redis version", func(t *testing.T) {
		if c.Backend() != BackendLocal {
			t.Fatalf("Backend() = %q, want local", c.Backend())
		}
		if v := c.RedisVersion(); v == "" || strings.Contains(v, "emulated") {
			t.Fatalf("RedisVersion() = %q, want a real version", v)
		}
	})
	t.Run("the node runs as its own process in a locksim temp dir with an owner file", func(t *testing.T) {
		if pid <= 0 || syscall.Kill(pid, 0) != nil {
			t.Fatalf("PID() = %d, not a live process", pid)
		}
		if !strings.HasPrefix(filepath.Base(dir), "locksim-") || filepath.Dir(dir) != filepath.Clean(os.TempDir()) {
			t.Fatalf("Dir() = %q, want %s/locksim-*", dir, os.TempDir())
		}
		b, err := os.ReadFile(filepath.Join(dir, "owner.pid"))
		if err != nil || strings.TrimSpace(string(b)) != strconv.Itoa(os.Getpid()) {
			t.Fatalf("owner.pid = %q, %v; want %d", b, err, os.Getpid())
		}
	})
	t.Run("a SET through the link proxy is readable directly on the node", func(t *testing.T) {
		via := testClient(t, c.LinkAddr("w1", 0))
		if err := via.Set(ctx, "k", "v1", 0).Err(); err != nil {
			t.Fatalf("SET via link: %v", err)
		}
		if got, err := testClient(t, c.NodeAddr(0)).Get(ctx, "k").Result(); err != nil || got != "v1" {
			t.Fatalf("GET direct = %q, %v; want v1", got, err)
		}
		if got, err := via.Get(ctx, "k").Result(); err != nil || got != "v1" {
			t.Fatalf("GET via link = %q, %v; want v1", got, err)
		}
	})
	t.Run("Close leaves no redis-server process and no temp dir, and is idempotent", func(t *testing.T) {
		closed = true
		if err := c.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Fatalf("redis-server pid %d still exists after Close (kill 0: %v)", pid, err)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Fatalf("node dir %s still exists after Close (stat: %v)", dir, err)
		}
		if err := c.Close(); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		if err := c.HealAll(ctx); !errors.Is(err, ErrClosed) {
			t.Fatalf("HealAll after Close = %v, want ErrClosed", err)
		}
	})
}

func TestEveryClientHasItsOwnProxyToEveryNode(t *testing.T) {
	for _, bc := range backendCases {
		t.Run(bc.name+", 5 nodes × 2 clients give 10 distinct proxies each reaching its node", func(t *testing.T) {
			c := startCluster(t, Options{Backend: bc.backend, Nodes: 5, Clients: []string{"w1", "w2"}})
			ctx := context.Background()
			if got := strings.Join(c.NodeNames(), ","); got != "n1,n2,n3,n4,n5" {
				t.Fatalf("NodeNames() = %s", got)
			}
			seen := map[string]string{}
			for i := 0; i < 5; i++ {
				seen[c.NodeAddr(i)] = "node " + strconv.Itoa(i)
			}
			if len(seen) != 5 {
				t.Fatalf("node addresses not distinct: %v", seen)
			}
			proxies := 0
			for _, client := range []string{"w1", "w2"} {
				for i := 0; i < 5; i++ {
					addr := c.LinkAddr(client, i)
					if !strings.HasPrefix(addr, "127.0.0.1:") {
						t.Fatalf("LinkAddr(%s, %d) = %q, want 127.0.0.1:port", client, i, addr)
					}
					if prev, dup := seen[addr]; dup {
						t.Fatalf("LinkAddr(%s, %d) = %s, already used by %s", client, i, addr, prev)
					}
					seen[addr] = client
					proxies++
					key := "k-" + client
					if err := testClient(t, addr).Set(ctx, key, i, 0).Err(); err != nil {
						t.Fatalf("SET via %s→n%d: %v", client, i+1, err)
					}
					if got, err := testClient(t, c.NodeAddr(i)).Get(ctx, key).Int(); err != nil || got != i {
						t.Fatalf("link %s→n%d reached the wrong node: GET = %d, %v", client, i+1, got, err)
					}
				}
			}
			if proxies != 10 || len(c.Links()) != 10 {
				t.Fatalf("got %d proxies, %d links; want 10", proxies, len(c.Links()))
			}
			if c.Link("w3", 0) != nil || c.LinkAddr("w1", 5) != "" || c.Node(5) != nil || c.NodeAddr(-1) != "" {
				t.Fatalf("unknown client/node must give nil or empty results")
			}
		})
	}
}

func TestCutReachesOnlyTheNamedLink(t *testing.T) {
	modes := []struct {
		name string
		mode string
	}{
		{"a dropping cut", CutDrop},
		{"a refusing cut", CutRefuse},
	}
	for _, bc := range backendCases {
		for _, m := range modes {
			t.Run(m.name+" on w1→n1 "+bc.name+" blocks only w1→n1 until Heal", func(t *testing.T) {
				c := startCluster(t, Options{Backend: bc.backend, Nodes: 2, Clients: []string{"w1", "w2"}})
				ctx := context.Background()
				w1n1 := cutClient(t, c.LinkAddr("w1", 0))
				w2n1 := testClient(t, c.LinkAddr("w2", 0))
				w1n2 := testClient(t, c.LinkAddr("w1", 1))
				for _, rc := range []*redis.Client{w1n1, w2n1, w1n2} {
					if err := eventually(settle, func() error { return rc.Ping(ctx).Err() }); err != nil {
						t.Fatalf("PING before cut: %v", err)
					}
				}
				if err := c.Link("w1", 0).Cut(m.mode, DirBoth); err != nil {
					t.Fatalf("Cut: %v", err)
				}
				err := w1n1.Set(ctx, "k", "x", 0).Err()
				if err == nil {
					t.Fatalf("SET through the cut link succeeded")
				}
				if m.mode == CutDrop && !isTimeout(err) {
					t.Fatalf("SET through a dropping cut: %v, want a timeout", err)
				}
				if err := w2n1.Set(ctx, "k", "w2", 0).Err(); err != nil {
					t.Fatalf("w2→n1 broken by a cut of w1→n1: %v", err)
				}
				if err := w1n2.Set(ctx, "k", "w1", 0).Err(); err != nil {
					t.Fatalf("w1→n2 broken by a cut of w1→n1: %v", err)
				}
				if got, err := testClient(t, c.NodeAddr(0)).Get(ctx, "k").Result(); err != nil || got != "w2" {
					t.Fatalf("n1 holds %q, %v; the SET through the cut link must not have run", got, err)
				}
				if err := c.Link("w1", 0).Heal(); err != nil {
					t.Fatalf("Heal: %v", err)
				}
				if err := eventually(settle, func() error { return w1n1.Ping(ctx).Err() }); err != nil {
					t.Fatalf("w1→n1 still broken after Heal: %v", err)
				}
				if got := c.Link("w1", 0).Toxics(); len(got) != 0 {
					t.Fatalf("toxics left after Heal: %v", got)
				}
			})
		}
	}
}

func TestReplyOnlyCutStillRunsTheCommand(t *testing.T) {
	for _, bc := range backendCases {
		t.Run("a SET through a replies-cut link "+bc.name+" is applied though the client times out", func(t *testing.T) {
			c := startCluster(t, Options{Backend: bc.backend, Nodes: 1, Clients: []string{"w1"}})
			ctx := context.Background()
			rc := cutClient(t, c.LinkAddr("w1", 0))
			if err := eventually(settle, func() error { return rc.Ping(ctx).Err() }); err != nil {
				t.Fatalf("PING: %v", err)
			}
			if err := c.Link("w1", 0).Cut(CutDrop, DirReplies); err != nil {
				t.Fatalf("Cut: %v", err)
			}
			if err := rc.Set(ctx, "lock", "tokA", 0).Err(); !isTimeout(err) {
				t.Fatalf("SET through replies-cut link: %v, want a timeout", err)
			}
			direct := testClient(t, c.NodeAddr(0))
			if err := eventually(settle, func() error {
				got, err := direct.Get(ctx, "lock").Result()
				if err == nil && got != "tokA" {
					err = errors.New("value " + got)
				}
				return err
			}); err != nil {
				t.Fatalf("GET direct after replies cut: %v, want tokA", err)
			}
		})
	}
}

func TestShiftClock(t *testing.T) {
	for _, bc := range backendCases {
		t.Run(bc.name, func(t *testing.T) {
			c := startCluster(t, Options{Backend: bc.backend, Nodes: 1, Clients: []string{"w1"}})
			ctx := context.Background()
			rc := testClient(t, c.NodeAddr(0))
			// Every TTL is judged against the real time that passed since
			// the keys were set (a loaded machine can make that long): a
			// shift of Δ leaves PTTL in [ttl − Δ − elapsed − slack, ttl − Δ],
			// slack for Redis's millisecond rounding and cached clock.
			const short, long = 3 * time.Second, 20 * time.Second
			set := func(t *testing.T) time.Time {
				t.Helper()
				at := time.Now()
				if err := rc.Set(ctx, "short", "a", short).Err(); err != nil {
					t.Fatal(err)
				}
				if err := rc.Set(ctx, "long", "b", long).Err(); err != nil {
					t.Fatal(err)
				}
				if err := rc.Set(ctx, "fence", "7", 0).Err(); err != nil {
					t.Fatal(err)
				}
				return at
			}
			within := func(t *testing.T, key string, set time.Time, want time.Duration) {
				t.Helper()
				pttl, err := rc.PTTL(ctx, key).Result()
				elapsed := time.Since(set)
				const slack = 10 * time.Millisecond
				if err != nil || pttl > want || pttl < want-elapsed-slack {
					t.Fatalf("PTTL %s = %v, %v; want %v less at most the %v since it was set", key, pttl, err, want, elapsed)
				}
			}
			t.Run("a forward jump deletes a key with shorter TTL and shortens a longer one", func(t *testing.T) {
				at := set(t)
				if err := c.Node(0).ShiftClock(ctx, 5*time.Second); err != nil {
					t.Fatalf("ShiftClock: %v", err)
				}
				if n, err := rc.Exists(ctx, "short").Result(); err != nil || n != 0 {
					t.Fatalf("EXISTS short = %d, %v; want 0", n, err)
				}
				within(t, "long", at, long-5*time.Second)
				if pttl, err := rc.PTTL(ctx, "fence").Result(); err != nil || pttl != -1 {
					t.Fatalf("PTTL fence = %v, %v; a key without TTL must stay persistent", pttl, err)
				}
			})
			t.Run("a backward jump lengthens every TTL", func(t *testing.T) {
				var at time.Time
				for try := 1; ; try++ {
					at = set(t)
					if err := c.Node(0).ShiftClock(ctx, -5*time.Second); err != nil {
						t.Fatalf("ShiftClock: %v", err)
					}
					if took := time.Since(at); took < short {
						break
					} else if try == 3 {
						t.Fatalf("three times the machine took %v or more to set the keys and shift the clock, longer than the %v key lives", short, short)
					}
				}
				within(t, "short", at, short+5*time.Second)
				within(t, "long", at, long+5*time.Second)
			})
			t.Run("a paused node refuses a clock shift instead of hanging", func(t *testing.T) {
				if err := c.Node(0).Pause(); err != nil {
					t.Fatal(err)
				}
				defer func() { _ = c.Node(0).Resume() }()
				if err := c.Node(0).ShiftClock(ctx, time.Second); !errors.Is(err, ErrNodeNotRunning) {
					t.Fatalf("ShiftClock on paused node = %v, want ErrNodeNotRunning", err)
				}
			})
		})
	}
}

func TestKillAndRestart(t *testing.T) {
	cases := []struct {
		name        string
		persistence string
		wantKept    bool
	}{
		{"without persistence a restarted node has lost the key", PersistenceNone, false},
		{"with aof-always a restarted node still has the key", PersistenceAOFAlways, true},
		{"with aof-everysec a killed process keeps an acknowledged key", PersistenceAOFEverysec, true},
	}
	for _, bc := range backendCases {
		for _, tc := range cases {
			t.Run(tc.name+" "+bc.name, func(t *testing.T) {
				c := startCluster(t, Options{Backend: bc.backend, Nodes: 1, Clients: []string{"w1"}, Persistence: tc.persistence})
				ctx := context.Background()
				n := c.Node(0)
				link := testClient(t, c.LinkAddr("w1", 0))
				if err := link.Set(ctx, "lock", "tokA", 30*time.Second).Err(); err != nil {
					t.Fatalf("SET: %v", err)
				}
				oldPID := n.PID()
				if err := n.Kill(); err != nil {
					t.Fatalf("Kill: %v", err)
				}
				if n.State() != StateDown {
					t.Fatalf("State() after Kill = %s", n.State())
				}
				if oldPID != 0 && syscall.Kill(oldPID, 0) == nil {
					t.Fatalf("pid %d alive after Kill", oldPID)
				}
				if err := link.Ping(ctx).Err(); err == nil {
					t.Fatalf("PING through link to a killed node succeeded")
				}
				if err := n.Restart(ctx); err != nil {
					t.Fatalf("Restart: %v", err)
				}
				if n.State() != StateRunning {
					t.Fatalf("State() after Restart = %s", n.State())
				}
				var got string
				var err error
				if err := eventually(settle, func() error {
					got, err = link.Get(ctx, "lock").Result()
					if errors.Is(err, redis.Nil) {
						return nil
					}
					return err
				}); err != nil {
					t.Fatalf("GET through link after Restart: %v", err)
				}
				if kept := got == "tokA"; kept != tc.wantKept {
					t.Fatalf("after Kill+Restart GET lock = %q (%v); want kept=%v", got, err, tc.wantKept)
				}
			})
		}
	}
}

func TestPauseAndResume(t *testing.T) {
	for _, bc := range backendCases {
		t.Run("a paused node "+bc.name+" makes commands time out and answers again after Resume", func(t *testing.T) {
			c := startCluster(t, Options{Backend: bc.backend, Nodes: 1, Clients: []string{"w1"}})
			ctx := context.Background()
			rc := cutClient(t, c.LinkAddr("w1", 0))
			if err := eventually(settle, func() error { return rc.Ping(ctx).Err() }); err != nil {
				t.Fatalf("PING: %v", err)
			}
			n := c.Node(0)
			if err := n.Pause(); err != nil {
				t.Fatalf("Pause: %v", err)
			}
			if n.State() != StatePaused {
				t.Fatalf("State() = %s, want paused", n.State())
			}
			if err := rc.Set(ctx, "k", "v", 0).Err(); !isTimeout(err) {
				t.Fatalf("SET on paused node: %v, want a timeout", err)
			}
			if err := n.Resume(); err != nil {
				t.Fatalf("Resume: %v", err)
			}
			if err := eventually(settle, func() error { return rc.Set(ctx, "k", "v2", 0).Err() }); err != nil {
				t.Fatalf("SET after Resume: %v", err)
			}
			if err := n.Resume(); err != nil {
				t.Fatalf("second Resume must be a no-op: %v", err)
			}
		})
	}
}

// TestPausesNest: fencing-random-nemesis seed 1142 drew two pause-node
// steps on n1 that overlapped on a loaded machine (the first one's resume
// came after the second one's pause); the first resume let n1 run while
// the second step's record said it was stopped.
func TestPausesNest(t *testing.T) {
	for _, bc := range backendCases {
		t.Run("a node paused by two overlapping steps stays stopped until the second one resumes it ("+bc.name+")", func(t *testing.T) {
			c := startCluster(t, Options{Backend: bc.backend, Nodes: 1, Clients: []string{"w1"}})
			n := c.Node(0)
			for i := range 2 {
				if err := n.Pause(); err != nil {
					t.Fatalf("Pause %d: %v", i+1, err)
				}
			}
			if err := n.Resume(); err != nil {
				t.Fatalf("first Resume: %v", err)
			}
			if got := n.State(); got != StatePaused {
				t.Fatalf("State() after one of two Resumes = %s, want paused", got)
			}
			if err := n.Resume(); err != nil {
				t.Fatalf("second Resume: %v", err)
			}
			if got := n.State(); got != StateRunning {
				t.Fatalf("State() after both Resumes = %s, want running", got)
			}
		})
	}
}

func TestLockScripts(t *testing.T) {
	const casDel = `if redis.call('get',KEYS[1])==ARGV[1] then return redis.call('del',KEYS[1]) else return 0 end`
	const fenced = `if redis.call('set',KEYS[1],ARGV[1],'NX','PX',ARGV[2]) then return redis.call('incr',KEYS[2]) else return 0 end`
	for _, bc := range backendCases {
		t.Run(bc.name, func(t *testing.T) {
			c := startCluster(t, Options{Backend: bc.backend, Nodes: 1, Clients: []string{"w1"}})
			ctx := context.Background()
			rc := testClient(t, c.LinkAddr("w1", 0))
			t.Run("SET NX PX grants the lock once and stores a TTL", func(t *testing.T) {
				if ok, err := rc.SetNX(ctx, "lock", "tokA", 5*time.Second).Result(); err != nil || !ok {
					t.Fatalf("first SET NX = %v, %v", ok, err)
				}
				if ok, err := rc.SetNX(ctx, "lock", "tokB", 5*time.Second).Result(); err != nil || ok {
					t.Fatalf("second SET NX = %v, %v; want not granted", ok, err)
				}
				if pttl, err := rc.PTTL(ctx, "lock").Result(); err != nil || pttl <= 0 || pttl > 5*time.Second {
					t.Fatalf("PTTL = %v, %v", pttl, err)
				}
			})
			t.Run("compare-and-delete deletes only with the owner's token", func(t *testing.T) {
				if n, err := rc.Eval(ctx, casDel, []string{"lock"}, "tokB").Int(); err != nil || n != 0 {
					t.Fatalf("foreign release = %d, %v; want 0", n, err)
				}
				if n, err := rc.Eval(ctx, casDel, []string{"lock"}, "tokA").Int(); err != nil || n != 1 {
					t.Fatalf("owner release = %d, %v; want 1", n, err)
				}
				if n, _ := rc.Exists(ctx, "lock").Result(); n != 0 {
					t.Fatalf("lock still exists after release")
				}
			})
			t.Run("SET NX PX plus INCR hands out increasing fencing tokens", func(t *testing.T) {
				first, err := rc.Eval(ctx, fenced, []string{"lock", "fence"}, "tokA", 5000).Int()
				if err != nil || first != 1 {
					t.Fatalf("first fenced acquire = %d, %v; want 1", first, err)
				}
				if n, err := rc.Eval(ctx, fenced, []string{"lock", "fence"}, "tokB", 5000).Int(); err != nil || n != 0 {
					t.Fatalf("fenced acquire of a held lock = %d, %v; want 0", n, err)
				}
				rc.Del(ctx, "lock")
				if n, err := rc.Eval(ctx, fenced, []string{"lock", "fence"}, "tokB", 5000).Int(); err != nil || n != 2 {
					t.Fatalf("next fenced acquire = %d, %v; want 2", n, err)
				}
			})
		})
	}
}

func TestLinkLatencyAndReset(t *testing.T) {
	for _, bc := range backendCases {
		t.Run(bc.name, func(t *testing.T) {
			c := startCluster(t, Options{Backend: bc.backend, Nodes: 1, Clients: []string{"w1"}})
			ctx := context.Background()
			l := c.Link("w1", 0)
			slow := redis.NewClient(&redis.Options{Addr: l.Addr(), MaxRetries: -1, DialerRetries: 1, ReadTimeout: 2 * time.Second, DisableIdentity: true})
			t.Cleanup(func() { _ = slow.Close() })
			t.Run("latency of 150ms delays every reply by at least that, until Heal", func(t *testing.T) {
				if err := slow.Ping(ctx).Err(); err != nil {
					t.Fatal(err)
				}
				if err := l.AddLatency(150*time.Millisecond, 0); err != nil {
					t.Fatalf("AddLatency: %v", err)
				}
				// A lower bound: load only makes the PING slower.
				for range 3 {
					start := time.Now()
					if err := slow.Ping(ctx).Err(); err != nil {
						t.Fatalf("PING with latency: %v", err)
					}
					if d := time.Since(start); d < 150*time.Millisecond {
						t.Fatalf("PING took %v, want ≥ 150ms", d)
					}
				}
				if err := l.Heal(); err != nil {
					t.Fatal(err)
				}
				if got := l.Toxics(); len(got) != 0 {
					t.Fatalf("toxics left after Heal: %v", got)
				}
				// Healed, a PING no longer waits out the toxic: with it,
				// every reply takes ≥ 150 ms; without it, a loaded machine
				// makes some replies slow but not all of them.
				fastest := time.Hour
				if err := eventually(settle, func() error {
					start := time.Now()
					if err := slow.Ping(ctx).Err(); err != nil {
						return err
					}
					if d := time.Since(start); d >= 150*time.Millisecond {
						fastest = min(fastest, d)
						return fmt.Errorf("PING after Heal took %v, as if the latency were still there", d)
					}
					return nil
				}); err != nil {
					t.Fatalf("%v; the fastest of the PINGs in %v took %v", err, settle, fastest)
				}
			})
			t.Run("reset makes commands fail fast without running them until Heal", func(t *testing.T) {
				if err := l.Reset(); err != nil {
					t.Fatalf("Reset: %v", err)
				}
				// Fast means not waiting out the client's 2 s read timeout:
				// the link answers with a connection error, not silence.
				err := slow.Set(ctx, "reset", "x", 0).Err()
				if err == nil || isTimeout(err) {
					t.Fatalf("SET through reset link: %v, want a connection error, not a timeout", err)
				}
				if n, _ := testClient(t, c.NodeAddr(0)).Exists(ctx, "reset").Result(); n != 0 {
					t.Fatalf("SET through a reset link reached Redis")
				}
				if err := l.Heal(); err != nil {
					t.Fatal(err)
				}
				if err := eventually(settle, func() error { return slow.Ping(ctx).Err() }); err != nil {
					t.Fatalf("PING after Heal: %v", err)
				}
			})
		})
	}
}

func TestHealAllUndoesEveryFault(t *testing.T) {
	for _, bc := range backendCases {
		t.Run("after cuts, latency, a pause and a kill "+bc.name+" every link works again", func(t *testing.T) {
			c := startCluster(t, Options{Backend: bc.backend, Nodes: 5, Clients: []string{"w1", "w2"}})
			ctx := context.Background()
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			must(c.Link("w1", 0).Cut(CutDrop, DirBoth))
			must(c.Link("w2", 0).Cut(CutRefuse, DirBoth))
			must(c.Link("w1", 1).Cut(CutDrop, DirReplies))
			must(c.Link("w2", 1).AddLatency(300*time.Millisecond, 10*time.Millisecond))
			must(c.Link("w1", 2).Reset())
			must(c.Node(3).Pause())
			must(c.Node(4).Kill())
			for i := 0; i < 2; i++ {
				if err := c.HealAll(ctx); err != nil {
					t.Fatalf("HealAll #%d: %v", i+1, err)
				}
			}
			for _, l := range c.Links() {
				rc := testClient(t, l.Addr())
				if err := eventually(settle, func() error { return rc.Ping(ctx).Err() }); err != nil {
					t.Errorf("link %s after HealAll: %v", l.Name(), err)
				}
				if len(l.Toxics()) != 0 {
					t.Errorf("link %s keeps toxics %v", l.Name(), l.Toxics())
				}
			}
			for _, n := range c.Nodes() {
				if n.State() != StateRunning {
					t.Errorf("node %s is %s after HealAll", n.Name(), n.State())
				}
			}
		})
	}
}

func TestStartRejectsBadOptions(t *testing.T) {
	cases := []struct {
		name string
		o    Options
		want string
	}{
		{"zero nodes are rejected", Options{Backend: BackendEmbedded, Nodes: 0, Clients: []string{"w1"}}, "nodes"},
		{"an unknown persistence is rejected", Options{Backend: BackendEmbedded, Nodes: 1, Persistence: "rdb-hourly", Clients: []string{"w1"}}, "persistence"},
		{"snapshots need real redis-server", Options{Backend: BackendEmbedded, Nodes: 1, Persistence: PersistenceRDB, Clients: []string{"w1"}}, "local backend"},
		{"replicas need real redis-server", Options{Backend: BackendEmbedded, Nodes: 1, Replicas: 1, Clients: []string{"w1"}}, "local backend"},
		{"sentinels need a replica to promote", Options{Backend: BackendEmbedded, Nodes: 1, Sentinels: 3, Clients: []string{"w1"}}, "replicas ≥ 1"},
		{"an even number of sentinels is rejected", Options{Backend: BackendEmbedded, Nodes: 1, Replicas: 1, Sentinels: 2, Clients: []string{"w1"}}, "sentinels must be"},
		{"no clients are rejected", Options{Backend: BackendEmbedded, Nodes: 1}, "no clients"},
		{"duplicate clients are rejected", Options{Backend: BackendEmbedded, Nodes: 1, Clients: []string{"w1", "w1"}}, "duplicate"},
		{"a client name with a space is rejected", Options{Backend: BackendEmbedded, Nodes: 1, Clients: []string{"w 1"}}, "bad client name"},
		{"an unknown backend is rejected", Options{Backend: "docker", Nodes: 1, Clients: []string{"w1"}}, "unknown backend"},
		{"a missing redis-server binary is named", Options{Backend: BackendLocal, Nodes: 1, Clients: []string{"w1"}, RedisServer: "/nonexistent/redis-server"}, "redis-server not found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Start(context.Background(), tc.o)
			if err == nil {
				_ = c.Close()
				t.Fatalf("Start succeeded, want error containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Start error %q does not contain %q", err, tc.want)
			}
		})
	}
}

func TestStartFailureNamesTheNodeAndShowsItsLog(t *testing.T) {
	t.Run("a redis-server that exits at once gives an error with node name and log tail", func(t *testing.T) {
		fake := filepath.Join(t.TempDir(), "redis-server")
		script := "#!/bin/sh\necho 'FATAL CONFIG FILE ERROR: boom' >&2\nexit 1\n"
		if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		// A temp dir of its own: other processes (parallel test packages,
		// other runs on the machine) start and stop nodes in the shared one
		// at any moment, so counting its dirs before and after races them.
		t.Setenv("TMPDIR", t.TempDir())
		before, _ := filepath.Glob(filepath.Join(os.TempDir(), "locksim-n1-*"))
		_, err := Start(context.Background(), Options{Backend: BackendLocal, Nodes: 1, Clients: []string{"w1"}, RedisServer: fake})
		if err == nil {
			t.Fatal("Start with a failing redis-server succeeded")
		}
		for _, want := range []string{"start node n1", "boom"} {
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("error %q does not contain %q", err, want)
			}
		}
		after, _ := filepath.Glob(filepath.Join(os.TempDir(), "locksim-n1-*"))
		if len(after) > len(before) {
			t.Fatalf("failed start left a node dir behind: %v", after)
		}
	})
}

func TestRemoveStaleDirs(t *testing.T) {
	deadPID := func(t *testing.T) int {
		cmd := exec.Command(os.Args[0], "-test.run=^$") // runs no test, exits 0
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
		return cmd.ProcessState.Pid()
	}
	cases := []struct {
		name      string
		owner     func(t *testing.T) string
		wantKept  bool
		withOwner bool
	}{
		{"a dir owned by a dead locksim is removed", func(t *testing.T) string { return strconv.Itoa(deadPID(t)) }, false, true},
		{"a dir owned by a live process is kept", func(t *testing.T) string { return strconv.Itoa(os.Getppid()) }, true, true},
		{"a dir without owner file is not ours and is kept", nil, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, err := os.MkdirTemp("", "locksim-test-*")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.RemoveAll(dir) })
			if tc.withOwner {
				if err := os.WriteFile(filepath.Join(dir, "owner.pid"), []byte(tc.owner(t)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			removeStaleDirs(slog.New(slog.DiscardHandler))
			_, err = os.Stat(dir)
			if kept := err == nil; kept != tc.wantKept {
				t.Fatalf("dir kept = %v, want %v", kept, tc.wantKept)
			}
		})
	}
}

func TestEmbeddedBackendSaysItIsEmulated(t *testing.T) {
	t.Run("the embedded version string names miniredis and says emulated Redis", func(t *testing.T) {
		c := startCluster(t, Options{Backend: BackendEmbedded, Nodes: 1, Clients: []string{"w1"}})
		v := c.RedisVersion()
		if c.Backend() != BackendEmbedded || !strings.HasPrefix(v, "miniredis v2") || !strings.HasSuffix(v, "(emulated Redis)") {
			t.Fatalf("Backend() = %q, RedisVersion() = %q", c.Backend(), v)
		}
		t.Logf("RedisVersion() = %q", v)
	})
}

func TestLinkFaultsRejectBadInput(t *testing.T) {
	c := startCluster(t, Options{Backend: BackendEmbedded, Nodes: 1, Clients: []string{"w1"}})
	l := c.Link("w1", 0)
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"an unknown cut mode is rejected", l.Cut("blackhole", DirBoth), "unknown mode"},
		{"an unknown direction is rejected", l.Cut(CutDrop, "requests"), "unknown direction"},
		{"a refusing cut of replies only is rejected", l.Cut(CutRefuse, DirReplies), "only direction both"},
		{"a negative latency is rejected", l.AddLatency(-time.Millisecond, 0), "negative"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) || !strings.Contains(tc.err.Error(), "w1-n1") {
				t.Fatalf("error = %v, want one naming link w1-n1 and containing %q", tc.err, tc.want)
			}
		})
	}
	t.Run("rejected faults leave the link without toxics", func(t *testing.T) {
		if got := l.Toxics(); len(got) != 0 {
			t.Fatalf("Toxics() = %v", got)
		}
	})
}
