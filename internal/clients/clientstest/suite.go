package clientstest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/cluster"
)

// Expect describes the algorithm under test.
type Expect struct {
	// Nodes is the number of Redis nodes the algorithm runs on; 0 means 1.
	Nodes int
	// Fencing: every lease carries a fencing token, larger with every
	// grant. Without it every lease's Fence must be 0.
	Fencing bool
	// UnsafeRelease declares the known-unsafe release of naive: a stale
	// holder's Release removes the current holder's key. The suite then
	// asserts that this does happen.
	UnsafeRelease bool
}

func (e Expect) nodes() int  { return max(e.Nodes, 1) }
func (e Expect) quorum() int { return e.nodes()/2 + 1 }

// Lease times of the suite, wall time.
const (
	longTTL  = 3 * time.Second        // a lease that outlives its subtest
	shortTTL = 300 * time.Millisecond // a lease the subtest lets expire
	expired  = shortTTL + 150*time.Millisecond
	// minValidityOut is the least time an acquire of the suite's shortest
	// lease takes before Redlock's validity (TTL − elapsed − TTL×0.01 − 2 ms)
	// runs out: a refusal for lost validity that came back sooner is false.
	minValidityOut = shortTTL - shortTTL/100 - 2*time.Millisecond
	opTime         = 2 * time.Second // bound of one Acquire/Release/Extend call
	// settle bounds the retries of a call whose outcome was unknown. It is
	// longer than longTTL, so whatever an unknown acquire may have taken
	// has expired before the retries give up.
	settle = 10 * time.Second
	// margin is how far the suite trusts its own clock against Redis's
	// expiry: a lease set after invoke is certainly live until
	// invoke + TTL − margin.
	margin = 10 * time.Millisecond
	// attempts is how often a property is tried whose run the machine's
	// load left undecided (a call came back too late to tell a wrong
	// answer from an expired lease).
	attempts = 5
)

// A loaded machine makes calls slow and makes some of them time out. The
// suite gives those their meaning instead of failing on them: a timeout
// is an unknown outcome, which the Locker contract allows, so a call whose
// outcome is unknown is retried until it gives a definite answer (within
// settle); and a check that a lease is still live is only made while it
// certainly is (before invoke + TTL − margin) — a run that came back too
// late is tried again with a fresh key. Wrong definite answers still fail.

// Unknown reports whether err is an unknown outcome: an error that is
// neither ErrNotAcquired nor ErrNotHeld (a timeout, typically).
func Unknown(err error) bool {
	return err != nil && !errors.Is(err, clients.ErrNotAcquired) && !errors.Is(err, clients.ErrNotHeld)
}

func unknown(err error) bool { return Unknown(err) }

// liveUntil is the last moment a lease whose acquire was invoked at
// invoke certainly lives, by the suite's clock.
func liveUntil(invoke time.Time, ttl time.Duration) time.Time {
	return invoke.Add(ttl - margin)
}

// Conclusively runs try until a run is conclusive: try reports wrong
// answers itself (t.Error, t.Fatal) and returns why its run proves
// nothing — an unknown outcome, a check that came too late to be judged —
// or "" when it was conclusive. After five inconclusive runs the test
// fails: a property that can never be decided is not passed. Each run
// should use fresh keys.
func Conclusively(t *testing.T, try func() (inconclusive string)) {
	t.Helper()
	var why []string
	for range attempts {
		w := try()
		if w == "" {
			return
		}
		t.Logf("inconclusive run, trying again with a fresh key: %s", w)
		why = append(why, w)
	}
	t.Fatalf("no conclusive run in %d attempts:\n%s", attempts, strings.Join(why, "\n"))
}

// suite is one Run: a cluster of e.nodes() nodes with three clients.
type suite struct {
	c   *Cluster
	f   Factory
	e   Expect
	seq atomic.Int64
	// asked maps the key a lease names (the Redis key the lock holds,
	// which a lock may derive from the resource's: redis-semaphore's
	// "mutex:<key>") to the resource key it was asked for.
	asked clients.ResourceKeys
}

