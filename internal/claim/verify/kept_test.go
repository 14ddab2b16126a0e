package verify_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// TestAKeptReleaseIsCheckedAgainstTheCommandThatKeptTheKey: a release
// that kept its key (a minimum hold's PEXPIRE; ShedLock's SET … PX … XX)
// is claimed as that, and the claim and the key's end at the deadline it
// set hold; claims that say another TTL, another time, or a keep of a
// release whose command deleted the key are refused (issue 27, reader
// findings 8 and 9).
func TestAKeptReleaseIsCheckedAgainstTheCommandThatKeptTheKey(t *testing.T) {
	ok := history.Value{Token: "a", TTL: 1000 * ms, Nodes: []string{"n1"}}
	rel := history.Value{Token: "a", Removed: true, Nodes: []string{"n1"}}
	later := []history.Op{
		clientOp(1, "w2", "k", history.Acquire, history.OK, 600, 610, history.Value{Token: "b", TTL: 1000 * ms, Nodes: []string{"n1"}}),
		nodeCmd("w2", "k", 605, "set", "k", "b", "px", "1000", "nx"),
	}
	for _, tc := range []struct {
		name string
		what string
		cmds []history.Op
	}{
		{"a PEXPIRE in the release's script kept the key", claim.Kept, []history.Op{nodeCmd("w1", "k", 105, "pexpire", "k", "300")}},
		{"a SET of a new value with XX and a TTL rewrote it", claim.Rewrote, []history.Op{nodeCmd("w1", "k", 105, "set", "k", "a2", "px", "300", "xx")}},
	} {
		ops := []history.Op{
			clientOp(0, "w1", "k", history.Acquire, history.OK, 0, 10, ok),
			nodeCmd("w1", "k", 5, "set", "k", "a", "px", "1000", "nx"),
			clientOp(0, "w1", "k", history.Release, history.OK, 100, 110, rel),
		}
		ops = append(append(ops, tc.cmds...), later...)
		h := small(ops...)
		cs := claimsOf(h)
		t.Run(tc.name+": its claims hold", func(t *testing.T) {
			if _, ok := claim.Find(cs, func(c claim.Claim) bool { return c.Kind == claim.Release && c.What == tc.what }); !ok {
				t.Fatalf("no Release claim %q: %+v", tc.what, cs)
			}
			if r := verify.Verify(h, cs); len(r.Failures) > 0 {
				t.Errorf("%d of %d claims are false:%s", len(r.Failures), len(cs), describe(r))
			}
		})
		for _, mut := range []struct {
			name   string
			kind   claim.Kind
			mutate func(*claim.Claim)
		}{
			{"a Release claim with another TTL", claim.Release, func(c *claim.Claim) { c.TTL += 100 * ms }},
			{"a Release claim that names the acquire's SET", claim.Release, func(c *claim.Claim) { c.Records[1] = 1; c.At = 5 * ms }},
			{"a key life kept from another time", claim.KeyLife, func(c *claim.Claim) { c.At -= 50 * ms }},
			{"a key life kept with another TTL", claim.KeyLife, func(c *claim.Claim) { c.TTL -= 50 * ms }},
		} {
			t.Run(tc.name+": "+mut.name+" is refused", func(t *testing.T) {
				i := -1
				for j, c := range cs {
					if c.Kind == mut.kind && (c.What == tc.what || mut.kind == claim.KeyLife && c.What == claim.Kept) {
						i = j
					}
				}
				if i < 0 {
					t.Fatalf("no %s claim to mutate", mut.kind)
				}
				c := cs[i]
				c.Records = append([]int(nil), c.Records...)
				mut.mutate(&c)
				if r := verify.Verify(h, []claim.Claim{c}); len(r.Failures) != 1 {
					t.Errorf("the mutated claim %+v was not refused", c)
				}
			})
		}
	}
	t.Run("a keep claimed of a release whose command deleted the key is refused", func(t *testing.T) {
		h := small(
			clientOp(0, "w1", "k", history.Acquire, history.OK, 0, 10, ok),
			nodeCmd("w1", "k", 5, "set", "k", "a", "px", "1000", "nx"),
			clientOp(0, "w1", "k", history.Release, history.OK, 100, 110, rel),
			nodeCmd("w1", "k", 105, "del", "k"),
		)
		c := claim.Claim{ID: "release-1", Kind: claim.Release, What: claim.Kept, Client: "w1", By: "w1", Key: "k", Node: "n1", Token: "a",
			Start: 100 * ms, End: 110 * ms, At: 105 * ms, TTL: 300 * ms, Records: []int{2, 3}}
		if r := verify.Verify(h, []claim.Claim{c}); len(r.Failures) != 1 {
			t.Errorf("the claim %+v was not refused", c)
		}
	})
}

// TestAKeptKeyIsCheckedAgainstTheHistory: an orphaned lease told as kept
// for the minimum hold (an Anomaly claim How Kept) holds as the checker
// makes it; told of a real orphan (a crashed holder's key), or of another
// client's key, it is refused.
func TestAKeptKeyIsCheckedAgainstTheHistory(t *testing.T) {
	claimsOf := func(name string) (history.History, []claim.Claim) {
		h, err := history.ReadFile(filepath.Join("..", "..", "report", "testdata", "accuracy", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		rep := checker.Check(context.Background(), h, checker.Options{})
		var out []claim.Claim
		for _, c := range checker.Claims(rep.Results) {
			if c.Kind == claim.Anomaly && c.What == history.AnomalyOrphanedLease {
				out = append(out, c)
			}
		}
		if len(out) == 0 {
			t.Fatalf("%s: no orphaned-lease claim", name)
		}
		return h, out
	}
	h, kept := claimsOf("c29a-min-hold-release-keeps-key")
	t.Run("the checker's kept keys hold", func(t *testing.T) {
		for _, c := range kept {
			if c.How != claim.Kept {
				t.Fatalf("claim %+v is not told as kept", c)
			}
		}
		if r := verify.Verify(h, claim.Number(kept)); len(r.Failures) > 0 || r.Held != len(kept) {
			t.Fatalf("the kept keys' claims do not hold: %+v", r)
		}
	})
	t.Run("a kept key said to be another client's is refused", func(t *testing.T) {
		bad := kept[0]
		bad.Client = "w9"
		if r := verify.Verify(h, claim.Number([]claim.Claim{bad})); len(r.Failures) != 1 {
			t.Fatalf("the false claim %+v was not refused: %+v", bad, r)
		}
	})
	t.Run("a crashed holder's orphan said to be kept is refused", func(t *testing.T) {
		h, orphans := claimsOf("c27a-crashed-holder-outage-from-first-refusal")
		bad := orphans[0]
		bad.How, bad.Node = claim.Kept, h.Header.Nodes[0]
		if r := verify.Verify(h, claim.Number([]claim.Claim{bad})); len(r.Failures) != 1 {
			t.Fatalf("the false claim %+v was not refused: %+v", bad, r)
		}
	})
}
