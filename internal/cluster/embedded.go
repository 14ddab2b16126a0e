package cluster

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"
	"github.com/redis/go-redis/v9"
)

const miniredisModule = "github.com/alicebob/miniredis/v2"

// miniredisVersion returns e.g. "miniredis v2.40.0 (emulated Redis)".
func miniredisVersion() string {
	v := "v2"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == miniredisModule {
				v = d.Version
				if d.Replace != nil && d.Replace.Version != "" {
					v = d.Replace.Version
				}
			}
		}
	}
	return "miniredis " + v + " (emulated Redis)"
}

// embeddedNode is an in-process miniredis server with ClockTTL(true).
type embeddedNode struct {
	name        string
	persistence string
	log         *slog.Logger

	m       *miniredis.Miniredis
	address string
	up      bool
	gate    *pauseGate // non-nil while paused
	admin   *redis.Client
}

// pauseGate blocks commands while a node is paused. release is closed on
// Resume (drop=false: the commands then run) or Kill (drop=true: they are
// discarded, as a killed process never runs its queued input).
type pauseGate struct {
	release chan struct{}
	drop    bool
	once    sync.Once
}

func (g *pauseGate) open(drop bool) {
	g.once.Do(func() {
		g.drop = drop
		close(g.release)
	})
}

func newEmbeddedNode(name, persistence string, log *slog.Logger) *embeddedNode {
	return &embeddedNode{name: name, persistence: persistence, log: log}
}

func (n *embeddedNode) addr() string { return n.address }
func (n *embeddedNode) dir() string  { return "" }
func (n *embeddedNode) pid() int     { return 0 }

func (n *embeddedNode) state() string {
	switch {
	case !n.up:
		return StateDown
	case n.gate != nil:
		return StatePaused
	default:
		return StateRunning
	}
}

func (n *embeddedNode) start(ctx context.Context) error {
	m := miniredis.NewMiniRedis()
	m.ClockTTL(true)
	if err := m.StartAddr("127.0.0.1:0"); err != nil {
		return fmt.Errorf("start miniredis: %w", err)
	}
	n.m = m
	n.address = m.Addr()
	n.up = true
	n.admin = newAdminClient(n.address)
	n.log.Debug("node started", "node", n.name, "addr", n.address, "backend", BackendEmbedded)
	return nil
}

func (n *embeddedNode) restart(ctx context.Context) error {
	if n.up {
		return nil
	}
	if n.persistence == PersistenceNone {
		n.m.FlushAll()
	}
	// Restart listens on the same 127.0.0.1 port again; data is kept.
	if err := n.m.Restart(); err != nil {
		return fmt.Errorf("restart miniredis on %s: %w", n.address, err)
	}
	n.up = true
	return nil
}

func (n *embeddedNode) kill() error {
	if !n.up {
		return nil
	}
	if n.gate != nil {
		n.gate.open(true)
		n.gate = nil
	}
	n.m.Close()
	n.up = false
	_ = n.admin.Close()
	n.admin = newAdminClient(n.address)
	return nil
}

func (n *embeddedNode) pause() error {
	if !n.up {
		return ErrNodeNotRunning
	}
	if n.gate != nil {
		return nil
	}
	g := &pauseGate{release: make(chan struct{})}
	n.gate = g
	n.m.Server().SetPreHook(func(c *server.Peer, cmd string, args ...string) bool {
		<-g.release
		// true = "handled": the command is dropped without a reply; the
		// server is being closed anyway.
		return g.drop
	})
	return nil
}

func (n *embeddedNode) resume() error {
	if !n.up {
		return ErrNodeNotRunning
	}
	if n.gate == nil {
		return nil
	}
	n.m.Server().SetPreHook(nil)
	n.gate.open(false)
	n.gate = nil
	return nil
}

func (n *embeddedNode) shiftClock(ctx context.Context, delta time.Duration) (int, error) {
	if n.state() != StateRunning {
		return 0, ErrNodeNotRunning
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if delta > 0 {
		n.m.FastForward(time.Duration(deltaMillis(delta)) * time.Millisecond)
		return -1, nil
	}
	cnt, err := n.admin.Eval(ctx, shiftScript, nil, deltaMillis(delta)).Int()
	if err != nil {
		return 0, fmt.Errorf("shift script: %w", err)
	}
	return cnt, nil
}

func (n *embeddedNode) version(ctx context.Context) (string, error) {
	return miniredisVersion(), nil
}

func (n *embeddedNode) close() error {
	if n.m == nil {
		return nil
	}
	if n.gate != nil {
		n.gate.open(true)
		n.gate = nil
	}
	if n.up {
		n.m.Close()
		n.up = false
	}
	if n.admin != nil {
		_ = n.admin.Close()
		n.admin = nil
	}
	return nil
}

func (n *embeddedNode) adminClient() *redis.Client { return n.admin }
