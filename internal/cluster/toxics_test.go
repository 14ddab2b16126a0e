package cluster

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"
)

// rawConn is a plain TCP connection through a link, for reading a reply
// byte by byte.
func rawConn(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, settle)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	_ = c.SetDeadline(time.Now().Add(settle))
	return c
}

// TestEveryToxicHasItsEffectOnARealLink puts each toxiproxy toxic on one
// client's link to a real redis-server and measures what it does to that
// link. Times are lower bounds only: a loaded machine can make them
// longer, never shorter.
func TestEveryToxicHasItsEffectOnARealLink(t *testing.T) {
	ctx := context.Background()
	c := startCluster(t, Options{Backend: BackendLocal, Nodes: 1, Clients: []string{"w1"}})
	direct := testClient(t, c.NodeAddr(0))
	if err := direct.Set(ctx, "big", strings.Repeat("x", 4096), 0).Err(); err != nil {
		t.Fatal(err)
	}
	l := c.Link("w1", 0)
	tests := []struct {
		name    string
		typ     string
		stream  string
		attrs   map[string]any
		measure func(t *testing.T)
	}{
		{"bandwidth holds a 4 KB reply to 8 KB/s: it takes at least a third of a second", "bandwidth", StreamDownstream,
			map[string]any{"rate": 8}, func(t *testing.T) {
				t0 := time.Now()
				if err := testClient(t, l.Addr()).Get(ctx, "big").Err(); err != nil {
					t.Fatal(err)
				}
				if d := time.Since(t0); d < 330*time.Millisecond {
					t.Errorf("GET of 4 KB took %v at 8 KB/s", d)
				}
			}},
		{"slicer cuts a 4 KB reply into 64-byte slices 2 ms apart: at least 60 gaps", "slicer", StreamDownstream,
			map[string]any{"average_size": 64, "size_variation": 0, "delay": 2000}, func(t *testing.T) {
				t0 := time.Now()
				if err := testClient(t, l.Addr()).Get(ctx, "big").Err(); err != nil {
					t.Fatal(err)
				}
				if d := time.Since(t0); d < 120*time.Millisecond {
					t.Errorf("GET of 4 KB in 64-byte slices took %v", d)
				}
			}},
		{"limit_data closes the connection once 100 bytes of the reply went through", "limit_data", StreamDownstream,
			map[string]any{"bytes": 100}, func(t *testing.T) {
				rc := rawConn(t, l.Addr())
				if _, err := rc.Write([]byte("GET big\r\n")); err != nil {
					t.Fatal(err)
				}
				b, err := io.ReadAll(rc)
				if err != nil && !errors.Is(err, syscall.ECONNRESET) {
					t.Fatalf("read: %v", err)
				}
				if len(b) != 100 {
					t.Errorf("read %d bytes before the close, want 100", len(b))
				}
			}},
		{"slow_close delays the close of a connection Redis closed by 300 ms", "slow_close", StreamDownstream,
			map[string]any{"delay": 300}, func(t *testing.T) {
				rc := rawConn(t, l.Addr())
				if _, err := rc.Write([]byte("QUIT\r\n")); err != nil {
					t.Fatal(err)
				}
				r := bufio.NewReader(rc)
				if line, err := r.ReadString('\n'); err != nil || line != "+OK\r\n" {
					t.Fatalf("QUIT answered %q, %v", line, err)
				}
				t0 := time.Now()
				if _, err := r.ReadByte(); err == nil {
					t.Fatal("data after QUIT's reply")
				}
				if d := time.Since(t0); d < 290*time.Millisecond {
					t.Errorf("the close arrived %v after QUIT's reply, want ≥ 300 ms", d)
				}
			}},
		{"timeout with 300 ms drops the request and closes the connection after 300 ms", "timeout", StreamUpstream,
			map[string]any{"timeout": 300}, func(t *testing.T) {
				rc := rawConn(t, l.Addr())
				t0 := time.Now()
				if _, err := rc.Write([]byte("SET dropped 1\r\n")); err != nil {
					t.Fatal(err)
				}
				if _, err := rc.Read(make([]byte, 16)); err == nil {
					t.Fatal("a reply came through a timeout toxic")
				}
				if d := time.Since(t0); d < 290*time.Millisecond {
					t.Errorf("the connection closed after %v, want ≥ 300 ms", d)
				}
				if n, err := direct.Exists(ctx, "dropped").Result(); err != nil || n != 0 {
					t.Errorf("the dropped SET ran (exists %d, %v)", n, err)
				}
			}},
		{"reset_peer with 300 ms resets the connection 300 ms after its data started", "reset_peer", StreamUpstream,
			map[string]any{"timeout": 300}, func(t *testing.T) {
				rc := rawConn(t, l.Addr())
				t0 := time.Now()
				if _, err := rc.Write([]byte("PING\r\n")); err != nil {
					t.Fatal(err)
				}
				var err error
				for err == nil {
					_, err = rc.Read(make([]byte, 16))
				}
				if d := time.Since(t0); d < 290*time.Millisecond {
					t.Errorf("reset after %v, want ≥ 300 ms", d)
				}
				if !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, io.EOF) {
					t.Errorf("read error %v, want a reset", err)
				}
			}},
		{"latency on the upstream delays the request: Redis runs it at least 300 ms after it was sent", "latency", StreamUpstream,
			map[string]any{"latency": 300, "jitter": 0}, func(t *testing.T) {
				sent := time.Now()
				ran := serverTime(t, l.Addr())
				if d := ran.Sub(sent); d < 290*time.Millisecond {
					t.Errorf("Redis ran the command %v after it was sent, want ≥ 300 ms", d)
				}
			}},
		{"latency on the downstream delays the reply: it arrives at least 300 ms after Redis ran the command", "latency", StreamDownstream,
			map[string]any{"latency": 300, "jitter": 0}, func(t *testing.T) {
				ran := serverTime(t, l.Addr())
				if d := time.Since(ran); d < 290*time.Millisecond {
					t.Errorf("the reply arrived %v after Redis ran the command, want ≥ 300 ms", d)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := l.AddToxic("t", tt.typ, tt.stream, 1, 0, tt.attrs); err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := l.RemoveToxic("t"); err != nil {
					t.Error(err)
				}
			}()
			tt.measure(t)
		})
	}
}

