package clients

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// semaphoreAcquire is the basic sorted-set semaphore of Redis in Action
// 6.3.1, in one script: drop the holders whose timestamp is older than the
// timeout, add the caller with its own clock's timestamp, and keep it only
// if it ranks among the first N. The timestamps come from the clients'
// clocks, so a client whose clock runs ahead purges holders that are still
// working, and a paused holder is purged like a dead one (lock-theory S21).
var semaphoreAcquire = redis.NewScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
if redis.call('ZRANK', KEYS[1], ARGV[3]) < tonumber(ARGV[4]) then
  return 1
end
redis.call('ZREM', KEYS[1], ARGV[3])
return 0`)

// semaphore is a counting semaphore of cfg.Permits permits on one node.
type semaphore struct {
	cfg     Config
	node    Node
	permits int
}

func newSemaphore(c Config) (Locker, error) {
	return &semaphore{cfg: c, node: c.Nodes[0], permits: max(c.Permits, 1)}, nil
}

func (s *semaphore) Name() string { return "semaphore" }

// Acquire takes a permit of the semaphore key; ErrNotAcquired when all
// permits are taken.
func (s *semaphore) Acquire(ctx context.Context, key string) (Lease, error) {
	token := newToken(s.cfg.Rand)
	now := s.cfg.Clock.Now()
	ok, err := semaphoreAcquire.Run(ctx, s.node.Cmd, []string{key},
		now.UnixMilli(), ttlMillis(s.cfg.TTL), token, s.permits).Int64()
	if err != nil {
		return Lease{}, fmt.Errorf("semaphore acquire on %s: %w", s.node.Name, err)
	}
	if ok == 0 {
		return Lease{}, ErrNotAcquired
	}
	return Lease{Key: key, Token: token, ValidUntil: now.Add(s.cfg.TTL), Nodes: []string{s.node.Name}}, nil
}

// Release gives the permit back (ZREM); ErrNotHeld when it was purged.
func (s *semaphore) Release(ctx context.Context, l Lease) error {
	n, err := s.node.Cmd.ZRem(ctx, l.Key, l.Token).Result()
	if err != nil {
		return fmt.Errorf("semaphore release on %s: %w", s.node.Name, err)
	}
	if n == 0 {
		return ErrNotHeld
	}
	return nil
}
