package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
)

func anomaly(kind string, informational bool) checker.Anomaly {
	return checker.Anomaly{Kind: kind, Clients: []string{"w1", "w2"}, Key: "invoice-1", Informational: informational}
}

func TestJudgeComparesTheVerdictAndTheSetOfViolationKinds(t *testing.T) {
	overlap, double, lost := anomaly(checker.KindMutexOverlap, false), anomaly(checker.KindDoubleEffect, false), anomaly(checker.KindLostUpdate, false)
	tests := []struct {
		name       string
		verdict    string
		kinds      []string
		got        checker.Verdict
		anomalies  []checker.Anomaly
		unobserved bool
		want       Judgement
		undecided  []string
	}{
		{"the verdict alone is judged without kinds", "invalid", nil, checker.Invalid, []checker.Anomaly{lost}, false, Judgement{Met: true}, nil},
		{"another verdict misses", "valid", nil, checker.Invalid, []checker.Anomaly{lost}, false, Judgement{}, nil},
		{"the exact kinds meet it, in any order and any number", "invalid", []string{"double-effect", "mutex-overlap"}, checker.Invalid,
			[]checker.Anomaly{overlap, double, overlap}, false, Judgement{Met: true}, nil},
		{"a missing kind misses it", "invalid", []string{"double-effect", "mutex-overlap"}, checker.Invalid,
			[]checker.Anomaly{overlap}, false, Judgement{Missing: []string{"double-effect"}}, nil},
		{"an unexpected kind misses it", "invalid", []string{"mutex-overlap"}, checker.Invalid,
			[]checker.Anomaly{lost, overlap, double}, false, Judgement{Unexpected: []string{"double-effect", "lost-update"}}, nil},
		{"an informational anomaly is never unexpected", "valid", []string{}, checker.Valid,
			[]checker.Anomaly{anomaly(checker.KindMutexOverlap, true)}, false, Judgement{Met: true}, nil},
		{"an informational anomaly never counts as the expected kind", "invalid", []string{"mutex-overlap", "double-effect"}, checker.Invalid,
			[]checker.Anomaly{anomaly(checker.KindMutexOverlap, true), double}, false, Judgement{Missing: []string{"mutex-overlap"}}, nil},
		{"the wrong verdict with the right kinds misses it", "invalid", []string{"mutex-overlap"}, checker.Unknown,
			[]checker.Anomaly{overlap}, false, Judgement{}, nil},
		{"a kind only node events show is missing from an observed run", "invalid", []string{"orphaned-lease", "stuck-lock"}, checker.Invalid,
			[]checker.Anomaly{anomaly(checker.KindStuckLock, false)}, false, Judgement{Missing: []string{"orphaned-lease"}}, nil},
		{"a kind only node events show is unjudged in a run without them", "invalid", []string{"orphaned-lease", "stuck-lock"}, checker.Invalid,
			[]checker.Anomaly{anomaly(checker.KindStuckLock, false)}, true, Judgement{Met: true, Unjudged: []string{"orphaned-lease"}}, nil},
		{"a run without node events still misses the kinds it could show", "invalid", []string{"orphaned-lease", "stuck-lock"}, checker.Invalid,
			nil, true, Judgement{Missing: []string{"stuck-lock"}, Unjudged: []string{"orphaned-lease"}}, nil},
		{"a kind whose checker came out unknown is undecided, not missing", "invalid", []string{"mutex-overlap", "not-linearizable"}, checker.Invalid,
			[]checker.Anomaly{overlap}, false, Judgement{Met: true, Undecided: []string{"not-linearizable"}}, []string{"not-linearizable"}},
		{"an undecided checker excuses only its own kind", "invalid", []string{"double-effect", "not-linearizable"}, checker.Invalid,
			[]checker.Anomaly{overlap}, false, Judgement{Missing: []string{"double-effect"}, Unexpected: []string{"mutex-overlap"}, Undecided: []string{"not-linearizable"}}, []string{"not-linearizable"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Judge(tt.verdict, tt.kinds, tt.got, tt.anomalies, !tt.unobserved, tt.undecided...); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Judge = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestResultsSayWhichKindsWereMissingOrUnexpected(t *testing.T) {
	tests := []struct {
		name       string
		kinds      []string
		met        bool
		missing    []string
		unexpected []string
		page       string
	}{
		{"the run's own kinds meet it", []string{"double-effect", "mutex-overlap", "not-linearizable"}, true, nil, nil, "expectation met"},
		{"a kind the run did not show is missing", []string{"double-effect", "lost-update", "mutex-overlap", "not-linearizable"}, false, []string{"lost-update"}, nil, "Missing: lost-update."},
		{"a kind not expected is unexpected", []string{"mutex-overlap", "not-linearizable"}, false, nil, []string{"double-effect"}, "Found but not expected: double-effect."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := gcPauseInput("local", false)
			in.ExpectKinds = tt.kinds
			dir, res := writeReport(t, in)
			if res.ExpectationMet == nil || *res.ExpectationMet != tt.met || !reflect.DeepEqual(res.MissingKinds, tt.missing) || !reflect.DeepEqual(res.UnexpectedKinds, tt.unexpected) {
				t.Errorf("met %v, missing %v, unexpected %v", res.ExpectationMet, res.MissingKinds, res.UnexpectedKinds)
			}
			var stored map[string]any
			b, _ := os.ReadFile(filepath.Join(dir, "results.json"))
			if err := json.Unmarshal(b, &stored); err != nil {
				t.Fatal(err)
			}
			if ks, _ := stored["expect_kinds"].([]any); len(ks) != len(tt.kinds) {
				t.Errorf("results.json expect_kinds = %v", stored["expect_kinds"])
			}
			if _, ok := stored["missing_kinds"]; ok != (tt.missing != nil) {
				t.Errorf("results.json missing_kinds = %v", stored["missing_kinds"])
			}
			page, _ := os.ReadFile(filepath.Join(dir, IndexFile))
			if !strings.Contains(string(page), tt.page) {
				t.Errorf("index.html lacks %q", tt.page)
			}
		})
	}
	t.Run("without kinds results.json says so with a null", func(t *testing.T) {
		dir, _ := writeReport(t, gcPauseInput("local", false))
		b, _ := os.ReadFile(filepath.Join(dir, "results.json"))
		if !strings.Contains(string(b), `"expect_kinds": null`) {
			t.Errorf("results.json:\n%s", b)
		}
	})
}

func TestACutHistoryIsNotJudgedAndSaysSo(t *testing.T) {
	in := gcPauseInput("local", true)
	in.Cut = true
	dir, res := writeReport(t, in)
	if res.ExpectationMet != nil || !res.Cut {
		t.Errorf("cut run: met %v, cut %v", res.ExpectationMet, res.Cut)
	}
	page, _ := os.ReadFile(filepath.Join(dir, IndexFile))
	for _, want := range []string{`id="cut"`, "CUT OFF", "not judged — the history is cut off"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
}

func TestTheFixedScenarioIsLinkedOnceItsReportExists(t *testing.T) {
	out := t.TempDir()
	write := func(name, run string, lang Lang, in Input) string {
		dir := filepath.Join(out, name, run)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		in.Lang = lang
		if _, err := Write(dir, in); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	broken := gcPauseInput("local", false)
	broken.FixedBy = &Fixed{Name: "gc-pause-fencing", File: "scenarios/gc-pause-fencing.yaml"}
	dir := write("gc-pause", "20260101-000000-seed42", Vietnamese, broken)
	fixedVI := write("gc-pause-fencing", "20260101-000000-seed42", Vietnamese, gcPauseInput("local", true))
	write("gc-pause-fencing", "20260102-000000-seed42", English, gcPauseInput("local", true))

	t.Run("a page written before the fixed report has an empty slot", func(t *testing.T) {
		page, _ := os.ReadFile(filepath.Join(dir, IndexFile))
		if !strings.Contains(string(page), fixedSlot) {
			t.Errorf("no empty fixed-report slot in the page")
		}
	})
	t.Run("the latest report in the page's language is found, not a newer one in another", func(t *testing.T) {
		if got := LatestReport(out, "gc-pause-fencing", Vietnamese); got != filepath.Join(fixedVI, IndexFile) {
			t.Errorf("LatestReport = %q, want %q", got, filepath.Join(fixedVI, IndexFile))
		}
		if got := LatestReport(out, "gc-pause-fencing", "fr"); !strings.Contains(got, "20260102") {
			t.Errorf("an unknown language falls back to English: got %q", got)
		}
	})
	t.Run("LinkFixed fills the slot with a relative link in the page's language", func(t *testing.T) {
		if err := LinkFixed(dir, filepath.Join(fixedVI, IndexFile)); err != nil {
			t.Fatal(err)
		}
		page, _ := os.ReadFile(filepath.Join(dir, IndexFile))
		want := `<span id="fixed-report"> — <a href="../../gc-pause-fencing/20260101-000000-seed42/index.html">mở báo cáo của nó</a></span>`
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %s", want)
		}
	})
	t.Run("a page without a fixed scenario is left alone", func(t *testing.T) {
		before, _ := os.ReadFile(filepath.Join(fixedVI, IndexFile))
		if err := LinkFixed(fixedVI, filepath.Join(dir, IndexFile)); err != nil {
			t.Fatal(err)
		}
		after, _ := os.ReadFile(filepath.Join(fixedVI, IndexFile))
		if string(before) != string(after) {
			t.Error("LinkFixed changed a page with no slot")
		}
	})
}
