package clients

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/locksim/locksim/lock"
)

// perHostKey is the safe lock with a lock key derived from data that
// differs per host (BR-33): Laravel's onOneServer() names its mutex after
// the scheduled command line, which holds the release directory of each
// server's deploy (`/var/www/site/release/120`, `…/121`, …), so every
// server locks a key of its own and the task runs on all of them. Each
// lock on its own key is healthy; the clients just do not share one.
type perHostKey struct {
	single
	path string
}

var perHostKeyAlgorithm = Algorithm{
	Name:   "per-host-key",
	About:  "safe lock whose key is derived from per-host data (the deploy's release directory), so each server locks a key of its own (Laravel's onOneServer mutex named from the command line)",
	New:    newPerHostKey,
	Traits: Traits{Traits: lock.Traits{ClientClock: true}},
}

func newPerHostKey(c Config) (Locker, error) {
	host := c.Client
	if c.Host != nil {
		host = c.Host.Name
	}
	return &perHostKey{single: single{name: "per-host-key", cfg: c, node: c.Nodes[0], cad: true},
		path: ReleasePath(host)}, nil
}

// ReleasePath is the release directory the per-host-key lock puts into a
// host's lock key: /var/www/site/release/<119 + N> for wN (a deploy number
// per server), /var/www/site/release/0 for any other name.
func ReleasePath(host string) string {
	n, err := strconv.Atoi(strings.TrimPrefix(host, "w"))
	if err != nil || !strings.HasPrefix(host, "w") {
		n = -119
	}
	return fmt.Sprintf("/var/www/site/release/%d", 119+n)
}

// Acquire locks the resource's key with this host's release path appended;
// the lease names that key.
func (p *perHostKey) Acquire(ctx context.Context, key string) (Lease, error) {
	return p.single.Acquire(ctx, key+":"+p.path)
}
