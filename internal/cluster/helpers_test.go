package cluster

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// backendCases lists the backends every backend-neutral test runs against.
var backendCases = []struct {
	name    string
	backend string
}{
	{"on real redis-server", BackendLocal},
	{"on embedded miniredis", BackendEmbedded},
}

// requireBackend skips a local-backend test when redis-server is missing,
// except under CI=true, where a missing redis-server is a failure.
func requireBackend(t *testing.T, backend string) {
	t.Helper()
	if backend != BackendLocal {
		return
	}
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("redis-server is required when CI=true: %v", err)
		}
		t.Skipf("redis-server not on PATH, skipping local-backend test: %v", err)
	}
}

// startCluster starts a cluster and closes it when the test ends.
func startCluster(t *testing.T, o Options) *Cluster {
	t.Helper()
	requireBackend(t, o.Backend)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	c, err := Start(ctx, o)
	if err != nil {
		t.Fatalf("Start(%+v): %v", o, err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return c
}

// settle bounds a wait for something that must happen (a healed link
// answering, a restarted node serving) however loaded the machine is.
const settle = 10 * time.Second

// testClient is a go-redis client for commands that must succeed: its
// timeouts are generous, so a loaded machine's scheduling delays do not
// turn a working link into a failed test. No retries.
func testClient(t *testing.T, addr string) *redis.Client {
	t.Helper()
	return newTestClient(t, addr, 5*time.Second)
}

// cutClient is a go-redis client for a link a test cuts: with short
// timeouts and no retries, the cut shows up as a timeout within about
// 200 ms. Load can only make that timeout come sooner; commands that must
// succeed through it are retried with eventually.
func cutClient(t *testing.T, addr string) *redis.Client {
	t.Helper()
	return newTestClient(t, addr, 200*time.Millisecond)
}

func newTestClient(t *testing.T, addr string, timeout time.Duration) *redis.Client {
	t.Helper()
	rc := redis.NewClient(&redis.Options{
		Addr:            addr,
		DialTimeout:     timeout,
		ReadTimeout:     timeout,
		WriteTimeout:    timeout,
		MaxRetries:      -1,
		DialerRetries:   1,
		PoolSize:        2,
		DisableIdentity: true,
	})
	t.Cleanup(func() { _ = rc.Close() })
	return rc
}

// isTimeout reports whether err is a network timeout.
func isTimeout(err error) bool {
	var ne interface{ Timeout() bool }
	return errors.As(err, &ne) && ne.Timeout()
}

// eventually retries f for up to d, returning its last error.
func eventually(d time.Duration, f func() error) error {
	deadline := time.Now().Add(d)
	for {
		err := f()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}
