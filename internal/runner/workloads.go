package runner

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/workload"
)

// Keys of the workloads' protected objects.
const (
	keyLeader    = "leader"
	keySemaphore = "sem-1"
	cronJob      = "cron:report"
)

// stockKey is the Redis key holding an inventory item's stock.
func stockKey(item string) string { return "stock:" + item }

// objectPrefix names each workload kind's protected objects.
var objectPrefix = map[string]string{workload.Payment: "invoice", workload.Counter: "counter",
	workload.Inventory: "item", workload.CacheRebuild: "cache"}

// objectKeys yields the workload's protected objects in order ("invoice-1",
// "invoice-2", …), each named when it is reached: a client that works
// through a few of 100,000 invoices names only those.
func objectKeys(w scenario.Workload) iter.Seq[string] {
	prefix := objectPrefix[w.Kind]
	return func(yield func(string) bool) {
		if prefix == "" {
			return
		}
		for i := 1; i <= w.Keys; i++ {
			if !yield(prefix + "-" + strconv.Itoa(i)) {
				return
			}
		}
	}
}

// objectKeys yields this client's protected objects: its own keys when
// the scenario's clients: mapping gives them, else every object, each
// round of workload.rounds once, with workload.round_delay between two
// rounds (a client that cannot wait any more ends the sequence).
func (w *worker) objectKeys() iter.Seq[string] {
	wl := w.r.sc.Workload
	prefix := objectPrefix[wl.Kind]
	var mine []int
	if c, ok := w.r.sc.PerClient[w.name]; ok {
		mine = c.Keys
	}
	return func(yield func(string) bool) {
		for round := range max(wl.Rounds, 1) {
			if round > 0 && wl.RoundDelay > 0 && w.gate.Sleep(w.r.runCtx, w.r.wall(wl.RoundDelay.D())) != nil {
				return
			}
			if len(mine) == 0 {
				for key := range objectKeys(wl) {
					if !yield(key) {
						return
					}
				}
				continue
			}
			for _, k := range mine {
				if prefix != "" && !yield(prefix+"-"+strconv.Itoa(k)) {
					return
				}
			}
		}
	}
}

// proofOf is what a write under l shows the resource.
func proofOf(l clients.Lease) proof { return proof{fence: l.Fence, token: l.Token} }

// workload runs the scenario's workload as this client.
func (w *worker) workload(ctx context.Context) {
	wl := w.r.sc.Workload
	switch wl.Kind {
	case workload.Cron:
		w.cron(ctx)
		return
	case workload.Leader:
		if wl.Keys > 1 {
			w.leaderSet(ctx, w.leaderKeys())
			return
		}
		w.leader(ctx)
		return
	case workload.Semaphore:
		w.withLock(ctx, keySemaphore, w.usePermit(ctx))
		return
	}
	for key := range w.objectKeys() {
		var cs func(clients.Lease) (bool, error)
		switch wl.Kind {
		case workload.Counter:
			cs = w.increment(ctx, key)
		case workload.Inventory:
			cs = w.buy(ctx, key)
		case workload.CacheRebuild:
			cs = w.rebuild(ctx, key)
		default:
			cs = w.pay(ctx, key)
		}
		if !w.withLock(ctx, key, cs) {
			return
		}
	}
}

// pay is the payment workload's critical section: (claim with the fencing
// token,) read the invoice, do the slow job, charge, mark paid. Lock-free
// (idempotency-key), the client just charges with the invoice as its
// idempotency key.
func (w *worker) pay(ctx context.Context, key string) func(clients.Lease) (bool, error) {
	return func(l clients.Lease) (bool, error) {
		led := w.r.ledger
		if !w.r.lockFree {
			if w.r.sc.Workload.ClaimFirst() && !w.write(key, workload.ActionClaim, proofOf(l), led.claim) {
				return true, nil
			}
			if w.read(ctx, key) == workload.ResultPaid {
				return true, nil
			}
		}
		if err := w.job(ctx, l); err != nil {
			return false, err
		}
		if err := w.beforeWrite(ctx, l); err != nil {
			return false, err
		}
		charged := w.write(key, workload.ActionCharge, proofOf(l), led.charge)
		if w.r.sc.Workload.Completion == scenario.CompletionToken {
			w.finishJob(ctx, key, l)
			return true, nil
		}
		if charged {
			w.write(key, workload.ActionMarkPaid, proofOf(l), led.markPaid)
		}
		return true, nil
	}
}