// Run runs the conformance suite on the Lockers f builds. Each property is a
// subtest; keys are fresh per subtest, so they share one cluster.
func Run(t *testing.T, f Factory, e Expect) {
	t.Helper()
	s := &suite{c: StartCluster(t, e.nodes(), 3), f: f, e: e}
	t.Run("a second client is refused with ErrNotAcquired while the first holds the lock", s.refusedWhileHeld)
	t.Run("the lease's token is the value stored under the key on the quorum of nodes it names", s.tokenIsStored)
	if e.Fencing {
		t.Run("every grant carries a larger fencing token than the one before", s.fencesIncrease)
	} else {
		t.Run("an algorithm without fencing reports fence 0", s.noFence)
	}
	t.Run("clients contending without faults never hold the lock at the same time", s.exclusion)
	if e.UnsafeRelease {
		t.Run("a stale holder's release removes the current holder's key, as this algorithm is known to do", s.staleRelease)
	} else {
		t.Run("a stale holder's release does not remove the current holder's key", s.staleRelease)
	}
	t.Run("the key expires after its TTL and another client can then acquire", s.expiry)
	t.Run("a release after the lease expired reports ErrNotHeld", s.releaseExpired)
	t.Run("an acquire with an already cancelled context hands out no lease", s.preCancelled)
	t.Run("an acquire cancelled while its replies are lost is unknown or a true refusal, and the client recovers", s.cancelledInFlight)
	if _, ok := s.c.Locker(t, f, 0, longTTL).(clients.Extender); ok {
		t.Run("an extend keeps the lease past its first expiry", s.extendKeeps)
		t.Run("an extend of an expired lease reports ErrNotHeld", s.extendExpired)
	}
}

// key is a fresh lock key.
func (s *suite) key() string { return fmt.Sprintf("conformance-%d", s.seq.Add(1)) }

func opCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), opTime)
}

func acquire(l clients.Locker, key string) (clients.Lease, error) {
	ctx, cancel := opCtx()
	defer cancel()
	return l.Acquire(ctx, key)
}

func release(l clients.Locker, lease clients.Lease) error {
	ctx, cancel := opCtx()
	defer cancel()
	return l.Release(ctx, lease)
}

// grant acquires a fresh key with l and returns the lease and when its
// acquire was invoked. An unknown outcome is retried on another fresh key
// (the unknown acquire may have taken its own); a definite refusal of a
// free key fails the test.
func (s *suite) grant(t *testing.T, l clients.Locker) (clients.Lease, time.Time) {
	t.Helper()
	deadline := time.Now().Add(settle)
	for {
		key := s.key()
		invoke := time.Now()
		lease, err := acquire(l, key)
		switch {
		case err == nil:
			if !strings.Contains(lease.Key, key) {
				t.Fatalf("%s: lease key %q, want %q or a key of the lock's own that names it", l.Name(), lease.Key, key)
			}
			s.asked.Note(lease.Key, key)
			return lease, invoke
		case errors.Is(err, clients.ErrValidityRanOut) && time.Since(invoke) >= minValidityOut:
			// Redlock's acquire took longer than its TTL less the drift (a
			// loaded machine): refusing it is right, and proves nothing here.
			t.Logf("acquire of a free key: refused after %v, its validity ran out, as it must (retrying): %v", time.Since(invoke), err)
			if time.Now().After(deadline) {
				t.Fatalf("%s: no acquire of a free key kept its validity in %v; the last: %v", l.Name(), settle, err)
			}
			continue
		case !unknown(err):
			t.Fatalf("%s: acquire %s on a free key: %v", l.Name(), key, err)
		case time.Now().After(deadline):
			t.Fatalf("%s: no acquire of a free key had a known outcome in %v; the last: %v", l.Name(), settle, err)
		}
		t.Logf("acquire of a free key: outcome unknown, as allowed (retrying): %v", err)
	}
}

