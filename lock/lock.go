// Package lock is locksim's public lock interface: what a lock algorithm or
// an adapter of a third-party lock library implements so that locksim can
// drive it through faults and check what it promised.
//
// A lock client is a [Locker], built once per simulated client by a
// constructor that takes a [Config]. Its answers are sorted into two kinds:
// definite ("certainly not granted", "certainly removed nothing") and
// unknown (anything else: the command may or may not have taken effect).
// The history records a definite refusal as fail and an unknown outcome as
// info, and the checkers treat an info operation as possibly effective
// from its invocation on (Jepsen's rule).
//
// Units. Every duration a Locker is given (Config.TTL, Config.NodeTimeout,
// Config.CommandTimeout, Config.MinHold) is wall time: the scenario's own
// time divided by its time_scale. Lease.ValidUntil is a reading of the
// client's own [Clock], not true time.
//
// What locksim looks for on a Locker is an interface of this package and
// nothing else: [Extender], [Validator], [NodeReleaser] and io.Closer. What
// a Locker may tell locksim goes through its Config: [Gate] (pause points)
// and [Renewals] (background renewals). The building blocks of locksim's
// own locks — its safe lock, scripts, owner tokens and connection
// settings — are package lock/lockkit.
//
// An algorithm is made known to scenarios by registering it once, with its
// constructor and its [Traits], through [Register]; every list of
// algorithms locksim shows or checks against (the scenario parser, the
// runner, `locksim list`, locksimtest.Catalogue) is derived from that
// registration.
package lock

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrNotAcquired means the lock was definitely not granted: no node kept
// this client's key. Any other error from Acquire means the outcome is
// unknown: the lock may have been granted.
var ErrNotAcquired = errors.New("lock not acquired")

// ErrNotHeld means a Release or Extend definitely changed nothing: the key
// was gone or held another owner token. Any other error means unknown.
var ErrNotHeld = errors.New("lock not held")

// ErrInfrastructure marks an error of what the lock runs on rather than of
// the lock: a lock client process that exited or broke its protocol, a
// connection the harness could not make. A Locker returns an error that
// wraps it (errors.Is) when its outcome says nothing about the lock; the
// run then has no verdict, and locksim exits 255.
var ErrInfrastructure = errors.New("infrastructure failure, not the lock's")

// Lease is what a granted Acquire returns.
type Lease struct {
	Key string
	// Token is the owner value stored under the key (a random token for a
	// safe lock).
	Token string
	// Fence is the fencing token; 0 when the algorithm has none. With
	// Traits.Fenced every grant's Fence is larger than the one before.
	Fence int64
	// ValidUntil is the client's own estimate of the lease's end, on the
	// client's Clock (not true time).
	ValidUntil time.Time
	// Nodes are the names of the nodes that granted the lease (may be
	// empty on one node).
	Nodes []string
	// Lost, when not nil, is closed when the algorithm concluded the lease
	// is gone (a renewal failed or found the key gone): the job must stop
	// acting under it. locksim records the moment as the end of the hold.
	Lost <-chan struct{}
}

// Locker is one client's lock algorithm.
//
// Acquire returns ErrNotAcquired when the lock was definitely not granted;
// any other error means unknown. Release returns nil when it removed the
// client's own key, ErrNotHeld when it definitely removed nothing, any other
// error when unknown. Release must be safe to call with a lease that
// already expired. The context bounds one call; an implementation should
// return once it ends (the outcome is then unknown unless nothing was
// sent).
type Locker interface {
	Name() string
	Acquire(ctx context.Context, key string) (Lease, error)
	Release(ctx context.Context, l Lease) error
}

// Extender is implemented by algorithms that can extend a lease in place.
// nil: the lease now runs a further TTL (the returned Lease carries the new
// ValidUntil). ErrNotHeld: definitely not extended. Any other error:
// unknown.
type Extender interface {
	Extend(ctx context.Context, l Lease) (Lease, error)
}

// Validator is implemented by algorithms that can tell whether a lease is
// still theirs (a library's "is this lock still valid / owned?" call). When
// a Locker is a Validator, locksim calls Valid at the client's
// before-write point, just before the critical section acts on the
// resource: false (definitely not held any more) and an error (unknown)
// both make the client stop acting under the lease, as a careful user of
// the library would; locksim records that moment as the end of its hold.
type Validator interface {
	Valid(ctx context.Context, l Lease) (bool, error)
}

// NodeReleaser is implemented by multi-node algorithms that can tell which
// nodes a release removed the key from. When a Locker is a NodeReleaser,
// locksim releases through ReleaseNodes and records those nodes on the
// release; otherwise through Release, recording the lease's nodes. Its
// errors are Release's: nil removed (on the nodes returned), ErrNotHeld
// definitely removed nothing, any other error unknown.
type NodeReleaser interface {
	ReleaseNodes(ctx context.Context, l Lease) (removed []string, err error)
}

// Clock is a client's own notion of wall time. Real clients have clocks
// that drift and jump; locksim injects those faults here. An algorithm
// whose validity arithmetic reads time only through its Clock declares
// Traits.ClientClock.
type Clock interface {
	Now() time.Time
}

