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

// TestEachResourceAWriteWentToHasARowOfItsOwn: the timeline draws a
// row per resource the run's writes went to, labelled with its name: a
// job's completion and failedReason on the job store's, its charges on
// the payment gateway's (reader 18: w1's failedReason drawn on a row
// labelled "payment gateway"); a run that only charged keeps one row.
func TestEachResourceAWriteWentToHasARowOfItsOwn(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		lang       Lang
		rows       []string
	}{
		{"a stalled job's run has a gateway row and a job store row", "c63a-job-writes-go-to-the-job-store", English, []string{"payment gateway", "job store"}},
		{"a stalled job's run has both rows in Vietnamese", "c63a-job-writes-go-to-the-job-store", Vietnamese, []string{"cổng thanh toán", "kho lưu job"}},
		{"a run that only charged keeps the gateway's one row", "c04-client-clock-jump-back", English, []string{"payment gateway"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := history.ReadFile(filepath.Join("testdata", "accuracy", tc.file+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			rep := checker.Check(context.Background(), h, checker.Options{})
			in := Input{History: h, Account: rep.Account, Verdict: rep.Verdict, Results: rep.Results, Lang: tc.lang}
			d := buildDrawing(in, newModel(in.History, in.Account), "")
			var rows []string
			for _, l := range d.Lanes {
				if l.Kind == chart.LaneResource {
					rows = append(rows, l.Label)
				}
			}
			if !slices.Equal(rows, tc.rows) {
				t.Errorf("resource rows %q, want %q", rows, tc.rows)
			}
			if n := timelineLanes(h); n != len(d.Lanes) {
				t.Errorf("timelineLanes says %d lanes, the drawing has %d", n, len(d.Lanes))
			}
		})
	}
}