// resource is the resource key lease l was asked for (grant).
func (s *suite) resource(l clients.Lease) string { return s.asked.Of(l) }

// lockKey is the Redis key the lock holds for resource key: the key
// itself, or, for a lock that derived its own from the resource's, the
// same derivation as its grants so far showed (the resource's name within
// its key, as "mutex:<key>").
func (s *suite) lockKey(key string) string {
	if lk, r, ok := s.asked.Derived(); ok {
		return strings.Replace(lk, r, key, 1)
	}
	return key
}

// acquireFreed acquires key, which is free again (its holder released it
// or its lease expired), retrying unknown outcomes. After an unknown
// outcome a refusal is retried too: the unknown acquire may hold the key
// itself until its lease expires.
func (s *suite) acquireFreed(t *testing.T, l clients.Locker, key string) clients.Lease {
	t.Helper()
	deadline := time.Now().Add(settle)
	sawUnknown := false
	for {
		lease, err := acquire(l, key)
		switch {
		case err == nil:
			return lease
		case !unknown(err) && !sawUnknown:
			t.Fatalf("%s: acquire %s, which is free again: %v", l.Name(), key, err)
		case time.Now().After(deadline):
			t.Fatalf("%s: acquire %s, which is free again: not granted within %v; the last: %v", l.Name(), key, settle, err)
		}
		sawUnknown = sawUnknown || unknown(err)
		time.Sleep(10 * time.Millisecond)
	}
}

// definite retries call while its outcome is unknown, for up to settle,
// and returns the first known outcome (nil, ErrNotAcquired or ErrNotHeld),
// when that call was invoked and completed, and whether an unknown outcome
// came before it.
func definite(t *testing.T, what string, call func() error) (err error, invoke, done time.Time, sawUnknown bool) {
	t.Helper()
	deadline := time.Now().Add(settle)
	for {
		invoke = time.Now()
		err = call()
		done = time.Now()
		if !unknown(err) {
			return err, invoke, done, sawUnknown
		}
		if done.After(deadline) {
			t.Fatalf("%s: no known outcome within %v; the last: %v", what, settle, err)
		}
		t.Logf("%s: outcome unknown, as allowed (retrying): %v", what, err)
		sawUnknown = true
	}
}

// releaseLive releases a lease that is still live: nil, or ErrNotHeld after
// an unknown attempt (which may have removed the key), is right.
func releaseLive(t *testing.T, l clients.Locker, lease clients.Lease) {
	t.Helper()
	err, _, _, sawUnknown := definite(t, l.Name()+": release", func() error { return release(l, lease) })
	if err != nil && !(sawUnknown && errors.Is(err, clients.ErrNotHeld)) {
		t.Errorf("%s: release of a live lease: %v, want nil", l.Name(), err)
	}
}

// holders counts the nodes whose value of key is token.
func (s *suite) holders(t *testing.T, key, token string) int {
	n := 0
	for _, v := range s.c.Values(t, key) {
		if token != "" && v == token {
			n++
		}
	}
	return n
}

// present counts the nodes where key exists.
func (s *suite) present(t *testing.T, key string) int {
	n := 0
	for _, v := range s.c.Values(t, key) {
		if v != "" {
			n++
		}
	}
	return n
}

