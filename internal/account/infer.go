package account

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// infer derives, from the clients' outcomes, the key lives of every grant
// no node event backs: every grant on a node that was not observed (or
// whose command fell in an observation gap). Such a life starts at the
// acquire's return and ends at the earliest of
//
//   - its owner's removing release on that node (released);
//   - another client's removing release with a plain DEL (an algorithm that
//     deletes by key, or a release carrying no token) while it lived
//     (deleted);
//   - a crash of the node without persistence (crashed), a delete-key
//     fault on it (janitor), a forward clock jump of the node shortening
//     its TTL (clock);
//   - its deadline: the grant's TTL from its start, moved by the owner's ok
//     extends (expired);
//   - a later grant of the key on that node to another client, which
//     proves the key was gone by then (taken, when no reason above explains
//     it; an expiry less than a scenario second later is taken as the
//     reason instead, the deadline being the client's estimate).
//
// Its times are the client's, not the node's (KeyLife.Observed false).
//
// An algorithm that keeps no lock key on any node (history.Header.KeepsNoKey:
// the in-process control mutex, no-lock) gets none: its grants set nothing
// a node could hold, let expire or delete (issue 27: a fresh reader found
// the control mutex told as a key on n1 that expired in Redis while its
// holder was paused, though the mutex held until the holder released it).
func (a *Account) infer() {
	if a.H.Header.KeepsNoKey() {
		return
	}
	ops := a.H.Ops
	byKey := map[string][]int{} // key → positions of its client lock ops, by invoke
	for i := range ops {
		op := &ops[i]
		switch op.F {
		case history.Acquire, history.Release, history.Extend, history.Probe:
			if op.Key != "" {
				byKey[op.Key] = append(byKey[op.Key], i)
			}
		}
	}
	for _, v := range byKey {
		slices.SortStableFunc(v, func(i, j int) int { return cmp.Compare(ops[i].Invoke, ops[j].Invoke) })
	}
	nodesOf := func(op *history.Op) []string {
		if len(op.Value.Nodes) > 0 {
			return op.Value.Nodes
		}
		if len(a.H.Header.Nodes) > 0 {
			return a.H.Header.Nodes[:1]
		}
		return []string{""}
	}
	matched := map[[2]int]bool{} // (op, node position) backed by an observed life
	for _, k := range a.keys {
		if k.Grant >= 0 {
			ni := slices.Index(nodesOf(&ops[k.Grant]), k.Node)
			matched[[2]int{k.Grant, ni}] = true
		}
	}
	for _, m := range a.members {
		if m.Grant >= 0 {
			ni := slices.Index(nodesOf(&ops[m.Grant]), m.Node)
			matched[[2]int{m.Grant, ni}] = true
		}
	}
	// A resource of several permits (a semaphore: its header gives their
	// number) keeps sorted-set members, not one key per holder.
	if _, permits := a.H.Header.Params[history.ParamPermits]; permits {
		a.inferPermits(byKey, nodesOf, matched)
		return
	}
	// Lives a failover handed over to a promoted replica (nothing lost):
	// their end is the clients' to tell from here on.
	for i := range a.keys {
		k := &a.keys[i]
		if !k.handedOver {
			continue
		}
		k.End, k.Ended = a.end, End{Kind: EndHeld, Op: -1}
		if k.Grant >= 0 {
			idx := byKey[k.Key]
			p := slices.Index(idx, k.Grant)
			inf := a.inferLife(k.Key, k.Node, k.Grant, idx[p+1:])
			k.End, k.Ended, k.Deadline, k.Moves = max(inf.End, k.Start), inf.Ended, inf.Deadline, append(k.Moves, inf.Moves...)
		} else if k.Deadline >= 0 && k.Deadline < a.end {
			k.End, k.Ended = k.Deadline, End{Kind: EndExpired, Op: -1}
		}
	}
	byLockKey := map[string][]int{} // node|key → observed lives, for re-entered grants
	for i, k := range a.keys {
		byLockKey[nk(k.Node, k.Key)] = append(byLockKey[nk(k.Node, k.Key)], i)
	}
	var inferred []KeyLife
	for key, idx := range byKey {
		for p, i := range idx {
			op := &ops[i]
			if (op.F != history.Acquire && op.F != history.Probe) || op.Type != history.OK || op.Complete < 0 {
				continue
			}
			for ni, n := range nodesOf(op) {
				if matched[[2]int{i, ni}] || a.reentryLife(i, n, byLockKey[nk(n, lockKeyOf(op))]) >= 0 {
					continue // backed by an observed life (one it re-entered: reentry.go)
				}
				inferred = append(inferred, a.inferLife(key, n, i, idx[p+1:]))
			}
		}
	}
	a.keys = append(a.keys, a.clipByLaterGrants(inferred)...)
}

