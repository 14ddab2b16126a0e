package workload

import (
	"context"
	"errors"
	"iter"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/lock"
)

// Run is one run's resource — the invoices and the payment gateway, the
// counters, the leader's work log — in the harness: the ground truth of
// what happened, every decision it makes recorded in the history. Its
// clients share it.
type Run interface {
	// Setup prepares the resource before time zero (an inventory's stock
	// in Redis).
	Setup(ctx context.Context) error
	// Work is what one client does for the whole run: its jobs, each under
	// the lock.
	Work(ctx context.Context, c Client)
}

// Env is a run as a workload's resource sees it; the runner implements it.
type Env interface {
	// Keys is workload.keys: how many protected objects (or leases).
	Keys() int
	// Guard is the run's resource guard (workload.fencing,
	// workload.check_and_set, and the workload's own Fencer), one per run.
	Guard() *Guard
	// Admin runs f with a direct connection to n1 (not through any
	// client's link), before time zero.
	Admin(ctx context.Context, f func(n1 redis.Cmdable) error) error
}

// Body is what a client does under a granted lease: finished false has
// the whole acquire-and-do retried (its lease was lost), an error ends the
// client's run.
type Body func(l lock.Lease) (finished bool, err error)

// Client is one lock client as a workload drives it; the runner
// implements it. Durations it takes are wall time unless they say
// otherwise.
type Client interface {
	// Name is the client's name (w1, w2, …) and Index its place (0-based).
	Name() string
	Index() int
	// LockFree: the algorithm takes no lock; With runs the body alone,
	// with a lease that holds only the key.
	LockFree() bool
	// ClaimFirst: the client claims each object with its lease's token
	// right after acquiring (workload.claim).
	ClaimFirst() bool
	// Objects yields the client's protected objects: its own keys when
	// the scenario gives it some, else every object, each round of
	// workload.rounds once, workload.round_delay between two rounds.
	Objects() iter.Seq[string]
	// OwnKeys are the numbers of the client's own keys (clients: {wN:
	// {keys: […]}}), nil when it has none.
	OwnKeys() []int

	// With runs body under the lock on key: it acquires (retrying every
	// retry delay), passes after-acquire, runs body, records done unless
	// the lease was lost, passes before-release and releases. false when
	// the run is over for the client.
	With(ctx context.Context, key string, body Body) bool
	// Acquire tries the lock on key once, recording the acquire.
	Acquire(ctx context.Context, key string) (lock.Lease, bool)
	// Hold is With after the grant: with release false the lease is left
	// to expire (a lock per fire time).
	Hold(ctx context.Context, l lock.Lease, body Body, release bool) (finished, ok bool)
	// Job does the slow work under l: the client's job length, or until
	// its own clock says the lease has workload.until_validity left.
	Job(ctx context.Context, l lock.Lease) error
	// BeforeWrite passes the before-write point and checks that l is
	// still held (a lost or invalid lease gives ErrLost).
	BeforeWrite(ctx context.Context, l lock.Lease) error
	// Point passes one of the client's pause points (history.Point*).
	Point(ctx context.Context, point string) error
	// PointThen is Point with check run the moment the point is passed:
	// at once when the client is not paused there, else as its pause ends,
	// before any goroutine of the client runs again (faults.Gate.PointThen),
	// so a check of its leases sees them as they stood when it woke.
	PointThen(ctx context.Context, point string, check func()) error
	// Sleep waits as the client does (pauses freeze it), d wall time.
	Sleep(ctx context.Context, d time.Duration) error
	// Wall turns a scenario duration into wall time.
	Wall(d time.Duration) time.Duration
	// RetryDelay and JobLength are the scenario's retry delay and this
	// client's job length, scenario time.
	RetryDelay() time.Duration
	JobLength() time.Duration
	// Now is the client's own clock; Zero the run's time zero on it.
	Now() time.Time
	Zero() time.Time
	// Crashed: a fault stopped the client for good.
	Crashed() bool
	// Heartbeat extends l in the client's own loop (a leader's
	// heartbeat): the lease to go on with, and false when it was refused
	// or unknown (recorded as the lease lost).
	Heartbeat(ctx context.Context, l lock.Lease) (lock.Lease, bool)
	// WatchLost records a lost operation the moment l's algorithm declares
	// it lost; stop ends the watch.
	WatchLost(l lock.Lease) (stop func())
	// Validate asks the lock whether l is still held (ErrLost when not).
	Validate(ctx context.Context, l lock.Lease) error
	// Release releases l; Done records that the client finished its work
	// under it; Stopped that the run ended while it still held it.
	Release(ctx context.Context, l lock.Lease)
	Done(l lock.Lease)
	Stopped(l lock.Lease)
	// Node is n1 through the client's own link; OpTimeout bounds one
	// command on it.
	Node() lock.Node
	OpTimeout() time.Duration

	// ReadResult records a read of the resource that returns a word
	// (Value.Result), taking workload.read.
	ReadResult(ctx context.Context, key, action string, get func() string) string
	// ReadNum records a read of a number; false when it failed (recorded
	// as unknown).
	ReadNum(ctx context.Context, key, action string, get func(context.Context) (int64, error)) (int64, bool)
	// Write records one write to the resource. do decides it: the
	// resource's refusal (the zero Refusal accepts), or an error when the
	// outcome is unknown (recorded as unknown; the client goes on under a
	// new process, Jepsen's rule). do may note on its Value what the
	// resource wrote or found (Num, Result), recorded when it accepted.
	Write(key, action string, p Proof, do func(note *history.Value) (Refusal, error)) history.Type
	// Begin starts recording a write that spans work (a rebuild, a job
	// run), ended by the returned Pending.
	Begin(key, action string, fence int64) Pending
}

