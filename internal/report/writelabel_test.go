package report

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// TestAViolatingWriteIsLabelledByTheWriteThatWasAccepted: the timeline's
// label on a violating write names the action the history records as
// accepted. In c19e (bull #1416) the violation is w1's unchecked failure
// record (failedReason, op 80), which a teacher saw labelled "w1 charged"
// ("w1 đã trừ tiền"): the label of an action without a timeline word fell
// back to "charged" (teacher finding 28, issue 27).
func TestAViolatingWriteIsLabelledByTheWriteThatWasAccepted(t *testing.T) {
	h, err := history.ReadFile(filepath.Join("testdata", "accuracy", "c19e-stalled-job-failed-reason.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	const failureRecord = 80
	if o := h.Ops[failureRecord]; o.Value.Action != "record-failure" || o.Type != history.OK {
		t.Fatalf("op %d is %s %s, not the accepted failure record", failureRecord, o.Value.Action, o.Type)
	}
	rep := checker.Check(context.Background(), h, checker.Options{})
	for _, tc := range []struct {
		lang        Lang
		want, wrong string
	}{
		{English, "w1 wrote failedReason", "charged"},
		{Vietnamese, "w1 đã ghi failedReason", "trừ tiền"},
	} {
		t.Run("the "+string(tc.lang)+" label names the failure record, not a charge", func(t *testing.T) {
			in := Input{History: h, Account: rep.Account, Verdict: rep.Verdict, Results: rep.Results, Lang: tc.lang}
			d := buildDrawing(in, newModel(in.History, in.Account), "")
			var texts []string
			for _, l := range d.Labels {
				if strings.Contains(l.Ref, "#80@") && strings.HasPrefix(l.Ref, "violating#") {
					texts = append(texts, l.Text)
				}
			}
			if len(texts) == 0 {
				t.Fatal("no label on the violating failure record")
			}
			found := false
			for _, s := range texts {
				if strings.Contains(s, tc.wrong) {
					t.Errorf("the failure record is labelled %q", s)
				}
				found = found || s == tc.want
			}
			if !found {
				t.Errorf("labels %q, want one %q", texts, tc.want)
			}
			// Its tooltip said "accepted by the payment gateway": the
			// failedReason goes to the job record (teacher finding 28).
			b := &builder{m: newModel(in.History, in.Account), in: in, lang: tc.lang, d: d, lane: map[string]int{}, res: map[string]int{}, legend: map[string]bool{}}
			tip := b.writeTip(h.Ops[failureRecord], h.Ops[failureRecord].Value.Fence, "")
			if strings.Contains(tip, tr(tc.lang, "lane.resource.payment")) || !strings.Contains(tip, tr(tc.lang, "resource.job-store")) {
				t.Errorf("the failure record's tip %q names the gateway, not the job store", tip)
			}
		})
	}
}
