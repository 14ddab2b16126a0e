package report

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// TestTimelineMarksCarryTheIdsOfTheClaimsTheyDraw draws corpus runs and
// checks that each mark of a fact a claim states carries that claim's id,
// that the claim is of the fact's kind and about the mark's lane, and that
// the SVG writes it as data-claim.
func TestTimelineMarksCarryTheIdsOfTheClaimsTheyDraw(t *testing.T) {
	want := map[string]claim.Kind{chart.ShHold: claim.Hold, chart.ShTry: claim.Refusal, chart.ShShade: claim.Fault, chart.ShPause: claim.Fault, chart.ShKey: claim.KeyLife, chart.ShWriteBad: claim.Anomaly}
	for _, name := range []string{"c01-naive-del-foreign-unlock", "c19c-local-lock-left-held", "c10-inventory-oversell"} {
		t.Run(name+"'s marks name their claims", func(t *testing.T) {
			h, err := history.ReadFile(filepath.Join("testdata", "accuracy", name+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			rep := checker.Check(context.Background(), h, checker.Options{})
			in := Input{History: h, Account: rep.Account, Verdict: rep.Verdict, Results: rep.Results}
			m := newModel(in.History, in.Account)
			res := buildResults(in, "", m)
			d := buildDrawing(in, m, "")
			markClaims(d, res.Claims, m)
			byID := map[string]claim.Claim{}
			for _, c := range res.Claims {
				byID[c.ID] = c
			}
			seen := map[string]int{}
			for _, s := range d.Shapes {
				k, ok := want[s.Kind]
				if !ok || s.Claim == "" {
					continue
				}
				c, ok := byID[s.Claim]
				if !ok {
					t.Fatalf("a %s mark names claim %q, which the run does not make", s.Kind, s.Claim)
				}
				if c.Kind != k {
					t.Errorf("a %s mark names %s, a %s claim", s.Kind, c.ID, c.Kind)
				}
				lane := d.Lanes[s.Lane].Name
				if (c.Kind == claim.Hold || c.Kind == claim.Refusal) && c.Client != lane || c.Kind == claim.KeyLife && c.Node != lane {
					t.Errorf("the %s mark on lane %s names %s, about %s/%s", s.Kind, lane, c.ID, c.Client, c.Node)
				}
				seen[s.Kind]++
			}
			for _, k := range []string{chart.ShHold, chart.ShKey} {
				if seen[k] == 0 {
					t.Errorf("no %s mark carries a claim id", k)
				}
			}
			svg := chart.RenderSVG(d, chart.SVGOptions{})
			ids := regexp.MustCompile(`data-claim="([a-z-]+-[0-9]+)"`).FindAllStringSubmatch(svg, -1)
			if len(ids) == 0 {
				t.Fatal("the SVG has no data-claim")
			}
			for _, id := range ids {
				if _, ok := byID[id[1]]; !ok || !slices.ContainsFunc(res.Claims, func(c claim.Claim) bool { return c.ID == id[1] }) {
					t.Errorf("data-claim=%q names no claim", id[1])
				}
			}
		})
	}
}
