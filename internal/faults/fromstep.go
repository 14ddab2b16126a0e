package faults

import (
	"fmt"
	"slices"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/history"
)

// SpecOf turns a resolved step back into the fault a scenario file would
// write to get exactly that step: concrete targets instead of selectors,
// the trigger and every attribute in scenario time (scale is the run's
// time scale: scenario = wall × scale, rounded to the microsecond). A step
// drawn by the random nemesis becomes an ordinary fault at its time, still
// optional; a step fired by hand (TriggerManual) becomes an ordinary fault
// at the time it fired; `locksim shrink` and `locksim serve`'s "Save as
// scenario" start from these.
//
// It needs no kind-specific code: a kind's attributes are the exported,
// yaml-tagged fields of its type named in Kind.Fields, and a step holds
// each of them under one name (client/clients, nodes, duration or
// restart_after, delta, rate, latency, jitter, mode or restore,
// direction, cause, key). The
// result should go through the scenario parser (scenario.Normalize, then
// scenario.Parse) before it is run, as every fault does.
func SpecOf(s history.FaultStep, scale float64) (Spec, error) {
	k, ok := Lookup(s.Kind)
	if !ok {
		return Spec{}, fmt.Errorf("step #%d: unknown fault kind %q", s.ID, s.Kind)
	}
	if scale <= 0 {
		scale = 1
	}
	scen := func(ns int64) time.Duration {
		return time.Duration(float64(ns) * scale).Round(time.Microsecond)
	}
	clients, nodes := s.Clients, s.Nodes
	if s.OnLinks() {
		clients = s.LinkClients()
		nodes = nil
		for _, l := range s.Links {
			if !slices.Contains(nodes, l.Node) {
				nodes = append(nodes, l.Node)
			}
		}
		if len(clients)*len(nodes) != len(s.Links) {
			return Spec{}, fmt.Errorf("step #%d (%s): its %d links are not every client × node of %v × %v, which no fault can write", s.ID, s.Kind, len(s.Links), clients, nodes)
		}
	}
	has := func(f string) bool { return slices.Contains(k.Fields, f) }
	attrs := map[string]any{}
	switch {
	case has("client") && len(clients) == 1:
		attrs["client"] = clients[0]
	case has("client"):
		return Spec{}, fmt.Errorf("step #%d (%s): acts on %d clients; the kind takes one", s.ID, s.Kind, len(clients))
	case has("clients") && len(clients) > 0:
		attrs["clients"] = clients
	}
	if has("nodes") && len(nodes) > 0 {
		attrs["nodes"] = nodes
	}
	if has("key") && s.Key != "" {
		attrs["key"] = s.Key
	}
	// A window: its length, or none for "until the end of the run".
	switch {
	case has("restart_after") && !s.UntilEnd:
		attrs["restart_after"] = scen(s.Duration).String()
	case has("duration") && !s.UntilEnd && s.Duration > 0:
		attrs["duration"] = scen(s.Duration).String()
	}
	if has("delta") && s.Delta != 0 {
		attrs["delta"] = scen(s.Delta).String()
	}
	if has("rate") && s.Rate != 0 {
		attrs["rate"] = s.Rate
	}
	if has("latency") && s.Latency != 0 {
		attrs["latency"] = scen(s.Latency).String()
	}
	if has("jitter") && s.Jitter != 0 {
		attrs["jitter"] = scen(s.Jitter).String()
	}
	if has("mode") && s.Mode != "" {
		attrs["mode"] = s.Mode
	}
	if has("restore") && s.Mode != "" {
		attrs["restore"] = s.Mode
	}
	if has("direction") && s.Direction != "" {
		attrs["direction"] = s.Direction
	}
	if has("cause") && s.Cause != "" {
		attrs["cause"] = s.Cause
	}
	var node yaml.Node
	if err := node.Encode(attrs); err != nil {
		return Spec{}, fmt.Errorf("step #%d (%s): %w", s.ID, s.Kind, err)
	}
	f := k.New()
	if err := node.Decode(f); err != nil {
		return Spec{}, fmt.Errorf("step #%d (%s): attributes: %w", s.ID, s.Kind, err)
	}

	t := s.Trigger
	if t.Kind == "" {
		t.Kind = history.TriggerAt
	}
	if t.Kind == history.TriggerManual {
		// Fired by hand (locksim serve): written as the fault at the time
		// it fired, which replays it.
		t = history.Trigger{Kind: history.TriggerAt, At: t.At}
	}
	if !k.Accepts(t.Kind) {
		return Spec{}, fmt.Errorf("step #%d (%s): a %s does not fire on a trigger of kind %q", s.ID, s.Kind, s.Kind, t.Kind)
	}
	w := When{Kind: t.Kind}
	switch t.Kind {
	case history.TriggerAt:
		w.At = scen(max(t.At, 0))
	case history.TriggerEvent:
		w.Client, w.Event, w.Node, w.Delay = t.Client, t.Event, t.Node, scen(t.Delay)
	case history.TriggerPoint:
		w.Point, w.Occurrence = t.Point, max(t.Occurrence, 1)
	default:
		return Spec{}, fmt.Errorf("step #%d (%s): unknown trigger %q", s.ID, s.Kind, t.Kind)
	}
	return Spec{Kind: s.Kind, When: w, Optional: s.Optional, Fault: f}, nil
}

// SpecsOf is SpecOf of every step of a plan, in plan order.
func SpecsOf(steps []history.FaultStep, scale float64) ([]Spec, error) {
	out := make([]Spec, 0, len(steps))
	for _, s := range steps {
		sp, err := SpecOf(s, scale)
		if err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, nil
}
