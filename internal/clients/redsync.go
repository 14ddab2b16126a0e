package clients

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-redsync/redsync/v4"
	redsyncredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
)

// aboutRedsync is the `locksim list` line of the redsync adapter.
const aboutRedsync = "adapter: go-redsync/redsync v4 Mutex, one go-redis v9 pool per node through locksim's proxies " +
	"(Redlock: SET NX PX on all nodes concurrently, quorum N/2+1, validity = expiry − elapsed − expiry×drift_factor, no +2 ms). " +
	"It measures time with Go's monotonic clock, so client clock faults (jumps, skew) do not reach it"

// redsyncLocker adapts a redsync.Redsync built on the client's own proxied
// connections, one go-redis pool per node (lock-theory §5.2).
//
// The adapter passes the library's own options through and maps its errors
// onto the Locker contract; it does not re-implement anything. Two
// deliberate choices: the lock value is drawn from the run's seeded source
// (WithGenValueFunc, same 16-byte base64 format as the library's own), so
// tokens are reproducible; and a Lease's ValidUntil is the library's Until(),
// on the system clock — the client's injected Clock is never read.
type redsyncLocker struct {
	cfg   Config
	rs    *redsync.Redsync
	names []string
	opts  []redsync.Option
	ref   *refresher
	seen  *grantLog
	value string // the value of the Acquire in progress (one goroutine)
}

// grantLog records, per lock value, the nodes whose SET NX succeeded and
// that no delete took back since: redsync does not say which nodes granted,
// and locksim's checkers need it (a Redlock release only touches the nodes
// of its own grant). It watches the library's traffic at the pool
// boundary; it never changes what the library sends or receives.
type grantLog struct {
	mu      sync.Mutex
	nodes   map[string]map[int]bool // value → nodes holding it
	deleted map[string]map[int]bool // value → nodes a delete removed it from
}

func newGrantLog() *grantLog {
	return &grantLog{nodes: map[string]map[int]bool{}, deleted: map[string]map[int]bool{}}
}

func (g *grantLog) set(value string, node int, held bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.nodes[value] == nil {
		g.nodes[value] = map[int]bool{}
	}
	if g.deleted[value] == nil {
		g.deleted[value] = map[int]bool{}
	}
	if held {
		g.nodes[value][node] = true
	} else {
		delete(g.nodes[value], node)
		g.deleted[value][node] = true
	}
}

// take returns the nodes holding value (deleted false) or the nodes a
// delete removed it from (deleted true), in index order, and forgets value.
func (g *grantLog) take(value string, names []string, deleted bool) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	set := g.nodes[value]
	if deleted {
		set = g.deleted[value]
	}
	var out []string
	for i, name := range names {
		if set[i] {
			out = append(out, name)
		}
	}
	delete(g.nodes, value)
	delete(g.deleted, value)
	return out
}

// loggedPool is a redsync pool whose connections report to a grantLog.
type loggedPool struct {
	redsyncredis.Pool
	node int
	log  *grantLog
}

func (p loggedPool) Get(ctx context.Context) (redsyncredis.Conn, error) {
	c, err := p.Pool.Get(ctx)
	if err != nil {
		return nil, err
	}
	return loggedConn{Conn: c, node: p.node, log: p.log}, nil
}

type loggedConn struct {
	redsyncredis.Conn
	node int
	log  *grantLog
}

func (c loggedConn) SetNX(name, value string, expiry time.Duration) (bool, error) {
	ok, err := c.Conn.SetNX(name, value, expiry)
	if err == nil && ok {
		c.log.set(value, c.node, true)
	}
	return ok, err
}

func (c loggedConn) Eval(script *redsyncredis.Script, keysAndArgs ...any) (any, error) {
	v, err := c.Conn.Eval(script, keysAndArgs...)
	if err == nil && v == int64(1) && len(keysAndArgs) >= 2 && strings.Contains(script.Src, `"DEL"`) {
		if value, ok := keysAndArgs[1].(string); ok {
			c.log.set(value, c.node, false)
		}
	}
	return v, err
}

// redsyncAlgorithm takes a library block with a drift factor, on 1 to 9
// nodes (quorum N/2+1); its monotonic clock keeps client clock faults away.
var redsyncAlgorithm = Algorithm{
	Name:   "redsync",
	About:  aboutRedsync,
	New:    newRedsync,
	Traits: Traits{Traits: lock.Traits{MultiNode: true}, Library: true, DriftFactor: true},
}

