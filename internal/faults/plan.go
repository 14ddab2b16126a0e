package faults

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/history"
)

// Spec is one fault of a scenario file: its kind, when it fires and the
// kind's attributes, all in scenario time.
type Spec struct {
	Kind string
	// When is when the fault fires.
	When When
	// Optional: the run is not judged incomplete when the fault never
	// fires (scenario `optional: true`).
	Optional bool
	// Fault is the kind's decoded attributes.
	Fault Fault
	// Line and Column locate the fault in its file (0 when not from one).
	Line, Column int
}

// When is a scenario fault's trigger, scenario time: exactly one of a time
// (Kind history.TriggerAt), a client event (TriggerEvent) or a point of the
// client's work (TriggerPoint; the client is the fault's own client).
type When struct {
	Kind string
	// At: TriggerAt's start since the workload's time zero; 0 applies the
	// fault before any client starts.
	At time.Duration
	// Client, Event, Node and Delay: TriggerEvent.
	Client string
	Event  string
	Node   string
	Delay  time.Duration
	// Point and Occurrence (1 = the first time): TriggerPoint. Point may be
	// PointRandom, drawn from the seed when the plan is resolved.
	Point      string
	Occurrence int
}

// PointRandom lets the seeded plan pick one of the workload's points.
const PointRandom = "random"

// Nemesis is a seeded random fault schedule (Jepsen style): every Interval
// (scenario time) from Start (default: Interval) one fault of a kind drawn
// from Faults starts, on targets drawn from the seed, and lasts Duration.
// Its steps are optional by nature.
type Nemesis struct {
	Interval time.Duration `yaml:"interval"`
	Duration time.Duration `yaml:"duration"`
	Faults   []string      `yaml:"faults"`
	Start    time.Duration `yaml:"start,omitempty"`
}

// Plan is the resolved fault schedule of one run. It depends only on the
// scenario and the seed. Steps[i] is carried out by faults[i].
type Plan struct {
	Seed   int64
	Steps  []history.FaultStep
	faults []Fault
	// manual resolves the faults fired by hand during the run
	// (Scheduler.Manual): the plan's topology, with a generator of its own
	// so that they draw nothing from the plan's.
	manual *Resolver
}

// Topology is what resolving a plan needs to know of the run.
type Topology struct {
	Nodes   []string // n1, n2, … in order
	Clients []string // w1, w2, … in order
	// Scale is the run's time scale (wall = scenario / Scale).
	Scale float64
	// TTL is the lease TTL and Duration the run's length, scenario time.
	TTL, Duration time.Duration
	// Replicas (n1r1, …) and Sentinels (s1, …) of a replicated run, in
	// order: fault steps may name them as nodes; selectors still choose
	// among the masters (Nodes).
	Replicas, Sentinels []string
}

// NewPlan resolves a scenario's faults and random nemesis into a plan,
// drawing every choice (selectors, random points, nemesis kinds and
// targets) from seed alone.
func NewPlan(specs []Spec, nm *Nemesis, seed int64, t Topology) (Plan, error) {
	if t.Scale <= 0 {
		t.Scale = 1
	}
	r := &Resolver{Rand: rand.New(rand.NewPCG(uint64(seed), 0x6e656d65736973)), // "nemesis"
		Nodes: t.Nodes, Clients: t.Clients, Scale: t.Scale, TTL: t.TTL,
		Replicas: t.Replicas, Sentinels: t.Sentinels}
	plan := Plan{Seed: seed, manual: &Resolver{Rand: rand.New(rand.NewPCG(uint64(seed), 0x68616e64)), // "hand"
		Nodes: t.Nodes, Clients: t.Clients, Scale: t.Scale, TTL: t.TTL, Replicas: t.Replicas, Sentinels: t.Sentinels}}
	add := func(kind string, w When, optional, random bool, f Fault) error {
		s := history.FaultStep{ID: len(plan.Steps) + 1, Kind: kind, Optional: optional, Random: random}
		if err := f.Resolve(r, &s); err != nil {
			return err
		}
		tr, err := r.trigger(kind, w, s)
		if err != nil {
			return err
		}
		s.Trigger = tr
		plan.Steps = append(plan.Steps, s)
		plan.faults = append(plan.faults, f)
		return nil
	}
	for i, sp := range specs {
		if sp.Fault == nil {
			return Plan{}, fmt.Errorf("faults[%d] (%s): no attributes decoded", i, sp.Kind)
		}
		if err := add(sp.Kind, sp.When, sp.Optional, false, sp.Fault); err != nil {
			return Plan{}, fmt.Errorf("faults[%d] (%s): %w", i, sp.Kind, err)
		}
	}
	if nm != nil && nm.Interval > 0 && len(nm.Faults) > 0 {
		start := nm.Start
		if start == 0 {
			start = nm.Interval
		}
		for at := start; at+nm.Duration < t.Duration; at += nm.Interval {
			name := nm.Faults[r.Rand.IntN(len(nm.Faults))]
			k, ok := Lookup(name)
			if !ok || !k.Nemesis {
				return Plan{}, fmt.Errorf("nemesis: kind %q cannot be drawn", name)
			}
			f := k.New()
			f.(Drawer).Draw(r, nm.Duration)
			if err := add(name, When{Kind: history.TriggerAt, At: at}, true, true, f); err != nil {
				return Plan{}, fmt.Errorf("nemesis step at %s (%s): %w", at, name, err)
			}
		}
	}
	return plan, nil
}

