package lockkit_test

import (
	"context"
	"math/rand/v2"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
	"github.com/locksim/locksim/lock/lockkit"
	"github.com/locksim/locksim/locksimtest"
)

func TestTheSafeLockPassesTheConformanceSuite(t *testing.T) {
	locksimtest.Conformance(t, func(c lock.Config) (lock.Locker, error) { return lockkit.NewSafe("", c) }, locksimtest.Expect{})
}

func TestOwnerTokensAndTTLsAreInRedissUnits(t *testing.T) {
	tests := []struct {
		name string
		d    time.Duration
		want int64
	}{
		{"a TTL is whole milliseconds", 1500 * time.Microsecond * 1000, 1500},
		{"a TTL under a millisecond is one, since PX 0 is an error", 10 * time.Microsecond, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lockkit.TTLMillis(tt.d); got != tt.want {
				t.Errorf("TTLMillis(%v) = %d, want %d", tt.d, got, tt.want)
			}
		})
	}
	t.Run("owner tokens are 32 hex digits drawn from the seeded source", func(t *testing.T) {
		a := lockkit.NewToken(rand.New(rand.NewPCG(1, 2)))
		b := lockkit.NewToken(rand.New(rand.NewPCG(1, 2)))
		c := lockkit.NewToken(rand.New(rand.NewPCG(1, 3)))
		if len(a) != 32 || a != b || a == c {
			t.Errorf("tokens %q, %q, %q: want 32 hex digits, equal for one seed, different for another", a, b, c)
		}
	})
}

// dials counts the dials a client made through it (a go-redis hook).
type dials struct{ n atomic.Int32 }

func (d *dials) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		d.n.Add(1)
		return next(ctx, network, addr)
	}
}
func (d *dials) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }
func (d *dials) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

func TestAClientOfYourOwnHasLocksimsSettingsAndItsStallRecording(t *testing.T) {
	o := lockkit.Options("127.0.0.1:1", "locksim:w1:n1", 300*time.Millisecond)
	if o.Protocol != 2 || o.MaxRetries != -1 || !o.DisableIdentity || !o.ContextTimeoutEnabled || o.Dialer == nil {
		t.Errorf("options %+v: want RESP2, no retries, no CLIENT SETINFO, the context's deadline and a naming dialer", o)
	}
	if o.ReadTimeout != 300*time.Millisecond || o.DialTimeout != 300*time.Millisecond {
		t.Errorf("read timeout %v, dial timeout %v: want the 300ms asked for", o.ReadTimeout, o.DialTimeout)
	}
	if nd := lockkit.Options("127.0.0.1:1", "x", lock.NoDeadline); nd.ReadTimeout != -1 || nd.WriteTimeout != -1 || nd.DialTimeout <= 0 {
		t.Errorf("lock.NoDeadline gives read %v, write %v, dial %v: want no read or write deadline, a dial timeout", nd.ReadTimeout, nd.WriteTimeout, nd.DialTimeout)
	}
	// A port nothing listens on: the dial fails, and the node's hook saw it.
	hook := &dials{}
	c := lockkit.NewClient(lock.Node{Name: "n1", Addr: "127.0.0.1:1", ConnName: "locksim:w1:n1", Stalls: hook}, 100*time.Millisecond)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = c.Ping(ctx).Err()
	if hook.n.Load() == 0 {
		t.Error("the client's dial did not go through the node's stall hook")
	}
}
