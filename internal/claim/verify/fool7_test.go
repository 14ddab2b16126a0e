package verify_test

import (
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// TestVerifierRefusesWhatAFuzzOfAStoredReportSlippedPast holds the
// mutations of a real report's claims (redlock-clock-jump, seed 8) that a
// one-field fuzz found the verifier accepting, each rebuilt on a history
// of the tests: a careless reader would believe every one of them.
func TestVerifierRefusesWhatAFuzzOfAStoredReportSlippedPast(t *testing.T) {
	cases := []mutation{
		{"a key a node's clock jump removed is not told as released by the harness's shift script", hand,
			ended("clock"), func(c *claim.Claim) { c.How = "released" }},
		{"a key a node's clock jump removed is not told as deleted by the harness", hand,
			ended("clock"), func(c *claim.Claim) { c.How = "deleted" }},
		{"a key its owner released is not told as lost in a failover in a run that had none", corpus("c01-naive-del-foreign-unlock"),
			ended("released"), func(c *claim.Claim) { c.How = "failover" }},
		{"a key its owner released is not told as removed by a restart's restore in a run that restarted no client", corpus("c01-naive-del-foreign-unlock"),
			ended("released"), func(c *claim.Claim) { c.How = "restored" }},
		{"a hold its client's ok acquire began is not told as one its client never learnt it had", corpus("c01-naive-del-foreign-unlock"),
			kind(claim.Hold, func(c claim.Claim) bool { return c.Believed }), func(c *claim.Claim) { c.Believed = false }},
		{"an overlap does not begin before the newer holder's grant returned", adviceRun("redlock-clock-jump"),
			kind(claim.Anomaly, func(c claim.Claim) bool { return c.What == history.AnomalyMutexOverlap && len(c.Accepted) > 0 }),
			func(c *claim.Claim) { c.Start -= 300 * ms }},
		{"a clock jump on one node is not told as one on another", adviceRun("redlock-clock-jump"),
			fault(history.EffectNodeClock), func(c *claim.Claim) { c.Node = "n1" }},
		{"a node's clock offset is not told as another kind of step's", adviceRun("redlock-clock-jump"),
			kind(claim.ClockOffset, func(c claim.Claim) bool { return c.Node != "" }), func(c *claim.Claim) { c.What = "pause" }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.try(t) })
	}
}
