package checker

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// Findings about what a lock tells its holder when its lease lapses, the
// bugs lock libraries ship: both are judged from the account (the node
// events where they exist), so they hold for every kind of client, a lock
// client process included.
//
//   - resurrected-lease: the holder's owner token set again on a lock key
//     that had ended (expired, removed) and that another client was
//     granted in between (account.Resurrections): a refresh or extend that
//     re-creates a missing key and calls it a success (redis-semaphore
//     #175, fixed in 5.3.1; redlock-rb #36, BR-08). Always a violation:
//     two clients were granted one lock.
//   - hidden-lapse: a holder's lease ended while it held it (the account's
//     Grant.End: its key gone, or below a quorum), its lock then said the
//     lease was still its own — a renewal or extend that succeeded, or a
//     release that removed, per the nodes, the holder's token set again
//     on the key after its lease had ended, and called it done — and the
//     holder was never told otherwise (no lost, no failed renewal
//     or extend, no failed release) before it acted again (a write) or
//     released. A lapse the lock never contradicted is not hidden by it: a
//     plain lock's holder paused past its TTL is judged by the overlap and
//     its effects, not here. Informational (Harmless "uncontended") when no
//     other client was granted the key between the lapse and the act.

// resurrectedLeases reports every resurrection of a lock key.
func resurrectedLeases(a *account.Account) []Anomaly {
	h := a.H
	var out []Anomaly
	for _, r := range a.Resurrections() {
		key := r.Between.Key
		if r.Before.Grant >= 0 {
			key = h.Ops[r.Before.Grant].Key
		}
		explain := fmt.Sprintf("%s's owner token was set again on %s on %s at %s, after its key had ended (%s) at %s and %s had been granted the lock at %s: %s's lease came back after %s's grant",
			r.Holder, r.After.Key, r.After.Node, at(h, r.After.Start), endedWords(r.Before.Ended.Kind), at(h, r.Before.End),
			r.Other, at(h, r.Between.Start), r.Holder, r.Other)
		ops := []int{r.After.Set, r.Between.Op}
		if r.Before.Grant >= 0 {
			ops = append([]int{r.Before.Grant}, ops...)
		}
		an := newAnomaly(h, KindResurrectedLease, key, []string{r.Holder, r.Other}, r.Before.End, r.After.Start, explain, ops...)
		an.Stale, an.Current = r.Holder, r.Other
		an.Cause = &Cause{Kind: r.Before.Ended.Kind, Client: r.Holder, Nodes: []string{r.After.Node}, At: r.Before.End,
			By: r.Before.Ended.By, Step: r.Before.Ended.Step, Observed: true, Reset: r.After.Start}
		out = append(out, an)
	}
	return out
}

// hiddenLapses reports, per grant, the first act of its holder after a
// lapse its lock contradicted and never told.
func hiddenLapses(a *account.Account) []Anomaly {
	h := a.H
	byClient := map[string][]int{} // client → its lock and resource ops, by invoke
	for i := range h.Ops {
		o := &h.Ops[i]
		if o.Process == history.NodeProcess || o.Process == history.NemesisProcess || o.Key == "" {
			continue
		}
		switch o.F {
		case history.Acquire, history.Extend, history.Release, history.Write, history.Lost:
			byClient[o.Client] = append(byClient[o.Client], i)
		}
	}
	for _, v := range byClient {
		slices.SortStableFunc(v, func(x, y int) int { return cmp.Compare(h.Ops[x].Invoke, h.Ops[y].Invoke) })
	}
	var out []Anomaly
	for _, g := range a.Grants() {
		if an, ok := hiddenLapse(a, g, byClient[g.Client]); ok {
			out = append(out, an)
		}
	}
	return out
}

// hiddenLapse judges one grant: the holder's ops after its lease ended, up
// to its next acquire of the key.
func hiddenLapse(a *account.Account, g account.Grant, ops []int) (Anomaly, bool) {
	h := a.H
	acq := &h.Ops[g.Op]
	if acq.F != history.Acquire || g.Ended.Kind == account.EndHeld || g.Ended.Kind == account.EndReleased || g.Token == "" || !observedLives(g) {
		return Anomaly{}, false
	}
	lapse := g.End
	said := -1 // the op by which the lock said the lease was still the holder's
	for _, i := range ops {
		o := &h.Ops[i]
		if o.Key != g.Key || o.Invoke < lapse || i == g.Op {
			continue
		}
		if o.F == history.Acquire {
			break // another lease
		}
		own := o.Value.Token == "" || o.Value.Token == g.Token
		switch {
		case o.F == history.Lost:
			return Anomaly{}, false // told
		case (o.F == history.Extend || o.F == history.Release) && own && o.Type == history.Fail:
			return Anomaly{}, false // told: a renewal, an extend or a release refused
		case o.F == history.Extend && own && o.Type == history.OK && o.Complete >= 0:
			if said < 0 {
				said = i
			}
		case o.F == history.Release && own && o.Type == history.OK && o.Value.Removed && removedOther(a, g, i):
			if said < 0 {
				said = i
			}
			return lapseAnomaly(a, g, said, i), true
		case o.F == history.Write && said >= 0:
			return lapseAnomaly(a, g, said, i), true
		case o.F == history.Release:
			return Anomaly{}, false // released, with nothing said: its hold is over
		}
	}
	return Anomaly{}, false
}

