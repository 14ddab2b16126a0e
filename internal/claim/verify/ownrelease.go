package verify

import (
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// missedOwn: an extend Missed, Own — its first command (Records[1]), of
// Client on Node inside the extend, ran at At, after the command
// Records[2], run inside a release of Client's, had removed Client's own
// key on Node, between the extend's Start and At; no key of Client's stood
// on Node at At.
func (v *verifier) missedOwn(c claim.Claim) outcome {
	e, ok1 := v.rec(c, 1)
	d, ok2 := v.rec(c, 2)
	if !ok1 || !ok2 {
		return refuse(c.Records, "an own-release miss names the extend's command and the release's")
	}
	if e.F != history.NodeCmd || v.m.sender(c.Records[1]) != c.Client || e.Value.Node != c.Node || e.Invoke != c.At ||
		e.Invoke < c.Start-slack || e.Invoke > c.End+slack {
		return refuse(c.Records[1:2], "record %d is not a command of %s on %s at %d inside the extend", c.Records[1], c.Client, c.Node, c.At)
	}
	if !v.watched(c.Node, c.Start, c.At) {
		return skip("extend on a node not recorded")
	}
	removed := false
	for _, l := range v.m.removedAt[c.Records[2]] {
		removed = removed || (l.how == "removed" && l.owner == c.Client && l.by == c.Client && l.node == c.Node && l.key == c.Key &&
			l.end >= c.Start-slack && l.end <= c.At)
	}
	if !removed {
		return refuse(c.Records[2:], "the command at record %d removed no key of %s on %s between %d and %d", c.Records[2], c.Client, c.Node, c.Start, c.At)
	}
	inRelease := false
	for _, op := range v.h.Ops {
		inRelease = inRelease || (op.F == history.Release && op.Client == c.Client && op.Invoke-slack <= d.Invoke && d.Invoke <= v.end(op)+slack)
	}
	if !inRelease {
		return refuse(c.Records[2:], "no release of %s ran when the command at record %d did", c.Client, c.Records[2])
	}
	for _, l := range v.m.lives {
		if l.owner == c.Client && l.node == c.Node && l.key == c.Key && l.start <= c.At && l.end > c.At {
			return refuse([]int{l.set}, "%s's key set at record %d stood on %s at %d", c.Client, l.set, c.Node, c.At)
		}
	}
	return held
}

// foundKey: a command that ran (an EXISTS) found the key it asked about
// standing on Node at Start, with value Token, created by By's command
// Records[1].
func (v *verifier) foundKey(c claim.Claim, op history.Op) outcome {
	if len(op.Value.Cmd) < 2 || len(c.Records) < 2 {
		return refuse(c.Records, "a command that found a key names the key and the command that set it")
	}
	if !v.watched(c.Node, c.Start, c.Start) {
		return skip("command on a node not recorded")
	}
	for _, l := range v.m.lives {
		if l.node == c.Node && l.key == op.Value.Cmd[1] && l.start < c.Start && l.end > c.Start {
			if l.set != c.Records[1] || l.owner != c.By || l.value != c.Token {
				return refuse([]int{l.set}, "the key standing at %d was set by %s's command at record %d (value %s)", c.Start, l.owner, l.set, l.value)
			}
			return held
		}
	}
	return refuse(c.Records[:1], "no key %s stood on %s at %d", op.Value.Cmd[1], c.Node, c.Start)
}
