package faults

import (
	"context"
	"slices"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// reset resets the connections on chosen client→node links with a TCP RST
// (a toxiproxy reset_peer toxic) for as long as it lasts: at once when the
// client sends, or with timeout that long after the connection's data
// started through (toxiproxy's reset_peer timeout); stream and toxicity
// as for every toxic (toxics.go).
type reset struct {
	onLinks  `yaml:",inline"`
	Timeout  time.Duration `yaml:"timeout,omitempty"`
	Stream   string        `yaml:"stream,omitempty"`
	Toxicity float64       `yaml:"toxicity,omitempty"`
}

func init() {
	Register(Kind{
		Name:     "reset",
		About:    "reset chosen links with TCP RST (toxiproxy reset_peer toxic)",
		Fields:   []string{"nodes", "clients", "duration", "timeout", "stream", "toxicity"},
		Triggers: []string{history.TriggerAt, history.TriggerEvent},
		Nemesis:  true,
		New:      func() Fault { return &reset{} },
	})
}

func (f *reset) Decode(d Decoder) {
	f.decode(d, `the nodes whose links reset connections, e.g. "nodes: [n3]"`)
	f.Timeout, _ = d.Duration("timeout", NonNegative)
	f.Stream, f.Toxicity = decodeStream(d)
}

// Draw resets one node's links for every client.
func (f *reset) Draw(r *Resolver, window time.Duration) {
	f.Nodes, f.Clients, f.Duration = r.pick(SelectOne, r.Nodes), slices.Clone(r.Clients), window
}

func (f *reset) Resolve(r *Resolver, s *history.FaultStep) error {
	if err := f.resolve(r, s, history.EffectResetLinks); err != nil {
		return err
	}
	if f.Timeout > 0 || (f.Stream != "" && f.Stream != StreamUpstream) || (f.Toxicity > 0 && f.Toxicity < 1) {
		resolveToxic(r, s, "reset_peer", f.Stream, StreamUpstream, f.Toxicity,
			map[string]int64{"timeout": ceilMS(r.Wall(f.Timeout))})
	}
	return nil
}

func (f *reset) Apply(_ context.Context, env Env, s history.FaultStep) (Undo, error) {
	return applyLinks(env, s, "reset", Link.Reset, Link.RemoveReset)
}

func (f *reset) Encode(e Encoder, s history.FaultStep) (err error) {
	err = f.encode(e, s)
	f.Stream, f.Toxicity = stream(s, StreamUpstream), toxicity(s)
	if s.Toxic != nil {
		f.Timeout = e.ScenMS(s.Toxic.Attributes["timeout"])
	}
	return err
}
