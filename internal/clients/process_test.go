package clients_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/clients/clientstest"
)

// repoRoot is the repository root, where the adapters' commands run from.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// adapter returns the named shipped adapter, skipping the test when what
// it needs is missing — failing instead under CI=true, where nothing may
// be skipped.
func adapter(t *testing.T, name string) clients.Adapter {
	t.Helper()
	for _, a := range clients.Adapters() {
		if a.Name != name {
			continue
		}
		if err := a.Ready(repoRoot(t)); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%v (CI=true: adapter tests are not skipped)", err)
			}
			t.Skipf("skipped: %v", err)
		}
		return a
	}
	t.Fatalf("no adapter %s", name)
	return clients.Adapter{}
}

// processFactory builds a lock client process running a's command.
func processFactory(t *testing.T, a clients.Adapter, options map[string]any) clientstest.Factory {
	root := repoRoot(t)
	return func(c clients.Config) (clients.Locker, error) {
		c.Process = &clients.ProcessOptions{Command: a.Command, Dir: root, Options: options}
		return clients.New("process", c)
	}
}

func TestEveryShippedAdapterPassesTheConformanceSuite(t *testing.T) {
	tests := []struct {
		name    string
		adapter string
		options map[string]any
		expect  clientstest.Expect
	}{
		{"node-redlock on one node", "node-redlock", nil, clientstest.Expect{}},
		{"node-redlock on five nodes", "node-redlock", nil, clientstest.Expect{Nodes: 5}},
		// Its automatic refresh would keep every lease alive past its
		// TTL, which the expiry properties test: off here, on in the
		// scenarios.
		{"redis-semaphore's Mutex without its refresh", "redis-semaphore", map[string]any{"refresh_interval_ms": 0}, clientstest.Expect{}},
		{"redis-py's Lock", "redis-py", nil, clientstest.Expect{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clientstest.Run(t, processFactory(t, adapter(t, tt.adapter), tt.options), tt.expect)
		})
	}
}