// serverTime runs one command through addr that returns the node's clock
// when it ran (Redis and this test read the same machine clock).
func serverTime(t *testing.T, addr string) time.Time {
	t.Helper()
	v, err := testClient(t, addr).Eval(context.Background(), "local t = redis.call('TIME') return t[1] * 1000000 + t[2]", nil).Int64()
	if err != nil {
		t.Fatal(err)
	}
	return time.UnixMicro(v)
}

// TestToxicityIsASeededDrawPerConnection opens connections one after the
// other through a link whose reset toxic has toxicity 0.5: some are
// reset, some not, and the same seed resets the same ones again.
func TestToxicityIsASeededDrawPerConnection(t *testing.T) {
	c := startCluster(t, Options{Backend: BackendLocal, Nodes: 1, Clients: []string{"w1", "w2"}})
	pattern := func(l *Link, seed uint64) string {
		if err := l.AddToxic("r", "reset_peer", StreamUpstream, 0.5, seed, map[string]any{"timeout": 0}); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = l.RemoveToxic("r") }()
		var b strings.Builder
		for range 24 {
			rc := rawConn(t, l.Addr())
			_, _ = rc.Write([]byte("PING\r\n"))
			line, err := bufio.NewReader(rc).ReadString('\n')
			if err == nil && line == "+PONG\r\n" {
				b.WriteByte('.')
			} else {
				b.WriteByte('R')
			}
			_ = rc.Close()
		}
		return b.String()
	}
	first := pattern(c.Link("w1", 0), 7)
	t.Run("about half the connections get the toxic", func(t *testing.T) {
		if n := strings.Count(first, "R"); n == 0 || n == len(first) {
			t.Errorf("resets %q: want some connections reset and some not", first)
		}
	})
	t.Run("the same seed draws the same connections on another link", func(t *testing.T) {
		if again := pattern(c.Link("w2", 0), 7); again != first {
			t.Errorf("seed 7 gave %q, then %q", first, again)
		}
	})
}
