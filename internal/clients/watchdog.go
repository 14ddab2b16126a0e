package clients

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/locksim/locksim/lock"
	"github.com/locksim/locksim/lock/lockkit"
	"github.com/redis/go-redis/v9"
)

// compareAndPexpire extends the key's TTL only while it still holds the
// caller's owner token (lockkit.CompareAndPexpire).
var compareAndPexpire = lockkit.CompareAndPexpire

// PointInRenew is the pause point a renewer passes before each renewal
// (design §5, "in-renew"); a starve-renewals fault holds it back there.
const PointInRenew = pointInRenew

// watchdog is the safe single-instance lock plus a background renewer per
// lease, like Redisson's lock watchdog (lock-theory §5.4, S15): every TTL/3
// of the client's clock it extends the lease with compare-and-pexpire. When
// a renewal fails or finds the key gone it closes the lease's Lost channel
// and stops. The renewer passes the client's gate before each renewal, so a
// stop-the-world pause of the client pauses it too.
type watchdog struct {
	single
	every   time.Duration
	timeout time.Duration

	// The fields below choose a variant (mutants.go); the zero values are
	// locksim's watchdog.

	// extendWith, when set, is the renewal in place of compare-and-pexpire.
	extendWith func(ctx context.Context, w *watchdog, l Lease) (Lease, error)
	// quiet: a renewal that did not succeed is never told to the job (the
	// lease's Lost stays open); the renewer stops when the key is
	// definitely not the client's, and tries again after an unknown outcome.
	quiet bool
	// retryUnknown: a renewal of unknown outcome (a timeout) is
	// rescheduled instead of ending the lease.
	retryUnknown bool
	// stopOnReply: Release stops the renewer only once the unlock got a
	// reply; an unlock whose reply was lost leaves it renewing.
	stopOnReply bool
	// maxRenewals > 0 caps the renewals of one lease: at the cap the
	// renewer tells the job the lease is lost and gives the key up.
	maxRenewals int
	// deadline: a lease whose ValidUntil, less a tenth of the TTL, passes
	// on the client's clock with no renewal is told lost at that moment,
	// whether or not the renewer ran.
	deadline bool
	// existsValid: Valid asks only whether the key exists, not whose it is.
	existsValid bool

	mu    sync.Mutex
	stops map[string]context.CancelFunc
	valid map[string]time.Time // token → ValidUntil after its last renewal (deadline)
}

var watchdogAlgorithm = Algorithm{
	Name:   "watchdog",
	About:  "safe lock plus a renewer that extends the lease every TTL/3 with compare-and-pexpire and tells the job when a renewal fails (Redisson's watchdog)",
	New:    newWatchdog,
	Traits: Traits{Traits: lock.Traits{ClientClock: true}},
}

func newWatchdog(c Config) (Locker, error) {
	// A renewal that takes longer than a renewal period counts as failed:
	// the job hears of it while the key still has two periods to live.
	t := min(max(c.TTL/3, 10*time.Millisecond), 2*time.Second)
	if c.OpTimeout > 0 {
		t = min(t, c.OpTimeout)
	}
	return &watchdog{single: single{name: "watchdog", cfg: c, node: c.Nodes[0], cad: true},
		every: c.TTL / 3, timeout: t, stops: map[string]context.CancelFunc{}, valid: map[string]time.Time{}}, nil
}

// Acquire sets the key like safe and starts the lease's renewer (and,
// with a deadline, its deadline watch).
func (w *watchdog) Acquire(ctx context.Context, key string) (Lease, error) {
	l, err := w.single.Acquire(ctx, key)
	if err != nil {
		return l, err
	}
	lost := make(chan struct{})
	var once sync.Once
	tell := func() { once.Do(func() { close(lost) }) }
	l.Lost = lost
	rctx, cancel := context.WithCancel(context.Background())
	w.mu.Lock()
	w.stops[l.Token] = cancel
	w.valid[l.Token] = l.ValidUntil
	w.mu.Unlock()
	go w.renew(rctx, l, tell)
	if w.deadline {
		go w.watchDeadline(rctx, l.Token, tell)
	}
	return l, nil
}

// sleepUntil waits until the client's clock reads t, in halves of what it
// says is left so that the wait follows the clock whatever its rate or
// jumps; false when ctx ended first.
func (w *watchdog) sleepUntil(ctx context.Context, t time.Time) bool {
	for {
		left := t.Sub(w.cfg.Clock.Now())
		if left <= 0 {
			return true
		}
		tm := time.NewTimer(max(left/2, 100*time.Microsecond))
		select {
		case <-ctx.Done():
			tm.Stop()
			return false
		case <-tm.C:
		}
	}
}

