package clients_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/clients/clientstest"
)

// TestConformanceOfMutants runs the conformance suite on the field
// reports' mutants that keep its contract (issue 19); the others have
// their behaviour tested in TestMutants.
func TestConformanceOfMutants(t *testing.T) {
	tests := []struct {
		name      string
		algorithm string
		expect    clientstest.Expect
	}{
		{"checked-heartbeat", "checked-heartbeat", clientstest.Expect{}},
		{"reentrant-shared-token, each client a process of its own", "reentrant-shared-token", clientstest.Expect{}},
		{"set-xx-unlock with no minimum hold (known to delete another client's lock)", "set-xx-unlock", clientstest.Expect{UnsafeRelease: true}},
		{"checked-min-hold-unlock with no minimum hold", "checked-min-hold-unlock", clientstest.Expect{}},
		{"two-level-lock, each client a process of its own", "two-level-lock", clientstest.Expect{}},
		{"two-level-lock-finally, each client a process of its own", "two-level-lock-finally", clientstest.Expect{}},
		{"fair-queue", "fair-queue", clientstest.Expect{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clientstest.Run(t, clientstest.Algorithm(tt.algorithm), tt.expect)
		})
	}
}

// TestMutants shows on real Redis the one mistake each mutant is named
// after.
func TestMutants(t *testing.T) {
	c := clientstest.StartCluster(t, 1, 3)
	const long = 3 * time.Second
	build := func(t *testing.T, alg string, i int, host *clients.Host, ttl time.Duration, minHold time.Duration) clients.Locker {
		cfg := c.Config(i, ttl)
		cfg.Host, cfg.MinHold = host, minHold
		l, err := clients.New(alg, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	must := func(t *testing.T, l clients.Locker, key string) clients.Lease {
		t.Helper()
		var lease clients.Lease
		var err error
		for range 5 {
			if lease, err = l.Acquire(ctx(t), key); !clientstest.Unknown(err) {
				break
			}
		}
		if err != nil {
			t.Fatalf("acquire %s: %v", key, err)
		}
		return lease
	}
	rdb := c.Direct(0)

	t.Run("watchdog-unobserved renews the lease but hands the job no loss signal", func(t *testing.T) {
		l := build(t, "watchdog-unobserved", 0, nil, 300*time.Millisecond, 0)
		lease := must(t, l, "mut-wd")
		defer l.Release(ctx(t), lease)
		if lease.Lost != nil {
			t.Fatal("the lease carries a loss signal; the job would be told")
		}
		time.Sleep(900 * time.Millisecond)
		if v := c.Values(t, "mut-wd"); len(v) == 0 || v[0] != lease.Token {
			t.Errorf("after three TTLs the key holds %q, want the renewed lease's token %q", v, lease.Token)
		}
	})

	t.Run("pid-expire-heartbeat stores one value for every client, and its heartbeat and stop act on another's key", func(t *testing.T) {
		a := build(t, "pid-expire-heartbeat", 0, nil, long, 0)
		b := build(t, "pid-expire-heartbeat", 1, nil, long, 0)
		la := must(t, a, "mut-pid")
		if err := a.Release(ctx(t), la); err != nil {
			t.Fatal(err)
		}
		lb := must(t, b, "mut-pid")
		if la.Token != lb.Token {
			t.Fatalf("tokens %q and %q differ; the PID is the same in every container", la.Token, lb.Token)
		}
		if err := rdb.PExpire(ctx(t), "mut-pid", 200*time.Millisecond).Err(); err != nil {
			t.Fatal(err)
		}
		if _, err := a.(clients.Extender).Extend(ctx(t), la); err != nil {
			t.Fatalf("a's heartbeat on b's key: %v, want it to succeed", err)
		}
		if ttl := rdb.PTTL(ctx(t), "mut-pid").Val(); ttl <= 200*time.Millisecond {
			t.Errorf("b's key has %v left after a's heartbeat, want it extended to about %v", ttl, long)
		}
		if err := a.Release(ctx(t), la); err != nil {
			t.Errorf("a's stop: %v, want it to delete b's key", err)
		}
		if n := rdb.Exists(ctx(t), "mut-pid").Val(); n != 0 {
			t.Error("b's key survived a's stop")
		}
		if _, err := a.(clients.Extender).Extend(ctx(t), la); err != nil {
			t.Errorf("a heartbeat with no key at all: %v, want it to go unnoticed", err)
		}
	})

	t.Run("pid-expire-heartbeat heartbeats every queue it was configured for and its stop deletes them all, held or not", func(t *testing.T) {
		a := build(t, "pid-expire-heartbeat", 0, nil, long, 0)
		b := build(t, "pid-expire-heartbeat", 1, nil, long, 0)
		la := must(t, a, "mut-q1")
		if _, err := b.Acquire(ctx(t), "mut-q1"); !errors.Is(err, clients.ErrNotAcquired) {
			t.Fatalf("b's acquire of a's queue: %v, want ErrNotAcquired", err)
		}
		lb := must(t, b, "mut-q2")
		if err := rdb.PExpire(ctx(t), "mut-q1", 200*time.Millisecond).Err(); err != nil {
			t.Fatal(err)
		}
		if _, err := b.(clients.Extender).Extend(ctx(t), lb); err != nil {
			t.Fatalf("b's heartbeat: %v", err)
		}
		if ttl := rdb.PTTL(ctx(t), "mut-q1").Val(); ttl <= 200*time.Millisecond {
			t.Errorf("a's queue has %v left after b's heartbeat, want it extended to about %v (rq #1707)", ttl, long)
		}
		if err := b.Release(ctx(t), lb); err != nil {
			t.Fatalf("b's stop: %v", err)
		}
		if n := rdb.Exists(ctx(t), "mut-q1", "mut-q2").Val(); n != 0 {
			t.Errorf("%d of the two queues survived b's stop, want none (rq PR #1914)", n)
		}
		if err := a.Release(ctx(t), la); !errors.Is(err, clients.ErrNotHeld) {
			t.Errorf("a's stop after b's: %v, want ErrNotHeld (nothing left)", err)
		}
	})

	t.Run("reentrant-shared-token grants a second thread of one process the key the first holds, and either release removes it", func(t *testing.T) {
		host := clients.NewHost("p1", "p1-owner-id")
		a := build(t, "reentrant-shared-token", 0, host, long, 0)
		b := build(t, "reentrant-shared-token", 1, host, long, 0)
		other := build(t, "reentrant-shared-token", 2, nil, long, 0)
		la := must(t, a, "mut-reent")
		lb := must(t, b, "mut-reent")
		if _, err := other.Acquire(ctx(t), "mut-reent"); !errors.Is(err, clients.ErrNotAcquired) {
			t.Fatalf("a client of another process: %v, want ErrNotAcquired", err)
		}
		if err := a.Release(ctx(t), la); err != nil {
			t.Fatal(err)
		}
		lo := must(t, other, "mut-reent")
		defer other.Release(ctx(t), lo)
		if la.Token != lb.Token || lb.Token != "p1-owner-id" {
			t.Errorf("tokens %q, %q; want both the process's id", la.Token, lb.Token)
		}
	})

	t.Run("per-host-key locks a key of each host's own for one resource", func(t *testing.T) {
		a := build(t, "per-host-key", 0, clients.NewHost("w1", ""), long, 0)
		b := build(t, "per-host-key", 1, clients.NewHost("w2", ""), long, 0)
		la, lb := must(t, a, "mut-report"), must(t, b, "mut-report")
		defer a.Release(ctx(t), la)
		defer b.Release(ctx(t), lb)
		if la.Key == lb.Key || la.Key != "mut-report:"+clients.ReleasePath("w1") {
			t.Errorf("keys %q and %q; want one per host, named after its release directory", la.Key, lb.Key)
		}
	})

	t.Run("set-xx-unlock inside the minimum hold rewrites the key with the hold left, and after it deletes whoever's key", func(t *testing.T) {
		a := build(t, "set-xx-unlock", 0, nil, long, 2*time.Second)
		la := must(t, a, "mut-shed")
		if err := a.Release(ctx(t), la); err != nil {
			t.Fatal(err)
		}
		if ttl := rdb.PTTL(ctx(t), "mut-shed").Val(); ttl <= 0 || ttl > 2*time.Second {
			t.Errorf("after an unlock inside the minimum hold the key has %v left, want at most the 2s hold", ttl)
		}
		b := build(t, "set-xx-unlock", 1, nil, long, 0)
		rdb.Del(ctx(t), "mut-shed")
		lb := must(t, b, "mut-shed")
		stale := build(t, "set-xx-unlock", 0, nil, long, 0)
		if err := stale.Release(ctx(t), la); err != nil {
			t.Fatalf("a stale unlock: %v, want it to delete b's key", err)
		}
		if rdb.Exists(ctx(t), "mut-shed").Val() != 0 {
			t.Error("b's key survived the stale unlock")
		}
		_ = lb
	})

	t.Run("checked-min-hold-unlock leaves another's key alone", func(t *testing.T) {
		a := build(t, "checked-min-hold-unlock", 0, nil, long, 2*time.Second)
		b := build(t, "checked-min-hold-unlock", 1, nil, long, 2*time.Second)
		la := must(t, a, "mut-shed-ok")
		rdb.Del(ctx(t), "mut-shed-ok")
		lb := must(t, b, "mut-shed-ok")
		if err := a.Release(ctx(t), la); !errors.Is(err, clients.ErrNotHeld) {
			t.Errorf("a stale unlock: %v, want ErrNotHeld", err)
		}
		if v := c.Values(t, "mut-shed-ok"); len(v) == 0 || v[0] != lb.Token {
			t.Errorf("the key holds %q after a stale unlock, want b's %q", v, lb.Token)
		}
	})

	t.Run("fair-queue refuses a free lock to a waiter queued behind one that never comes back", func(t *testing.T) {
		holder := build(t, "fair-queue", 0, nil, long, 0)
		dead := build(t, "fair-queue", 1, nil, long, 0)
		live := build(t, "fair-queue", 2, nil, long, 0)
		lh := must(t, holder, "mut-fair")
		if _, err := dead.Acquire(ctx(t), "mut-fair"); !errors.Is(err, clients.ErrNotAcquired) {
			t.Fatalf("the first waiter: %v, want ErrNotAcquired (queued)", err)
		}
		if _, err := live.Acquire(ctx(t), "mut-fair"); !errors.Is(err, clients.ErrNotAcquired) {
			t.Fatalf("the second waiter: %v, want ErrNotAcquired (queued)", err)
		}
		if err := holder.Release(ctx(t), lh); err != nil {
			t.Fatal(err)
		}
		if _, err := live.Acquire(ctx(t), "mut-fair"); !errors.Is(err, clients.ErrNotAcquired) {
			t.Errorf("the second waiter with the lock free: %v, want ErrNotAcquired (the first heads the queue)", err)
		}
		ld, err := dead.Acquire(ctx(t), "mut-fair")
		if err != nil {
			t.Fatalf("the head of the queue with the lock free: %v, want the lock", err)
		}
		dead.Release(ctx(t), ld)
	})

	for _, tt := range []struct {
		alg     string
		refused bool
	}{{"two-level-lock", true}, {"two-level-lock-finally", false}} {
		name := fmt.Sprintf("%s after a release that errors: another thread of the process is refused=%v once the key expired", tt.alg, tt.refused)
		t.Run(name, func(t *testing.T) {
			key := "mut-" + tt.alg
			host := clients.NewHost("p1", "")
			a := build(t, tt.alg, 0, host, 300*time.Millisecond, 0)
			b := build(t, tt.alg, 1, host, 300*time.Millisecond, 0)
			la := must(t, a, key)
			if _, err := b.Acquire(ctx(t), key); !errors.Is(err, clients.ErrNotAcquired) {
				t.Fatalf("another thread while the first holds: %v, want ErrNotAcquired", err)
			}
			gone, cancel := context.WithCancel(context.Background())
			cancel()
			if err := a.Release(gone, la); err == nil || errors.Is(err, clients.ErrNotHeld) {
				t.Fatalf("a release with a cancelled context: %v, want an unknown outcome", err)
			}
			time.Sleep(600 * time.Millisecond) // the key expires in Redis
			lb, err := b.Acquire(ctx(t), key)
			switch {
			case tt.refused && !errors.Is(err, clients.ErrNotAcquired):
				t.Errorf("the other thread: %v, want ErrNotAcquired (the local lock is left held)", err)
			case !tt.refused && err != nil:
				t.Errorf("the other thread: %v, want the lock", err)
			case err == nil:
				b.Release(ctx(t), lb)
			}
		})
	}
}
