package report

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// The headline of a run whose holder acted after its lease ended with no
// contender trying ("w1's charge came 1.0 s after its lease ended; no
// other client tried …") renders the run's Exposure claim, beside the
// coverage checker's verdict, in every language; and that claim is not
// refuted by the history.
func TestAnExposureHeadlineRendersItsExposureClaim(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "checker", "testdata", "histories", "unknown-exposure-*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no stored exposure run: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		t.Run(name+" marks its headline with its exposure claim", func(t *testing.T) {
			h, in, m, cs := checkedRun(t, f)
			c, ok := claim.Find(cs, func(c claim.Claim) bool { return c.Kind == claim.Exposure })
			if !ok {
				t.Fatal("the run makes no exposure claim")
			}
			if r := verify.Verify(h, []claim.Claim{c}); len(r.Failures) > 0 {
				t.Fatalf("its exposure claim is false: %+v", r.Failures)
			}
			for _, lang := range []Lang{English, Vietnamese} {
				in.Lang = lang
				said := headlineOf(in, m, cs)
				if len(said) != 1 || !slices.Contains(strings.Fields(said[0].Claim), c.ID) {
					t.Errorf("%s: headline %+v does not render claim %s", lang, said, c.ID)
				}
			}
		})
	}
}

// A contender's try in flight in the exposure window and granted only
// after it is told as such: the headline never says no other client's try
// reached Redis
// (client-clock-skew seed 33 beside two CPU hogs: w2's acquire, invoked
// 5 ms into the window, set its key on four nodes in it and was granted
// 26 ms after w1's charge).
func TestAnExposureWhoseContenderWasGrantedAfterItSaysSo(t *testing.T) {
	_, in, m, cs := checkedRun(t, filepath.Join("..", "checker", "testdata", "histories", "unknown-exposure-try-granted-after-client-clock-skew-s33.jsonl"))
	for _, tt := range []struct {
		lang      Lang
		want, not string
	}{
		{English, "the try w2 began at t=10.1s was granted only at t=11.0s, after it", "reached Redis in that window"},
		{Vietnamese, "lần thử w2 bắt đầu lúc t=10,1s chỉ được cấp lock lúc t=11,0s", "tới được Redis trong khoảng đó"},
	} {
		in.Lang = tt.lang
		said := headlineOf(in, m, cs)
		if len(said) != 1 || !strings.Contains(said[0].Text, tt.want) || strings.Contains(said[0].Text, tt.not) {
			t.Errorf("%s: headline %+v, want it to say %q and not %q", tt.lang, said, tt.want, tt.not)
		}
	}
}

// checkedRun reads the stored history f and checks it as locksim check
// does: the history, the report's input, its model and its claims.
func checkedRun(t *testing.T, f string) (history.History, Input, *model, []claim.Claim) {
	t.Helper()
	h, err := history.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	rep := checker.Check(context.Background(), h, checker.Options{})
	in := Input{History: h, Account: rep.Account, Verdict: rep.Verdict, Results: rep.Results}
	m := newModel(in.History, in.Account)
	return h, in, m, buildResults(in, "", m).Claims
}
