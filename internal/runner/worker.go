package runner

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/scenario"
)

// worker is one lock client running the payment workload: for every
// invoice, acquire the lock, (claim with its fencing token,) read the
// invoice, do the slow job, charge, mark paid, release.
type worker struct {
	r     *run
	name  string
	proc  int
	lock  clients.Locker
	gate  *faults.Gate
	rng   *rand.Rand
	clock *clients.FaultyClock
}

// recordPause records a pause of this worker as a nemesis operation whose
// window is the pause itself.
func (w *worker) recordPause(p faults.Pause) func() {
	v := history.Value{Fault: "pause", Targets: []string{w.name}, Point: p.Point,
		Detail: fmt.Sprintf("stop-the-world pause of %s", p.Scenario)}
	if p.Point == "random" {
		v.Point = ""
		v.Detail = fmt.Sprintf("stop-the-world pause of %s at a random moment", p.Scenario)
	}
	pend := w.r.rec.Begin(history.NemesisProcess, history.NemesisClient, history.Fault, "", v)
	return func() { pend.End(history.OK, v, "") }
}

// newProcess gives the worker a fresh process id after an info outcome: its
// old operation may still take effect (Jepsen's rule).
func (w *worker) newProcess() {
	w.proc = int(w.r.nextProc.Add(1) - 1)
}

func (w *worker) run(ctx context.Context) {
	idx := 0
	for i, n := range w.r.names {
		if n == w.name {
			idx = i
		}
	}
	start := w.r.wall(w.r.sc.Stagger.D()) * time.Duration(idx)
	if d, ok := w.r.sc.ClientStart[w.name]; ok {
		start = w.r.wall(d.D())
	}
	if err := w.gate.Sleep(ctx, start); err != nil {
		return
	}
	for k := 1; k <= w.r.sc.Workload.Keys; k++ {
		if !w.processInvoice(ctx, fmt.Sprintf("invoice-%d", k)) {
			return
		}
	}
}

// processInvoice handles one invoice until it is done (charged by this
// worker, found paid, or refused as stale). It returns false when the run
// is over.
func (w *worker) processInvoice(ctx context.Context, key string) bool {
	sc := w.r.sc
	for {
		if ctx.Err() != nil {
			return false
		}
		lease, ok := w.acquire(ctx, key)
		if !ok {
			if w.gate.Sleep(ctx, w.r.wall(sc.RetryDelay.D())) != nil {
				return false
			}
			continue
		}
		if w.gate.Point(ctx, scenario.PointAfterAcquire) != nil {
			return false
		}
		if sc.Workload.ClaimFirst() {
			if !w.write(key, "claim", lease.Fence, w.r.ledger.claim) {
				w.release(ctx, lease)
				return true
			}
		}
		if w.read(ctx, key) == "paid" {
			if w.gate.Point(ctx, scenario.PointBeforeRelease) != nil {
				return false
			}
			w.release(ctx, lease)
			return true
		}
		if w.job(ctx, lease) != nil {
			return false
		}
		if w.gate.Point(ctx, scenario.PointBeforeWrite) != nil {
			return false
		}
		if w.write(key, "charge", lease.Fence, w.r.ledger.charge) {
			w.write(key, "mark-paid", lease.Fence, w.r.ledger.markPaid)
		}
		if w.gate.Point(ctx, scenario.PointBeforeRelease) != nil {
			return false
		}
		w.release(ctx, lease)
		return true
	}
}

func (w *worker) acquire(ctx context.Context, key string) (clients.Lease, bool) {
	v := history.Value{TTL: int64(w.r.sc.TTL.D())}
	p := w.r.rec.Begin(w.proc, w.name, history.Acquire, key, v)
	octx, cancel := context.WithTimeout(ctx, w.r.opTimeout())
	lease, err := w.lock.Acquire(octx, key)
	cancel()
	t := outcome(err)
	if t == history.OK {
		v.Token, v.Fence, v.Nodes = lease.Token, lease.Fence, lease.Nodes
	}
	p.End(t, v, errText(err))
	if t == history.Info {
		w.newProcess()
	}
	if t == history.OK {
		w.r.nem.event(w.name, lease.Nodes)
	}
	return lease, t == history.OK
}

// job does the slow work: the workload's Job, or, with UntilValidity,
// until the client's own clock says the lease has only that much validity
// left (lock-theory S16: a slow client clock makes it overstay).
func (w *worker) job(ctx context.Context, l clients.Lease) error {
	margin := w.r.sc.Workload.UntilValidity.D()
	if margin <= 0 {
		return w.gate.Sleep(ctx, w.r.wall(w.r.sc.Workload.Job.D()))
	}
	target := l.ValidUntil.Add(-w.r.wall(margin))
	for {
		left := target.Sub(w.clock.Now())
		if left <= 0 {
			return w.gate.Wait(ctx)
		}
		// Sleep half the remaining clock time (at least 100µs): the loop
		// converges whatever the clock's rate.
		if err := w.gate.Sleep(ctx, max(left/2, 100*time.Microsecond)); err != nil {
			return err
		}
	}
}

func (w *worker) release(ctx context.Context, l clients.Lease) {
	v := history.Value{Token: l.Token, Fence: l.Fence}
	p := w.r.rec.Begin(w.proc, w.name, history.Release, l.Key, v)
	octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.r.opTimeout())
	removedFrom := l.Nodes
	var err error
	if nr, ok := w.lock.(clients.NodeReleaser); ok {
		removedFrom, err = nr.ReleaseNodes(octx, l)
	} else {
		err = w.lock.Release(octx, l)
	}
	cancel()
	t := outcome(err)
	if t == history.OK {
		v.Removed = true
		v.Nodes = removedFrom
	}
	p.End(t, v, errText(err))
	if t == history.Info {
		w.newProcess()
	}
}

// read reads the invoice's status; reading takes the workload's Read time.
func (w *worker) read(ctx context.Context, key string) string {
	v := history.Value{Action: "read-status"}
	p := w.r.rec.Begin(w.proc, w.name, history.Read, key, v)
	_ = w.gate.Sleep(ctx, w.r.wall(w.r.sc.Workload.Read.D()))
	v.Result = w.r.ledger.status(key)
	p.End(history.OK, v, "")
	return v.Result
}

// write performs one resource write through do and records the resource's
// decision: ok when accepted, fail with the reason when refused.
func (w *worker) write(key, action string, fence int64, do func(key string, fence int64) string) bool {
	v := history.Value{Action: action, Fence: fence}
	p := w.r.rec.Begin(w.proc, w.name, history.Write, key, v)
	reason := do(key, fence)
	if reason != "" {
		v.Reason = reason
		p.End(history.Fail, v, "")
		return false
	}
	p.End(history.OK, v, "")
	return true
}
