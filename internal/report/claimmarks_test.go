package report

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// TestTimelineMarksCarryTheIdsOfTheClaimsTheyDraw draws corpus runs and
// checks that each mark of a fact a claim states carries that claim's id,
// that the claim is of the fact's kind (a probe's bar: the key lives or
// permits its grant had, the account telling no belief of it; a refused
// attempt: the key it met, else its outcome; a violating write: the
// anomaly and the write's outcome) and about the mark's lane, and that
// the SVG writes it as data-claim.
func TestTimelineMarksCarryTheIdsOfTheClaimsTheyDraw(t *testing.T) {
	want := map[string][]claim.Kind{chart.ShHold: {claim.Hold, claim.KeyLife, claim.Permit}, chart.ShTry: {claim.Refusal, claim.Outcome},
		chart.ShShade: {claim.Fault}, chart.ShPause: {claim.Fault}, chart.ShKey: {claim.KeyLife}, chart.ShWriteBad: {claim.Anomaly, claim.Outcome}}
	for _, name := range []string{"c01-naive-del-foreign-unlock", "c19c-local-lock-left-held", "c10-inventory-oversell"} {
		t.Run(name+"'s marks name their claims", func(t *testing.T) {
			_, _, res, d, byID := markedRun(t, filepath.Join("testdata", "accuracy", name+".jsonl"))
			seen := map[string]int{}
			for _, s := range d.Shapes {
				ks, ok := want[s.Kind]
				if !ok || s.Claim == "" {
					continue
				}
				for _, id := range strings.Fields(s.Claim) {
					c, ok := byID[id]
					if !ok {
						t.Fatalf("a %s mark names claim %q, which the run does not make", s.Kind, id)
					}
					if !slices.Contains(ks, c.Kind) {
						t.Errorf("a %s mark names %s, a %s claim", s.Kind, c.ID, c.Kind)
					}
					lane := d.Lanes[s.Lane].Name
					if s.Kind == chart.ShKey && c.Node != lane || (s.Kind == chart.ShHold || s.Kind == chart.ShTry) && c.Client != lane {
						t.Errorf("the %s mark on lane %s names %s, about %s/%s", s.Kind, lane, c.ID, c.Client, c.Node)
					}
				}
				seen[s.Kind]++
			}
			for _, k := range []string{chart.ShHold, chart.ShKey} {
				if seen[k] == 0 {
					t.Errorf("no %s mark carries a claim id", k)
				}
			}
			svg := chart.RenderSVG(d, chart.SVGOptions{})
			attrs := regexp.MustCompile(`data-claim="([^"]+)"`).FindAllStringSubmatch(svg, -1)
			if len(attrs) == 0 {
				t.Fatal("the SVG has no data-claim")
			}
			for _, a := range attrs {
				for _, id := range strings.Fields(a[1]) {
					if _, ok := byID[id]; !ok || !slices.ContainsFunc(res.Claims, func(c claim.Claim) bool { return c.ID == id }) {
						t.Errorf("data-claim=%q names no claim", id)
					}
				}
			}
		})
	}
}

// markedRun checks the stored history at path and draws its timeline with
// every mark's claims (as index.html has them, before any windowing):
// the report's input and model, its results, the drawing, and the run's
// claims by id.
func markedRun(t *testing.T, path string) (Input, *model, Results, *chart.Drawing, map[string]claim.Claim) {
	t.Helper()
	h, err := history.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rep := checker.Check(context.Background(), h, checker.Options{})
	in := Input{History: h, Account: rep.Account, Verdict: rep.Verdict, Results: rep.Results}
	m := newModel(in.History, in.Account)
	res := buildResults(in, "", m)
	d := buildDrawing(in, m, "")
	markClaims(d, res.Claims)
	byID := map[string]claim.Claim{}
	for _, c := range res.Claims {
		byID[c.ID] = c
	}
	return in, m, res, d, byID
}
