package checker

import (
	"fmt"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// Cause is why an anomaly happened, as data: the fact of the run's account
// that made it possible. The report renders it in its languages and the
// checker's Explain in English; neither works a cause out of its own.
type Cause struct {
	// Kind is how the stale holder's key (or permit) left its node — an
	// account End kind: expired, deleted, janitor, crashed, clock, taken,
	// flushed, overwritten, purged — or one of the Cause* kinds below.
	Kind string `json:"kind"`
	// Client is whose key (or permit) it was.
	Client string `json:"client,omitempty"`
	// Nodes are where it ended (the node that let the other client in).
	Nodes []string `json:"nodes,omitempty"`
	// At is when it ended, true ns.
	At int64 `json:"at_ns"`
	// By is the client whose command removed it (deleted, restored, purged).
	By string `json:"by,omitempty"`
	// Step is the fault step that ended it (janitor, crashed, clock,
	// restored), or During's step.
	Step int `json:"step,omitempty"`
	// TTL is the lease's TTL (wall ns).
	TTL int64 `json:"ttl_ns,omitempty"`
	// Paused: the client was frozen (a stop-the-world pause) when its key
	// ended. PauseUsed: a pause that ended before then used up part of
	// the lease.
	Paused    bool `json:"paused,omitempty"`
	PauseUsed bool `json:"pause_used,omitempty"`
	// During is the fault step (other than a pause) that bore on the
	// client when its key ended: a partition that cut it off, a clock
	// fault on its own clock.
	During int `json:"during,omitempty"`
	// Observed: the node events show it (else the account inferred it
	// from the clients' outcomes).
	Observed bool `json:"observed,omitempty"`
	// Write is the history index of the write the stale holder made on the
	// lost lock (double-effect); 0 with no such write.
	Write int `json:"write,omitempty"`
	// Keys are the Redis keys the stale and the fresh holder locked, for
	// CauseOtherKey.
	Keys []string `json:"keys,omitempty"`
	// Reset is when the stale holder's own command (an extend that sets a
	// missing key: redlock-rb #36, BR-08) created its key again with its
	// token after the key had gone and before its late write (true ns);
	// 0 when it did not. The gap stayed hidden from the holder.
	Reset int64 `json:"reset_ns,omitempty"`
	// Renewed is, for a stuck lock or an orphaned lease, the completion of
	// the holder's last renewal (an ok extend, true ns) when its renewals
	// kept the key past its TTL — while no one used it (BR-21, S15b);
	// 0 when none did.
	Renewed int64 `json:"renewed_ns,omitempty"`
	// ExtendedBy is, for an orphaned lease, another client whose commands
	// moved the key's deadline after its owner stopped believing it held
	// it (an extend that does not check the owner, over a key it never
	// held: rq #1707, BR-25), as the node showed them; Extended is the
	// last such move (true ns). "" and 0 when none did.
	ExtendedBy string `json:"extended_by,omitempty"`
	Extended   int64  `json:"extended_ns,omitempty"`
}

// Cause kinds beyond the account's End kinds.
const (
	// CausePossible: one of the holders acted on an acquire whose outcome
	// it never learnt (it may never have been granted).
	CausePossible = "possible"
	// CauseHeld: the lock was granted while the other client's key still
	// existed (a lock that does not exclude: no Redis key, or no NX).
	CauseHeld = "held"
	// CauseUnknown: the history shows no reason.
	CauseUnknown = "unknown"
	// CauseReentered: the fresh holder was granted the stale holder's own
	// key, re-entering it with the same owner token (a token that names
	// the process, not the holder; BR-26).
	CauseReentered = "reentered"
	// CauseSharerReleased: the key the stale holder's re-entered grant
	// rested on was removed by its owner, who shares the token (By), and
	// the fresh holder acquired it.
	CauseSharerReleased = "sharer-released"
	// CauseOtherKey: the two holders locked different Redis keys for one
	// resource (Keys: the stale holder's, then the fresh one's), so
	// neither lock could exclude the other (BR-33).
	CauseOtherKey = "other-key"
	// CauseRenewed: a stuck lock's holder kept renewing it (a watchdog
	// whose job hung or had finished), so its TTL never ran out.
	CauseRenewed = "renewed"
)

// overlapCause explains why fresh was granted while stale still believed
// it held the key: how stale's key left the node fresh's grant came from,
// per the account.
func overlapCause(a *account.Account, stale, fresh Hold) *Cause {
	c := &Cause{Client: stale.Client, TTL: stale.TTL, Kind: CauseUnknown}
	if stale.Possible || fresh.Possible {
		c.Kind = CausePossible
		return c
	}
	freshLives := a.GrantedBy(fresh.Acquire)
	staleLives := a.GrantedBy(stale.Acquire)
	if k := otherKeys(staleLives, freshLives); k != nil {
		c.Kind, c.Keys, c.Nodes, c.At, c.Observed = CauseOtherKey, k, nodesOf(freshLives), freshLives[0].Start, freshLives[0].Observed
		return c
	}
	if a.Reentered(fresh.Acquire) && sameLife(staleLives, freshLives) {
		c.Kind, c.Nodes, c.At, c.Observed = CauseReentered, nodesOf(freshLives), fresh.Start, freshLives[0].Observed
		return c
	}
	var best *account.KeyLife
	for i := range freshLives {
		f := freshLives[i]
		for j := range staleLives {
			s := staleLives[j]
			if s.Node != f.Node {
				continue
			}
			if s.End > f.Start+grantTolerance && !s.Ended.Gone() && s.Ended.Kind != account.EndDeleted && s.Ended.Kind != account.EndJanitor && s.Ended.Kind != account.EndRestored {
				// Both keys on one node at once: a lock that does not
				// exclude.
				c.Kind, c.Nodes, c.At, c.Observed = CauseHeld, []string{s.Node}, f.Start, s.Observed && f.Observed
				return c
			}
			if best == nil || s.End > best.End {
				best = &staleLives[j]
			}
		}
	}
	if best == nil {
		if len(freshLives) == 0 || len(staleLives) == 0 {
			c.Kind = CauseHeld // the lock keeps no key (a control, no-lock)
		}
		return c
	}
	c.Kind, c.Nodes, c.At, c.By, c.Step, c.Observed = best.Ended.Kind, []string{best.Node}, best.End, best.Ended.By, best.Ended.Step, best.Observed
	if best.Ended.Kind == account.EndReleased && best.Owner != stale.Client && a.Reentered(stale.Acquire) {
		c.Kind = CauseSharerReleased
	}
	for _, l := range staleLives {
		if l.Node != best.Node && l.End == best.End && l.Ended.Kind == best.Ended.Kind && slices.Contains(nodesOf(freshLives), l.Node) {
			c.Nodes = append(c.Nodes, l.Node)
		}
	}
	slices.Sort(c.Nodes)
	bearing(a, stale, c)
	return c
}

// otherKeys returns the keys of the stale and the fresh holder's grants
// when the two locked different keys and none in common: the clients
// computed different lock keys for one resource. nil otherwise.
func otherKeys(stale, fresh []account.KeyLife) []string {
	if len(stale) == 0 || len(fresh) == 0 {
		return nil
	}
	for _, s := range stale {
		for _, f := range fresh {
			if s.Key == f.Key {
				return nil
			}
		}
	}
	return []string{stale[0].Key, fresh[0].Key}
}

// sameLife reports whether the two grants were backed by one key life.
func sameLife(stale, fresh []account.KeyLife) bool {
	for _, s := range stale {
		for _, f := range fresh {
			if s.Node == f.Node && s.Key == f.Key && s.Start == f.Start {
				return true
			}
		}
	}
	return false
}

// grantTolerance allows for the node's and the client's clocks being read
// at slightly different moments.
const grantTolerance = int64(2e6)

func nodesOf(ls []account.KeyLife) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Node)
	}
	return out
}

