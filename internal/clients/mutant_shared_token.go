package clients

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
)

// reentrantAcquire is spring-integration RedisLockRegistry's obtain script
// (RedisLockRegistry.java at 9dd9f08181): re-entrant for the caller's
// owner id, which is the registry's, so one per process.
var reentrantAcquire = redis.NewScript(reentrantAcquireLua)

const reentrantAcquireLua = `local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
elseif not owner then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`

// reentrantSharedToken is a lock whose owner token identifies the process,
// not the holder (BR-26): every client of one simulated process stores the
// process's id, the acquire is re-entrant for that id (PEXPIRE and grant
// when the key already holds it), and the release is a compare-and-delete
// of it. Exclusion between the threads of one process would rest on a
// process-local lock alone; here, as when spring-integration's registry
// cache handed two threads different local locks for one key (PR #8572,
// GH-11180), there is none, so a second thread is granted the key the
// first holds, and either one's release removes it under the other.
type reentrantSharedToken struct {
	cfg  Config
	node Node
	id   string
}

var reentrantSharedTokenAlgorithm = Algorithm{
	Name:        "reentrant-shared-token",
	About:       "owner token per process, not per holder: re-entrant acquire (PEXPIRE when the key holds the process's id) and compare-and-delete release of that id (spring-integration RedisLockRegistry)",
	New:         newReentrantSharedToken,
	Traits:      Traits{Traits: lock.Traits{ClientClock: true}},
	Acquire:     reentrantAcquireLua,
	AcquireArgs: "1 lock-key process-id ttl",
}

func newReentrantSharedToken(c Config) (Locker, error) {
	id := newToken(c.Rand)
	if c.Host != nil && c.Host.ID != "" {
		id = c.Host.ID
	}
	return &reentrantSharedToken{cfg: c, node: c.Nodes[0], id: id}, nil
}

func (r *reentrantSharedToken) Name() string { return "reentrant-shared-token" }

// Acquire grants when the key is free or already holds the process's id.
func (r *reentrantSharedToken) Acquire(ctx context.Context, key string) (Lease, error) {
	start := r.cfg.Clock.Now()
	n, err := reentrantAcquire.Run(ctx, r.node.Cmd, []string{key}, r.id, ttlMillis(r.cfg.TTL)).Int64()
	switch {
	case err != nil:
		return Lease{}, fmt.Errorf("obtain on %s: %w", r.node.Name, err)
	case n == 0:
		return Lease{}, ErrNotAcquired
	}
	return Lease{Key: key, Token: r.id, ValidUntil: start.Add(r.cfg.TTL), Nodes: []string{r.node.Name}}, nil
}

// Release deletes the key while it holds the process's id.
func (r *reentrantSharedToken) Release(ctx context.Context, l Lease) error {
	n, err := compareAndDelete.Run(ctx, r.node.Cmd, []string{l.Key}, l.Token).Int64()
	if err != nil {
		return fmt.Errorf("release on %s: %w", r.node.Name, err)
	}
	if n == 0 {
		return ErrNotHeld
	}
	return nil
}
