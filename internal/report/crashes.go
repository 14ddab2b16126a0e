package report

import (
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// crashKey is the words of a crash of clients at t by what they held
// then (issue 27, a fresh reader: a killed waiter of a fair lock was told
// as one that "never releases its lock", though it never held one): a
// lease one of them believed it held; else a key of theirs a node held
// then, though no ok reply had told them so (the account's key lives: a
// second reader found a client killed after its SET NX landed told as
// holding no lock, beside the stuck lock it had left); or none — while
// waiting for the lock (its last acquire before the crash was refused) or
// not. It returns the message and the arguments after the clients.
func (m *model) crashKey(clients []string, t int64) (string, []any) {
	waiting := false
	for _, c := range clients {
		if _, ok := m.leaseAt(c, "", t); ok {
			return "n.crash.client", nil
		}
	}
	for _, c := range clients {
		if k, ok := m.keyOfAt(c, t); ok {
			return "n.crash.client.keyset", []any{k.Key, k.Node}
		}
		waiting = waiting || m.lastAcquireRefused(c, t)
	}
	if waiting {
		return "n.crash.client.waiting", nil
	}
	return "n.crash.client.nolock", nil
}

// keyOfAt returns a lock key life (of a key the run's acquires name, not
// a fence counter its INCR created) client's own command had created that
// a node still held at t (the first by start).
func (m *model) keyOfAt(client string, t int64) (account.KeyLife, bool) {
	locks := map[string]bool{}
	for _, o := range m.h.Ops {
		if o.F == history.Acquire || o.F == history.Probe {
			locks[o.Key] = true
		}
	}
	for _, k := range m.a.Keys() {
		if locks[k.Key] && k.Owner == client && k.Start <= t && (t < k.End || k.Ended.Kind == account.EndHeld) {
			return k, true
		}
	}
	return account.KeyLife{}, false
}

// crashedClients are the clients a crash-client step killed, in step
// order.
func (m *model) crashedClients() []string {
	var dead []string
	for _, w := range m.faults {
		if w.Step.Effect == history.EffectCrashClient {
			for _, c := range w.Step.Clients {
				if !slices.Contains(dead, c) {
					dead = append(dead, c)
				}
			}
		}
	}
	return dead
}

// lockKeyUsed reports whether a client's acquire (not the probe's) stored
// its lock under key k in Redis.
func (m *model) lockKeyUsed(k string) bool {
	return slices.ContainsFunc(m.h.Ops, func(o history.Op) bool { return o.F == history.Acquire && o.Value.LockKey == k })
}

// crashedIn is when a crash-client step killed client within [from, to]
// (an operation of unknown outcome it cut short), as crashIn's Fault
// claim dates it.
func (m *model) crashedIn(client string, from, to int64) (int64, bool) {
	for _, w := range m.faults {
		if w.Step.Effect == history.EffectCrashClient && slices.Contains(w.Step.Clients, client) && from <= w.Start && w.Start <= to {
			return w.Start, true
		}
	}
	return 0, false
}

// lastAcquireRefused reports whether client's last acquire invoked before
// t was refused: it was still waiting for the lock.
func (m *model) lastAcquireRefused(client string, t int64) bool {
	refused, last := false, int64(-1)
	for _, op := range m.h.Ops {
		if op.F == history.Acquire && op.Client == client && op.Invoke < t && op.Invoke > last {
			refused, last = op.Type == history.Fail, op.Invoke
		}
	}
	return refused
}

// servedAgain is when a node restarted at end (a crash's window end) ran a
// command again — the first command record of that node from end on —
// and the clients whose requests naming it failed in between; ok only
// when some did (reader 13, snapshot-lost-lock: "t=1.5s n1 restarted",
// while w2's acquires got EOF and connection resets until 2.8 s, and n1
// ran nothing until 3.1 s).
func (m *model) servedAgain(node string, end int64) (at int64, clients []string, ok bool) {
	at = -1
	for _, op := range m.h.Ops {
		if op.F == history.NodeCmd && op.Value.Node == node && op.Invoke >= end && (at < 0 || op.Invoke < at) {
			at = op.Invoke
		}
	}
	if at < 0 {
		return -1, nil, false
	}
	for _, op := range m.h.Ops {
		if op.Process < 0 || op.Invoke < end || op.Invoke >= at || op.Type == history.OK || op.Failure == "" ||
			!(strings.Contains(op.Error, node) || m.passedOver(op, node)) || slices.Contains(clients, op.Client) {
			continue
		}
		clients = append(clients, op.Client)
	}
	return at, clients, len(clients) > 0
}

// passedOver reports whether op, a client's failed request, reached other
// nodes but not node: its client's commands are on record on another node
// within it and on node not at all (reader 14, redlock3-restart: w2's
// acquires at 4.7 s and 5.2–5.5 s, "1 did not answer", ran on n1 and n3
// only, while n2 had restarted at 4.5 s). Its error need not name node,
// but its client must be one that sends to node at other times.
func (m *model) passedOver(op history.Op, node string) bool {
	elsewhere, uses := false, false
	for _, c := range m.h.Ops {
		if c.F != history.NodeCmd || c.Client != op.Client {
			continue
		}
		within := c.Invoke >= op.Invoke && c.Invoke <= op.Complete
		if c.Value.Node == node && within {
			return false
		}
		uses = uses || c.Value.Node == node
		elsewhere = elsewhere || within
	}
	return elsewhere && uses
}

// crashEnd is the words of nodes' restart at end: with when they served
// again where clients' requests to them still failed (servedAgain).
func (m *model) crashEnd(lang Lang, nodes []string, targets string, end int64) string {
	at := int64(-1)
	var clients []string
	for _, n := range nodes {
		if t, cs, ok := m.servedAgain(n, end); ok {
			at = max(at, t)
			for _, c := range cs {
				if !slices.Contains(clients, c) {
					clients = append(clients, c)
				}
			}
		}
	}
	if at < 0 {
		return tr(lang, "n.crash.end", targets)
	}
	return tr(lang, "n.crash.end.unreached", targets, instant(m.sec(at)), joinAnd(lang, clients))
}

// orphanLife is the key life an orphaned-lease finding a tells of: its
// owner's key (one the lock derived from a.Key too) whose life spans the
// finding's window.
func (m *model) orphanLife(a checker.Anomaly) (account.KeyLife, bool) {
	keys := m.a.LockKeysOf(a.Key)
	for _, k := range m.a.Keys() {
		if k.Owner == a.Owner && slices.Contains(keys, k.Key) && k.Start >= 0 && k.Start <= a.Start && (k.End < 0 || k.End >= a.End) {
			return k, true
		}
	}
	return account.KeyLife{}, false
}

// unbelievedOrphan tells an orphaned key whose owner never believed it
// held it, dated by the node's SET, as the story and a stuck lock date
// it, not by its owner's acquire's end (reader 13, setnx-expire-crash:
// "from t=0.2s" of a key n1 set at t=0.139 s).
func (m *model) unbelievedOrphan(lang Lang, a checker.Anomaly) string {
	from := a.StartS
	if k, ok := m.orphanLife(a); ok {
		from = m.sec(k.Start)
	}
	return tr(lang, "a.orphaned-lease.unbelieved", a.Owner, a.Key, instant(from), instant(a.EndS), span(a.EndS-from), orphanWho(lang, a))
}

// orphanWho names who an orphaned key kept out: the anomaly's clients
// but its owner, as the checker counted them (reader 17: "while others
// were refused" where only the final probe was).
func orphanWho(lang Lang, a checker.Anomaly) string {
	var who []string
	for _, c := range a.Clients {
		switch {
		case c == a.Owner:
		case c == history.ProbeClient:
			who = append(who, tr(lang, "a.orphan.probe"))
		default:
			who = append(who, c)
		}
	}
	switch len(who) {
	case 0:
		return tr(lang, "a.orphan.who.none")
	case 1:
		return tr(lang, "a.orphan.who.one", who[0])
	}
	return tr(lang, "a.orphan.who", joinAnd(lang, who))
}
