package account

import (
	"slices"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// Shown is the refused acquire that shows an inferred key stood before
// its own acquire returned (KeyLife.Shown).
type Shown struct {
	// Op is the history index of the refused acquire, By its client.
	Op int
	By string
}

// shownBy is the first refused acquire of another client (a plain
// refusal: its record names no reason of the lock's own) of key on node
// that began after grant g (history index gi) began and ended before g
// returned, while no other key could have refused it: no node recorded a
// life of key standing then, and every earlier grant of key to another
// client had been removed by its owner's release before it began. Such a
// refusal met g's key, set by then though g's acquire was still in
// flight (a reader of failover-fence-wait: w2's acquire ran 19.3–33.6 s,
// its WAIT 1 waiting for a replica, while w1 was refused seven times by
// its key from 20.3 s; the inferred life began only at 33.6 s, so the
// page showed w1 refused by a lock no one held). -1 when none.
func (a *Account) shownBy(g *history.Op, gi int, key, node string) int {
	if g.F != history.Acquire || len(a.H.Header.Nodes) != 1 {
		return -1 // a single-instance lock: one key to meet
	}
	ops := a.H.Ops
	for r := range ops {
		o := &ops[r]
		if o.F != history.Acquire || o.Type != history.Fail || o.Process < 0 || o.Client == g.Client || o.Key != key ||
			o.Value.Refusal != "" || o.Invoke < g.Invoke || o.Complete < 0 || o.Complete >= g.Complete {
			continue
		}
		if len(o.Value.Nodes) > 0 && !slices.Contains(o.Value.Nodes, node) {
			continue
		}
		if a.otherKeyMay(gi, key, node, o) {
			continue
		}
		return r
	}
	return -1
}

// otherKeyMay reports whether a key other than grant gi's may have refused
// acquire o: a recorded life of key on node standing while o ran, or an
// earlier grant of key to another client not removed by its owner's
// release before o began.
func (a *Account) otherKeyMay(gi int, key, node string, o *history.Op) bool {
	for _, k := range a.keys {
		if k.Observed && k.Node == node && k.Key == key && k.Start < o.Complete && k.End > o.Invoke {
			return true
		}
	}
	ops := a.H.Ops
	for h := range ops {
		e := &ops[h]
		if h == gi || (e.F != history.Acquire && e.F != history.Probe) || e.Type != history.OK || e.Key != key || e.Complete < 0 || e.Complete > o.Complete {
			continue
		}
		if e.F == history.Probe && e.Value.Removed {
			continue // the probe removed its own key
		}
		removed := false
		for j := h + 1; j < len(ops); j++ {
			r := &ops[j]
			if r.F == history.Release && r.Client == e.Client && r.Key == key && r.Type == history.OK && r.Value.Removed &&
				r.Complete >= 0 && r.Complete <= o.Invoke && r.Invoke >= e.Invoke {
				removed = true
				break
			}
		}
		if !removed {
			return true
		}
	}
	return false
}

// inferredRefusal states whose key refused acquire i where no node's
// record shows it: an inferred life another client's refusal showed
// standing while that life's own acquire was in flight (Shown), standing
// while i ended (claim.Inferred; Records: i, the holder's acquire).
func (a *Account) inferredRefusal(i int) (claim.Claim, bool) {
	op := a.H.Ops[i]
	for _, k := range a.keys {
		if k.Observed || k.Shown == nil || k.Owner == "" || k.Owner == op.Client || k.Key != op.Key || k.Grant < 0 ||
			op.Complete < k.Start || op.Invoke >= k.End {
			continue
		}
		return claim.Claim{Kind: claim.Refusal, What: claim.Inferred, Client: op.Client, Key: op.Key, Node: k.Node, By: k.Owner,
			Token: k.Value, Start: op.Invoke, End: op.Complete, Records: []int{i, k.Grant}}, true
	}
	return claim.Claim{}, false
}