// bearing adds the faults that bore on client when its key ended: a pause
// then, a pause before that used up part of the lease, another fault on
// the client or its links.
func bearing(a *account.Account, stale Hold, c *Cause) {
	for _, f := range a.Faults {
		st := f.Step
		if !st.Touches(stale.Client) || f.Start > c.At || f.End < stale.Start {
			continue
		}
		switch {
		case st.Effect == history.EffectFreezeClient && f.End >= c.At:
			c.Paused = true
		case st.Effect == history.EffectFreezeClient:
			c.PauseUsed = c.PauseUsed || c.Kind == account.EndExpired
		case c.During == 0 && f.End >= c.At:
			c.During = st.ID
		}
	}
}

// step returns the plan step with the ID, if any.
func step(h history.History, id int) (history.FaultStep, bool) {
	for _, s := range h.Header.Plan {
		if s.ID == id {
			return s, true
		}
	}
	for _, op := range h.Faults() {
		if op.Value.Fault.ID == id {
			return *op.Value.Fault, true
		}
	}
	return history.FaultStep{}, false
}

// causeText renders a mutex-overlap's cause in English, for Explain.
func causeText(h history.History, c *Cause, stale, fresh string) string {
	ttl := fmt.Sprintf("TTL %.1fs", h.Header.ScenarioTime(c.TTL).Seconds())
	on := strings.Join(c.Nodes, ", ")
	switch c.Kind {
	case account.EndExpired, account.EndTaken:
		switch {
		case c.Paused:
			return fmt.Sprintf("%s's lease expired while it was paused and %s acquired it", stale, fresh)
		case c.PauseUsed:
			return fmt.Sprintf("%s's lease (%s) expired while it was still working, a pause having used up part of it, and %s acquired it", stale, ttl, fresh)
		case c.During != 0:
			if st, ok := step(h, c.During); ok {
				return fmt.Sprintf("%s's lease (%s) expired during a %s fault on it and %s acquired it", stale, ttl, st.Kind, fresh)
			}
		}
		if c.Kind == account.EndTaken {
			return fmt.Sprintf("%s was granted the lock on %s while %s still believed it held it", fresh, on, stale)
		}
		return fmt.Sprintf("%s's lease (%s) expired while it was still working and %s acquired it", stale, ttl, fresh)
	case account.EndDeleted:
		return fmt.Sprintf("%s's release at %s removed %s's key and %s acquired it", c.By, at(h, c.At), stale, fresh)
	case account.EndRestored:
		return fmt.Sprintf("%s's restore on start at %s (its restart re-queued every job lease it found) removed %s's key and %s acquired it", c.By, at(h, c.At), stale, fresh)
	case account.EndJanitor:
		return fmt.Sprintf("a delete-key fault deleted %s's key on %s at %s (by key, not by owner) and %s acquired it", stale, on, at(h, c.At), fresh)
	case account.EndCrashed:
		return fmt.Sprintf("%s crashed at %s and lost %s's key, and %s acquired it", on, at(h, c.At), stale, fresh)
	case account.EndClock:
		return fmt.Sprintf("%s's clock jumped and %s's key there expired early at %s, and %s acquired it", on, stale, at(h, c.At), fresh)
	case account.EndFlushed, account.EndOverwritten, account.EndPurged:
		return fmt.Sprintf("%s's key on %s was %s at %s and %s acquired it", stale, on, c.Kind, at(h, c.At), fresh)
	case CausePossible:
		return fmt.Sprintf("%s acted on a lease it may never have been granted while %s held the lock", stale, fresh)
	case CauseHeld:
		return fmt.Sprintf("%s was granted the lock while %s still believed it held it", fresh, stale)
	case CauseReentered:
		return fmt.Sprintf("%s's acquire re-entered %s's own key, presenting the same owner token, and was granted it", fresh, stale)
	case CauseSharerReleased:
		return fmt.Sprintf("%s's release at %s removed the key %s's grant rested on (its own, under the owner token they share) and %s acquired it", c.By, at(h, c.At), stale, fresh)
	case CauseOtherKey:
		return fmt.Sprintf("%s locked %s and %s locked %s: the two computed different lock keys for one resource, so neither lock excluded the other", stale, c.Keys[0], fresh, c.Keys[1])
	}
	return fmt.Sprintf("%s was granted the lock while %s still believed it held it", fresh, stale)
}
