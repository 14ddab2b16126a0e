package clientstest

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
	opTime   = 2 * time.Second // bound of one Acquire/Release/Extend call
)

// suite is one Run: a cluster of e.nodes() nodes with three clients.
type suite struct {
	c   *Cluster
	f   Factory
	e   Expect
	seq atomic.Int64
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

// mustAcquire acquires key or fails the test.
func mustAcquire(t *testing.T, l clients.Locker, key string) clients.Lease {
	t.Helper()
	lease, err := acquire(l, key)
	if err != nil {
		t.Fatalf("%s: acquire %s on a free key: %v", l.Name(), key, err)
	}
	if lease.Key != key {
		t.Fatalf("%s: lease key %q, want %q", l.Name(), lease.Key, key)
	}
	return lease
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
	key := s.key()
	la := mustAcquire(t, a, key)
	if _, err := acquire(b, key); !errors.Is(err, clients.ErrNotAcquired) {
		t.Fatalf("second acquire while held: err = %v, want ErrNotAcquired", err)
	}
	if err := release(a, la); err != nil {
		t.Fatalf("holder's release: %v, want nil", err)
	}
	lb := mustAcquire(t, b, key)
	if err := release(b, lb); err != nil {
		t.Errorf("release: %v", err)
	}
}

func (s *suite) tokenIsStored(t *testing.T) {
	a := s.c.Locker(t, s.f, 0, longTTL)
	key := s.key()
	l := mustAcquire(t, a, key)
	defer release(a, l)
	if l.Token == "" {
		t.Fatal("lease has no token")
	}
	if n := s.holders(t, key, l.Token); n < s.e.quorum() {
		t.Errorf("token %q stored on %d nodes (values %q), want ≥ %d", l.Token, n, s.c.Values(t, key), s.e.quorum())
	}
	values := s.c.Values(t, key)
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
	b := s.c.Locker(t, s.f, 1, longTTL)
	if nr, ok := a.(clients.NodeReleaser); ok {
		ctx, cancel := opCtx()
		removed, err := nr.ReleaseNodes(ctx, l)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Nodes) > 0 && !slices.Equal(removed, l.Nodes) {
			t.Errorf("release removed the key from %v, want the lease's nodes %v", removed, l.Nodes)
		}
	} else if err := release(a, l); err != nil {
		t.Fatal(err)
	}
	l2 := mustAcquire(t, b, key)
	defer release(b, l2)
	if l2.Token == l.Token {
		t.Errorf("two grants share the token %q", l.Token)
	}
}

func (s *suite) fencesIncrease(t *testing.T) {
	lk := s.c.Locker(t, s.f, 0, longTTL)
	key := s.key()
	var prev int64
	for i := range 3 {
		l := mustAcquire(t, lk, key)
		if err := release(lk, l); err != nil {
			t.Fatal(err)
		}
		if l.Fence <= prev {
			t.Fatalf("grant %d: fence %d, want > %d", i+1, l.Fence, prev)
		}
		prev = l.Fence
	}
}

func (s *suite) noFence(t *testing.T) {
	lk := s.c.Locker(t, s.f, 0, longTTL)
	l := mustAcquire(t, lk, s.key())
	defer release(lk, l)
	if l.Fence != 0 {
		t.Errorf("fence = %d, want 0 for an algorithm without fencing", l.Fence)
	}
}

// exclusion lets three clients contend for one key for a while, each
// holding it briefly, and checks in-process that no two held it at once.
func (s *suite) exclusion(t *testing.T) {
	key := s.key()
	lks := s.c.Lockers(t, s.f, longTTL)
	var holding, grants, overlaps atomic.Int32
	var unexpected sync.Map
	stop := time.Now().Add(400 * time.Millisecond)
	var wg sync.WaitGroup
	for i, lk := range lks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				l, err := acquire(lk, key)
				if err != nil {
					if !errors.Is(err, clients.ErrNotAcquired) {
						unexpected.Store(i, err)
					}
					time.Sleep(time.Millisecond)
					continue
				}
				grants.Add(1)
				if holding.Add(1) > 1 {
					overlaps.Add(1)
				}
				time.Sleep(2 * time.Millisecond)
				holding.Add(-1)
				if err := release(lk, l); err != nil {
					unexpected.Store(i, fmt.Errorf("release: %w", err))
				}
			}
		}()
	}
	wg.Wait()
	unexpected.Range(func(k, v any) bool {
		t.Errorf("client %d: unexpected error without faults: %v", k, v)
		return true
	})
	if overlaps.Load() > 0 {
		t.Errorf("%d grants overlapped another holder", overlaps.Load())
	}
	if grants.Load() < 3 {
		t.Errorf("only %d grants in 400 ms of contention", grants.Load())
	}
}

