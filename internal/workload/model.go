package workload

import (
	"fmt"
	"slices"
	"strings"

	"github.com/anishathalye/porcupine"

	"github.com/locksim/locksim/internal/history"
)

// Input is the porcupine input of one client op on a key.
type Input struct {
	F      history.Func
	Client string
	Key    string
	Action string
	Fence  int64
	// Num is the number a write wrote (HasNum false when none).
	Num    int64
	HasNum bool
	// Free drops the holder rules (see LeaseModel): the key has no lock
	// ops (a lock-free algorithm), or the workload's lock is advisory for
	// the resource (Kind.Advisory).
	Free bool
	// Unguarded drops only the holder rule of accepted writes: those of a
	// run whose resource deduplicates by an idempotency key
	// (Kind.Deduplicates), whose key, not the lock, keeps the effect
	// single, but for the workload's Kind.Unkeyed actions. Acquire, extend, release
	// and fence refusals keep their rules: the key does not make the lock
	// correct.
	Unguarded bool
	// Nodes, of a multi-node lock (MultiNode), are the nodes an acquire
	// was granted by, or a release removed a key from (the nodes' own
	// record where they were observed), sorted and joined by commas; ""
	// when unknown.
	Nodes     string
	MultiNode bool
	// Fenced: the resource checks fencing tokens (history
	// Header.FencingEnforced); Fence is then the op's token.
	Fenced bool
	// CheckAndSet: the resource stores the lock's unique token as its
	// currlock at a holder's first write and refuses any other (history
	// Header.CheckAndSet; antirez 2016).
	CheckAndSet bool
	// Index is the op's history index.
	Index int
}

// Output is the porcupine output of one client op.
type Output struct {
	// Type is ok, fail or info (info: outcome unknown, open return).
	Type    history.Type
	Removed bool
	// Result is the word a read returned, or a write recorded of what it
	// found (history Value.Result).
	Result string
	// FenceRefusal marks a refused write the resource refused for its
	// lease: a stale fencing token, or an owner token that is no longer
	// its currlock (see the holder rules on LeaseModel).
	FenceRefusal bool
	// Refusal is the resource's reason to refuse a write (history
	// Refusal*, or a workload's own), "" for none.
	Refusal string
	// Num is the number a read returned (HasNum false when none).
	Num    int64
	HasNum bool
}

// State is the per-key state of a lease model: the lease holder, and the
// workload's resource state of the key (Model; a comparable value).
type State struct {
	Holder string // client holding the lease, "" for none
	// Nodes are the nodes the holder was granted by, of a multi-node lock
	// (Input.Nodes; "" when unknown).
	Nodes string
	// Fence is the holder's fencing token (0 when none or unknown), and
	// Touched whether the holder has read or written the resource since
	// its grant (see the fenced rule on LeaseModel).
	Fence   int64
	Touched bool
	// Claimant is the client whose write the resource took last, whose
	// token a check-and-set resource holds as its currlock ("" for none;
	// see the check-and-set rule on LeaseModel).
	Claimant string
	R        any
}

// Model is a workload's part of the porcupine lease model: its resource's
// state per key and what its reads and writes may do to it. Every
// function may be nil: a resource whose state nothing checks.
type Model struct {
	// Init is a key's resource state at the start, from the history
	// header's params.
	Init func(params map[string]int64) any
	// Read reports whether an ok read (out: what it returned) is legal in
	// state s, and the state after (a first read may fix a value the
	// model did not know).
	Read func(s any, in Input, out Output) (bool, any)
	// Apply reports whether the resource could accept the write in s (the
	// holder rule has passed), and the state after. out is the write's
	// outcome: ok, or info for a write that may have been applied.
	Apply func(s any, in Input, out Output) (bool, any)
	// Refused reports whether a write the resource refused for a reason
	// of its own (out.Refusal; not its lease) is legal in s.
	Refused func(s any, in Input, out Output) bool
	// Hash and Describe are s for porcupine's cache and its visualisation
	// (", charged 1, paid": what follows the holder).
	Hash     func(s any) uint64
	Describe func(s any) string
}

