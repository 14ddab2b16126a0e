package verify_test

import (
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// TestVerifierRefusesAMutatedAcceptedStaleWrite: the stale writes a mutex
// overlap's claim says the resource accepted (its Accepted, whose first a
// headline tells: "The resource accepted w1's stale charge on invoice-1 at
// t=16.2s — …") are checked against the resource's records. The account's
// claim holds; changed into one the history contradicts, it is refused.
func TestVerifierRefusesAMutatedAcceptedStaleWrite(t *testing.T) {
	accepted := kind(claim.Anomaly, func(c claim.Claim) bool { return c.What == history.AnomalyMutexOverlap && len(c.Accepted) > 0 })
	twice := kind(claim.Anomaly, func(c claim.Claim) bool { return c.What == history.AnomalyMutexOverlap && len(c.Accepted) > 1 })
	cases := []mutation{
		{"the stale write is not told as the newer holder's", corpus("c19a-shared-owner-token"),
			accepted, func(c *claim.Claim) { c.Client, c.By = c.By, c.Client }},
		{"a record that is no accepted write is not told as one", corpus("c19a-shared-owner-token"),
			accepted, func(c *claim.Claim) { c.Accepted = []int{c.Records[0]} }},
		{"the newer holder is not told as a client that held no grant", corpus("c19a-shared-owner-token"),
			accepted, func(c *claim.Claim) { c.By = "w9" }},
		{"the overlap is not told as ending before the stale write it names ran", corpus("c19a-shared-owner-token"),
			accepted, func(c *claim.Claim) { c.End = c.Start + 1 }},
		{"the first stale write told is not a later one, with an earlier left out", adviceRun("redlock-clock-jump"),
			twice, func(c *claim.Claim) { c.Accepted = slices.Clone(c.Accepted[1:]) }},
		{"the stale writes are told in the order they ran", adviceRun("redlock-clock-jump"),
			twice, func(c *claim.Claim) { c.Accepted = []int{c.Accepted[1], c.Accepted[0]} }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.try(t) })
	}
}
