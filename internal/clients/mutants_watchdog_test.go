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

// TestMutants checks, on real Redis, that each mutant does the one thing
// its field report found and that its fix does not: every case drives the
// node into the state the report describes (the key gone, another
// client's key in its place) by direct commands, so no outcome depends on
// timing.
func TestWatchdogMutants(t *testing.T) {
	c := clientstest.StartCluster(t, 1, 2)
	const ttl = 10 * time.Second // long: nothing expires during a case
	build := func(t *testing.T, algorithm string, i int) clients.Locker {
		t.Helper()
		l, err := clients.New(algorithm, c.Config(i, ttl))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	direct := c.Direct(0)
	seq := 0
	grant := func(t *testing.T, l clients.Locker) clients.Lease {
		t.Helper()
		seq++
		lease, err := l.Acquire(ctx(t), fmt.Sprintf("mutant-%d", seq))
		if err != nil {
			t.Fatalf("acquire: %v", err)
		}
		t.Cleanup(func() { _ = l.Release(context.Background(), lease) })
		return lease
	}
	// takeOver deletes a's key (its lease expired) and has b acquire it.
	takeOver := func(t *testing.T, a clients.Lease, b clients.Locker) clients.Lease {
		t.Helper()
		if err := direct.Del(ctx(t), a.Key).Err(); err != nil {
			t.Fatal(err)
		}
		lb, err := b.Acquire(ctx(t), a.Key)
		if err != nil {
			t.Fatalf("second acquire: %v", err)
		}
		return lb
	}

	t.Run("extend-reacquire sets an expired key again and reports success; watchdog's extend fails", func(t *testing.T) {
		tests := []struct {
			algorithm string
			wantErr   error
			wantKey   bool
		}{
			{"extend-reacquire", nil, true},
			{"watchdog", clients.ErrNotHeld, false},
		}
		for _, tt := range tests {
			a := build(t, tt.algorithm, 0)
			la := grant(t, a)
			if err := direct.Del(ctx(t), la.Key).Err(); err != nil {
				t.Fatal(err)
			}
			_, err := a.(clients.Extender).Extend(ctx(t), la)
			if !errors.Is(err, tt.wantErr) && err != tt.wantErr {
				t.Errorf("%s: extend after expiry returned %v, want %v", tt.algorithm, err, tt.wantErr)
			}
			v, _ := direct.Get(ctx(t), la.Key).Result()
			if (v == la.Token) != tt.wantKey {
				t.Errorf("%s: key holds %q after the extend; want own token: %v", tt.algorithm, v, tt.wantKey)
			}
		}
	})

	t.Run("extend-no-owner extends the next holder's key; watchdog leaves it alone", func(t *testing.T) {
		tests := []struct {
			algorithm string
			extended  bool
		}{
			{"extend-no-owner", true},
			{"watchdog", false},
		}
		for _, tt := range tests {
			a, b := build(t, tt.algorithm, 0), build(t, "safe", 1)
			la := grant(t, a)
			lb := takeOver(t, la, b)
			if err := direct.PExpire(ctx(t), lb.Key, time.Minute).Err(); err != nil {
				t.Fatal(err)
			}
			_, _ = a.(clients.Extender).Extend(ctx(t), la)
			pttl, err := direct.PTTL(ctx(t), lb.Key).Result()
			if err != nil {
				t.Fatal(err)
			}
			// b's key had a minute left; a's extend resets it to the TTL.
			if got := pttl <= ttl; got != tt.extended {
				t.Errorf("%s: b's key has %v left after a's extend; want it reset to a's TTL: %v", tt.algorithm, pttl, tt.extended)
			}
		}
	})

	t.Run("exists-check-force-unlock takes another's key for its own and deletes it", func(t *testing.T) {
		a, b := build(t, "exists-check-force-unlock", 0), build(t, "safe", 1)
		la := grant(t, a)
		lb := takeOver(t, la, b)
		ok, err := a.(clients.Validator).Valid(ctx(t), la)
		if err != nil || !ok {
			t.Errorf("Valid on b's key = %v, %v; want true (it only asks whether the key exists)", ok, err)
		}
		if err := a.Release(ctx(t), la); err != nil {
			t.Errorf("forced unlock: %v", err)
		}
		if n, _ := direct.Exists(ctx(t), lb.Key).Result(); n != 0 {
			t.Error("b's key survived a's forced unlock")
		}
	})

	t.Run("watchdog-fenced hands out increasing fencing tokens", func(t *testing.T) {
		a := build(t, "watchdog-fenced", 0)
		l1 := grant(t, a)
		if err := a.Release(ctx(t), l1); err != nil {
			t.Fatal(err)
		}
		l2, err := a.Acquire(ctx(t), l1.Key)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Release(ctx(t), l2)
		if l1.Fence <= 0 || l2.Fence <= l1.Fence {
			t.Errorf("fences %d then %d; want positive and increasing", l1.Fence, l2.Fence)
		}
	})
}

// TestRenewalBounds checks the two fixes that end a lease the renewer
// would otherwise keep: watchdog-bounded at its renewal cap, and
// watchdog-deadline when its renewer is held back past the lease's end.
// Each waits for the lease's Lost signal (up to 10 s), never for a time.
func TestRenewalBounds(t *testing.T) {
	c := clientstest.StartCluster(t, 1, 1)
	const ttl = 150 * time.Millisecond
	t.Run("watchdog-bounded gives the lease up after 3 renewals and deletes its key", func(t *testing.T) {
		g := &gate{}
		cfg := c.Config(0, ttl)
		cfg.Gate, cfg.Renewals = g, g
		l, err := clients.New("watchdog-bounded", cfg)
		if err != nil {
			t.Fatal(err)
		}
		lease, err := l.Acquire(ctx(t), "bounded-1")
		if clientstest.Unknown(err) {
			t.Skipf("acquire: %v", err)
		} else if err != nil {
			t.Fatal(err)
		}
		select {
		case <-lease.Lost:
		case <-time.After(10 * time.Second):
			t.Fatal("the lease was never given up")
		}
		ok := 0
		for _, r := range g.renewed() {
			if r.err == nil {
				ok++
			}
		}
		if ok > 3 {
			t.Errorf("%d renewals succeeded; the cap is 3", ok)
		}
		waitGone(t, c, "bounded-1")
	})
	t.Run("watchdog-deadline tells the job when its renewer is held past the lease's end", func(t *testing.T) {
		g := &gate{}
		g.hold()
		defer g.thaw()
		cfg := c.Config(0, ttl)
		cfg.Gate, cfg.Renewals = g, g
		l, err := clients.New("watchdog-deadline", cfg)
		if err != nil {
			t.Fatal(err)
		}
		lease, err := l.Acquire(ctx(t), "deadline-1")
		if clientstest.Unknown(err) {
			t.Skipf("acquire: %v", err)
		} else if err != nil {
			t.Fatal(err)
		}
		defer l.Release(ctx(t), lease)
		select {
		case <-lease.Lost:
		case <-time.After(10 * time.Second):
			t.Fatal("a lease whose renewer never ran was never told lost")
		}
		if n := len(g.renewed()); n != 0 {
			t.Errorf("%d renewals ran while the renewer was held", n)
		}
	})
}

// waitGone waits (up to 10 s) until key is gone from the cluster's node.
func waitGone(t *testing.T, c *clientstest.Cluster, key string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if n, err := c.Direct(0).Exists(context.Background(), key).Result(); err == nil && n == 0 {
			return
		}
	}
	t.Errorf("%s is still on the node", key)
}
