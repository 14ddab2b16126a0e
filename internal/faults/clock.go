package faults

import (
	"slices"

	"github.com/locksim/locksim/internal/history"
)

// clockTargets reads the targets of a clock fault: nodes (their keys' TTLs
// shift) or clients (their own clocks), not both and not neither.
func clockTargets(d Decoder) (nodes, clients []string) {
	nodes, _ = d.Targets("nodes", "node")
	clients, _ = d.Targets("clients", "client")
	switch {
	case len(nodes) > 0 && len(clients) > 0:
		d.Errorf("", "a clock fault acts on nodes (TTL shifting) or on clients (their own clock), not both")
	case len(nodes) == 0 && len(clients) == 0 && !d.Has("nodes") && !d.Has("clients"):
		d.Errorf("", `missing targets: give nodes (e.g. "nodes: [n3]") or clients (e.g. "clients: [w1]")`)
	}
	return nodes, clients
}

// resolveClock resolves a clock fault's targets and effect.
func resolveClock(r *Resolver, nodes, clients []string, s *history.FaultStep) error {
	if len(nodes) > 0 {
		ns, err := r.Select(nodes, r.Nodes, nil)
		s.Effect, s.Nodes = history.EffectNodeClock, ns
		return err
	}
	cs, err := r.Select(clients, r.Clients, nil)
	s.Effect, s.Clients = history.EffectClientClock, cs
	return err
}

// applyClock applies a clock step: to its clients' own clocks with
// clients (its Undo, nil for none) for a client clock, else to its nodes
// with nodes.
func applyClock(env Env, s history.FaultStep, clients func([]Client) Undo, nodes func([]Node) (Undo, error)) (Undo, error) {
	if s.Effect == history.EffectClientClock {
		cs, err := envClients(env, s.Clients)
		if err != nil {
			return nil, err
		}
		return clients(cs), nil
	}
	ns, err := envNodes(env, s.Nodes)
	if err != nil {
		return nil, err
	}
	return nodes(ns)
}

// encodeClock is a clock step's targets as a fault writes them: its
// clients for a client clock, else its nodes.
func encodeClock(s history.FaultStep) (nodes, clients []string) {
	if s.Effect == history.EffectClientClock {
		return nil, slices.Clone(s.Clients)
	}
	return slices.Clone(s.Nodes), nil
}
