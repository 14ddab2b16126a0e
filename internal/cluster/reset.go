package cluster

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Fits reports whether the cluster was started with the same shape as o
// (backend, node count, persistence and its periods, client names), so that a run needing o
// can reuse it after Reset instead of starting a new one.
func (c *Cluster) Fits(o Options) bool {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return false
	}
	p := o.Persistence
	if p == "" {
		p = PersistenceNone
	}
	if o.Backend != "" && o.Backend != c.backend {
		return false
	}
	// A replicated cluster's roles change in a failover: never reused.
	if o.Replicas > 0 || o.Sentinels > 0 || len(c.topo.replicas) > 0 || len(c.topo.sentinels) > 0 {
		return false
	}
	// A reused rdb node snapshots at the interval it started with, an
	// aof-everysec node samples for its power-loss window; a cluster with
	// neither runs no background job, and fits whatever periods o has
	// (they differ with every time scale).
	save, window := backgroundPeriods(o)
	if c.uses(PersistenceRDB) && save != c.saveInterval || c.uses(PersistenceAOFEverysec) && window != c.powerLossWindow {
		return false
	}
	return o.Nodes == len(c.nodes) && p == c.persistence &&
		slices.Equal(o.Clients, c.clients) &&
		maps.Equal(nonEmpty(o.NodePersistence), nonEmpty(c.nodePersistence))
}

// uses reports whether one of the cluster's nodes has persistence mode p.
func (c *Cluster) uses(p string) bool {
	for _, n := range c.nodes {
		if n.persistence == p {
			return true
		}
	}
	return false
}

func nonEmpty(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		if v != "" {
			out[k] = v
		}
	}
	return out
}

// Reset returns a used cluster to the state of a fresh one, so that
// consecutive runs can share nodes and proxies: every toxic is removed and
// every proxy enabled, paused nodes are resumed and killed ones restarted
// (HealAll), then every node is emptied with FLUSHALL and SCRIPT FLUSH
// (FLUSHALL also wipes the
// AOF of a persistent node, and with it every shifted expiry: node clock
// shifts only ever live in key TTLs). Client clocks belong to the runner,
// which makes new ones per run. Returns ErrClosed after Close.
func (c *Cluster) Reset(ctx context.Context) error {
	if err := c.HealAll(ctx); err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	var errs []error
	for _, n := range c.nodes {
		err := n.do("flush", func() error { return n.impl.flush(ctx) })
		if err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	return nil
}

func (n *localNode) flush(ctx context.Context) error {
	if n.state() != StateRunning {
		return ErrNodeNotRunning
	}
	if n.persistence == PersistenceRDB {
		// A snapshot of this run still being written would land after
		// the FLUSHALL, with this run's keys in it.
		if err := waitBgsaveDone(ctx, n.admin); err != nil {
			return err
		}
	}
	if err := n.admin.FlushAll(ctx).Err(); err != nil {
		return err
	}
	// A fresh node knows no script: the next run's first EVALSHA gets
	// NOSCRIPT, as it would, whatever scenario ran here before.
	if err := n.admin.ScriptFlush(ctx).Err(); err != nil {
		return err
	}
	switch n.persistence {
	case PersistenceRDB:
		// The next run must not restart from this run's snapshot, and its
		// save interval starts with it.
		if n.bg != nil {
			select {
			case n.bg.rewind <- struct{}{}:
			default:
			}
		}
		return saveWhenIdle(ctx, n.admin)
	case PersistenceAOFEverysec:
		// A power loss drops the AOF's last second: it must not reach back
		// past this FLUSHALL into the previous run's keys. Rewrite the AOF
		// (an empty base, a fresh incr file), so the next run's writes are
		// all a power loss can drop, as on a fresh node.
		return rewriteAOF(ctx, n.admin)
	}
	return nil
}

// saveWhenIdle writes the dataset with SAVE, waiting for a BGSAVE its
// save interval started meanwhile ("Background save already in
// progress") and trying again, for up to startTimeout.
func saveWhenIdle(ctx context.Context, admin *redis.Client) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	for {
		err := admin.Save(ctx).Err()
		if err == nil || !strings.Contains(err.Error(), "in progress") {
			return err
		}
		if err := waitBgsaveDone(ctx, admin); err != nil {
			return err
		}
	}
}

// waitBgsaveDone waits until no BGSAVE is running (INFO persistence's
// rdb_bgsave_in_progress:0).
func waitBgsaveDone(ctx context.Context, admin *redis.Client) error {
	for {
		info, err := admin.Info(ctx, "persistence").Result()
		if err != nil {
			return fmt.Errorf("wait for bgsave: %w", err)
		}
		if infoField(info, "rdb_bgsave_in_progress") != "1" {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for bgsave: %w", ctx.Err())
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// rewriteAOF runs BGREWRITEAOF and waits until it is done.
func rewriteAOF(ctx context.Context, admin *redis.Client) error {
	if err := admin.BgRewriteAOF(ctx).Err(); err != nil && !strings.Contains(err.Error(), "in progress") {
		return fmt.Errorf("rewrite aof: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	for {
		info, err := admin.Info(ctx, "persistence").Result()
		if err != nil {
			return fmt.Errorf("rewrite aof: %w", err)
		}
		if infoField(info, "aof_rewrite_in_progress") == "0" && infoField(info, "aof_rewrite_scheduled") == "0" {
			if st := infoField(info, "aof_last_bgrewrite_status"); st != "ok" {
				return fmt.Errorf("rewrite aof: status %s", st)
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("rewrite aof: %w", ctx.Err())
		case <-time.After(2 * time.Millisecond):
		}
	}
}

func (n *embeddedNode) flush(ctx context.Context) error {
	if n.state() != StateRunning {
		return ErrNodeNotRunning
	}
	n.m.FlushAll()
	return n.admin.ScriptFlush(ctx).Err()
}
