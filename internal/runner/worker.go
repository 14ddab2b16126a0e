package runner

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/lock/lockkit"
)

// worker is one lock client running the scenario's workload (workloads.go):
// for every protected object, acquire the lock, do the critical section
// against the resource, record `done`, release.
type worker struct {
	r    *run
	name string
	proc int
	lock clients.Locker
	// process is the lock's child process when the algorithm runs one
	// (algorithm process): what a pause stops and a crash kills; nil
	// otherwise.
	process clients.ProcessLock
	gate    *faults.Gate
	rng     *rand.Rand
	clock   *clients.FaultyClock
	// view is the clock the client's lock and job read: clock itself, or
	// its monotonic view for an algorithm with Traits.MonotonicClock.
	view clients.Clock
	// nodes are this client's own links to the nodes.
	nodes []clients.Node
	// log is the client's own part of the run's recording.
	log *history.Log
	// locked are the lock keys this client acquired (or perhaps did), for
	// the final probe; only the worker's own goroutine writes it.
	locked map[string]bool
	// starve holds back only this client's lease renewer (starve-renewals).
	starve faults.Latch

	mu sync.Mutex
	// resourceOf maps a lock key the algorithm derived itself (Lease.Key
	// differs from the key asked for) to the resource's key, which the
	// history records; the worker writes it, its renewals read it.
	resourceOf clients.ResourceKeys
	cancel     context.CancelFunc // ends the worker's context (crash)
	renewProc  int                // process of its background renewals; 0 = none yet
	// restart, once a restart-client fault killed this incarnation, takes
	// the restore-on-start mode its new incarnation starts with; nil for a
	// worker no restart awaits. incarnation counts the restarts before this
	// one (0: the first).
	restart     chan string
	incarnation int
}

// newProcess gives the worker a fresh process id after an info outcome: its
// old operation may still take effect (Jepsen's rule).
func (w *worker) newProcess() {
	w.proc = int(w.r.nextProc.Add(1) - 1)
}

func (w *worker) run(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w.mu.Lock()
	w.cancel = cancel
	w.mu.Unlock()
	if w.gate.Crashed() {
		return
	}
	start := w.r.wall(w.r.sc.Start(w.name).D())
	// The start timer alone, then the gate: a pause or crash fault that
	// holds the client at its start is the scenario's, not lateness. It
	// is due at the planned start past the run's time zero, not past
	// this goroutine's start.
	if err := sleepCtx(ctx, time.Until(w.r.rec.Start().Add(start))); err != nil {
		w.awaitRestart()
		return
	}
	if late := startLateness(w.log, w.r.rec.Start(), w.name, start, time.Now()); late > 0 {
		for cur := w.r.startLate.Load(); late > cur && !w.r.startLate.CompareAndSwap(cur, late); cur = w.r.startLate.Load() {
		}
	}
	if err := w.gate.Wait(ctx); err != nil {
		w.awaitRestart()
		return
	}
	w.r.res.Work(ctx, workClient{w})
	w.awaitRestart()
}

// sleepCtx waits d, or until ctx ends (its error).
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// startLateness is how late (wall ns) client began its workload at now,
// planned at planned past the run's start: its start sleep begins only
// once the run's observers and fault scheduler are up, and a busy machine
// wakes it late (issue 27: cache-rebuild-waste seed 8's w1 began 267.7 ms
// of wall time, 26.8 s of scenario time, after its planned start at 0 s,
// while the timer watch's worst was 54.6 ms). A lateness of
// history.LagRecordNS or more is recorded as a TimerLag span of the
// client's (planned start → actual start) and returned, to count in the
// run's lateness; a shorter one is a timer's ordinary jitter: 0.
func startLateness(log *history.Log, runStart time.Time, client string, planned time.Duration, now time.Time) int64 {
	due := runStart.Add(planned)
	late := int64(now.Sub(due))
	if late < history.LagRecordNS {
		return 0
	}
	log.Span(history.NodeProcess, history.TimerLag, client, "", history.Value{}, int64(planned), int64(now.Sub(runStart)), history.OK)
	return late
}

// awaitRestart runs, in the goroutine of the incarnation a restart-client
// fault killed, each new incarnation of the client once the fault
// restarts it (faults.Restarter); it returns at once for a worker no
// restart awaits, and when the run ends first.
func (w *worker) awaitRestart() {
	for cur := w; ; {
		cur.mu.Lock()
		ch := cur.restart
		cur.mu.Unlock()
		if ch == nil {
			return
		}
		var restore string
		select {
		case restore = <-ch:
		case <-w.r.runCtx.Done():
			return
		}
		next, err := w.r.incarnation(cur)
		if err != nil {
			w.r.brokeClient(err)
			return
		}
		next.startAgain(restore)
		cur = next
	}
}

