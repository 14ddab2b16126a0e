package report

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// storySlack is how far a step's time may lie outside its claim's
// window, scenario seconds: none but float rounding (Step.T is the exact
// scenario time of the instant the step is placed at; only the page rounds
// it, to 0.1 s).
const storySlack = 1e-6

// TestEveryStoryStepRendersATrueClaim reads every accuracy-corpus history
// as a report does and checks, in both languages, that each story step
// names the claim it renders (issue 27): a claim of the run's results, a
// window that holds the step's time, and — all of them together — claims
// the independent verifier does not refuse.
func TestEveryStoryStepRendersATrueClaim(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "accuracy", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		h, err := history.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rep := checker.Check(context.Background(), h, checker.Options{})
		in := Input{History: h, Account: rep.Account, Verdict: rep.Verdict, Results: rep.Results}
		m := newModel(in.History, in.Account)
		cs := buildResults(in, "", m).Claims
		byID := map[string]claim.Claim{}
		for _, c := range cs {
			byID[c.ID] = c
		}
		for _, lang := range []Lang{"en", "vi"} {
			t.Run(name+" in "+string(lang)+" tells only claims that hold", func(t *testing.T) {
				in.Lang = lang
				var told []claim.Claim
				seen := map[string]bool{}
				for _, s := range narrative(in, m) {
					c, ok := byID[s.Claim]
					switch {
					case s.Claim == "":
						t.Errorf("%s (%s) renders no claim", s, s.Kind)
						continue
					case !ok:
						t.Errorf("%s (%s) names claim %q, which the run does not make", s, s.Kind, s.Claim)
						continue
					}
					if from, to := m.sec(c.Start), m.sec(c.End); s.T < from-storySlack || s.T > to+storySlack {
						t.Errorf("%s (%s) is placed outside its claim %s's window [%.3f, %.3f]", s, s.Kind, c.ID, from, to)
					}
					if !seen[c.ID] {
						seen[c.ID] = true
						told = append(told, c)
					}
				}
				if r := verify.Verify(h, told); len(r.Failures) > 0 {
					for _, fl := range r.Failures {
						t.Errorf("the story tells claim %s (%s), which the history contradicts: %s (records %v)", fl.Claim.ID, fl.Claim.Kind, fl.Reason, fl.Records)
					}
				}
			})
		}
	}
}
