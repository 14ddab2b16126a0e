package report

import (
	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// storyClaims indexes a run's numbered claims (runClaims) for the story:
// each step renders one, found by the history record it rests on first.
type storyClaims struct {
	cs    []claim.Claim
	byRec map[claim.Kind]map[int][]int // kind → first record → positions in cs
	// anomalies are the positions of the Anomaly claims, in the order of
	// allAnomalies (checker.Claims keeps the results' order).
	anomalies []int
}

func newStoryClaims(cs []claim.Claim) *storyClaims {
	s := &storyClaims{cs: cs, byRec: map[claim.Kind]map[int][]int{}}
	for i, c := range cs {
		if c.Kind == claim.Anomaly {
			s.anomalies = append(s.anomalies, i)
		}
		if len(c.Records) == 0 {
			continue
		}
		if s.byRec[c.Kind] == nil {
			s.byRec[c.Kind] = map[int][]int{}
		}
		s.byRec[c.Kind][c.Records[0]] = append(s.byRec[c.Kind][c.Records[0]], i)
	}
	return s
}

// all returns the claims of kind k resting first on record rec that
// match (every one when match is nil).
func (s *storyClaims) all(k claim.Kind, rec int, match func(claim.Claim) bool) []claim.Claim {
	var out []claim.Claim
	for _, i := range s.byRec[k][rec] {
		if match == nil || match(s.cs[i]) {
			out = append(out, s.cs[i])
		}
	}
	return out
}

func (s *storyClaims) first(k claim.Kind, rec int, match func(claim.Claim) bool) (claim.Claim, bool) {
	if cs := s.all(k, rec, match); len(cs) > 0 {
		return cs[0], true
	}
	return claim.Claim{}, false
}

// op is the claim a client operation's step renders: its believed hold
// (an ok acquire), the refusal whose key the nodes show, what its extend
// did, what its release removed, or else what its own record says (Op;
// the account makes one for every operation none of the others covers).
func (s *storyClaims) op(i int) claim.Claim {
	if c, ok := s.first(claim.Hold, i, func(c claim.Claim) bool { return c.Believed }); ok {
		return c
	}
	for _, k := range []claim.Kind{claim.Refusal, claim.Ungranted, claim.QueueHead, claim.Extend, claim.Release, claim.Op} {
		if c, ok := s.first(k, i, nil); ok {
			return c
		}
	}
	return claim.Claim{}
}

// probeFail is the line of a final probe that could not acquire key,
// from its claim c: when clients crashed (Fault claims of a crash-client
// step), that they stay dead, not that every fault healed; when c is a
// QueueHead claim, whose entry headed the waiter queue that refused it.
func (s *storyClaims) probeFail(lang Lang, c claim.Claim) string {
	var dead []string
	faults := false
	for _, f := range s.cs {
		if f.Kind == claim.Fault {
			faults = true
		}
		if f.Kind == claim.Fault && f.Fault != nil && f.Fault.Effect == history.EffectCrashClient {
			dead = append(dead, f.Fault.Clients...)
		}
	}
	// No fault in the run: none healed (teacher 9, F3).
	line := tr(lang, pick(faults, "n.probe.fail", "n.probe.fail.nofault"), c.Client, c.Key)
	if len(dead) > 0 {
		line = tr(lang, "n.probe.fail.dead", joinAnd(lang, dead), c.Client, c.Key)
	}
	if c.Kind == claim.QueueHead {
		line += " " + tr(lang, "n.probe.queue", c.By, c.What)
	}
	return line
}

// life is the KeyLife claim of account key life k.
func (s *storyClaims) life(k account.KeyLife) claim.Claim {
	c, _ := s.first(claim.KeyLife, k.Set, func(c claim.Claim) bool {
		return c.Node == k.Node && c.Key == k.Key && c.Start == k.Start && c.End == k.End
	})
	return c
}

// permit is the Permit claim of account member life ml.
func (s *storyClaims) permit(ml account.MemberLife) claim.Claim {
	c, _ := s.first(claim.Permit, ml.Set, func(c claim.Claim) bool {
		return c.Node == ml.Node && c.Key == ml.Key && c.Token == ml.Member && c.Start == ml.Start
	})
	return c
}

// fault is the Fault claim of fault window w.
func (s *storyClaims) fault(w window) claim.Claim {
	c, _ := s.first(claim.Fault, w.Op, func(c claim.Claim) bool { return c.Step == w.Step.ID })
	return c
}

// janitored is the first KeyLife claim a delete-key step removed (How
// janitor, Step step): when and where the node ran the DEL.
func (s *storyClaims) janitored(step int) (claim.Claim, bool) {
	for _, c := range s.cs {
		if c.Kind == claim.KeyLife && c.How == account.EndJanitor && c.Step == step {
			return c, true
		}
	}
	return claim.Claim{}, false
}

// anomaly is the claim of the i-th anomaly of allAnomalies.
func (s *storyClaims) anomaly(i int) claim.Claim {
	if i < len(s.anomalies) {
		return s.cs[s.anomalies[i]]
	}
	return claim.Claim{}
}

// staleHeadline is the headline of a stale write the resource accepted:
// the sentence that names the stale and the newer holder says it
// already, with no lead-in saying it again (teacher 9, F8).
func (m *model) staleHeadline(lang Lang, a checker.Anomaly) string {
	if a.Stale != "" && a.Current != "" {
		return m.describeAnomaly(lang, a)
	}
	return tr(lang, "say.stale", m.describeAnomaly(lang, a))
}
