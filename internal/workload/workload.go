// Package workload holds the workloads — the protected resource and what a
// client does with it while it holds the lock — each a registered value in
// a file of its own, as fault kinds are (package faults, in the way
// toxiproxy registers its toxics), and as porcupine's model is a value.
//
// A workload does these things, and nothing outside its file knows how:
//
//   - Decode: read its own scenario fields, strictly, through a [Decoder]
//     (the scenario parser implements it with file:line:column errors),
//     with their defaults;
//   - name its protected objects and its actions (Value.Action of its
//     reads and writes);
//   - Start: set up one run's resource and run the job a client does
//     while it holds the lock, through an [Env] and a [Client] the runner
//     implements;
//   - Model: its part of the porcupine lease model (the lease-holder rules
//     are shared, model.go);
//   - Effects: its rules over what the resource accepted, judged through
//     the run's account;
//   - Words: its sentences in every report language (en, vi), which the
//     report renders; Tell: which of them a story says of its operations.
//
// The registry's order (Kind.Order) is the order `locksim list` and the
// parser's messages name the workloads in.
package workload

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/locksim/locksim/internal/algo"

	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
)

// Kind is one registered workload.
type Kind struct {
	// Name is what a scenario writes as `workload: {kind: …}` and the
	// history header records (Header.Workload).
	Name string
	// About is one line for `locksim list`.
	About string
	// Order places the workload among the others in listings.
	Order int
	// Actions are the resource actions its clients' reads and writes
	// carry (history Value.Action), in the order the report's legend
	// names them.
	Actions []Action
	// Epoch: its writes carry a number of its own (a leader's epoch)
	// when the lock issues no fencing token; a report calls that number
	// "epoch", not "token".
	Epoch bool
	// Object names its numbered protected objects: "invoice" makes
	// invoice-1..invoice-N (workload.keys); "" when its keys are not
	// numbered objects.
	Object string
	// Keyed: a client may be given keys of its own (`clients: {wN: {keys:
	// […]}}`): its numbered objects, or, for a workload without any,
	// leases of its own naming.
	Keyed bool
	// Fields are its own scenario fields, beyond the ones every workload
	// has (CommonFields); a scenario that gives one to another workload is
	// told it does not apply.
	Fields []string
	// Guards are the resource guards its writes accept: GuardFencing
	// (fencing and claim) and GuardCheckAndSet.
	Guards []string
	// Permits: the resource admits Header.Params["permits"] holders at once
	// (a semaphore): a grant is a permit, and a lock that admits one
	// client cannot run it.
	Permits bool
	// Efficiency: the lock is an efficiency lock (Kleppmann 2016,
	// "efficiency vs correctness"): two holders waste work, they corrupt
	// nothing.
	Efficiency bool
	// Unadvised are the report's advice (message keys "fix.*") that does
	// not fit the workload (a plain decrement for a stock: from a stale
	// decision it still oversells).
	Unadvised []string
	// Deduplicates, when set, names the action whose effect the resource
	// keys by an idempotency key in a run of params (a payment gateway's
	// charge, lock-theory S19), "" when it keys none: the key, not the
	// lock, keeps that effect single.
	Deduplicates func(params map[string]int64) string
	// Unkeyed are the actions that a run whose resource deduplicates
	// (Deduplicates) still leaves to the lock: writes that are not safe
	// to repeat, which no idempotency key keeps single (payment's failure
	// record overwrites whatever the job record holds, a newer run's
	// finished record too). The lease model keeps the holder rule for
	// them (Input.Unguarded false).
	Unkeyed []string
	// New returns a zero value of its own fields, to decode into.
	New func() Workload
	// Model is its part of the porcupine lease model (LeaseModel).
	Model Model
	// Effects are its rules over what the resource accepted (the effects
	// checker runs every workload's, in the registry's order: each looks
	// only at its own actions).
	Effects []Rule
	// Words are its sentences and words in the report's languages
	// (language code → message key → fmt format), which the report
	// renders beside its own: the names of its actions ("act.<action>",
	// "p.act.<action>" on the timeline), of its resource ("wl.<name>",
	// "wl.write.<name>", "wl.resource.<name>", "lane.resource.<name>"),
	// of what its reads return ("result.<result>"), its refusals
	// ("refusal.<code>", given the key), and the sentences its Tell
	// names.
	Words map[string]map[string]string
	// Tell makes, for one story of a run, the teller of its resource
	// operations; nil leaves every one to the report's generic sentences.
	Tell func(h history.History) Teller
	// Question is the anomaly kind that answers the question locksim serve
	// asks the class before a run (its words: "question.<name>"), "" when the
	// workload asks none (the class is asked about overlapping holders).
	Question string
	// Anomalies are the anomaly kinds its effects rules find that the
	// shared vocabulary (history.AnomalyKinds) lacks.
	Anomalies []AnomalyKind
}

