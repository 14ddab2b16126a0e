package clients

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
)

// semaphoreAcquire is the basic sorted-set semaphore of Redis in Action
// 6.3.1, in one script: drop the holders whose timestamp is older than the
// timeout, add the caller with its own clock's timestamp, and keep it only
// if it ranks among the first N. The timestamps come from the clients'
// clocks, so a client whose clock runs ahead purges holders that are still
// working, and a paused holder is purged like a dead one (lock-theory S21).
var semaphoreAcquire = redis.NewScript(semaphoreAcquireLua)

const semaphoreAcquireLua = `redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
if redis.call('ZRANK', KEYS[1], ARGV[3]) < tonumber(ARGV[4]) then
  return 1
end
redis.call('ZREM', KEYS[1], ARGV[3])
return 0`

// fairSemaphoreAcquire is the fair semaphore of Redis in Action 6.3.2, in
// one script. KEYS: the timeout set (holders scored by the client-clock
// timestamp of their acquire), the owner set (holders scored by their
// place in line) and the line counter. ARGV: now (client ms), timeout
// (ms), token, permits. Holders older than the timeout are dropped from
// both sets; the caller takes the next number from the counter, so it
// ranks after every current holder whatever its clock says, and keeps its
// place only if it ranks among the first N. Clock skew can still purge a
// working holder early, and a paused holder is still purged like a dead one
// (lock-theory S21, run B').
var fairSemaphoreAcquire = redis.NewScript(fairSemaphoreAcquireLua)

const fairSemaphoreAcquireLua = `local now, timeout = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - timeout)
redis.call('ZINTERSTORE', KEYS[2], 2, KEYS[2], KEYS[1], 'WEIGHTS', 1, 0)
local place = redis.call('INCR', KEYS[3])
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('ZADD', KEYS[2], place, ARGV[3])
if redis.call('ZRANK', KEYS[2], ARGV[3]) < tonumber(ARGV[4]) then
  return 1
end
redis.call('ZREM', KEYS[1], ARGV[3])
redis.call('ZREM', KEYS[2], ARGV[3])
return 0`

// fairSemaphoreRelease removes the holder from both sets; it returns how
// many entries of the timeout set it removed (0: the holder was purged).
var fairSemaphoreRelease = redis.NewScript(`
redis.call('ZREM', KEYS[2], ARGV[1])
return redis.call('ZREM', KEYS[1], ARGV[1])`)

// semaphore is a counting semaphore of cfg.Permits permits on one node:
// the basic one (Redis in Action 6.3.1) or, with fair, the fair one
// (6.3.2), whose semaphore key is the timeout set, key+":owner" the owner
// set and key+":counter" the line counter.
type semaphore struct {
	cfg     Config
	node    Node
	permits int
	fair    bool
}

// semaphoreAlgorithm runs the semaphore workload only; the fair one runs
// every workload.
var semaphoreAlgorithm = Algorithm{
	Name:        "semaphore",
	About:       "basic sorted-set semaphore of N permits ranked by client-clock timestamps: ZREMRANGEBYSCORE expired, ZADD, ZRANK < N (Redis in Action 6.3.1); a later caller with an earlier timestamp can rank ahead of holders",
	New:         newSemaphore,
	Traits:      Traits{Traits: lock.Traits{Semaphore: true, Workloads: []string{"semaphore"}, ClientClock: true}},
	Acquire:     semaphoreAcquireLua,
	AcquireArgs: "1 semaphore-key now-ms timeout-ms token permits",
}

var fairSemaphoreAlgorithm = Algorithm{
	Name:        "fair-semaphore",
	About:       "fair semaphore of N permits: a counter gives each caller its place in line after every holder; timestamps only time holders out (Redis in Action 6.3.2)",
	New:         newFairSemaphore,
	Traits:      Traits{Traits: lock.Traits{Semaphore: true, ClientClock: true}},
	Acquire:     fairSemaphoreAcquireLua,
	AcquireArgs: "3 semaphore-key semaphore-key:owner semaphore-key:counter now-ms timeout-ms token permits",
}

func newSemaphore(c Config) (Locker, error) {
	return &semaphore{cfg: c, node: c.Nodes[0], permits: max(c.Permits, 1)}, nil
}

func newFairSemaphore(c Config) (Locker, error) {
	return &semaphore{cfg: c, node: c.Nodes[0], permits: max(c.Permits, 1), fair: true}, nil
}

func (s *semaphore) Name() string {
	if s.fair {
		return "fair-semaphore"
	}
	return "semaphore"
}

// keys are the Redis keys of the semaphore key: the timeout set, and for
// the fair semaphore the owner set and the line counter.
func (s *semaphore) keys(key string) []string {
	if s.fair {
		return []string{key, key + ":owner", key + ":counter"}
	}
	return []string{key}
}

// Acquire takes a permit of the semaphore key; ErrNotAcquired when all
// permits are taken.
func (s *semaphore) Acquire(ctx context.Context, key string) (Lease, error) {
	script := semaphoreAcquire
	if s.fair {
		script = fairSemaphoreAcquire
	}
	token := newToken(s.cfg.Rand)
	now := s.cfg.Clock.Now()
	ok, err := script.Run(ctx, s.node.Cmd, s.keys(key),
		now.UnixMilli(), ttlMillis(s.cfg.TTL), token, s.permits).Int64()
	if err != nil {
		return Lease{}, fmt.Errorf("%s acquire on %s: %w", s.Name(), s.node.Name, err)
	}
	if ok == 0 {
		return Lease{}, ErrNotAcquired
	}
	return Lease{Key: key, Token: token, ValidUntil: now.Add(s.cfg.TTL), Nodes: []string{s.node.Name}}, nil
}

// Release gives the permit back (ZREM from the timeout set, and from the
// owner set of a fair semaphore); ErrNotHeld when it was purged.
func (s *semaphore) Release(ctx context.Context, l Lease) error {
	var n int64
	var err error
	if s.fair {
		n, err = fairSemaphoreRelease.Run(ctx, s.node.Cmd, s.keys(l.Key)[:2], l.Token).Int64()
	} else {
		n, err = s.node.Cmd.ZRem(ctx, l.Key, l.Token).Result()
	}
	if err != nil {
		return fmt.Errorf("%s release on %s: %w", s.Name(), s.node.Name, err)
	}
	if n == 0 {
		return ErrNotHeld
	}
	return nil
}
