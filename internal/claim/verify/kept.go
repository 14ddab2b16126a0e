package verify

import (
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// keptRelease: the release's command d (its second record), a command of
// Client on Node while the release ran, set when Client's own key would
// end and removed none: Kept, it moved the deadline of Client's live key
// Key to At + TTL; Rewrote, it was a SET of the new value Token over
// Client's own key, with a TTL of TTL.
func (v *verifier) keptRelease(c claim.Claim, d history.Op) outcome {
	rec := c.Records[1]
	if d.Invoke < c.Start-slack || d.Invoke > c.End+slack {
		return refuse(c.Records, "the command at record %d ran at %d, outside the release [%d, %d]", rec, d.Invoke, c.Start, c.End)
	}
	for _, l := range v.m.removedAt[rec] {
		if l.how == "removed" || l.how == "flushed" {
			return refuse(c.Records, "the command at record %d removed %s on %s", rec, l.key, l.node)
		}
	}
	var owner, key, node string
	switch c.What {
	case claim.Kept:
		mv, ok := v.m.moves[rec]
		if !ok || mv.life == nil {
			return refuse(c.Records, "the command at record %d moved no key's deadline", rec)
		}
		owner, key, node = mv.life.owner, mv.life.key, mv.life.node
	case claim.Rewrote:
		l := v.m.lifeOf(rec)
		if l == nil {
			return refuse(c.Records, "the command at record %d created no key", rec)
		}
		if l.value != c.Token {
			return refuse(c.Records, "the command at record %d set the value %s, not %s", rec, l.value, c.Token)
		}
		over := false
		for _, o := range v.m.removedAt[rec] {
			over = over || (o.how == "overwritten" && o.owner == c.Client && o.key == l.key)
		}
		if !over {
			return refuse(c.Records, "the command at record %d replaced no key of %s", rec, c.Client)
		}
		owner, key, node = l.owner, l.key, l.node
	default:
		return refuse(c.Records, "a release keeps its key %q or %q, not %q", claim.Kept, claim.Rewrote, c.What)
	}
	if owner != c.Client || key != c.Key || node != c.Node {
		return refuse(c.Records, "the command at record %d set the end of %s on %s, %s's, not %s's %s on %s", rec, key, node, owner, c.Client, c.Key, c.Node)
	}
	if dl := v.m.cmdDeadline(d); dl < 0 || !near(dl-d.Invoke, c.TTL) {
		return refuse(c.Records, "the command at record %d set a TTL of %d ns, not %d", rec, dl-d.Invoke, c.TTL)
	}
	return held
}

// keptLife: a key life claimed to have expired at the end its client's
// release set (What Kept) — the deadline that passed is the one a command
// of Client on Node at At set (its last deadline change, or the SET that
// created it), TTL ahead, while a release of Client ran.
func (v *verifier) keptLife(c claim.Claim, l *life) outcome {
	if c.How != "expired" {
		return refuse([]int{l.set}, "a kept key's end is an expiry, not %q", c.How)
	}
	last, lastAt := -1, int64(-1)
	for i, mv := range v.m.moves {
		if mv.life == l && v.h.Ops[i].Invoke >= lastAt {
			last, lastAt = i, v.h.Ops[i].Invoke
		}
	}
	if last < 0 {
		last = l.set // the deadline its own SET gave it
	}
	cmd := v.h.Ops[last]
	if cmd.F != history.NodeCmd || cmd.Client != c.Client || !near(cmd.Invoke, c.At) {
		return refuse([]int{l.set, last}, "the last command to set its deadline ran at %d (%s), not %s's at %d", cmd.Invoke, cmd.Client, c.Client, c.At)
	}
	if dl := v.m.cmdDeadline(cmd); dl < 0 || !near(dl, c.At+c.TTL) || !near(l.deadline, c.At+c.TTL) {
		return refuse([]int{l.set, last}, "the command at record %d set the deadline %d, not %d", last, dl, c.At+c.TTL)
	}
	for _, op := range v.h.Ops {
		if op.F == history.Release && op.Client == c.Client && op.Invoke-slack <= cmd.Invoke && cmd.Invoke <= v.end(op)+slack {
			return held
		}
	}
	return refuse([]int{l.set, last}, "no release of %s ran when the command at record %d did", c.Client, last)
}

// keptOrphan: an orphaned lease told as kept for the minimum hold (an
// Anomaly claim How Kept) — Client's key Key on Node expired at End, and
// the deadline that passed was set by a command of Client run while a
// release of Client ran that began no later than the window's Start.
func (v *verifier) keptOrphan(c claim.Claim) outcome {
	if c.What != history.AnomalyOrphanedLease {
		return refuse(c.Records, "only an orphaned lease is kept for a minimum hold, not a %s", c.What)
	}
	if !v.watched(c.Node, c.Start, c.End) {
		return skip("kept key on a node not recorded")
	}
	var l *life
	for _, x := range v.m.lives {
		if x.node == c.Node && x.key == c.Key && x.owner == c.Client && x.how == "expired" && near(x.end, c.End) {
			l = x
		}
	}
	if l == nil {
		return refuse(c.Records, "no key %s of %s on %s expired at %d", c.Key, c.Client, c.Node, c.End)
	}
	last, lastAt := l.set, int64(-1)
	for i, mv := range v.m.moves {
		if mv.life == l && v.h.Ops[i].Invoke >= lastAt {
			last, lastAt = i, v.h.Ops[i].Invoke
		}
	}
	cmd := v.h.Ops[last]
	if dl := v.m.cmdDeadline(cmd); cmd.F != history.NodeCmd || cmd.Client != c.Client || dl < 0 || !near(dl, l.deadline) {
		return refuse([]int{l.set, last}, "the deadline its key expired at was set by %s's command at record %d, not by %s", cmd.Client, last, c.Client)
	}
	for _, op := range v.h.Ops {
		if op.F == history.Release && op.Client == c.Client && op.Invoke-slack <= cmd.Invoke && cmd.Invoke <= v.end(op)+slack {
			// The release keeps the key as it runs: its command reaches
			// the node after the release began, which the window's start
			// may be (a release of 8 ms on a loaded machine: CI seed 30).
			if op.Invoke > c.Start+slack {
				return refuse([]int{op.Index, last}, "the release that kept it began at %d, after the window's start %d", op.Invoke, c.Start)
			}
			return held
		}
	}
	return refuse([]int{last}, "no release of %s ran when the command at record %d set its end", c.Client, last)
}

// cmdDeadline is the deadline a node command set: a SET's PX, EX, PXAT or
// EXAT, or an EXPIRE-family command's; -1 when it sets none.
func (m *model) cmdDeadline(op history.Op) int64 {
	args, t := op.Value.Cmd, op.Invoke
	if len(args) < 3 {
		return -1
	}
	switch name := strings.ToLower(args[0]); name {
	case "set":
		return m.deadlineOf(args[3:], t)
	case "pexpire", "expire", "pexpireat", "expireat":
		n, err := strconv.ParseInt(args[2], 10, 64)
		if err != nil {
			return -1
		}
		return m.expiryAt(name, n, t)
	}
	return -1
}