func (s *suite) refusedWhileHeld(t *testing.T) {
	a, b := s.c.Locker(t, s.f, 0, longTTL), s.c.Locker(t, s.f, 1, longTTL)
	Conclusively(t, func() string {
		la, invoke := s.grant(t, a)
		err, _, done, sawUnknown := definite(t, "second acquire while held", func() error {
			lb, err := acquire(b, s.resource(la))
			if err == nil {
				defer release(b, lb)
			}
			return err
		})
		if (err == nil || sawUnknown) && done.After(liveUntil(invoke, longTTL)) {
			return fmt.Sprintf("the second acquire came back %v after the first was invoked, when its %v lease may have expired", done.Sub(invoke), longTTL)
		}
		if !errors.Is(err, clients.ErrNotAcquired) {
			t.Fatalf("second acquire while held: err = %v, want ErrNotAcquired", err)
		}
		releaseLive(t, a, la)
		lb := s.acquireFreed(t, b, s.resource(la))
		releaseLive(t, b, lb)
		return ""
	})
}

func (s *suite) tokenIsStored(t *testing.T) {
	a, b := s.c.Locker(t, s.f, 0, longTTL), s.c.Locker(t, s.f, 1, longTTL)
	Conclusively(t, func() string {
		l, invoke := s.grant(t, a)
		key := l.Key
		if l.Token == "" {
			t.Fatal("lease has no token")
		}
		values := s.c.Values(t, key)
		if time.Now().After(liveUntil(invoke, longTTL)) {
			release(a, l)
			return "the nodes were read after the lease may have expired"
		}
		held := 0
		for _, v := range values {
			if v == l.Token {
				held++
			}
		}
		if held < s.e.quorum() {
			t.Errorf("token %q stored on %d nodes (values %q), want ≥ %d", l.Token, held, values, s.e.quorum())
		}
		// A single-node lock may leave Nodes empty; a multi-node one must say
		// which nodes granted (checkers compare node sets).
		if s.e.nodes() > 1 && len(l.Nodes) < s.e.quorum() {
			t.Errorf("lease names nodes %v, want ≥ %d", l.Nodes, s.e.quorum())
		}
		for _, name := range l.Nodes {
			if i := slices.Index(s.c.NodeNames(), name); i < 0 || values[i] != l.Token {
				t.Errorf("lease names node %q, which does not hold its token (values %q)", name, values)
			}
		}
		if nr, ok := a.(clients.NodeReleaser); ok {
			ctx, cancel := opCtx()
			removed, err := nr.ReleaseNodes(ctx, l)
			cancel()
			switch {
			case unknown(err):
				releaseLive(t, a, l)
				return fmt.Sprintf("the release's outcome was unknown (%v), so which nodes it removed the key from is too", err)
			case err != nil:
				t.Fatalf("release of a live lease: %v", err)
			case len(l.Nodes) > 0 && !slices.Equal(removed, l.Nodes):
				t.Errorf("release removed the key from %v, want the lease's nodes %v", removed, l.Nodes)
			}
		} else {
			releaseLive(t, a, l)
		}
		l2 := s.acquireFreed(t, b, s.resource(l))
		defer releaseLive(t, b, l2)
		if l2.Token == l.Token {
			t.Errorf("two grants share the token %q", l.Token)
		}
		return ""
	})
}

func (s *suite) fencesIncrease(t *testing.T) {
	lk := s.c.Locker(t, s.f, 0, longTTL)
	l, _ := s.grant(t, lk)
	key := s.resource(l)
	prev := l.Fence
	if prev <= 0 {
		t.Fatalf("grant 1: fence %d, want > 0", prev)
	}
	releaseLive(t, lk, l)
	for i := 2; i <= 3; i++ {
		// A grant whose outcome was unknown may take a fence in between:
		// the next one is still larger.
		l := s.acquireFreed(t, lk, key)
		releaseLive(t, lk, l)
		if l.Fence <= prev {
			t.Fatalf("grant %d: fence %d, want > %d", i, l.Fence, prev)
		}
		prev = l.Fence
	}
}

func (s *suite) noFence(t *testing.T) {
	lk := s.c.Locker(t, s.f, 0, longTTL)
	l, _ := s.grant(t, lk)
	defer release(lk, l)
	if l.Fence != 0 {
		t.Errorf("fence = %d, want 0 for an algorithm without fencing", l.Fence)
	}
}

