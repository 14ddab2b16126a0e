package checker

import (
	"fmt"
	"sort"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// foreignOnNodes judges foreign unlocks on the observed nodes (design
// §12): a command of a client removed a lock key that another client's
// command had set — the removal the node executed, whatever the clients
// believed. One anomaly per removed key instance.
func foreignOnNodes(a *account.Account) []Anomaly {
	h := a.H
	if len(a.Observed) == 0 {
		return nil // no node events: the client rule judges (foreignUnlocks)
	}
	// The resource each lock key serves: its own name, and the keys a
	// lock derived for it (a library's own, lock_key in its acquire).
	resourceOf := map[string]string{}
	for _, op := range h.Ops {
		if op.F == history.Acquire && op.Key != "" {
			for _, lk := range a.LockKeysOf(op.Key) {
				if _, seen := resourceOf[lk]; !seen {
					resourceOf[lk] = op.Key
				}
			}
		}
	}
	var out []Anomaly
	for _, k := range a.Keys() {
		e := k.Ended
		// A key whose sender no one could name is no one's to be foreign to.
		if !k.Observed || (e.Kind != account.EndDeleted && e.Kind != account.EndRestored) || resourceOf[k.Key] == "" || e.By == "" || k.Owner == "" || e.By == history.AdminClient || e.By == k.Owner {
			continue
		}
		rel := releaseAround(h, e.By, resourceOf[k.Key], k.End)
		ops := []int{}
		if k.Grant >= 0 {
			ops = append(ops, h.Ops[k.Grant].Index)
		}
		when := ""
		if rel >= 0 {
			ops = append(ops, h.Ops[rel].Index)
			when = fmt.Sprintf(" (its release invoked at %s)", at(h, h.Ops[rel].Invoke))
		}
		explain := fmt.Sprintf("%s's command removed %s's key %s on %s at %s%s: a release must only remove its own lease",
			e.By, k.Owner, k.Key, k.Node, at(h, k.End), when)
		if e.Kind == account.EndRestored {
			explain = fmt.Sprintf("%s's restore on start (its restart, step #%d) removed %s's key %s on %s at %s: a restarted client must only reclaim its own leases, once they have expired",
				e.By, e.Step, k.Owner, k.Key, k.Node, at(h, k.End))
		}
		an := newAnomaly(h, KindForeignUnlock, k.Key, []string{e.By, k.Owner}, k.End, k.End, explain, ops...)
		an.Deleter, an.Owner = e.By, k.Owner
		an.Cause = &Cause{Kind: e.Kind, Client: k.Owner, Nodes: []string{k.Node}, At: k.End, By: e.By, Step: e.Step, Observed: true}
		out = append(out, an)
	}
	return out
}

// releaseAround finds client's release of resource key whose [Invoke, Complete]
// holds t (the node's stamp of its command), or -1.
func releaseAround(h history.History, client, key string, t int64) int {
	for i, op := range h.Ops {
		if op.Client != client || op.Key != key || (op.F != history.Release && op.F != history.Probe) {
			continue
		}
		end := op.Complete
		if end < 0 {
			end = h.End()
		}
		if op.Invoke-grantTolerance <= t && t <= end+grantTolerance {
			return i
		}
	}
	return -1
}

// observedRelease reports whether every node a release could have touched
// was observed when it ran: the nodes judge it then (foreignOnNodes).
func observedRelease(a *account.Account, rel history.Op) bool {
	nodes := rel.Value.Nodes
	if len(nodes) == 0 {
		nodes = a.H.Header.Nodes
	}
	if len(nodes) == 0 {
		return false
	}
	for _, n := range nodes {
		if !a.ObservedAt(n, rel.Invoke) {
			return false
		}
	}
	return true
}

// foreignUnlocks implements the foreign-unlock rule documented on Mutex
// from the clients' outcomes, for releases no node observation judges.
func foreignUnlocks(a *account.Account) []Anomaly {
	h := a.H
	perKey := map[string][]int{}      // ok acquires by Complete
	perOwner := map[[2]string][]int{} // ok acquires of one client on one key by Complete
	maybeOwn := map[[2]string]int64{} // earliest invoke of a client's open acquire on a key
	for i := range h.Ops {
		op := &h.Ops[i]
		if op.F == history.Acquire && open(*op) && isClientOp(*op) {
			k := [2]string{op.Client, op.Key}
			if t, ok := maybeOwn[k]; !ok || op.Invoke < t {
				maybeOwn[k] = op.Invoke
			}
		}
		if op.F == history.Acquire && op.Type == history.OK && op.Complete >= 0 && isClientOp(*op) {
			perKey[op.Key] = append(perKey[op.Key], i)
			k := [2]string{op.Client, op.Key}
			perOwner[k] = append(perOwner[k], i)
		}
	}
	// Each list sorted by Complete, with its Complete times alongside so
	// the binary searches below do not chase positions into h.Ops.
	completes := func(v []int) []int64 {
		sortIdx(h, v, completeOf)
		ts := make([]int64, len(v))
		for j, i := range v {
			ts[j] = h.Ops[i].Complete
		}
		return ts
	}
	keyComplete := make(map[string][]int64, len(perKey))
	for k, v := range perKey {
		keyComplete[k] = completes(v)
	}
	ownerComplete := make(map[[2]string][]int64, len(perOwner))
	for k, v := range perOwner {
		ownerComplete[k] = completes(v)
	}
	var out []Anomaly
	for ri := range h.Ops {
		rel := &h.Ops[ri]
		if rel.F != history.Release || rel.Type != history.OK || !rel.Value.Removed || !isClientOp(*rel) || observedRelease(a, *rel) {
			continue
		}
		t, maybe := maybeOwn[[2]string{rel.Client, rel.Key}]
		maybe = maybe && t < rel.Invoke
		ok := [2]string{rel.Client, rel.Key}
		own, ownT := perOwner[ok], ownerComplete[ok]
		n := sort.Search(len(own), func(j int) bool { return ownT[j] > rel.Invoke })
		if n == 0 {
			continue // no definite acquire of its own: nothing to compare against
		}
		mine := &h.Ops[own[n-1]]
		all, allT := perKey[rel.Key], keyComplete[rel.Key]
		lo := sort.Search(len(all), func(j int) bool { return allT[j] > mine.Complete })
		hi := sort.Search(len(all), func(j int) bool { return allT[j] >= rel.Invoke })
		var other *history.Op
		for j := hi - 1; j >= lo; j-- {
			o := &h.Ops[all[j]]
			if o.Client != rel.Client && o.Invoke > mine.Complete && nodesMeet(o.Value.Nodes, rel.Value.Nodes) {
				other = o
				break
			}
		}
		if other == nil && mine.Value.Fence > 0 {
			// Grant order by fencing token: of two concurrent acquires, the
			// one with the higher token was granted later, even when mine
			// returned last. Real-time order comes first: a grant that
			// returned before mine was invoked is earlier whatever its
			// token says (a regression is the fencing checker's finding).
			for j := hi - 1; j >= 0; j-- {
				o := &h.Ops[all[j]]
				if o.Complete < mine.Invoke {
					// all is sorted by Complete: no earlier grant
					// completed at or after mine was invoked.
					break
				}
				if o.Client != rel.Client && o.Value.Fence > mine.Value.Fence && nodesMeet(o.Value.Nodes, rel.Value.Nodes) {
					other = o
					break
				}
			}
		}
		if other == nil {
			continue
		}
		if maybe && !heldThrough(a, *other, *rel) {
			// An acquire of its own with unknown outcome may have applied
			// at any time after its invoke, and the release may have
			// removed that lease: nothing certain to report.
			continue
		}
		after := fmt.Sprintf("after %s's own grant at %s", rel.Client, at(h, mine.Complete))
		if other.Complete <= mine.Complete {
			after = fmt.Sprintf("with fencing token %d, a later grant than %s's own token %d", other.Value.Fence, rel.Client, mine.Value.Fence)
		}
		explain := fmt.Sprintf("%s's release of %s at %s removed the key although %s had been granted %s at %s, %s; a release must only remove its own lease",
			rel.Client, rel.Key, at(h, rel.Invoke), other.Client, rel.Key, at(h, other.Complete), after)
		end := rel.Complete
		if end < rel.Invoke {
			end = rel.Invoke
		}
		an := newAnomaly(h, KindForeignUnlock, rel.Key, []string{rel.Client, other.Client},
			rel.Invoke, end, explain, mine.Index, other.Index, rel.Index)
		an.Deleter, an.Owner = rel.Client, other.Client
		out = append(out, an)
	}
	return out
}

// nodesMeet reports whether two node sets share a node; an empty set (a
// single-node lock that records no nodes) meets everything.
func nodesMeet(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return true
	}
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// heldThrough reports whether other's granted key certainly still stood,
// and was certainly other's, when rel was invoked: one node, no fault that
// touches a node's keys (crash, restart, clock, flush, deletion) in the
// run, rel invoked before other's TTL could have run out counted from
// other's invoke (on the node's wall clock: Header.NodeDuration), and no
// other release of the key in between. A SET NX of
// rel's client in flight could then not have taken the key, so rel removed
// other's key whatever became of that unknown acquire.
func heldThrough(a *account.Account, other, rel history.Op) bool {
	h := a.H
	if len(h.Header.Nodes) > 1 || other.Value.TTL <= 0 || rel.Invoke >= other.Invoke+h.Header.NodeDuration(other.Value.TTL) {
		return false
	}
	for _, w := range a.Faults {
		switch w.Step.Effect {
		case history.EffectCutLinks, history.EffectSlowLinks, history.EffectResetLinks, history.EffectFreezeClient,
			history.EffectCrashClient, history.EffectRestartClient, history.EffectStarveRenewer, history.EffectClientClock:
		default:
			return false
		}
	}
	for i := range h.Ops {
		op := &h.Ops[i]
		if op.Key == rel.Key && op.F == history.Release && op.Index != rel.Index && isClientOp(*op) &&
			op.Invoke < rel.Invoke && opEndOr(h, *op) > other.Invoke {
			return false
		}
	}
	return true
}

// opEndOr is op's completion, or the end of the history when it has none.
func opEndOr(h history.History, op history.Op) int64 {
	if op.Complete < 0 {
		return h.End()
	}
	return op.Complete
}