// inferLife follows one grant on one node through the key's later lock
// ops (later).
func (a *Account) inferLife(key, node string, i int, later []int) KeyLife {
	ops := a.H.Ops
	g := &ops[i]
	k := KeyLife{Node: node, Key: key, Value: g.Value.Token, Owner: g.Client, Start: g.Complete, Deadline: -1, TTL: -1,
		End: a.end, Ended: End{Kind: EndHeld, Op: -1}, Set: i, Grant: i}
	if r := a.shownBy(g, i, key, node); r >= 0 {
		k.Start, k.Shown = ops[r].Complete, &Shown{Op: r, By: ops[r].Client}
	}
	if g.Value.TTL > 0 {
		k.Deadline, k.TTL = k.Start+g.Value.TTL, g.Value.TTL
	}
	onNode := func(o *history.Op) bool { return len(o.Value.Nodes) == 0 || slices.Contains(o.Value.Nodes, node) }
	ownToken := func(o *history.Op) bool { return o.Value.Token == "" || k.Value == "" || o.Value.Token == k.Value }
	plainDel := a.H.Header.DeletesByKey() // deletes by key, whatever the token
	endAt := func(t int64, e End) {
		if t < k.End {
			k.End, k.Ended = max(t, k.Start), e
		}
	}
	if g.F == history.Probe && g.Value.Removed {
		// The final probe removed the key it set before its operation
		// completed (history.Probe: one acquire and release); where a
		// node's record shows both (a replica's record of its master's
		// stream, after a failover), not later than that record says.
		k.End, k.Ended = k.Start, End{Kind: EndReleased, By: g.Client, Op: i}
		if set, del, ok := a.probeSeen(g, key); ok {
			k.Start, k.End = set, del
			if k.TTL > 0 {
				k.Deadline = set + k.TTL
			}
		}
		return k
	}
	ownDone := false // the owner's release or another acquire: its later ops are of another lease
	for _, j := range later {
		o := &ops[j]
		if k.Deadline >= 0 && o.Invoke >= k.Deadline {
			break
		}
		switch {
		case o.Client == g.Client && !ownDone && ownToken(o):
			switch {
			case o.F == history.Extend && o.Type == history.OK && o.Complete >= 0:
				ttl := o.Value.TTL
				if ttl <= 0 {
					ttl = g.Value.TTL
				}
				if ttl > 0 {
					k.Deadline = o.Complete + ttl
					k.Moves = append(k.Moves, Move{At: o.Complete, Deadline: k.Deadline, By: o.Client, Op: j})
				}
			case o.F == history.Release && o.Type == history.OK && o.Value.Removed && onNode(o):
				endAt(o.Invoke, End{Kind: EndReleased, By: o.Client, Op: j})
				ownDone = true
			case o.F == history.Release, o.F == history.Acquire:
				ownDone = true
			}
		case o.Client != g.Client && (o.F == history.Release || o.F == history.Probe) && o.Type == history.OK && o.Value.Removed &&
			onNode(o) && (plainDel || o.Value.Token == "" || k.Value == ""):
			// A release that deletes by key (naive DEL, or no token to
			// compare) removes whatever key is there.
			endAt(o.Invoke, End{Kind: EndDeleted, By: o.Client, Op: j})
		}
		if k.End < a.end && o.Invoke >= k.End {
			break
		}
	}
	for _, f := range a.Faults {
		st := f.Step
		if !slices.Contains(st.Nodes, node) || f.Start < k.Start || f.Start >= k.End {
			continue
		}
		switch st.Effect {
		case history.EffectNodeClock:
			if st.Rate == 0 && st.Delta > 0 && k.Deadline >= 0 {
				d := max(f.Start, k.Deadline-st.Delta)
				k.Deadline = d
				k.Moves = append(k.Moves, Move{At: f.Start, Deadline: d, By: history.AdminClient, Clock: true, Step: st.ID, Op: f.Op})
				if d <= f.Start {
					endAt(f.Start, End{Kind: EndClock, Op: f.Op, Step: st.ID})
				}
			}
		case history.EffectCrashNode:
			if a.CrashLoses(st, node) {
				endAt(f.Died(), End{Kind: EndCrashed, Op: f.Op, Step: st.ID})
			}
		case history.EffectDeleteKey:
			if st.Key == key {
				endAt(f.Start, End{Kind: EndJanitor, By: history.AdminClient, Op: f.Op, Step: st.ID})
			}
		}
	}
	if k.Deadline >= 0 && k.Deadline < k.End {
		kind := EndExpired
		step := 0
		if n := len(k.Moves); n > 0 && k.Moves[n-1].Clock {
			kind, step = EndClock, k.Moves[n-1].Step
		}
		k.End, k.Ended = k.Deadline, End{Kind: kind, Op: -1, Step: step}
	}
	return k
}

