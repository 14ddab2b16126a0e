package faults

import (
	"context"
	"slices"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// crash kills nodes with kill -9; with restart_after they come back that
// much later with what their persistence kept (none: empty; rdb: the last
// snapshot; lock-theory S11, redis.io "crash recovery", BR-31), else they
// stay down until the run's final heal. power_loss makes it a power loss:
// an aof-everysec node also loses its last second of writes, which no
// fsync reached (cluster/snapshot.go).
type crash struct {
	Nodes        []string       `yaml:"nodes"`
	RestartAfter *time.Duration `yaml:"restart_after,omitempty"`
	PowerLoss    bool           `yaml:"power_loss,omitempty"`
}

func init() {
	Register(Kind{
		Name:     "crash",
		About:    "kill -9 nodes; restart_after brings them back with their persistence (none restarts empty)",
		Fields:   []string{"nodes", "restart_after", "power_loss"},
		Triggers: []string{history.TriggerAt, history.TriggerEvent},
		Nemesis:  true,
		New:      func() Fault { return &crash{} },
	})
}

func (f *crash) Decode(d Decoder) {
	f.Nodes = requiredNodes(d, `the nodes to kill -9, e.g. "nodes: [n3]"`)
	if v, ok := d.Duration("restart_after", NonNegative); ok {
		f.RestartAfter = &v
	}
	if bd, ok := d.(BoolDecoder); ok && d.Has("power_loss") {
		f.PowerLoss, _ = bd.Bool("power_loss")
	}
}

// Draw kills one node and restarts it after the window.
func (f *crash) Draw(r *Resolver, window time.Duration) {
	f.Nodes, f.RestartAfter = r.pick(SelectOne, r.Nodes), &window
}

func (f *crash) Resolve(r *Resolver, s *history.FaultStep) error {
	nodes, err := r.Select(f.Nodes, r.Nodes, nil)
	if err != nil {
		return err
	}
	s.Effect, s.Nodes, s.PowerLoss = history.EffectCrashNode, nodes, f.PowerLoss
	if f.RestartAfter == nil {
		s.UntilEnd = true
	} else {
		s.Duration = r.Wall(*f.RestartAfter)
	}
	return nil
}

func (f *crash) Apply(_ context.Context, env Env, s history.FaultStep) (Undo, error) {
	ns, err := envNodes(env, s.Nodes)
	if err != nil {
		return nil, err
	}
	undo := func(ctx context.Context) error {
		return each(ns, func(n Node) error { return n.Restart(ctx) })
	}
	if s.PowerLoss {
		return undo, each(ns, func(n Node) error {
			if p, ok := n.(PowerLossNode); ok {
				_, err := p.PowerLoss()
				return err
			}
			return n.Kill()
		})
	}
	return undo, each(ns, Node.Kill)
}

func (f *crash) Encode(e Encoder, s history.FaultStep) error {
	f.Nodes, f.PowerLoss = slices.Clone(s.Nodes), s.PowerLoss
	if !s.UntilEnd {
		d := e.Scen(s.Duration)
		f.RestartAfter = &d
	}
	return nil
}
