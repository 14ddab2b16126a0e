package cluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Failover modes: how the current master of a group is made to fail over.
const (
	// FailoverCrash kills the master (kill -9): the sentinels see it down
	// after down-after-milliseconds, agree (quorum), elect a leader and
	// promote a replica.
	FailoverCrash = "crash"
	// FailoverStop stops the master (SIGSTOP): the same as a crash to the
	// sentinels, but its process, its keys and its clients' connections
	// live on, and when it is resumed it still believes it is the master
	// until a sentinel turns it into a replica.
	FailoverStop = "stop"
	// FailoverCommand asks a sentinel for SENTINEL FAILOVER: a promotion
	// without agreement, the master alive (a planned switch-over).
	FailoverCommand = "sentinel"
)

// Promotion is what a failover did, as data: the group, the master that
// failed, the replica promoted and the replication offsets just before
// the failure (the master's, and each replica's) and of the promoted
// replica when it became master.
type Promotion struct {
	Group    string
	Old      string
	Promoted string
	// MasterOffset is the old master's master_repl_offset just before the
	// failure; ReplicaOffsets each replica's slave_repl_offset then (-1
	// when it did not answer).
	MasterOffset   int64
	ReplicaOffsets map[string]int64
	// PromotedOffset is the promoted replica's master_repl_offset when it
	// was first seen as a master.
	PromotedOffset int64
	// Took is the time from the failure to the promotion, wall time.
	Took time.Duration
}

// Master returns the node the sentinels name as group's master (the
// first sentinel that answers), or the group's initial master when there
// are no sentinels.
func (c *Cluster) Master(ctx context.Context, group string) (*Node, error) {
	if len(c.topo.sentinels) == 0 {
		if n := c.NodeByName(group); n != nil && n.Role() == RoleMaster {
			return n, nil
		}
		return nil, fmt.Errorf("no group %s", group)
	}
	var errs []error
	for _, s := range c.topo.sentinels {
		admin := s.admin()
		if admin == nil {
			continue
		}
		v, err := admin.Do(ctx, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", group).StringSlice()
		if err != nil || len(v) != 2 {
			errs = append(errs, fmt.Errorf("%s: %v", s.name, err))
			continue
		}
		if n := c.nodeByAddr(v[0] + ":" + v[1]); n != nil {
			return n, nil
		}
	}
	return nil, fmt.Errorf("master of %s: no sentinel answered: %w", group, errors.Join(errs...))
}

// admin is the harness's direct client of the node, nil when none.
func (n *Node) admin() *redis.Client {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.impl.adminClient()
}

// Failover makes group's current master fail in mode and waits up to wait
// for a replica to take its place (ROLE says master). The old master stays
// down (crash) or stopped (stop) until the undo: Restart or Resume of the
// Promotion's Old node. Errors: no sentinels, an unknown mode, no
// promotion within wait (the Promotion is still returned, Promoted "").
func (c *Cluster) Failover(ctx context.Context, group, mode string, wait time.Duration) (Promotion, error) {
	p := Promotion{Group: group, ReplicaOffsets: map[string]int64{}}
	if len(c.topo.sentinels) == 0 {
		return p, fmt.Errorf("failover of %s: no sentinels", group)
	}
	old, err := c.Master(ctx, group)
	if err != nil {
		return p, fmt.Errorf("failover of %s: %w", group, err)
	}
	p.Old = old.name
	p.MasterOffset = old.replOffset(ctx, "master_repl_offset")
	var candidates []*Node
	for _, n := range c.everyNode() {
		if n.Group() == group && n != old && n.Role() != RoleSentinel {
			candidates = append(candidates, n)
			p.ReplicaOffsets[n.name] = n.replOffset(ctx, "slave_repl_offset")
		}
	}
	began := time.Now()
	switch mode {
	case FailoverCrash:
		err = old.Kill()
	case FailoverStop:
		err = old.Pause()
	case FailoverCommand:
		err = c.sentinelFailover(ctx, group)
	default:
		err = fmt.Errorf("unknown failover mode %q (want crash, stop or sentinel)", mode)
	}
	if err != nil {
		return p, fmt.Errorf("failover of %s: %w", group, err)
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for {
		for _, n := range candidates {
			if role, off, ok := n.role2(ctx); ok && role == "master" {
				p.Promoted, p.PromotedOffset, p.Took = n.name, off, time.Since(began)
				return p, nil
			}
		}
		select {
		case <-ctx.Done():
			return p, fmt.Errorf("failover of %s: no replica promoted within %v", group, wait)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// sentinelFailover sends SENTINEL FAILOVER to the first sentinel that
// takes it.
func (c *Cluster) sentinelFailover(ctx context.Context, group string) error {
	var errs []error
	for _, s := range c.topo.sentinels {
		admin := s.admin()
		if admin == nil {
			continue
		}
		if err := admin.Do(ctx, "SENTINEL", "FAILOVER", group).Err(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.name, err))
			continue
		}
		return nil
	}
	return fmt.Errorf("sentinel failover: %w", errors.Join(errs...))
}

// replOffset reads an offset field of INFO replication (-1 when the node
// does not answer).
func (n *Node) replOffset(ctx context.Context, field string) int64 {
	n.mu.Lock()
	admin := n.impl.adminClient()
	running := n.impl.state() == StateRunning
	n.mu.Unlock()
	if admin == nil || !running {
		return -1
	}
	ctx, cancel := context.WithTimeout(ctx, 250*time.Millisecond)
	defer cancel()
	info, err := admin.Info(ctx, "replication").Result()
	if err != nil {
		return -1
	}
	v, err := strconv.ParseInt(infoField(info, field), 10, 64)
	if err != nil {
		return -1
	}
	return v
}

// role2 reads ROLE: the role and, for a master, its replication offset.
func (n *Node) role2(ctx context.Context) (string, int64, bool) {
	n.mu.Lock()
	admin := n.impl.adminClient()
	running := n.impl.state() == StateRunning
	n.mu.Unlock()
	if admin == nil || !running {
		return "", 0, false
	}
	ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	v, err := admin.Do(ctx, "ROLE").Slice()
	if err != nil || len(v) < 2 {
		return "", 0, false
	}
	role, _ := v[0].(string)
	off, _ := v[1].(int64)
	return role, off, true
}

// DirectMasterDialer is a go-redis Dialer for the harness (the final
// probe): each connection goes straight to the node the sentinels name as
// group's master, through no link.
func (c *Cluster) DirectMasterDialer(group string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, _ string) (net.Conn, error) {
		m, err := c.Master(ctx, group)
		if err != nil {
			return nil, err
		}
		var d net.Dialer
		return d.DialContext(ctx, network, m.Addr())
	}
}
