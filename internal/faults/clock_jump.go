package faults

import (
	"context"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// clockJump steps a clock by delta at one instant. On nodes it shifts
// every key's remaining TTL by −delta, deleting those that run out (Redis
// expires keys by wall clock; lock-theory §6.3, Kleppmann's timeline 3); on
// clients it moves their own clock, which only algorithms reading it (a
// validity check) notice.
type clockJump struct {
	Nodes   []string      `yaml:"nodes,omitempty"`
	Clients []string      `yaml:"clients,omitempty"`
	Delta   time.Duration `yaml:"delta"`
}

func init() {
	Register(Kind{
		Name:     "clock-jump",
		About:    "step a node's clock (shift every key's TTL) or a client's clock, forward or backward",
		Fields:   []string{"nodes", "clients", "delta"},
		Triggers: []string{history.TriggerAt, history.TriggerEvent},
		Nemesis:  true,
		New:      func() Fault { return &clockJump{} },
	})
}

func (f *clockJump) Decode(d Decoder) {
	f.Nodes, f.Clients = clockTargets(d)
	v, ok := d.Duration("delta", AnyDuration)
	switch {
	case !d.Has("delta"):
		d.Required("delta", `how far the clock steps, e.g. "delta: 15s" (negative = backwards)`)
	case ok && v == 0:
		d.Errorf("delta", "must not be 0s: how far the clock steps, e.g. \"delta: 15s\" (negative = backwards)")
	}
	f.Delta = v
}

// Draw jumps one node's clock by half the TTL, forward or backward.
func (f *clockJump) Draw(r *Resolver, _ time.Duration) {
	f.Nodes, f.Delta = r.pick(SelectOne, r.Nodes), r.TTL/2
	if r.Rand.IntN(2) == 0 {
		f.Delta = -f.Delta
	}
}

func (f *clockJump) Resolve(r *Resolver, s *history.FaultStep) error {
	s.Delta = r.Wall(f.Delta)
	return resolveClock(r, f.Nodes, f.Clients, s)
}

func (f *clockJump) Apply(ctx context.Context, env Env, s history.FaultStep) (Undo, error) {
	return applyClock(env, s, func(cs []Client) Undo {
		for _, c := range cs {
			c.Clock().Jump(wall(s.Delta))
		}
		return nil
	}, func(ns []Node) (Undo, error) {
		return nil, each(ns, func(n Node) error { return n.ShiftClock(ctx, wall(s.Delta)) })
	})
}

func (f *clockJump) Encode(e Encoder, s history.FaultStep) error {
	f.Nodes, f.Clients = encodeClock(s)
	f.Delta = e.Scen(s.Delta)
	return nil
}