// AnomalyKind is an anomaly kind of a workload's own: a violation of its
// resource's rules, which breaks safety (as a double charge does). Its
// words are the workload's ("kind.<name>" its name, "why.<name>" why it
// matters, "say.<name>" the report's headline around Describe's sentence).
type AnomalyKind struct {
	Name string
	// About is one English line on what it means, for `locksim list` (a
	// workload's own kind is a safety finding).
	About string
	// Rank is where a report's headline tells it among a run's findings:
	// 0 damage to the resource (first), 1 a lost update, 2 a broken lock,
	// 3 a stale write; findings of no rank come after.
	Rank int
	// Advice is what would have prevented it: the report's advice keys
	// ("fix.*"), the workload's own or the report's.
	Advice []string
	// Describe is the sentence of one finding, from the finding and the
	// history alone; false leaves it to the report's generic sentence.
	Describe func(h history.History, a finding.Anomaly) (Words, bool)
}

// AnomalyKinds names every registered workload's own anomaly kinds, in
// the registry's order.
func AnomalyKinds() []string {
	var out []string
	for _, k := range Kinds() {
		for _, a := range k.Anomalies {
			out = append(out, a.Name)
		}
	}
	return out
}

// AnomalyOf returns the workload anomaly kind named name, and whether a
// workload registered one.
func AnomalyOf(name string) (AnomalyKind, bool) {
	for _, k := range registry {
		for _, a := range k.Anomalies {
			if a.Name == name {
				return a, true
			}
		}
	}
	return AnomalyKind{}, false
}

// Teller tells a workload's resource operations in one story of a run,
// called in the history's order: it may keep what the history showed so
// far (the stock before a sale, how often a job ran).
type Teller interface {
	// Read is the sentence of an ok read of a number; false leaves it to
	// the report's generic sentence.
	Read(o history.Op) (Words, bool)
	// Write is the sentence of an accepted write; tok is the report's
	// token suffix (" with token 3"). False leaves it to the report's
	// generic sentence.
	Write(o history.Op, tok string) (Words, bool)
}

// Words is one sentence as data: a message key (the report's, or a
// workload's Words) and its arguments, in the format's order.
type Words struct {
	Key  string
	Args []any
}

// Say is the sentence of key with args.
func Say(key string, args ...any) Words { return Words{Key: key, Args: args} }

// Span is a stretch of scenario time in seconds, an argument of Words the
// report writes as a duration ("2.5s").
type Span float64

// At is an instant of scenario time in seconds, an argument of Words the
// report writes as it writes times ("30.0", after "t=").
type At float64

// Term is a message key as an argument of Words: the report writes its
// words in the page's language (a state's name, "result.<…>").
type Term string

// Advisory reports whether the workload's lock is advisory for the
// resource: several holders are allowed (permits), or an overlap only
// wastes work (an efficiency lock); the model drops its holder rules.
func (k Kind) Advisory() bool { return k.Permits || k.Efficiency }

// Dedup is the action the resource deduplicates in a run of params, ""
// for none (Kind.Deduplicates).
func (k Kind) Dedup(params map[string]int64) string {
	if k.Deduplicates == nil {
		return ""
	}
	return k.Deduplicates(params)
}