// LeaseModel is the porcupine model of a history of workload k
// (lock-theory §8.2, with the workload's own resource rules), per key
// (Partition splits by key), state {holder, the workload's resource
// state}:
//
//   - acquire ok → holder = client, always legal (a lease: the previous
//     holder's lease implicitly expired); fail → no change; info → holder =
//     client (placing it last covers "not granted").
//   - extend ok → legal iff holder == client; fail, info → no change.
//   - write accepted → legal iff holder == client (Kleppmann 2016: only the
//     current lease holder may act), and the workload's Apply allows it;
//     on a fenced resource (Input.Fenced) also a write of a lower token
//     than the holder's before the holder first read or wrote the key
//     (State.Touched): the resource saw the holders serially, in token
//     order (lock-theory §7.2, S03); after the holder's first read or
//     write it is illegal (a stale write the holder's decision missed).
//     A read or write of the holder (ok, info, or a write refused) marks
//     it Touched; an acquire clears it. On a check-and-set resource
//     (Input.CheckAndSet) likewise a write of the client whose token is
//     the currlock (State.Claimant: its write was the last accepted)
//     before the holder first read or wrote the key: the resource saw
//     the holders serially, in claim order (antirez 2016, lock-theory
//     §7.3).
//   - write refused for its lease (Output.FenceRefusal) → legal iff holder
//     != client (a correct fence refuses only a superseded holder);
//     refused for a reason of the resource's own → the workload's Refused
//     (legal when it has none: a declined charge says nothing about the
//     lock).
//   - write info → if it could have been accepted now, it is applied as
//     accepted, otherwise no change; always legal.
//   - read ok → the workload's Read; other reads and outcomes are legal.
//   - Free inputs (a key with no lock ops at all — a lock-free algorithm
//     such as atomic-lua or idempotency-key — or an advisory lock,
//     Kind.Advisory) skip the holder rules: writes need no holder,
//     releases and extends are always legal; the workload's rules still
//     apply.
//   - release ok with Removed → legal iff holder == client, holder = none
//     (else a foreign unlock) — but for a multi-node lock (Input.MultiNode),
//     a release by another client that removed keys only on nodes that did
//     not grant the holder (or while no one held the lock) is legal and
//     changes nothing: it removed its own leftovers (a SET that landed
//     late), not the lock (Input.Nodes: the nodes' record where observed,
//     else the release's own Value.Nodes); ok without Removed, fail →
//     legal, no change; info → holder = none if holder == client.
func LeaseModel(k Kind, params map[string]int64) porcupine.Model {
	m := k.Model
	return porcupine.Model{
		Partition: partitionByKey,
		Init: func() interface{} {
			s := State{}
			if m.Init != nil {
				s.R = m.Init(params)
			}
			return s
		},
		Step: func(state, input, output interface{}) (bool, interface{}) {
			return m.step(state.(State), input.(Input), output.(Output))
		},
		Hash: func(state interface{}) uint64 {
			s := state.(State)
			h := fnvString(fnvOffset, s.Holder)
			h = fnvString(fnvByte(h, 0), s.Nodes)
			h = fnvUint(fnvByte(h, 0), uint64(s.Fence))
			h = fnvString(fnvByte(h, 0), s.Claimant)
			if s.Touched {
				h = fnvByte(h, 1)
			} else {
				h = fnvByte(h, 0)
			}
			if m.Hash != nil {
				h ^= m.Hash(s.R) * 0x9e3779b97f4a7c15
			}
			return h
		},
		DescribeOperation: func(input, output interface{}) string {
			return describeOp(input.(Input), output.(Output))
		},
		DescribeState: func(state interface{}) string {
			s := state.(State)
			holder := s.Holder
			if holder == "" {
				holder = "none"
			}
			d := "holder " + holder
			if m.Describe != nil {
				d += m.Describe(s.R)
			}
			return d
		},
		DescribeOperationMetadata: func(info interface{}) string {
			if i, ok := info.(int); ok {
				return fmt.Sprintf("history op %d", i)
			}
			return ""
		},
	}
}

// FNV-1a (64 bit) over a state's fields, without the allocations of
// hash/fnv and fmt: porcupine hashes a state at every step it caches, and
// the formatted hash was a sixth of a suite's CPU.
const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

func fnvByte(h uint64, b byte) uint64 { return (h ^ uint64(b)) * fnvPrime }

func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = fnvByte(h, s[i])
	}
	return h
}

func fnvUint(h, v uint64) uint64 {
	for i := 0; i < 8; i++ {
		h = fnvByte(h, byte(v>>(8*i)))
	}
	return h
}

// partitionByKey splits by Input.Key, keys in order of first appearance.
func partitionByKey(ops []porcupine.Operation) [][]porcupine.Operation {
	pos := map[string]int{}
	var parts [][]porcupine.Operation
	for _, op := range ops {
		k := op.Input.(Input).Key
		i, ok := pos[k]
		if !ok {
			i = len(parts)
			pos[k] = i
			parts = append(parts, nil)
		}
		parts[i] = append(parts[i], op)
	}
	return parts
}

