package report

import (
	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// release tells a release: what it removed (its Release claims), that it
// removed nothing, or that its outcome is unknown. A release the nodes
// recorded removing a key is stamped when its command ran there (the
// claim's At, the node's record), not at its invoke: that key may have
// been set in between (issue 27, class 12), and the key's end, told
// elsewhere from the same record, must not get a second time (a fresh
// reader: one DEL at 14.068 and 14.082 in one report). The sentence says
// the time is the node's.
func (n *narrator) release(i int, o history.Op, c claim.Claim) {
	lang, m := n.lang, n.m
	if c.Kind == claim.Release && (c.What == claim.Kept || c.What == claim.Rewrote) {
		// It removed nothing: its command set when the key would end (a
		// minimum hold's PEXPIRE; ShedLock's SET … PX … XX), whatever the
		// client recorded of it ("removed"). Told when that command ran.
		key := "n.release." + c.What
		if o.Type != history.OK {
			key += ".unknown" // the client got no answer: the node's record alone says it ran
		}
		say := tr(lang, key, c.Client, o.Key, span(m.sec(c.TTL)), instant(m.sec(c.At+c.TTL)))
		n.add(c.At, 2, StepRelease, c, say+" "+tr(lang, "n.release.kept.at.node", c.Node))
		return
	}
	switch {
	case o.Type == history.OK && o.Value.Removed:
		if rs := n.claims.all(claim.Release, i, nil); len(rs) > 0 {
			r, at := rs[0], rs[0].Start
			if r.What != claim.Inferred {
				at = r.At
			}
			for _, f := range rs {
				if f.By != "" && f.By != f.Client {
					r, at = f, f.At
					break
				}
			}
			// The lock's name as the client knows it: a claim's Key is the
			// key on the node, which a library may name its own way.
			say := m.releaseRemoved(lang, r.Client, o.Key, rs)
			if r.What != claim.Inferred && at == r.At {
				say += " " + tr(lang, "n.release.at.node", r.Node)
			}
			n.add(at, 2, StepRelease, r, say)
			return
		}
		n.add(c.Start, 2, StepRelease, c, m.releaseRemoved(lang, c.Client, c.Key, nil))
	case o.Type == history.OK || o.Type == history.Fail:
		n.add(c.Start, 2, StepRelease, c, m.releaseNothing(lang, i, o))
	default:
		if ran, known := m.a.Reached(i); known && !ran {
			at := n.toldAt(c)
			say := tr(lang, "n.release.notrun", c.Client, c.Key)
			if k, ok := m.ownLifeBefore(o, at); ok && k.Ended.Kind != account.EndHeld && k.End <= at {
				// Its key had left the node before the release is told:
				// it did not "stay" (a second reader: told while another
				// client already held the lock).
				say = tr(lang, pick(k.Ended.Kind == account.EndExpired, "n.release.notrun.expired", "n.release.notrun.gone"),
					c.Client, c.Key, instant(m.sec(k.End)), k.Node)
			}
			n.add(at, 2, StepRelease, c, n.began(c, say))
			return
		}
		n.add(n.toldAt(c), 2, StepRelease, c, n.began(c, tr(lang, infoKey("n.release.info", o), c.Client, c.Key)))
	}
}

// ownLifeBefore returns the key life of release o's lock that o's
// client's own command created, holding o's token, the latest begun
// before o; when o carries no token, the latest of the client's on o's
// key.
func (m *model) ownLifeBefore(o history.Op, at int64) (account.KeyLife, bool) {
	var best account.KeyLife
	found := false
	for _, k := range m.a.Keys() {
		if k.Owner != o.Client || k.Key != o.Key || k.Start > o.Invoke || k.Start > at {
			continue
		}
		if o.Value.Token != "" && k.Value != o.Value.Token {
			continue
		}
		if !found || k.Start > best.Start {
			best, found = k, true
		}
	}
	return best, found
}

// rewrittenByRelease reports whether the key life of KeyLife claim c was
// overwritten by a release of its own client that wrote the key again (a
// Release claim Rewrote resting on the command that ended it).
func (n *narrator) rewrittenByRelease(c claim.Claim) bool {
	if c.How != account.EndOverwritten || len(c.Records) < 2 {
		return false
	}
	cmd := c.Records[len(c.Records)-1]
	for _, r := range n.claims.cs {
		if r.Kind == claim.Release && r.What == claim.Rewrote && len(r.Records) > 1 && r.Records[1] == cmd {
			return true
		}
	}
	return false
}
