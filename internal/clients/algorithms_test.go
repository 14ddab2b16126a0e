package clients_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/clients/clientstest"
)

// TestConformanceOfNewAlgorithms runs the conformance suite on the new
// lock algorithms whose leases expire when not released (the watchdog
// renews them by design, so TestWatchdog covers it instead).
func TestConformanceOfNewAlgorithms(t *testing.T) {
	tests := []struct {
		name      string
		algorithm string
	}{
		{"setnx-expire", "setnx-expire"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clientstest.Run(t, clientstest.Algorithm(tt.algorithm), clientstest.Expect{})
		})
	}
}

// gate is a test pause gate: Point blocks while held.
type gate struct {
	mu     sync.Mutex
	block  chan struct{}
	err    error
	points []string
}

func (g *gate) Point(ctx context.Context, point string) error {
	g.mu.Lock()
	g.points = append(g.points, point)
	ch, err := g.block, g.err
	g.mu.Unlock()
	if err != nil {
		return err
	}
	if ch != nil {
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func (g *gate) hold() {
	g.mu.Lock()
	g.block = make(chan struct{})
	g.mu.Unlock()
}

func (g *gate) thaw() {
	g.mu.Lock()
	close(g.block)
	g.block = nil
	g.mu.Unlock()
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return c
}

func lostWithin(l clients.Lease, d time.Duration) bool {
	select {
	case <-l.Lost:
		return true
	case <-time.After(d):
		return false
	}
}

func TestWatchdog(t *testing.T) {
	c := clientstest.StartCluster(t, 1, 2)
	const ttl = 300 * time.Millisecond
	build := func(t *testing.T, i int, g clients.Gate) clients.Locker {
		cfg := c.Config(i, ttl)
		cfg.Gate = g
		l, err := clients.New("watchdog", cfg)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	t.Run("the renewer keeps the lease alive for several TTLs and the lease is not lost", func(t *testing.T) {
		a, b := build(t, 0, nil), build(t, 1, nil)
		l, err := a.Acquire(ctx(t), "wd-keep")
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(3 * ttl)
		if _, err := b.Acquire(ctx(t), "wd-keep"); !errors.Is(err, clients.ErrNotAcquired) {
			t.Fatalf("second client after 3×TTL: err = %v, want ErrNotAcquired (renewed)", err)
		}
		if lostWithin(l, 0) {
			t.Fatal("lease reported lost while renewals succeed")
		}
		if err := a.Release(ctx(t), l); err != nil {
			t.Fatalf("release: %v", err)
		}
		if lostWithin(l, ttl) {
			t.Fatal("a released lease was reported lost: the renewer did not stop")
		}
	})
	t.Run("a renewal that finds the key gone tells the job the lease is lost", func(t *testing.T) {
		a := build(t, 0, nil)
		l, err := a.Acquire(ctx(t), "wd-gone")
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Direct(0).Del(ctx(t), "wd-gone").Err(); err != nil {
			t.Fatal(err)
		}
		if !lostWithin(l, ttl) {
			t.Fatal("lease not reported lost within one TTL after its key was deleted")
		}
	})
	t.Run("a held renewer (paused client, starved renewals) lets the key expire and reports the loss on thaw", func(t *testing.T) {
		g := &gate{}
		a, b := build(t, 0, g), build(t, 1, nil)
		l, err := a.Acquire(ctx(t), "wd-paused")
		if err != nil {
			t.Fatal(err)
		}
		g.hold()
		time.Sleep(ttl + ttl/2)
		lb, err := b.Acquire(ctx(t), "wd-paused")
		if err != nil {
			t.Fatalf("acquire after the held renewer let the key expire: %v", err)
		}
		if lostWithin(l, 0) {
			t.Fatal("lost reported while the renewer was held: it must not run")
		}
		g.thaw()
		if !lostWithin(l, ttl) {
			t.Fatal("after the thaw the renewal found another owner but the lease was not reported lost")
		}
		_ = b.Release(ctx(t), lb)
	})
}

func TestSetnxExpireCrashBetweenCommandsLeavesAKeyWithoutTTL(t *testing.T) {
	c := clientstest.StartCluster(t, 1, 1)
	cfg := c.Config(0, 300*time.Millisecond)
	cfg.Gate = &gate{err: errors.New("crashed")}
	l, err := clients.New("setnx-expire", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Acquire(ctx(t), "s24"); err == nil || errors.Is(err, clients.ErrNotAcquired) {
		t.Fatalf("acquire that crashed after SETNX: err = %v, want an unknown outcome", err)
	}
	pttl, err := c.Direct(0).PTTL(ctx(t), "s24").Result()
	if err != nil {
		t.Fatal(err)
	}
	if pttl != -1 {
		t.Fatalf("PTTL after a crash between SETNX and PEXPIRE = %v, want -1 (no expiry)", pttl)
	}
}

func TestSemaphore(t *testing.T) {
	for _, alg := range []string{"semaphore", "fair-semaphore"} {
		t.Run("the "+alg, func(t *testing.T) { testSemaphore(t, alg) })
	}
}

func testSemaphore(t *testing.T, alg string) {
	c := clientstest.StartCluster(t, 1, 3)
	const ttl = 300 * time.Millisecond
	sems := make([]clients.Locker, 3)
	for i := range sems {
		cfg := c.Config(i, ttl)
		cfg.Permits = 2
		s, err := clients.New(alg, cfg)
		if err != nil {
			t.Fatal(err)
		}
		sems[i] = s
	}
	// The basic semaphore ranks callers by millisecond timestamps, and
	// callers within one millisecond by their random tokens: one caller
	// per millisecond here, or a third caller could rank ahead (the flaw
	// TestOnlyTheFairSemaphoreKeepsALateCallerWithAnEarlierClockOut shows).
	nextMs := func() { time.Sleep(2 * time.Millisecond) }
	t.Run("two permits admit two clients and refuse the third", func(t *testing.T) {
		l0, err0 := sems[0].Acquire(ctx(t), "sem-a")
		nextMs()
		l1, err1 := sems[1].Acquire(ctx(t), "sem-a")
		if err0 != nil || err1 != nil {
			t.Fatalf("first two acquires: %v, %v", err0, err1)
		}
		nextMs()
		if _, err := sems[2].Acquire(ctx(t), "sem-a"); !errors.Is(err, clients.ErrNotAcquired) {
			t.Fatalf("third acquire: err = %v, want ErrNotAcquired", err)
		}
		if err := sems[0].Release(ctx(t), l0); err != nil {
			t.Fatalf("release: %v", err)
		}
		l2, err := sems[2].Acquire(ctx(t), "sem-a")
		if err != nil {
			t.Fatalf("acquire after a release: %v", err)
		}
		_ = sems[1].Release(ctx(t), l1)
		_ = sems[2].Release(ctx(t), l2)
	})
	t.Run("a holder older than the timeout is purged by the next acquire, and its release reports ErrNotHeld", func(t *testing.T) {
		l0, _ := sems[0].Acquire(ctx(t), "sem-b")
		l1, _ := sems[1].Acquire(ctx(t), "sem-b")
		time.Sleep(ttl + 100*time.Millisecond)
		l2, err := sems[2].Acquire(ctx(t), "sem-b")
		if err != nil {
			t.Fatalf("acquire after both holders timed out: %v", err)
		}
		if err := sems[0].Release(ctx(t), l0); !errors.Is(err, clients.ErrNotHeld) {
			t.Fatalf("purged holder's release: err = %v, want ErrNotHeld", err)
		}
		_ = sems[1].Release(ctx(t), l1)
		_ = sems[2].Release(ctx(t), l2)
	})
}

// Redis in Action 6.3.1 vs 6.3.2: a caller whose timestamp is earlier than
// the holders' (its clock is behind, or it read its clock before theirs and
// arrived after) ranks ahead of them in the basic semaphore and is let in
// over the limit; the fair semaphore puts it in line after them.
func TestOnlyTheFairSemaphoreKeepsALateCallerWithAnEarlierClockOut(t *testing.T) {
	tests := []struct {
		alg      string
		admitted bool
	}{
		{"semaphore", true},
		{"fair-semaphore", false},
	}
	for _, tt := range tests {
		name := "the fair semaphore refuses the third caller"
		if tt.admitted {
			name = "the basic semaphore admits a third caller to two permits"
		}
		t.Run(name, func(t *testing.T) {
			c := clientstest.StartCluster(t, 1, 3)
			sems := make([]clients.Locker, 3)
			for i := range sems {
				cfg := c.Config(i, 10*time.Second)
				cfg.Permits = 2
				clock := clients.NewFaultyClock()
				if i == 2 {
					clock.Jump(-time.Second) // behind the holders, well within the timeout
				}
				cfg.Clock = clock
				s, err := clients.New(tt.alg, cfg)
				if err != nil {
					t.Fatal(err)
				}
				sems[i] = s
			}
			for i := range 2 {
				if _, err := sems[i].Acquire(ctx(t), "sem-late"); err != nil {
					t.Fatalf("holder %d: %v", i, err)
				}
			}
			_, err := sems[2].Acquire(ctx(t), "sem-late")
			if admitted := err == nil; admitted != tt.admitted {
				t.Fatalf("third caller admitted = %v (err %v), want %v", admitted, err, tt.admitted)
			}
		})
	}
}

func TestAtomicDecrementSellsExactlyTheStock(t *testing.T) {
	c := clientstest.StartCluster(t, 1, 1)
	if err := c.Direct(0).Set(ctx(t), "stock:item-1", 5, 0).Err(); err != nil {
		t.Fatal(err)
	}
	node := c.Nodes(0)[0]
	var sold, refused atomic.Int64
	var wg sync.WaitGroup
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := clients.AtomicDecrement(ctx(t), node, "stock:item-1")
			switch {
			case err == nil:
				sold.Add(1)
			case errors.Is(err, clients.ErrOutOfStock):
				refused.Add(1)
			default:
				t.Errorf("decrement: %v", err)
			}
		}()
	}
	wg.Wait()
	left, _ := c.Direct(0).Get(ctx(t), "stock:item-1").Int64()
	if sold.Load() != 5 || refused.Load() != 7 || left != 0 {
		t.Fatalf("12 buyers of 5 items: sold %d, refused %d, stock left %d; want 5, 7, 0", sold.Load(), refused.Load(), left)
	}
}

func TestControls(t *testing.T) {
	c := clientstest.StartCluster(t, 1, 2)
	cfg := func(i int, shared *clients.Shared) clients.Config {
		x := c.Config(i, time.Second)
		x.Shared = shared
		return x
	}
	t.Run("control-mutex refuses a second client of the same run until the holder releases", func(t *testing.T) {
		shared := clients.NewShared()
		a, _ := clients.New("control-mutex", cfg(0, shared))
		b, _ := clients.New("control-mutex", cfg(1, shared))
		l, err := a.Acquire(ctx(t), "k")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Acquire(ctx(t), "k"); !errors.Is(err, clients.ErrNotAcquired) {
			t.Fatalf("second acquire: %v, want ErrNotAcquired", err)
		}
		if err := b.Release(ctx(t), clients.Lease{Key: "k", Token: "not-mine"}); !errors.Is(err, clients.ErrNotHeld) {
			t.Fatalf("release with a foreign token: %v, want ErrNotHeld", err)
		}
		if err := a.Release(ctx(t), l); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Acquire(ctx(t), "k"); err != nil {
			t.Fatalf("acquire after release: %v", err)
		}
	})
	t.Run("no-lock grants every acquire at once", func(t *testing.T) {
		a, _ := clients.New("no-lock", cfg(0, nil))
		b, _ := clients.New("no-lock", cfg(1, nil))
		if _, err := a.Acquire(ctx(t), "k"); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Acquire(ctx(t), "k"); err != nil {
			t.Fatalf("no-lock refused: %v", err)
		}
	})
	t.Run("the lock-free algorithms are known as lock-free and the locks are not", func(t *testing.T) {
		for name, want := range map[string]bool{"atomic-lua": true, "idempotency-key": true, "safe": false, "no-lock": false, "control-mutex": false} {
			a, ok := clients.Lookup(name)
			if !ok {
				t.Fatalf("%s is not registered", name)
			}
			if got := a.Traits.LockFree; got != want {
				t.Errorf("%s: Traits.LockFree = %v, want %v", name, got, want)
			}
		}
	})
}
