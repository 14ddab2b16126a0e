package clients

import (
	"context"

	"github.com/locksim/locksim/lock"
)

// watchdogUnobserved is the watchdog whose loss signal nobody acts on: its
// renewer extends the lease every TTL/3 and stops when a renewal fails,
// but the job is never told (Lease.Lost is nil), so it goes on to its
// side effects. Bull and BullMQ renew a job's lock from a timer on the
// same event loop as the job, and a failed renewal only emits an event
// (bull PR #2184, `lock-extension-failed`) that does not stop the
// processor (BR-23).
type watchdogUnobserved struct {
	*watchdog
}

var watchdogUnobservedAlgorithm = Algorithm{
	Name:   "watchdog-unobserved",
	About:  "watchdog whose failed renewal stops the renewer but is never told to the job, which goes on to act (Bull's lock-extension-failed event)",
	New:    newWatchdogUnobserved,
	Traits: Traits{Traits: lock.Traits{ClientClock: true}},
}

func newWatchdogUnobserved(c Config) (Locker, error) {
	l, err := newWatchdog(c)
	if err != nil {
		return nil, err
	}
	w := l.(*watchdog)
	w.name = "watchdog-unobserved"
	return watchdogUnobserved{w}, nil
}

// Acquire takes the lock and starts its renewer like watchdog, but hands
// the job a lease with no loss signal.
func (w watchdogUnobserved) Acquire(ctx context.Context, key string) (Lease, error) {
	l, err := w.watchdog.Acquire(ctx, key)
	l.Lost = nil
	return l, err
}
