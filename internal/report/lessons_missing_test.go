package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
)

// Reader 6 (A3): lesson 47 said "The fix of node-clock-rate,
// scenarios/node-clock-rate-safe.yaml, was not run in this suite" (vi
// "Bản sửa của …") while node-clock-rate's own report calls that file
// "not a fix but a contrast". A run's results.json keeps what its
// fixed_by is (Fixed.Side, FixSide's rule), and a lesson page without a
// run of it names it by that, as the run's report does.
func TestALessonPageNamesAContrastItDidNotRunAsAContrast(t *testing.T) {
	t.Run("results.json keeps what the run's fixed_by is", func(t *testing.T) {
		dir := t.TempDir()
		in := gcPauseInput("local", false)
		in.FixedBy = &Fixed{Name: "gc-pause-safe", File: "scenarios/gc-pause-safe.yaml", Side: "contrast.clock"}
		if _, err := Write(dir, in); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		var r Results
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if r.FixedBySide != "contrast.clock" {
			t.Errorf("fixed_by_side = %q, want contrast.clock", r.FixedBySide)
		}
	})
	ok := true
	for _, c := range []struct{ broken, side, want, lack string }{
		{"node-clock-rate.yaml", "contrast.clock", "lesson.missing.contrast", "lesson.missing.fixed"},
		{"redlock-restart.yaml", "contrast.restart", "lesson.missing.contrast", "lesson.missing.fixed"},
		{"redlock-clock-jump.yaml", "", "lesson.missing.fixed", "lesson.missing.contrast"},
	} {
		for _, lang := range []Lang{English, Vietnamese} {
			name := "a missing fixed_by of side " + c.side + " of " + c.broken + " is told by " + c.want + " in " + string(lang)
			t.Run(name, func(t *testing.T) {
				out := t.TempDir()
				runs := suiteOf(t, out, []lessonRun{
					{c.broken, Results{Verdict: checker.Invalid, Algorithm: "redlock", Workload: "payment", Seed: 8, FixedBySide: c.side,
						Anomalies: []checker.Anomaly{{Kind: checker.KindDoubleEffect}}, ExpectationMet: &ok}, []int{47}},
				})
				if runs[0].FixedBy == "" {
					t.Fatalf("%s names no fixed_by", c.broken)
				}
				page := writtenLesson(t, out, runs, lang, 47)
				want := tr(lang, c.want, runs[0].Scenario, runs[0].FixedBy)
				lack := tr(lang, c.lack, runs[0].Scenario, runs[0].FixedBy)
				if !strings.Contains(page, want) || strings.Contains(page, lack) {
					t.Errorf("lesson 47: want %q, and no %q", want, lack)
				}
			})
		}
	}
}
