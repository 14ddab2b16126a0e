package faults

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/scenario"
)

// Step is one resolved fault of a run's plan: concrete targets and times,
// all in scenario time. Steps with a Trigger start Delay after their client
// event; the others start At after time zero (≤ 0: before any client
// starts).
type Step struct {
	// ID numbers the steps of a plan from 1.
	ID   int
	Kind string
	// At is the start, scenario time (ignored when Trigger is set).
	At time.Duration
	// Trigger, when set, starts the step Delay after a client event.
	Trigger *scenario.When
	Delay   time.Duration
	// Duration is the active window; 0 means until the end of the run
	// (clock-jump: instantaneous).
	Duration time.Duration
	// Nodes and Clients are the concrete targets. A partition, latency or
	// reset acts on every link Clients × Nodes.
	Nodes   []string
	Clients []string
	// Mode and Direction of a partition.
	Mode, Direction string
	// Latency and Jitter of a latency step.
	Latency, Jitter time.Duration
	// Delta of a clock-jump.
	Delta time.Duration
	// Rate of a clock-rate step.
	Rate float64
	// Restart: a crashed node restarts RestartAfter after the crash.
	Restart      bool
	RestartAfter time.Duration
	// Point and Occurrence of a client pause.
	Point      string
	Occurrence int
	// Random marks a step drawn by the random nemesis.
	Random bool
}

// Plan is the resolved fault schedule of one run. It depends only on the
// scenario and the seed.
type Plan struct {
	Seed  int64
	Steps []Step
}

// Lines is the plan in plain words, one line per step, for the history
// header and the log.
func (p Plan) Lines() []string {
	out := make([]string, 0, len(p.Steps))
	for _, s := range p.Steps {
		out = append(out, s.String())
	}
	return out
}

// Pauses returns the client pauses of the plan for the pause gates; scale
// converts scenario time to wall time.
func (p Plan) Pauses(scale float64) []Pause {
	var out []Pause
	for _, s := range p.Steps {
		if !s.Gated() {
			continue
		}
		out = append(out, Pause{Client: s.Clients[0], Point: s.Point, Occurrence: s.Occurrence,
			Duration: time.Duration(float64(s.Duration) / scale), Scenario: s.Duration,
			Crash: s.Kind == scenario.KindCrashClient})
	}
	return out
}

// Gated reports whether the step fires at a point of the client's work
// (through its pause gate) rather than at a time or an event: a planned
// pause, or a crash-client with a point.
func (s Step) Gated() bool {
	switch s.Kind {
	case scenario.KindPause:
		return !s.Random
	case scenario.KindCrashClient:
		return s.Point != ""
	}
	return false
}

// Links returns the link targets "w1→n4" of a network step.
func (s Step) Links() []string {
	var out []string
	for _, c := range s.Clients {
		for _, n := range s.Nodes {
			out = append(out, c+"→"+n)
		}
	}
	return out
}

// Targets are the step's targets as the history records them.
func (s Step) Targets() []string {
	switch s.Kind {
	case scenario.KindPartition, scenario.KindLatency, scenario.KindReset:
		return s.Links()
	case scenario.KindPause, scenario.KindStarveRenewals, scenario.KindCrashClient:
		return s.Clients
	}
	if len(s.Nodes) > 0 {
		return s.Nodes
	}
	return s.Clients
}

// Detail is one plain sentence about what the step does, scenario time.
func (s Step) Detail() string {
	who := func() string {
		if len(s.Nodes) > 0 {
			return join(s.Nodes)
		}
		return join(s.Clients)
	}
	switch s.Kind {
	case scenario.KindPartition:
		how := "silently dropped"
		if s.Mode == "refuse" {
			how = "refused"
		}
		if s.Direction == "replies" {
			how = "lost on the way back (commands still reach Redis)"
		}
		return fmt.Sprintf("%s cut from %s: traffic %s", join(s.Clients), join(s.Nodes), how)
	case scenario.KindLatency:
		d := fmt.Sprintf("replies from %s to %s delayed by %s", join(s.Nodes), join(s.Clients), s.Latency)
		if s.Jitter > 0 {
			d += fmt.Sprintf(" ± %s", s.Jitter)
		}
		return d
	case scenario.KindReset:
		return fmt.Sprintf("connections from %s to %s reset (TCP RST)", join(s.Clients), join(s.Nodes))
	case scenario.KindCrash:
		if s.Restart {
			return fmt.Sprintf("%s killed (kill -9), restarted after %s", join(s.Nodes), s.RestartAfter)
		}
		return fmt.Sprintf("%s killed (kill -9), down until the end of the run", join(s.Nodes))
	case scenario.KindPauseNode:
		return fmt.Sprintf("%s stopped (SIGSTOP) for %s", join(s.Nodes), s.Duration)
	case scenario.KindClockJump:
		dir, d := "forward", s.Delta
		if d < 0 {
			dir, d = "backward", -d
		}
		if len(s.Nodes) > 0 {
			return fmt.Sprintf("%s's clock jumped %s %s", who(), dir, d)
		}
		return fmt.Sprintf("%s's own clock jumped %s %s", who(), dir, d)
	case scenario.KindClockRate:
		if len(s.Nodes) > 0 {
			return fmt.Sprintf("%s's clock runs at %g× speed", who(), s.Rate)
		}
		return fmt.Sprintf("%s's own clock runs at %g× speed", who(), s.Rate)
	case scenario.KindPause:
		return fmt.Sprintf("stop-the-world pause of %s", s.Duration)
	case scenario.KindStarveRenewals:
		return fmt.Sprintf("%s's lease renewer starved for %s while its job runs on", join(s.Clients), s.Duration)
	case scenario.KindCrashClient:
		return fmt.Sprintf("%s crashed: it stops for good and never releases its lock", join(s.Clients))
	}
	return s.Kind
}

