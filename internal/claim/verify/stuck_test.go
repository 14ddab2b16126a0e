package verify_test

import (
	"path/filepath"
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// TestAStuckLockIsCheckedFromWhenItsHolderStoppedUsingIt: a stuck lock's
// claim says when its holder took the lock (Since) and when and how it
// stopped using it (Start, How: its lost release), and the verifier
// checks both against the records; a claim with the window from the
// grant, another release time, another answer, or another take is
// refused (issue 27, a fresh reader).
func TestAStuckLockIsCheckedFromWhenItsHolderStoppedUsingIt(t *testing.T) {
	h, err := history.ReadFile(filepath.Join("..", "..", "report", "testdata", "accuracy", "c62a-stuck-lock-window-from-lost-release.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	cs := claimsOf(h)
	stuck := func(c claim.Claim) bool { return c.Kind == claim.Anomaly && c.What == "stuck-lock" }
	c, ok := claim.Find(cs, stuck)
	if !ok || c.How != "release-lost" || c.Since == 0 || c.Start == c.Since {
		t.Fatalf("no stuck lock claim of a lost release with its own Since: %+v", c)
	}
	t.Run("its claims hold", func(t *testing.T) {
		if r := verify.Verify(h, cs); len(r.Failures) > 0 {
			t.Errorf("%d of %d claims are false:%s", len(r.Failures), len(cs), describe(r))
		}
	})
	for _, mut := range []struct {
		name   string
		mutate func(*claim.Claim)
	}{
		{"the window from the grant though the holder's release came later", func(c *claim.Claim) { c.Start = c.Since }},
		{"the window from the grant with no word of the release", func(c *claim.Claim) { c.Start, c.How, c.Records = c.Since, "", c.Records[:2] }},
		{"the release at another time", func(c *claim.Claim) { c.Start += 5 * ms }},
		{"a release said to have failed, though it got no answer", func(c *claim.Claim) { c.How = "release-failed" }},
		{"the lock taken at another time", func(c *claim.Claim) { c.Since -= 50 * ms }},
		{"a crash that did not happen", func(c *claim.Claim) { c.How = "crashed" }},
	} {
		t.Run("refused: "+mut.name, func(t *testing.T) {
			bad := append([]claim.Claim(nil), cs...)
			for i := range bad {
				if stuck(bad[i]) {
					bad[i].Records = append([]int(nil), bad[i].Records...)
					mut.mutate(&bad[i])
				}
			}
			if r := verify.Verify(h, bad); len(r.Failures) == 0 {
				t.Errorf("the mutated claim was not refused")
			}
		})
	}
}
