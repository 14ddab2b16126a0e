package account

import (
	"slices"
	"sort"

	"github.com/locksim/locksim/internal/history"
)

// held reconciles the model with what the node showed it held after it
// came back (history.NodeHeld: every string key, read atomically, so
// exact at its timestamp). The dump wins over the model wherever they
// disagree: the model only knows what was observed, and the dump follows a
// window that was not.
//
//   - A key the model holds with the value shown lives on. One the model
//     had lost in the crash but the node still holds with the same value
//     survived it (its persistence kept it): its life goes on.
//   - A key the model believed created since the crash with another value
//     (a SET NX the model took for granted, which found the restored key)
//     never existed: it is retracted; created since the crash and not
//     shown, likewise.
//   - Any other key the model holds with another value than shown, or not
//     shown at all, left the node while it was not observed (unseen).
//   - A key shown that the model does not hold is a key no observed command
//     set: its life starts at the grant of its owner that completed in the
//     unobserved window (the acquire of the client whose token it holds),
//     or else at the dump, its owner told by its value.
func (s *sim) held(i int, op *history.Op) {
	t := op.Invoke
	crash, crashed := s.lastCrash(t)
	from := s.unobservedSince(t, crash, crashed)
	shown := map[string]history.HeldKey{}
	for _, hk := range op.Value.Held {
		shown[hk.Key] = hk
	}
	for key := range s.strs {
		s.expire(key, t)
	}
	keys := make([]string, 0, len(shown))
	for key := range shown {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	starts := map[string]int64{} // shown key → when its life began, for a life the model lacks
	for _, key := range keys {
		hk := shown[key]
		if j, ok := s.strs[key]; ok && s.a.keys[j].Value == hk.Value {
			continue
		}
		starts[key] = t
		if g, ok := s.grantIn(key, hk.Value, from, t); ok {
			starts[key] = g
		}
	}
	for _, key := range slices.Sorted(mapKeys(s.strs)) {
		j := s.strs[key]
		k := &s.a.keys[j]
		hk, ok := shown[key]
		switch {
		case ok && hk.Value == k.Value:
			continue
		case crashed && k.Start >= crash.Start:
			k.retracted = true
			delete(s.strs, key)
		default:
			next, ok2 := starts[key]
			if !ok2 {
				next = t
			}
			at, e := s.unseen(k, from, t, next, crash, crashed)
			if ok && e.Kind == EndTaken {
				e.By = s.owners[hk.Value] // the client whose key took its place
			}
			s.endKey(key, at, e)
		}
	}
	for _, key := range keys {
		hk := shown[key]
		deadline := int64(-1)
		if hk.TTL >= 0 {
			deadline = t + hk.TTL
		}
		if j, ok := s.strs[key]; ok {
			s.a.keys[j].Deadline, s.a.keys[j].dumped = deadline, true
			continue
		}
		if j := s.crashedLife(key, hk.Value, crash, crashed); j >= 0 {
			s.revive(key, j)
			s.a.keys[j].Deadline, s.a.keys[j].dumped = deadline, true
			continue
		}
		s.create(key, hk.Value, s.owners[hk.Value], starts[key], deadline, i)
		s.a.keys[s.strs[key]].dumped = true
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// unobservedSince is when the window the dump at t follows began: the
// start of the node's latest observation gap begun by t, else the crash's
// start, else t itself.
func (s *sim) unobservedSince(t int64, crash FaultWindow, crashed bool) int64 {
	from := t
	if crashed {
		from = crash.Start
	}
	for _, g := range s.a.Gaps[s.node] {
		if g[0] <= t && (from == t || g[0] > from) {
			from = g[0]
		}
	}
	return from
}

// grantIn finds the grant that set key to value on this node in the
// unobserved window [from, t]: an ok acquire (or probe) of the client
// whose owner token value is, with that token, naming this node (or none)
// and completing in the window. It returns its completion.
func (s *sim) grantIn(key, value string, from, t int64) (int64, bool) {
	owner := s.owners[value]
	if owner == "" {
		return 0, false
	}
	for i := range s.a.H.Ops {
		o := &s.a.H.Ops[i]
		if (o.F != history.Acquire && o.F != history.Probe) || o.Type != history.OK || o.Client != owner || o.Value.Token != value ||
			lockKeyOf(o) != key || o.Complete < from || o.Complete > t {
			continue
		}
		if len(o.Value.Nodes) == 0 || slices.Contains(o.Value.Nodes, s.node) {
			return o.Complete, true
		}
	}
	return 0, false
}

// unseen is how and when a key the dump at t no longer shows (or shows
// with another value) left the node in the unobserved window [from, t]:
// its owner's removing release in the window (released); another
// client's removing release that deletes by key (deleted); else the
// crash in the window (whatever the node's persistence promised: the dump
// shows it lost the key); else gone by the time the
// next value was set (next, the dump when none), for no reason the
// history records (EndTaken).
func (s *sim) unseen(k *KeyLife, from, t, next int64, crash FaultWindow, crashed bool) (int64, End) {
	byKey := s.a.H.Header.DeletesByKey()
	for i := range s.a.H.Ops {
		o := &s.a.H.Ops[i]
		if o.F != history.Release || o.Type != history.OK || !o.Value.Removed || o.Invoke < from || o.Invoke > t || o.Invoke < k.Start {
			continue
		}
		if len(o.Value.Nodes) > 0 && !slices.Contains(o.Value.Nodes, s.node) {
			continue
		}
		switch {
		case o.Value.Token != "" && o.Value.Token == k.Value, o.Value.Token == "" && o.Client == k.Owner && o.Key == k.Key:
			return o.Invoke, End{Kind: EndReleased, By: o.Client, Op: i}
		case byKey && o.Key == k.Key && o.Client != k.Owner:
			return o.Invoke, End{Kind: EndDeleted, By: o.Client, Op: i}
		}
	}
	if crashed && crash.Died() >= from && crash.Died() >= k.Start {
		return crash.Died(), End{Kind: EndCrashed, Op: crash.Op, Step: crash.Step.ID}
	}
	return max(min(next, t), k.Start), End{Kind: EndTaken, Op: -1}
}