// Resource guards a workload may accept (Kind.Guards).
const (
	// GuardFencing: workload.fencing and workload.claim apply (the
	// resource refuses a token lower than the highest it has seen).
	GuardFencing = "fencing"
	// GuardCheckAndSet: workload.check_and_set applies (the resource
	// refuses an owner token other than its currlock).
	GuardCheckAndSet = "check_and_set"
)

// Workload is one workload's own scenario fields, decoded, and what its
// clients do. Implementations are the kinds' own types; the exported
// fields of their structs, with yaml tags, are what a normalised scenario
// writes.
type Workload interface {
	// Decode reads the workload's own fields (Kind.Fields) from d,
	// reporting every problem through d, and fills their defaults.
	Decode(d Decoder)
	// Params are the workload's own numbers the checkers need (history
	// Header.Params, history.Param* names); wall turns a scenario duration
	// into wall ns.
	Params(wall func(time.Duration) int64) map[string]int64
	// Start returns one run's resource, shared by the run's clients.
	Start(env Env) Run
}

// Fencer is implemented by a workload whose own fields make the resource
// refuse a stale fencing token (a leader's epoch check), beyond
// workload.fencing.
type Fencer interface {
	Fences() bool
}

// Decoder reads one scenario's workload mapping for a workload. Every
// method reports what is wrong itself (with the field's position), so a
// workload only says what it needs. A field that is absent (or null) is
// "not present"; a present field that is wrong is reported and also "not
// present" to the workload.
type Decoder interface {
	// Has reports whether the field is in the mapping (and not null).
	Has(field string) bool
	// Bool reads true or false.
	Bool(field string) (bool, bool)
	// Int reads an integer in [lo, hi], explained by why.
	Int(field string, lo, hi int, why string) (int, bool)
	// Duration reads a duration (scenario time); with min set (≥ 0 or
	// > 0) a value below it is refused.
	Duration(field string, min faults.Bound) (time.Duration, bool)
	// Enum reads one of values; what names it in messages.
	Enum(field, what string, values []string) (string, bool)
	// Required reports the field missing, with a hint of what to write.
	Required(field, hint string)
	// Errorf reports a problem at the field (its value, or its key, or
	// the mapping when the field is absent).
	Errorf(field, format string, args ...any)
	// Algorithm is the scenario's algorithm, "" when it is not known (the
	// parser reported it already); Traits are its traits as parsing goes
	// (a lock client process's declared ones).
	Algorithm() string
	Traits() algo.Traits
	// Algorithms lists the registered algorithms whose traits satisfy
	// keep, for a message ("a, b or c").
	Algorithms(keep func(algo.Traits) bool) string
	// MaxClients is the most clients a scenario may have.
	MaxClients() int
}

// CommonFields are the fields every workload has: its kind, its objects,
// the client's timing and the resource's guards.
func CommonFields() []string {
	return []string{"kind", "keys", "read", "job", "fencing", "check_and_set", "claim", "until_validity", "rounds", "round_delay"}
}