// finishJob is the second write of a two-write job (workload completion:
// token; Bull's moveToFinished, then Job._saveAttempt): the completion,
// which the resource accepts only while the lock key on n1 still holds the
// lease's owner token, and, when it is refused, the failure record —
// unchecked (it overwrites whatever the job record holds) or checked the
// same way. The token check is one GET of the lock key on the client's own
// link to n1, as Bull's Lua script reads it.
func (w *worker) finishJob(ctx context.Context, key string, l clients.Lease) {
	led := w.r.ledger
	owns := func() (bool, error) {
		octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.r.opTimeout())
		defer cancel()
		v, err := w.nodes[0].Cmd.Get(octx, l.Key).Result()
		switch {
		case errors.Is(err, redis.Nil):
			return false, nil
		case err != nil:
			return false, fmt.Errorf("check the owner token of %s on n1: %w", l.Key, err)
		}
		return v == l.Token, nil
	}
	checked := func(action string, do func(key string, p proof, owns bool) refusal) history.Type {
		return w.writeOutcome(key, action, proofOf(l), func() (refusal, error) {
			ok, err := owns()
			if err != nil {
				return refusal{}, err
			}
			return do(key, proofOf(l), ok), nil
		})
	}
	if checked(workload.ActionComplete, led.complete) != history.Fail {
		return
	}
	token := w.r.sc.Workload.FailureRecord == scenario.FailureRecordToken
	if !token {
		w.writeOutcome(key, workload.ActionRecordFailure, proofOf(l), func() (refusal, error) {
			return led.recordFailure(key, proofOf(l), false, true), nil
		})
		return
	}
	checked(workload.ActionRecordFailure, func(key string, p proof, owns bool) refusal {
		return led.recordFailure(key, p, true, owns)
	})
}

// increment is the counter workload's read-modify-write.
func (w *worker) increment(ctx context.Context, key string) func(clients.Lease) (bool, error) {
	return func(l clients.Lease) (bool, error) {
		led := w.r.ledger
		if w.r.sc.Workload.ClaimFirst() && !w.write(key, workload.ActionClaim, proofOf(l), led.claim) {
			return true, nil
		}
		v, ok := w.readNum(ctx, key, workload.ActionReadCounter, func(context.Context) (int64, error) { return led.readCounter(key), nil })
		if !ok {
			return false, ctx.Err()
		}
		if err := w.job(ctx, l); err != nil {
			return false, err
		}
		if err := w.beforeWrite(ctx, l); err != nil {
			return false, err
		}
		w.writeNum(key, workload.ActionSetCounter, proofOf(l), func() (int64, refusal, error) {
			return v + 1, led.setCounter(key, proofOf(l), v+1), nil
		})
		return true, nil
	}
}

// buy is the inventory workload: under the lock, read the stock from Redis,
// and if there is any, do the job and write the stock back one lower (a
// sale). Lock-free (atomic-lua), one Lua script checks and decrements.
func (w *worker) buy(ctx context.Context, key string) func(clients.Lease) (bool, error) {
	node := w.nodes[0]
	sk := stockKey(key)
	return func(l clients.Lease) (bool, error) {
		if w.r.lockFree {
			if err := w.job(ctx, l); err != nil {
				return false, err
			}
			if err := w.beforeWrite(ctx, l); err != nil {
				return false, err
			}
			w.writeNum(key, workload.ActionSell, proof{}, func() (int64, refusal, error) {
				octx, cancel := context.WithTimeout(ctx, w.r.opTimeout())
				defer cancel()
				left, err := clients.AtomicDecrement(octx, node, sk)
				switch {
				case errors.Is(err, clients.ErrOutOfStock):
					return 0, refusal{why: history.RefusalOutOfStock}, nil
				case err != nil:
					return 0, refusal{}, err
				}
				w.r.ledger.ship(key)
				return left, refusal{}, nil
			})
			return true, nil
		}
		n, ok := w.readNum(ctx, key, workload.ActionReadStock, func(ctx context.Context) (int64, error) {
			octx, cancel := context.WithTimeout(ctx, w.r.opTimeout())
			defer cancel()
			return node.Cmd.Get(octx, sk).Int64()
		})
		if !ok {
			return false, ctx.Err()
		}
		if n <= 0 {
			return true, nil
		}
		if err := w.job(ctx, l); err != nil {
			return false, err
		}
		if err := w.beforeWrite(ctx, l); err != nil {
			return false, err
		}
		w.writeNum(key, workload.ActionSell, proofOf(l), func() (int64, refusal, error) {
			octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.r.opTimeout())
			defer cancel()
			if err := node.Cmd.Set(octx, sk, n-1, 0).Err(); err != nil {
				return 0, refusal{}, err
			}
			w.r.ledger.ship(key)
			return n - 1, refusal{}, nil
		})
		return true, nil
	}
}

