package runner

import (
	"context"
	"errors"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/history"
)

// heartbeat is a leader's heartbeat (workload.heartbeat): the extend its
// own loop sends after a unit of work, as rq's scheduler does after each
// enqueue. It returns the lease to go on with and whether the leader still
// believes it leads: a refused heartbeat (ErrNotHeld) or an unknown one
// deposes it, recorded as the lease lost at that moment.
func (w *worker) heartbeat(ctx context.Context, l clients.Lease) (clients.Lease, bool) {
	ext, ok := w.lock.(clients.Extender)
	if !ok {
		return l, true // the parser let no such scenario through
	}
	v := history.Value{Token: l.Token, Fence: l.Fence, TTL: int64(w.r.ttl()), LockKey: w.lockKey(l)}
	p := w.log.Begin(w.proc, w.name, history.Extend, w.resource(l), v)
	octx, cancel := context.WithTimeout(ctx, w.r.opDeadline())
	nl, err := ext.Extend(octx, l)
	cancel()
	if errors.Is(err, clients.ErrInfrastructure) {
		w.r.brokeClient(err)
	}
	t := outcome(err)
	p.EndErr(t, v, err)
	if t == history.Info {
		w.newProcess()
	}
	if t != history.OK {
		if ctx.Err() == nil {
			w.log.Instant(w.proc, w.name, history.Lost, w.resource(l), history.Value{Token: l.Token, Fence: l.Fence}, history.OK)
		}
		return l, false
	}
	nl.Lost = l.Lost
	return nl, true
}