// trigger resolves a fault's When into the history's Trigger (wall ns).
func (r *Resolver) trigger(kind string, w When, s history.FaultStep) (history.Trigger, error) {
	switch w.Kind {
	case history.TriggerAt, "":
		return history.Trigger{Kind: history.TriggerAt, At: r.Wall(max(w.At, 0))}, nil
	case history.TriggerEvent:
		return history.Trigger{Kind: history.TriggerEvent, Client: w.Client, Event: w.Event, Node: w.Node, Delay: r.Wall(w.Delay)}, nil
	case history.TriggerPoint:
		if len(s.Clients) != 1 {
			return history.Trigger{}, fmt.Errorf("a %s at a point needs exactly one client (got %d)", kind, len(s.Clients))
		}
		point := w.Point
		if point == PointRandom {
			wp := history.WorkPoints()
			point = wp[r.Rand.IntN(len(wp))]
		}
		return history.Trigger{Kind: history.TriggerPoint, Client: s.Clients[0], Point: point, Occurrence: max(w.Occurrence, 1)}, nil
	}
	return history.Trigger{}, fmt.Errorf("unknown trigger %q", w.Kind)
}

// Lines is the plan in plain words, one line per step in scenario time,
// for the log (never parsed back: the plan itself is data,
// history.Header.Plan). scale is the run's time scale.
func (p Plan) Lines(scale float64) []string {
	out := make([]string, 0, len(p.Steps))
	for _, s := range p.Steps {
		out = append(out, Describe(s, scale))
	}
	return out
}

