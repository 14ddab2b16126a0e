package checker

import (
	"fmt"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
)

// Cause is why an anomaly happened, as data (package finding's).
type Cause = finding.Cause

// Cause kinds beyond the account's End kinds (package finding's).
const (
	CausePossible        = finding.CausePossible
	CauseHeld            = finding.CauseHeld
	CauseUnknown         = finding.CauseUnknown
	CauseReentered       = finding.CauseReentered
	CauseSharerReleased  = finding.CauseSharerReleased
	CauseOtherKey        = finding.CauseOtherKey
	CauseRenewed         = finding.CauseRenewed
	CauseNodeHeldAnother = finding.CauseNodeHeldAnother
	CauseKeptByOthers    = finding.CauseKeptByOthers
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
	c.Kind, c.Nodes, c.At, c.By, c.Step, c.Observed = best.Ended.Kind, []string{best.Node}, best.LostAt(), best.Ended.By, best.Ended.Step, best.Observed
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

// lateToken records on c the two holders' fencing tokens when the
// stale holder's was the higher though its lock was the older: its
// acquire returned after the fresh holder's had, so it took its token
// after the fresh one's (redlock-fenced takes it after the quorum). A
// counter that went back (a token regression) gives the fresh holder the
// lower token with its acquire returning later: not this.
func lateToken(h history.History, stale, fresh Hold, c *Cause) {
	if stale.Fence <= 0 || fresh.Fence <= 0 || stale.Fence <= fresh.Fence ||
		stale.Acquire < 0 || fresh.Acquire < 0 || stale.Acquire >= len(h.Ops) || fresh.Acquire >= len(h.Ops) {
		return
	}
	if h.Ops[stale.Acquire].Complete > h.Ops[fresh.Acquire].Complete {
		c.StaleFence, c.FreshFence = stale.Fence, fresh.Fence
	}
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
		if st, ok := step(h, c.Step); ok && st.Rate != 0 {
			if st.Rate < 1 {
				return fmt.Sprintf("%s's clock ran slow and %s's key there expired at %s, and %s acquired it", on, stale, at(h, c.At), fresh)
			}
			return fmt.Sprintf("%s's clock ran fast and %s's key there expired early at %s, and %s acquired it", on, stale, at(h, c.At), fresh)
		}
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