// startAgain is a new incarnation's life: with faults.RestoreAll it first
// re-queues every job lease it finds (one DEL of every job's lock key on
// every node, through its own links, kombu's restore on start), then it
// works through its jobs from the start, with no start delay.
func (w *worker) startAgain(restore string) {
	ctx, cancel := context.WithCancel(w.r.runCtx)
	defer cancel()
	w.mu.Lock()
	w.cancel = cancel
	w.mu.Unlock()
	if restore == faults.RestoreAll {
		var keys []string
		for k := range w.r.kind.Objects(w.r.sc.Workload.Keys) {
			keys = append(keys, k)
		}
		for _, n := range w.nodes {
			octx, ocancel := context.WithTimeout(ctx, w.r.opDeadline())
			err := n.Cmd.Del(octx, keys...).Err()
			ocancel()
			if err != nil && ctx.Err() == nil {
				w.r.log.Warn("restore on start failed", "client", w.name, "node", n.Name, "err", err)
			}
		}
	}
	w.r.res.Work(ctx, workClient{w})
}

// withLock runs cs under the lock on key: it acquires (retrying every retry
// delay), passes after-acquire, runs cs, records done unless the lease was
// lost, passes before-release and releases. cs returns finished=false to
// have the whole thing retried (e.g. its lease was lost), and an error when
// the run is over for this client. With a lock-free algorithm cs runs
// alone, with no lease. withLock returns false when the run is over.
func (w *worker) withLock(ctx context.Context, key string, cs func(l clients.Lease) (finished bool, err error)) bool {
	if w.r.lockFree {
		_, err := cs(clients.Lease{Key: key})
		return err == nil
	}
	for {
		if ctx.Err() != nil {
			return false
		}
		lease, ok := w.acquire(ctx, key)
		if !ok {
			if w.gate.Sleep(ctx, w.r.wall(w.r.sc.RetryDelay.D())) != nil {
				return false
			}
			continue
		}
		finished, ok := w.hold(ctx, lease, cs)
		if !ok {
			return false
		}
		if finished {
			return true
		}
		if w.gate.Sleep(ctx, w.r.wall(w.r.sc.RetryDelay.D())) != nil {
			return false
		}
	}
}

// hold runs the critical section under a granted lease and releases it.
// ok is false when the run is over for this client.
func (w *worker) hold(ctx context.Context, lease clients.Lease, cs func(l clients.Lease) (bool, error)) (finished, ok bool) {
	return w.holdThen(ctx, lease, cs, true)
}

// holdThen is hold; with release false the lease is left to expire (a
// per-fire-time cron lock).
func (w *worker) holdThen(ctx context.Context, lease clients.Lease, cs func(l clients.Lease) (bool, error), release bool) (finished, ok bool) {
	stop := w.watchLost(lease)
	defer stop()
	if w.gate.Point(ctx, history.PointAfterAcquire) != nil {
		return false, false
	}
	finished, err := cs(lease)
	switch {
	case errors.Is(err, errLost):
		finished = false
	case err != nil:
		if ctx.Err() != nil && !w.gate.Crashed() {
			// The run ended (or was interrupted) with the client inside its
			// critical section: it believed it held the lock until now. (A
			// crash-client fault ends the context too: its crash is told.)
			w.log.Instant(w.proc, w.name, history.Stopped, lease.Key, history.Value{Token: lease.Token, Fence: lease.Fence}, history.OK)
		}
		return false, false
	default:
		w.done(lease)
	}
	if w.gate.Point(ctx, history.PointBeforeRelease) != nil {
		return false, false
	}
	stop()
	if release {
		w.release(ctx, lease)
	}
	return finished, true
}

// watchLost records a `lost` operation the moment the lease's algorithm
// declares it lost (a failed watchdog renewal). stop ends the watch.
func (w *worker) watchLost(l clients.Lease) (stop func()) {
	if l.Lost == nil {
		return func() {}
	}
	quit := make(chan struct{})
	var once sync.Once
	proc, key := w.proc, w.resource(l)
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-l.Lost:
			v := history.Value{Token: l.Token, Fence: l.Fence}
			w.log.Instant(proc, w.name, history.Lost, key, v, history.OK)
		case <-quit:
		}
	}()
	return func() {
		once.Do(func() { close(quit); <-done })
	}
}

// done records that the client finished its critical section: it will do
// nothing more under this lease but release it.
func (w *worker) done(l clients.Lease) {
	if lost(l) {
		return
	}
	w.log.Instant(w.proc, w.name, history.Done, w.resource(l), history.Value{Token: l.Token, Fence: l.Fence}, history.OK)
}

func (w *worker) acquire(ctx context.Context, key string) (clients.Lease, bool) {
	v := history.Value{TTL: int64(w.r.ttl())}
	p := w.log.Begin(w.proc, w.name, history.Acquire, key, v)
	octx, cancel := context.WithTimeout(ctx, w.r.opDeadline())
	lease, err := w.lock.Acquire(octx, key)
	cancel()
	if errors.Is(err, clients.ErrInfrastructure) {
		w.r.brokeClient(err)
	}
	t := outcome(err)
	v.Refusal = acquireRefusal(err)
	if t == history.OK {
		v.Token, v.Fence, v.Nodes = lease.Token, lease.Fence, lease.Nodes
		if lease.Key != "" && lease.Key != key {
			v.LockKey = lease.Key
			w.resourceOf.Note(lease.Key, key)
		}
	}
	p.EndErr(t, v, err)
	if t != history.Fail {
		w.locked[key] = true // granted, or perhaps granted: probe it at the end
	}
	if t == history.Info {
		w.newProcess()
	}
	if t == history.OK {
		w.r.sched.Event(w.name, lease.Nodes)
	}
	return lease, t == history.OK
}

