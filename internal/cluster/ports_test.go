package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"strings"
	"testing"
)

func TestPortsOwnedByThisProcessAreNeverHandedOutTwice(t *testing.T) {
	p, err := ports.free()
	if err != nil {
		t.Fatal(err)
	}
	defer ports.release(p)
	steps := []struct {
		name string
		do   func() bool
		want bool
	}{
		{"a port handed out is owned and cannot be claimed again", func() bool { return ports.claim(p) }, false},
		{"a released port can be claimed again", func() bool { ports.release(p); return ports.claim(p) }, true},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if got := s.do(); got != s.want {
				t.Errorf("claim = %v, want %v", got, s.want)
			}
		})
	}
}

// Two runs in parallel: a node must not mistake another redis-server that
// answers on its port (a parallel run's node, or one restarting there) for
// itself.
func TestANodeIsNotReadyWhenAnotherRedisServerAnswersOnItsPort(t *testing.T) {
	requireBackend(t, BackendLocal)
	bin, _ := exec.LookPath("redis-server")
	c := startCluster(t, Options{Backend: BackendLocal, Nodes: 1, Clients: []string{"w1"}})
	other := c.Node(0).impl.(*localNode)

	n := newLocalNode("n9", bin, PersistenceNone, slog.New(slog.DiscardHandler))
	dir := t.TempDir()
	n.dataDir, n.port = dir, other.port // the port is taken by the other node
	err := n.launch(context.Background())
	defer n.killProc()
	if !errors.Is(err, errPortInUse) {
		t.Fatalf("launch on a port another redis-server answers: %v, want errPortInUse", err)
	}

	t.Run("retried on a fresh port, the node's own commands reach the new process", func(t *testing.T) {
		port, err := ports.free()
		if err != nil {
			t.Fatal(err)
		}
		defer ports.release(port)
		n.port = port
		if err := n.launch(context.Background()); err != nil {
			t.Fatal(err)
		}
		info, err := n.admin.Info(context.Background(), "server").Result()
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("process_id:%d\r", n.pid()); !strings.Contains(info, want) {
			t.Errorf("the admin client reached another process (want %q):\n%s", want, info)
		}
	})
}
