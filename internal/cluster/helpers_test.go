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

// testClient is a go-redis client with short timeouts and no retries, so a
// cut link shows up as a timeout within about 200 ms.
func testClient(t *testing.T, addr string) *redis.Client {
	t.Helper()
	rc := redis.NewClient(&redis.Options{
		Addr:            addr,
		DialTimeout:     200 * time.Millisecond,
		ReadTimeout:     200 * time.Millisecond,
		WriteTimeout:    200 * time.Millisecond,
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
