package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os/exec"
	"strings"
	"time"

	toxiclient "github.com/Shopify/toxiproxy/v2/client"
	"github.com/redis/go-redis/v9"
)

// BackendExternal runs against existing Redis nodes and an existing
// toxiproxy server (the docker-compose.yml stack, or real hosts), given by
// address in Options.External.
const BackendExternal = "external"

// External configures the external backend.
type External struct {
	// Nodes are the Redis nodes' "host:port" as locksim reaches them
	// directly (harness only: FLUSHALL, clock shifts, version). A run uses
	// the first Options.Nodes of them, named n1, n2, ….
	Nodes []string
	// Upstreams are the same nodes as the toxiproxy server reaches them
	// (e.g. container names); empty means Nodes.
	Upstreams []string
	// Toxiproxy is the toxiproxy server's API "host:port" (default port
	// 8474).
	Toxiproxy string
	// ProxyHost is the host the proxies listen on, as toxiproxy binds it
	// and locksim dials it; "" = 127.0.0.1. Ports are chosen by the kernel.
	ProxyHost string
	// Commands are per-node fault commands by node name ("n3"), each an
	// argument list run without a shell, e.g. {"docker", "compose", "kill",
	// "redis-3"}. A node fault without its command fails with an error.
	Commands map[string]NodeCommands
	// ReadyTimeout bounds the wait for a restarted node to answer INFO server;
	// 0 = 20 s.
	ReadyTimeout time.Duration
}

// NodeCommands are the argument lists that crash, restart, pause and
// resume one external node.
type NodeCommands struct {
	Kill    []string `yaml:"kill" json:"kill,omitempty"`
	Restart []string `yaml:"restart" json:"restart,omitempty"`
	Pause   []string `yaml:"pause" json:"pause,omitempty"`
	Resume  []string `yaml:"resume" json:"resume,omitempty"`
}

// externalEnv is the shared state of an external cluster.
type externalEnv struct {
	cfg    External
	client *toxiclient.Client
}

// proxyPrefix starts the name of every proxy locksim creates on an
// external toxiproxy server, so that they are told from others.
const proxyPrefix = "locksim-"

func newExternalEnv(o Options) (*externalEnv, error) {
	e := o.External
	if e == nil || len(e.Nodes) == 0 {
		return nil, errors.New("backend external: no node addresses (--redis-addrs or cluster.nodes)")
	}
	if o.Nodes > len(e.Nodes) {
		return nil, fmt.Errorf("backend external: scenario needs %d nodes, %d given", o.Nodes, len(e.Nodes))
	}
	if len(e.Upstreams) != 0 && len(e.Upstreams) != len(e.Nodes) {
		return nil, fmt.Errorf("backend external: %d upstreams for %d nodes", len(e.Upstreams), len(e.Nodes))
	}
	if e.Toxiproxy == "" {
		return nil, errors.New("backend external: no toxiproxy address (--toxiproxy or cluster.toxiproxy)")
	}
	api := e.Toxiproxy
	if !strings.Contains(api, ":") {
		api += ":8474"
	}
	if !strings.HasPrefix(api, "http://") && !strings.HasPrefix(api, "https://") {
		api = "http://" + api
	}
	cfg := *e
	if cfg.ProxyHost == "" {
		cfg.ProxyHost = "127.0.0.1"
	}
	if cfg.ReadyTimeout <= 0 {
		cfg.ReadyTimeout = 20 * time.Second
	}
	return &externalEnv{cfg: cfg, client: toxiclient.NewClient(api)}, nil
}

func (e *externalEnv) upstream(i int) string {
	if len(e.cfg.Upstreams) > 0 {
		return e.cfg.Upstreams[i]
	}
	return e.cfg.Nodes[i]
}

// newAPILink creates the proxy "locksim-<client>-<node>" on the toxiproxy
// server (replacing a stale one of the same name), listening on
// ProxyHost with a kernel-chosen port.
func (e *externalEnv) newAPILink(client string, n *Node) (*Link, error) {
	name := client + "-" + n.name
	pname := proxyPrefix + name
	if old, err := e.client.Proxy(pname); err == nil {
		_ = old.Delete()
	}
	p, err := e.client.CreateProxy(pname, net.JoinHostPort(e.cfg.ProxyHost, "0"), e.upstream(n.index))
	if err != nil {
		return nil, fmt.Errorf("create proxy %s on toxiproxy %s: %w", pname, e.cfg.Toxiproxy, err)
	}
	return &Link{client: client, node: n, name: name, px: apiProxy{p}, addr: p.Listen, toxics: map[string]bool{}}, nil
}

// apiProxy is a proxy on a toxiproxy server, driven through its HTTP API.
type apiProxy struct{ p *toxiclient.Proxy }

func (ap apiProxy) addToxic(name, typ, stream string, toxicity float64, attrs map[string]any) error {
	_, err := ap.p.AddToxic(name, typ, stream, float32(toxicity), toxiclient.Attributes(attrs))
	return err
}

