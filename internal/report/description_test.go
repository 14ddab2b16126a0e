package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 31: on a Vietnamese report the scenario's description stayed
// English at the top of the page; description_vi is shown instead, and
// the English one only for want of it (marked lang="en").
func TestAVietnameseReportLeadsWithTheVietnameseDescription(t *testing.T) {
	const en, vi = "A 35 s GC pause outlives a 30 s lease; the invoice is charged twice.", "Một lần dừng GC 35 s kéo dài hơn lease 30 s; khách bị trừ tiền hai lần."
	tests := []struct {
		name       string
		lang       Lang
		descVI     string
		want, lack string
	}{
		{"a vi report shows description_vi", Vietnamese, vi, vi, en},
		{"an en report shows description", English, vi, en, vi},
		{"a vi report without description_vi shows the English, marked as English", Vietnamese, "", `lang="en"`, vi},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := gcPauseInput("local", false)
			in.Lang, in.Description, in.DescriptionVI = tt.lang, en, tt.descVI
			dir, _ := writeReport(t, in)
			b, err := os.ReadFile(filepath.Join(dir, IndexFile))
			if err != nil {
				t.Fatal(err)
			}
			page := string(b)
			if !strings.Contains(page, tt.want) || strings.Contains(page, tt.lack) {
				t.Errorf("index.html (%s): want %q, and no %q", tt.lang, tt.want, tt.lack)
			}
		})
	}
}

// A scenario's description heads every card of its runs, whichever seed
// a suite shows: it must not promise an outcome that not every run had
// (teacher11 G7: watchdog-gc-pause seed 18 was invalid by an overlap
// alone, with no double charge, while its card said "the invoice is
// charged twice").
func TestAScenarioDescriptionPromisesNoOutcomeNotEveryRunHad(t *testing.T) {
	for _, tt := range []struct{ file, en, vi string }{
		{"watchdog-gc-pause.yaml", "the invoice is charged twice", "khách bị trừ tiền hai lần"},
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", "scenarios", tt.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "description:") && strings.Contains(l, tt.en) ||
				strings.HasPrefix(l, "description_vi:") && strings.Contains(l, tt.vi) {
				t.Errorf("%s: %q", tt.file, l)
			}
		}
	}
}
