package verify

import (
	"slices"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// The How of a stuck lock's Anomaly claim: how its holder stopped using
// the lock (finding.Quit*), with the release answer each release word
// needs.
const (
	quitReleaseLost   = "release-lost"
	quitReleaseFailed = "release-failed"
	quitReleaseKept   = "release-kept"
	quitCrashed       = "crashed"
	quitDone          = "done"
	quitLost          = "lost"
)

// stuck: a stuck lock's claim (see claim.Anomaly). Client's acquire
// Records[0] took Key at Since; the final probe Records[1] on Key was
// refused; How says how Client stopped using the lock at Start, the
// window's start, and Start is Since without one.
func (v *verifier) stuck(c claim.Claim) outcome {
	g, ok1 := v.rec(c, 0)
	pr, ok2 := v.rec(c, 1)
	if !ok1 || !ok2 || g.F != history.Acquire || g.Client != c.Client || g.Key != c.Key || g.Type == history.Fail {
		return refuse(c.Records, "a stuck lock names its holder %s's acquire of %s, then the probe", c.Client, c.Key)
	}
	if pr.F != history.Probe || pr.Key != c.Key || (pr.Type == history.OK && pr.Complete >= 0) {
		return refuse(c.Records[1:2], "record %d is no refused final probe of %s", c.Records[1], c.Key)
	}
	unknown := g.Type == history.Info || g.Complete < 0
	if (!unknown && c.Since != g.Complete) || (unknown && (c.Since < g.Invoke-slack || c.Since > pr.Invoke)) {
		return refuse(c.Records[:1], "%s did not take %s at %d: its acquire ran [%d, %d] (%s)", c.Client, c.Key, c.Since, g.Invoke, g.Complete, g.Type)
	}
	if c.How == "" {
		if c.Start != c.Since {
			return refuse(c.Records[:1], "the window starts at %d, not when %s took the lock (%d), though it never stopped using it", c.Start, c.Client, c.Since)
		}
		return v.neverStopped(c, g, pr)
	}
	if c.Start < c.Since-slack || c.Start > pr.Invoke {
		return refuse(c.Records, "%s stopped using the lock at %d, outside [%d, %d]", c.Client, c.Start, c.Since, pr.Invoke)
	}
	switch c.How {
	case quitReleaseLost, quitReleaseFailed, quitReleaseKept:
		return v.stuckRelease(c, g, pr)
	case quitCrashed:
		if !slices.ContainsFunc(v.h.Ops, func(op history.Op) bool {
			st := op.Value.Fault
			return op.F == history.Fault && st != nil && (st.Effect == history.EffectCrashClient || st.Effect == history.EffectRestartClient) &&
				slices.Contains(st.Clients, c.Client) && near(op.Invoke, c.Start)
		}) {
			return refuse(c.Records, "no fault killed %s at %d", c.Client, c.Start)
		}
		return held
	case quitDone, quitLost:
		d, ok := v.rec(c, 2)
		if !ok || d.Client != c.Client || string(d.F) != c.How || d.Invoke != c.Start || (d.Key != "" && d.Key != c.Key) {
			return refuse(c.Records, "no %s op of %s on %s was invoked at %d", c.How, c.Client, c.Key, c.Start)
		}
		return held
	}
	return refuse(c.Records, "unknown way %q a holder stops using a stuck lock", c.How)
}

// stuckRelease: Records[2] is Client's release of Key invoked at Start,
// answered as How says, the first it invoked after its acquire
// Records[0] with no acquire of Key between; and, where the nodes were
// recorded, a key of Client's still stood on Key at the probe.
func (v *verifier) stuckRelease(c claim.Claim, g, pr history.Op) outcome {
	r, ok := v.rec(c, 2)
	if !ok || r.F != history.Release || r.Client != c.Client || r.Key != c.Key || r.Invoke != c.Start {
		return refuse(c.Records, "no release of %s on %s was invoked at %d", c.Client, c.Key, c.Start)
	}
	unknown := r.Type == history.Info || r.Complete < 0
	switch {
	case c.How == quitReleaseLost && !unknown,
		c.How == quitReleaseFailed && (unknown || r.Type != history.Fail),
		c.How == quitReleaseKept && (unknown || r.Type != history.OK):
		return refuse(c.Records[2:], "the release at record %d was answered %s (complete %d), not as %s says", c.Records[2], r.Type, r.Complete, c.How)
	}
	for _, op := range v.h.Ops {
		if op.Client == c.Client && op.Key == c.Key && op.Process >= 0 && op.Index != r.Index &&
			(op.F == history.Acquire || op.F == history.Release) && op.Invoke > g.Invoke && op.Invoke < r.Invoke {
			return refuse([]int{op.Index}, "%s's %s at record %d came between its acquire and the release", c.Client, op.F, op.Index)
		}
	}
	var nodes []string
	for _, l := range v.m.lives {
		if l.key == c.Key && l.owner == c.Client && l.start <= pr.Invoke && l.end > pr.Invoke {
			return held
		}
		if !slices.Contains(nodes, l.node) {
			nodes = append(nodes, l.node)
		}
	}
	for _, n := range nodes {
		if v.watched(n, r.Invoke, pr.Invoke) {
			return refuse(c.Records, "no key of %s stood on %s at the probe (%d): its release did remove it", c.Client, c.Key, pr.Invoke)
		}
	}
	return skip("nodes not recorded through the release and the probe")
}

// neverStopped: a stuck lock whose holder is claimed never to have
// stopped using it: Client sent no release of Key after its acquire
// Records[0] (none invoked from Since until the probe with no acquire of
// Key of its own first), and no fault killed it in that time.
func (v *verifier) neverStopped(c claim.Claim, g, pr history.Op) outcome {
	first := -1
	for _, op := range v.h.Ops {
		if op.Client == c.Client && op.Key == c.Key && op.Process >= 0 && op.Invoke > g.Invoke && op.Invoke < pr.Invoke &&
			(op.F == history.Acquire || op.F == history.Release && op.Invoke >= c.Since) &&
			(first < 0 || op.Invoke < v.h.Ops[first].Invoke) {
			first = op.Index
		}
	}
	if first >= 0 && v.h.Ops[first].F == history.Release {
		return refuse([]int{first}, "%s stopped using the lock: its release at record %d, at %d", c.Client, first, v.h.Ops[first].Invoke)
	}
	for _, op := range v.h.Ops {
		st := op.Value.Fault
		if op.F == history.Fault && st != nil && (st.Effect == history.EffectCrashClient || st.Effect == history.EffectRestartClient) &&
			slices.Contains(st.Clients, c.Client) && op.Invoke >= c.Since && op.Invoke < pr.Invoke && (first < 0 || op.Invoke < v.h.Ops[first].Invoke) {
			return refuse([]int{op.Index}, "%s stopped using the lock: a fault killed it at %d", c.Client, op.Invoke)
		}
	}
	return held
}
