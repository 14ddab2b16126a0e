package runner

import (
	"context"
	"iter"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/observe"
	"github.com/locksim/locksim/internal/workload"
)

// The scenario's workload (package workload) drives the clients: the
// run's resource is its Run, and each worker is a workload.Client. Nothing
// here knows one workload from another.

// workEnv is the run as the workload's resource sees it (workload.Env).
type workEnv struct{ r *run }

func (e workEnv) Keys() int              { return e.r.sc.Workload.Keys }
func (e workEnv) Guard() *workload.Guard { return e.r.guard }

// Admin runs f with a connection to n1 of its own, not through any
// client's link.
func (e workEnv) Admin(ctx context.Context, f func(n1 redis.Cmdable) error) error {
	c := redis.NewClient(&redis.Options{Addr: e.r.cl.NodeAddr(0), Protocol: 2, DisableIdentity: true, ClientName: observe.AdminName})
	defer c.Close()
	return f(c)
}

// objectKeys yields this client's protected objects: its own keys when
// the scenario's clients: mapping gives them, else every object, each
// round of workload.rounds once, with workload.round_delay between two
// rounds (a client that cannot wait any more ends the sequence).
func (w *worker) objectKeys() iter.Seq[string] {
	wl := w.r.sc.Workload
	kind := w.r.kind
	mine := w.ownKeys()
	return func(yield func(string) bool) {
		for round := range max(wl.Rounds, 1) {
			if round > 0 && wl.RoundDelay > 0 && w.gate.Sleep(w.r.runCtx, w.r.wall(wl.RoundDelay.D())) != nil {
				return
			}
			if len(mine) == 0 {
				for key := range kind.Objects(wl.Keys) {
					if !yield(key) {
						return
					}
				}
				continue
			}
			for _, k := range mine {
				if kind.Object != "" && !yield(kind.ObjectKey(k)) {
					return
				}
			}
		}
	}
}

// ownKeys are the numbers of this client's own keys, nil when the
// scenario gives it none.
func (w *worker) ownKeys() []int {
	if c, ok := w.r.sc.PerClient[w.name]; ok {
		return c.Keys
	}
	return nil
}

// workClient is a worker as its workload drives it (workload.Client).
type workClient struct{ *worker }

func (c workClient) Name() string { return c.name }

func (c workClient) Index() int {
	for i, n := range c.r.names {
		if n == c.name {
			return i
		}
	}
	return 0
}

func (c workClient) LockFree() bool                     { return c.r.lockFree }
func (c workClient) ClaimFirst() bool                   { return c.r.sc.Workload.ClaimFirst() }
func (c workClient) Objects() iter.Seq[string]          { return c.objectKeys() }
func (c workClient) OwnKeys() []int                     { return c.ownKeys() }
func (c workClient) Wall(d time.Duration) time.Duration { return c.r.wall(d) }
func (c workClient) RetryDelay() time.Duration          { return c.r.sc.RetryDelay.D() }
func (c workClient) JobLength() time.Duration           { return c.r.sc.Job(c.name).D() }
func (c workClient) Now() time.Time                     { return c.view.Now() }
func (c workClient) Zero() time.Time                    { return c.r.rec.Start() }
func (c workClient) Crashed() bool                      { return c.gate.Crashed() }
func (c workClient) Node() clients.Node                 { return c.nodes[0] }
func (c workClient) OpTimeout() time.Duration           { return c.r.opTimeout() }

func (c workClient) With(ctx context.Context, key string, body workload.Body) bool {
	return c.withLock(ctx, key, body)
}

func (c workClient) Acquire(ctx context.Context, key string) (clients.Lease, bool) {
	return c.acquire(ctx, key)
}

func (c workClient) Hold(ctx context.Context, l clients.Lease, body workload.Body, release bool) (bool, bool) {
	return c.holdThen(ctx, l, body, release)
}

