package account

import (
	"slices"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// ungrantedClaim states what the nodes' record shows of acquire op i, a
// lock of several nodes whose client recorded the outcome as unknown
// (claim.Ungranted; a sixth reader, A9): its SETs created its key on
// fewer than a quorum, each other node refused it with another's key,
// never ran its SET, or was down through it, and whether its client's own
// commands removed the keys it did create. false when the record cannot
// say it for every node: the client's doubt is then all a line tells.
func (a *Account) ungrantedClaim(i int) (claim.Claim, bool) {
	op := a.H.Ops[i]
	if op.Type != history.Info || op.F != history.Acquire || len(a.H.Header.Nodes) < 2 ||
		!slices.Contains(a.H.Header.Traits, history.TraitMultiNode) {
		return claim.Claim{}, false
	}
	won := a.wonIn(i, op.Key, nil)
	if len(won) == 0 || len(won) >= a.Quorum() {
		return claim.Claim{}, false
	}
	c := claim.Claim{Kind: claim.Ungranted, Client: op.Client, Key: op.Key, Token: won[0].Token, Start: op.Invoke, End: op.Complete,
		At: op.Complete, Removed: true, Records: []int{i}}
	named := []string{}
	for _, w := range won {
		if w.Token != c.Token {
			return claim.Claim{}, false // two acquires' keys: not one acquire's SETs
		}
		c.Nodes, c.Records, named = append(c.Nodes, w.Node), append(c.Records, w.Set), append(named, w.Node)
		if !a.removedByOwner(w, op) {
			c.Removed = false
		}
	}
	for _, h := range a.metHolders(i, op.Key, won) {
		c.Holders, named = append(c.Holders, h), append(named, h.Node)
	}
	for _, s := range a.silentNodes(i, op.Key, named) {
		if !a.neverRan(s.Node, op.Key, c.Token, op) {
			return claim.Claim{}, false
		}
		c.Silent, named = append(c.Silent, s), append(named, s.Node)
	}
	for _, n := range a.H.Header.Nodes {
		if slices.Contains(named, n) {
			continue
		}
		if a.deadThrough(n, op.Invoke, op.Complete) {
			c.Down = append(c.Down, n)
			continue
		}
		b, ok := a.backWithout(n, op.Key, c.Token, op)
		if !ok {
			return claim.Claim{}, false // a node the record does not account for
		}
		c.Back = append(c.Back, b)
	}
	return c, true
}

// removedByOwner reports whether the key w's SET created left its node
// by a command of op's client, by op's completion (its unlock).
func (a *Account) removedByOwner(w claim.Holder, op history.Op) bool {
	for _, j := range a.byKey[nk(w.Node, op.Key)] {
		k := a.keys[j]
		if k.Set == w.Set {
			return k.Ended.Kind == EndReleased && k.Ended.By == op.Client && k.End <= op.Complete+grantSlack
		}
	}
	return false
}

// neverRan reports whether node, its commands recorded from op's invoke
// to the end of the history, never ran a SET of key with value token.
func (a *Account) neverRan(node, key, token string, op history.Op) bool {
	if !a.Observed[node] || slices.ContainsFunc(a.Gaps[node], func(g [2]int64) bool { return g[1] >= op.Invoke }) {
		return false
	}
	for _, e := range a.H.Ops {
		if e.F == history.NodeCmd && e.Value.Node == node && isSetCmd(e.Value.Cmd) && e.Value.Cmd[1] == key && e.Value.Cmd[2] == token {
			return false
		}
	}
	return true
}

// deadThrough reports whether a crash-node step that recorded when its
// nodes were down had node dead throughout [from, to].
func (a *Account) deadThrough(node string, from, to int64) bool {
	return slices.ContainsFunc(a.Faults, func(f FaultWindow) bool {
		return f.deadKnown() && slices.Contains(f.Step.Nodes, node) && f.Dead[0] <= from && to <= f.Dead[1]
	})
}

// backWithout is node as an Ungranted claim's Back: dead when op began
// (a crash-node step's recorded death), restarted before op ended, its
// dump after the restart (history.NodeHeld) holding no key of token, and
// its commands, recorded from that dump to the end of the history, no SET
// of key with token: it never took op's key. false when the record
// cannot say so.
func (a *Account) backWithout(node, key, token string, op history.Op) (claim.Back, bool) {
	i := slices.IndexFunc(a.Faults, func(f FaultWindow) bool {
		return f.deadKnown() && slices.Contains(f.Step.Nodes, node) && f.Dead[0] <= op.Invoke && op.Invoke <= f.Dead[1] && f.Dead[1] < op.Complete
	})
	if i < 0 {
		return claim.Back{}, false
	}
	back := a.Faults[i].Dead[1]
	held := -1
	for j, e := range a.H.Ops {
		if e.F == history.NodeHeld && e.Value.Node == node && e.Invoke >= back {
			held = j
			break
		}
	}
	if held < 0 || slices.ContainsFunc(a.H.Ops[held].Value.Held, func(k history.HeldKey) bool { return k.Key == key && k.Value == token }) {
		return claim.Back{}, false
	}
	from := a.H.Ops[held].Invoke
	if !a.Observed[node] || slices.ContainsFunc(a.Gaps[node], func(g [2]int64) bool { return g[1] > from }) {
		return claim.Back{}, false
	}
	for _, e := range a.H.Ops {
		if e.F == history.NodeCmd && e.Value.Node == node && isSetCmd(e.Value.Cmd) && e.Value.Cmd[1] == key && e.Value.Cmd[2] == token {
			return claim.Back{}, false
		}
	}
	return claim.Back{Node: node, At: back, Held: held}, true
}
