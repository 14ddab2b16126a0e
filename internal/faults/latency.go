package faults

import (
	"context"
	"slices"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// latency delays the replies on chosen client→node links by latency ±
// jitter (a toxiproxy latency toxic on the downstream stream); with
// stream upstream the requests are delayed instead (the command reaches
// Redis late), with both each way; toxicity gives it to that share of the
// connections (toxics.go).
type latency struct {
	onLinks  `yaml:",inline"`
	Latency  time.Duration `yaml:"latency"`
	Jitter   time.Duration `yaml:"jitter,omitempty"`
	Stream   string        `yaml:"stream,omitempty"`
	Toxicity float64       `yaml:"toxicity,omitempty"`
}

func init() {
	Register(Kind{
		Name:     "latency",
		About:    "add latency and jitter to the replies on chosen client→node links (toxiproxy latency toxic)",
		Fields:   []string{"nodes", "clients", "duration", "latency", "jitter", "stream", "toxicity"},
		Triggers: []string{history.TriggerAt, history.TriggerEvent},
		Nemesis:  true,
		New:      func() Fault { return &latency{} },
	})
}

func (f *latency) Decode(d Decoder) {
	f.decode(d, `the nodes whose links get slow, e.g. "nodes: all"`)
	v, ok := d.Duration("latency", NonNegative)
	switch {
	case !d.Has("latency"):
		d.Required("latency", `the added delay, e.g. "latency: 100ms"`)
	case ok && v == 0:
		d.Errorf("latency", "must be > 0 (got 0s): a latency fault adds a delay")
	}
	f.Latency = v
	f.Jitter, _ = d.Duration("jitter", NonNegative)
	f.Stream, f.Toxicity = decodeStream(d)
}

// Draw slows one node's links for every client by a twentieth of the TTL.
func (f *latency) Draw(r *Resolver, window time.Duration) {
	f.Nodes, f.Clients = r.pick(SelectOne, r.Nodes), slices.Clone(r.Clients)
	f.Latency = max(r.TTL/20, time.Millisecond)
	f.Jitter = f.Latency / 2
	f.Duration = window
}

func (f *latency) Resolve(r *Resolver, s *history.FaultStep) error {
	if err := f.resolve(r, s, history.EffectSlowLinks); err != nil {
		return err
	}
	s.Latency, s.Jitter = r.Wall(f.Latency), r.Wall(f.Jitter)
	if (f.Stream != "" && f.Stream != StreamDownstream) || (f.Toxicity > 0 && f.Toxicity < 1) {
		resolveToxic(r, s, "latency", f.Stream, StreamDownstream, f.Toxicity,
			map[string]int64{"latency": ceilMS(s.Latency), "jitter": ceilMS(s.Jitter)})
	}
	return nil
}

func (f *latency) Apply(_ context.Context, env Env, s history.FaultStep) (Undo, error) {
	return applyLinks(env, s, "latency", func(l Link) error { return l.AddLatency(wall(s.Latency), wall(s.Jitter)) }, Link.RemoveLatency)
}

func (f *latency) Encode(e Encoder, s history.FaultStep) (err error) {
	err = f.encode(e, s)
	f.Latency, f.Jitter = e.Scen(s.Latency), e.Scen(s.Jitter)
	f.Stream, f.Toxicity = stream(s, StreamDownstream), toxicity(s)
	return err
}