// renew extends l every w.every of the client's clock until stopped, or
// until a renewal does not succeed: then it tells the job (tell closes the
// lease's Lost) unless the variant is quiet.
func (w *watchdog) renew(ctx context.Context, l Lease, tell func()) {
	defer w.stop(l.Token)
	next := w.cfg.Clock.Now().Add(w.every)
	renewals := 0
	for {
		if !w.sleepUntil(ctx, next) {
			return
		}
		if w.cfg.Gate != nil && w.cfg.Gate.Point(ctx, PointInRenew) != nil {
			return // the run ended or the client crashed: no more renewals
		}
		if ctx.Err() != nil {
			return
		}
		if w.maxRenewals > 0 && renewals >= w.maxRenewals {
			// The cap: a job that still runs after this many renewals is
			// taken as hung; its lease is given up, not renewed for ever.
			tell()
			rctx, cancel := context.WithTimeout(ctx, w.timeout)
			_ = w.single.Release(rctx, l)
			cancel()
			return
		}
		var done func(error)
		if w.cfg.Renewals != nil {
			done = w.cfg.Renewals.Renewing(l)
		}
		ectx, cancel := context.WithTimeout(ctx, w.timeout)
		nl, err := w.extend(ectx, l)
		cancel()
		if done != nil {
			done(err)
		}
		if ctx.Err() != nil {
			return // released meanwhile
		}
		switch {
		case err == nil:
			renewals++
			w.mu.Lock()
			w.valid[l.Token] = nl.ValidUntil
			w.mu.Unlock()
		case !errors.Is(err, ErrNotHeld) && (w.retryUnknown || w.quiet):
			// unknown: try again at the next period
		default:
			if !w.quiet {
				tell()
			}
			return
		}
		next = w.cfg.Clock.Now().Add(w.every)
	}
}

// watchDeadline tells the job its lease is lost once the client's clock
// passes the lease's ValidUntil less a tenth of the TTL with no renewal
// since: the local lease deadline of node-redlock's using() (its abort
// signal), which holds whether the renewer was starved or its renewal
// lost. The tenth leaves room for the client's timers running late.
func (w *watchdog) watchDeadline(ctx context.Context, token string, tell func()) {
	margin := w.cfg.TTL / 10
	for {
		w.mu.Lock()
		until, ok := w.valid[token]
		w.mu.Unlock()
		if !ok || !w.sleepUntil(ctx, until.Add(-margin)) {
			return
		}
		w.mu.Lock()
		renewed := w.valid[token].After(until)
		w.mu.Unlock()
		if !renewed {
			tell()
			return
		}
	}
}

func (w *watchdog) stop(token string) {
	w.mu.Lock()
	cancel := w.stops[token]
	delete(w.stops, token)
	delete(w.valid, token)
	w.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Release stops the lease's renewer, then deletes the key if it is still
// the client's own.
func (w *watchdog) Release(ctx context.Context, l Lease) error {
	if !w.stopOnReply {
		w.stop(l.Token)
		return w.single.Release(ctx, l)
	}
	err := w.single.Release(ctx, l)
	if err == nil || errors.Is(err, ErrNotHeld) {
		w.stop(l.Token)
	}
	return err
}

// Extend resets the lease's TTL if the key still holds its token.
func (w *watchdog) Extend(ctx context.Context, l Lease) (Lease, error) {
	return w.extend(ctx, l)
}

func (w *watchdog) extend(ctx context.Context, l Lease) (Lease, error) {
	if w.extendWith != nil {
		return w.extendWith(ctx, w, l)
	}
	return w.extendBy(ctx, compareAndPexpire, l)
}

// extendBy runs an extend script (KEYS[1] the key, ARGV the token and the
// TTL in ms; 1 when it extended) and sets the lease's validity from the
// instant it was sent; ErrNotHeld when the script answered 0.
func (w *watchdog) extendBy(ctx context.Context, script *redis.Script, l Lease) (Lease, error) {
	start := w.cfg.Clock.Now()
	n, err := script.Run(ctx, w.node.Cmd, []string{l.Key}, l.Token, ttlMillis(w.cfg.TTL)).Int64()
	if err != nil {
		return l, fmt.Errorf("extend on %s: %w", w.node.Name, err)
	}
	if n == 0 {
		return l, ErrNotHeld
	}
	l.ValidUntil = start.Add(w.cfg.TTL)
	return l, nil
}
