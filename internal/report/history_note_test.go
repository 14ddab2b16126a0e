package report

import (
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A page whose charts were not drawn does not send its reader to "the
// timeline above" (reader 7, F11: every run page of a suite said so under
// "Charts not drawn for this run").
func TestThePorcupineNoteNamesTheTimelineOnlyWhereOneIsDrawn(t *testing.T) {
	for _, tt := range []struct {
		name  string
		lang  Lang
		skip  bool
		above bool
	}{
		{"a page with charts points to the timeline above", English, false, true},
		{"a page without charts does not", English, true, false},
		{"a Vietnamese page with charts points to it", Vietnamese, false, true},
		{"a Vietnamese page without charts does not", Vietnamese, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := gcPauseInput("local", false)
			in.Porcupine = porcupineView(in.History)
			in.Lang, in.SkipCharts = tt.lang, tt.skip
			dir, _ := writeReport(t, in)
			b, err := os.ReadFile(filepath.Join(dir, "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			page := html.UnescapeString(string(b))
			if got := strings.Contains(page, tr(tt.lang, "history.faults")); got != tt.above {
				t.Errorf("the page says %q: %v, want %v", tr(tt.lang, "history.faults"), got, tt.above)
			}
			if !tt.above && !strings.Contains(page, tr(tt.lang, "history.faults.nochart")) {
				t.Errorf("the page lacks %q", tr(tt.lang, "history.faults.nochart"))
			}
		})
	}
}
