package verify_test

import (
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
)

// TestAKeyLostInAFailoverNamesTheReplicaThatStillHadIt: w1's key, lost
// when n1 crashed in a failover, was still on n1r1 (which had
// acknowledged its WAIT) until n1r1 crashed (a sixth reader, A15). The
// key life's claim names n1r1 and its death, and the verifier, which can
// not check a failover's key end itself (the promoted replica is not
// watched), refuses each wrong replica or instant, while the true claim
// is not refused.
func TestAKeyLostInAFailoverNamesTheReplicaThatStillHadIt(t *testing.T) {
	h := corpus("c38e-failover-key-lost-with-its-last-replica")(t)
	c, ok := claim.Find(claimsOf(h), func(c claim.Claim) bool { return c.Kind == claim.KeyLife && c.How == "failover" })
	if !ok || len(c.Nodes) != 1 || c.Nodes[0] != "n1r1" || c.At <= c.End {
		t.Fatalf("the key lost in the failover does not name n1r1 dying after n1 failed: %+v", c)
	}
	if r := verify.Verify(h, []claim.Claim{c}); len(r.Failures) > 0 {
		t.Fatalf("the true claim is refused: %s", describe(r))
	}
	for _, tc := range []struct {
		name   string
		mutate func(*claim.Claim)
	}{
		{"it is not told as lost when its master crashed, while its replica still had it", func(c *claim.Claim) { c.At = c.End }},
		{"it is not told as kept by the replica that was promoted", func(c *claim.Claim) { c.Nodes = []string{"n1r2"} }},
		{"it is not told as kept by a node of no crash", func(c *claim.Claim) { c.Nodes = []string{"n1"} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := c
			tc.mutate(&bad)
			if r := verify.Verify(h, []claim.Claim{bad}); len(r.Failures) != 1 {
				t.Fatalf("the false claim %+v is not refused: %+v", bad, r)
			}
		})
	}
}