// rebuild is the cache-rebuild workload: one write whose Invoke..Complete
// is the whole rebuild. Overlapping rebuilds are waste, not corruption.
func (w *worker) rebuild(ctx context.Context, key string) func(clients.Lease) (bool, error) {
	return func(l clients.Lease) (bool, error) {
		v := history.Value{Action: workload.ActionRebuild, Fence: l.Fence}
		p := w.log.Begin(w.proc, w.name, history.Write, key, v)
		err := w.job(ctx, l)
		if err != nil && !errors.Is(err, errLost) {
			p.EndErr(history.Info, v, err)
			return false, err
		}
		p.End(history.OK, v, "")
		return true, nil
	}
}

// usePermit is the semaphore workload: enter, work, exit.
func (w *worker) usePermit(ctx context.Context) func(clients.Lease) (bool, error) {
	accept := func(string, proof) refusal { return refusal{} }
	return func(l clients.Lease) (bool, error) {
		w.write(keySemaphore, workload.ActionEnter, proofOf(l), accept)
		if err := w.job(ctx, l); err != nil && !errors.Is(err, errLost) {
			return false, err
		}
		if err := w.gate.Point(ctx, history.PointBeforeWrite); err != nil {
			return false, err
		}
		w.write(keySemaphore, workload.ActionExit, proofOf(l), accept)
		return true, nil
	}
}

// cron is one scheduler: at every fire time of its own clock it tries the
// lock once; the one that gets it runs the job (a run-job write spanning
// the job) and, with one lock per job, releases it; with one lock per fire
// time it never releases (the key expires).
func (w *worker) cron(ctx context.Context) {
	wl := w.r.sc.Workload
	every := w.r.wall(wl.Interval.D())
	zero := w.r.rec.Start()
	for k := 1; k <= wl.Fires; k++ {
		due := zero.Add(every * time.Duration(k))
		for {
			left := due.Sub(w.view.Now())
			if left <= 0 {
				break
			}
			if w.gate.Sleep(ctx, max(left/2, 100*time.Microsecond)) != nil {
				return
			}
		}
		key := cronJob
		if wl.LockPerFire {
			key = fmt.Sprintf("%s@%d", cronJob, k)
		}
		jobKey := fmt.Sprintf("job@%d", k)
		lease, ok := w.acquire(ctx, key)
		if !ok {
			if ctx.Err() != nil || w.gate.Crashed() {
				return
			}
			continue // another scheduler has this fire time
		}
		_, ok = w.holdThen(ctx, lease, func(l clients.Lease) (bool, error) {
			if err := w.beforeWrite(ctx, l); err != nil {
				return false, err
			}
			v := history.Value{Action: workload.ActionRunJob, Fence: l.Fence}
			p := w.log.Begin(w.proc, w.name, history.Write, jobKey, v)
			err := w.gate.Sleep(ctx, w.r.wall(wl.Job.D()))
			if err != nil {
				p.EndErr(history.Info, v, err)
				return false, err
			}
			p.End(history.OK, v, "")
			return true, nil
		}, !wl.LockPerFire)
		if !ok {
			return
		}
	}
}

