package report

import (
	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// causeText renders an overlap's cause (checker.Cause, from the run's
// account) in lang: why current was granted while stale still believed it
// held the lock. It computes nothing: every fact is the cause's.
func (m *model) causeText(lang Lang, c *checker.Cause, stale, current string) string {
	s := m.causeWords(lang, c, stale, current)
	if c != nil && c.StaleFence > 0 && c.FreshFence > 0 {
		// The stale holder's token, the later to come, was the higher.
		s += tr(lang, "c.token.late", stale, c.StaleFence, current, c.FreshFence)
	}
	return s
}

// causeWords are causeText's words of how the stale holder's key left.
func (m *model) causeWords(lang Lang, c *checker.Cause, stale, current string) string {
	if c == nil {
		return tr(lang, "c.held", stale, current)
	}
	ttl := m.sdur(c.TTL)
	on := joinAnd(lang, c.Nodes)
	t := instant(m.sec(c.At))
	switch c.Kind {
	case account.EndExpired:
		switch {
		case c.Paused:
			return tr(lang, "c.expired.paused", stale, current)
		case c.PauseUsed:
			return tr(lang, "c.expired.used", stale, current, ttl)
		case c.During != 0:
			if st, ok := m.step(c.During); ok {
				return tr(lang, "c.expired.during", stale, current, ttl, faultWord(lang, st))
			}
		}
		return tr(lang, "c.expired", stale, current, ttl)
	case account.EndTaken:
		return tr(lang, "c.taken", stale, current, on)
	case account.EndDeleted:
		return tr(lang, "c.deleted", stale, current, c.By, t)
	case account.EndRestored:
		return tr(lang, "c.restored", stale, current, c.By, t)
	case account.EndJanitor:
		return tr(lang, "c.janitor", stale, current, on, t)
	case account.EndCrashed:
		return tr(lang, "c.crashed", stale, current, on, t)
	case account.EndClock:
		if st, ok := m.step(c.Step); ok && st.Rate != 0 {
			return tr(lang, "c.clock.rate", stale, current, on, t)
		}
		return tr(lang, "c.clock", stale, current, on, t)
	case account.EndFailover:
		if fate, promoted, _, ok := m.failoverLoss(lang, c.Step); ok {
			if r, ok := m.copyLost(c.Step); ok {
				return tr(lang, "c.failover.copy", stale, current, on, t, fate, promoted, r)
			}
			return tr(lang, "c.failover.fate", stale, current, on, t, fate, promoted)
		}
		return tr(lang, "c.failover", stale, current, on, t)
	case account.EndFlushed, account.EndOverwritten, account.EndPurged:
		return tr(lang, "c.ended."+c.Kind, stale, current, on, t)
	case checker.CausePossible:
		return tr(lang, "c.possible", stale, current)
	case checker.CauseReentered:
		return tr(lang, "c.reentered", stale, current)
	case checker.CauseSharerReleased:
		return tr(lang, "c.sharer-released", stale, current, c.By, t)
	case checker.CauseOtherKey:
		if len(c.Keys) == 2 {
			return tr(lang, "c.other-key", stale, current, c.Keys[0], c.Keys[1])
		}
	}
	return tr(lang, "c.held", stale, current)
}

// clockEndKey is the words of a key a node clock fault, step id, ended
// early: a clock that ran fast (a rate), or one that jumped (a second
// reader: node-clock-rate said "its clock had jumped" of a 1.5× drift).
func (m *model) clockEndKey(id int) string {
	if st, ok := m.step(id); ok && st.Rate != 0 {
		return pick(st.Rate < 1, "n.expired.clock.slow", "n.expired.clock.rate")
	}
	return "n.expired.clock"
}

// step returns the plan step (or applied fault step) with the ID.
func (m *model) step(id int) (history.FaultStep, bool) {
	for _, s := range m.h.Header.Plan {
		if s.ID == id {
			return s, true
		}
	}
	for _, w := range m.faults {
		if w.Step.ID == id {
			return w.Step, true
		}
	}
	return history.FaultStep{}, false
}

// holderRoles are an overlap's stale and current holders: the checker's
// roles, else its clients in order.
func holderRoles(a checker.Anomaly) (stale, current string) {
	stale, current = a.Stale, a.Current
	if stale == "" && len(a.Clients) > 0 {
		stale = a.Clients[0]
	}
	if current == "" {
		for _, c := range a.Clients {
			if c != stale {
				current = c
				break
			}
		}
	}
	return stale, current
}

// failoverLoss tells how a key was lost with its master in failover step
// id (account.EndFailover, placed at the step's start): what befell the
// master (fate: it crashed, was stopped, or was failed over by command,
// by the step's mode) and the replica promoted in its place (name) with
// when it was announced (the switch-master record; else when it answered as a
// master, the step's own measure). ok is false when the run recorded no
// promotion: the sentence then says only that the key was lost in the
// failover.
func (m *model) failoverLoss(lang Lang, id int) (fate, promoted, name string, ok bool) {
	for _, w := range m.faults {
		if w.Step.ID != id || w.Step.Effect != history.EffectFailover {
			continue
		}
		for _, p := range w.Step.Promotions {
			if p.Promoted == "" {
				continue
			}
			fate = tr(lang, "failover.fate."+w.Step.FailoverMode)
			if w.Switch >= 0 && w.Switch < len(m.h.Ops) {
				return fate, tr(lang, "failover.promoted", p.Promoted, instant(m.sec(m.h.Ops[w.Switch].Invoke))), p.Promoted, true
			}
			return fate, tr(lang, "failover.promoted.role", p.Promoted, instant(m.sec(w.Start+p.TookNS))), p.Promoted, true
		}
	}
	return "", "", "", false
}

// copyLost is the replica that still had a key the failover step id lost
// at its master, when the account knows one (a key life's Copy: it had
// acknowledged the key, and its death is when the lock lost it; a sixth
// reader, A15).
func (m *model) copyLost(id int) (string, bool) { return m.copyLostOf(id, "") }

// copyLostOf is copyLost of owner's key (any owner's when "").
func (m *model) copyLostOf(id int, owner string) (string, bool) {
	if m.a == nil {
		return "", false
	}
	for _, k := range m.a.Keys() {
		if k.Ended.Kind == account.EndFailover && k.Ended.Step == id && k.Copy != nil && (owner == "" || k.Owner == owner) {
			return k.Copy.Node, true
		}
	}
	return "", false
}

// lostTotal is the sentence after a lost-update headline that tells one
// write (all[n]) when the run lost updates of its key to other writes
// too: how many updates were wiped out in all, and by whose writes, with
// the claims of every lost update it counts (control-negative: w3's
// write wiped out w2's, w1's then w3's; the headline told one of the two).
// Each update is counted once: a write wipes out only updates still in
// the value (Anomaly.Lost). ok is false when all[n] is the key's only
// lost update, or one of them lists no writes.
func (m *model) lostTotal(lang Lang, all []checker.Anomaly, n int, cs []claim.Claim) (said, bool) {
	key := all[n].Key
	var writers, ids []string
	total := 0
	for i, a := range all {
		if a.Kind != checker.KindLostUpdate || a.Key != key || a.Informational {
			continue
		}
		if len(a.Lost) == 0 || len(a.Violating) == 0 || a.Violating[len(a.Violating)-1] >= len(m.h.Ops) {
			return said{}, false
		}
		w := m.h.Ops[a.Violating[len(a.Violating)-1]]
		writers = append(writers, tr(lang, "a.lost.by", w.Client, instant(m.sec(w.Invoke))))
		ids = append(ids, nthClaim(cs, claim.Anomaly, i))
		total += len(a.Lost)
	}
	if len(writers) < 2 {
		return said{}, false
	}
	return said{Text: tr(lang, "say.lost-update.total", total, key, joinAnd(lang, writers)), Claim: joinIDs(ids)}, true
}
