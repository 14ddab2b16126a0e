package observe_test

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/observe"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		name, line string
		addr       string
		args       []string
		bad        bool
	}{
		{"a client's SET is read with its address and arguments",
			`1701417600.123456 [0 127.0.0.1:53530] "SET" "invoice-1" "tok" "NX" "PX" "600"`,
			"127.0.0.1:53530", []string{"SET", "invoice-1", "tok", "NX", "PX", "600"}, false},
		{"a command inside a script is marked lua", `1701417600.123470 [0 lua] "del" "invoice-1"`, "lua", []string{"del", "invoice-1"}, false},
		{"quotes, backslashes and control bytes are unquoted", `1.5 [0 127.0.0.1:1] "set" "a \"b\" \\ c" "\x00\n\t"`,
			"127.0.0.1:1", []string{"set", `a "b" \ c`, "\x00\n\t"}, false},
		{"a unix socket address is kept", `2.0 [3 unix:/tmp/r.sock] "ping"`, "unix:/tmp/r.sock", []string{"ping"}, false},
		{"a line without a closing quote is refused", `2.0 [0 127.0.0.1:1] "set" "a`, "", nil, true},
		{"a line without an address is refused", `2.0 [0] "ping"`, "", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := observe.ParseLine(tt.line)
			if tt.bad {
				if err == nil {
					t.Fatalf("parsed %+v, want an error", l)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if l.Addr != tt.addr || !slices.Equal(l.Args, tt.args) {
				t.Errorf("got %q %q, want %q %q", l.Addr, l.Args, tt.addr, tt.args)
			}
		})
	}
	t.Run("the timestamp keeps its microseconds", func(t *testing.T) {
		l, err := observe.ParseLine(`1701417600.000042 [0 lua] "get" "k"`)
		if err != nil {
			t.Fatal(err)
		}
		if l.Time.Unix() != 1701417600 || l.Time.Nanosecond() != 42000 {
			t.Errorf("time %v", l.Time)
		}
	})
}

