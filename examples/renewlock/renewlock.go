// Package renewlock is a lock that keeps its lease alive while its job
// runs, written only against locksim's public API (packages lock and
// lock/lockkit): the safe single-instance lock of lockkit, plus a renewer
// per lease that extends it every TTL/3 with compare-and-pexpire on a
// connection of its own. Like Redisson's watchdog, it reports every
// renewal to locksim (lock.Renewals, so the history shows each one), lets
// a pause planned at the in-renew point freeze it (lock.Gate), and tells
// the job when a renewal finds the lease gone (Lease.Lost).
package renewlock

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
	"github.com/locksim/locksim/lock/lockkit"
)

// Algorithm registers the lock as "renew-lock". It measures its renewal
// period with Go's own timers, so client clock faults do not reach it
// (ClientClock false).
var Algorithm = lock.Algorithm{
	Name:  name,
	About: "safe lock plus a renewer that extends each lease every TTL/3 on a connection of its own, built on locksim's public API (examples/renewlock)",
	New:   New,
}

const name = "renew-lock"

// Lock is one client's renewing lock. Close it when the run ends (locksim
// does: it is an io.Closer).
type Lock struct {
	safe    *lockkit.Safe
	cfg     lock.Config
	renewer *redis.Client // the renewer's own connection to the node
	timeout time.Duration // bounds one renewal

	mu    sync.Mutex
	stops map[string]context.CancelFunc // by token: ends a lease's renewer
}

// New builds the lock on c's first node. The renewer's connection is one
// of locksim's own settings (lockkit.NewClient), through the same link as
// c.Nodes[0].Cmd and with its stalls recorded.
func New(c lock.Config) (lock.Locker, error) {
	safe, err := lockkit.NewSafe(name, c)
	if err != nil {
		return nil, err
	}
	// A renewal that takes longer than a renewal period counts as failed:
	// the job hears of it while the key still has two periods to live.
	timeout := c.TTL / 3
	if c.CommandTimeout > 0 {
		timeout = min(timeout, c.CommandTimeout)
	}
	return &Lock{safe: safe, cfg: c, renewer: lockkit.NewClient(c.Nodes[0], c.CommandTimeout), timeout: timeout,
		stops: map[string]context.CancelFunc{}}, nil
}

// Name is the algorithm's name.
func (l *Lock) Name() string { return name }

// Acquire takes the lock (lockkit.Safe) and starts the lease's renewer.
func (l *Lock) Acquire(ctx context.Context, key string) (lock.Lease, error) {
	lease, err := l.safe.Acquire(ctx, key)
	if err != nil {
		return lease, err
	}
	lost := make(chan struct{})
	lease.Lost = lost
	rctx, cancel := context.WithCancel(context.Background())
	l.mu.Lock()
	l.stops[lease.Token] = cancel
	l.mu.Unlock()
	go l.renew(rctx, lease, lost)
	return lease, nil
}

// renew extends lease every TTL/3 until stopped, or until a renewal does
// not succeed: then it closes lost, telling the job.
func (l *Lock) renew(ctx context.Context, lease lock.Lease, lost chan struct{}) {
	t := time.NewTimer(l.cfg.TTL / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if g := l.cfg.Gate; g != nil && g.Point(ctx, lock.PointInRenew) != nil {
			return // the run ended or the client crashed
		}
		if ctx.Err() != nil {
			return // released while frozen
		}
		var done func(error)
		if r := l.cfg.Renewals; r != nil {
			done = r.Renewing(lease)
		}
		err := l.extend(ctx, lease)
		if done != nil {
			done(err)
		}
		if ctx.Err() != nil {
			return // released meanwhile
		}
		if err != nil {
			close(lost) // not held, or unknown: the lease cannot be counted on
			return
		}
		t.Reset(l.cfg.TTL / 3)
	}
}

// extend runs one renewal: nil renewed, lock.ErrNotHeld when the key was
// gone or another's, another error when the outcome is unknown.
func (l *Lock) extend(ctx context.Context, lease lock.Lease) error {
	rctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	n, err := lockkit.CompareAndPexpire.Run(rctx, l.renewer, []string{lease.Key}, lease.Token, lockkit.TTLMillis(l.cfg.TTL)).Int64()
	switch {
	case err != nil:
		return err
	case n == 0:
		return lock.ErrNotHeld
	}
	return nil
}

// Release stops the lease's renewer, then deletes the key while it is
// still the lease's (lockkit.Safe).
func (l *Lock) Release(ctx context.Context, lease lock.Lease) error {
	l.stop(lease.Token)
	return l.safe.Release(ctx, lease)
}

func (l *Lock) stop(token string) {
	l.mu.Lock()
	cancel := l.stops[token]
	delete(l.stops, token)
	l.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Close stops every renewer and closes the renewer's connection.
func (l *Lock) Close() error {
	l.mu.Lock()
	for token, cancel := range l.stops {
		cancel()
		delete(l.stops, token)
	}
	l.mu.Unlock()
	return l.renewer.Close()
}

var _ lock.Locker = (*Lock)(nil)
