package cluster

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"
)

// dirty leaves every kind of state a run can leave behind: keys, a cut,
// latency and reset on links, a paused node and a killed one.
func dirty(t *testing.T, c *Cluster) {
	t.Helper()
	ctx := context.Background()
	for i := range c.Nodes() {
		if err := testClient(t, c.NodeAddr(i)).Set(ctx, "lock", "tok", time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
		if err := testClient(t, c.NodeAddr(i)).ScriptLoad(ctx, leftScript).Err(); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.Link("w1", 0).Cut(CutDrop, DirBoth))
	must(c.Link("w1", 1).Cut(CutRefuse, DirBoth))
	must(c.Link("w2", 0).AddLatency(50*time.Millisecond, 0))
	must(c.Link("w2", 1).Reset())
}

// leftScript is a script a run loaded: a reset node no longer knows it.
const leftScript = "return 1"

// checkFresh asserts that c looks like a freshly started cluster.
func checkFresh(t *testing.T, c *Cluster) {
	t.Helper()
	ctx := context.Background()
	for _, l := range c.Links() {
		if ts := l.Toxics(); len(ts) != 0 {
			t.Errorf("link %s still has %v", l.Name(), ts)
		}
		rc := testClient(t, l.Addr())
		if err := eventually(settle, func() error { return rc.Ping(ctx).Err() }); err != nil {
			t.Errorf("link %s: %v", l.Name(), err)
		}
	}
	for i, n := range c.Nodes() {
		if n.State() != StateRunning {
			t.Errorf("node %s is %s", n.Name(), n.State())
		}
		if k, err := testClient(t, c.NodeAddr(i)).DBSize(ctx).Result(); err != nil || k != 0 {
			t.Errorf("node %s: %d keys, %v", n.Name(), k, err)
		}
		known, err := testClient(t, c.NodeAddr(i)).ScriptExists(ctx, redis.NewScript(leftScript).Hash()).Result()
		if err != nil || len(known) != 1 || known[0] {
			t.Errorf("node %s still knows the last run's script: %v, %v", n.Name(), known, err)
		}
	}
}

func TestReset(t *testing.T) {
	for _, b := range backendCases {
		t.Run(b.name, func(t *testing.T) {
			c := startCluster(t, Options{Backend: b.backend, Nodes: 2, Clients: []string{"w1", "w2"}})
			dirty(t, c)
			if err := c.Node(0).Pause(); err != nil {
				t.Fatal(err)
			}
			if err := c.Node(1).Kill(); err != nil {
				t.Fatal(err)
			}
			if err := c.Reset(context.Background()); err != nil {
				t.Fatal(err)
			}
			checkFresh(t, c)
			if !c.Fits(Options{Backend: b.backend, Nodes: 2, Clients: []string{"w1", "w2"}}) {
				t.Error("Fits: same shape does not fit")
			}
			if c.Fits(Options{Nodes: 2, Clients: []string{"w1"}}) || c.Fits(Options{Nodes: 1, Clients: []string{"w1", "w2"}}) ||
				c.Fits(Options{Nodes: 2, Clients: []string{"w1", "w2"}, Persistence: PersistenceAOFAlways}) {
				t.Error("Fits: other shape fits")
			}
			if !c.Fits(Options{Backend: b.backend, Nodes: 2, Clients: []string{"w1", "w2"}, SaveInterval: 60 * time.Second, PowerLossWindow: time.Second}) {
				t.Error("Fits: the default periods written out do not fit")
			}
		})
	}
}

// A reused node runs its background job at the period it started with:
// snapshot-kept-lock (save every 2 s of scenario time) before
// snapshot-lost-lock (every 60 s) on one worker, the second must not
// snapshot at the first one's pace. A node with neither job fits any
// periods: scenarios at other time scales share it.
func TestAClusterFitsOtherPeriodsOnlyWhenNoNodeRunsThem(t *testing.T) {
	requireBackend(t, BackendLocal)
	otherSave := Options{SaveInterval: 200 * time.Millisecond}
	otherWindow := Options{PowerLossWindow: 50 * time.Millisecond}
	tests := []struct {
		name        string
		persistence string
		perNode     map[string]string
		other       Options
		fits        bool
	}{
		{"a cluster without persistence fits another save interval", PersistenceNone, nil, otherSave, true},
		{"a cluster without persistence fits another power-loss window", PersistenceNone, nil, otherWindow, true},
		{"an aof-always cluster fits another save interval", PersistenceAOFAlways, nil, otherSave, true},
		{"an rdb cluster does not fit another save interval", PersistenceRDB, nil, otherSave, false},
		{"an rdb cluster fits another power-loss window", PersistenceRDB, nil, otherWindow, true},
		{"an aof-everysec cluster does not fit another power-loss window", PersistenceAOFEverysec, nil, otherWindow, false},
		{"an aof-everysec cluster fits another save interval", PersistenceAOFEverysec, nil, otherSave, true},
		{"one rdb node is enough for the save interval to matter", PersistenceNone, map[string]string{"n2": PersistenceRDB}, otherSave, false},
		{"one aof-everysec node is enough for the window to matter", PersistenceNone, map[string]string{"n2": PersistenceAOFEverysec}, otherWindow, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Options{Backend: BackendLocal, Nodes: 2, Clients: []string{"w1"}, Persistence: tt.persistence, NodePersistence: tt.perNode}
			c := startCluster(t, o)
			other := o
			other.SaveInterval, other.PowerLossWindow = tt.other.SaveInterval, tt.other.PowerLossWindow
			if got := c.Fits(other); got != tt.fits {
				t.Errorf("Fits = %v, want %v", got, tt.fits)
			}
			if !c.Fits(o) {
				t.Error("Fits: its own options do not fit")
			}
		})
	}
}

