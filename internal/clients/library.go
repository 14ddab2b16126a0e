package clients

import (
	"context"
	"encoding/base64"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/locksim/locksim/internal/tick"
)

// tries is the number of attempts per Acquire, at least 1.
func libraryTries(o LibraryOptions) int { return max(o.Tries, 1) }

// pointInRenew is the pause point a refresh loop passes before each refresh
// (design §5, "in-renew").
const pointInRenew = "in-renew"

// libraryToken draws 16 bytes from the run's seeded source, the size both
// libraries use, so a run's tokens are reproducible.
func libraryToken(r *rand.Rand, enc *base64.Encoding) string {
	var b [16]byte
	for i := 0; i < len(b); i += 8 {
		v := r.Uint64()
		for j := range 8 {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	return enc.EncodeToString(b[:])
}

// refresher runs one refresh loop per granted lease, keyed by token.
type refresher struct {
	every time.Duration
	gate  Gate
	mu    sync.Mutex
	stops map[string]context.CancelFunc
}

func newRefresher(c Config) *refresher {
	if c.Library.Refresh <= 0 {
		return nil
	}
	return &refresher{every: c.Library.Refresh, gate: c.Gate, stops: map[string]context.CancelFunc{}}
}

// start refreshes the lease with token every r.every until stop(token) or
// the first refresh that does not succeed. extend gets a context bounded by
// timeout.
func (r *refresher) start(token string, timeout time.Duration, extend func(ctx context.Context) error) {
	if r == nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.mu.Lock()
	r.stops[token] = cancel
	r.mu.Unlock()
	go func() {
		defer r.stop(token)
		tick.Every(ctx, r.every, func() bool {
			if r.gate != nil && r.gate.Point(ctx, pointInRenew) != nil || ctx.Err() != nil {
				return false
			}
			ectx, ecancel := context.WithTimeout(ctx, timeout)
			defer ecancel()
			return extend(ectx) == nil
		})
	}()
}

// stop ends the refresh loop of token, if any.
func (r *refresher) stop(token string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	cancel := r.stops[token]
	delete(r.stops, token)
	r.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// walkJoined calls f on every leaf of a tree of errors.Join errors (it does
// not descend into single-error wrappers).
func walkJoined(err error, f func(error)) {
	if err == nil {
		return
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			walkJoined(e, f)
		}
		return
	}
	f(err)
}

// errUnknownOwner is returned when a lease was not issued by this locker.
var errUnknownOwner = errors.New("lease was not obtained through this locker")
