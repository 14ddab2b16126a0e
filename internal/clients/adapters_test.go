package clients_test

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

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/clients/clientstest"
	"github.com/locksim/locksim/internal/history"
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
			try := 0
			clientstest.Conclusively(t, func() string {
				try++
				l, err := acquire(t, lk, fmt.Sprintf("clock-%s-%d", tt.algorithm, try))
				if clientstest.Unknown(err) {
					return fmt.Sprintf("outcome unknown: %v", err) // a node timed out
				}
				if got := err == nil; got != tt.granted {
					t.Fatalf("granted = %v (err %v), want %v", got, err, tt.granted)
				}
				if err == nil {
					_ = release(t, lk, l)
				}
				return ""
			})
		})
	}
}

// countAttempts counts the lock attempts an adapter makes through cmd: the
// SET NX of redsync, the obtain script of redislock (a script sent again
// after NOSCRIPT is one attempt).
func countAttempts(t *testing.T, cmd redis.Cmdable, algorithm string) *atomic.Int64 {
	t.Helper()
	rc, ok := cmd.(*redis.Client)
	if !ok {
		t.Fatalf("node client is a %T, want *redis.Client", cmd)
	}
	n := new(atomic.Int64)
	rc.AddHook(attemptHook{n: n, algorithm: algorithm})
	return n
}

type attemptHook struct {
	n         *atomic.Int64
	algorithm string
}

func (attemptHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h attemptHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		switch name := cmd.Name(); {
		case h.algorithm == "redsync" && name == "set",
			h.algorithm == "redislock" && name == "eval",
			h.algorithm == "redislock" && name == "evalsha" && (err == nil || !strings.HasPrefix(err.Error(), "NOSCRIPT")):
			h.n.Add(1)
		}
		return err
	}
}