// hold is one grant in exclusion: from the return of its acquire to the
// invocation of its release, cut at the end of its lease (by the lease's
// own invocation time), it certainly held the key.
type hold struct {
	client   int
	from, to time.Time
}

// exclusion lets three clients contend for one key until each has held it
// a few times, each holding it briefly, and checks that no two certainly
// held it at once. Unknown outcomes are allowed; definite refusals must
// occur (three clients contend).
func (s *suite) exclusion(t *testing.T) {
	const perClient = 3
	key := s.key()
	lks := s.c.Lockers(t, s.f, longTTL)
	var (
		mu                 sync.Mutex
		holds              []hold
		grants             = make([]int, len(lks))
		refusals, unknowns int
	)
	var unexpected sync.Map
	// Contention lasts at least minContention (for its chances to show an
	// overlap) and until every client has held the key perClient times;
	// 2×settle is only the guard against a lock that starves a client.
	const minContention = 400 * time.Millisecond
	start := time.Now()
	deadline := start.Add(2 * settle)
	enough := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return slices.Min(grants) >= perClient && time.Since(start) >= minContention
	}
	var wg sync.WaitGroup
	for i, lk := range lks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !enough() && time.Now().Before(deadline) {
				invoke := time.Now()
				l, err := acquire(lk, key)
				from := time.Now()
				if err != nil {
					mu.Lock()
					if unknown(err) {
						unknowns++
					} else {
						refusals++
					}
					mu.Unlock()
					time.Sleep(time.Millisecond)
					continue
				}
				time.Sleep(2 * time.Millisecond)
				to := time.Now()
				err = release(lk, l)
				mu.Lock()
				grants[i]++
				if live := liveUntil(invoke, longTTL); to.After(live) {
					to = live
				}
				holds = append(holds, hold{client: i, from: from, to: to})
				mu.Unlock()
				// Released late, the lease may have expired: ErrNotHeld is
				// then right.
				if errors.Is(err, clients.ErrNotHeld) && time.Now().Before(liveUntil(invoke, longTTL)) {
					unexpected.Store(i, fmt.Errorf("release of a live lease: %w", err))
				}
			}
		}()
	}
	wg.Wait()
	unexpected.Range(func(k, v any) bool {
		t.Errorf("client %d: %v", k, v)
		return true
	})
	slices.SortFunc(holds, func(a, b hold) int { return a.from.Compare(b.from) })
	overlaps := 0
	for i := 1; i < len(holds); i++ {
		for j := 0; j < i; j++ {
			if h, g := holds[j], holds[i]; h.client != g.client && g.from.Before(h.to) && h.from.Before(g.to) {
				if overlaps++; overlaps > 3 {
					continue // the count below says how many more
				}
				t.Errorf("client %d held the key from %v to %v, client %d from %v to %v (since the first)",
					h.client, h.from.Sub(holds[0].from), h.to.Sub(holds[0].from), g.client, g.from.Sub(holds[0].from), g.to.Sub(holds[0].from))
			}
		}
	}
	if overlaps > 0 {
		t.Errorf("%d grants overlapped another holder", overlaps)
	}
	if slices.Min(grants) < perClient {
		t.Errorf("grants per client %v after %v of contention, want ≥ %d each", grants, 2*settle, perClient)
	}
	if refusals == 0 {
		t.Errorf("three clients contended without one definite refusal (%d unknown outcomes): a refusal must be ErrNotAcquired", unknowns)
	}
	if unknowns > 0 {
		t.Logf("%d acquires had an unknown outcome, as allowed", unknowns)
	}
}

