// Package lockkit holds the building blocks of locksim's own Redis locks,
// for a lock of your own written against package lock: the safe
// single-instance lock of redis.io's "Distributed Locks with Redis" page
// (SET NX PX, compare-and-delete), its scripts, owner tokens, the TTL in
// Redis's units, and the connection settings locksim's own clients use —
// so that a client you open on a node's address behaves like locksim's
// and keeps its stall recording.
package lockkit

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/observe"
	"github.com/locksim/locksim/lock"
)

// CompareAndDelete deletes KEYS[1] only while it holds the owner token
// ARGV[1], and returns 1, else 0 (redis.io, "Distributed Locks with
// Redis", the single-instance release): a stale holder's release leaves
// the next holder's key alone.
var CompareAndDelete = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`)

// CompareAndPexpire sets KEYS[1]'s TTL to ARGV[2] milliseconds only while
// it holds the owner token ARGV[1], and returns 1, else 0: an extend (a
// renewal) that never touches another holder's key and never creates a
// missing one (what redis-semaphore 5.3.1 fixed, #175).
var CompareAndPexpire = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`)

// NewToken draws a 128-bit owner token, as 32 hex digits, from r (the
// client's seeded source: Config.Rand, so a run's tokens are
// reproducible from its seed).
func NewToken(r *rand.Rand) string {
	return fmt.Sprintf("%016x%016x", r.Uint64(), r.Uint64())
}

// TTLMillis is d in whole milliseconds, at least 1: the PX of SET and the
// argument of PEXPIRE (PX 0 is an error).
func TTLMillis(d time.Duration) int64 {
	return max(d.Milliseconds(), 1)
}

// Options are the go-redis options of locksim's own clients on a node at
// addr: RESP2 (no HELLO: one round trip fewer at each dial), no CLIENT
// SETINFO, no retries (a SET resent after a reconnect would make an
// unknown outcome look definite), a dial, read and write timeout of
// timeout (wall time; lock.NoDeadline: no read or write deadline, only the
// call's context), the call's context deadline honoured, and every
// connection named connName (lock.Node.ConnName) by a CLIENT SETNAME sent
// in front of its first command, at no extra round trip, so that node
// observation can tell whose commands they are.
func Options(addr, connName string, timeout time.Duration) *redis.Options {
	dial := timeout
	if dial <= 0 {
		dial = 2 * time.Second // no deadline of its own: the call's context bounds the dial too
	}
	rw := timeout
	if timeout == lock.NoDeadline {
		rw = -1 // go-redis: no deadline
	}
	return &redis.Options{
		Addr: addr, Protocol: 2, MaxRetries: -1, DisableIdentity: true,
		Dialer:      observe.Dialer(connName, dial),
		DialTimeout: dial, ReadTimeout: rw, WriteTimeout: rw,
		ContextTimeoutEnabled: true,
	}
}

// NewClient is a client of node n with Options(n.Addr, n.ConnName,
// timeout), whose stalls are recorded as the runner's own clients' are
// (n.Stalls): for a lock that needs connections of its own, with other
// timeouts than Node.Cmd's. Close it when the Locker closes.
func NewClient(n lock.Node, timeout time.Duration) *redis.Client {
	c := redis.NewClient(Options(n.Addr, n.ConnName, timeout))
	if n.Stalls != nil {
		c.AddHook(n.Stalls)
	}
	return c
}

// Safe is the safe single-instance lock (redis.io, "Distributed Locks with
// Redis"): SET key token NX PX ttl on the first node, a random owner token
// per grant, released with CompareAndDelete and extended with
// CompareAndPexpire. It is locksim's `safe` algorithm, a lock.Locker and a
// lock.Extender. Its leases' ValidUntil is measured on the client's clock
// from just before the SET was sent.
type Safe struct {
	name string
	node lock.Node
	ttl  time.Duration
	clk  lock.Clock
	rnd  *rand.Rand
}

// NewSafe is the safe lock on c's first node with c's TTL, clock and
// random source (a nil Clock is the system clock). name is what Name
// returns ("" is "safe").
func NewSafe(name string, c lock.Config) (*Safe, error) {
	switch {
	case len(c.Nodes) == 0:
		return nil, errors.New("lockkit: no nodes")
	case c.TTL <= 0:
		return nil, fmt.Errorf("lockkit: ttl %v must be > 0", c.TTL)
	case c.Rand == nil:
		return nil, errors.New("lockkit: no random source")
	}
	if name == "" {
		name = "safe"
	}
	clk := c.Clock
	if clk == nil {
		clk = lock.SystemClock{}
	}
	return &Safe{name: name, node: c.Nodes[0], ttl: c.TTL, clk: clk, rnd: c.Rand}, nil
}

// Name is the lock's name.
func (s *Safe) Name() string { return s.name }

// Acquire sets key with a fresh owner token, NX PX TTL: lock.ErrNotAcquired
// when the key was there or the node refused the SET unrun (NotRun: it was
// loading its data), any other error unknown.
func (s *Safe) Acquire(ctx context.Context, key string) (lock.Lease, error) {
	token := NewToken(s.rnd)
	start := s.clk.Now()
	ok, err := s.node.Cmd.SetNX(ctx, key, token, s.ttl).Result()
	switch {
	case NotRun(err):
		// The node refused the SET unrun (loading its data): not granted.
		return lock.Lease{}, fmt.Errorf("%w: set nx on %s: %w", lock.ErrNotAcquired, s.node.Name, err)
	case err != nil:
		return lock.Lease{}, fmt.Errorf("set nx on %s: %w", s.node.Name, err)
	case !ok:
		return lock.Lease{}, lock.ErrNotAcquired
	}
	return lock.Lease{Key: key, Token: token, ValidUntil: start.Add(s.ttl), Nodes: []string{s.node.Name}}, nil
}

// NotRun reports whether err is a Redis error reply with which the node
// refused a command without running it: -LOADING, a node still loading
// its dataset (AOF or RDB) after a restart. Such a reply is a definite
// answer, not an unknown outcome: the command changed nothing.
func NotRun(err error) bool {
	var re redis.Error
	return errors.As(err, &re) && strings.HasPrefix(re.Error(), "LOADING")
}

// Release deletes the lease's key while it holds the lease's token:
// lock.ErrNotHeld when it did not, any other error unknown.
func (s *Safe) Release(ctx context.Context, l lock.Lease) error {
	n, err := CompareAndDelete.Run(ctx, s.node.Cmd, []string{l.Key}, l.Token).Int64()
	switch {
	case err != nil:
		return fmt.Errorf("release on %s: %w", s.node.Name, err)
	case n == 0:
		return lock.ErrNotHeld
	}
	return nil
}

// Extend gives the lease's key a full TTL again while it holds the lease's
// token, and returns the lease with its new ValidUntil: lock.ErrNotHeld
// when the key was gone or another's, any other error unknown.
func (s *Safe) Extend(ctx context.Context, l lock.Lease) (lock.Lease, error) {
	start := s.clk.Now()
	n, err := CompareAndPexpire.Run(ctx, s.node.Cmd, []string{l.Key}, l.Token, TTLMillis(s.ttl)).Int64()
	switch {
	case err != nil:
		return l, fmt.Errorf("extend on %s: %w", s.node.Name, err)
	case n == 0:
		return l, lock.ErrNotHeld
	}
	l.ValidUntil = start.Add(s.ttl)
	return l, nil
}

var (
	_ lock.Locker   = (*Safe)(nil)
	_ lock.Extender = (*Safe)(nil)
)
