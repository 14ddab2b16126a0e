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
