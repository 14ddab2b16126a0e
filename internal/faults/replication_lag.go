package faults

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// replicationLag slows or stops the replication stream into replicas: a
// toxic on the replica's own replication link (toxiproxy between the
// replica and its master). Mode delay adds latency ± jitter to what the
// master sends (a latency toxic on the downstream: the stream and the
// master's GETACK requests arrive late; the replica's acknowledgements go
// back at once). Mode stop drops the stream both ways (a timeout toxic
// with timeout 0): the replica keeps its connection and its offset and
// receives nothing; the heal closes the connection, the replica reconnects
// (Redis retries once a second) and catches up from the master's backlog
// with a partial resync. The link's Client in the history is the replica,
// its Node the master.
type replicationLag struct {
	Replicas []string      `yaml:"replicas,omitempty"`
	Mode     string        `yaml:"mode,omitempty"`
	Latency  time.Duration `yaml:"latency,omitempty"`
	Jitter   time.Duration `yaml:"jitter,omitempty"`
	Duration time.Duration `yaml:"duration,omitempty"`
}

// Replication-lag modes.
const (
	LagDelay = "delay"
	LagStop  = "stop"
)

func init() {
	Register(Kind{
		Name:     "replication-lag",
		About:    "delay (latency toxic) or stop (timeout toxic) the replication stream into replicas, on their own replication links",
		Fields:   []string{"replicas", "mode", "latency", "jitter", "duration"},
		Triggers: []string{history.TriggerAt, history.TriggerEvent},
		New:      func() Fault { return &replicationLag{} },
	})
}

func (f *replicationLag) Decode(d Decoder) {
	f.Replicas, _ = d.Targets("replicas", "replica")
	f.Mode, _ = d.Enum("mode", "replication-lag mode", []string{LagDelay, LagStop})
	f.Duration = windowDuration(d)
	f.Latency, _ = d.Duration("latency", NonNegative)
	f.Jitter, _ = d.Duration("jitter", NonNegative)
	switch {
	case f.Mode == LagStop && (d.Has("latency") || d.Has("jitter")):
		d.Errorf("mode", "mode stop holds the stream back entirely; latency and jitter apply to mode delay")
	case f.Mode != LagStop && !d.Has("latency"):
		d.Required("latency", `how late the stream arrives, e.g. "latency: 5s" (or "mode: stop")`)
	case f.Mode != LagStop && f.Latency == 0:
		d.Errorf("latency", "must be > 0 (got 0s): a delay adds latency")
	}
	if td, ok := d.(TopologyDecoder); ok && td.Replicas() == 0 {
		d.Errorf("", "replication-lag needs replicas (replicas: 1)")
	}
}

// groupOf is a replica's master: "n1r2" → "n1".
func groupOf(replica string) string {
	if i := strings.LastIndexByte(replica, 'r'); i > 0 {
		return replica[:i]
	}
	return replica
}

func (f *replicationLag) Resolve(r *Resolver, s *history.FaultStep) error {
	reps, err := r.Select(f.Replicas, r.Replicas, r.Replicas)
	if err != nil {
		return err
	}
	for _, rep := range reps {
		s.Links = append(s.Links, history.Link{Client: rep, Node: groupOf(rep)})
	}
	if f.Mode == LagStop {
		s.Effect, s.Mode, s.Direction = history.EffectCutLinks, ModeDrop, DirectionBoth
	} else {
		s.Effect = history.EffectSlowLinks
		s.Latency, s.Jitter = r.Wall(f.Latency), r.Wall(f.Jitter)
	}
	setWindow(r, f.Duration, s)
	return nil
}

func (f *replicationLag) Apply(_ context.Context, env Env, s history.FaultStep) (Undo, error) {
	re, ok := env.(ReplicatedEnv)
	if !ok {
		return nil, errors.New("replication-lag needs a replicated cluster")
	}
	var ls []Link
	for _, l := range s.Links {
		x, err := re.ReplicationLink(l.Client)
		if err != nil {
			return nil, err
		}
		ls = append(ls, x)
	}
	if s.Effect == history.EffectCutLinks {
		undo := func(context.Context) error { return each(ls, Link.Uncut) }
		return undo, each(ls, func(l Link) error { return l.Cut(ModeDrop, DirectionBoth) })
	}
	undo := func(context.Context) error { return each(ls, Link.RemoveLatency) }
	return undo, each(ls, func(l Link) error { return l.AddLatency(wall(s.Latency), wall(s.Jitter)) })
}

func (f *replicationLag) Encode(e Encoder, s history.FaultStep) error {
	f.Replicas = s.LinkClients() // a replication link's client is its replica
	f.Duration = e.Window(s)
	if s.Effect == history.EffectCutLinks {
		f.Mode = LagStop
		return nil
	}
	f.Latency, f.Jitter = e.Scen(s.Latency), e.Scen(s.Jitter)
	return nil
}
