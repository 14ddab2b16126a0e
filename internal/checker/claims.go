package checker

import (
	"github.com/locksim/locksim/internal/claim"
)

// Claims returns what the checkers' findings state as claims (issue 27):
// one Anomaly claim per finding (its kind, window, the instant it became
// true and its violating writes) and, for a foreign unlock the nodes
// showed, a ForeignDelete claim (who removed whose key, where, when); an
// untested exposure a result reports (Result.Exposure), an Exposure
// claim after its findings'.
// Unnumbered, in the results' order. Each result also states a Check
// claim, its verdict and its summary's counts: the claim of its row on the
// page, made for every checker, one that found nothing too (issue 27);
// they come after the findings' claims, one per result in its order.
func Claims(results []Result) []claim.Claim {
	var cs []claim.Claim
	for _, r := range results {
		for _, an := range r.Anomalies {
			c := claim.Claim{Kind: claim.Anomaly, What: an.Kind, Key: an.Key, Start: an.Start, End: an.End, At: an.At,
				Violating: an.Violating, Records: append([]int{}, an.Ops...)}
			if len(an.Clients) > 0 {
				c.Client = an.Clients[0]
			}
			if an.Kind == KindOrphanedLease && an.Cause != nil && an.Cause.MinHold && len(an.Cause.Nodes) == 1 {
				c.How, c.Node, c.Client = claim.Kept, an.Cause.Nodes[0], an.Owner // its owner's release kept it: see claim.Anomaly
			}
			if an.Kind == KindStuckLock {
				c.Since, c.How = an.Since, an.Quit // how its holder stopped using it, at Start
			}
			if len(an.Fenceable) > 0 {
				c.By, c.Fenceable = an.Current, append([]int{}, an.Fenceable...)
			}
			if an.Kind == KindMutexOverlap && len(an.Accepted) > 0 && an.Stale != "" {
				// The stale writes it let through, whose first the headline
				// tells: the stale holder's, while the newer held it too.
				c.Client, c.By, c.Accepted = an.Stale, an.Current, append([]int{}, an.Accepted...)
			}
			if an.Later != nil && an.Informational && an.Stale != "" {
				// What its stale holder went on to have accepted: the
				// harm it prevented was while both held it (reader 14).
				later := *an.Later
				c.Client, c.By, c.Later = an.Stale, an.Current, &later
			}
			cs = append(cs, c)
			if an.Kind == KindForeignUnlock && an.Cause != nil && an.Cause.Observed && len(an.Cause.Nodes) == 1 {
				cs = append(cs, claim.Claim{Kind: claim.ForeignDelete, Client: an.Owner, By: an.Deleter, Key: an.Key,
					Node: an.Cause.Nodes[0], At: an.Cause.At, Start: an.Cause.At, End: an.Cause.At, How: an.Cause.Kind,
					Step: an.Cause.Step, Records: append([]int{}, an.Ops...)})
			}
		}
		if r.Exposure != nil {
			cs = append(cs, exposureClaim(*r.Exposure))
		}
	}
	for _, r := range results {
		how := string(r.Verdict)
		if r.NotChecked {
			how = claim.NotChecked
		}
		cs = append(cs, claim.Claim{Kind: claim.Check, What: r.Checker, How: how, Counts: r.Counts, Records: []int{}})
	}
	return cs
}

// exposureClaim is the Exposure claim of an untested exposure e (see
// claim.Exposure): its holder's first write after the lease's end, and the
// contenders' tries around the window, from the coverage checker's data.
func exposureClaim(e Exposure) claim.Claim {
	c := claim.Claim{Kind: claim.Exposure, Client: e.Client, Key: e.Key, Action: e.Action, Start: e.From, End: e.To, At: e.FirstAt, Records: []int{e.First}}
	if t := e.LastTry; t != nil && t.Op >= 0 {
		c.LastTry = &claim.Try{Client: t.Client, At: t.At, Op: t.Op}
		c.Records = append(c.Records, t.Op)
	}
	if t := e.NextTry; t != nil && t.Op >= 0 {
		c.NextTry = &claim.Try{Client: t.Client, At: t.At, Op: t.Op}
		c.Records = append(c.Records, t.Op)
	}
	if t := e.Short; t != nil {
		c.Short = &claim.Short{Client: t.Client, At: t.At, Op: t.Op, Met: t.Met, Need: t.Need, GaveUp: t.GaveUp, KeyOwner: t.KeyOwner, ScriptRefused: t.ScriptRefused, Granted: t.Granted}
		c.Records = append(c.Records, t.Op)
	}
	return c
}
