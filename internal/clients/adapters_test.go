package clients_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/clients/clientstest"
	"github.com/locksim/locksim/internal/faults"
)

func acquire(t *testing.T, l clients.Locker, key string) (clients.Lease, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	return l.Acquire(ctx, key)
}

func release(t *testing.T, l clients.Locker, lease clients.Lease) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	return l.Release(ctx, lease)
}

// TestClientClockFaultsDoNotReachTheLibraries shows what "the library
// measures time with Go's monotonic clock" means: a client clock running
// 10 000× fast makes an acquire of ~1 ms look like 10 s. The built-in
// redlock reads that clock and refuses its own grant (validity ≤ 0); the
// adapters never read it and grant as if nothing happened.
func TestClientClockFaultsDoNotReachTheLibraries(t *testing.T) {
	c := clientstest.StartCluster(t, 5, 1)
	tests := []struct {
		name      string
		algorithm string
		granted   bool
	}{
		{"redlock reads the client clock and refuses the grant", "redlock", false},
		{"redsync does not read the client clock and grants anyway", "redsync", true},
		{"redislock does not read the client clock and grants anyway", "redislock", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := clients.NewFaultyClock()
			clock.SetRate(10000)
			cfg := c.Config(0, 2*time.Second)
			cfg.Clock = clock
			lk, err := clients.New(tt.algorithm, cfg)
			if err != nil {
				t.Fatal(err)
			}
			l, err := acquire(t, lk, "clock-"+tt.algorithm)
			if got := err == nil; got != tt.granted {
				t.Fatalf("granted = %v (err %v), want %v", got, err, tt.granted)
			}
			if err == nil {
				_ = release(t, lk, l)
			} else if !errors.Is(err, clients.ErrNotAcquired) {
				t.Errorf("refusal is not definite: %v", err)
			}
		})
	}
}