// SystemClock is the machine's clock, with no fault.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// Node is one Redis node as one client reaches it: through that client's
// own toxiproxy link, so every partition, latency, reset and node fault
// of a scenario reaches what is sent on it.
type Node struct {
	// Name is the node's name in the scenario (n1, n2, …).
	Name string
	// Cmd is a go-redis client whose connections go through the client's
	// link to the node.
	Cmd redis.Cmdable
	// Addr is the link's address (host:port) for a library that opens
	// its own connections; they then go through the same link.
	Addr string
	// ConnName is the name the client's connections to this node should
	// carry (CLIENT SETNAME), "locksim:<client>:<node>", so that node
	// observation can attribute the commands; Cmd already carries it when
	// the runner names connections.
	ConnName string
	// Stalls, when not nil, records in the run's history each command of
	// a go-redis client on this node that got no answer within its
	// deadline or took 50 ms or more (a machine too busy for the run's
	// compressed time makes the run unknown, not valid). Cmd has it; add
	// it to a client of your own on Addr (client.AddHook(n.Stalls), or
	// lockkit.NewClient, which does).
	Stalls redis.Hook
}

// Config is what every algorithm is built from.
type Config struct {
	// Client is the simulated client's name (w1, w2, …).
	Client string
	// Nodes as this client reaches them; single-instance algorithms use the
	// first.
	Nodes []Node
	// TTL of a lease, wall time.
	TTL time.Duration
	// Clock is the client's clock; nil means SystemClock.
	Clock Clock
	// Rand draws owner tokens; it must be used by one goroutine only. It
	// comes from the run's seed, so a run's tokens are reproducible.
	Rand *rand.Rand
	// NodeTimeout bounds one node's reply in multi-node algorithms, wall
	// time (a scenario's node_timeout); 0 picks the algorithm's default.
	NodeTimeout time.Duration
	// CommandTimeout bounds one Redis command the client sends, wall time:
	// what the runner gives its connections as read and write timeouts and
	// what an adapter should pass to its library. The runner's default is
	// [DefaultCommandTimeout] of the TTL, or the algorithm's own
	// (Algorithm.CommandTimeout); a scenario's node_timeout replaces
	// either. [NoDeadline]: the connections have none.
	CommandTimeout time.Duration
	// Gate, when set, is told when the algorithm reaches an internal pause
	// point (e.g. PointInAcquire), so a fault can freeze it there.
	Gate Gate
	// Permits is the size of a semaphore (Traits.Semaphore); 0 means 1.
	Permits int
	// MinHold is the scenario's min_hold, wall time: the least time a lease
	// stays taken after its grant even when released sooner (ShedLock's
	// lockAtLeastFor). Only algorithms with Traits.MinHold take one; 0
	// means none.
	MinHold time.Duration
	// Renewals records the renewals the Locker makes in the background
	// (see [Renewals]). locksim sets it for every Locker it builds; it is
	// nil in a Config built by hand, so check before use.
	Renewals Renewals
}

// Renewals records the renewals a Locker makes on its own — a watchdog's
// timer, a library's refresh — which no call of locksim's asked for, so
// that the history shows each one as an extend operation (value renewal:
// true): a renewal that kept a lease, one that found it gone, and one
// that set a key again after it had expired are then facts the checkers
// judge. A renewer that can be held back also passes the client's pause
// point [PointInRenew] through Config.Gate just before each renewal.
type Renewals interface {
	// Renewing is called just before a renewal of l is sent; done is
	// called with its outcome once known: nil (renewed), ErrNotHeld
	// (definitely not renewed: the key was gone or held another token),
	// any other error (unknown).
	Renewing(l Lease) (done func(err error))
	// Renewed records a renewal of l that already happened: it began took
	// ago (wall time, as the caller measured it, from its first command
	// sent to its outcome) and ended now with err, sorted as for
	// Renewing's done. For a Locker that hears of its library's renewals
	// only afterwards (a lock client process's renewed event).
	Renewed(l Lease, took time.Duration, err error)
}

// DefaultCommandTimeout is the per-command timeout the runner uses when a
// scenario sets none: half the TTL, between 50 ms and 2 s (wall time).
func DefaultCommandTimeout(ttl time.Duration) time.Duration {
	return min(max(ttl/2, 50*time.Millisecond), 2*time.Second)
}

// Gate is a client's pause gate as an algorithm sees it.
type Gate interface {
	// Point is called when the algorithm reaches a named pause point; a
	// fault planned there fires, and Point returns when the client may go
	// on (an error when it crashed or ctx ended).
	Point(ctx context.Context, point string) error
}

// Pause points an algorithm may report through its Gate.
const (
	// PointInAcquire: the acquire's commands were sent (and, in-process,
	// their replies read) but the outcome is not yet decided: a pause
	// there is Kleppmann's "pause while the replies are in flight".
	PointInAcquire = "in-acquire"
	// PointInRenew: a background renewer is about to renew; a Locker that
	// hears of its library's renewals only afterwards (see
	// [Renewals.Renewed]) passes it right after each one.
	PointInRenew = "in-renew"
)
