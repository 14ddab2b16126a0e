// Package faults holds the fault kinds a nemesis injects, each a registered
// value in a file of its own (in the way toxiproxy registers its toxics),
// the seeded plan of when they fire, and the generic scheduler that carries
// a plan out.
//
// A kind does five things, and nothing outside its file knows how:
//
//   - Decode: read its own attributes from a scenario's fault mapping,
//     strictly, through a [Decoder] (the scenario parser implements it with
//     file:line:column errors);
//   - Resolve: turn them into a [history.FaultStep] — concrete targets drawn
//     from the run's seed, every time in wall ns, the step's effect in the
//     checkers' terms;
//   - Apply: start the step against the run's [Env] (links, nodes, clients)
//     and return how to undo it;
//   - Encode: the inverse of Decode and Resolve, its attributes from a
//     resolved step, so that a step written as a fault ([SpecOf], what
//     `locksim shrink` and `locksim explore` write) resolves to the same
//     step;
//   - optionally Draw: pick its attributes at random for the Jepsen-style
//     random nemesis ([Drawer]).
//
// When a step fires is one [Trigger]: at a time, on a client event, or at a
// point of a client's work; the [Scheduler] waits for it, applies the step,
// records it as a fault operation, holds it for its duration and undoes it.
//
// Durations in a scenario (and in a kind's decoded attributes) are scenario
// time; a resolved step holds wall time, the scenario time divided by the
// run's time scale.
package faults

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// Kind is one registered fault kind.
type Kind struct {
	// Name is what a scenario writes as `kind:`.
	Name string
	// About is one line for `locksim list`.
	About string
	// Fields are the kind's own attribute names, beyond the ones every
	// fault has (kind, optional) and the trigger fields it accepts.
	Fields []string
	// Triggers are the trigger kinds the kind accepts (history.Trigger*),
	// the default first: a fault that names none gets TriggerAt at 0s, or
	// must name a point when TriggerPoint is the only one.
	Triggers []string
	// PointHint explains the point of a point-triggered kind in the
	// "missing required field" message ("where the client freezes").
	PointHint string
	// Points are the points a point-triggered kind may fire at.
	Points []string
	// RandomPoint allows `point: random` (a work point drawn from the
	// seed).
	RandomPoint bool
	// Nemesis: the random nemesis may draw this kind (it implements
	// Drawer).
	Nemesis bool
	// New returns a zero value of the kind's attributes, to decode into.
	New func() Fault
}

// Fault is one fault kind's attributes, in scenario time, and its
// behaviour. Implementations are the kinds' own types; the exported fields
// of their structs, with yaml tags, are what a normalised scenario writes.
type Fault interface {
	// Decode reads the kind's attributes (Kind.Fields) from d, reporting
	// every problem through d.
	Decode(d Decoder)
	// Resolve fills s with the kind's resolved targets, effect and
	// parameters (wall ns), drawing selectors from r.Rand. s.ID, s.Kind
	// and s.Trigger are already set.
	Resolve(r *Resolver, s *history.FaultStep) error
	// Apply starts the step on env. undo ends it; a nil undo means the
	// step was an instant with nothing to undo (a clock jump, a crash of a
	// client). Apply may block only as long as its action takes.
	Apply(ctx context.Context, env Env, s history.FaultStep) (undo Undo, err error)
	// Encode sets the attributes (Kind.Fields: concrete targets, scenario
	// time) from a step Resolve made: the inverse of Decode and Resolve, so
	// that the step written as a fault (SpecOf) resolves to the same step
	// again. An error says no fault of the kind can write the step.
	Encode(e Encoder, s history.FaultStep) error
}

// TriggerFields are the scenario fields of each trigger kind
// (history.Trigger*), the first the one that names the trigger: "at" for
// a time, "when" (and "delay") for a client event, "point" (and
// "occurrence") for a point of the client's work. The map is the caller's.
func TriggerFields() map[string][]string {
	return map[string][]string{
		history.TriggerAt:    {"at"},
		history.TriggerEvent: {"when", "delay"},
		history.TriggerPoint: {"point", "occurrence"},
	}
}

// Undo ends an applied step. ctx bounds slow undos (a node restart).
type Undo func(ctx context.Context) error

// Drawer is implemented by kinds the random nemesis can draw: Draw sets the
// fault's attributes for a step of window (scenario time) from r.Rand.
type Drawer interface {
	Draw(r *Resolver, window time.Duration)
}