func (attemptHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

func TestAdapterOptions(t *testing.T) {
	c := clientstest.StartCluster(t, 1, 2)
	drift := func(f float64) *float64 { return &f }
	// The number of attempts is counted on the contender's own connection
	// (a go-redis hook), not guessed from how long the acquire took: a
	// loaded machine stretches durations, never the count. The one bound
	// in time that stays is a lower one (retry delays were waited), which
	// load cannot break; an adapter that waits where it must not runs
	// into the acquire's 3 s context instead. An unknown outcome (a node
	// timed out) proves nothing, and the run is tried again.
	t.Run("tries and retry delay", func(t *testing.T) {
		tests := []struct {
			name      string
			algorithm string
			lib       clients.LibraryOptions
			tries     int
			min       time.Duration
		}{
			{"redsync with one try makes one attempt and does not wait its retry delay", "redsync", clients.LibraryOptions{RetryDelay: time.Minute}, 1, 0},
			{"redsync with three tries makes three attempts and waits the retry delay twice", "redsync", clients.LibraryOptions{Tries: 3, RetryDelay: 100 * time.Millisecond}, 3, 200 * time.Millisecond},
			{"redislock with one try makes one attempt and does not wait its retry delay", "redislock", clients.LibraryOptions{RetryDelay: time.Minute}, 1, 0},
			{"redislock with three tries makes three attempts and waits the retry delay twice", "redislock", clients.LibraryOptions{Tries: 3, RetryDelay: 100 * time.Millisecond}, 3, 200 * time.Millisecond},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				try := 0
				clientstest.Conclusively(t, func() string {
					try++
					key := fmt.Sprintf("tries-%s-%d", strings.ReplaceAll(tt.name, " ", "-"), try)
					holder := c.Locker(t, clientstest.Algorithm(tt.algorithm), 0, 30*time.Second)
					hl, err := acquire(t, holder, key)
					if clientstest.Unknown(err) {
						return fmt.Sprintf("the holder's acquire: %v", err)
					} else if err != nil {
						t.Fatal(err)
					}
					defer release(t, holder, hl)
					cfg := c.Config(1, 30*time.Second)
					cfg.Library = tt.lib
					attempts := countAttempts(t, cfg.Nodes[0].Cmd, tt.algorithm)
					lk, err := clients.New(tt.algorithm, cfg)
					if err != nil {
						t.Fatal(err)
					}
					start := time.Now()
					_, err = acquire(t, lk, key)
					took := time.Since(start)
					if clientstest.Unknown(err) {
						// A node timed out — or the adapter waited a retry
						// delay of a minute into the acquire's deadline,
						// which five runs in a row then show.
						return fmt.Sprintf("the contender's acquire: %v", err)
					}
					if !errors.Is(err, clients.ErrNotAcquired) {
						t.Fatalf("acquire of a held key: %v, want ErrNotAcquired", err)
					}
					if n := attempts.Load(); n != int64(tt.tries) {
						t.Errorf("acquire made %d attempts, want %d", n, tt.tries)
					}
					if took < tt.min {
						t.Errorf("acquire took %v, want ≥ %v (the retry delays)", took, tt.min)
					}
					return ""
				})
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
		try := 0
		clientstest.Conclusively(t, func() string {
			try++
			_, err := acquire(t, lk, fmt.Sprintf("drift-%d", try))
			if clientstest.Unknown(err) {
				return fmt.Sprintf("outcome unknown: %v", err) // a node timed out: no answer is no wrong answer
			}
			if !errors.Is(err, clients.ErrNotAcquired) {
				t.Errorf("acquire with 10 µs of validity: %v, want ErrNotAcquired", err)
			}
			return ""
		})
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
	// The refresh tests keep their margins in the hundreds of milliseconds
	// (a lease of 600 ms refreshed every 150 ms, 200 ms per node), and judge
	// a refusal or a grant only by what certainly happened: every refresh
	// passes the client's gate first, and the loop stops at its first
	// failed refresh, so a gate passage proves the refresh before it
	// succeeded, and the lease then certainly lived until that refresh's
	// passage + TTL. A loaded machine that stalls the loop past the TTL
	// makes a run inconclusive, not failed; it is tried again.
	const (
		refreshTTL     = 600 * time.Millisecond
		refreshEvery   = 150 * time.Millisecond
		refreshNodeOut = 200 * time.Millisecond
		refreshMargin  = 10 * time.Millisecond
	)
	// refreshLocker is client i's locker; refresh turns the refresh loop on,
	// with the pauses given; the log records its gate passages.
	refreshLocker := func(t *testing.T, algorithm string, i int, refresh bool, pauses ...*freezeAt) (clients.Locker, *passages) {
		t.Helper()
		cfg := c.Config(i, refreshTTL)
		cfg.NodeTimeout = refreshNodeOut
		if refresh {
			cfg.Library.Refresh = refreshEvery
		}
		log := &passages{}
		if len(pauses) > 0 {
			log.next = pauses[0]
		}
		cfg.Gate = log
		lk, err := clients.New(algorithm, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return lk, log
	}
	for _, algorithm := range []string{"redsync", "redislock"} {
		t.Run(algorithm+"'s refresh loop keeps the lease past its TTL until it is released", func(t *testing.T) {
			try := 0
			clientstest.Conclusively(t, func() string {
				try++
				key := fmt.Sprintf("refresh-%s-%d", algorithm, try)
				a, log := refreshLocker(t, algorithm, 0, true)
				b, _ := refreshLocker(t, algorithm, 1, false)
				invoke := time.Now()
				l, err := acquire(t, a, key)
				if clientstest.Unknown(err) {
					return fmt.Sprintf("acquire: %v", err)
				} else if err != nil {
					t.Fatal(err)
				}
				time.Sleep(5 * refreshTTL / 2)
				lb, err := acquire(t, b, key)
				done := time.Now()
				// The refreshes that certainly succeeded are those followed
				// by another passage; the last passage's is still open.
				live := invoke.Add(refreshTTL - refreshMargin)
				if ps := log.times(); len(ps) > 1 {
					live = ps[len(ps)-2].Add(refreshTTL - refreshMargin)
				}
				switch {
				case err == nil:
					_ = release(t, b, lb)
					if done.Before(live) {
						t.Fatalf("a second client was granted the lease %v after the first acquire, while the refreshed lease certainly lived", done.Sub(invoke))
					}
					_ = release(t, a, l)
					return fmt.Sprintf("the refresh loop fell behind the %v TTL (gate passages %v); the lease expired", refreshTTL, log.since(invoke))
				case clientstest.Unknown(err):
					_ = release(t, a, l)
					return fmt.Sprintf("second acquire: %v", err)
				case !errors.Is(err, clients.ErrNotAcquired):
					t.Fatalf("acquire after 2.5×TTL of a refreshed lease: %v, want ErrNotAcquired", err)
				}
				if n := len(log.times()); n < 2 {
					t.Errorf("the lease outlived 2.5×TTL with %d refreshes", n)
				}
				if err := release(t, a, l); clientstest.Unknown(err) {
					return fmt.Sprintf("release: %v", err)
				} else if err != nil {
					t.Fatalf("release: %v", err)
				}
				lb, err = acquire(t, b, key)
				if clientstest.Unknown(err) {
					return fmt.Sprintf("acquire after release: %v", err)
				} else if err != nil {
					t.Fatalf("acquire after release: %v", err)
				}
				_ = release(t, b, lb)
				return ""
			})
		})
		t.Run(algorithm+"'s refresh loop freezes with a paused client, and the lease expires", func(t *testing.T) {
			// An expired key stays expired: a refresh cannot bring it back,
			// so however late the machine runs this second acquire, it must
			// be granted; only an unknown outcome proves nothing.
			try := 0
			clientstest.Conclusively(t, func() string {
				try++
				key := fmt.Sprintf("refresh-paused-%s-%d", algorithm, try)
				a, _ := refreshLocker(t, algorithm, 0, true, &freezeAt{point: history.PointInRenew, d: 4 * refreshTTL})
				b, _ := refreshLocker(t, algorithm, 1, false)
				l, err := acquire(t, a, key)
				if clientstest.Unknown(err) {
					return fmt.Sprintf("acquire: %v", err)
				} else if err != nil {
					t.Fatal(err)
				}
				defer release(t, a, l)
				time.Sleep(5 * refreshTTL / 3)
				lb, err := acquire(t, b, key)
				if clientstest.Unknown(err) {
					return fmt.Sprintf("second acquire: %v", err)
				} else if err != nil {
					t.Fatalf("acquire while the holder's refresh loop is frozen past the TTL: %v, want a grant", err)
				}
				_ = release(t, b, lb)
				return ""
			})
		})
	}
}

// passages is a pause gate that records when a client passed its points,
// then lets next decide.
type passages struct {
	next clients.Gate
	mu   sync.Mutex
	at   []time.Time
}

func (p *passages) Point(ctx context.Context, point string) error {
	p.mu.Lock()
	p.at = append(p.at, time.Now())
	p.mu.Unlock()
	if p.next == nil {
		return ctx.Err()
	}
	return p.next.Point(ctx, point)
}

func (p *passages) times() []time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.at)
}

// since lists the passages as durations after t0.
func (p *passages) since(t0 time.Time) []time.Duration {
	var out []time.Duration
	for _, at := range p.times() {
		out = append(out, at.Sub(t0).Round(time.Millisecond))
	}
	return out
}

func TestAboutSaysClientClockFaultsDoNotReachTheAdapters(t *testing.T) {
	immune := 0
	for _, a := range clients.All() {
		if a.Traits.ClientClock || a.Traits.LockFree || a.Traits.Process {
			continue // lock-free algorithms hold nothing a clock could time; a process's clock is libfaketime's
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

// freezeAt is a pause gate that freezes the client for d the first time it
// reaches point (a stop-the-world pause of its renewer there).
type freezeAt struct {
	point string
	d     time.Duration
	once  sync.Once
}

func (f *freezeAt) Point(ctx context.Context, point string) error {
	if point != f.point {
		return ctx.Err()
	}
	var err error
	f.once.Do(func() {
		t := time.NewTimer(f.d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			err = ctx.Err()
		}
	})
	return err
}
