package account

import (
	"slices"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/history"
)

// Copy is a replica that still had a key after its master failed (a
// KeyLife's Copy): Node, and Died, when a crash-node step killed it (its
// recorded death); Op is that step's operation.
type Copy struct {
	Node string
	Died int64
	Op   int
}

// LostAt is when k's lock lost the key: when its last known copy died
// (Copy), else when it left its node (End).
func (k KeyLife) LostAt() int64 {
	if k.Copy != nil {
		return k.Copy.Died
	}
	return k.End
}

// deriveCopies finds, for each key life lost in a failover, the replica
// that still had it (lastCopy; a sixth reader, A15: "w1's key was lost
// when n1 crashed", while n1r1, which had acknowledged it, lived on).
func (a *Account) deriveCopies() {
	for i := range a.keys {
		k := &a.keys[i]
		if k.Ended.Kind == EndFailover && k.Observed {
			k.Copy = a.lastCopy(*k)
		}
	}
}

// lastCopy is the replica of k's group that certainly had k after the
// master failed, when it died before the promotion: the acquire that set
// k was granted after its client's WAIT n, and exactly n replicas of the
// group (not the promoted one) were not cut off from the master when the
// WAIT ran, so each of them acknowledged it; each was then killed by a
// crash-node step (its death recorded) after the failover began, and was
// still dead when the replica was promoted. The latest death is the
// copy's. nil when any of this is not so.
func (a *Account) lastCopy(k KeyLife) *Copy {
	f, ok := a.faultOf(k.Ended.Op)
	acq := a.setBy(k)
	if !ok || acq < 0 || a.H.Ops[acq].Type != history.OK {
		return nil
	}
	var p history.Promotion
	for _, q := range f.Step.Promotions {
		if q.Group == k.Node && q.Promoted != "" {
			p = q
		}
	}
	wait, n := a.waitAfter(k, a.H.Ops[acq])
	if p.Promoted == "" || n < 1 {
		return nil
	}
	var acked []string
	for r := range p.ReplicaOffsets {
		if !a.cutAt(r, k.Node, wait) {
			acked = append(acked, r)
		}
	}
	if len(acked) != n || slices.Contains(acked, p.Promoted) {
		return nil
	}
	promoted := f.Start + p.TookNS
	var last *Copy
	for _, r := range acked {
		c := a.diedBetween(r, f.Start, promoted)
		if c == nil {
			return nil
		}
		if last == nil || c.Died > last.Died {
			last = c
		}
	}
	return last
}

// faultOf is the applied fault step whose operation is op.
func (a *Account) faultOf(op int) (FaultWindow, bool) {
	i := slices.IndexFunc(a.Faults, func(f FaultWindow) bool { return f.Op == op })
	if i < 0 {
		return FaultWindow{}, false
	}
	return a.Faults[i], true
}

// waitAfter is the instant and numreplicas of the first WAIT acq's client
// sent k's node after k's SET, while acq ran (0 replicas: none).
func (a *Account) waitAfter(k KeyLife, acq history.Op) (int64, int) {
	for _, op := range a.H.Ops {
		c := op.Value.Cmd
		if op.F != history.NodeCmd || op.Client != acq.Client || op.Value.Node != k.Node || op.Invoke < k.Start || op.Invoke > acq.Complete ||
			len(c) < 2 || !strings.EqualFold(c[0], "wait") {
			continue
		}
		if n, err := strconv.Atoi(c[1]); err == nil {
			return op.Invoke, n
		}
	}
	return 0, 0
}

// cutAt reports whether a cut-links step had replica's link to master cut
// at t.
func (a *Account) cutAt(replica, master string, t int64) bool {
	return slices.ContainsFunc(a.Faults, func(f FaultWindow) bool {
		return f.Step.Effect == history.EffectCutLinks && f.Start <= t && t <= f.End &&
			slices.Contains(f.Step.Links, history.Link{Client: replica, Node: master})
	})
}

// diedBetween is node's death by a crash-node step that recorded it, after
// from, with the node still dead at to.
func (a *Account) diedBetween(node string, from, to int64) *Copy {
	for _, f := range a.Faults {
		if f.deadKnown() && slices.Contains(f.Step.Nodes, node) && f.Dead[0] > from && f.Dead[0] < to && f.Dead[1] > to {
			return &Copy{Node: node, Died: f.Dead[0], Op: f.Op}
		}
	}
	return nil
}