// Describe is one English line about a resolved step, in scenario time
// (scale is the run's time scale), for logs and error messages: "#1 when w1
// first reaches before-write: pause on w1, for 35s". The report tells steps
// in its own words from the same data.
func Describe(s history.FaultStep, scale float64) string {
	if scale <= 0 {
		scale = 1
	}
	sc := func(ns int64) string { return time.Duration(float64(ns) * scale).Round(time.Microsecond).String() }
	var b strings.Builder
	fmt.Fprintf(&b, "#%d ", s.ID)
	t := s.Trigger
	switch t.Kind {
	case history.TriggerPoint:
		if t.Occurrence <= 1 {
			fmt.Fprintf(&b, "when %s first reaches %s", t.Client, t.Point)
		} else {
			fmt.Fprintf(&b, "the %s time %s reaches %s", history.Ordinal(t.Occurrence), t.Client, t.Point)
		}
	case history.TriggerEvent:
		if t.Event == history.EventGrantedBy {
			fmt.Fprintf(&b, "%s after %s first holds the lock on %s", sc(t.Delay), t.Client, t.Node)
		} else {
			fmt.Fprintf(&b, "%s after %s's acquire first returns ok", sc(t.Delay), t.Client)
		}
	case history.TriggerManual:
		fmt.Fprintf(&b, "by hand at %s", sc(t.At))
	default:
		if t.At <= 0 {
			b.WriteString("before the clients start")
		} else {
			fmt.Fprintf(&b, "at %s", sc(t.At))
		}
	}
	fmt.Fprintf(&b, ": %s", s.Kind)
	var on []string
	on = append(on, s.Clients...)
	for _, l := range s.Links {
		on = append(on, l.Client+"→"+l.Node)
	}
	on = append(on, s.Nodes...)
	if len(on) > 0 {
		fmt.Fprintf(&b, " on %s", strings.Join(on, ", "))
	}
	if s.Key != "" {
		fmt.Fprintf(&b, " key %s", s.Key)
	}
	var params []string
	if s.Delta != 0 {
		params = append(params, "delta "+sc(s.Delta))
	}
	if s.Rate != 0 {
		params = append(params, "rate "+strconv.FormatFloat(s.Rate, 'g', -1, 64))
	}
	if s.Latency != 0 {
		params = append(params, "latency "+sc(s.Latency))
	}
	if s.Jitter != 0 {
		params = append(params, "jitter "+sc(s.Jitter))
	}
	if s.Mode != "" {
		params = append(params, "mode "+s.Mode)
	}
	if s.Direction != "" {
		params = append(params, "direction "+s.Direction)
	}
	if s.Stream != "" {
		params = append(params, "stream "+s.Stream)
	}
	if s.Toxicity != 0 {
		params = append(params, "toxicity "+strconv.FormatFloat(s.Toxicity, 'g', -1, 64))
	}
	if s.Toxic != nil {
		params = append(params, "toxic "+s.Toxic.Type)
	}
	if s.FailoverMode != "" {
		params = append(params, "failover "+s.FailoverMode)
	}
	if s.PowerLoss {
		params = append(params, "power loss")
	}
	if len(params) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(params, ", "))
	}
	switch {
	case s.UntilEnd:
		b.WriteString(", until the end of the run")
	case s.Duration > 0:
		fmt.Fprintf(&b, ", for %s", sc(s.Duration))
	}
	if s.Random {
		b.WriteString(" (random nemesis)")
	}
	if s.Optional && !s.Random {
		b.WriteString(" (optional)")
	}
	return b.String()
}

// MarshalYAML writes the spec as the mapping a scenario file holds: kind,
// the trigger's fields, optional, then the kind's own attributes (the
// exported fields of its type), for the normalised scenario.yaml.
func (s Spec) MarshalYAML() (any, error) {
	m := &yaml.Node{Kind: yaml.MappingNode}
	put := func(k string, v any) error {
		var val yaml.Node
		if err := val.Encode(v); err != nil {
			return err
		}
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, &val)
		return nil
	}
	if err := put("kind", s.Kind); err != nil {
		return nil, err
	}
	var attrs yaml.Node
	if s.Fault != nil {
		if err := attrs.Encode(s.Fault); err != nil {
			return nil, fmt.Errorf("fault %s: %w", s.Kind, err)
		}
	}
	// The kind's client comes first, as people write it.
	rest := attrs.Content
	if attrs.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(rest); i += 2 {
			if rest[i].Value == "client" {
				m.Content = append(m.Content, rest[i], rest[i+1])
				rest = slices.Delete(slices.Clone(rest), i, i+2)
				break
			}
		}
	}
	w := s.When
	var err error
	switch w.Kind {
	case history.TriggerPoint:
		err = put("point", w.Point)
		if err == nil {
			err = put("occurrence", max(w.Occurrence, 1))
		}
	case history.TriggerEvent:
		ev := map[string]string{"client": w.Client, "event": w.Event}
		if w.Node != "" {
			ev["node"] = w.Node
		}
		err = put("when", ev)
		if err == nil && w.Delay != 0 {
			err = put("delay", w.Delay)
		}
	default:
		err = put("at", w.At)
	}
	if err != nil {
		return nil, err
	}
	if attrs.Kind == yaml.MappingNode {
		m.Content = append(m.Content, rest...)
	}
	if s.Optional {
		if err := put("optional", true); err != nil {
			return nil, err
		}
	}
	return m, nil
}
