package faults

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// partition cuts clients from nodes: every link client→node drops its
// traffic silently (a timeout toxic with timeout 0) or refuses it (the
// proxy disabled); with direction replies the command still runs on Redis
// and only the reply is lost (lock-theory §5).
type partition struct {
	onLinks   `yaml:",inline"`
	Mode      string `yaml:"mode,omitempty"`
	Direction string `yaml:"direction,omitempty"`
}

// Partition modes and directions.
const (
	ModeDrop         = "drop"
	ModeRefuse       = "refuse"
	DirectionBoth    = "both"
	DirectionReplies = "replies"
)

func init() {
	Register(Kind{
		Name:     "partition",
		About:    "cut clients from nodes: mode drop (silent, timeout toxic) or refuse (proxy disabled); direction both or replies",
		Fields:   []string{"nodes", "clients", "duration", "mode", "direction"},
		Triggers: []string{history.TriggerAt, history.TriggerEvent},
		Nemesis:  true,
		New:      func() Fault { return &partition{} },
	})
}

func (f *partition) Decode(d Decoder) {
	f.decode(d, `the nodes to cut off, e.g. "nodes: [n4, n5]" or "nodes: minority"`)
	f.Mode, _ = d.Enum("mode", "partition mode", []string{ModeDrop, ModeRefuse})
	f.Direction, _ = d.Enum("direction", "direction", []string{DirectionBoth, DirectionReplies})
	if f.Mode == ModeRefuse && f.Direction == DirectionReplies {
		d.Errorf("direction", "mode refuse closes the connection both ways; use mode drop for a replies-only cut")
	}
}

// Draw is Jepsen's partition-random-halves on links: either a minority of
// nodes from every client, or one client from a majority; one in four cuts
// only the replies.
func (f *partition) Draw(r *Resolver, window time.Duration) {
	if r.Rand.IntN(2) == 0 {
		f.Nodes, f.Clients = r.pick(SelectMinority, r.Nodes), slices.Clone(r.Clients)
	} else {
		f.Nodes, f.Clients = r.pick(SelectMajority, r.Nodes), r.pick(SelectOne, r.Clients)
	}
	if r.Rand.IntN(4) == 0 {
		f.Direction = DirectionReplies
	}
	f.Duration = window
}

func (f *partition) Resolve(r *Resolver, s *history.FaultStep) error {
	if err := f.resolve(r, s, history.EffectCutLinks); err != nil {
		return err
	}
	s.Mode, s.Direction = cmp.Or(f.Mode, ModeDrop), cmp.Or(f.Direction, DirectionBoth)
	return nil
}

func (f *partition) Apply(_ context.Context, env Env, s history.FaultStep) (Undo, error) {
	return applyLinks(env, s, "", func(l Link) error { return l.Cut(s.Mode, s.Direction) }, Link.Uncut)
}

func (f *partition) Encode(e Encoder, s history.FaultStep) (err error) {
	err = f.encode(e, s)
	f.Mode, f.Direction = s.Mode, s.Direction
	return err
}
