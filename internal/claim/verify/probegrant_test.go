package verify_test

import (
	"path/filepath"
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// TestAGrantedProbeIsToldWhenItsSetRan: an ok final probe returns only
// after its own release, so its line is told when its SET ran on the
// node (the Op claim's At, its second record the SET), not at its
// completion (a fresh reader, issue 27: a probe step stamped at its
// completion rather than its grant); the verifier refuses the claim at
// any other instant, or naming another command.
func TestAGrantedProbeIsToldWhenItsSetRan(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "report", "testdata", "accuracy", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, f := range files {
		if found >= 3 {
			break
		}
		h, err := history.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cs := claimsOf(h)
		probe := func(c claim.Claim) bool {
			return c.Kind == claim.Op && c.What == string(history.Probe) && len(c.Records) > 1
		}
		c, ok := claim.Find(cs, probe)
		if !ok {
			continue
		}
		found++
		name := filepath.Base(f)
		t.Run(name+": told at its SET, before its completion", func(t *testing.T) {
			if c.At >= c.End || c.At != h.Ops[c.Records[1]].Invoke {
				t.Errorf("probe told at %d, its SET ran at %d, it completed at %d", c.At, h.Ops[c.Records[1]].Invoke, c.End)
			}
			if r := verify.Verify(h, []claim.Claim{c}); len(r.Failures) > 0 {
				t.Errorf("its claim is false:%s", describe(r))
			}
		})
		for _, mut := range []struct {
			name   string
			mutate func(*claim.Claim)
		}{
			{"told at its completion with its SET named", func(c *claim.Claim) { c.At = c.End }},
			{"naming the probe itself as its SET", func(c *claim.Claim) { c.Records[1] = c.Records[0] }},
		} {
			t.Run(name+": refused: "+mut.name, func(t *testing.T) {
				bad := c
				bad.Records = append([]int(nil), c.Records...)
				mut.mutate(&bad)
				if r := verify.Verify(h, []claim.Claim{bad}); len(r.Failures) == 0 {
					t.Errorf("the mutated claim was not refused")
				}
			})
		}
	}
	if found == 0 {
		t.Fatal("no ok probe told at its SET in the corpus")
	}
}