// String is the step's line in the plan: when, what, how long.
func (s Step) String() string {
	var when string
	switch {
	case s.Gated():
		when = fmt.Sprintf("the %s time %s reaches %s", ordinal(s.Occurrence), s.Clients[0], s.Point)
		if s.Occurrence <= 1 {
			when = fmt.Sprintf("when %s first reaches %s", s.Clients[0], s.Point)
		}
	case s.Trigger != nil && s.Trigger.Event == scenario.EventGrantedBy:
		when = fmt.Sprintf("%s after %s first holds the lock on %s", s.Delay, s.Trigger.Client, s.Trigger.Node)
	case s.Trigger != nil:
		when = fmt.Sprintf("%s after %s's acquire first returns ok", s.Delay, s.Trigger.Client)
	case s.At <= 0:
		when = "before the clients start"
	default:
		when = "at " + s.At.String()
	}
	line := fmt.Sprintf("#%d %s: %s — %s", s.ID, when, s.Kind, s.Detail())
	switch {
	case s.Kind == scenario.KindClockJump || s.Kind == scenario.KindPause || s.Kind == scenario.KindCrash || s.Kind == scenario.KindCrashClient,
		s.Kind == scenario.KindPauseNode || s.Kind == scenario.KindStarveRenewals: // the detail says how long
	case s.Duration > 0:
		line += fmt.Sprintf(", for %s", s.Duration)
	default:
		line += ", until the end of the run"
	}
	if s.Random {
		line += " (random nemesis)"
	}
	return line
}

func join(xs []string) string { return strings.Join(xs, ", ") }

// ordinal is "2nd", "3rd", "11th", …
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// NewPlan resolves sc's faults and random nemesis into a plan, drawing every
// choice (selectors, random points, nemesis kinds and targets) from seed
// alone. nodes and clients are the run's names in order.
func NewPlan(sc scenario.Scenario, seed int64, nodes, clients []string) (Plan, error) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6e656d65736973)) // "nemesis"
	plan := Plan{Seed: seed}
	for i, f := range sc.Faults {
		s, err := resolve(rng, f, sc, nodes, clients)
		if err != nil {
			return Plan{}, fmt.Errorf("faults[%d] (%s): %w", i, f.Kind, err)
		}
		plan.Steps = append(plan.Steps, s)
	}
	if nm := sc.Nemesis; nm != nil && nm.Interval > 0 && len(nm.Faults) > 0 {
		start := time.Duration(nm.Start)
		if start == 0 {
			start = nm.Interval.D()
		}
		for at := start; at+nm.Duration.D() < sc.Duration.D(); at += nm.Interval.D() {
			kind := nm.Faults[rng.IntN(len(nm.Faults))]
			plan.Steps = append(plan.Steps, randomStep(rng, kind, at, nm.Duration.D(), sc, nodes, clients))
		}
	}
	for i := range plan.Steps {
		plan.Steps[i].ID = i + 1
	}
	return plan, nil
}

// Select resolves a target list: concrete names are kept; a single
// selector picks one|minority|majority|all of pool from rng, in pool order.
// An empty list gives def.
func Select(rng *rand.Rand, sel []string, pool []string, def []string) ([]string, error) {
	if len(sel) == 0 {
		return def, nil
	}
	if len(sel) == 1 {
		n := len(pool)
		k := -1
		switch sel[0] {
		case scenario.SelectOne:
			k = 1
		case scenario.SelectMinority:
			k = max(1, (n-1)/2)
		case scenario.SelectMajority:
			k = n/2 + 1
		case scenario.SelectAll:
			return slices.Clone(pool), nil
		}
		if k >= 0 {
			perm := rng.Perm(n)[:min(k, n)]
			slices.Sort(perm)
			out := make([]string, len(perm))
			for i, j := range perm {
				out[i] = pool[j]
			}
			return out, nil
		}
	}
	for _, s := range sel {
		if !slices.Contains(pool, s) {
			return nil, fmt.Errorf("unknown target %q (have %s)", s, join(pool))
		}
	}
	return slices.Clone(sel), nil
}

