package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"regexp"
	"strconv"
	"sync"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"
	zlog "github.com/rs/zerolog/log"
)

// Some of toxiproxy's toxics (bandwidth) log through zerolog's global
// logger, which writes to stderr at every level: keep it quiet too, as
// the server's own logger is.
func init() { zlog.Logger = zerolog.Nop() }

// Backend names accepted in Options.Backend and returned by Cluster.Backend.
const (
	// BackendLocal runs real redis-server processes started by locksim.
	BackendLocal = "local"
	// BackendEmbedded runs in-process miniredis servers (emulated Redis).
	BackendEmbedded = "embedded"
)

// Persistence modes accepted in Options.Persistence.
const (
	// PersistenceNone disables RDB and AOF: a restarted node comes back empty.
	PersistenceNone = "none"
	// PersistenceAOFEverysec enables AOF with appendfsync everysec.
	PersistenceAOFEverysec = "aof-everysec"
	// PersistenceAOFAlways enables AOF with appendfsync always.
	PersistenceAOFAlways = "aof-always"
	// PersistenceRDB writes a snapshot every Options.SaveInterval (BGSAVE);
	// a killed node restarts from the last one (snapshot.go).
	PersistenceRDB = "rdb"
)

// MaxNodes is the largest node count Start accepts.
const MaxNodes = 16

// ErrClosed is returned by operations on a Cluster (or its nodes and links)
// after Close.
var ErrClosed = errors.New("cluster is closed")

// Options configures Start.
type Options struct {
	// Backend is "local", "embedded", or "" for auto: local when redis-server
	// is found (RedisServer or PATH), else embedded.
	Backend string
	// Nodes is the number of Redis nodes, 1..MaxNodes (locksim uses 1 or 5).
	Nodes int
	// Persistence is "none" (also for ""), "aof-everysec" or "aof-always".
	Persistence string
	// Clients are the client names (e.g. "w1", "w2"); each gets one proxy per
	// node. Names must be unique and match [A-Za-z0-9_.-]+. At least one.
	Clients []string
	// Logger receives debug/info lines about nodes and faults; nil = discard.
	Logger *slog.Logger
	// RedisServer is the path of redis-server; "" = look it up on PATH.
	RedisServer string
	// NodePersistence overrides Persistence per node name ("n3" →
	// "aof-always"); same values as Persistence.
	NodePersistence map[string]string
	// External configures Backend "external" (required for it).
	External *External

	// Replicas is the number of replicas of every master (0..MaxReplicas);
	// Sentinels the number of redis-sentinel processes watching them (0,
	// 1, 3 or 5); Sentinel their timings, wall time. Local backend only
	// (topology.go).
	Replicas  int
	Sentinels int
	Sentinel  SentinelOptions
	// RedisSentinel is the path of redis-sentinel; "" = look it up on PATH.
	RedisSentinel string
	// SaveInterval is how often an rdb node writes a snapshot (BGSAVE),
	// wall time; 0 = 60 s. PowerLossWindow is how much of an aof-everysec
	// node's last writes a power-loss crash drops, wall time; 0 = 1 s
	// (snapshot.go).
	SaveInterval    time.Duration
	PowerLossWindow time.Duration
	// Pooled takes the local nodes without persistence from the process's
	// pool of idle nodes where it has some, and gives them back, flushed,
	// when the cluster closes (pool.go; never a node of a cluster with
	// replicas or sentinels). A suite sets it and drains the pool
	// (DrainPool) when it ends.
	Pooled bool
	// Waiting, when set, is called before the start waits on processes
	// already started and doing their own work (replicas syncing,
	// sentinels learning their peers: 0.2–1.2 s, wall), and the function
	// it returns after the wait. A suite lets another run set up
	// meanwhile (suite.Pool.setting): the wait costs no CPU.
	Waiting func() (resume func())
}

// Cluster is the environment of one run. Its methods are safe for concurrent
// use.
type Cluster struct {
	backend string
	version string
	log     *slog.Logger

	nodes   []*Node
	clients []string
	links   map[string][]*Link // client → per node

	proxySrv *toxiproxy.ApiServer
	// ext is set for the external backend (see external.go).
	ext *externalEnv
	// topo holds the replicas and sentinels (topology.go); never nil
	// after Start.
	topo *topology

	// persistence and nodePersistence are the start options, for Fits.
	persistence     string
	nodePersistence map[string]string
	// pooled: Close gives the nodes without persistence back to the
	// idle pool (Options.Pooled); KillAll clears it.
	pooled bool
	// saveInterval and powerLossWindow are the background jobs' periods
	// (Options.SaveInterval and PowerLossWindow with their defaults):
	// a run that needs others cannot reuse the cluster.
	saveInterval, powerLossWindow time.Duration

	mu     sync.Mutex
	closed bool
}

var clientNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// Start validates o, starts o.Nodes Redis nodes and one toxiproxy proxy per
// (client, node) link, all on 127.0.0.1. On any error everything already
// started is torn down again. Errors: invalid options; "redis-server not
// found" for Backend "local" without a binary; a node that does not start or
// answer within 5 s (the error names the node and includes the tail of
// its log); a proxy that cannot listen. ctx bounds the start-up.
func Start(ctx context.Context, o Options) (*Cluster, error) {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if o.Nodes < 1 || o.Nodes > MaxNodes {
		return nil, fmt.Errorf("start cluster: nodes must be 1..%d, got %d", MaxNodes, o.Nodes)
	}
	persistence := o.Persistence
	if persistence == "" {
		persistence = PersistenceNone
	}
	switch persistence {
	case PersistenceNone, PersistenceAOFEverysec, PersistenceAOFAlways, PersistenceRDB:
	default:
		return nil, fmt.Errorf("start cluster: unknown persistence %q (want none, aof-everysec, aof-always or rdb)", o.Persistence)
	}
	if len(o.Clients) == 0 {
		return nil, errors.New("start cluster: no clients")
	}
	seen := map[string]bool{}
	for _, name := range o.Clients {
		if !clientNameRE.MatchString(name) {
			return nil, fmt.Errorf("start cluster: bad client name %q (want [A-Za-z0-9_.-]+)", name)
		}
		if seen[name] {
			return nil, fmt.Errorf("start cluster: duplicate client name %q", name)
		}
		seen[name] = true
	}

	backend, bin, err := resolveBackend(o.Backend, o.RedisServer)
	if err != nil {
		return nil, fmt.Errorf("start cluster: %w", err)
	}
	if err := validateTopology(o, backend); err != nil {
		return nil, fmt.Errorf("start cluster: %w", err)
	}

	c := &Cluster{
		pooled:      o.Pooled && o.Replicas == 0 && o.Sentinels == 0,
		backend:     backend,
		log:         log,
		clients:     append([]string(nil), o.Clients...),
		links:       map[string][]*Link{},
		persistence: persistence, nodePersistence: o.NodePersistence,
		topo: &topology{},
		// Toxiproxy logs through zerolog; keep it quiet (never stdout).
		proxySrv: toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop()),
	}

	if backend == BackendLocal {
		removeStaleDirs(log)
	}
	if backend == BackendExternal {
		if c.ext, err = newExternalEnv(o); err != nil {
			return nil, fmt.Errorf("start cluster: %w", err)
		}
	}

	if err := c.newNodes(ctx, o, bin, persistence); err != nil {
		_ = c.Close()
		return nil, err
	}
	// Start the nodes at the same time: a redis-server takes ~80 ms to come
	// up, and five in a row would cost most of a short run.
	startErrs := make([]error, len(c.nodes))
	var wg sync.WaitGroup
	for i, n := range c.nodes {
		if ln, ok := n.impl.(*localNode); ok && ln.running() {
			continue // from the idle pool: started and flushed
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := n.impl.start(ctx); err != nil {
				startErrs[i] = fmt.Errorf("start node %s: %w", n.name, err)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(startErrs...); err != nil {
		_ = c.Close()
		return nil, err
	}

	if err := c.startTopology(ctx, o, bin); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("start cluster: %w", err)
	}
	c.saveInterval, c.powerLossWindow = backgroundPeriods(o)
	if backend == BackendLocal {
		c.startBackground()
	}

	if backend == BackendLocal || backend == BackendExternal {
		v, err := c.nodes[0].impl.version(ctx)
		if err != nil {
			_ = c.Close()
			return nil, fmt.Errorf("start cluster: read version of n1: %w", err)
		}
		c.version = v
	} else {
		c.version = miniredisVersion()
	}

	for _, client := range c.clients {
		for _, n := range c.nodes {
			var l *Link
			var err error
			if c.ext != nil {
				l, err = c.ext.newAPILink(client, n)
			} else {
				l, err = newLink(c.proxySrv, client, n)
			}
			if err != nil {
				_ = c.Close()
				return nil, fmt.Errorf("start cluster: %w", err)
			}
			c.links[client] = append(c.links[client], l)
		}
	}
	log.Info("cluster started", "backend", c.backend, "version", c.version,
		"nodes", len(c.nodes), "clients", len(c.clients), "persistence", persistence)
	register(c)
	return c, nil
}

// newNodes makes the cluster's o.Nodes nodes, not started yet — but for
// those taken from the idle pool (Options.Pooled), already running.
func (c *Cluster) newNodes(ctx context.Context, o Options, bin, persistence string) error {
	log, backend := c.log, c.backend
	for i := 0; i < o.Nodes; i++ {
		name := "n" + strconv.Itoa(i+1)
		persistence := persistence
		if p, ok := o.NodePersistence[name]; ok && p != "" {
			switch p {
			case PersistenceNone, PersistenceAOFEverysec, PersistenceAOFAlways, PersistenceRDB:
				persistence = p
			default:
				return fmt.Errorf("start cluster: node %s: unknown persistence %q (want none, aof-everysec, aof-always or rdb)", name, p)
			}
		}
		var impl nodeImpl
		if backend == BackendLocal && c.pooled && persistence == PersistenceNone {
			if n := takeIdle(ctx, bin, name, log); n != nil {
				impl = n // started and flushed (pool.go)
			}
		}
		switch {
		case impl != nil:
		case backend == BackendLocal:
			impl = newLocalNode(name, bin, persistence, log)
		case backend == BackendExternal:
			impl = newExternalNode(name, c.ext.cfg.Nodes[i], c.ext.cfg.Commands[name], c.ext.cfg.ReadyTimeout, log)
		default:
			impl = newEmbeddedNode(name, persistence, log)
		}
		c.nodes = append(c.nodes, &Node{name: name, index: i, impl: impl, log: log, persistence: persistence})
	}
	return nil
}

// resolveBackend picks the backend and, for local, the redis-server path.
func resolveBackend(backend, redisServer string) (string, string, error) {
	lookup := func() (string, error) {
		name := redisServer
		if name == "" {
			name = "redis-server"
		}
		p, err := exec.LookPath(name)
		if err != nil {
			return "", fmt.Errorf("redis-server not found (%s): %w", name, err)
		}
		return p, nil
	}
	switch backend {
	case BackendLocal:
		p, err := lookup()
		if err != nil {
			return "", "", fmt.Errorf("backend local: %w (use backend embedded for emulated Redis)", err)
		}
		return BackendLocal, p, nil
	case BackendEmbedded:
		return BackendEmbedded, "", nil
	case BackendExternal:
		return BackendExternal, "", nil
	case "":
		if p, err := lookup(); err == nil {
			return BackendLocal, p, nil
		}
		return BackendEmbedded, "", nil
	default:
		return "", "", fmt.Errorf("unknown backend %q (want local, embedded, external or empty for auto)", backend)
	}
}

// Backend returns "local", "embedded" or "external".
func (c *Cluster) Backend() string { return c.backend }

// RedisVersion returns the server version, e.g. "7.0.15" for local nodes, or
// "miniredis v2.40.0 (emulated Redis)" for embedded ones.
func (c *Cluster) RedisVersion() string { return c.version }

// NodeNames returns the node names "n1".."nN" in index order.
func (c *Cluster) NodeNames() []string {
	out := make([]string, len(c.nodes))
	for i, n := range c.nodes {
		out[i] = n.name
	}
	return out
}

// Clients returns the client names given to Start, in order.
func (c *Cluster) Clients() []string { return append([]string(nil), c.clients...) }

// Nodes returns all nodes in index order.
func (c *Cluster) Nodes() []*Node { return append([]*Node(nil), c.nodes...) }

// Links returns every link, grouped by client in Start order, then by node.
func (c *Cluster) Links() []*Link {
	var out []*Link
	for _, client := range c.clients {
		out = append(out, c.links[client]...)
	}
	return out
}

// LinkAddr returns "127.0.0.1:port" of the proxy between client and node
// (0-based), or "" when either is unknown.
func (c *Cluster) LinkAddr(client string, node int) string {
	l := c.Link(client, node)
	if l == nil {
		return ""
	}
	return l.Addr()
}

// NodeAddr returns the direct "127.0.0.1:port" of node (0-based), bypassing
// every proxy, or "" when node is out of range. For the harness only
// (observers, FLUSHALL); lock clients must use LinkAddr.
func (c *Cluster) NodeAddr(node int) string {
	n := c.Node(node)
	if n == nil {
		return ""
	}
	return n.Addr()
}

// Link returns the link between client and node (0-based), or nil when either
// is unknown.
func (c *Cluster) Link(client string, node int) *Link {
	ls := c.links[client]
	if node < 0 || node >= len(ls) {
		return nil
	}
	return ls[node]
}

// Node returns node i (0-based), or nil when i is out of range.
func (c *Cluster) Node(i int) *Node {
	if i < 0 || i >= len(c.nodes) {
		return nil
	}
	return c.nodes[i]
}

// HealAll removes every toxic, re-enables every proxy, resumes paused nodes
// and restarts killed (or crashed) ones. Idempotent; errors of the single
// steps are joined. Returns ErrClosed after Close.
func (c *Cluster) HealAll(ctx context.Context) error {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return fmt.Errorf("heal all: %w", ErrClosed)
	}
	var errs []error
	for _, n := range c.everyNode() {
		switch n.State() {
		case StatePaused:
			if err := n.resumeAll(); err != nil {
				errs = append(errs, err)
			}
		case StateDown:
			if err := n.Restart(ctx); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for _, l := range c.allLinks() {
		if err := l.Heal(); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("heal all: %w", err)
	}
	return nil
}

// Close stops every proxy, kills every node (SIGKILL on its process group for
// local nodes) and removes the node temp dirs. Idempotent: later calls return
// nil. Errors of the single steps are joined.
func (c *Cluster) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.mu.Unlock()
	defer unregister(c)

	c.mu.Lock()
	pooled := c.pooled
	c.mu.Unlock()
	errs := c.closeTopology()
	for _, ls := range c.links {
		for _, l := range ls {
			l.close()
		}
	}
	for _, n := range c.nodes {
		if pooled && n.pool() {
			continue
		}
		if err := n.close(); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close cluster: %w", err)
	}
	c.log.Debug("cluster closed")
	return nil
}
