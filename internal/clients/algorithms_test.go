package clients_test

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
	mu       sync.Mutex
	block    chan struct{}
	err      error
	points   []string
	renewals []renewal
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

// renewal is one renewal a watchdog reported (lock.Renewals).
type renewal struct {
	invoke, done time.Time
	err          error
}

// Renewing records a renewal's start and, through done, its outcome.
func (g *gate) Renewing(clients.Lease) func(error) {
	invoke := time.Now()
	return func(err error) {
		g.mu.Lock()
		g.renewals = append(g.renewals, renewal{invoke: invoke, done: time.Now(), err: err})
		g.mu.Unlock()
	}
}

// Renewed records a renewal heard of afterwards.
func (g *gate) Renewed(_ clients.Lease, took time.Duration, err error) {
	now := time.Now()
	g.mu.Lock()
	g.renewals = append(g.renewals, renewal{invoke: now.Add(-took), done: now, err: err})
	g.mu.Unlock()
}

func (g *gate) renewed() []renewal {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.renewals)
}

// settle bounds a wait for something that must happen (a loss reported,
// a key expired) however loaded the machine is.
const settle = 10 * time.Second

// margin is how far the tests trust their clock against Redis's expiry.
const margin = 10 * time.Millisecond

// TestWatchdog judges every claim by what certainly happened: a renewal
// that succeeded proves the key was the lease's when it ran and keeps it
// until its invocation + TTL; a renewal that timed out (a loaded machine
// makes the 100 ms renewal timeout) is an unknown outcome that makes the
// watchdog give the lease up, as designed, and the run is tried again.
func TestWatchdog(t *testing.T) {
	c := clientstest.StartCluster(t, 1, 2)
	const ttl = 300 * time.Millisecond
	build := func(t *testing.T, i int, g clients.Gate) clients.Locker {
		cfg := c.Config(i, ttl)
		cfg.Gate = g
		if gg, ok := g.(*gate); ok && gg != nil {
			cfg.Renewals = gg
		}
		l, err := clients.New("watchdog", cfg)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	t.Run("the renewer keeps the lease alive for several TTLs and the lease is not lost", func(t *testing.T) {
		try := 0
		clientstest.Conclusively(t, func() string {
			try++
			key := fmt.Sprintf("wd-keep-%d", try)
			g := &gate{}
			a, b := build(t, 0, g), build(t, 1, nil)
			invoke := time.Now()
			l, err := a.Acquire(ctx(t), key)
			if clientstest.Unknown(err) {
				return fmt.Sprintf("acquire: %v", err)
			} else if err != nil {
				t.Fatal(err)
			}
			defer a.Release(ctx(t), l)
			time.Sleep(3 * ttl)
			lb, err := b.Acquire(ctx(t), key)
			done := time.Now()
			if err == nil {
				defer b.Release(ctx(t), lb)
			}
			// A lost lease has its failed renewal recorded already.
			lost := lostWithin(l, 0)
			// The lease certainly lived until the last renewal that
			// succeeded + TTL; a failed one ends the renewals.
			live := invoke.Add(ttl - margin)
			var failed *renewal
			for _, r := range g.renewed() {
				if r.err != nil {
					failed = &r
					break
				}
				live = r.invoke.Add(ttl - margin)
			}
			switch {
			case failed != nil && clientstest.Unknown(failed.err):
				return fmt.Sprintf("a renewal had an unknown outcome (%v) and the watchdog gave the lease up", failed.err)
			case failed != nil && failed.done.Before(live):
				t.Fatalf("a renewal of a lease that certainly lived failed: %v", failed.err)
			case failed != nil:
				return fmt.Sprintf("the renewals fell behind the TTL; the last failed with %v", failed.err)
			case lost:
				t.Fatal("lease reported lost while renewals succeed")
			case err == nil && done.Before(live):
				t.Fatalf("second client granted after 3×TTL while every renewal succeeded in time")
			case err == nil:
				return "the renewals fell behind the TTL"
			case clientstest.Unknown(err):
				return fmt.Sprintf("second acquire: %v", err)
			case !errors.Is(err, clients.ErrNotAcquired):
				t.Fatalf("second client after 3×TTL: err = %v, want ErrNotAcquired (renewed)", err)
			}
			if err := a.Release(ctx(t), l); clientstest.Unknown(err) {
				return fmt.Sprintf("release: %v", err)
			} else if err != nil {
				t.Fatalf("release: %v", err)
			}
			if lostWithin(l, ttl) {
				t.Fatal("a released lease was reported lost: the renewer did not stop")
			}
			return ""
		})
	})
	t.Run("a renewal that finds the key gone tells the job the lease is lost", func(t *testing.T) {
		g := &gate{}
		a := build(t, 0, g)
		l, err := a.Acquire(ctx(t), "wd-gone")
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Direct(0).Del(ctx(t), "wd-gone").Err(); err != nil {
			t.Fatal(err)
		}
		deleted := time.Now()
		if !lostWithin(l, settle) {
			t.Fatalf("lease not reported lost within %v after its key was deleted", settle)
		}
		// The first renewal that started after the deletion is the one
		// that told: none after it succeeded.
		for _, r := range g.renewed() {
			if r.invoke.After(deleted) && r.err == nil {
				t.Errorf("a renewal %v after the key was deleted succeeded", r.invoke.Sub(deleted))
			}
		}
	})
	t.Run("a held renewer (paused client, starved renewals) lets the key expire and reports the loss on thaw", func(t *testing.T) {
		// The gate is held before the acquire, so not one renewal runs:
		// the key expires a TTL after it was set, however late b comes.
		try := 0
		clientstest.Conclusively(t, func() string {
			try++
			key := fmt.Sprintf("wd-paused-%d", try)
			g := &gate{}
			a, b := build(t, 0, g), build(t, 1, nil)
			g.hold()
			l, err := a.Acquire(ctx(t), key)
			if clientstest.Unknown(err) {
				g.thaw()
				return fmt.Sprintf("acquire: %v", err)
			} else if err != nil {
				t.Fatal(err)
			}
			time.Sleep(ttl + ttl/2)
			lb, err := b.Acquire(ctx(t), key)
			if clientstest.Unknown(err) {
				g.thaw()
				return fmt.Sprintf("second acquire: %v", err)
			} else if err != nil {
				t.Fatalf("acquire after the held renewer let the key expire: %v", err)
			}
			defer b.Release(ctx(t), lb)
			if lostWithin(l, 0) {
				t.Fatal("lost reported while the renewer was held: it must not run")
			}
			g.thaw()
			if !lostWithin(l, settle) {
				t.Fatal("after the thaw the renewal found another owner but the lease was not reported lost")
			}
			if rs := g.renewed(); len(rs) != 1 || !errors.Is(rs[0].err, clients.ErrNotHeld) {
				t.Errorf("renewals after the thaw: %+v, want one that found another owner (ErrNotHeld)", rs)
			}
			return ""
		})
	})
}

func TestSetnxExpireCrashBetweenCommandsLeavesAKeyWithoutTTL(t *testing.T) {
	c := clientstest.StartCluster(t, 1, 1)
	cfg := c.Config(0, 300*time.Millisecond)
	crashed := errors.New("crashed")
	cfg.Gate = &gate{err: crashed}
	l, err := clients.New("setnx-expire", cfg)
	if err != nil {
		t.Fatal(err)
	}
	try := 0
	clientstest.Conclusively(t, func() string {
		try++
		key := fmt.Sprintf("s24-%d", try)
		_, err := l.Acquire(ctx(t), key)
		switch {
		case err == nil || errors.Is(err, clients.ErrNotAcquired):
			t.Fatalf("acquire that crashed after SETNX: err = %v, want an unknown outcome", err)
		case !errors.Is(err, crashed):
			return fmt.Sprintf("the SETNX itself had an unknown outcome, so the crash point was never reached: %v", err)
		}
		pttl, err := c.Direct(0).PTTL(ctx(t), key).Result()
		if err != nil {
			t.Fatal(err)
		}
		if pttl != -1 {
			t.Fatalf("PTTL after a crash between SETNX and PEXPIRE = %v, want -1 (no expiry)", pttl)
		}
		return ""
	})
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
	// A holder is timed out TTL after its acquire's timestamp, taken on
	// the (here correct) client clock after the acquire was invoked: a
	// refusal is only owed while the first holder certainly has not timed
	// out. Unknown outcomes (timeouts) prove nothing; the run is tried
	// again with a fresh key.
	t.Run("two permits admit two clients and refuse the third", func(t *testing.T) {
		try := 0
		clientstest.Conclusively(t, func() string {
			try++
			key := fmt.Sprintf("sem-a-%d", try)
			invoke := time.Now()
			l0, err0 := sems[0].Acquire(ctx(t), key)
			nextMs()
			l1, err1 := sems[1].Acquire(ctx(t), key)
			defer sems[0].Release(ctx(t), l0)
			defer sems[1].Release(ctx(t), l1)
			if clientstest.Unknown(err0) || clientstest.Unknown(err1) {
				return fmt.Sprintf("first two acquires: %v, %v", err0, err1)
			}
			if err0 != nil || err1 != nil {
				t.Fatalf("first two acquires: %v, %v", err0, err1)
			}
			nextMs()
			l2, err := sems[2].Acquire(ctx(t), key)
			done := time.Now()
			switch {
			case err == nil:
				_ = sems[2].Release(ctx(t), l2)
				if done.Before(invoke.Add(ttl - margin)) {
					t.Fatalf("third acquire admitted while both holders certainly held a permit")
				}
				return fmt.Sprintf("the third acquire came back %v after the first, when its holder may have timed out", done.Sub(invoke))
			case clientstest.Unknown(err):
				return fmt.Sprintf("third acquire: %v", err)
			case !errors.Is(err, clients.ErrNotAcquired):
				t.Fatalf("third acquire: err = %v, want ErrNotAcquired", err)
			}
			if err := sems[0].Release(ctx(t), l0); clientstest.Unknown(err) {
				return fmt.Sprintf("release: %v", err)
			} else if err != nil && time.Now().Before(invoke.Add(ttl-margin)) {
				t.Fatalf("release: %v", err)
			}
			l2, err = sems[2].Acquire(ctx(t), key)
			if clientstest.Unknown(err) {
				return fmt.Sprintf("acquire after a release: %v", err)
			} else if err != nil {
				t.Fatalf("acquire after a release: %v", err)
			}
			_ = sems[2].Release(ctx(t), l2)
			return ""
		})
	})
	t.Run("a holder older than the timeout is purged by the next acquire, and its release reports ErrNotHeld", func(t *testing.T) {
		// Time only moves on: however late the machine runs the steps,
		// both holders are past their timeout when the third comes.
		try := 0
		clientstest.Conclusively(t, func() string {
			try++
			key := fmt.Sprintf("sem-b-%d", try)
			l0, err0 := sems[0].Acquire(ctx(t), key)
			l1, err1 := sems[1].Acquire(ctx(t), key)
			if clientstest.Unknown(err0) || clientstest.Unknown(err1) {
				return fmt.Sprintf("first two acquires: %v, %v", err0, err1)
			}
			if err0 != nil || err1 != nil {
				t.Fatalf("first two acquires: %v, %v", err0, err1)
			}
			time.Sleep(ttl + 100*time.Millisecond)
			l2, err := sems[2].Acquire(ctx(t), key)
			if clientstest.Unknown(err) {
				return fmt.Sprintf("third acquire: %v", err)
			} else if err != nil {
				t.Fatalf("acquire after both holders timed out: %v", err)
			}
			defer sems[2].Release(ctx(t), l2)
			if err := sems[0].Release(ctx(t), l0); clientstest.Unknown(err) {
				return fmt.Sprintf("purged holder's release: %v", err)
			} else if !errors.Is(err, clients.ErrNotHeld) {
				t.Fatalf("purged holder's release: err = %v, want ErrNotHeld", err)
			}
			_ = sems[1].Release(ctx(t), l1)
			return ""
		})
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
