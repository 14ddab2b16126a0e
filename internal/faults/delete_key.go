package faults

import (
	"context"
	"slices"

	"github.com/locksim/locksim/internal/history"
)

// deleteKey deletes a lock key on nodes, at a time or on an event, as a
// janitor with a wrong liveness test or an operator would: by key, not by
// owner, so nothing in the lock protocol stops it and the holder is never
// told (bug-reports-2 BR-27: sidekiq-unique-jobs' reaper deleting the
// locks of running jobs).
type deleteKey struct {
	Key   string   `yaml:"key"`
	Nodes []string `yaml:"nodes"`
}

func init() {
	Register(Kind{
		Name:     "delete-key",
		About:    "a janitor deletes a lock key on nodes (DEL by key, not by owner), at a time or on an event; the holder is not told",
		Fields:   []string{"key", "nodes"},
		Triggers: []string{history.TriggerAt, history.TriggerEvent},
		New:      func() Fault { return &deleteKey{} },
	})
}

func (f *deleteKey) Decode(d Decoder) {
	k, ok := d.String("key")
	if !ok && !d.Has("key") {
		d.Required("key", `the lock key to delete, e.g. "key: invoice-1"`)
	}
	f.Key = k
	f.Nodes = requiredNodes(d, `the nodes to delete it on, e.g. "nodes: [n1]" or "nodes: all"`)
}

func (f *deleteKey) Resolve(r *Resolver, s *history.FaultStep) error {
	nodes, err := r.Select(f.Nodes, r.Nodes, nil)
	s.Effect, s.Key, s.Nodes = history.EffectDeleteKey, f.Key, nodes
	return err
}

func (f *deleteKey) Apply(ctx context.Context, env Env, s history.FaultStep) (Undo, error) {
	ns, err := envNodes(env, s.Nodes)
	if err != nil {
		return nil, err
	}
	return nil, each(ns, func(n Node) error { return n.DeleteKey(ctx, s.Key) })
}

func (f *deleteKey) Encode(_ Encoder, s history.FaultStep) error {
	f.Key, f.Nodes = s.Key, slices.Clone(s.Nodes)
	return nil
}