func (c workClient) Job(ctx context.Context, l clients.Lease) error { return c.job(ctx, l) }
func (c workClient) BeforeWrite(ctx context.Context, l clients.Lease) error {
	return c.beforeWrite(ctx, l)
}
func (c workClient) Point(ctx context.Context, point string) error { return c.gate.Point(ctx, point) }
func (c workClient) PointThen(ctx context.Context, point string, check func()) error {
	return c.gate.PointThen(ctx, point, check)
}
func (c workClient) Sleep(ctx context.Context, d time.Duration) error    { return c.gate.Sleep(ctx, d) }
func (c workClient) Validate(ctx context.Context, l clients.Lease) error { return c.validate(ctx, l) }
func (c workClient) Release(ctx context.Context, l clients.Lease)        { c.release(ctx, l) }
func (c workClient) Done(l clients.Lease)                                { c.done(l) }
func (c workClient) WatchLost(l clients.Lease) func()                    { return c.watchLost(l) }

func (c workClient) Heartbeat(ctx context.Context, l clients.Lease) (clients.Lease, bool) {
	return c.heartbeat(ctx, l)
}

// Stopped records that the run ended with the client holding l.
func (c workClient) Stopped(l clients.Lease) {
	c.log.Instant(c.proc, c.name, history.Stopped, c.resource(l), history.Value{Token: l.Token, Fence: l.Fence}, history.OK)
}

// ReadResult records a read of the resource that returns a word; reading
// takes the workload's read time.
func (c workClient) ReadResult(ctx context.Context, key, action string, get func() string) string {
	v := history.Value{Action: action}
	p := c.log.Begin(c.proc, c.name, history.Read, key, v)
	_ = c.gate.Sleep(ctx, c.r.wall(c.r.sc.Workload.Read.D()))
	v.Result = get()
	p.End(history.OK, v, "")
	return v.Result
}

// ReadNum records one read of a number from the resource; false when the
// read failed (recorded as info).
func (c workClient) ReadNum(ctx context.Context, key, action string, get func(context.Context) (int64, error)) (int64, bool) {
	v := history.Value{Action: action}
	p := c.log.Begin(c.proc, c.name, history.Read, key, v)
	if err := c.gate.Sleep(ctx, c.r.wall(c.r.sc.Workload.Read.D())); err != nil {
		p.EndErr(history.Info, v, err)
		return 0, false
	}
	n, err := get(ctx)
	if err != nil {
		p.EndErr(history.Info, v, err)
		c.newProcess()
		return 0, false
	}
	v.Num = &n
	p.End(history.OK, v, "")
	return n, true
}

// Write records one write to the resource: the resource's decision (do),
// ok when accepted with what do noted, fail with the reason when refused,
// info under a new process when its outcome is unknown. A resource that
// checks owner tokens (check_and_set) has the token recorded on the
// write.
func (c workClient) Write(key, action string, pr workload.Proof, do func(note *history.Value) (workload.Refusal, error)) history.Type {
	v := history.Value{Action: action, Fence: pr.Fence}
	if c.r.sc.Workload.CheckAndSet {
		v.Token = pr.Token
	}
	p := c.log.Begin(c.proc, c.name, history.Write, key, v)
	var note history.Value
	refused, err := do(&note)
	switch {
	case err != nil:
		p.EndErr(history.Info, v, err)
		c.newProcess()
		return history.Info
	case refused.Why != "":
		v.Refusal, v.SeenFence = refused.Why, refused.Seen
		p.End(history.Fail, v, "")
		return history.Fail
	}
	v.Num, v.Result = note.Num, note.Result
	p.End(history.OK, v, "")
	return history.OK
}

// Begin starts recording a write that spans work.
func (c workClient) Begin(key, action string, fence int64) workload.Pending {
	v := history.Value{Action: action, Fence: fence}
	return pendingWrite{p: c.log.Begin(c.proc, c.name, history.Write, key, v), v: v}
}

type pendingWrite struct {
	p *history.Pending
	v history.Value
}

func (p pendingWrite) End(err error) {
	if err != nil {
		p.p.EndErr(history.Info, p.v, err)
		return
	}
	p.p.End(history.OK, p.v, "")
}

// errLost ends a critical section whose lease the algorithm declared lost.
var errLost = workload.ErrLost

// lost reports whether the lease was declared lost.
func lost(l clients.Lease) bool { return workload.Lost(l) }