// Decoder reads one scenario fault mapping's attributes for a kind. Every
// method reports what is wrong itself (with the field's position), so a
// kind only says what it needs. A field that is absent (or null) is "not
// present"; a present field that is wrong is reported and also "not
// present" to the kind.
type Decoder interface {
	// Has reports whether the field is in the mapping (and not null).
	Has(field string) bool
	// Duration reads a duration (scenario time). With min set (≥ 0 or
	// > 0) a value below it is refused.
	Duration(field string, min Bound) (time.Duration, bool)
	// Number reads a finite number in (lo, hi], explained by why.
	Number(field string, lo, hi float64, why string) (float64, bool)
	// String reads a non-empty string.
	String(field string) (string, bool)
	// Enum reads one of values; what names it in messages ("partition
	// mode").
	Enum(field, what string, values []string) (string, bool)
	// Client reads one client name (w1..wN).
	Client(field string) (string, bool)
	// Targets reads a list of node or client names, or one selector
	// (one|minority|majority|all); what is "node" or "client".
	Targets(field, what string) ([]string, bool)
	// Required reports the field missing, with a hint of what to write.
	Required(field, hint string)
	// Errorf reports a problem at the field (its value, or its key when
	// it has none); field "" is the fault mapping itself.
	Errorf(field, format string, args ...any)
	// RunDuration is the scenario's run duration (0 when unknown).
	RunDuration() time.Duration
}

// Bound is the lower bound of a decoded duration.
type Bound int

// Bounds of Decoder.Duration.
const (
	AnyDuration Bound = iota // negative allowed (a backward clock jump)
	NonNegative              // ≥ 0
	Positive                 // > 0
)

// Resolver is what resolving a plan needs: the seed's generator and the
// run's names and time scale.
type Resolver struct {
	Rand    *rand.Rand
	Nodes   []string // n1, n2, … in order
	Clients []string // w1, w2, … in order
	// Scale is the run's time scale: wall = scenario / Scale.
	Scale float64
	// TTL is the scenario's lease TTL, scenario time (the random nemesis
	// sizes its latencies and jumps by it).
	TTL time.Duration
	// Replicas and Sentinels of a replicated run (topology.go): names a
	// step may target beside the masters.
	Replicas, Sentinels []string
}

// Wall converts a scenario duration to wall ns.
func (r *Resolver) Wall(d time.Duration) int64 { return int64(float64(d) / r.Scale) }

// Select resolves a target list: concrete names are kept; a single selector
// picks one|minority|majority|all of pool from r.Rand, in pool order. An
// empty list gives def.
func (r *Resolver) Select(sel, pool, def []string) ([]string, error) {
	if len(sel) == 0 {
		return slices.Clone(def), nil
	}
	if len(sel) == 1 {
		n := len(pool)
		k := -1
		switch sel[0] {
		case SelectOne:
			k = 1
		case SelectMinority:
			k = max(1, (n-1)/2)
		case SelectMajority:
			k = n/2 + 1
		case SelectAll:
			return slices.Clone(pool), nil
		}
		if k >= 0 {
			perm := r.Rand.Perm(n)[:min(k, n)]
			slices.Sort(perm)
			out := make([]string, len(perm))
			for i, j := range perm {
				out[i] = pool[j]
			}
			return out, nil
		}
	}
	for _, s := range sel {
		if !slices.Contains(pool, s) && !slices.Contains(r.Replicas, s) && !slices.Contains(r.Sentinels, s) {
			return nil, fmt.Errorf("unknown target %q (have %s)", s, strings.Join(pool, ", "))
		}
	}
	return slices.Clone(sel), nil
}

// pick draws one selector's worth of pool (a random nemesis step).
func (r *Resolver) pick(sel string, pool []string) []string {
	out, _ := r.Select([]string{sel}, pool, nil)
	return out
}

// Selectors choose nodes or clients from the run's seed.
const (
	SelectOne      = "one"
	SelectMinority = "minority"
	SelectMajority = "majority"
	SelectAll      = "all"
)

// Selectors lists the selectors, in the order messages name them.
func Selectors() []string { return []string{SelectOne, SelectMinority, SelectMajority, SelectAll} }