// staleRelease: a's lease expires, b acquires, a releases its stale lease.
func (s *suite) staleRelease(t *testing.T) {
	a, b := s.c.Locker(t, s.f, 0, shortTTL), s.c.Locker(t, s.f, 1, longTTL)
	Conclusively(t, func() string {
		la, _ := s.grant(t, a)
		key := la.Key       // the Redis key
		time.Sleep(expired) // Redis expires the key; a sleep can only overshoot
		bInvoke := time.Now()
		lb := s.acquireFreed(t, b, s.resource(la))
		defer release(b, lb)
		err, _, _, sawUnknown := definite(t, "stale release", func() error { return release(a, la) })
		held := s.holders(t, key, lb.Token)
		if time.Now().After(liveUntil(bInvoke, longTTL)) {
			return "the nodes were read after the new holder's lease may have expired"
		}
		if s.e.UnsafeRelease {
			if (err != nil && !sawUnknown) || held != 0 {
				t.Errorf("declared unsafe, but the stale release returned %v and the new holder's key is on %d nodes; drop UnsafeRelease if the algorithm is safe", err, held)
			}
			return ""
		}
		if !errors.Is(err, clients.ErrNotHeld) {
			t.Errorf("stale release: err = %v, want ErrNotHeld", err)
		}
		if held < s.e.quorum() {
			t.Errorf("after the stale release the new holder's key is on %d nodes (values %q), want ≥ %d", held, s.c.Values(t, key), s.e.quorum())
		}
		return ""
	})
}

func (s *suite) expiry(t *testing.T) {
	a, b := s.c.Locker(t, s.f, 0, shortTTL), s.c.Locker(t, s.f, 1, shortTTL)
	Conclusively(t, func() string {
		la, invoke := s.grant(t, a)
		key := s.resource(la)
		err, _, done, sawUnknown := definite(t, "acquire before expiry", func() error {
			lb, err := acquire(b, key)
			if err == nil {
				defer release(b, lb)
			}
			return err
		})
		if (err == nil || sawUnknown) && done.After(liveUntil(invoke, shortTTL)) {
			return fmt.Sprintf("the acquire before expiry came back %v after the first, when the %v lease may have expired", done.Sub(invoke), shortTTL)
		}
		if !errors.Is(err, clients.ErrNotAcquired) {
			t.Fatalf("acquire before expiry: err = %v, want ErrNotAcquired", err)
		}
		time.Sleep(expired)
		lb := s.acquireFreed(t, b, key)
		releaseLive(t, b, lb)
		return ""
	})
}

func (s *suite) releaseExpired(t *testing.T) {
	a := s.c.Locker(t, s.f, 0, shortTTL)
	l, _ := s.grant(t, a)
	time.Sleep(expired)
	if err, _, _, _ := definite(t, "release after expiry", func() error { return release(a, l) }); !errors.Is(err, clients.ErrNotHeld) {
		t.Errorf("release after expiry: err = %v, want ErrNotHeld", err)
	}
}

func (s *suite) preCancelled(t *testing.T) {
	a := s.c.Locker(t, s.f, 0, longTTL)
	key := s.key()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	l, err := a.Acquire(ctx, key)
	if err == nil {
		defer release(a, l)
		t.Fatalf("acquire with a cancelled context granted %+v", l)
	}
	s.checkDefinite(t, key, err)
}