// leader campaigns for the leader lease until elected once; the leader does
// Terms units of work, each a `lead` write carrying its epoch (the fencing
// token, or the election's number in grant order), then abdicates.
func (w *worker) leader(ctx context.Context) {
	wl := w.r.sc.Workload
	for {
		if ctx.Err() != nil {
			return
		}
		lease, ok := w.acquire(ctx, keyLeader)
		if !ok {
			if w.gate.Sleep(ctx, w.r.wall(w.r.sc.RetryDelay.D())) != nil {
				return
			}
			continue
		}
		epoch := lease.Fence
		if epoch == 0 {
			epoch = w.r.ledger.nextTerm()
		}
		w.hold(ctx, lease, func(l clients.Lease) (bool, error) {
			for range wl.Terms {
				if err := w.job(ctx, l); err != nil {
					return false, err
				}
				if err := w.beforeWrite(ctx, l); err != nil {
					return false, err
				}
				if !w.write(keyLeader, workload.ActionLead, proof{fence: epoch}, w.r.ledger.lead) {
					return true, nil // deposed: the resource saw a newer epoch
				}
				if wl.Heartbeat {
					var leads bool
					if l, leads = w.heartbeat(ctx, l); !leads {
						return false, errLost
					}
				}
			}
			return true, nil
		})
		return
	}
}

// leaderKey names the leader lease of object k of a leader workload of
// several (workload.keys > 1): leader-1..leader-N, one scheduler lock per
// queue (BR-25).
func leaderKey(k int) string { return keyLeader + "-" + strconv.Itoa(k) }

// leaderKeys are the leader leases this client campaigns for: its own
// keys when the scenario's clients: mapping gives them, else every one.
func (w *worker) leaderKeys() []string {
	var mine []int
	if c, ok := w.r.sc.PerClient[w.name]; ok {
		mine = c.Keys
	}
	if len(mine) == 0 {
		for k := 1; k <= w.r.sc.Workload.Keys; k++ {
			mine = append(mine, k)
		}
	}
	out := make([]string, len(mine))
	for i, k := range mine {
		out[i] = leaderKey(k)
	}
	return out
}

// leaderTerm is one leader lease a client holds in leaderSet: the lease,
// the epoch its lead writes carry, and the end of its loss watch.
type leaderTerm struct {
	lease clients.Lease
	epoch int64
	stop  func()
}

// leaderSet is a scheduler for several queues, each with its own leader
// lease (rq's scheduler, BR-25): one loop that tries every lease of keys
// it does not hold, then — holding at least one — does one unit of work
// and a lead write for each held lease, and heartbeats each of them
// (workload.heartbeat); Terms units, then it abdicates, releasing what it
// holds. A refused lead write deposes it from that lease (done, released);
// a refused heartbeat or a lost lease ends that lease's term (released,
// with no done). Holding nothing, it tries again after the retry delay.
func (w *worker) leaderSet(ctx context.Context, keys []string) {
	wl := w.r.sc.Workload
	held := map[string]*leaderTerm{}
	// end releases the lease of k: done first when finished.
	end := func(k string, finished bool) {
		t := held[k]
		t.stop()
		if finished {
			w.done(t.lease)
		}
		w.release(ctx, t.lease)
		delete(held, k)
	}
	abdicated := false
	defer func() {
		for _, k := range keys {
			if t := held[k]; t != nil {
				t.stop()
				if ctx.Err() != nil && !w.gate.Crashed() && !abdicated {
					// The run ended with the client leading: it believed it
					// held the lease until now.
					w.log.Instant(w.proc, w.name, history.Stopped, w.resource(t.lease), history.Value{Token: t.lease.Token, Fence: t.lease.Fence}, history.OK)
				}
			}
		}
	}()
	for worked := 0; worked < wl.Terms; {
		if ctx.Err() != nil {
			return
		}
		for _, k := range keys {
			if held[k] != nil {
				continue
			}
			lease, ok := w.acquire(ctx, k)
			if !ok {
				if ctx.Err() != nil {
					return
				}
				continue
			}
			epoch := lease.Fence
			if epoch == 0 {
				epoch = w.r.ledger.nextTerm()
			}
			held[k] = &leaderTerm{lease: lease, epoch: epoch, stop: w.watchLost(lease)}
			if w.gate.Point(ctx, history.PointAfterAcquire) != nil {
				return
			}
		}
		if len(held) == 0 {
			if w.gate.Sleep(ctx, w.r.wall(w.r.sc.RetryDelay.D())) != nil {
				return
			}
			continue
		}
		if w.gate.Sleep(ctx, w.r.wall(w.r.sc.Job(w.name).D())) != nil {
			return
		}
		if w.gate.Point(ctx, history.PointBeforeWrite) != nil {
			return
		}
		for _, k := range keys {
			t := held[k]
			if t == nil {
				continue
			}
			if lost(t.lease) || w.validate(ctx, t.lease) != nil {
				if ctx.Err() != nil {
					return
				}
				end(k, false)
				continue
			}
			if !w.write(k, workload.ActionLead, proof{fence: t.epoch}, w.r.ledger.lead) {
				end(k, true) // deposed: the resource saw a newer epoch
			}
		}
		if wl.Heartbeat {
			for _, k := range keys {
				t := held[k]
				if t == nil {
					continue
				}
				nl, leads := w.heartbeat(ctx, t.lease)
				if ctx.Err() != nil {
					return
				}
				if !leads {
					end(k, false)
					continue
				}
				t.lease = nl
			}
		}
		worked++
	}
	for _, k := range keys {
		if t := held[k]; t != nil {
			t.stop()
			w.done(t.lease)
		}
	}
	abdicated = true
	if w.gate.Point(ctx, history.PointBeforeRelease) != nil {
		return
	}
	for _, k := range keys {
		if t := held[k]; t != nil {
			w.release(ctx, t.lease)
			delete(held, k)
		}
	}
}