// clipByLaterGrants ends an inferred life at a later grant of its key on
// its node to another client: the key was gone by then (our deadline is
// the client's estimate, and a removal we cannot see may have come first).
func (a *Account) clipByLaterGrants(ls []KeyLife) []KeyLife {
	ls = byStart(ls, func(k *KeyLife) int64 { return k.Start })
	by := map[string][]int{}
	for i := range ls {
		by[nk(ls[i].Node, ls[i].Key)] = append(by[nk(ls[i].Node, ls[i].Key)], i)
	}
	second := a.H.Header.Wall(time.Second)
	for _, group := range by {
		for x, i := range group {
			l := &ls[i]
			for _, j := range group[x+1:] {
				n := ls[j]
				if n.Start >= l.End {
					break
				}
				if n.Owner == l.Owner {
					continue
				}
				switch {
				case l.Ended.Kind == EndExpired && l.Deadline-n.Start <= second:
					l.End = n.Start // expired, a hair earlier than estimated
				case (l.Ended.Kind == EndExpired || l.Ended.Kind == EndHeld) && a.mayHaveExpired(l, n.Start):
					// The key was set somewhere in its acquire (a WAIT
					// may have held the return back long after the SET):
					// its TTL may have run out by the later grant.
					l.End, l.Ended = n.Start, End{Kind: EndExpired, Op: -1}
				case l.Ended.Kind == EndExpired || l.Ended.Kind == EndHeld:
					l.End, l.Ended = n.Start, End{Kind: EndTaken, By: n.Owner, Op: n.Grant}
				default:
					l.End = n.Start
				}
				break
			}
		}
	}
	return ls
}

// mayHaveExpired reports whether inferred life l, never extended, may have
// run out by t: its TTL counted from its acquire's invoke, the earliest
// its unseen SET can have come, has passed by then (Start, the acquire's
// return, is the latest).
func (a *Account) mayHaveExpired(l *KeyLife, t int64) bool {
	if l.TTL <= 0 || len(l.Moves) > 0 || l.Grant < 0 || l.Grant >= len(a.H.Ops) {
		return false
	}
	return a.H.Ops[l.Grant].Invoke+l.TTL <= t
}

// EndTaken: an inferred life that another client's later grant on the same
// node shows was gone, for no reason the history records.
const EndTaken = "taken"

// inferPermits derives, for a semaphore, the permit (sorted-set member)
// of every grant no node event backs: the grant's owner token as the
// member, from the acquire's return to its owner's next release of the key
// (released) or the end of the history. A purge of a timed-out permit is
// seen only in node events.
func (a *Account) inferPermits(byKey map[string][]int, nodesOf func(*history.Op) []string, matched map[[2]int]bool) {
	ops := a.H.Ops
	for key, idx := range byKey {
		for p, i := range idx {
			g := &ops[i]
			if (g.F != history.Acquire && g.F != history.Probe) || g.Type != history.OK || g.Complete < 0 {
				continue
			}
			for ni, n := range nodesOf(g) {
				if matched[[2]int{i, ni}] {
					continue
				}
				ml := MemberLife{Node: n, Key: key, Member: g.Value.Token, Owner: g.Client, Start: g.Complete, End: a.end,
					Ended: End{Kind: EndHeld, Op: -1}, Set: i, Grant: i}
				for _, j := range idx[p+1:] {
					o := &ops[j]
					if o.Client != g.Client || (o.F != history.Release && o.F != history.Acquire) {
						continue
					}
					if o.F == history.Release && o.Type == history.OK && o.Value.Removed {
						ml.End, ml.Ended = max(o.Invoke, ml.Start), End{Kind: EndReleased, By: o.Client, Op: j}
					}
					break
				}
				a.members = append(a.members, ml)
			}
		}
	}
}

// probeSeen finds, inside final probe g's operation, a node's record of
// its SET of key to its token and that node's next record removing key
// (a DEL, or one inside a script): the key existed by the first and was
// gone by the second. A probe's key on a promoted replica no observer
// watches is recorded so by the old master once it follows the replica
// again (the replica's record of its master's stream, which comes after
// the master ran each command). ok is false when no node recorded both.
func (a *Account) probeSeen(g *history.Op, key string) (set, del int64, ok bool) {
	ops := a.H.Ops
	for i := range ops {
		s := &ops[i]
		if s.F != history.NodeCmd || len(s.Value.Cmd) < 3 || !strings.EqualFold(s.Value.Cmd[0], "set") || s.Value.Cmd[1] != key ||
			s.Value.Cmd[2] != g.Value.Token || g.Value.Token == "" || s.Invoke < g.Invoke || s.Invoke > g.Complete {
			continue
		}
		first := -1
		for j := range ops {
			d := &ops[j]
			if d.F == history.NodeCmd && d.Value.Node == s.Value.Node && len(d.Value.Cmd) >= 2 && d.Value.Cmd[1] == key &&
				(strings.EqualFold(d.Value.Cmd[0], "del") || strings.EqualFold(d.Value.Cmd[0], "unlink")) &&
				d.Invoke >= s.Invoke && d.Invoke <= g.Complete && (first < 0 || d.Invoke < ops[first].Invoke) {
				first = j
			}
		}
		if first >= 0 {
			return s.Invoke, ops[first].Invoke, true
		}
	}
	return 0, 0, false
}