// resource is the resource's key of a lease: the key asked for, when the
// algorithm locked a key of its own derivation.
func (w *worker) resource(l clients.Lease) string { return w.resourceOf.Of(l) }

// lockKey is the Value.LockKey of an operation on lease l: its key when
// the algorithm derived its own, else "".
func (w *worker) lockKey(l clients.Lease) string {
	if r := w.resource(l); r != l.Key {
		return l.Key
	}
	return ""
}

// sleep waits d (wall time) as the client, like gate.Sleep, but returns
// errLost at once when the lease is declared lost.
func (w *worker) sleep(ctx context.Context, d time.Duration, l clients.Lease) error {
	if lost(l) {
		return errLost
	}
	err := w.gate.SleepOr(ctx, d, l.Lost)
	if errors.Is(err, faults.ErrStopped) {
		return errLost
	}
	return err
}

// job does the slow work: the workload's Job, or, with UntilValidity,
// until the client's own clock says the lease has only that much validity
// left (lock-theory S16: a slow client clock makes it overstay).
func (w *worker) job(ctx context.Context, l clients.Lease) error {
	margin := w.r.sc.Workload.UntilValidity.D()
	if margin <= 0 {
		return w.sleep(ctx, w.r.wall(w.r.sc.Job(w.name).D()), l)
	}
	target := l.ValidUntil.Add(-w.r.wall(margin))
	for {
		left := target.Sub(w.view.Now())
		if left <= 0 {
			return w.gate.Wait(ctx)
		}
		// Sleep half the remaining clock time (at least 100µs): the loop
		// converges whatever the clock's rate.
		if err := w.sleep(ctx, max(left/2, 100*time.Microsecond), l); err != nil {
			return err
		}
	}
}

// beforeWrite passes the before-write point and then checks the lease: a
// client told its lease is gone stops acting; so does one whose lock, a
// lock.Validator, does not confirm the lease is still its own (the check
// is recorded as the lease lost at that moment). Whether it was told is
// decided as the client passed the point — for a client paused there, as
// the pause ended (Gate.PointThen) — so a watchdog released by the same
// thaw cannot, on a loaded machine, tell it before it wakes to write.
func (w *worker) beforeWrite(ctx context.Context, l clients.Lease) error {
	var told bool
	if err := w.gate.PointThen(ctx, history.PointBeforeWrite, func() { told = lost(l) }); err != nil {
		return err
	}
	if told {
		return errLost
	}
	return w.validate(ctx, l)
}

// validate asks a lock.Validator whether the lease is still held: false or
// an unknown answer end the hold (a lost operation), so the client does
// not act.
func (w *worker) validate(ctx context.Context, l clients.Lease) error {
	v, ok := w.lock.(clients.Validator)
	if !ok || w.r.lockFree {
		return nil
	}
	octx, cancel := context.WithTimeout(ctx, w.r.opDeadline())
	valid, err := v.Valid(octx, l)
	cancel()
	if errors.Is(err, clients.ErrInfrastructure) {
		w.r.brokeClient(err)
		return err
	}
	if err == nil && valid {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	w.log.Instant(w.proc, w.name, history.Lost, w.resource(l), history.Value{Token: l.Token, Fence: l.Fence}, history.OK)
	return errLost
}

func (w *worker) release(ctx context.Context, l clients.Lease) {
	v := history.Value{Token: l.Token, Fence: l.Fence, LockKey: w.lockKey(l)}
	p := w.log.Begin(w.proc, w.name, history.Release, w.resource(l), v)
	octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.r.opDeadline())
	removedFrom := l.Nodes
	var err error
	if nr, ok := w.lock.(clients.NodeReleaser); ok {
		removedFrom, err = nr.ReleaseNodes(octx, l)
	} else {
		err = w.lock.Release(octx, l)
	}
	cancel()
	if errors.Is(err, clients.ErrInfrastructure) {
		w.r.brokeClient(err)
	}
	t := outcome(err)
	if t == history.OK {
		v.Removed = true
		v.Nodes = removedFrom
	}
	p.EndErr(t, v, err)
	if t == history.Info {
		w.newProcess()
	}
}

// acquireRefusal is why the lock refused an acquire that failed with err,
// when the nodes alone do not say (history.Refusal*): too few replicas,
// the validity run out, or a node that refused the command unrun while
// loading its data (lockkit.NotRun: -LOADING, a definite refusal); "" for
// any other error, and for none.
func acquireRefusal(err error) string {
	switch {
	case errors.Is(err, clients.ErrNotReplicated):
		return history.RefusalNotReplicated
	case errors.Is(err, clients.ErrValidityRanOut):
		return history.RefusalValidity
	case outcome(err) == history.Fail && lockkit.NotRun(err):
		return history.RefusalLoading
	}
	return ""
}
