package faults

import (
	"context"
	"slices"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// pauseNode stops nodes with SIGSTOP and resumes them with SIGCONT: the
// node answers nothing meanwhile, and keys overdue on resume expire.
type pauseNode struct {
	Nodes    []string      `yaml:"nodes"`
	Duration time.Duration `yaml:"duration,omitempty"`
}

func init() {
	Register(Kind{
		Name:     "pause-node",
		About:    "SIGSTOP a node for a while, then SIGCONT; overdue keys expire on resume",
		Fields:   []string{"nodes", "duration"},
		Triggers: []string{history.TriggerAt, history.TriggerEvent},
		Nemesis:  true,
		New:      func() Fault { return &pauseNode{} },
	})
}

func (f *pauseNode) Decode(d Decoder) {
	f.Nodes = requiredNodes(d, `the nodes to SIGSTOP, e.g. "nodes: [n3]"`)
	f.Duration = windowDuration(d)
}

// Draw stops one node for the window.
func (f *pauseNode) Draw(r *Resolver, window time.Duration) {
	f.Nodes, f.Duration = r.pick(SelectOne, r.Nodes), window
}

func (f *pauseNode) Resolve(r *Resolver, s *history.FaultStep) error {
	nodes, err := r.Select(f.Nodes, r.Nodes, nil)
	if err != nil {
		return err
	}
	s.Effect, s.Nodes = history.EffectFreezeNode, nodes
	setWindow(r, f.Duration, s)
	return nil
}

func (f *pauseNode) Apply(_ context.Context, env Env, s history.FaultStep) (Undo, error) {
	ns, err := envNodes(env, s.Nodes)
	if err != nil {
		return nil, err
	}
	undo := func(context.Context) error { return each(ns, Node.Resume) }
	return undo, each(ns, Node.Pause)
}

func (f *pauseNode) Encode(e Encoder, s history.FaultStep) error {
	f.Nodes, f.Duration = slices.Clone(s.Nodes), e.Window(s)
	return nil
}