var workPoints = []string{scenario.PointAfterAcquire, scenario.PointBeforeWrite, scenario.PointBeforeRelease}

func resolve(rng *rand.Rand, f scenario.Fault, sc scenario.Scenario, nodes, clients []string) (Step, error) {
	s := Step{Kind: f.Kind, Duration: f.Duration.D(), Mode: f.Mode, Direction: f.Direction,
		Latency: f.Latency.D(), Jitter: f.Jitter.D(), Delta: f.Delta.D(), Rate: f.Rate,
		Point: f.Point, Occurrence: max(f.Occurrence, 1)}
	if f.At != nil {
		s.At = f.At.D()
	}
	if f.When != nil {
		w := *f.When
		s.Trigger, s.Delay = &w, f.Delay.D()
	}
	if f.RestartAfter != nil {
		s.Restart, s.RestartAfter = true, f.RestartAfter.D()
	}
	if s.Mode == "" {
		s.Mode = "drop"
	}
	if s.Direction == "" {
		s.Direction = "both"
	}
	var err error
	switch f.Kind {
	case scenario.KindPause:
		s.Clients = []string{f.Client}
		if s.Point == scenario.PointRandom {
			s.Point = workPoints[rng.IntN(len(workPoints))]
		}
		return s, nil
	case scenario.KindStarveRenewals, scenario.KindCrashClient:
		s.Clients = []string{f.Client}
		if !slices.Contains(clients, f.Client) {
			return s, fmt.Errorf("unknown client %q (have %s)", f.Client, join(clients))
		}
		return s, nil
	case scenario.KindPartition, scenario.KindLatency, scenario.KindReset:
		if s.Nodes, err = Select(rng, f.Nodes, nodes, nil); err != nil {
			return s, err
		}
		s.Clients, err = Select(rng, f.Clients, clients, clients)
		return s, err
	case scenario.KindCrash, scenario.KindPauseNode:
		s.Nodes, err = Select(rng, f.Nodes, nodes, nil)
		return s, err
	case scenario.KindClockJump, scenario.KindClockRate:
		if len(f.Nodes) > 0 {
			s.Nodes, err = Select(rng, f.Nodes, nodes, nil)
		} else {
			s.Clients, err = Select(rng, f.Clients, clients, nil)
		}
		return s, err
	}
	return s, fmt.Errorf("unknown fault kind %q", f.Kind)
}

// randomStep draws one nemesis fault of kind at scenario time at.
func randomStep(rng *rand.Rand, kind string, at, d time.Duration, sc scenario.Scenario, nodes, clients []string) Step {
	pick := func(sel string, pool []string) []string {
		out, _ := Select(rng, []string{sel}, pool, nil)
		return out
	}
	s := Step{Kind: kind, At: at, Duration: d, Random: true, Mode: "drop", Direction: "both", Occurrence: 1}
	ttl := sc.TTL.D()
	switch kind {
	case scenario.KindPartition:
		// Either a minority of nodes from every client, or one client from
		// a majority (Jepsen's partition-random-halves, on links).
		if rng.IntN(2) == 0 {
			s.Nodes, s.Clients = pick(scenario.SelectMinority, nodes), slices.Clone(clients)
		} else {
			s.Nodes, s.Clients = pick(scenario.SelectMajority, nodes), pick(scenario.SelectOne, clients)
		}
		if rng.IntN(4) == 0 {
			s.Direction = "replies"
		}
	case scenario.KindLatency:
		s.Nodes, s.Clients = pick(scenario.SelectOne, nodes), slices.Clone(clients)
		s.Latency = max(ttl/20, time.Millisecond)
		s.Jitter = s.Latency / 2
	case scenario.KindReset:
		s.Nodes, s.Clients = pick(scenario.SelectOne, nodes), slices.Clone(clients)
	case scenario.KindCrash:
		s.Nodes = pick(scenario.SelectOne, nodes)
		s.Restart, s.RestartAfter = true, d
		s.Duration = 0
	case scenario.KindPauseNode:
		s.Nodes = pick(scenario.SelectOne, nodes)
	case scenario.KindClockJump:
		s.Nodes = pick(scenario.SelectOne, nodes)
		s.Delta = ttl / 2
		if rng.IntN(2) == 0 {
			s.Delta = -s.Delta
		}
		s.Duration = 0
	case scenario.KindClockRate:
		s.Nodes = pick(scenario.SelectOne, nodes)
		s.Rate = 1.5
	case scenario.KindPause:
		s.Clients = pick(scenario.SelectOne, clients)
		s.Point = workPoints[rng.IntN(len(workPoints))]
		// A nemesis pause fires at the client's next point at or after
		// the slot; Occurrence 0 marks "next" for the runner.
		s.Occurrence = 0
	}
	return s
}
