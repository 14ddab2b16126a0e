package checker

import (
	"slices"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// heldCover answers, for one protected key, "could some lease have been
// live at t": the liveness checker's notion of a free lock. Where every
// node of the run was observed at t, the nodes' own record answers (the
// account's key lives and permits of the key's lock keys, on any node:
// their deadlines as clock faults and PEXPIREs moved them, a library's own
// TTL, absolute expiries, a dump after a restart), a key counting as a
// lease while leaseEnd says it was one; an ok grant no observed life
// backs (a lock that keeps no key in Redis, an in-process mutex) counts
// by its client's outcomes. Where a node was not observed at t, the
// clients' outcomes decide (leaseWindows), as before node events existed.
type heldCover struct {
	a        *account.Account
	nodes    leaseCover    // the observed lives of the key, while they were leases (leaseEnd)
	unbacked leaseCover    // the leases of grants no observed life backs (a lock that keeps no key in Redis)
	starts   []int64       // when each observed life of the key began, ascending
	clients  leaseCover    // the leases the clients' outcomes allow
	inferred bool          // some instant was judged from the clients' outcomes
	lockKeys []string      // the key and the lock keys its acquires recorded
	believed map[int]int64 // beliefEnds
}

func newHeldCover(a *account.Account, key string, lock []int, eoh int64, believed map[int]int64) *heldCover {
	h := a.H
	lockKeys := []string{key}
	for _, i := range lock {
		if lk := h.Ops[i].Value.LockKey; lk != "" && !slices.Contains(lockKeys, lk) {
			lockKeys = append(lockKeys, lk)
		}
	}
	var lives [][2]int64
	var starts []int64
	backed := map[int]bool{} // acquires an observed life or permit backs
	for _, k := range a.Keys() {
		if !slices.Contains(lockKeys, k.Key) || k.Owner == history.ProbeClient || !k.Observed {
			continue
		}
		if k.Grant >= 0 {
			backed[k.Grant] = true
		}
		starts = append(starts, k.Start)
		end := leaseEnd(k, believed)
		if end > k.Start {
			lives = append(lives, [2]int64{k.Start, end})
		}
	}
	for _, m := range a.Members() {
		if slices.Contains(lockKeys, m.Key) && m.Owner != history.ProbeClient && m.Observed {
			lives = append(lives, [2]int64{m.Start, m.End})
			if m.Grant >= 0 {
				backed[m.Grant] = true
			}
		}
	}
	for _, i := range lock {
		if a.Reentered(i) {
			backed[i] = true // backed by another client's key, which lives counts
		}
	}
	ws, _ := leaseWindows(a, lock, eoh, nil)
	unbacked, _ := leaseWindows(a, lock, eoh, func(i int) bool { return a.H.Ops[i].Type == history.OK && !backed[i] })
	slices.Sort(starts)
	return &heldCover{a: a, nodes: newLeaseCover(lives), unbacked: newLeaseCover(unbacked), clients: newLeaseCover(ws), starts: starts,
		lockKeys: lockKeys, believed: believed}
}

// keptByOthers is the observed life of the key that stood on a node at t
// though its owner's lease had run out by then (leaseEnd), kept there by
// other clients' deadline commands: its lease's end, those clients and
// the last of their moves (rq #1707: a heartbeat over every configured
// queue kept a dead scheduler's key). False when no such life stood at t.
func (c *heldCover) keptByOthers(t int64) (k account.KeyLife, leaseUntil int64, by []string, last int64, ok bool) {
	for _, k := range c.a.Keys() {
		if !slices.Contains(c.lockKeys, k.Key) || k.Owner == history.ProbeClient || k.Owner == "" || !k.Observed || k.Start > t || k.End <= t {
			continue
		}
		leaseUntil = leaseEnd(k, c.believed)
		if leaseUntil > t {
			continue
		}
		by, last = nil, 0
		for _, mv := range k.Moves {
			if !mv.Clock && mv.By != "" && mv.By != k.Owner && mv.At >= leaseUntil {
				if !slices.Contains(by, mv.By) {
					by = append(by, mv.By)
				}
				last = max(last, mv.At)
			}
		}
		if len(by) > 0 {
			return k, leaseUntil, by, last, true
		}
	}
	return account.KeyLife{}, 0, nil, 0, false
}

// takenAfter is when a node next took the lock after t, per its record:
// the start of the next observed life of the key (a SET NX that took,
// whether or not its client was told so); false when none, or when the
// nodes were not observed at t.
func (c *heldCover) takenAfter(t int64) (int64, bool) {
	if !c.observedAt(t) {
		return 0, false
	}
	j, _ := slices.BinarySearch(c.starts, t+1)
	if j == len(c.starts) {
		return 0, false
	}
	return c.starts[j], true
}

// covered reports whether a lease could have been live at t.
func (c *heldCover) covered(t int64) bool {
	if c.nodes.covered(t) || c.unbacked.covered(t) {
		return true
	}
	if c.observedAt(t) {
		return false
	}
	c.inferred = true
	return c.clients.covered(t)
}

// observedAt reports whether every node of the run was observed at t.
func (c *heldCover) observedAt(t int64) bool {
	nodes := c.a.H.Header.Nodes
	if len(nodes) == 0 {
		return false
	}
	for _, n := range nodes {
		if !c.a.ObservedAt(n, t) {
			return false
		}
	}
	return true
}

// leaseEnd is until when key life k was a live lease: while the TTL its
// start gave it ran, whoever believed in it; to the last deadline its
// owner's own extends gave it (a watchdog's renewals); and while its owner
// still believed it held the lock (kept past its TTL by a backward clock
// jump, say). Past all three — no TTL at all, a deadline another client's
// PEXPIRE or a clock fault moved, an owner that stopped believing — it is
// no one's lease but a key in the way: the lock is unavailable, and the
// orphan and stuck-lock findings say why. Never past the key's end.
func leaseEnd(k account.KeyLife, believed map[int]int64) int64 {
	end := k.Start
	if k.TTL > 0 {
		end = k.Start + k.TTL
	}
	for _, mv := range k.Moves {
		switch {
		case mv.Clock || mv.By != k.Owner || k.Owner == "":
		case mv.Deadline < 0:
			end = k.End // its owner took its TTL away
		default:
			end = max(end, mv.Deadline)
		}
	}
	if k.Grant >= 0 {
		end = max(end, believed[k.Grant])
	}
	return min(end, k.End)
}

// neverReached reports whether the client operation at history index i
// has an unknown outcome and, per the nodes' own record, none of its
// commands reached them (Account.Reached): an acquire cut before it left
// set no key, a renewal that never arrived renewed nothing.
func neverReached(a *account.Account, i int) bool {
	if !open(a.H.Ops[i]) {
		return false
	}
	ran, known := a.Reached(i)
	return known && !ran
}

// renewedNothing reports whether the extend at history index i moved no
// deadline on the nodes, per their record while they were observed
// throughout it (Account.ExtendedBy): its script's GET found no key of its
// own, or it never arrived.
func renewedNothing(a *account.Account, i int) bool {
	if neverReached(a, i) {
		return true
	}
	if _, known := a.Reached(i); !known {
		return false
	}
	return len(a.ExtendedBy(i)) == 0
}
