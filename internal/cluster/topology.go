package cluster

import (
	"bufio"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/history"
)

// Replication and Sentinel (issue 17): the deployments most Redis locks
// really run on. With Options.Replicas = R every master nI gets R replicas
// nIr1..nIrR, real redis-server processes started like the masters (own
// temp dir, ephemeral port, process group, parent-death signal). Each
// replica reaches its master through a toxiproxy proxy of its own, its
// replication link ("nIrJ-nI"), so replication lag and a cut replication
// stream are toxics (Cluster.ReplicationLink). With Options.Sentinels = S
// (1, 3 or 5) S redis-sentinel processes s1..sS monitor every master as
// the group "nI" with quorum S/2+1; they reach the nodes directly.
//
// Every client has a link to every replica and every sentinel too
// (Cluster.LinkByName), and finds its master through the sentinels as
// go-redis's FailoverClient does (Cluster.MasterDialer): ask the sentinels
// in turn SENTINEL get-master-addr-by-name, and dial the answer, through
// the client's own link to that node. So a partition can cut a client from
// a sentinel as well as from a node.
//
// Sentinel's own clocks are scaled with the run: down-after-milliseconds
// (s1's; the others' staggered, see downAfter) and failover-timeout are
// the scenario's (Options.Sentinel, wall time),
// and SENTINEL DEBUG sets the ask and publish periods to a tenth of
// down-after (at most Redis's own 1000 and 2000 ms) and the INFO period to
// down-after (at most Redis's 10 s, at least 100 ms), so that the
// sentinels agree that a master is down, learn of a promotion and turn a
// returning old master into a replica in a time proportional to the
// run's. The ping period is down-after too, between 400 ms and Redis's
// 1 s: it also spaces a sentinel's reconnections, and at 1 s a sentinel
// whose first connection to a just-promoted master failed judged it down
// before its next try (a second, unplanned failover: 4 runs in 120 of
// the failover files); 400 ms keeps a replica's INFO, which Sentinel
// polls once a second during a failover (a constant of sentinel.c),
// younger than the five ping periods a promotion needs. The tilt trigger
// (2 s) stays Redis's.
//
// After a failover Sentinel tells the other replicas to follow the promoted
// one at its own address: they then replicate directly, not through a
// replication link. A failover is a run's last change of topology, so
// clusters with replicas or sentinels are never reused between runs
// (Fits is false): each run starts from the configured roles.

// SentinelOptions are the Sentinel settings, wall time.
type SentinelOptions struct {
	// DownAfter is down-after-milliseconds: how long a master must not
	// answer before a sentinel thinks it down. Default 30 s (Redis's).
	DownAfter time.Duration
	// FailoverTimeout is failover-timeout. Default 180 s (Redis's).
	FailoverTimeout time.Duration
}

func (o SentinelOptions) withDefaults() SentinelOptions {
	if o.DownAfter <= 0 {
		o.DownAfter = 30 * time.Second
	}
	if o.FailoverTimeout <= 0 {
		o.FailoverTimeout = 180 * time.Second
	}
	return o
}

// Node roles, as Node.Role reports them.
const (
	RoleMaster   = "master"
	RoleReplica  = "replica"
	RoleSentinel = "sentinel"
)

// MaxReplicas and MaxSentinels bound Options.Replicas and Sentinels.
const (
	MaxReplicas  = 4
	MaxSentinels = 5
)

const sentinelConfFile = "sentinel.conf"

// topology is the replicated part of a cluster.
type topology struct {
	replicas  []*Node          // every replica, by master then number
	sentinels []*Node          // s1..sS
	repl      map[string]*Link // replica name → its replication link
	// extra holds each client's links to replicas and sentinels, by name.
	extra map[string]map[string]*Link
	// groups: master name → its replicas' names, in order.
	groups map[string][]string
	// sentinelClients: client → per sentinel, a go-redis client through
	// the client's link (the master look-ups of MasterDialer).
	mu              sync.Mutex
	sentinelClients map[string][]*redis.Client
	lastSentinel    map[string]int
	// conns are the clients' open connections to masters (MasterDialer),
	// closed when the sentinel a client asks announces +switch-master
	// away from their node, as go-redis's FailoverClient drops them.
	conns map[*trackedConn]struct{}
	// stopWatch ends the +switch-master subscriptions.
	stopWatch func()
	// switches are the promotions the sentinels announced, in order.
	switches []Switch
}