func newRedsync(c Config) (Locker, error) {
	seen := newGrantLog()
	pools := make([]redsyncredis.Pool, len(c.Nodes))
	names := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		uc, ok := n.Cmd.(redis.UniversalClient)
		if !ok {
			return nil, fmt.Errorf("redsync: node %s: %T is not a go-redis UniversalClient (redsync's goredis pool needs one)", n.Name, n.Cmd)
		}
		pools[i] = loggedPool{Pool: goredis.NewPool(uc), node: i, log: seen}
		names[i] = n.Name
	}
	lib := c.Library
	if lib.Tries < 0 || lib.RetryDelay < 0 || lib.Refresh < 0 {
		return nil, fmt.Errorf("redsync: negative library option in %+v", lib)
	}
	if lib.DriftFactor != nil && (*lib.DriftFactor < 0 || *lib.DriftFactor >= 1) {
		return nil, fmt.Errorf("redsync: drift factor %v must be in [0, 1)", *lib.DriftFactor)
	}
	r := &redsyncLocker{cfg: c, rs: redsync.New(pools...), names: names, ref: newRefresher(c), seen: seen}
	r.opts = []redsync.Option{
		redsync.WithExpiry(c.TTL),
		redsync.WithTries(libraryTries(lib)),
		redsync.WithGenValueFunc(func() (string, error) {
			r.value = libraryToken(c.Rand, base64.StdEncoding)
			return r.value, nil
		}),
	}
	if lib.RetryDelay > 0 {
		r.opts = append(r.opts, redsync.WithRetryDelay(lib.RetryDelay))
	}
	if lib.DriftFactor != nil {
		r.opts = append(r.opts, redsync.WithDriftFactor(*lib.DriftFactor))
	}
	if c.NodeTimeout > 0 {
		// redsync bounds each attempt by expiry × timeoutFactor.
		r.opts = append(r.opts, redsync.WithTimeoutFactor(float64(c.NodeTimeout)/float64(c.TTL)))
	}
	return r, nil
}

func (r *redsyncLocker) Name() string { return "redsync" }

func (r *redsyncLocker) quorum() int { return len(r.names)/2 + 1 }

func (r *redsyncLocker) mutex(key string, extra ...redsync.Option) *redsync.Mutex {
	return r.rs.NewMutex(key, append(append([]redsync.Option(nil), r.opts...), extra...)...)
}

// Acquire runs redsync's LockContext (Tries attempts). The lease's Token is
// the mutex's Value, ValidUntil its Until, Nodes the nodes the grantLog saw
// grant it.
func (r *redsyncLocker) Acquire(ctx context.Context, key string) (Lease, error) {
	m := r.mutex(key)
	err := m.LockContext(ctx)
	nodes := r.seen.take(r.value, r.names, false)
	if err != nil {
		return Lease{}, r.acquireErr(ctx, err)
	}
	l := Lease{Key: key, Token: m.Value(), ValidUntil: m.Until(), Nodes: nodes}
	r.ref.start(l.Token, r.cfg.TTL, func(ctx context.Context) error {
		_, err := r.Extend(ctx, l)
		return err
	})
	return l, nil
}

// redsyncCounts sorts the leaves of a redsync error: nodes that hold
// another owner's value, nodes where the key had expired, nodes that did
// not answer (or answered with an error), and anything else.
type redsyncCounts struct{ taken, expired, unknown, other int }

func countRedsync(err error) redsyncCounts {
	var c redsyncCounts
	walkJoined(err, func(e error) {
		var nodeTaken *redsync.ErrNodeTaken
		var redisErr *redsync.RedisError
		switch {
		case errors.As(e, &nodeTaken):
			c.taken++
		case errors.Is(e, redsync.ErrLockAlreadyExpired):
			c.expired++
		case errors.As(e, &redisErr):
			c.unknown++
		default:
			c.other++
		}
	})
	return c
}

