package clients

import (
	"context"
	"fmt"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
)

// fairAcquire is a fair lock's acquire in one script, after Redisson's
// RFairLock (BR-29): a waiter list and a timeout per waiter; waiters
// whose timeout passed are removed first; only the head may take a free
// lock; a new waiter's timeout is the tail's (or, with none, now plus the
// lock's remaining lease) plus the thread wait time, so a long lease makes
// every waiter's timeout long. KEYS: lock, queue, timeouts. ARGV: token,
// ttl ms, thread wait ms, now ms (the caller's clock). 1 granted, 0 not.
var fairAcquire = redis.NewScript(`
while true do
  local head = redis.call('LINDEX', KEYS[2], 0)
  if not head then break end
  local t = tonumber(redis.call('HGET', KEYS[3], head))
  if t == nil or t > tonumber(ARGV[4]) then break end
  redis.call('LPOP', KEYS[2])
  redis.call('HDEL', KEYS[3], head)
end
local head = redis.call('LINDEX', KEYS[2], 0)
if redis.call('EXISTS', KEYS[1]) == 0 and (not head or head == ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  if head == ARGV[1] then
    redis.call('LPOP', KEYS[2])
    redis.call('HDEL', KEYS[3], ARGV[1])
  end
  return 1
end
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 0 then
  local tail = redis.call('LINDEX', KEYS[2], -1)
  local base
  if tail then
    base = tonumber(redis.call('HGET', KEYS[3], tail))
  else
    local left = redis.call('PTTL', KEYS[1])
    if left < 0 then left = 0 end
    base = tonumber(ARGV[4]) + left
  end
  redis.call('RPUSH', KEYS[2], ARGV[1])
  redis.call('HSET', KEYS[3], ARGV[1], base + tonumber(ARGV[3]))
end
return 0`)

// fairQueue is a fair lock whose waiters queue in Redis (BR-29): a dead
// waiter's entry stays at the head of the queue until its timeout, and
// the lock, free, can be taken by nobody else meanwhile. Its waiters poll
// (every retry) where Redisson's wait for an unlock message; the thread
// wait time is ten leases (Redisson's defaults: 5 minutes over a 30 s
// watchdog lease). The release is a compare-and-delete.
type fairQueue struct {
	single
	mu      sync.Mutex
	waiting map[string]string // key → the token this client queued with
}

var fairQueueAlgorithm = Algorithm{
	Name:   "fair-queue",
	About:  "fair lock with a waiter queue and per-waiter timeouts in Redis; only the head may take a free lock, so a dead waiter blocks it until its timeout (Redisson's RFairLock)",
	New:    newFairQueue,
	Traits: Traits{Traits: lock.Traits{ClientClock: true}},
}

func newFairQueue(c Config) (Locker, error) {
	return &fairQueue{single: single{name: "fair-queue", cfg: c, node: c.Nodes[0], cad: true}, waiting: map[string]string{}}, nil
}

// FairQueueKeys are the queue and timeout keys of a fair-queue lock key.
func FairQueueKeys(key string) (queue, timeouts string) {
	return "fair-queue:{" + key + "}", "fair-timeout:{" + key + "}"
}

// Acquire takes the lock if it is free and this client heads the queue (or
// the queue is empty); else it queues, once, and is refused.
func (f *fairQueue) Acquire(ctx context.Context, key string) (Lease, error) {
	f.mu.Lock()
	token, ok := f.waiting[key]
	if !ok {
		token = newToken(f.cfg.Rand)
		f.waiting[key] = token
	}
	f.mu.Unlock()
	start := f.cfg.Clock.Now()
	q, to := FairQueueKeys(key)
	n, err := fairAcquire.Run(ctx, f.node.Cmd, []string{key, q, to}, token, ttlMillis(f.cfg.TTL),
		ttlMillis(10*f.cfg.TTL), start.UnixMilli()).Int64()
	switch {
	case err != nil:
		return Lease{}, fmt.Errorf("fair acquire on %s: %w", f.node.Name, err)
	case n == 0:
		return Lease{}, ErrNotAcquired
	}
	f.mu.Lock()
	delete(f.waiting, key)
	f.mu.Unlock()
	return Lease{Key: key, Token: token, ValidUntil: start.Add(f.cfg.TTL), Nodes: []string{f.node.Name}}, nil
}
