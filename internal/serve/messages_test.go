package serve

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/report"
)

// keyRE finds the message keys the templates and the Go code name.
var keyRE = regexp.MustCompile(`\bt\(?\s*[$.\w]*Lang,?\s+"([a-z][a-z0-9.-]+)"|\bt\(lang, "([a-z][a-z0-9.-]+)"`)

func TestEveryPageMessageIsInEveryLanguage(t *testing.T) {
	for _, lang := range report.Languages() {
		if _, ok := messages[lang]; !ok {
			t.Errorf("the reports speak %s; the pages do not", lang)
		}
	}
	for lang, table := range messages {
		for key := range table {
			for other := range messages {
				if _, ok := messages[other][key]; !ok {
					t.Errorf("%s has %q, %s has not", lang, key, other)
				}
			}
		}
	}
	t.Run("every key a page or the code names is in the table", func(t *testing.T) {
		files, _ := filepath.Glob("templates/*.html")
		more, _ := filepath.Glob("*.go")
		found := 0
		for _, f := range append(files, more...) {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range keyRE.FindAllStringSubmatch(string(b), -1) {
				key := m[1] + m[2]
				found++
				if _, ok := messages[report.English][key]; !ok {
					t.Errorf("%s names message %q, which is not in the table", f, key)
				}
			}
		}
		if found < 80 {
			t.Errorf("found only %d message keys named: the search is broken", found)
		}
	})
	t.Run("the Vietnamese speaks the glossary", func(t *testing.T) {
		for key, msg := range messages[report.Vietnamese] {
			if bad := report.EnglishFieldWords(msg); len(bad) > 0 && !slices.Contains([]string{"lang.en"}, key) {
				t.Errorf("%s: %q has English field words %q", key, msg, bad)
			}
		}
	})
}