// eachObject runs job under the lock on each of the client's objects in
// turn (Client.Objects), until the run is over for the client.
func eachObject(ctx context.Context, c Client, job func(key string) Body) {
	for key := range c.Objects() {
		if !c.With(ctx, key, job(key)) {
			return
		}
	}
}

// noSetup is a resource with nothing to prepare before time zero.
type noSetup struct{}

func (noSetup) Setup(context.Context) error { return nil }

// perObject is a resource that keeps one value per object (a counter's
// value, an order's state), read and written inside g.Do; an object never
// written has V's zero value.
type perObject[V any] struct {
	noSetup
	g      *Guard
	values map[string]V // inside g.Do
}

// newPerObject is an empty perObject guarded by the run's Guard.
func newPerObject[V any](env Env) perObject[V] {
	return perObject[V]{g: env.Guard(), values: map[string]V{}}
}

// noFields is a workload with no scenario fields of its own (Decode,
// Params).
type noFields struct{}

func (noFields) Decode(Decoder)                                    {}
func (noFields) Params(func(time.Duration) int64) map[string]int64 { return nil }

// Pending is a write under way (Client.Begin).
type Pending interface {
	// End records its outcome: accepted when err is nil, else unknown.
	End(err error)
}

// ErrLost ends a critical section whose lease the algorithm declared
// lost.
var ErrLost = errors.New("lease lost")

// Lost reports whether l was declared lost.
func Lost(l lock.Lease) bool {
	if l.Lost == nil {
		return false
	}
	select {
	case <-l.Lost:
		return true
	default:
		return false
	}
}

// Proof is what a write shows the resource of its lease: the fencing token
// and the owner token.
type Proof struct {
	Fence int64
	Token string
}

// ProofOf is what a write under l shows the resource.
func ProofOf(l lock.Lease) Proof { return Proof{Fence: l.Fence, Token: l.Token} }

// Refusal is the resource's reason to refuse a write (history Refusal*
// codes), with the highest fencing token it had seen for a stale one; the
// zero value accepts.
type Refusal struct {
	Why  string
	Seen int64
}

// Guard is the resource's check of the lease a write shows, shared by the
// workloads. With fencing on it refuses a fencing token (or a leader's
// epoch) lower than the highest it has seen for that object, checking and
// writing in one step (Kleppmann 2016; lock-theory §7.2). With
// check-and-set on it keeps the token of the last claim per object
// (currlock) and refuses a write whose token is not that one, in the same
// step (antirez 2016; lock-theory §7.3).
//
// Its own lock serialises the resource's decisions: a workload makes each
// decision inside Do.
type Guard struct {
	fencing, cas bool

	mu       sync.Mutex
	fences   map[string]int64  // highest fencing token seen, per object
	currlock map[string]string // last claimed owner token, per object (cas)
}

// NewGuard returns a guard that checks fencing tokens, or owner tokens
// against currlock (check-and-set), or neither.
func NewGuard(fencing, checkAndSet bool) *Guard {
	return &Guard{fencing: fencing, cas: checkAndSet, fences: map[string]int64{}, currlock: map[string]string{}}
}

// Do runs one decision of the resource, alone.
func (g *Guard) Do(f func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	f()
}

// Admit applies the guard to a write on key: it refuses a token lower than
// the object's highest, or accepts it and raises the highest; with
// check-and-set it refuses an owner token other than the object's
// currlock. Call inside Do.
func (g *Guard) Admit(key string, p Proof) Refusal {
	if g.cas && g.currlock[key] != p.Token {
		return Refusal{Why: history.RefusalLockChanged}
	}
	if !g.fencing {
		return Refusal{}
	}
	if seen := g.fences[key]; p.Fence < seen {
		return Refusal{history.RefusalStaleFence, seen}
	}
	g.fences[key] = p.Fence
	return Refusal{}
}

// Claim registers a fencing token at the object ("claim first"); with
// check-and-set it stores the owner token as the object's currlock, as
// antirez's "set X.currlock = token" on starting work (always accepted).
func (g *Guard) Claim(key string, p Proof) Refusal {
	var r Refusal
	g.Do(func() {
		if g.cas {
			g.currlock[key] = p.Token
			return
		}
		r = g.Admit(key, p)
	})
	return r
}

// claimFirst makes the claim a guarded workload's client makes right
// after acquiring, when it makes one; false when the resource refused it
// (the client then does nothing more under the lease).
func claimFirst(c Client, g *Guard, key string, l lock.Lease) bool {
	return !c.ClaimFirst() || write(c, key, ActionClaim, ProofOf(l), g.Claim)
}

// write records a write the resource decides at once, by decide: true when
// it accepted it.
func write(c Client, key, action string, p Proof, decide func(key string, p Proof) Refusal) bool {
	return c.Write(key, action, p, func(*history.Value) (Refusal, error) { return decide(key, p), nil }) == history.OK
}
