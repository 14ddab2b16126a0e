package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Issue 27 (a fresh reader): the checkers table of a Vietnamese report
// said "không thấy vấn đề" (no problem found) for fencing in a run whose
// operations carried no fencing token, and both languages called it
// VALID: nothing was checked, and the row must say so.
func TestTheFencingRowOfARunWithoutTokensSaysNotChecked(t *testing.T) {
	row := regexp.MustCompile(`<tr[^>]*><td><code>fencing</code></td>(.*?)</tr>`)
	tests := []struct {
		name       string
		lang       Lang
		fenced     bool
		want, lack []string
	}{
		{"an en report without tokens says not checked", English, false,
			[]string{"NOT CHECKED", "not checked: no operation carried a fencing token"}, []string{"VALID"}},
		{"a vi report without tokens says không kiểm tra", Vietnamese, false,
			[]string{"KHÔNG KIỂM TRA", "không kiểm tra: không thao tác nào mang fencing token"}, []string{"không thấy vấn đề", "HỢP LỆ"}},
		{"an en report with tokens checked them", English, true, []string{"VALID"}, []string{"NOT CHECKED", "not checked"}},
		{"a vi report with tokens checked them", Vietnamese, true, []string{"HỢP LỆ"}, []string{"KHÔNG KIỂM TRA", "không kiểm tra"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := gcPauseInput("local", tt.fenced)
			in.Lang = tt.lang
			dir, _ := writeReport(t, in)
			b, err := os.ReadFile(filepath.Join(dir, IndexFile))
			if err != nil {
				t.Fatal(err)
			}
			m := row.FindStringSubmatch(string(b))
			if m == nil {
				t.Fatal("no fencing row in the checkers table")
			}
			// The checker's own English words sit in a <details> beside a
			// vi summary: judge the page's own words only.
			got := regexp.MustCompile(`(?s)<details.*?</details>`).ReplaceAllString(m[1], "")
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("fencing row %q lacks %q", got, w)
				}
			}
			for _, w := range tt.lack {
				if strings.Contains(got, w) {
					t.Errorf("fencing row %q says %q", got, w)
				}
			}
		})
	}
}
