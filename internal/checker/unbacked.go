package checker

import (
	"fmt"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// unbackedGrants judges holding from the nodes where they were observed
// (issue 33): an ok acquire whose granting node, watched throughout the
// acquire, set no key for it and held another owner's key of the lock
// while it ran. The client was told it held the lock while, on the node,
// another owner's key did: two owners at once (mutex-overlap). A
// multi-node grant is judged so when its uncontradicted granting nodes are
// fewer than a quorum. Nothing in a real run's record shows this (the
// node's SET NX would have found the key and refused); a history whose
// record does — a DEL missing from it, a grant the lock invented — is
// caught here, where the believed holds alone see nothing.
func unbackedGrants(a *account.Account) []Anomaly {
	h := a.H
	kind := workload.Of(h.Header)
	if kind.Permits || len(a.Observed) == 0 {
		return nil
	}
	quorum := 1
	if len(h.Header.Nodes) > 1 && slices.Contains(h.Header.Traits, history.TraitMultiNode) {
		quorum = len(h.Header.Nodes)/2 + 1
	}
	holdEnd := map[int]int64{}
	for _, hd := range a.Holds {
		holdEnd[hd.Acquire] = max(holdEnd[hd.Acquire], hd.End)
	}
	var out []Anomaly
	for i, g := range h.Ops {
		if g.F != history.Acquire || g.Type != history.OK || g.Open() || g.Key == "" {
			continue
		}
		nodes := g.Value.Nodes
		if len(nodes) == 0 && len(h.Header.Nodes) == 1 {
			nodes = h.Header.Nodes
		}
		backed := a.GrantedBy(i)
		var against []account.KeyLife // another owner's key on a node that did not back the grant
		for _, n := range nodes {
			if slices.ContainsFunc(backed, func(k account.KeyLife) bool { return k.Node == n && k.Observed }) || !watched(a, n, g.Invoke-grantSlack, g.Complete+grantSlack) {
				continue
			}
			for _, k := range a.LivesOf(n, lockKeyOf(g)) {
				if k.Observed && k.Owner != "" && k.Owner != g.Client && k.Owner != history.ProbeClient && k.Start <= g.Complete && k.End > g.Invoke {
					against = append(against, k)
					break
				}
			}
		}
		if len(against) == 0 || len(nodes)-len(against) >= quorum {
			continue
		}
		k := against[0]
		end := min(k.End, max(holdEnd[i], g.Complete))
		var on []string
		for _, l := range against {
			on = append(on, l.Node)
		}
		explain := fmt.Sprintf("%s was told it was granted %s at %s, but %s held %s's key then (set at %s, until %s) and set none for %s: two owners held the lock, as the node's own record shows",
			g.Client, g.Key, at(h, g.Complete), strings.Join(on, ", "), k.Owner, at(h, k.Start), at(h, k.End), g.Client)
		ops := []int{g.Index}
		if k.Grant >= 0 {
			ops = append([]int{h.Ops[k.Grant].Index}, ops...)
		}
		an := newAnomaly(h, KindMutexOverlap, g.Key, []string{k.Owner, g.Client}, g.Complete, end, explain, ops...)
		an.At, an.Stale, an.Current = g.Complete, k.Owner, g.Client
		an.Cause = &Cause{Kind: CauseNodeHeldAnother, Client: k.Owner, Nodes: on, At: g.Complete, Observed: true}
		if kind.Efficiency {
			an.Informational, an.Harmless = true, HarmlessEfficiency
		}
		out = append(out, an)
	}
	return out
}

// watched reports whether node's commands were recorded throughout
// [from, to].
func watched(a *account.Account, node string, from, to int64) bool {
	return a.Observed[node] && !slices.ContainsFunc(a.Gaps[node], func(g [2]int64) bool { return g[0] <= to && g[1] >= from })
}

// lockKeyOf is the key an acquire locked in Redis: the one its algorithm
// derived (Value.LockKey), else the op's own.
func lockKeyOf(op history.Op) string {
	if op.Value.LockKey != "" {
		return op.Value.LockKey
	}
	return op.Key
}
