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
	"fmt"
	"slices"
	"sort"

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
}

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
	if k.Name == "" || k.About == "" || k.Order == 0 {
		panic(fmt.Sprintf("workload: incomplete registration of %q", k.Name))
	}
	if _, dup := registry[k.Name]; dup {
		panic(fmt.Sprintf("workload: %q registered twice", k.Name))
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
	out := make([]Kind, 0, len(registry))
	for _, k := range registry {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Order < out[j].Order })
	return out
}

// Names returns the registered workloads' names, in their Order.
func Names() []string {
	var out []string
	for _, k := range Kinds() {
		out = append(out, k.Name)
	}
	return out
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