// acquireErr maps a failed LockContext to the Locker contract.
// redsync.ErrFailed (quorum reached too late, or every try refused) and
// *redsync.ErrTaken (a quorum holds another value) are definite, unless
// the context ended between tries. A joined
// error of per-node errors is definite only when the nodes that did not
// answer could not have made a quorum together with those that granted.
func (r *redsyncLocker) acquireErr(ctx context.Context, err error) error {
	if errors.Is(err, redsync.ErrFailed) && ctx.Err() != nil {
		// The context ended while waiting between tries: the error of the
		// last try, which may have been unknown, is lost.
		return fmt.Errorf("redsync: outcome unknown (%v): %w", ctx.Err(), err)
	}
	var taken *redsync.ErrTaken
	if errors.Is(err, redsync.ErrFailed) || errors.As(err, &taken) {
		return fmt.Errorf("%w: redsync: %v", ErrNotAcquired, err)
	}
	c := countRedsync(err)
	if c.other == 0 && len(r.names)-c.taken < r.quorum() {
		return fmt.Errorf("%w: redsync: %v", ErrNotAcquired, err)
	}
	if c.other == 0 && c.unknown == 0 {
		return fmt.Errorf("%w: redsync: %v", ErrNotAcquired, err)
	}
	return fmt.Errorf("redsync: outcome unknown: %w", err)
}

// Release runs UnlockContext with the lease's value (WithValue). nil when
// the library reports a quorum of deletions, or when some node deleted our
// key; ErrNotHeld when every node answered and none held our value.
func (r *redsyncLocker) Release(ctx context.Context, l Lease) error {
	_, err := r.ReleaseNodes(ctx, l)
	return err
}

// ReleaseNodes is Release that also returns the nodes it removed the key
// from (NodeReleaser).
func (r *redsyncLocker) ReleaseNodes(ctx context.Context, l Lease) ([]string, error) {
	r.ref.stop(l.Token)
	if l.Token == "" {
		return nil, ErrNotHeld
	}
	ok, err := r.mutex(l.Key, redsync.WithValue(l.Token)).UnlockContext(ctx)
	removed := r.seen.take(l.Token, r.names, true)
	if err := r.releaseErr(ok, err); err != nil {
		return nil, err
	}
	return removed, nil
}

// releaseErr maps UnlockContext's result to the Locker contract.
func (r *redsyncLocker) releaseErr(ok bool, err error) error {
	if ok {
		return nil
	}
	var taken *redsync.ErrTaken
	if errors.As(err, &taken) {
		if len(taken.Nodes) == len(r.names) {
			return fmt.Errorf("%w: redsync: %v", ErrNotHeld, err)
		}
		return fmt.Errorf("redsync: release: %d/%d nodes hold another value, the rest unknown: %w", len(taken.Nodes), len(r.names), err)
	}
	c := countRedsync(err)
	if c.other > 0 {
		return fmt.Errorf("redsync: release outcome unknown: %w", err)
	}
	removed := len(r.names) - c.taken - c.expired - c.unknown
	switch {
	case removed > 0:
		return nil
	case c.unknown == 0:
		return fmt.Errorf("%w: redsync: %v", ErrNotHeld, err)
	}
	return fmt.Errorf("redsync: release outcome unknown: %w", err)
}

// Extend runs ExtendContext with the lease's value. ErrNotHeld when every
// node answered and none held our value; redsync.ErrExtendFailed (a quorum
// extended, but too late) is unknown: the keys were extended.
func (r *redsyncLocker) Extend(ctx context.Context, l Lease) (Lease, error) {
	m := r.mutex(l.Key, redsync.WithValue(l.Token))
	ok, err := m.ExtendContext(ctx)
	if ok {
		l.ValidUntil = m.Until()
		return l, nil
	}
	// redsync reports a node without our value — key gone or another
	// owner's — as "taken".
	var taken *redsync.ErrTaken
	if errors.As(err, &taken) && len(taken.Nodes) == len(r.names) {
		return l, fmt.Errorf("%w: redsync: %v", ErrNotHeld, err)
	}
	c := countRedsync(err)
	if err != nil && c.other == 0 && c.unknown == 0 && c.taken+c.expired == len(r.names) {
		return l, fmt.Errorf("%w: redsync: %v", ErrNotHeld, err)
	}
	if err == nil {
		err = errors.New("no quorum")
	}
	return l, fmt.Errorf("redsync: extend outcome unknown: %w", err)
}

var _ NodeReleaser = (*redsyncLocker)(nil)