// Switch is one promotion a sentinel announced (+switch-master): the
// group, the old and the new master (node names), and when the harness
// heard of it (wall clock).
type Switch struct {
	Group, Old, New string
	At              time.Time
}

// Switches returns the promotions the sentinels announced at or after
// since, once each (every sentinel announces the same switch).
func (c *Cluster) Switches(since time.Time) []Switch {
	if c.topo == nil {
		return nil
	}
	c.topo.mu.Lock()
	defer c.topo.mu.Unlock()
	var out []Switch
	for _, sw := range c.topo.switches {
		if !sw.At.Before(since) {
			out = append(out, sw)
		}
	}
	return out
}

// trackedConn is a client's connection to a master, known to the
// topology until it is closed.
type trackedConn struct {
	net.Conn
	t                   *topology
	client, group, node string // node: the master's own address
	once                sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.t.mu.Lock()
		delete(c.t.conns, c)
		c.t.mu.Unlock()
	})
	return c.Conn.Close()
}

// validateTopology checks the replicated part of o.
func validateTopology(o Options, backend string) error {
	switch {
	case o.Replicas < 0 || o.Replicas > MaxReplicas:
		return fmt.Errorf("replicas must be 0..%d per master, got %d", MaxReplicas, o.Replicas)
	case o.Sentinels != 0 && o.Sentinels != 1 && o.Sentinels != 3 && o.Sentinels != 5:
		return fmt.Errorf("sentinels must be 0, 1, 3 or 5, got %d", o.Sentinels)
	case o.Sentinels > 0 && o.Replicas == 0:
		return errors.New("sentinels need replicas to promote (replicas ≥ 1)")
	case (o.Replicas > 0 || o.Sentinels > 0) && backend != BackendLocal:
		return fmt.Errorf("replicas and sentinels need the local backend (real redis-server and redis-sentinel), not %s", backend)
	case o.Persistence == PersistenceRDB && backend != BackendLocal:
		return fmt.Errorf("persistence rdb needs the local backend (real redis-server snapshots), not %s", backend)
	}
	return nil
}

// replicaName is the name of replica j (1-based) of master m.
func replicaName(master string, j int) string { return history.ReplicaName(master, j) }

// sentinelName is the name of sentinel i (1-based).
func sentinelName(i int) string { return "s" + strconv.Itoa(i) }

// sentinelID is a sentinel's fixed myid: 40 hex digits from its name, so
// each sentinel's config can name the others before any of them runs.
func sentinelID(name string) string {
	h := sha1.Sum([]byte("locksim-sentinel-" + name))
	return hex.EncodeToString(h[:])
}

// startTopology starts the replicas, their replication links, the
// sentinels and every client's links to them, once the masters run.
func (c *Cluster) startTopology(ctx context.Context, o Options, bin string) error {
	t := &topology{repl: map[string]*Link{}, extra: map[string]map[string]*Link{}, groups: map[string][]string{},
		sentinelClients: map[string][]*redis.Client{}, lastSentinel: map[string]int{}, conns: map[*trackedConn]struct{}{}}
	c.topo = t
	if o.Replicas == 0 && o.Sentinels == 0 {
		return nil
	}
	for _, m := range c.nodes {
		for j := 1; j <= o.Replicas; j++ {
			name := replicaName(m.name, j)
			impl := newLocalNode(name, bin, m.persistence, c.log)
			n := &Node{name: name, index: -1, impl: impl, log: c.log, persistence: m.persistence, role: RoleReplica, group: m.name}
			t.replicas = append(t.replicas, n)
			t.groups[m.name] = append(t.groups[m.name], name)
		}
	}
	if err := startAll(ctx, t.replicas); err != nil {
		return err
	}
	for _, r := range t.replicas {
		m := c.NodeByName(r.group)
		l, err := newLink(c.proxySrv, r.name, m)
		if err != nil {
			return err
		}
		t.repl[r.name] = l
		r.impl.(*localNode).replicaOf = l.Addr()
		host, port, _ := net.SplitHostPort(l.Addr())
		if err := r.impl.adminClient().SlaveOf(ctx, host, port).Err(); err != nil {
			return fmt.Errorf("replicaof on %s: %w", r.name, err)
		}
	}
	if err := waiting(o, func() error { return c.waitReplicasOnline(ctx) }); err != nil {
		return err
	}
	if o.Sentinels > 0 {
		if err := c.startSentinels(ctx, o); err != nil {
			return err
		}
	}
	for _, client := range c.clients {
		t.extra[client] = map[string]*Link{}
		for _, n := range append(append([]*Node(nil), t.replicas...), t.sentinels...) {
			l, err := newLink(c.proxySrv, client, n)
			if err != nil {
				return err
			}
			t.extra[client][n.name] = l
		}
	}
	return nil
}