func (ap apiProxy) removeToxic(name string) error {
	err := ap.p.RemoveToxic(name)
	if err != nil && strings.Contains(err.Error(), "HTTP 404") {
		return nil
	}
	return err
}

func (ap apiProxy) disable() error { return ap.p.Disable() }
func (ap apiProxy) enable() error  { return ap.p.Enable() }
func (ap apiProxy) stop()          { _ = ap.p.Delete() }

// externalNode is an existing Redis node; crash, restart, pause and resume
// run the configured commands.
type externalNode struct {
	name     string
	address  string
	cmds     NodeCommands
	ready    time.Duration
	log      *slog.Logger
	down     bool
	paused   bool
	admin    *redis.Client
	external string // "external node n3 (127.0.0.1:7003)", for errors
}

func newExternalNode(name, addr string, cmds NodeCommands, ready time.Duration, log *slog.Logger) *externalNode {
	return &externalNode{name: name, address: addr, cmds: cmds, ready: ready, log: log,
		external: fmt.Sprintf("external node %s (%s)", name, addr)}
}

func (n *externalNode) addr() string { return n.address }
func (n *externalNode) dir() string  { return "" }
func (n *externalNode) pid() int     { return 0 }

func (n *externalNode) state() string {
	switch {
	case n.down:
		return StateDown
	case n.paused:
		return StatePaused
	default:
		return StateRunning
	}
}

// start checks that the node answers and empties it: locksim owns every
// key of an external node (use dedicated nodes).
func (n *externalNode) start(ctx context.Context) error {
	n.admin = newAdminClient(n.address)
	if err := n.waitReady(ctx, startTimeout); err != nil {
		return err
	}
	return n.admin.FlushAll(ctx).Err()
}

func (n *externalNode) waitReady(ctx context.Context, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		_, err := rawInfoPID(ctx, n.address)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("%s does not answer INFO server: %w", n.external, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// run runs one configured command (no shell), bounded by 60 s.
func (n *externalNode) run(ctx context.Context, what string, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%s: no %s command configured (cluster.nodes[].%s)", n.external, what, what)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, args[0], args[1:]...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %s command %q: %w: %s", n.external, what, strings.Join(args, " "), err, strings.TrimSpace(tail(string(out), 400)))
	}
	n.log.Debug("node command", "node", n.name, "what", what, "cmd", strings.Join(args, " "))
	return nil
}

func tail(s string, k int) string {
	if len(s) > k {
		return "…" + s[len(s)-k:]
	}
	return s
}

func (n *externalNode) restart(ctx context.Context) error {
	if err := n.run(ctx, "restart", n.cmds.Restart); err != nil {
		return err
	}
	n.down, n.paused = false, false
	n.resetAdmin()
	return n.waitReady(ctx, n.ready)
}

func (n *externalNode) kill() error {
	if n.down {
		return nil
	}
	if err := n.run(context.Background(), "kill", n.cmds.Kill); err != nil {
		return err
	}
	n.down, n.paused = true, false
	n.resetAdmin()
	return nil
}

func (n *externalNode) resetAdmin() {
	if n.admin != nil {
		_ = n.admin.Close()
	}
	n.admin = newAdminClient(n.address)
}

func (n *externalNode) pause() error {
	if n.down {
		return ErrNodeNotRunning
	}
	if n.paused {
		return nil
	}
	if err := n.run(context.Background(), "pause", n.cmds.Pause); err != nil {
		return err
	}
	n.paused = true
	return nil
}

func (n *externalNode) resume() error {
	if n.down {
		return ErrNodeNotRunning
	}
	if !n.paused {
		return nil
	}
	if err := n.run(context.Background(), "resume", n.cmds.Resume); err != nil {
		return err
	}
	n.paused = false
	return nil
}

func (n *externalNode) shiftClock(ctx context.Context, delta time.Duration) (int, error) {
	if n.state() != StateRunning {
		return 0, ErrNodeNotRunning
	}
	return shiftKeys(ctx, n.admin, delta)
}

func (n *externalNode) version(ctx context.Context) (string, error) {
	v, err := serverVersion(ctx, n.admin)
	if err != nil {
		return "", err
	}
	return v + " (external)", nil
}

func (n *externalNode) flush(ctx context.Context) error {
	if n.state() != StateRunning {
		return ErrNodeNotRunning
	}
	if err := n.admin.FlushAll(ctx).Err(); err != nil {
		return err
	}
	return n.admin.ScriptFlush(ctx).Err()
}

// close leaves the node running (it is not ours) and drops the connection.
func (n *externalNode) close() error {
	if n.admin != nil {
		_ = n.admin.Close()
		n.admin = nil
	}
	return nil
}

func (n *externalNode) adminClient() *redis.Client { return n.admin }
