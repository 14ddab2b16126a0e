package clients

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
	"github.com/locksim/locksim/lock/lockkit"
)

// PointInAcquire is the pause point a Redlock client reaches after its SET
// commands got their replies and before it measures the elapsed time: a
// pause there is Kleppmann's "pause while the replies are in flight"
// (lock-theory §2.7, S09).
const PointInAcquire = "in-acquire"

// PointBeforeToken is the pause point a fenced Redlock reaches after its
// grant (quorum and validity check passed) and before it takes its fencing
// token (history.PointBeforeToken): the gap a token taken in a step of its
// own leaves open.
const PointBeforeToken = "before-token"

// comparePExpire extends the key only while it still holds the caller's
// owner token.
var comparePExpire = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`)

// redlock is the Redlock algorithm as the redis.io page "Distributed Locks
// with Redis" specifies it: a random owner value set with SET NX PX on each
// of N independent masters in turn, each with a per-node timeout much
// smaller than the TTL; granted when a quorum N/2+1 said OK and the validity
// TTL − elapsed − drift (drift = TTL×0.01 + 2 ms, elapsed on the client's
// own clock) is still positive; otherwise every node is unlocked.
// checkValidity false gives redlock-nocheck, which skips the validity test
// (the mistake node-redlock shipped, lock-theory §5.5).
type redlock struct {
	name          string
	cfg           Config
	checkValidity bool
	// fenced takes a fencing token after each grant from a separate
	// never-expiring counter on the first node (INCR), the "separate
	// linearizable source" of lock-theory §7.4: Redlock itself has none.
	fenced bool
}

var redlockAlgorithm = redlockVariant("redlock",
	"Redlock on N masters: quorum N/2+1, validity = TTL − elapsed − drift on the client clock (redis.io distlock)",
	lock.Traits{}, redlock{checkValidity: true})

var redlockMonotonicAlgorithm = redlockVariant("redlock-monotonic",
	"redlock measuring elapsed time and validity on a monotonic clock (redsync's time.Since): a step of the client's wall clock does not move its validity (lock-theory S16b)",
	lock.Traits{MonotonicClock: true}, redlock{checkValidity: true})

var redlockFencedAlgorithm = redlockVariant("redlock-fenced",
	"Redlock plus a fencing token from a counter on one of the lock's own nodes: INCR on the first node after the grant (lock-theory §7.4)",
	lock.Traits{Fenced: true}, redlock{checkValidity: true, fenced: true})

var redlockNoCheckAlgorithm = redlockVariant("redlock-nocheck",
	"Redlock without the post-acquire validity check (the mistake node-redlock shipped)",
	lock.Traits{}, redlock{})

// redlockVariant registers a Redlock named name, multi-node and reading
// the client clock, with traits t besides: each client's lock is v (its
// variant's fields).
func redlockVariant(name, about string, t lock.Traits, v redlock) Algorithm {
	t.MultiNode, t.ClientClock = true, true
	return Algorithm{Name: name, About: about, Traits: Traits{Traits: t, TokenAfterGrant: v.fenced},
		New: func(c Config) (Locker, error) {
			r := v
			r.name, r.cfg = name, c
			return &r, nil
		}}
}

func (r *redlock) Name() string { return r.name }

func (r *redlock) quorum() int { return len(r.cfg.Nodes)/2 + 1 }

// drift is the clock-drift allowance: TTL × 0.01 + 2 ms (redis.io).
func (r *redlock) drift() time.Duration {
	return time.Duration(float64(r.cfg.TTL)*0.01) + 2*time.Millisecond
}

// nodeTimeout is the per-node timeout: a fiftieth of the TTL, but at least
// 100 ms of wall time (or a tenth of a very short TTL). With time
// compressed a fiftieth can be 20 ms of wall time, which a loaded
// machine's scheduling delays alone exceed: every node then "fails" and an
// attempt that should get the lock does not, flipping a scenario's
// verdict; at 50 ms a catalogue run at the default parallelism still lost
// about one Redlock run in a hundred to a command unanswered within it
// (unknown: "the machine was too busy"). A silent node costs an attempt
// this timeout, still a small part of any scenario's TTL (a tenth of a
// 1 s wall TTL at time_scale 10).
func (r *redlock) nodeTimeout() time.Duration {
	if r.cfg.NodeTimeout > 0 {
		return r.cfg.NodeTimeout
	}
	return max(r.cfg.TTL/50, min(defaultNodeTimeoutFloor, r.cfg.TTL/10))
}

// defaultNodeTimeoutFloor is the least default per-node timeout of
// locksim's Redlock, wall time (see nodeTimeout).
const defaultNodeTimeoutFloor = 100 * time.Millisecond

// ErrValidityRanOut marks a Redlock acquire refused although a quorum of
// nodes granted it: the validity time, TTL − elapsed − drift on the
// client's clock (redis.io distlock, step 3), was not positive, so the
// lease may already be over and the partial grants were unlocked. Always
// wrapped together with ErrNotAcquired; a slow machine can cause it on a
// free key.
var ErrValidityRanOut = errors.New("validity time ran out")

// Acquire runs one Redlock attempt. ErrNotAcquired (wrapped with the count
// of granting nodes) when below quorum or out of validity; the partial
// grants have then been unlocked.
func (r *redlock) Acquire(ctx context.Context, key string) (Lease, error) {
	token := newToken(r.cfg.Rand)
	start := r.cfg.Clock.Now()
	var granted []string
	silent := 0 // nodes whose SET may have run although no reply came
	for _, n := range r.cfg.Nodes {
		nctx, cancel := context.WithTimeout(ctx, r.nodeTimeout())
		ok, err := n.Cmd.SetNX(nctx, key, token, r.cfg.TTL).Result()
		cancel()
		switch {
		case lockkit.NotRun(err):
			// A node loading its data refused the SET unrun: it holds
			// nothing of ours, as a refusal.
		case err != nil:
			silent++
		case ok:
			granted = append(granted, n.Name)
		}
		if ctx.Err() != nil {
			break
		}
	}
	if r.cfg.Gate != nil {
		_ = r.cfg.Gate.Point(ctx, PointInAcquire)
	}
	elapsed := r.cfg.Clock.Now().Sub(start)
	validity := r.cfg.TTL - elapsed - r.drift()
	l := Lease{Key: key, Token: token, ValidUntil: start.Add(r.cfg.TTL - r.drift()), Nodes: granted}
	if len(granted) >= r.quorum() && (validity > 0 || !r.checkValidity) {
		if !r.fenced {
			return l, nil
		}
		tctx := ctx
		if r.cfg.Gate != nil && r.cfg.Gate.Point(ctx, PointBeforeToken) == nil {
			// A stop-the-world pause there outlasts the acquire's own
			// deadline; the client, unaware of it, goes on to take its
			// token, bounded by the per-node timeout alone.
			tctx = context.WithoutCancel(ctx)
		}
		nctx, cancel := context.WithTimeout(tctx, r.nodeTimeout())
		fence, err := r.cfg.Nodes[0].Cmd.Incr(nctx, FenceKey(key)).Result()
		cancel()
		if err == nil {
			l.Fence = fence
			return l, nil
		}
		// Without a token the grant is useless to a fenced resource; give
		// it back. The counter may have moved: that only skips a number.
		r.unlockAll(context.WithoutCancel(ctx), l)
		return Lease{}, fmt.Errorf("%w: fence counter on %s: %v", ErrNotAcquired, r.cfg.Nodes[0].Name, err)
	}
	r.unlockAll(context.WithoutCancel(ctx), l)
	if len(granted) >= r.quorum() {
		return Lease{}, fmt.Errorf("%w: %d/%d nodes but %w: %v ≤ 0", ErrNotAcquired, len(granted), len(r.cfg.Nodes), ErrValidityRanOut, validity)
	}
	if len(granted)+silent >= r.quorum() {
		// A SET whose reply was lost may still land after the unlock (it
		// travels on another connection): a quorum may hold our token.
		return Lease{}, fmt.Errorf("redlock acquire outcome unknown: %d/%d nodes granted, %d did not answer", len(granted), len(r.cfg.Nodes), silent)
	}
	return Lease{}, fmt.Errorf("%w: %d/%d nodes, quorum %d", ErrNotAcquired, len(granted), len(r.cfg.Nodes), r.quorum())
}

// unlockAll sends compare-and-delete to every node, granted or not (a node
// may have set the key while its reply was lost).
func (r *redlock) unlockAll(ctx context.Context, l Lease) (removed []string, unknown int) {
	for _, n := range r.cfg.Nodes {
		nctx, cancel := context.WithTimeout(ctx, r.nodeTimeout())
		v, err := compareAndDelete.Run(nctx, n.Cmd, []string{l.Key}, l.Token).Int64()
		cancel()
		switch {
		case err != nil:
			unknown++
		case v == 1:
			removed = append(removed, n.Name)
		}
	}
	return removed, unknown
}

// Release unlocks every node. nil when it removed the key from at least one
// node; ErrNotHeld when every node answered and none held our token;
// otherwise unknown.
func (r *redlock) Release(ctx context.Context, l Lease) error {
	_, err := r.ReleaseNodes(ctx, l)
	return err
}

// ReleaseNodes is Release that also returns the nodes it removed the key
// from.
func (r *redlock) ReleaseNodes(ctx context.Context, l Lease) ([]string, error) {
	removed, unknown := r.unlockAll(ctx, l)
	switch {
	case len(removed) > 0:
		return removed, nil
	case unknown == 0:
		return nil, ErrNotHeld
	default:
		return nil, fmt.Errorf("release: %d nodes did not answer", unknown)
	}
}

// Extend resets the TTL on every node still holding our token; the lease is
// extended when a quorum did so within the new validity (redis.io,
// "extending the lock").
func (r *redlock) Extend(ctx context.Context, l Lease) (Lease, error) {
	start := r.cfg.Clock.Now()
	var ok []string
	unknown := 0
	for _, n := range r.cfg.Nodes {
		nctx, cancel := context.WithTimeout(ctx, r.nodeTimeout())
		v, err := comparePExpire.Run(nctx, n.Cmd, []string{l.Key}, l.Token, ttlMillis(r.cfg.TTL)).Int64()
		cancel()
		switch {
		case err != nil:
			unknown++
		case v == 1:
			ok = append(ok, n.Name)
		}
	}
	validity := r.cfg.TTL - r.cfg.Clock.Now().Sub(start) - r.drift()
	if len(ok) >= r.quorum() && validity > 0 {
		l.ValidUntil = start.Add(r.cfg.TTL - r.drift())
		l.Nodes = ok
		return l, nil
	}
	if unknown == 0 {
		return l, ErrNotHeld
	}
	return l, errors.New("extend: below quorum with nodes not answering")
}
