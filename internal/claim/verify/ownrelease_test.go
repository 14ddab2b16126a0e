package verify_test

import (
	"testing"

	"github.com/locksim/locksim/internal/claim"
)

// TestVerifierRefusesFalseOwnReleaseMisses takes the extend a run tells as
// reaching its node after its client's own release (an Extend claim
// Missed, Own: reader 15, writer-exists-check, w3's last renewal), checks
// that the verifier accepts it, then makes it false and checks that the
// verifier refuses it.
func TestVerifierRefusesFalseOwnReleaseMisses(t *testing.T) {
	own := kind(claim.Extend, func(c claim.Claim) bool { return c.What == claim.Missed && c.Own })
	cases := []mutation{
		{"the extend's command ran when the node recorded it", corpus("c58d-renewal-after-own-release"), own,
			func(c *claim.Claim) { c.At++ }},
		{"the key was removed by the client's own release's command", corpus("c58d-renewal-after-own-release"), own,
			func(c *claim.Claim) { c.Records[2] = 176 }}, // w1's DEL of w2's key at t=50.4s
		{"the key was removed before the extend's command ran", corpus("c58d-renewal-after-own-release"), own,
			func(c *claim.Claim) { c.Records[1], c.At = 223, 3052132252 }}, // w3's EXISTS, before its DEL
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.try(t) })
	}
}

// TestVerifierRefusesFalseKeysAnExistsFound takes the EXISTS check a run
// tells as passing on another client's key (a Command claim with By:
// reader 15, writer-exists-check, w1's check on w2's key), checks that the
// verifier accepts it, then makes it false and checks that it is refused.
func TestVerifierRefusesFalseKeysAnExistsFound(t *testing.T) {
	found := kind(claim.Command, func(c claim.Claim) bool { return c.What == "exists" && c.By == "w2" && c.Client == "w1" })
	cases := []mutation{
		{"the key an EXISTS found is the one standing", corpus("c58f-exists-check-passes-on-next-holders-key"), found,
			func(c *claim.Claim) { c.By = "w1" }},
		{"the key an EXISTS found holds the value its setter wrote", corpus("c58f-exists-check-passes-on-next-holders-key"), found,
			func(c *claim.Claim) { c.Token = "37f41b9cf8b045368d257412c0e8921f" }}, // w1's own, expired at t=30.1s
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.try(t) })
	}
}