// startAll starts nodes at the same time.
func startAll(ctx context.Context, nodes []*Node) error {
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Go(func() {
			if err := n.impl.start(ctx); err != nil {
				errs[i] = fmt.Errorf("start node %s: %w", n.name, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// waitReplicasOnline waits until every master lists each of its replicas
// as online (the first full sync is done).
func (c *Cluster) waitReplicasOnline(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	for _, m := range c.nodes {
		want := len(c.topo.groups[m.name])
		for {
			info, err := m.impl.adminClient().Info(ctx, "replication").Result()
			if err == nil && strings.Count(info, "state=online") >= want {
				break
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("replicas of %s not online within %v (last INFO replication: %q, %v)", m.name, startTimeout, clip(info), err)
			case <-time.After(10 * time.Millisecond):
			}
		}
		// After a diskless first sync Redis streams commands to a replica
		// only once that replica's first REPLCONF ACK came (up to a second
		// later): one write that every replica acknowledges says the
		// stream runs, so the run's first WAIT is not the one that waits.
		admin := m.impl.adminClient()
		if err := admin.Set(ctx, readyKey, "1", 0).Err(); err != nil {
			return fmt.Errorf("replication of %s: %w", m.name, err)
		}
		if n, err := admin.Wait(ctx, want, startTimeout).Result(); err != nil || n < int64(want) {
			return fmt.Errorf("replication of %s: %d of %d replicas acknowledged a write (%v)", m.name, n, want, err)
		}
		if err := admin.Del(ctx, readyKey).Err(); err != nil {
			return fmt.Errorf("replication of %s: %w", m.name, err)
		}
	}
	return nil
}

// readyKey is the harness's key for checking that replication streams.
const readyKey = "locksim:replication-ready"

func clip(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}

// startSentinels writes each sentinel's config (every group with its
// replicas and the other sentinels, so nothing has to be discovered),
// starts them, scales their periods and waits until each sees a quorum.
func (c *Cluster) startSentinels(ctx context.Context, o Options) error {
	bin, err := sentinelBinary(o.RedisSentinel)
	if err != nil {
		return err
	}
	so := o.Sentinel.withDefaults()
	t := c.topo
	for i := 1; i <= o.Sentinels; i++ {
		name := sentinelName(i)
		impl := newLocalNode(name, bin, PersistenceNone, c.log)
		impl.sentinel = true
		if err := impl.makeDir(); err != nil {
			return fmt.Errorf("start sentinel %s: %w", name, err)
		}
		t.sentinels = append(t.sentinels, &Node{name: name, index: -1, impl: impl, log: c.log, persistence: PersistenceNone, role: RoleSentinel})
	}
	// Every sentinel's config names the others' ports: when one port was
	// taken between choosing and binding it (an outgoing connection's
	// ephemeral port), every sentinel gets a fresh port and config.
	for attempt := 0; attempt < startAttempts; attempt++ {
		if err = c.launchSentinels(ctx, so, o.Sentinels/2+1); err == nil || !errors.Is(err, errPortInUse) || ctx.Err() != nil {
			break
		}
		c.log.Debug("a sentinel's port was taken, retrying", "err", err)
	}
	if err != nil {
		return err
	}
	ask := min(time.Second, max(10*time.Millisecond, so.DownAfter/10))
	publish := min(2*time.Second, max(10*time.Millisecond, so.DownAfter/10))
	info := min(10*time.Second, max(100*time.Millisecond, so.DownAfter))
	ping := min(time.Second, max(400*time.Millisecond, so.DownAfter))
	for _, s := range t.sentinels {
		err := s.impl.adminClient().Do(ctx, "SENTINEL", "DEBUG", "ask-period", ask.Milliseconds(),
			"publish-period", publish.Milliseconds(), "info-period", info.Milliseconds(),
			"ping-period", ping.Milliseconds()).Err()
		if err != nil {
			return fmt.Errorf("sentinel debug on %s: %w", s.name, err)
		}
	}
	if err := waiting(o, func() error { return c.waitSentinelsReady(ctx) }); err != nil {
		return err
	}
	c.watchSwitches()
	return nil
}

// sentinelPortTaken is, in a test, a port another process listens on: the
// first sentinel of the next cluster started is given it once, as if an
// outgoing connection took its port between choosing and binding it.
var sentinelPortTaken atomic.Int64

// launchSentinels gives every sentinel a port, writes its config (every
// group with its replicas and the other sentinels) and starts them. On an
// error it stops the ones it started and gives their ports back.
func (c *Cluster) launchSentinels(ctx context.Context, so SentinelOptions, quorum int) error {
	t := c.topo
	for i, s := range t.sentinels {
		port, err := ports.free()
		if err != nil {
			return err
		}
		if p := int(sentinelPortTaken.Swap(0)); i == 0 && p != 0 {
			ports.release(port)
			port = p // a test's: a port another process holds
			ports.claim(port)
		}
		ln := s.impl.(*localNode)
		ln.port, ln.portOwned = port, true
	}
	for k, s := range t.sentinels {
		ln := s.impl.(*localNode)
		var b strings.Builder
		fmt.Fprintf(&b, "port %d\nbind 127.0.0.1\ndir %s\nlogfile %s\ndaemonize no\nprotected-mode no\nsentinel myid %s\n",
			ln.port, ln.dataDir, filepath.Join(ln.dataDir, logFile), sentinelID(s.name))
		for _, m := range c.nodes {
			host, port, _ := net.SplitHostPort(m.Addr())
			fmt.Fprintf(&b, "sentinel monitor %s %s %s %d\n", m.name, host, port, quorum)
			fmt.Fprintf(&b, "sentinel down-after-milliseconds %s %d\n", m.name, max(1, downAfter(so.DownAfter, k).Milliseconds()))
			fmt.Fprintf(&b, "sentinel failover-timeout %s %d\n", m.name, max(1, so.FailoverTimeout.Milliseconds()))
			fmt.Fprintf(&b, "sentinel parallel-syncs %s 1\n", m.name)
			for _, rn := range t.groups[m.name] {
				rhost, rport, _ := net.SplitHostPort(c.NodeByName(rn).Addr())
				fmt.Fprintf(&b, "sentinel known-replica %s %s %s\n", m.name, rhost, rport)
			}
			for _, other := range t.sentinels {
				if other != s {
					fmt.Fprintf(&b, "sentinel known-sentinel %s 127.0.0.1 %d %s\n", m.name, other.impl.(*localNode).port, sentinelID(other.name))
				}
			}
		}
		if err := os.WriteFile(filepath.Join(ln.dataDir, sentinelConfFile), []byte(b.String()), 0o644); err != nil {
			return fmt.Errorf("write %s config: %w", s.name, err)
		}
	}
	errs := make([]error, len(t.sentinels))
	var wg sync.WaitGroup
	for i, s := range t.sentinels {
		wg.Go(func() {
			if err := s.impl.(*localNode).launch(ctx); err != nil {
				errs[i] = fmt.Errorf("start sentinel %s: %w", s.name, err)
			}
		})
	}
	wg.Wait()
	err := errors.Join(errs...)
	if err != nil {
		for _, s := range t.sentinels {
			ln := s.impl.(*localNode)
			ln.killProc()
			ports.release(ln.port)
			ln.portOwned = false
		}
	}
	return err
}

// downAfter is sentinel k's (0-based) down-after-milliseconds: the
// scenario's for s1, half as much again for each next one (s2 1.5×, s3
// 2×, …). Sentinels that all see the master down in the same instant each
// start a failover, vote for themselves and none wins; Sentinel then waits
// twice failover-timeout before it tries again (sentinel.c), far longer
// than a run. Staggered, the first two agree while the later ones have not
// started a failover of their own and give their vote to whoever asks
// first, so an election has a majority.
func downAfter(d time.Duration, k int) time.Duration { return d + time.Duration(k)*d/2 }

// sentinelBinary finds redis-sentinel.
func sentinelBinary(path string) (string, error) {
	name := path
	if name == "" {
		name = "redis-sentinel"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("redis-sentinel not found (%s): %w (apt-get install redis-sentinel)", name, err)
	}
	return p, nil
}

// waiting runs wait, a wait on processes doing their own work, between
// o.Waiting and the function it returns (when o.Waiting is set).
func waiting(o Options, wait func() error) error {
	if o.Waiting != nil {
		defer o.Waiting()()
	}
	return wait()
}

// waitSentinelsReady waits until every sentinel knows every group's
// replicas (connected) and sees enough sentinels for its quorum.
func (c *Cluster) waitSentinelsReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	for _, s := range c.topo.sentinels {
		for _, m := range c.nodes {
			want := len(c.topo.groups[m.name])
			var last string
			for {
				ok, why := sentinelSees(ctx, s.impl.adminClient(), m.name, want)
				if ok {
					break
				}
				last = why
				select {
				case <-ctx.Done():
					return fmt.Errorf("sentinel %s not ready for %s within %v: %s", s.name, m.name, startTimeout, last)
				case <-time.After(10 * time.Millisecond):
				}
			}
		}
	}
	return nil
}

// sentinelSees reports whether a sentinel lists want connected replicas of
// group and says its quorum can be reached (SENTINEL CKQUORUM).
func sentinelSees(ctx context.Context, s *redis.Client, group string, want int) (bool, string) {
	if err := s.Do(ctx, "SENTINEL", "CKQUORUM", group).Err(); err != nil {
		return false, "ckquorum: " + err.Error()
	}
	reps, err := s.Do(ctx, "SENTINEL", "REPLICAS", group).Slice()
	if err != nil {
		return false, "replicas: " + err.Error()
	}
	good := 0
	for _, r := range reps {
		f := fieldMap(r)
		if fl := f["flags"]; !strings.Contains(fl, "disconnected") && !strings.Contains(fl, "s_down") && f["master-link-status"] == "ok" {
			good++
		}
	}
	if good < want {
		return false, fmt.Sprintf("%d of %d replicas connected", good, want)
	}
	return true, ""
}

// fieldMap reads a SENTINEL REPLICAS entry (a flat list or a map).
func fieldMap(v any) map[string]string {
	out := map[string]string{}
	switch x := v.(type) {
	case []any:
		for i := 0; i+1 < len(x); i += 2 {
			out[fmt.Sprint(x[i])] = fmt.Sprint(x[i+1])
		}
	case map[any]any:
		for k, v := range x {
			out[fmt.Sprint(k)] = fmt.Sprint(v)
		}
	}
	return out
}

// Role returns the node's configured role: RoleMaster (n1..nN),
// RoleReplica (nIrJ) or RoleSentinel (sK). After a failover a replica may
// serve as its group's master: Group.Master says which node does.
func (n *Node) Role() string {
	if n.role == "" {
		return RoleMaster
	}
	return n.role
}

// Group returns the replication group a master or replica belongs to
// (its initial master's name), "" for a sentinel.
func (n *Node) Group() string {
	if n.role == RoleSentinel {
		return ""
	}
	if n.group == "" {
		return n.name
	}
	return n.group
}

// Replicas returns every replica, by master then number.
func (c *Cluster) Replicas() []*Node { return append([]*Node(nil), c.topo.replicas...) }

// Sentinels returns the sentinels s1..sS.
func (c *Cluster) Sentinels() []*Node { return append([]*Node(nil), c.topo.sentinels...) }

// GroupReplicas returns the names of the replicas of master (n1…), in
// order.
func (c *Cluster) GroupReplicas(master string) []string {
	return append([]string(nil), c.topo.groups[master]...)
}

// ReplicationLink returns the link a replica replicates through (the
// replica is its client, its master the node), or nil.
func (c *Cluster) ReplicationLink(replica string) *Link { return c.topo.repl[replica] }

// everyNode is masters, replicas and sentinels.
func (c *Cluster) everyNode() []*Node {
	out := append([]*Node(nil), c.nodes...)
	out = append(out, c.topo.replicas...)
	return append(out, c.topo.sentinels...)
}

// nodeByAddr returns the node listening on addr (its direct address).
func (c *Cluster) nodeByAddr(addr string) *Node {
	for _, n := range c.everyNode() {
		if n.Addr() == addr {
			return n
		}
	}
	return nil
}

// MasterDialer returns a go-redis Dialer for client's connections to the
// master of group, found through the sentinels as go-redis's
// FailoverClient finds it: at each new connection, ask the sentinel that
// answered last (then the others, in order) SENTINEL get-master-addr-by-name
// through the client's own link to it, and dial the node it names through
// the client's own link to that node. Without sentinels it dials the
// client's link to the group's initial master.
func (c *Cluster) MasterDialer(client, group string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, _ string) (net.Conn, error) {
		target, node, err := c.resolveMaster(ctx, client, group)
		if err != nil {
			return nil, err
		}
		var d net.Dialer
		// A proxy accepts a connection before it reaches its node, so a
		// dead master would only show as an EOF after the command was
		// sent. Knock on the node itself first: a dead one refuses the
		// connection, as it would a client's direct one.
		probe, err := d.DialContext(ctx, network, node)
		if err != nil {
			return nil, err
		}
		_ = probe.Close()
		conn, err := d.DialContext(ctx, network, target)
		if err != nil {
			return nil, err
		}
		tc := &trackedConn{Conn: conn, t: c.topo, client: client, group: group, node: node}
		c.topo.mu.Lock()
		c.topo.conns[tc] = struct{}{}
		c.topo.mu.Unlock()
		return tc, nil
	}
}

// watchSwitches subscribes to +switch-master on every sentinel (the
// harness's own connections) and, when sentinel i announces a new master,
// closes the connections to the old one of the clients that ask sentinel
// i — what go-redis's FailoverClient does on its sentinel's +switch-master
// (it filters them out of its pool).
func (c *Cluster) watchSwitches() {
	t := c.topo
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var subs []*redis.Client
	for i, s := range t.sentinels {
		sc := redis.NewClient(&redis.Options{Addr: s.Addr(), Protocol: 2, DisableIdentity: true, MaxRetries: -1})
		subs = append(subs, sc)
		ps := sc.Subscribe(ctx, "+switch-master")
		wg.Go(func() {
			defer ps.Close()
			ch := ps.Channel()
			for {
				select {
				case <-ctx.Done():
					return
				case m, ok := <-ch:
					if !ok {
						return
					}
					// "<group> <old ip> <old port> <new ip> <new port>"
					f := strings.Fields(m.Payload)
					if len(f) == 5 {
						c.recordSwitch(f[0], net.JoinHostPort(f[1], f[2]), net.JoinHostPort(f[3], f[4]))
						c.switched(i, f[0], net.JoinHostPort(f[1], f[2]))
					}
				}
			}
		})
	}
	t.stopWatch = func() {
		cancel()
		for _, sc := range subs {
			_ = sc.Close()
		}
		wg.Wait()
	}
}

// recordSwitch keeps one announced promotion of group from old to new
// (addresses), once however many sentinels announce it.
func (c *Cluster) recordSwitch(group, old, new string) {
	name := func(addr string) string {
		if n := c.nodeByAddr(addr); n != nil {
			return n.Name()
		}
		return addr
	}
	sw := Switch{Group: group, Old: name(old), New: name(new), At: time.Now()}
	t := c.topo
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := len(t.switches) - 1; i >= 0; i-- {
		if p := t.switches[i]; p.Group == group {
			if p.Old == sw.Old && p.New == sw.New {
				return // another sentinel announcing the same switch
			}
			break
		}
	}
	t.switches = append(t.switches, sw)
}

// switched closes the connections to old of the clients asking sentinel i.
func (c *Cluster) switched(i int, group, old string) {
	t := c.topo
	t.mu.Lock()
	var drop []*trackedConn
	for tc := range t.conns {
		if tc.group == group && tc.node == old && t.lastSentinel[tc.client] == i {
			drop = append(drop, tc)
		}
	}
	t.mu.Unlock()
	for _, tc := range drop {
		_ = tc.Close()
	}
	if len(drop) > 0 {
		c.log.Debug("switch-master: dropped connections to the old master", "group", group, "old", old, "conns", len(drop))
	}
}

// resolveMaster is the proxied address of client's link to group's
// current master, and the master's own address.
func (c *Cluster) resolveMaster(ctx context.Context, client, group string) (string, string, error) {
	t := c.topo
	if len(t.sentinels) == 0 {
		l := c.LinkByName(client, group)
		if l == nil {
			return "", "", fmt.Errorf("no link %s→%s", client, group)
		}
		return l.Addr(), l.node.Addr(), nil
	}
	t.mu.Lock()
	scs := t.sentinelClients[client]
	if scs == nil {
		for _, s := range t.sentinels {
			l := t.extra[client][s.name]
			scs = append(scs, redis.NewClient(&redis.Options{Addr: l.Addr(), Protocol: 2, MaxRetries: -1, DialerRetries: 1,
				DialTimeout: 250 * time.Millisecond, ReadTimeout: 250 * time.Millisecond, WriteTimeout: 250 * time.Millisecond,
				ContextTimeoutEnabled: true, PoolSize: 2, DisableIdentity: true}))
		}
		t.sentinelClients[client] = scs
	}
	first := t.lastSentinel[client]
	t.mu.Unlock()
	var errs []error
	for k := range scs {
		i := (first + k) % len(scs)
		v, err := scs[i].Do(ctx, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", group).StringSlice()
		if err != nil || len(v) != 2 {
			errs = append(errs, fmt.Errorf("%s: %v", t.sentinels[i].name, err))
			continue
		}
		t.mu.Lock()
		t.lastSentinel[client] = i
		t.mu.Unlock()
		n := c.nodeByAddr(net.JoinHostPort(v[0], v[1]))
		if n == nil {
			return "", "", fmt.Errorf("sentinel %s names master %s:%s of %s, which is no node of this cluster", t.sentinels[i].name, v[0], v[1], group)
		}
		l := c.LinkByName(client, n.name)
		if l == nil {
			return "", "", fmt.Errorf("no link %s→%s", client, n.name)
		}
		return l.Addr(), n.Addr(), nil
	}
	return "", "", fmt.Errorf("no sentinel named the master of %s: %w", group, errors.Join(errs...))
}

// closeTopology closes the sentinel clients, replication links and the
// replicas' and sentinels' processes.
func (c *Cluster) closeTopology() []error {
	t := c.topo
	if t == nil {
		return nil
	}
	if t.stopWatch != nil {
		t.stopWatch()
	}
	t.mu.Lock()
	for _, scs := range t.sentinelClients {
		for _, sc := range scs {
			_ = sc.Close()
		}
	}
	t.sentinelClients = map[string][]*redis.Client{}
	t.mu.Unlock()
	for _, ls := range t.extra {
		for _, l := range ls {
			l.close()
		}
	}
	for _, l := range t.repl {
		l.close()
	}
	var errs []error
	for _, n := range append(append([]*Node(nil), t.sentinels...), t.replicas...) {
		if err := n.close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// infoField reads one field of an INFO section.
func infoField(info, field string) string {
	sc := bufio.NewScanner(strings.NewReader(info))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), field+":"); ok {
			return v
		}
	}
	return ""
}
