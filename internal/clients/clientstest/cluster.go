// Package clientstest is the conformance suite every [clients.Locker] must
// pass — the built-in algorithms and each third-party adapter — against real
// Redis (or emulated Redis when redis-server is missing outside CI), with
// every connection going through locksim's toxiproxy links.
//
//	func TestMyLock(t *testing.T) {
//		clientstest.Run(t, func(c clients.Config) (clients.Locker, error) {
//			return NewMyLock(c), nil
//		}, clientstest.Expect{})
//	}
package clientstest

import (
	"context"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/lock"
)

// Factory builds one client's Locker from its Config. cfg.Nodes reach the
// cluster through that client's own proxies.
type Factory func(cfg clients.Config) (clients.Locker, error)

// Algorithm is the Factory of a named algorithm of package clients.
func Algorithm(name string) Factory {
	return func(cfg clients.Config) (clients.Locker, error) { return clients.New(name, cfg) }
}

// Cluster is a test cluster: redis nodes, one toxiproxy link per client ×
// node, and go-redis clients over those links. Everything is closed when
// the test that started it ends. Methods that can fail take the (sub)test
// to fail.
type Cluster struct {
	*cluster.Cluster
	t     testing.TB
	names []string
	seeds atomic.Uint64

	mu     sync.Mutex
	direct map[int]*redis.Client
}

// commandTimeout bounds one Redis command of a suite client, as the runner
// bounds its clients' commands.
const commandTimeout = 500 * time.Millisecond

// Backend is the backend tests that need Redis run on: "local" (real
// redis-server) when it is on PATH, else "embedded" (miniredis, emulated
// Redis, said in the test log); under CI=true a missing redis-server fails
// the test instead.
func Backend(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err == nil {
		return cluster.BackendLocal
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("redis-server is not on PATH and CI=true: tests must run on real Redis")
	}
	t.Log("redis-server not on PATH: running on the embedded backend (emulated Redis)")
	return cluster.BackendEmbedded
}

// StartCluster starts nodes Redis nodes and links for clients w1..wN. It uses
// real redis-server when it is on PATH and embedded miniredis otherwise;
// under CI=true a missing redis-server fails the test instead.
func StartCluster(t testing.TB, nodes, n int) *Cluster {
	t.Helper()
	backend := Backend(t)
	names := make([]string, n)
	for i := range names {
		names[i] = "w" + strconv.Itoa(i+1) // the scenario's client names
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	cl, err := cluster.Start(ctx, cluster.Options{Backend: backend, Nodes: nodes, Clients: names})
	if err != nil {
		t.Fatalf("start a %d-node cluster: %v", nodes, err)
	}
	t.Cleanup(func() {
		if err := cl.Close(); err != nil {
			t.Errorf("close cluster: %v", err)
		}
	})
	return &Cluster{Cluster: cl, t: t, names: names}
}

// Client opens a go-redis client to addr configured like the runner's
// clients (no retries, bounded commands, RESP2), closed at test end.
func (c *Cluster) Client(addr string) *redis.Client {
	rc := redis.NewClient(&redis.Options{
		Addr: addr, Protocol: 2, MaxRetries: -1,
		DialTimeout: commandTimeout, ReadTimeout: commandTimeout, WriteTimeout: commandTimeout,
		ContextTimeoutEnabled: true, PoolSize: 4, DisableIdentity: true, DialerRetries: 1,
	})
	c.t.Cleanup(func() { _ = rc.Close() })
	return rc
}

// Nodes returns client i's (0-based) view of the nodes: one go-redis client
// per node through that client's own proxy.
func (c *Cluster) Nodes(i int) []clients.Node {
	var out []clients.Node
	for n, name := range c.NodeNames() {
		addr := c.LinkAddr(c.names[i], n)
		out = append(out, clients.Node{Name: name, Cmd: c.Client(addr), Addr: addr,
			ConnName: "locksim:" + c.names[i] + ":" + name})
	}
	return out
}

// nodeTimeout is the per-node timeout of multi-node algorithms under test:
// long enough that a loaded machine's scheduling rarely makes a node miss
// it (the suite treats a timeout as the unknown outcome it is, and tries
// again), short enough that a silent node costs an attempt little.
const nodeTimeout = 250 * time.Millisecond

// Config is client i's Config: its proxied nodes, ttl, a random source with
// a seed of its own (no two Configs draw the same tokens), and a per-node
// timeout of 250 ms for multi-node algorithms.
func (c *Cluster) Config(i int, ttl time.Duration) clients.Config {
	seed := c.seeds.Add(1)
	return clients.Config{Config: lock.Config{
		Client: c.names[i], Nodes: c.Nodes(i), TTL: ttl, NodeTimeout: nodeTimeout,
		CommandTimeout: commandTimeout,
		Rand:           rand.New(rand.NewPCG(uint64(i+1), seed)),
	}, Seed: seed}
}

// Locker builds client i's Locker with f and ttl, failing the test on error.
// A Locker that is an io.Closer (a lock client process) is closed when the
// test ends.
func (c *Cluster) Locker(t testing.TB, f Factory, i int, ttl time.Duration) clients.Locker {
	t.Helper()
	l, err := f(c.Config(i, ttl))
	if err != nil {
		t.Fatalf("build client %s's locker: %v", c.names[i], err)
	}
	if cl, ok := l.(io.Closer); ok {
		t.Cleanup(func() { _ = cl.Close() })
	}
	return l
}

// Lockers builds one Locker per client with f and ttl.
func (c *Cluster) Lockers(t testing.TB, f Factory, ttl time.Duration) []clients.Locker {
	t.Helper()
	out := make([]clients.Locker, len(c.names))
	for i := range out {
		out[i] = c.Locker(t, f, i, ttl)
	}
	return out
}

// observeTimeout bounds one command of a Direct client. Those observe the
// nodes for the test and are no part of what is tested, so a loaded
// machine must not make them fail.
const observeTimeout = 5 * time.Second

// Direct returns a client to node i that bypasses every proxy, for
// observing keys; its commands have generous timeouts.
func (c *Cluster) Direct(node int) *redis.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.direct == nil {
		c.direct = map[int]*redis.Client{}
	}
	if c.direct[node] == nil {
		rc := redis.NewClient(&redis.Options{
			Addr: c.NodeAddr(node), Protocol: 2, MaxRetries: -1,
			DialTimeout: observeTimeout, ReadTimeout: observeTimeout, WriteTimeout: observeTimeout,
			PoolSize: 2, DisableIdentity: true,
		})
		c.t.Cleanup(func() { _ = rc.Close() })
		c.direct[node] = rc
	}
	return c.direct[node]
}

// Values returns the value of key on every node ("" when absent), read
// directly.
func (c *Cluster) Values(t testing.TB, key string) []string {
	t.Helper()
	out := make([]string, len(c.NodeNames()))
	for i := range out {
		ctx, cancel := context.WithTimeout(context.Background(), observeTimeout)
		v, err := c.Direct(i).Get(ctx, key).Result()
		cancel()
		if err != nil && err != redis.Nil {
			t.Fatalf("read %s on node %d directly: %v", key, i, err)
		}
		out[i] = v
	}
	return out
}

// Heal undoes every fault, failing the test on error.
func (c *Cluster) Heal(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.HealAll(ctx); err != nil {
		t.Fatalf("heal: %v", err)
	}
}
