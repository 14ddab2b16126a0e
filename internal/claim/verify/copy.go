package verify

import (
	"slices"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// failoverCopy: a key life lost in a failover that names the replica that
// still had it (Nodes[0]) and when it died (At): its second record is the
// failover of the key's group, which promoted another replica, after At;
// its last record is a crash-node step of that replica whose recorded
// death is At, after the failover began, and which had it still dead at
// the promotion.
func (v *verifier) failoverCopy(c claim.Claim) outcome {
	fo, ok1 := v.rec(c, 1)
	cr, ok2 := v.rec(c, len(c.Records)-1)
	if len(c.Nodes) != 1 || len(c.Records) < 3 || !ok1 || !ok2 || fo.Value.Fault == nil || cr.Value.Fault == nil {
		return refuse(c.Records, "records %v are not a failover and the crash of the replica %v", c.Records, c.Nodes)
	}
	r := c.Nodes[0]
	i := slices.IndexFunc(fo.Value.Fault.Promotions, func(p history.Promotion) bool { return p.Group == c.Node && p.Promoted != "" })
	if fo.F != history.Fault || fo.Value.Fault.Effect != history.EffectFailover || i < 0 {
		return refuse(c.Records[1:2], "record %d promoted no replica of %s", c.Records[1], c.Node)
	}
	p := fo.Value.Fault.Promotions[i]
	if _, ok := p.ReplicaOffsets[r]; !ok || p.Promoted == r {
		return refuse(c.Records[1:2], "%s is not a replica of %s the failover left unpromoted", r, c.Node)
	}
	promoted := fo.Invoke + p.TookNS
	if cr.F != history.Fault || cr.Value.Fault.Effect != history.EffectCrashNode || !slices.Contains(cr.Value.Fault.Nodes, r) ||
		cr.Value.DeadFrom != c.At || c.At <= fo.Invoke || c.At >= promoted || cr.Value.DeadTo <= promoted {
		return refuse(c.Records[len(c.Records)-1:], "no crash of %s recorded its death at %d, after the failover began (%d) and with it dead at the promotion (%d)", r, c.At, fo.Invoke, promoted)
	}
	return held
}
