package report

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// TestAReplyOnlyCutIsLabelledByItsDirection: a partition of direction
// replies (local-lock-left-held: n1's replies to w1 lost, w1's release
// still ran on n1) is labelled on the timeline as replies lost, on the
// node's lane and the client's, in both languages; never "cut from"
// (reader 15: "cut from w1" / "cut from n1" of a cut that let w1's
// commands through).
func TestAReplyOnlyCutIsLabelledByItsDirection(t *testing.T) {
	h, err := history.ReadFile(filepath.Join("testdata", "accuracy", "c57b-partition-replies-only.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rep := checker.Check(context.Background(), h, checker.Options{})
	for _, lang := range Languages() {
		in := Input{History: h, Account: rep.Account, Verdict: rep.Verdict, Results: rep.Results, Lang: lang}
		d := drawingOf(t, in)
		for _, want := range []struct{ lane, text string }{
			{"n1", tr(lang, "p.cut.replies.node", "w1")},
			{"w1", tr(lang, "p.cut.replies.client", "n1")},
		} {
			i := laneNamed(d, want.lane)
			if !slices.ContainsFunc(d.Labels, func(l chart.Label) bool { return l.Lane == i && l.Text == want.text }) {
				t.Errorf("%s: lane %s is not labelled %q", lang, want.lane, want.text)
			}
			for _, old := range []string{tr(lang, "p.cut", "w1"), tr(lang, "p.cut", "n1")} {
				if slices.ContainsFunc(d.Labels, func(l chart.Label) bool { return l.Lane == i && l.Text == old }) {
					t.Errorf("%s: lane %s is still labelled %q", lang, want.lane, old)
				}
			}
		}
	}
}
