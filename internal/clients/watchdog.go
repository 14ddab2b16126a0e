package clients

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// compareAndPexpire extends the key's TTL only while it still holds the
// caller's owner token.
var compareAndPexpire = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`)

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

	mu    sync.Mutex
	stops map[string]context.CancelFunc
}

var watchdogAlgorithm = Algorithm{
	Name:   "watchdog",
	About:  "safe lock plus a renewer that extends the lease every TTL/3 with compare-and-pexpire and tells the job when a renewal fails (Redisson's watchdog)",
	New:    newWatchdog,
	Traits: Traits{ClientClock: true},
}

func newWatchdog(c Config) (Locker, error) {
	// A renewal that takes longer than a renewal period counts as failed:
	// the job hears of it while the key still has two periods to live.
	t := min(max(c.TTL/3, 10*time.Millisecond), 2*time.Second)
	if c.OpTimeout > 0 {
		t = min(t, c.OpTimeout)
	}
	return &watchdog{single: single{name: "watchdog", cfg: c, node: c.Nodes[0], cad: true},
		every: c.TTL / 3, timeout: t, stops: map[string]context.CancelFunc{}}, nil
}

// Acquire sets the key like safe and starts the lease's renewer.
func (w *watchdog) Acquire(ctx context.Context, key string) (Lease, error) {
	l, err := w.single.Acquire(ctx, key)
	if err != nil {
		return l, err
	}
	lost := make(chan struct{})
	l.Lost = lost
	rctx, cancel := context.WithCancel(context.Background())
	w.mu.Lock()
	w.stops[l.Token] = cancel
	w.mu.Unlock()
	go w.renew(rctx, l, lost)
	return l, nil
}

// renew extends l every w.every of the client's clock until stopped, or
// until a renewal does not succeed: then it closes lost.
func (w *watchdog) renew(ctx context.Context, l Lease, lost chan struct{}) {
	defer w.stop(l.Token)
	next := w.cfg.Clock.Now().Add(w.every)
	for {
		// Sleep in halves of what the client's clock says is left, so the
		// loop follows the clock whatever its rate or jumps.
		for {
			left := next.Sub(w.cfg.Clock.Now())
			if left <= 0 {
				break
			}
			t := time.NewTimer(max(left/2, 100*time.Microsecond))
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
		if w.cfg.Gate != nil && w.cfg.Gate.Point(ctx, PointInRenew) != nil {
			return // the run ended or the client crashed: no more renewals
		}
		if ctx.Err() != nil {
			return
		}
		var done func(error)
		if r, ok := w.cfg.Gate.(RenewRecorder); ok {
			done = r.Renewing(l)
		}
		ectx, cancel := context.WithTimeout(ctx, w.timeout)
		_, err := w.extend(ectx, l)
		cancel()
		if done != nil {
			done(err)
		}
		if ctx.Err() != nil {
			return // released meanwhile
		}
		if err != nil {
			close(lost)
			return
		}
		next = w.cfg.Clock.Now().Add(w.every)
	}
}

func (w *watchdog) stop(token string) {
	w.mu.Lock()
	cancel := w.stops[token]
	delete(w.stops, token)
	w.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Release stops the lease's renewer, then deletes the key if it is still
// the client's own.
func (w *watchdog) Release(ctx context.Context, l Lease) error {
	w.stop(l.Token)
	return w.single.Release(ctx, l)
}

// Extend resets the lease's TTL if the key still holds its token.
func (w *watchdog) Extend(ctx context.Context, l Lease) (Lease, error) {
	return w.extend(ctx, l)
}

func (w *watchdog) extend(ctx context.Context, l Lease) (Lease, error) {
	start := w.cfg.Clock.Now()
	n, err := compareAndPexpire.Run(ctx, w.node.Cmd, []string{l.Key}, l.Token, ttlMillis(w.cfg.TTL)).Int64()
	if err != nil {
		return l, fmt.Errorf("extend on %s: %w", w.node.Name, err)
	}
	if n == 0 {
		return l, ErrNotHeld
	}
	l.ValidUntil = start.Add(w.cfg.TTL)
	return l, nil
}