// Fields are every workload field a scenario may write: the common ones,
// then each workload's own, in the registry's order.
func Fields() []string {
	out := CommonFields()
	for _, k := range Kinds() {
		for _, f := range k.Fields {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// With lists the workloads whose registration has keep, in their Order.
func With(keep func(Kind) bool) []string {
	var out []string
	for _, k := range Kinds() {
		if keep(k) {
			out = append(out, k.Name)
		}
	}
	return out
}

// Objects yields a workload's protected objects in order ("invoice-1",
// "invoice-2", …, keys of them), each named when it is reached: a client
// that works through a few of 100,000 invoices names only those. A
// workload without numbered objects yields none.
func (k Kind) Objects(keys int) iter.Seq[string] {
	return func(yield func(string) bool) {
		if k.Object == "" {
			return
		}
		for i := 1; i <= keys; i++ {
			if !yield(k.ObjectKey(i)) {
				return
			}
		}
	}
}

// EffectActions are the names of its actions the lock protects
// (Action.Effect: a charge, a sale, a job run), in its Actions' order.
func (k Kind) EffectActions() []string {
	var out []string
	for _, a := range k.Actions {
		if a.Effect {
			out = append(out, a.Name)
		}
	}
	return out
}

// ObjectKey names object i (1-based) of the workload.
func (k Kind) ObjectKey(i int) string { return k.Object + "-" + strconv.Itoa(i) }

// Action is one resource action of a workload.
type Action struct {
	// Name is the action's code, as the history records it.
	Name string
	// Effect marks what the lock protects — a charge, a sale, a counter
	// write, a job run — drawn as a big mark on the timeline; other writes
	// (a claim, a mark-paid, an exit) are drawn small.
	Effect bool
	// Num: the write carries the number it wrote (Value.Num), shown with
	// its timeline label ("set 3").
	Num bool
	// Resource names what answers the action's writes when that is not
	// the workload's resource ("lane.resource.<workload>"): a job's
	// completion and failure record go to the job store, its charge to
	// the payment gateway. Its words are the workload's
	// "resource.<Resource>" (a timeline row's label, a tooltip's "by the
	// job store"); "" is the workload's resource.
	Resource string
}

// ActionClaim is the claim every guarded workload may make right after
// acquiring: it registers the lease's fencing token at the object (claim
// first, lock-theory §7.2), or with check_and_set stores its owner token
// as the object's currlock (§7.3).
const ActionClaim = "claim"

// registry holds the registered workloads by name.
var registry = map[string]Kind{}

// Register adds a workload; it panics on a duplicate or incomplete
// registration (a programming error, found at init).
func Register(k Kind) {
	if k.Name == "" || k.About == "" || k.Order == 0 || k.New == nil {
		panic(fmt.Sprintf("workload: incomplete registration of %q", k.Name))
	}
	if _, dup := registry[k.Name]; dup {
		panic(fmt.Sprintf("workload: %q registered twice", k.Name))
	}
	for _, a := range k.Anomalies {
		if _, dup := AnomalyOf(a.Name); dup || slices.Contains(history.AnomalyKinds(), a.Name) {
			panic(fmt.Sprintf("workload: anomaly kind %q of %q is registered twice", a.Name, k.Name))
		}
	}
	for _, o := range registry {
		if o.Order == k.Order {
			panic(fmt.Sprintf("workload: %q and %q have the same order %d", o.Name, k.Name, k.Order))
		}
		for _, a := range k.Actions {
			if slices.ContainsFunc(o.Actions, func(b Action) bool { return b.Name == a.Name }) {
				panic(fmt.Sprintf("workload: action %q of %q is %q's too", a.Name, k.Name, o.Name))
			}
		}
	}
	registry[k.Name] = k
	if k.Permits {
		history.RequireParams(k.Name, history.ParamPermits)
	}
}

// Lookup returns the workload registered under name.
func Lookup(name string) (Kind, bool) {
	k, ok := registry[name]
	return k, ok
}

// Default is the workload of a scenario that names none.
const Default = Payment

// Of is the workload of a history: the one its header names, or the
// default workload when the header names none a registration knows (a
// hand-written history).
func Of(h history.Header) Kind {
	if k, ok := registry[h.Workload]; ok {
		return k
	}
	return registry[Default]
}

// Kinds returns every registered workload, in their Order.
func Kinds() []Kind {
	return slices.SortedFunc(maps.Values(registry), func(a, b Kind) int { return cmp.Compare(a.Order, b.Order) })
}

// Names returns the registered workloads' names, in their Order.
func Names() []string { return With(func(Kind) bool { return true }) }

// ResourceOf is the message key of the resource that answers writes of
// action: "resource.<Resource>" of an action with a resource of its own,
// "" for the workload's resource (or an action not registered).
func ResourceOf(action string) string {
	if a, ok := ActionOf(action); ok && a.Resource != "" {
		return "resource." + a.Resource
	}
	return ""
}

// ActionOf returns the registered action named name, and whether there is
// one.
func ActionOf(name string) (Action, bool) {
	for _, k := range registry {
		for _, a := range k.Actions {
			if a.Name == name {
				return a, true
			}
		}
	}
	return Action{}, false
}