// staleRelease: a's lease expires, b acquires, a releases its stale lease.
func (s *suite) staleRelease(t *testing.T) {
	a, b := s.c.Locker(t, s.f, 0, shortTTL), s.c.Locker(t, s.f, 1, longTTL)
	key := s.key()
	la := mustAcquire(t, a, key)
	time.Sleep(expired)
	lb := mustAcquire(t, b, key)
	defer release(b, lb)
	err := release(a, la)
	held := s.holders(t, key, lb.Token)
	if s.e.UnsafeRelease {
		if err != nil || held != 0 {
			t.Errorf("declared unsafe, but the stale release returned %v and the new holder's key is on %d nodes; drop UnsafeRelease if the algorithm is safe", err, held)
		}
		return
	}
	if !errors.Is(err, clients.ErrNotHeld) {
		t.Errorf("stale release: err = %v, want ErrNotHeld", err)
	}
	if held < s.e.quorum() {
		t.Errorf("after the stale release the new holder's key is on %d nodes (values %q), want ≥ %d", held, s.c.Values(t, key), s.e.quorum())
	}
}

func (s *suite) expiry(t *testing.T) {
	a, b := s.c.Locker(t, s.f, 0, shortTTL), s.c.Locker(t, s.f, 1, longTTL)
	key := s.key()
	mustAcquire(t, a, key)
	if _, err := acquire(b, key); !errors.Is(err, clients.ErrNotAcquired) {
		t.Fatalf("acquire before expiry: err = %v, want ErrNotAcquired", err)
	}
	time.Sleep(expired)
	lb := mustAcquire(t, b, key)
	if err := release(b, lb); err != nil {
		t.Error(err)
	}
}

func (s *suite) releaseExpired(t *testing.T) {
	a := s.c.Locker(t, s.f, 0, shortTTL)
	l := mustAcquire(t, a, s.key())
	time.Sleep(expired)
	if err := release(a, l); !errors.Is(err, clients.ErrNotHeld) {
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
	warm := mustAcquire(t, a, s.key())
	if err := release(a, warm); err != nil {
		t.Fatal(err)
	}
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
	deadline := time.Now().Add(2 * time.Second)
	for {
		lb, err = acquire(a, s.key())
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("after healing, the client cannot acquire a free key: %v", err)
	}
	if err := release(a, lb); err != nil {
		t.Error(err)
	}
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
	if n := s.present(t, key); n >= s.e.quorum() {
		t.Errorf("acquire said ErrNotAcquired (%v), but the key is set on %d nodes: the definite answer was false", err, n)
	}
}

func (s *suite) extendKeeps(t *testing.T) {
	a, b := s.c.Locker(t, s.f, 0, shortTTL), s.c.Locker(t, s.f, 1, longTTL)
	key := s.key()
	l := mustAcquire(t, a, key)
	time.Sleep(shortTTL / 2)
	ctx, cancel := opCtx()
	l2, err := a.(clients.Extender).Extend(ctx, l)
	cancel()
	if err != nil {
		t.Fatalf("extend a live lease: %v", err)
	}
	if l2.Token != l.Token {
		t.Errorf("extend changed the token from %q to %q", l.Token, l2.Token)
	}
	time.Sleep(shortTTL/2 + 50*time.Millisecond)
	if _, err := acquire(b, key); !errors.Is(err, clients.ErrNotAcquired) {
		t.Errorf("acquire past the first expiry of an extended lease: err = %v, want ErrNotAcquired", err)
	}
	if err := release(a, l2); err != nil {
		t.Errorf("release an extended lease: %v", err)
	}
}

func (s *suite) extendExpired(t *testing.T) {
	a := s.c.Locker(t, s.f, 0, shortTTL)
	l := mustAcquire(t, a, s.key())
	time.Sleep(expired)
	ctx, cancel := opCtx()
	defer cancel()
	if _, err := a.(clients.Extender).Extend(ctx, l); !errors.Is(err, clients.ErrNotHeld) {
		t.Errorf("extend after expiry: err = %v, want ErrNotHeld", err)
	}
}
