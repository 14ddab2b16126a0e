package verify_test

import (
	"path/filepath"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// An extend whose commands also moved another client's key says so in its
// claim (reader 7, F4: every heartbeat of w2 extended the dead w1's
// leader-1 too, and the story said only "w2 extended its lock on
// leader-2"); the verifier refuses an Also the node's record does not show.
func TestAnExtendThatMovedAnothersKeyIsClaimedAndChecked(t *testing.T) {
	h, err := history.ReadFile(filepath.Join("..", "..", "report", "testdata", "accuracy", "c19f-orphan-kept-by-another-heartbeat.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var ext claim.Claim
	for _, c := range claim.Number(account.New(h).Claims()) {
		if c.Kind == claim.Extend && c.Client == "w2" && len(c.Also) > 0 {
			ext = c
			break
		}
	}
	if ext.Kind == "" || ext.Also[0].Key != "leader-1" || ext.Also[0].By != "w1" {
		t.Fatalf("no extend claim of w2 naming w1's leader-1 as also moved: %+v", ext)
	}
	mutate := func(f func(*claim.Holder)) claim.Claim {
		c := ext
		c.Also = append([]claim.Holder(nil), ext.Also...)
		f(&c.Also[0])
		return c
	}
	for _, tc := range []struct {
		name  string
		c     claim.Claim
		holds bool
	}{
		{"the claim as made holds", ext, true},
		{"another owner of the moved key is refused", mutate(func(k *claim.Holder) { k.By = "probe" }), false},
		{"the client's own key as another's is refused", mutate(func(k *claim.Holder) { k.By = "w2" }), false},
		{"a key the extend did not move is refused", mutate(func(k *claim.Holder) { k.Key = "leader-9" }), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := verify.Verify(h, []claim.Claim{tc.c})
			if got := len(r.Failures) == 0 && r.Held == 1; got != tc.holds {
				t.Errorf("holds = %v, want %v: %+v", got, tc.holds, r)
			}
		})
	}
}