// removedOther reports whether the release at op i removed, per the
// nodes' record, a key holding grant g's token that was not one of the
// lives that backed g: its key set again after it had ended, which the
// release then called its lease. A release that removed only g's own
// lives (a Redlock grant's keys left on a minority of nodes), or a key its
// own acquire set late on a node it did not count, vouches for nothing; one that removed another client's key is a foreign unlock,
// told as such.
func removedOther(a *account.Account, g account.Grant, i int) bool {
	for _, k := range a.RemovedBy(i) {
		own := slices.ContainsFunc(g.Lives, func(l account.KeyLife) bool { return l.Node == k.Node && l.Start == k.Start && l.Key == k.Key })
		// Set again only after the lease had ended: a key the grant's own
		// acquire left late on a node it did not count (a Redlock SET that
		// landed after the grant) never backed the lease and brought
		// nothing back.
		if !own && k.Value == g.Token && k.Start >= g.End {
			return true
		}
	}
	return false
}

// observedLives reports whether every key life that backed g is the
// nodes' own record: a lapse inferred from the clients' outcomes is the
// clients' estimate of the key's end (a release that later removed the
// key proves the estimate wrong, not the lock), so only the nodes' record
// can show that the lease had ended.
func observedLives(g account.Grant) bool {
	for _, l := range g.Lives {
		if !l.Observed {
			return false
		}
	}
	return len(g.Lives) > 0
}

// lapseAnomaly is the hidden-lapse of grant g: the lock said so at op
// said, the holder acted (or released) at op act.
func lapseAnomaly(a *account.Account, g account.Grant, said, act int) Anomaly {
	h := a.H
	so, ao := &h.Ops[said], &h.Ops[act]
	acted := fmt.Sprintf("its %s at %s", actionName(*ao), at(h, ao.Invoke))
	if ao.F == history.Release {
		acted = fmt.Sprintf("its release at %s said it removed the key", at(h, ao.Invoke))
	}
	saidWords := fmt.Sprintf("its %s at %s said the lease was still its own", lockOpWords(*so), at(h, so.Invoke))
	if said == act {
		saidWords = "nothing told it so"
	}
	how := endedWords(g.Ended.Kind)
	if g.EndNode != "" {
		how += " on " + g.EndNode
	}
	explain := fmt.Sprintf("%s's lease on %s ended at %s (%s) while it held it; %s, and nothing told %s otherwise before %s",
		g.Client, g.Key, at(h, g.End), how, saidWords, g.Client, acted)
	if said == act {
		explain = fmt.Sprintf("%s's lease on %s ended at %s (%s) while it held it, and nothing told %s before %s",
			g.Client, g.Key, at(h, g.End), how, g.Client, acted)
	}
	clients := []string{g.Client}
	other := ""
	for _, o := range a.Grants() {
		if o.Client != g.Client && o.Key == g.Key && o.Start >= g.End && o.Start <= ao.Invoke {
			other = o.Client
			clients = append(clients, o.Client)
			break
		}
	}
	an := newAnomaly(h, KindHiddenLapse, g.Key, clients, g.End, ao.Invoke, explain, g.Op, said, act)
	an.Stale, an.Current = g.Client, other
	c := &Cause{Kind: g.Ended.Kind, Client: g.Client, At: g.End, By: g.Ended.By, Step: g.Ended.Step, TTL: g.TTL}
	if g.EndNode != "" {
		c.Nodes = []string{g.EndNode}
	}
	for _, l := range g.Lives {
		if l.Node == g.EndNode {
			c.Observed = l.Observed
		}
	}
	for _, r := range a.Resurrections() {
		if r.Holder == g.Client && r.Before.Grant == g.Op && r.After.Start <= ao.Invoke {
			c.Reset = r.After.Start // its own command set the lost key again
			break
		}
	}
	if ao.F == history.Write {
		c.Write = act
		if ao.Type == history.OK {
			an.Violating = []int{act}
		}
	}
	an.Cause = c
	if other == "" {
		an.Informational, an.Harmless = true, HarmlessUncontended
		an.Explain += "; no other client was granted the lock meanwhile, so no one else acted under it"
	}
	return an
}

// lockOpWords names the lock operation that vouched for a lapsed lease.
func lockOpWords(o history.Op) string {
	switch {
	case o.F == history.Extend && o.Value.Renewal:
		return "renewal"
	case o.F == history.Extend:
		return "extend"
	}
	return string(o.F)
}

// endedWords says how a key ended, for an Explain: an account End kind.
func endedWords(kind string) string {
	switch kind {
	case account.EndExpired:
		return "expired"
	case account.EndDeleted:
		return "deleted by another client"
	case account.EndJanitor:
		return "deleted by a janitor"
	case account.EndCrashed:
		return "lost in a crash"
	case account.EndClock:
		return "cut short by a clock fault"
	case account.EndFailover:
		return "lost in a failover"
	}
	return kind
}

// lapseSummary counts the lapse findings for the mutex checker's summary.
func lapseSummary(as []Anomaly) []string {
	res, hidden := 0, 0
	for _, an := range as {
		switch an.Kind {
		case KindResurrectedLease:
			res++
		case KindHiddenLapse:
			hidden++
		}
	}
	var out []string
	if res > 0 {
		out = append(out, plural(res, "resurrected lease", "resurrected leases"))
	}
	if hidden > 0 {
		out = append(out, plural(hidden, "hidden lapse", "hidden lapses"))
	}
	return out
}