func TestObserverRecordsWhatTheNodeExecuted(t *testing.T) {
	ctx := context.Background()
	cl := oneNode(t, "")
	rec := history.NewRecorder(time.Now())
	o, err := observe.Start(ctx, "n1", cl.NodeAddr(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	o.Begin(rec.Log(), rec.Start())
	w1 := redis.NewClient(&redis.Options{Addr: cl.NodeAddr(0), Protocol: 2, DisableIdentity: true, Dialer: observe.Dialer(observe.ClientName("w1", "n1"), time.Second)})
	defer w1.Close()
	anon := redis.NewClient(&redis.Options{Addr: cl.NodeAddr(0), Protocol: 2, DisableIdentity: true})
	defer anon.Close()
	if err := w1.SetNX(ctx, "invoice-1", "tok", time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	const cad = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`
	if err := w1.Eval(ctx, cad, []string{"invoice-1"}, "tok").Err(); err != nil {
		t.Fatal(err)
	}
	if err := anon.Get(ctx, "other").Err(); err != redis.Nil {
		t.Fatal(err)
	}
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := o.Drain(dctx); err != nil {
		t.Fatal(err)
	}
	o.Stop()
	var got []string
	for _, op := range rec.Ops() {
		if op.F != history.NodeCmd || op.Value.Node != "n1" {
			t.Fatalf("unexpected op %+v", op)
		}
		if c := strings.ToLower(op.Value.Cmd[0]); c == "hello" || c == "client" || c == "ping" {
			continue // connection set-up
		}
		s := op.Client + ":" + strings.ToLower(strings.Join(op.Value.Cmd, " "))
		if op.Value.Lua {
			s = "lua " + s
		}
		if op.Invoke < 0 || op.Invoke != op.Complete {
			t.Errorf("op %q at [%d, %d]: want one instant on the run's clock", s, op.Invoke, op.Complete)
		}
		got = append(got, s)
	}
	want := []string{
		"w1:set invoice-1 tok ex 1 nx",
		"w1:eval sha1:", // the script's source is recorded as its SHA1
		"lua w1:get invoice-1",
		"lua w1:del invoice-1",
		":get other",
	}
	if len(got) != len(want) {
		t.Fatalf("recorded\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("event %d: %q, want %q", i, got[i], want[i])
		}
	}
}

func TestADialedConnectionIsNamedAndWorksAsUsual(t *testing.T) {
	cl := oneNode(t, "")
	c := redis.NewClient(&redis.Options{Addr: cl.NodeAddr(0), Protocol: 2, DisableIdentity: true, Dialer: observe.Dialer(observe.ClientName("w1", "n1"), time.Second)})
	defer c.Close()
	ctx := context.Background()
	for i := range 3 {
		name, err := c.ClientGetName(ctx).Result()
		if err != nil || name != "locksim:w1:n1" {
			t.Fatalf("call %d: CLIENT GETNAME = %q, %v; want locksim:w1:n1", i, name, err)
		}
		if err := c.Set(ctx, "k", "v", 0).Err(); err != nil {
			t.Fatalf("SET after the name: %v", err)
		}
	}
}

func TestADialedConnectionSurvivesARestartedNode(t *testing.T) {
	ctx := context.Background()
	cl := oneNode(t, "")
	// MaxRetries -1, as the runner's clients: a dead pooled connection must
	// be found by the pool's health check, not by a failed command.
	c := redis.NewClient(&redis.Options{Addr: cl.NodeAddr(0), Protocol: 2, DisableIdentity: true, MaxRetries: -1,
		Dialer: observe.Dialer(observe.ClientName("w1", "n1"), time.Second)})
	defer c.Close()
	if err := c.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	n := cl.Node(0)
	if err := n.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := n.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Set(ctx, "k", "v2", 0).Err(); err != nil {
		t.Errorf("the first command after the node restarted: %v (the pool reused the dead connection)", err)
	}
}

func TestAfterARestartTheObserverRecordsWhatTheNodeCameBackWith(t *testing.T) {
	ctx := context.Background()
	cl := oneNode(t, cluster.PersistenceAOFAlways)
	rec := history.NewRecorder(time.Now())
	o, err := observe.Start(ctx, "n1", cl.NodeAddr(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	o.Begin(rec.Log(), rec.Start())
	defer o.Stop()
	c := redis.NewClient(&redis.Options{Addr: cl.NodeAddr(0), Protocol: 2, DisableIdentity: true, MaxRetries: -1,
		Dialer: observe.Dialer(observe.ClientName("w1", "n1"), time.Second)})
	defer c.Close()
	if err := c.Set(ctx, "invoice-1", "tok", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Set(ctx, "fence", "3", 0).Err(); err != nil {
		t.Fatal(err)
	}
	n := cl.Node(0)
	if err := n.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := n.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	var held *history.Op
	for deadline := time.Now().Add(20 * time.Second); held == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, op := range rec.Ops() {
			if op.F == history.NodeHeld {
				held = &op
				break
			}
		}
	}
	if held == nil {
		t.Fatal("no node-held event after the node restarted")
	}
	got := map[string]history.HeldKey{}
	for _, k := range held.Value.Held {
		got[k.Key] = k
	}
	if k := got["invoice-1"]; k.Value != "tok" || k.TTL <= 0 || k.TTL > int64(time.Minute) {
		t.Errorf("invoice-1 came back as %+v, want value tok with a TTL of at most a minute", k)
	}
	if k := got["fence"]; k.Value != "3" || k.TTL != -1 {
		t.Errorf("fence came back as %+v, want value 3 with no TTL", k)
	}
	if held.Invoke != held.Complete || held.Value.Node != "n1" {
		t.Errorf("node-held event %+v: want one instant on n1", *held)
	}
}

func TestAnObserverRecordsOnlyOnceBegunAndStopsEvenIfNever(t *testing.T) {
	ctx := context.Background()
	cl := oneNode(t, "")
	w1 := redis.NewClient(&redis.Options{Addr: cl.NodeAddr(0), Protocol: 2, DisableIdentity: true, Dialer: observe.Dialer(observe.ClientName("w1", "n1"), time.Second)})
	defer w1.Close()
	t.Run("a command run before Begin is recorded at the run's time zero", func(t *testing.T) {
		o, err := observe.Start(ctx, "n1", cl.NodeAddr(0), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := w1.Set(ctx, "before", "1", 0).Err(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond) // the clock starts after the SET ran
		rec := history.NewRecorder(time.Now())
		o.Begin(rec.Log(), rec.Start())
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := o.Drain(dctx); err != nil {
			t.Fatal(err)
		}
		o.Stop()
		found := false
		for _, op := range rec.Ops() {
			if op.F == history.NodeCmd && strings.EqualFold(op.Value.Cmd[0], "set") {
				found = true
				if op.Invoke != 0 {
					t.Errorf("the SET run before the clock started is at %d ns, want 0", op.Invoke)
				}
			}
		}
		if !found {
			t.Error("the SET run between Start and Begin was not recorded")
		}
	})
	t.Run("an observer never begun stops", func(t *testing.T) {
		o, err := observe.Start(ctx, "n1", cl.NodeAddr(0), nil)
		if err != nil {
			t.Fatal(err)
		}
		stopped := make(chan struct{})
		go func() { o.Stop(); close(stopped) }()
		select {
		case <-stopped:
		case <-time.After(10 * time.Second):
			t.Fatal("Stop of an observer never begun did not return")
		}
	})
}

// oneNode starts one local redis-server with persistence ("" for none),
// closed when t ends; t is skipped without redis-server on PATH (MONITOR
// needs the real thing).
func oneNode(t *testing.T, persistence string) *cluster.Cluster {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server not on PATH: MONITOR needs the real thing")
	}
	cl, err := cluster.Start(context.Background(), cluster.Options{Backend: cluster.BackendLocal, Nodes: 1, Clients: []string{"w1"},
		Persistence: persistence})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	return cl
}