func TestAdapterOptions(t *testing.T) {
	c := clientstest.StartCluster(t, 1, 2)
	drift := func(f float64) *float64 { return &f }
	t.Run("tries and retry delay", func(t *testing.T) {
		tests := []struct {
			name      string
			algorithm string
			lib       clients.LibraryOptions
			min, max  time.Duration
		}{
			{"redsync with one try returns at once", "redsync", clients.LibraryOptions{}, 0, 80 * time.Millisecond},
			{"redsync with three tries waits the retry delay twice", "redsync", clients.LibraryOptions{Tries: 3, RetryDelay: 100 * time.Millisecond}, 200 * time.Millisecond, time.Second},
			{"redislock with one try returns at once", "redislock", clients.LibraryOptions{}, 0, 80 * time.Millisecond},
			{"redislock with three tries waits the retry delay twice", "redislock", clients.LibraryOptions{Tries: 3, RetryDelay: 100 * time.Millisecond}, 200 * time.Millisecond, time.Second},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				key := "tries-" + strings.ReplaceAll(tt.name, " ", "-")
				holder := c.Locker(t, clientstest.Algorithm(tt.algorithm), 0, 3*time.Second)
				hl, err := acquire(t, holder, key)
				if err != nil {
					t.Fatal(err)
				}
				defer release(t, holder, hl)
				cfg := c.Config(1, 3*time.Second)
				cfg.Library = tt.lib
				lk, err := clients.New(tt.algorithm, cfg)
				if err != nil {
					t.Fatal(err)
				}
				start := time.Now()
				_, err = acquire(t, lk, key)
				took := time.Since(start)
				if !errors.Is(err, clients.ErrNotAcquired) {
					t.Fatalf("acquire of a held key: %v, want ErrNotAcquired", err)
				}
				if took < tt.min || took > tt.max {
					t.Errorf("acquire took %v, want within [%v, %v]", took, tt.min, tt.max)
				}
			})
		}
	})
	t.Run("a drift factor that leaves no validity makes redsync refuse every grant", func(t *testing.T) {
		cfg := c.Config(0, 100*time.Millisecond)
		cfg.Library.DriftFactor = drift(0.9999)
		lk, err := clients.New("redsync", cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := acquire(t, lk, "drift"); !errors.Is(err, clients.ErrNotAcquired) {
			t.Errorf("acquire with 10 µs of validity: %v, want ErrNotAcquired", err)
		}
	})
	t.Run("options a library does not have are refused", func(t *testing.T) {
		for _, tt := range []struct {
			algorithm string
			lib       clients.LibraryOptions
		}{
			{"redislock", clients.LibraryOptions{DriftFactor: drift(0.01)}},
			{"redsync", clients.LibraryOptions{DriftFactor: drift(1)}},
			{"redsync", clients.LibraryOptions{Tries: -1}},
		} {
			cfg := c.Config(0, time.Second)
			cfg.Library = tt.lib
			if _, err := clients.New(tt.algorithm, cfg); err == nil {
				t.Errorf("%s accepted %+v", tt.algorithm, tt.lib)
			}
		}
	})
	// The refresh tests keep every margin in the hundreds of milliseconds: a
	// lease of 600 ms refreshed every 150 ms, 200 ms per node. The loop stops
	// at its first failed refresh, so a per-node timeout a loaded machine's
	// scheduling can exceed would end the lease early and fail the test.
	const (
		refreshTTL     = 600 * time.Millisecond
		refreshEvery   = 150 * time.Millisecond
		refreshNodeOut = 200 * time.Millisecond
	)
	// refreshLocker is client i's locker; refresh turns the refresh loop on,
	// with the pauses given.
	refreshLocker := func(t *testing.T, algorithm string, i int, refresh bool, pauses ...faults.Pause) clients.Locker {
		t.Helper()
		cfg := c.Config(i, refreshTTL)
		cfg.NodeTimeout = refreshNodeOut
		if refresh {
			cfg.Library.Refresh = refreshEvery
		}
		if len(pauses) > 0 {
			cfg.Gate = faults.NewGate("w1", pauses, faults.Hooks{})
		}
		lk, err := clients.New(algorithm, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return lk
	}
	for _, algorithm := range []string{"redsync", "redislock"} {
		t.Run(algorithm+"'s refresh loop keeps the lease past its TTL until it is released", func(t *testing.T) {
			key := "refresh-" + algorithm
			a := refreshLocker(t, algorithm, 0, true)
			b := refreshLocker(t, algorithm, 1, false)
			l, err := acquire(t, a, key)
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(5 * refreshTTL / 2)
			if _, err := acquire(t, b, key); !errors.Is(err, clients.ErrNotAcquired) {
				t.Fatalf("acquire after 2.5×TTL of a refreshed lease: %v, want ErrNotAcquired", err)
			}
			if err := release(t, a, l); err != nil {
				t.Fatalf("release: %v", err)
			}
			lb, err := acquire(t, b, key)
			if err != nil {
				t.Fatalf("acquire after release: %v", err)
			}
			_ = release(t, b, lb)
		})
		t.Run(algorithm+"'s refresh loop freezes with a paused client, and the lease expires", func(t *testing.T) {
			key := "refresh-paused-" + algorithm
			a := refreshLocker(t, algorithm, 0, true, faults.Pause{Client: "w1", Point: "in-renew", Occurrence: 1, Duration: 4 * refreshTTL})
			b := refreshLocker(t, algorithm, 1, false)
			l, err := acquire(t, a, key)
			if err != nil {
				t.Fatal(err)
			}
			defer release(t, a, l)
			time.Sleep(5 * refreshTTL / 3)
			lb, err := acquire(t, b, key)
			if err != nil {
				t.Fatalf("acquire while the holder's refresh loop is frozen past the TTL: %v, want a grant", err)
			}
			_ = release(t, b, lb)
		})
	}
}

func TestAboutSaysClientClockFaultsDoNotReachTheAdapters(t *testing.T) {
	immune := 0
	for _, a := range clients.All() {
		if a.Traits.ClientClock || a.Traits.LockFree {
			continue // lock-free algorithms hold nothing a clock could time
		}
		immune++
		t.Run(a.Name+"'s description says client clock faults do not reach it", func(t *testing.T) {
			if !strings.Contains(a.About, "client clock faults (jumps, skew) do not reach it") {
				t.Errorf("About(%q) = %q", a.Name, a.About)
			}
		})
	}
	for _, name := range []string{"redsync", "redislock"} {
		if a, _ := clients.Lookup(name); a.Traits.ClientClock {
			t.Errorf("%s reads time with Go's monotonic clock, but its traits say client clock faults reach it", name)
		}
	}
	if immune < 2 {
		t.Errorf("%d algorithms are immune to client clock faults, want at least redsync and redislock", immune)
	}
}
