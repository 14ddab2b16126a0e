package report

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/lesson"
)

// seedCount finds a lesson text's own count or range of seeds: "10
// seeds", "seeds 9–13", "(10–19;" after a seed count, "10 seed" in
// Vietnamese.
var seedCount = regexp.MustCompile(`\d+ seeds?\b|seeds? \d+[–-]\d+`)

// measuredThen is how a lesson text says a number was measured by its
// author, not by the suite whose page shows it.
var measuredThen = map[string]string{"en": "when this text was written", "vi": "khi viết đoạn này"}

// runCountWordings read as a count of a scenario's runs where the text
// means the two scenarios of a pair (teacher12 N-4: "refuses the late
// charge in both of its runs" above "3 VALID (seeds 23–25)"; lesson 47's
// "Both runs are valid" of two scenarios run 3 seeds each, teacher13).
var runCountWordings = map[string][]string{"en": {"both of its runs", "both runs are valid"}, "vi": {"cả hai lần chạy của nó", "cả hai lần chạy đều hợp lệ"}}

// TestALessonsOwnMeasurementSaysWhenItWasMade: a lesson text that counts
// seeds gives a figure its author measured, not the suite's (a page shows
// the suite's own counts beside it): the sentence says it was measured
// when the text was written (teacher12 N-5: lesson 47's "in each of 10
// seeds (10–19; …)" under a suite that ran 3). And no text counts a
// scenario's runs where it means the scenarios of a pair (N-4).
func TestALessonsOwnMeasurementSaysWhenItWasMade(t *testing.T) {
	all, err := lesson.All()
	if err != nil {
		t.Fatal(err)
	}
	for n, l := range all {
		texts := proseOf(l)
		t.Run(fmt.Sprintf("lesson %d", n), func(t *testing.T) {
			for _, tx := range texts {
				for _, lang := range lesson.Languages {
					s := tx.In(lang)
					for _, sentence := range strings.Split(s, ". ") {
						if seedCount.MatchString(sentence) && !strings.Contains(sentence, measuredThen[lang]) {
							t.Errorf("%s: counts seeds without saying when: %q", lang, sentence)
						}
					}
					for _, w := range runCountWordings[lang] {
						if strings.Contains(strings.ToLower(s), w) {
							t.Errorf("%s: says %q: %s", lang, w, s)
						}
					}
				}
			}
		})
	}
}