// linkTargets resolves a link fault's targets into its client→node links:
// the nodes it names (it must name some) and the clients it names, every
// client when it names none. The error names a target the run lacks.
func (r *Resolver) linkTargets(nodes, clients []string) ([]history.Link, error) {
	ns, err := r.Select(nodes, r.Nodes, nil)
	if err != nil {
		return nil, err
	}
	cs, err := r.Select(clients, r.Clients, r.Clients)
	if err != nil {
		return nil, err
	}
	return links(cs, ns), nil
}

// links is every link clients × nodes.
func links(clients, nodes []string) []history.Link {
	out := make([]history.Link, 0, len(clients)*len(nodes))
	for _, c := range clients {
		for _, n := range nodes {
			out = append(out, history.Link{Client: c, Node: n})
		}
	}
	return out
}

// Env is the run as a fault step acts on it; the runner implements it.
type Env interface {
	// Link is the proxied connection from client to node.
	Link(client, node string) (Link, error)
	// Node is a Redis node by name.
	Node(name string) (Node, error)
	// Client is a lock client by name.
	Client(name string) (Client, error)
}

// Link is one client→node proxy. Times are wall time.
type Link interface {
	Cut(mode, direction string) error
	Uncut() error
	AddLatency(latency, jitter time.Duration) error
	RemoveLatency() error
	Reset() error
	RemoveReset() error
}

// Node is one Redis node. Times are wall time.
type Node interface {
	Kill() error
	Restart(ctx context.Context) error
	Pause() error
	Resume() error
	// ShiftClock moves the node's clock by delta: every key's remaining
	// TTL changes by −delta (lock-theory §6.3).
	ShiftClock(ctx context.Context, delta time.Duration) error
	// DeleteKey deletes key on the node, as a janitor or operator would.
	DeleteKey(ctx context.Context, key string) error
}

// Client is one lock client as faults see it.
type Client interface {
	// Freeze stops the world of the client until Thaw: its job, renewer
	// and timers wait at their next gate.
	Freeze()
	Thaw()
	// Crash stops the client for good.
	Crash()
	// Starve holds back only the client's lease renewer until Feed.
	Starve()
	Feed()
	// Clock is the client's own clock.
	Clock() Clock
}

// ThawHearer is a Client whose thaw can be heard taking effect: a lock
// client process, which a busy machine may leave stopped for a while
// after its SIGCONT (issue 32).
type ThawHearer interface {
	// ThawHeard ends one Freeze as Thaw does, and returns when the client
	// was first heard from again and its round trip once running (wall
	// time; history Value.ThawHeard, ThawRTT); ok false when not
	// measured.
	ThawHeard(ctx context.Context) (heard time.Time, rtt time.Duration, ok bool)
}

// Clock is a client's own clock as faults change it (wall time).
type Clock interface {
	Jump(d time.Duration)
	SetRate(rate float64)
}

// registry holds the registered kinds by name.
var registry = map[string]Kind{}

// Register adds a kind; it panics on a duplicate or incomplete
// registration (a programming error, found at init).
func Register(k Kind) {
	if k.Name == "" || k.New == nil || len(k.Triggers) == 0 || k.About == "" {
		panic(fmt.Sprintf("faults: incomplete registration of kind %q", k.Name))
	}
	if _, dup := registry[k.Name]; dup {
		panic(fmt.Sprintf("faults: kind %q registered twice", k.Name))
	}
	if _, ok := k.New().(Drawer); k.Nemesis && !ok {
		panic(fmt.Sprintf("faults: kind %q is drawn by the nemesis but has no Draw", k.Name))
	}
	registry[k.Name] = k
}

// Lookup returns the kind registered under name.
func Lookup(name string) (Kind, bool) {
	k, ok := registry[name]
	return k, ok
}

// Kinds returns every registered kind, sorted by name.
func Kinds() []Kind {
	out := make([]Kind, 0, len(registry))
	for _, k := range registry {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names returns the registered kinds' names, sorted.
func Names() []string {
	var out []string
	for _, k := range Kinds() {
		out = append(out, k.Name)
	}
	return out
}

// NemesisNames returns the names of the kinds the random nemesis can draw,
// sorted.
func NemesisNames() []string {
	var out []string
	for _, k := range Kinds() {
		if k.Nemesis {
			out = append(out, k.Name)
		}
	}
	return out
}

// Accepts reports whether the kind accepts the trigger kind t.
func (k Kind) Accepts(t string) bool { return slices.Contains(k.Triggers, t) }

// Wall-time helpers for kinds.
func wall(ns int64) time.Duration { return time.Duration(ns) }