// readNum records one read of a number from the resource; false when the
// read failed (recorded as info).
func (w *worker) readNum(ctx context.Context, key, action string, get func(context.Context) (int64, error)) (int64, bool) {
	v := history.Value{Action: action}
	p := w.log.Begin(w.proc, w.name, history.Read, key, v)
	if err := w.gate.Sleep(ctx, w.r.wall(w.r.sc.Workload.Read.D())); err != nil {
		p.EndErr(history.Info, v, err)
		return 0, false
	}
	n, err := get(ctx)
	if err != nil {
		p.EndErr(history.Info, v, err)
		w.newProcess()
		return 0, false
	}
	v.Num = &n
	p.End(history.OK, v, "")
	return n, true
}

// writeOutcome records one resource write whose decision do returns: the
// resource's reason to refuse, or an error when the outcome is unknown
// (recorded as info, under a new process).
func (w *worker) writeOutcome(key, action string, pr proof, do func() (refusal, error)) history.Type {
	return w.recordWrite(key, action, pr, func() (*int64, refusal, error) {
		refused, err := do()
		return nil, refused, err
	})
}

// writeNum records one write of a number to the resource: do returns the
// number written, or the resource's reason to refuse, or an error when
// the outcome is unknown.
func (w *worker) writeNum(key, action string, pr proof, do func() (int64, refusal, error)) history.Type {
	return w.recordWrite(key, action, pr, func() (*int64, refusal, error) {
		n, refused, err := do()
		return &n, refused, err
	})
}

// recordWrite records one write to the resource: do returns the number written
// (nil for none), or the resource's reason to refuse, or an error when
// the outcome is unknown (recorded as info, under a new process).
func (w *worker) recordWrite(key, action string, pr proof, do func() (*int64, refusal, error)) history.Type {
	v := history.Value{Action: action, Fence: pr.fence}
	if w.r.sc.Workload.CheckAndSet {
		v.Token = pr.token
	}
	p := w.log.Begin(w.proc, w.name, history.Write, key, v)
	n, refused, err := do()
	switch {
	case err != nil:
		p.EndErr(history.Info, v, err)
		w.newProcess()
		return history.Info
	case refused.why != "":
		v.Refusal, v.SeenFence = refused.why, refused.seen
		p.End(history.Fail, v, "")
		return history.Fail
	}
	v.Num = n
	p.End(history.OK, v, "")
	return history.OK
}