// startToxiproxyServer runs toxiproxy's API server (the same code as the
// toxiproxy binary) in this process on a free loopback port.
func startToxiproxyServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	srv := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	go srv.Listen("127.0.0.1", strconv.Itoa(port))
	addr := "127.0.0.1:" + strconv.Itoa(port)
	if err := eventually(5*time.Second, func() error {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return addr
}

func TestExternalBackend(t *testing.T) {
	// Stand-ins for existing nodes: a local cluster's redis-servers.
	stand := startCluster(t, Options{Backend: BackendLocal, Nodes: 2, Clients: []string{"x"}})
	api := startToxiproxyServer(t)
	pid := strconv.Itoa(stand.Node(1).PID())
	ext := &External{
		Nodes:     []string{stand.NodeAddr(0), stand.NodeAddr(1)},
		Toxiproxy: api,
		Commands: map[string]NodeCommands{"n2": {
			Pause: []string{"kill", "-STOP", pid}, Resume: []string{"kill", "-CONT", pid},
		}},
	}
	o := Options{Backend: BackendExternal, Nodes: 2, Clients: []string{"w1", "w2"}, External: ext}
	c := startCluster(t, o)
	if c.Backend() != BackendExternal || c.RedisVersion() == "" {
		t.Errorf("backend %q version %q", c.Backend(), c.RedisVersion())
	}
	ctx := context.Background()
	w1n1 := cutClient(t, c.LinkAddr("w1", 0))
	if err := eventually(settle, func() error { return w1n1.Set(ctx, "k", "v", 0).Err() }); err != nil {
		t.Fatalf("through the external proxy: %v", err)
	}
	if err := c.Link("w1", 0).Cut(CutDrop, DirBoth); err != nil {
		t.Fatal(err)
	}
	if err := w1n1.Get(ctx, "k").Err(); !isTimeout(err) {
		t.Errorf("cut link: got %v, want a timeout", err)
	}
	if err := c.Node(0).Kill(); err == nil {
		t.Error("kill without a kill command: no error")
	}
	if err := c.Node(0).ShiftClock(ctx, time.Second); err != nil {
		t.Error(err)
	}
	dirty(t, c)
	if err := c.Node(1).Pause(); err != nil {
		t.Fatal(err)
	}
	if c.Node(1).State() != StatePaused {
		t.Errorf("n2 state %s", c.Node(1).State())
	}
	if err := c.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	checkFresh(t, c)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	// Our proxies are gone from the server; the nodes still run.
	if err := testClient(t, stand.NodeAddr(0)).Ping(ctx).Err(); err != nil {
		t.Errorf("external node after Close: %v", err)
	}
	if rc := testClient(t, c.LinkAddr("w1", 0)); rc.Ping(ctx).Err() == nil {
		t.Error("proxy still answers after Close")
	}
}

func TestASaveWaitsForTheSnapshotInProgress(t *testing.T) {
	requireBackend(t, BackendLocal)
	ctx := context.Background()
	c := startCluster(t, Options{Backend: BackendLocal, Nodes: 1, Clients: []string{"w1"}, Persistence: PersistenceRDB})
	admin := c.Node(0).impl.(*localNode).admin
	for i := range 5 {
		if err := admin.Set(ctx, fmt.Sprint("k", i), "v", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	// Redis's own testing knob: each key costs the snapshot 40 ms, so the
	// BGSAVE is still running when the SAVE comes.
	if err := admin.ConfigSet(ctx, "rdb-key-save-delay", "40000").Err(); err != nil {
		t.Fatal(err)
	}
	defer admin.ConfigSet(ctx, "rdb-key-save-delay", "0")
	if err := admin.BgSave(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if err := admin.Save(ctx).Err(); err == nil || !strings.Contains(err.Error(), "in progress") {
		t.Fatalf("a plain SAVE during the BGSAVE: %v, want Redis's 'in progress' refusal (the case to handle)", err)
	}
	if err := saveWhenIdle(ctx, admin); err != nil {
		t.Errorf("saveWhenIdle: %v", err)
	}
}
