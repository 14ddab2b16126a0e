package faults

import (
	"context"
	"errors"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// requiredClient reads a kind's required `client` field.
func requiredClient(d Decoder, what string) string {
	c, ok := d.Client("client")
	if !ok && !d.Has("client") {
		d.Required("client", what+`, e.g. "client: w1"`)
	}
	return c
}

// requiredNodes reads a kind's required `nodes` field.
func requiredNodes(d Decoder, hint string) []string {
	ns, ok := d.Targets("nodes", "node")
	if (!ok || len(ns) == 0) && !d.Has("nodes") {
		d.Required("nodes", hint)
	}
	return ns
}

// windowDuration reads the optional `duration` of a fault with a window:
// 0 or absent means until the end of the run.
func windowDuration(d Decoder) time.Duration {
	v, _ := d.Duration("duration", NonNegative)
	return v
}

// setWindow sets a step's active window from a scenario duration: 0
// lasts until the end of the run.
func setWindow(r *Resolver, d time.Duration, s *history.FaultStep) {
	if d <= 0 {
		s.UntilEnd = true
		return
	}
	s.Duration = r.Wall(d)
}

// onLinks is what every fault on client→node links has (partition and
// the toxic kinds): the links from Clients (every client when empty) to
// Nodes, for Duration (0 or absent: until the end of the run).
type onLinks struct {
	Clients  []string      `yaml:"clients,omitempty"`
	Nodes    []string      `yaml:"nodes"`
	Duration time.Duration `yaml:"duration,omitempty"`
}

// decode reads the links and the window; hint says what nodes: wants.
func (f *onLinks) decode(d Decoder, hint string) {
	f.Nodes = requiredNodes(d, hint)
	f.Clients, _ = d.Targets("clients", "client")
	f.Duration = windowDuration(d)
}

// resolve sets a step's effect, its links and its window.
func (f *onLinks) resolve(r *Resolver, s *history.FaultStep, effect string) error {
	ls, err := r.linkTargets(f.Nodes, f.Clients)
	if err != nil {
		return err
	}
	s.Effect, s.Links = effect, ls
	setWindow(r, f.Duration, s)
	return nil
}

// encode reads the links and the window back from a step.
func (f *onLinks) encode(e Encoder, s history.FaultStep) (err error) {
	f.Clients, f.Nodes, err = linkTargets(s)
	f.Duration = e.Window(s)
	return err
}

// applyLinks applies a step on its links: its toxic, named toxic, when
// the kind has one ("" for none) and the step carries it, else do on each
// link, which undo takes back.
func applyLinks(env Env, s history.FaultStep, toxic string, do, undo func(Link) error) (Undo, error) {
	if toxic != "" && s.Toxic != nil {
		return applyToxic(env, s, toxic)
	}
	ls, err := envLinks(env, s.Links)
	if err != nil {
		return nil, err
	}
	return func(context.Context) error { return each(ls, undo) }, each(ls, do)
}

// each runs f on every target, joining the errors.
func each[T any](items []T, f func(T) error) error {
	var errs []error
	for _, it := range items {
		errs = append(errs, f(it))
	}
	return errors.Join(errs...)
}

// envLinks looks up every link of a step.
func envLinks(env Env, ls []history.Link) ([]Link, error) {
	out := make([]Link, 0, len(ls))
	for _, l := range ls {
		x, err := env.Link(l.Client, l.Node)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// envNodes looks up every node of a step.
func envNodes(env Env, names []string) ([]Node, error) {
	out := make([]Node, 0, len(names))
	for _, n := range names {
		x, err := env.Node(n)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// envClients looks up every client of a step.
func envClients(env Env, names []string) ([]Client, error) {
	out := make([]Client, 0, len(names))
	for _, n := range names {
		x, err := env.Client(n)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}
