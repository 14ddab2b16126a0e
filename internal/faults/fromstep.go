package faults

import (
	"fmt"
	"slices"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// Encoder turns a resolved step's wall-time values back into scenario
// time for a kind's Encode: scenario = wall × Scale, rounded to the
// microsecond.
type Encoder struct {
	// Scale is the run's time scale (wall = scenario / Scale).
	Scale float64
}

// Scen is ns of wall time as scenario time.
func (e Encoder) Scen(ns int64) time.Duration {
	return time.Duration(float64(ns) * e.Scale).Round(time.Microsecond)
}

// ScenMS is ms of wall time (a toxiproxy attribute) as scenario time.
func (e Encoder) ScenMS(ms int64) time.Duration { return e.Scen(ms * int64(time.Millisecond)) }

// Window is a step's active window as a scenario duration: 0 (no
// duration: until the end of the run) when it lasts until the end.
func (e Encoder) Window(s history.FaultStep) time.Duration {
	if s.UntilEnd {
		return 0
	}
	return e.Scen(s.Duration)
}

// SpecOf turns a resolved step back into the fault a scenario file would
// write to get exactly that step: concrete targets instead of selectors,
// the trigger and every attribute in scenario time (scale is the run's
// time scale: scenario = wall × scale, rounded to the microsecond). A step
// drawn by the random nemesis becomes an ordinary fault at its time, still
// optional; a step fired by hand (TriggerManual) becomes an ordinary fault
// at the time it fired; `locksim shrink` and `locksim serve`'s "Save as
// scenario" start from these.
//
// The kind writes its own attributes (Fault.Encode, the inverse of its
// Decode and Resolve), so every attribute it decodes survives: a stream, a
// toxicity, a power loss, a failover mode, a toxic's own values. What a
// step draws from the run's seed at resolve time — the per-connection
// toxicity draws (Toxic.Seed) — is the run's, not the schedule's. The
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
	e := Encoder{Scale: scale}
	f := k.New()
	if err := f.Encode(e, s); err != nil {
		return Spec{}, fmt.Errorf("step #%d (%s): %w", s.ID, s.Kind, err)
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
		w.At = e.Scen(max(t.At, 0))
	case history.TriggerEvent:
		w.Client, w.Event, w.Node, w.Delay = t.Client, t.Event, t.Node, e.Scen(t.Delay)
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

// oneClient is the one client a client fault acts on.
func oneClient(s history.FaultStep) (string, error) {
	if len(s.Clients) != 1 {
		return "", fmt.Errorf("acts on %d clients; the kind takes one", len(s.Clients))
	}
	return s.Clients[0], nil
}

// linkTargets are the clients and nodes of a step on links, which must be
// every client × node of the two lists (what a fault can write).
func linkTargets(s history.FaultStep) (clients, nodes []string, err error) {
	clients = s.LinkClients()
	for _, l := range s.Links {
		if !slices.Contains(nodes, l.Node) {
			nodes = append(nodes, l.Node)
		}
	}
	if len(clients)*len(nodes) != len(s.Links) {
		return nil, nil, fmt.Errorf("its %d links are not every client × node of %v × %v, which no fault can write", len(s.Links), clients, nodes)
	}
	return clients, nodes, nil
}

// toxicity is a step's toxicity as a fault writes it (0: every
// connection).
func toxicity(s history.FaultStep) float64 {
	if s.Toxicity > 0 && s.Toxicity < 1 {
		return s.Toxicity
	}
	return 0
}

// stream is a step's stream as a fault writes it: "" for the kind's
// default (def).
func stream(s history.FaultStep, def string) string {
	if s.Stream == def {
		return ""
	}
	return s.Stream
}
