package verify_test

import (
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// TestAKeyThawedOnAFrozenNodeIsCheckedAgainstItsDeadline: host-sleep
// (seed 707, the report corpus's c30e) has w1's key's TTL run out at
// t≈16.7 s while n1 was SIGSTOPped (13.0–27.0 s); the key left when n1
// woke. Its KeyLife claim says so (Thawed, At the deadline) and holds; a
// claim with another deadline, or thawed at a deadline no freeze covered,
// is refused (a second reader's finding 13).
func TestAKeyThawedOnAFrozenNodeIsCheckedAgainstItsDeadline(t *testing.T) {
	h, err := history.ReadFile("../../report/testdata/accuracy/c30e-expiry-due-while-node-frozen.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	cs := claimsOf(h)
	i := slices.IndexFunc(cs, func(c claim.Claim) bool { return c.Kind == claim.KeyLife && c.What == claim.Thawed })
	if i < 0 {
		t.Fatal("no KeyLife claim Thawed")
	}
	t.Run("the thawed key life holds", func(t *testing.T) {
		if r := verify.Verify(h, cs); len(r.Failures) > 0 {
			t.Errorf("%d of %d claims are false:%s", len(r.Failures), len(cs), describe(r))
		}
	})
	for _, mut := range []struct {
		name   string
		mutate func(*claim.Claim)
	}{
		{"a thawed key life with another deadline is refused", func(c *claim.Claim) { c.At -= h.Header.Wall(1e9) }},
		{"a key life thawed at its end is refused", func(c *claim.Claim) { c.At = c.End }},
		{"a key life thawed before any freeze is refused", func(c *claim.Claim) { c.At = c.Start + 1 }},
	} {
		t.Run(mut.name, func(t *testing.T) {
			bad := slices.Clone(cs)
			mut.mutate(&bad[i])
			if r := verify.Verify(h, bad); !slices.ContainsFunc(r.Failures, func(f verify.Failure) bool { return f.Claim.ID == bad[i].ID }) {
				t.Errorf("the mutated claim %+v holds", bad[i])
			}
		})
	}
}
