package verify

import (
	"cmp"
	"slices"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// reached reports whether acquire a reached Redis, as the nodes' record
// shows: sent when some node ran a command of its client (or one whose
// sender the observer could not name) within its window, or its client
// sent one there that went unanswered (a Stalled record); known only when
// every node of the run was recorded throughout that window.
func (v *verifier) reached(a history.Op) (sent, known bool) {
	from, to := a.Invoke-slack, v.end(a)+slack
	known = len(v.h.Header.Nodes) > 0
	for _, n := range v.h.Header.Nodes {
		if !v.watched(n, a.Invoke, v.end(a)) {
			known = false
		}
	}
	v.indexSent()
	cmds := v.sentAt
	lo, _ := slices.BinarySearchFunc(cmds, from, func(i int, t int64) int { return cmp.Compare(v.h.Ops[i].Invoke, t) })
	for _, i := range cmds[lo:] {
		o := v.h.Ops[i]
		if o.Invoke > to {
			break
		}
		if v.m.sender(i) == a.Client || o.Client == "" {
			return true, known
		}
	}
	for _, i := range v.stalledBy[a.Client] {
		if o := v.h.Ops[i]; o.Invoke <= to && (o.Complete < 0 || o.Complete >= from) {
			return true, known
		}
	}
	return false, known
}

// localRefusal: the acquire was refused without reaching Redis (What
// Local): every node was recorded throughout it and none ran a command of
// its client, nor did its client send one that went unanswered; the claim
// names no key, no holder and no node.
func (v *verifier) localRefusal(c claim.Claim, a history.Op) outcome {
	if c.By != "" || c.Node != "" || c.Token != "" || len(c.Holders) > 0 || len(c.Records) != 1 {
		return refuse(c.Records, "a refusal that never reached Redis names a key: %s's on %s", c.By, c.Node)
	}
	if a.Value.Refusal != "" {
		return refuse(c.Records, "the acquire records the lock's own reason %q", a.Value.Refusal)
	}
	sent, known := v.reached(a)
	if !known {
		return skip("refusal while a node was not recorded")
	}
	if sent {
		return refuse(c.Records, "%s's acquire sent a command to a node: it reached Redis", c.Client)
	}
	return held
}

// unreachedByKey refuses a refusal claim that names a key, a holder or
// the lock's own reason, of an acquire that never reached Redis: no key
// refused it, whatever key stood then (reader 15).
func (v *verifier) unreachedByKey(c claim.Claim, a history.Op) outcome {
	if c.What == claim.Granted {
		return outcome{} // its own SETs are its records: checked there
	}
	if sent, known := v.reached(a); known && !sent {
		return refuse(c.Records, "%s's acquire sent no command to any node: %s's key did not refuse it", c.Client, c.By)
	}
	return outcome{}
}

// indexSent builds, once, the node commands in order of when they ran
// (sentAt) and each client's unanswered commands (stalledBy).
func (v *verifier) indexSent() {
	if v.stalledBy != nil {
		return
	}
	v.stalledBy = map[string][]int{}
	for i, o := range v.h.Ops {
		switch o.F {
		case history.NodeCmd:
			v.sentAt = append(v.sentAt, i)
		case history.Stalled:
			v.stalledBy[o.Client] = append(v.stalledBy[o.Client], i)
		}
	}
	slices.SortStableFunc(v.sentAt, func(x, y int) int { return cmp.Compare(v.h.Ops[x].Invoke, v.h.Ops[y].Invoke) })
}