// cancelledInFlight drops every reply on client w1's links, so its
// commands run on Redis but it never hears back, and cancels its acquire
// mid-flight. The outcome must be unknown — or, if the algorithm says
// ErrNotAcquired, the key must really not be held on a quorum.
func (s *suite) cancelledInFlight(t *testing.T) {
	a := s.c.Locker(t, s.f, 0, longTTL)
	key := s.key()
	// Warm the connections up, so the cut does not catch a dial.
	warm, _ := s.grant(t, a)
	releaseLive(t, a, warm)
	for n := range s.e.nodes() {
		if err := s.c.Link("w1", n).Cut(cluster.CutDrop, cluster.DirReplies); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	timer := time.AfterFunc(100*time.Millisecond, cancel)
	defer timer.Stop()
	l, err := a.Acquire(ctx, key)
	s.c.Heal(t)
	if err == nil {
		t.Fatalf("acquire without replies granted %+v", l)
	}
	s.checkDefinite(t, key, err)
	// The client must work again once the link heals (toxiproxy closes the
	// cut connections; the client reconnects).
	var lb clients.Lease
	deadline := time.Now().Add(settle)
	for {
		lb, err = acquire(a, s.key())
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("after healing, the client cannot acquire a free key within %v: %v", settle, err)
	}
	releaseLive(t, a, lb)
}

// checkDefinite checks an acquire error: unknown is always acceptable; a
// definite ErrNotAcquired must be true — no quorum holds the key once the
// commands in flight have landed.
func (s *suite) checkDefinite(t *testing.T, key string, err error) {
	t.Helper()
	if !errors.Is(err, clients.ErrNotAcquired) {
		t.Logf("outcome unknown, as allowed: %v", err)
		return
	}
	time.Sleep(100 * time.Millisecond)
	if n := s.present(t, s.lockKey(key)); n >= s.e.quorum() {
		t.Errorf("acquire said ErrNotAcquired (%v), but the key is set on %d nodes: the definite answer was false", err, n)
	}
}

// extendKeeps: a's lease is extended at half its TTL; past its first
// expiry b is still refused. Each step is judged only while its lease is
// certainly live.
func (s *suite) extendKeeps(t *testing.T) {
	a, b := s.c.Locker(t, s.f, 0, shortTTL), s.c.Locker(t, s.f, 1, longTTL)
	Conclusively(t, func() string {
		l, invoke := s.grant(t, a)
		key := s.resource(l)
		time.Sleep(shortTTL / 2)
		eInvoke := time.Now()
		ctx, cancel := opCtx()
		l2, err := a.(clients.Extender).Extend(ctx, l)
		cancel()
		switch {
		case unknown(err):
			return fmt.Sprintf("the extend's outcome was unknown: %v", err)
		case err != nil && time.Now().After(liveUntil(invoke, shortTTL)):
			return fmt.Sprintf("the extend came back %v after the acquire, when the %v lease may have expired", time.Since(invoke), shortTTL)
		case err != nil:
			t.Fatalf("extend a live lease: %v", err)
		}
		if l2.Token != l.Token {
			t.Errorf("extend changed the token from %q to %q", l.Token, l2.Token)
		}
		time.Sleep(shortTTL/2 + 50*time.Millisecond) // past the first expiry: a sleep can only overshoot
		err, _, done, sawUnknown := definite(t, "acquire past the first expiry", func() error {
			lb, err := acquire(b, key)
			if err == nil {
				defer release(b, lb)
			}
			return err
		})
		if (err == nil || sawUnknown) && done.After(liveUntil(eInvoke, shortTTL)) {
			release(a, l2)
			return fmt.Sprintf("the acquire came back %v after the extend, when the extended lease may have expired", done.Sub(eInvoke))
		}
		if !errors.Is(err, clients.ErrNotAcquired) {
			t.Errorf("acquire past the first expiry of an extended lease: err = %v, want ErrNotAcquired", err)
		}
		err, _, rDone, sawUnknown := definite(t, "release of an extended lease", func() error { return release(a, l2) })
		if err != nil && !sawUnknown && rDone.Before(liveUntil(eInvoke, shortTTL)) {
			t.Errorf("release an extended lease: %v", err)
		}
		return ""
	})
}

func (s *suite) extendExpired(t *testing.T) {
	a := s.c.Locker(t, s.f, 0, shortTTL)
	l, _ := s.grant(t, a)
	time.Sleep(expired)
	err, _, _, _ := definite(t, "extend after expiry", func() error {
		ctx, cancel := opCtx()
		defer cancel()
		_, err := a.(clients.Extender).Extend(ctx, l)
		return err
	})
	if !errors.Is(err, clients.ErrNotHeld) {
		t.Errorf("extend after expiry: err = %v, want ErrNotHeld", err)
	}
}
