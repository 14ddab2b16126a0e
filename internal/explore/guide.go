package explore

import (
	"cmp"
	"slices"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// window is one hold of the fault-free run as the guide aims at it: what
// the run's success depended on (lineage-driven fault injection, Alvaro et
// al., SIGMOD 2015). Every instant is wall ns of that run, every fact read
// from its account (holds, grants, key lives and their deadline moves) or
// its history's own operations (writes, releases, extends).
type window struct {
	Client string
	// Key is the resource's key; LockKey the key on the nodes (the
	// algorithm's own derivation, or Key).
	Key, LockKey string
	// Grant is when the acquire returned, End when the hold ended.
	Grant, End int64
	// TTL is the lease's TTL, wall ns.
	TTL int64
	// Nodes granted the lock; Deciding are the nodes whose keys decide
	// the quorum — the fewest whose loss leaves fewer than a quorum
	// holding it, earliest deadline first (one node: that node).
	Nodes, Deciding []string
	// lives are the key lives behind the grant, one per node.
	lives []account.KeyLife
	// FirstHold: the client's first hold, so after-acquire occurrence 1
	// is its start; Acquire is its acquire's invoke.
	FirstHold bool
	Acquire   int64
	// Write is the hold's first write's invoke (-1: none); FirstWrite:
	// it is the client's first write, so before-write occurrence 1
	// precedes it.
	Write      int64
	FirstWrite bool
	// Release is the hold's release invoke (-1: none).
	Release int64
	// Renewals are the instants its key's deadline was moved by the
	// client (an extend), from the account's key lives.
	Renewals []int64
}

// Expiry is when the hold's lock would be lost if nothing moved its keys'
// deadlines after t: the deadline in force at t of the deciding key (the
// grant's start plus its TTL when no key life backs it).
func (w window) Expiry(t int64) int64 {
	var ds []int64
	for _, l := range w.lives {
		d := l.Start + w.TTL
		for _, m := range l.Moves {
			if m.At <= t && m.Deadline >= 0 {
				d = m.Deadline
			}
		}
		ds = append(ds, d)
	}
	if len(ds) == 0 {
		return w.Grant + w.TTL
	}
	slices.Sort(ds)
	return ds[min(len(w.Deciding), len(ds))-1]
}

// quorum is N/2+1 of n nodes.
func quorum(n int) int { return n/2 + 1 }

// windows reads the holds of a fault-free run from its account, in the
// order they began.
// nodes is the run's number of masters (a multi-node lock's quorum is of
// all of them).
func windows(a *account.Account, multiNode bool, nodes int) []window {
	h := a.H
	firstHold := map[string]bool{}
	firstWrite := map[string]bool{}
	var out []window
	for _, hd := range a.Holds {
		if hd.Acquire < 0 || hd.Acquire >= len(h.Ops) {
			continue
		}
		g, ok := a.GrantOf(hd.Acquire)
		if !ok {
			continue
		}
		w := window{Client: hd.Client, Key: hd.Key, LockKey: hd.Key, Grant: hd.Start, End: hd.End, TTL: hd.TTL,
			Nodes: slices.Clone(g.Nodes), lives: g.Lives, Acquire: h.Ops[hd.Acquire].Invoke, Write: -1, Release: -1}
		if w.TTL <= 0 {
			w.TTL = g.TTL
		}
		if len(g.Lives) > 0 {
			w.LockKey = g.Lives[0].Key
		} else if len(g.Members) > 0 {
			w.LockKey = g.Members[0].Key
		}
		w.Deciding = deciding(g, multiNode, nodes)
		if !firstHold[hd.Client] {
			w.FirstHold, firstHold[hd.Client] = true, true
		}
		for i := hd.Acquire + 1; i < len(h.Ops); i++ {
			op := h.Ops[i]
			if op.Client != hd.Client || op.Invoke > hd.End {
				continue
			}
			switch {
			case op.F == history.Write && w.Write < 0 && op.Key == hd.Key:
				w.Write = op.Invoke
				if !firstWrite[hd.Client] {
					w.FirstWrite = true
				}
			case op.F == history.Release && w.Release < 0 && op.Key == hd.Key:
				w.Release = op.Invoke
			}
			if op.F == history.Write {
				firstWrite[hd.Client] = true
			}
		}
		for _, l := range g.Lives {
			for _, m := range l.Moves {
				if !m.Clock && m.By == hd.Client && m.At >= hd.Start && m.At <= hd.End && !slices.Contains(w.Renewals, m.At) {
					w.Renewals = append(w.Renewals, m.At)
				}
			}
		}
		slices.Sort(w.Renewals)
		out = append(out, w)
	}
	slices.SortStableFunc(out, func(x, y window) int { return cmp.Compare(x.Grant, y.Grant) })
	return out
}

// deciding is the grant's nodes whose keys decide its quorum: the fewest
// whose loss leaves fewer than a quorum of the granting nodes holding the
// lock, earliest deadline first.
func deciding(g account.Grant, multiNode bool, total int) []string {
	lives := slices.Clone(g.Lives)
	slices.SortStableFunc(lives, func(x, y account.KeyLife) int { return cmp.Compare(x.Deadline, y.Deadline) })
	var nodes []string
	for _, l := range lives {
		if !slices.Contains(nodes, l.Node) {
			nodes = append(nodes, l.Node)
		}
	}
	if len(nodes) == 0 {
		nodes = slices.Clone(g.Nodes)
	}
	if len(nodes) == 0 {
		return nil
	}
	n := 1
	if multiNode {
		// A quorum q of all the nodes must hold it: of G granting nodes,
		// losing G−q+1 loses it.
		n = len(nodes) - quorum(total) + 1
		n = min(max(n, 1), len(nodes))
	}
	return nodes[:n]
}

// renews reports whether any hold's deadline was moved by its client: the
// lock renews its lease (a watchdog, a heartbeat).
func renews(ws []window) bool {
	for _, w := range ws {
		if len(w.Renewals) > 0 {
			return true
		}
	}
	return false
}
