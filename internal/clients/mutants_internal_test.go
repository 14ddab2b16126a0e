package clients

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
)

// TestWatchdogOrphan checks watchdog-orphan's one mistake without Redis:
// an unlock that gets no reply (here: its context already ended, so the
// command is never answered) leaves the lease's renewer registered, where
// locksim's watchdog stops it before sending the unlock.
func TestWatchdogOrphan(t *testing.T) {
	tests := []struct {
		name      string
		algorithm string
		renewing  bool
	}{
		{"watchdog-orphan keeps renewing after an unlock that got no reply", "watchdog-orphan", true},
		{"watchdog stops renewing before it sends the unlock", "watchdog", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _ := Lookup(tt.algorithm)
			rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"}) // never answers
			defer rdb.Close()
			l, err := a.New(Config{Config: lock.Config{Nodes: []Node{{Name: "n1", Cmd: rdb}}, TTL: time.Minute, Clock: SystemClock{}}})
			if err != nil {
				t.Fatal(err)
			}
			w := l.(*watchdog)
			stopped := false
			w.stops["tok"] = func() { stopped = true }
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if err := w.Release(ctx, Lease{Key: "k", Token: "tok"}); err == nil {
				t.Fatal("an unlock with no reply reported success")
			}
			if stopped == tt.renewing {
				t.Errorf("renewer stopped: %v; want still renewing: %v", stopped, tt.renewing)
			}
		})
	}
}

// TestMonotonicView checks that a clock step moves the client's clock and
// not its monotonic view, while a rate change reaches both.
func TestMonotonicView(t *testing.T) {
	c := NewFaultyClock()
	c.Jump(-5 * time.Second)
	c.SetRate(2)
	r := time.Now()
	if d := c.monoAt(r).Sub(c.at(r)); d != 5*time.Second {
		t.Errorf("after a 5 s step back the monotonic view is %v ahead of the clock; want 5s", d)
	}
	if d := c.monoAt(r.Add(time.Second)).Sub(c.monoAt(r)); d != 2*time.Second {
		t.Errorf("at rate 2 the monotonic view advanced %v in a real second; want 2s", d)
	}
}
