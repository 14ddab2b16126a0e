package report

import (
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// shownLife is the inferred key life of grant i that another client's
// refusal showed standing while i was still in flight (account
// KeyLife.Shown).
func (m *model) shownLife(i int) (account.KeyLife, bool) {
	for _, k := range m.a.Keys() {
		if k.Grant == i && !k.Observed && k.Shown != nil {
			return k, true
		}
	}
	return account.KeyLife{}, false
}

// serverAt is the server that held node's keys at t: the node itself, or
// the replica a failover promoted in its place (account.ServersOf).
func (m *model) serverAt(node string, t int64) string {
	st := m.a.ServersOf(account.KeyLife{Node: node, Start: t, End: t + 1})
	return st[len(st)-1].Server
}

// inFlight tells a grant whose key another client met long before the
// grant returned (a reader of failover-fence-wait: w2's acquire ran
// 19.3–33.6 s, its WAIT 1 waiting for a replica, while w1 was refused by
// its key from 20.3 s; the page showed no holder at all): when the
// refusal showed its key standing (its life's start), when the acquire
// began and when it returned. The refusals naming its key are told after
// it (grantAt).
func (n *narrator) inFlight(i int, o history.Op) {
	k, ok := n.m.shownLife(i)
	if !ok {
		return
	}
	m, lang := n.m, n.lang
	text := tr(lang, "n.inflight", o.Client, o.Key, instant(m.sec(o.Invoke)), m.serverAt(k.Node, k.Start), k.Shown.By,
		instant(m.sec(o.Complete)), span(m.sec(o.Complete)-m.sec(o.Invoke)))
	if strings.Contains(m.h.Header.Algorithm, "-wait") {
		text += " " + tr(lang, "n.inflight.wait")
	}
	n.add(k.Start, 2, StepAcquire, n.claims.life(k), text)
	if t := o.Value.Token; t != "" {
		n.grantAt[holder{o.Client, o.Key, t}] = k.Start
	}
}

// refusedInferred is the message, holder and server of a refusal by a key
// the clients' outcomes show (claim Inferred): "…, though w2's acquire had
// not returned yet" while the holder's acquire was still in flight.
func (m *model) refusedInferred(c claim.Claim) (msg, by, node string) {
	msg = "n.tries.by"
	if len(c.Records) > 1 {
		if g := m.h.Ops[c.Records[1]]; g.Complete > c.End {
			msg = "n.tries.by.inflight"
		}
	}
	return msg, c.By, m.serverAt(c.Node, c.End)
}

// keySetLine is a key tip's first line: where, whose and when it was set;
// a key another client's refusal showed standing while its acquire was in
// flight is set "by" that refusal's end at the latest, with when its
// acquire began and returned (account KeyLife.Shown).
func (b *builder) keySetLine(k account.KeyLife, server, owner, tok string) string {
	if k.Shown != nil && k.Grant >= 0 {
		g := b.m.h.Ops[k.Grant]
		return tr(b.lang, "tip.key.shown", server, k.Key, owner, tok, b.at(k.Start), k.Shown.By, b.at(g.Invoke), b.at(g.Complete))
	}
	return tr(b.lang, "tip.key", server, k.Key, owner, tok, b.at(k.Start))
}

// refusedWhen is when refused acquire o is drawn, as its tip and the
// story tell it: at its end when the lock itself refused it (a Redlock
// validity that ran out, a WAIT that heard too few replicas), when its
// SET met a key by its refusal claim, else at its invoke (a reader of
// redlock-pause-in-flight: a 12 s acquire refused at t=12.2 s was drawn
// at t=0.2 s, where it began, beside its own fresh keys).
func (m *model) refusedWhen(o history.Op, c claim.Claim) int64 {
	switch {
	case c.Kind == claim.Refusal && c.What == claim.Granted, c.Kind == claim.Op && c.Refusal == history.RefusalNotReplicated:
		return o.Complete
	case c.Kind == claim.Refusal:
		return refusedAt(c, o.Invoke)
	}
	return o.Invoke
}
