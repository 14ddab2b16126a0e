package report

import (
	"strings"
	"testing"
)

// A suite of several files draws charts only for the runs that missed their
// expectation (suite.notable): the first seed is charted only in a sweep of
// one file. The note once said "in a sweep (--count) … the first seed" on a
// first seed of a two-file suite, which had no --count and no charts.
func TestTheChartsNoteGivesTheSuitesRuleNotOnlyASweeps(t *testing.T) {
	for _, lang := range []Lang{English, Vietnamese} {
		t.Run(string(lang)+" says a suite draws only its notable runs", func(t *testing.T) {
			got := tr(lang, "charts.skipped", "locksim check DIR")
			want := map[Lang]string{English: "a suite draws them only for its notable runs", Vietnamese: "một suite chỉ vẽ biểu đồ cho các lần chạy đáng chú ý"}[lang]
			if !strings.Contains(got, want) {
				t.Fatalf("%q lacks %q", got, want)
			}
		})
	}
}