func (m Model) step(s State, in Input, out Output) (bool, interface{}) {
	mine := s.Holder == in.Client || (in.Free && in.F != history.Write)
	switch in.F {
	case history.Acquire:
		if out.Type == history.OK || out.Type == history.Info {
			s.Holder, s.Nodes, s.Fence, s.Touched = in.Client, "", in.Fence, false
			if out.Type == history.OK {
				s.Nodes = in.Nodes
			}
		}
		return true, s
	case history.Extend:
		if out.Type == history.OK {
			return mine, s
		}
		return true, s
	case history.Release:
		switch {
		case out.Type == history.OK && out.Removed:
			if !mine {
				// A multi-node release that removed keys only on nodes
				// that did not grant the holder (or while no one held the
				// lock) removed leftovers — its own SET's that landed
				// late —, not the lock.
				return in.MultiNode && in.Nodes != "" && (s.Holder == "" || s.Nodes != "" && disjoint(in.Nodes, s.Nodes)), s
			}
			s.Holder, s.Nodes = "", ""
		case out.Type == history.Info && mine:
			s.Holder, s.Nodes = "", ""
		}
		return true, s
	case history.Read:
		if out.Type != history.Fail && s.Holder == in.Client {
			s.Touched = true
		}
		if out.Type == history.OK && m.Read != nil {
			ok, r := m.Read(s.R, in, out)
			s.R = r
			return ok, s
		}
		return true, s
	case history.Write:
		if s.Holder == in.Client {
			s.Touched = true
		}
		switch out.Type {
		case history.OK:
			return m.apply(s, in, out)
		case history.Fail:
			if out.FenceRefusal {
				return in.Free || s.Holder != in.Client, s
			}
			if m.Refused != nil {
				return m.Refused(s.R, in, out), s
			}
			return true, s
		default: // info: applied if it could have been accepted now
			if ok, next := m.apply(s, in, out); ok {
				return true, next
			}
			return true, s
		}
	}
	return true, s
}

// servedInOrder reports whether a fenced resource may accept in, a write
// of a client that is not the holder: its token is lower than the
// holder's, and the holder has not read or written the key since its
// grant (lock-theory §7.2, S03); or whether a check-and-set resource
// may: its currlock is still the writer's token (State.Claimant), the
// holder not having read or written the key since its grant (§7.3).
func servedInOrder(s State, in Input) bool {
	return in.Fenced && in.Fence > 0 && s.Fence > in.Fence && !s.Touched ||
		in.CheckAndSet && s.Claimant == in.Client && !s.Touched
}

// disjoint reports whether two comma-joined node lists share no node.
func disjoint(a, b string) bool {
	for _, n := range strings.Split(a, ",") {
		if slices.Contains(strings.Split(b, ","), n) {
			return false
		}
	}
	return true
}

// apply applies an accepted write; false when the model forbids it.
func (m Model) apply(s State, in Input, out Output) (bool, State) {
	if !in.Free && !in.Unguarded && s.Holder != in.Client && !servedInOrder(s, in) {
		return false, s
	}
	if in.CheckAndSet {
		s.Claimant = in.Client // kept only when the write is legal
	}
	if m.Apply == nil {
		return true, s
	}
	ok, r := m.Apply(s.R, in, out)
	if !ok {
		return false, s
	}
	s.R = r
	return true, s
}

func describeOp(in Input, out Output) string {
	what := string(in.F)
	if in.Action != "" {
		what = in.Action
	}
	if in.Fence > 0 {
		what += fmt.Sprintf("(fence %d)", in.Fence)
	}
	if in.HasNum {
		what += fmt.Sprintf(" %d", in.Num)
	}
	var res string
	switch out.Type {
	case history.Info:
		res = "?"
	case history.Fail:
		res = "fail"
		if in.F == history.Write {
			res = "refused"
		}
	default:
		res = "ok"
		switch {
		case in.F == history.Write:
			res = "accepted"
		case in.F == history.Read && out.Result != "":
			res = out.Result
		case in.F == history.Read && out.HasNum:
			res = fmt.Sprint(out.Num)
		case in.F == history.Release && out.Removed:
			res = "removed"
		case in.F == history.Release:
			res = "not removed"
		}
	}
	return fmt.Sprintf("%s %s → %s", in.Client, what, res)
}

// knownValue is a register whose value a run may start from anywhere: it
// is known from its first read or write (the counter, the stock).
type knownValue struct {
	V     int64
	Known bool
}

// readValue checks a read of a knownValue: it fixes an unknown value, and
// must equal a known one.
func readValue(s any, out Output) (bool, any) {
	v := s.(knownValue)
	if !out.HasNum {
		return true, v
	}
	if !v.Known {
		return true, knownValue{out.Num, true}
	}
	return out.Num == v.V, v
}

// describeValue describes a knownValue as what, once it is known.
func describeValue(what string) func(any) string {
	return func(s any) string {
		if v := s.(knownValue); v.Known {
			return fmt.Sprintf(", %s %d", what, v.V)
		}
		return ""
	}
}

func hashValue(s any) uint64 {
	v := s.(knownValue)
	h := uint64(v.V) * 0xbf58476d1ce4e5b9
	if v.Known {
		h ^= 1 << 41
	}
	return h
}
