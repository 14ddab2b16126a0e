package clients

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
)

// minHoldLock is a scheduler lock with a minimum hold, ShedLock's
// lockAtLeastFor (lock-theory §5; BR-28). The lock is SET key value NX PX
// ttl (lockAtMostFor); the value is "ADDED:<grant time>@<process>". The
// unlock keeps the key until the lease's minimum hold has passed: before
// then it rewrites the key with PX of what is left of it, after it deletes
// the key. The checked variant compares the value first.
type minHoldLock struct {
	name    string
	cfg     Config
	node    Node
	checked bool
}

var setXXUnlockAlgorithm = Algorithm{
	Name:  "set-xx-unlock",
	About: "scheduler lock with a minimum hold whose unlock is a plain DEL, or a SET XX PX of the minimum hold left, of whoever's key (ShedLock's Redis provider before PR #2584)",
	New: func(c Config) (Locker, error) {
		return &minHoldLock{name: "set-xx-unlock", cfg: c, node: c.Nodes[0]}, nil
	},
	Traits: Traits{Traits: lock.Traits{ClientClock: true, MinHold: true}},
}

var checkedMinHoldUnlockAlgorithm = Algorithm{
	Name:  "checked-min-hold-unlock",
	About: "scheduler lock with a minimum hold whose unlock first compares the key's value with its own (ShedLock's Redis provider after PR #2584)",
	New: func(c Config) (Locker, error) {
		return &minHoldLock{name: "checked-min-hold-unlock", cfg: c, node: c.Nodes[0], checked: true}, nil
	},
	Traits: Traits{Traits: lock.Traits{ClientClock: true, MinHold: true}},
}

// checkedMinHoldUnlock rewrites (ARGV[2] > 0: PEXPIRE the minimum hold
// left) or deletes the key only while it holds the caller's value.
var checkedMinHoldUnlock = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
if tonumber(ARGV[2]) > 0 then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return redis.call('DEL', KEYS[1])`)

func (m *minHoldLock) Name() string { return m.name }

// Acquire sets the key with NX PX TTL. The value names the grant's time,
// on the client's clock, and the client's process.
func (m *minHoldLock) Acquire(ctx context.Context, key string) (Lease, error) {
	start := m.cfg.Clock.Now()
	val := fmt.Sprintf("ADDED:%d@%s", start.UnixNano(), m.hostName())
	if m.checked {
		val += ":" + newToken(m.cfg.Rand) // PR #2584's unique value
	}
	ok, err := m.node.Cmd.SetNX(ctx, key, val, m.cfg.TTL).Result()
	switch {
	case err != nil:
		return Lease{}, fmt.Errorf("set nx on %s: %w", m.node.Name, err)
	case !ok:
		return Lease{}, ErrNotAcquired
	}
	return Lease{Key: key, Token: val, ValidUntil: start.Add(m.cfg.TTL), Nodes: []string{m.node.Name}}, nil
}

// Release keeps the key for what is left of the minimum hold, measured
// from the lease's start (ValidUntil − TTL) on the client's clock, or
// deletes it once that has passed.
func (m *minHoldLock) Release(ctx context.Context, l Lease) error {
	left := l.ValidUntil.Add(-m.cfg.TTL).Add(m.cfg.MinHold).Sub(m.cfg.Clock.Now())
	var n int64
	var err error
	switch {
	case m.checked:
		ms := int64(0)
		if left > 0 {
			ms = ttlMillis(left)
		}
		n, err = checkedMinHoldUnlock.Run(ctx, m.node.Cmd, []string{l.Key}, l.Token, ms).Int64()
	case left > 0:
		val := fmt.Sprintf("ADDED:%d@%s", m.cfg.Clock.Now().UnixNano(), m.hostName())
		var ok bool
		ok, err = m.node.Cmd.SetXX(ctx, l.Key, val, time.Duration(ttlMillis(left))*time.Millisecond).Result()
		if ok {
			n = 1
		}
	default:
		n, err = m.node.Cmd.Del(ctx, l.Key).Result()
	}
	if err != nil {
		return fmt.Errorf("unlock on %s: %w", m.node.Name, err)
	}
	if n == 0 {
		return ErrNotHeld
	}
	return nil
}

// hostName is the process the value names (ShedLock's hostname).
func (m *minHoldLock) hostName() string {
	if m.cfg.Host != nil {
		return m.cfg.Host.Name
	}
	return m.cfg.Client
}
