package cluster

import (
	"errors"
	"sync"
	"time"
)

// live is the process-wide set of started, not yet closed clusters, so that
// a signal handler can stop every node of every run at once (KillAll).
var live struct {
	mu       sync.Mutex
	clusters map[*Cluster]struct{}
}

func register(c *Cluster) {
	live.mu.Lock()
	defer live.mu.Unlock()
	if live.clusters == nil {
		live.clusters = map[*Cluster]struct{}{}
	}
	live.clusters[c] = struct{}{}
}

func unregister(c *Cluster) {
	live.mu.Lock()
	defer live.mu.Unlock()
	delete(live.clusters, c)
}

// Live returns the number of started clusters not yet closed.
func Live() int {
	live.mu.Lock()
	defer live.mu.Unlock()
	return len(live.clusters)
}

// killAllWait bounds how long KillAll waits for Close calls already under
// way in other goroutines.
const killAllWait = 5 * time.Second

// KillAll closes every live cluster: every proxy stops, every node is killed
// (SIGKILL on its process group for local nodes) and its temp dir removed,
// and so is every node of the idle pool (DrainPool).
// It is meant for a second Ctrl-C, when locksim exits without waiting for
// its runs to wind down. It is safe to call concurrently with Close (each
// cluster is closed once; a cluster stays live until its Close returns, and
// KillAll waits up to 5 s for Close calls already under way) and returns the
// joined close errors, if any. Clusters still starting are not yet
// registered; their processes die with locksim (parent-death signal) and the
// next local start removes their dirs.
func KillAll() error {
	live.mu.Lock()
	cs := make([]*Cluster, 0, len(live.clusters))
	for c := range live.clusters {
		cs = append(cs, c)
	}
	live.mu.Unlock()
	var errs []error
	for _, c := range cs {
		c.mu.Lock()
		c.pooled = false // stopped, not kept idle
		c.mu.Unlock()
		if err := c.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	for deadline := time.Now().Add(killAllWait); Live() > 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if err := DrainPool(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
