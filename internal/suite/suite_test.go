package suite

import (
	"context"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/clients/clientstest"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
)

func corpus(t *testing.T, name string) history.History {
	t.Helper()
	h, err := history.ReadFile(filepath.Join("..", "checker", "testdata", "histories", name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestAnalyseGivesAPartialHistoryAtMostUnknownUnlessItShowsAViolation(t *testing.T) {
	clean, broken := corpus(t, "valid-counter-increments"), corpus(t, "invalid-kleppmann-timeline-1-s01")
	tests := []struct {
		name string
		h    history.History
		o    AnalyseOptions
		want checker.Verdict
	}{
		{"a clean whole history is valid", clean, AnalyseOptions{}, checker.Valid},
		{"a clean history of an aborted run is unknown", clean, AnalyseOptions{Aborted: true}, checker.Unknown},
		{"a clean cut-off history is unknown", clean, AnalyseOptions{Cut: true}, checker.Unknown},
		{"a violation in a cut-off history stands", broken, AnalyseOptions{Cut: true}, checker.Invalid},
		{"a violation in an aborted run stands", broken, AnalyseOptions{Aborted: true}, checker.Invalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := Analyse(context.Background(), scenario.Scenario{Name: tt.h.Header.Scenario}, tt.h, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			if in.Verdict != tt.want || in.Cut != tt.o.Cut || in.Aborted != tt.o.Aborted {
				t.Errorf("verdict %s cut %v aborted %v, want %s", in.Verdict, in.Cut, in.Aborted, tt.want)
			}
		})
	}
}

func TestAnalyseCarriesTheExpectationAndTheFixedScenario(t *testing.T) {
	dir := t.TempDir()
	fixed := filepath.Join(dir, "the-fix.yaml")
	if err := os.WriteFile(fixed, []byte("name: made-harmless\nclients: 2\nalgorithm: fenced\nttl: 30s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sc := scenario.Scenario{Name: "broken", File: filepath.Join(dir, "broken.yaml"), FixedBy: "the-fix.yaml",
		Expect: scenario.Expectation{Verdict: "invalid", Kinds: []string{checker.KindDoubleEffect}}}
	h := corpus(t, "invalid-kleppmann-timeline-1-s01")
	t.Run("the scenario's fixed_by becomes the report's fixed scenario, by its own name", func(t *testing.T) {
		in, err := Analyse(context.Background(), sc, h, AnalyseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if in.FixedBy == nil || in.FixedBy.Name != "made-harmless" || in.FixedBy.File != fixed {
			t.Errorf("FixedBy = %+v", in.FixedBy)
		}
		if in.Expect != "invalid" || len(in.ExpectKinds) != 1 {
			t.Errorf("expect %q kinds %v", in.Expect, in.ExpectKinds)
		}
	})
	t.Run("a stored report's fixed_by overrides, named by its file when it cannot be read", func(t *testing.T) {
		in, _ := Analyse(context.Background(), sc, h, AnalyseOptions{FixedBy: "elsewhere/gone-fix.yaml"})
		if in.FixedBy == nil || in.FixedBy.Name != "gone-fix" {
			t.Errorf("FixedBy = %+v", in.FixedBy)
		}
	})
	t.Run("a scenario without fixed_by names none", func(t *testing.T) {
		in, _ := Analyse(context.Background(), scenario.Scenario{Name: "x"}, h, AnalyseOptions{})
		if in.FixedBy != nil {
			t.Errorf("FixedBy = %+v", in.FixedBy)
		}
	})
}

// TestAnalyseSaysWhatAFixedByIsWhenItIsNoFix: the report named
// redlock-no-clock-jump "the scenario named as its fix" and control-positive
// "the same fault, made harmless" (fresh reader F12, teacher review):
// Analyse tells a contrast and a control by the lesson pages' rule
// (report.FixSide), and a fix as none of them.
func TestAnalyseSaysWhatAFixedByIsWhenItIsNoFix(t *testing.T) {
	h := corpus(t, "invalid-kleppmann-timeline-1-s01")
	for _, tt := range []struct{ file, side string }{
		{"redlock-clock-jump.yaml", "control.without"}, // the run without n3's clock jump (reader9)
		{"control-negative.yaml", "control"},
		{"gc-pause.yaml", ""},
	} {
		t.Run(tt.file+"'s fixed_by is "+map[string]string{"": "a fix"}[tt.side]+tt.side, func(t *testing.T) {
			sc, err := scenario.Load(filepath.Join("..", "..", "scenarios", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			in, err := Analyse(context.Background(), sc, h, AnalyseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if in.FixedBy == nil || in.FixedBy.Side != tt.side {
				t.Errorf("FixedBy = %+v, want side %q", in.FixedBy, tt.side)
			}
		})
	}
}

// results is a finished run's results for the line and JUnit tests.
func results(expect string, kinds []string, verdict checker.Verdict, anomalies ...string) *report.Results {
	r := &report.Results{Scenario: "s", Seed: 7, Verdict: verdict, Expect: expect, ExpectKinds: kinds, ReportDir: "out/s/run", Reproduce: "locksim run s.yaml --seed 7"}
	for _, k := range anomalies {
		r.Anomalies = append(r.Anomalies, checker.Anomaly{Kind: k, Explain: "it was " + k})
	}
	var as []checker.Anomaly
	as = append(as, r.Anomalies...)
	j := report.Judge(expect, kinds, verdict, as, true)
	r.ExpectationMet, r.MissingKinds, r.UnexpectedKinds = &j.Met, j.Missing, j.Unexpected
	return r
}

func TestTheSummaryAndJUnitSayWhichKindsWereMissingOrUnexpected(t *testing.T) {
	tests := []struct {
		name    string
		res     *report.Results
		summary string // "" = met
		junit   string
	}{
		{"met kinds say met", results("invalid", []string{"double-effect"}, checker.Invalid, "double-effect"), "— expected invalid: met", ""},
		{"a missing kind is named", results("invalid", []string{"double-effect", "lost-update"}, checker.Invalid, "double-effect"),
			"NOT MET (missing kinds: lost-update)", "expected invalid, got invalid (missing kinds: lost-update): it was double-effect"},
		{"an unexpected kind is named", results("invalid", []string{"double-effect"}, checker.Invalid, "double-effect", "foreign-unlock"),
			"NOT MET (unexpected kinds: foreign-unlock)", "expected invalid, got invalid (unexpected kinds: foreign-unlock): it was double-effect | it was foreign-unlock"},
		{"both are named", results("invalid", []string{"lost-update"}, checker.Invalid, "oversell"),
			"NOT MET (missing kinds: lost-update; unexpected kinds: oversell)", "(missing kinds: lost-update; unexpected kinds: oversell)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SummaryLine(*tt.res); !strings.Contains(got, tt.summary) {
				t.Errorf("summary %q lacks %q", got, tt.summary)
			}
			doc := junitOf([]Outcome{{Job: Job{Scenario: scenario.Scenario{Name: "s", File: "s.yaml"}, Seed: 7}, Results: tt.res}})
			f := doc.Suites[0].Cases[0].Failure
			switch {
			case tt.junit == "" && f != nil:
				t.Errorf("a met expectation failed in JUnit: %+v", f)
			case tt.junit != "" && (f == nil || f.Type != "expectation-not-met" || !strings.Contains(f.Message, tt.junit)):
				t.Errorf("JUnit failure %+v, want a message containing %q", f, tt.junit)
			}
		})
	}
}

func TestAnOutcomePassesWhenItDidWhatItsScenarioPromised(t *testing.T) {
	tests := []struct {
		name string
		o    Outcome
		want bool
	}{
		{"a met expectation passes", Outcome{Results: results("invalid", nil, checker.Invalid)}, true},
		{"an unmet one does not", Outcome{Results: results("valid", nil, checker.Invalid)}, false},
		{"without an expectation a valid run passes", Outcome{Results: &report.Results{Verdict: checker.Valid}}, true},
		{"without an expectation an unknown run does not", Outcome{Results: &report.Results{Verdict: checker.Unknown}}, false},
		{"a run without a report does not", Outcome{Err: "start cluster: boom"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.o.Passed(); got != tt.want {
				t.Errorf("Passed() = %v, want %v", got, tt.want)
			}
		})
	}
}

// copyScenario writes a shipped scenario into dir under a new name, with
// extra lines appended.
func copyScenario(t *testing.T, dir, from, name, extra string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "scenarios", from))
	if err != nil {
		t.Fatal(err)
	}
	s := regexp.MustCompile(`(?m)^name: .*$`).ReplaceAllString(string(b), "name: "+name)
	s = regexp.MustCompile(`(?m)^fixed_by: .*\n`).ReplaceAllString(s, "")
	p := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(p, []byte(s+extra), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestASuiteLinksTheFixedScenariosReportOnceEveryRunHasFinished(t *testing.T) {
	backend := clientstest.Backend(t)
	dir := t.TempDir()
	// The broken scenario runs first, one run at a time: its report is
	// written before the fixed scenario's exists.
	var scs []scenario.Scenario
	for _, p := range []string{
		copyScenario(t, dir, "gc-pause.yaml", "broken", "fixed_by: harmless.yaml\n"),
		copyScenario(t, dir, "gc-pause-fencing.yaml", "harmless", ""),
	} {
		sc, err := scenario.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		scs = append(scs, sc)
	}
	out := filepath.Join(dir, "out")
	var order []string
	// A run a busy machine leaves unknown is run again (the JUnit file
	// below must show no failure).
	opts := Options{Out: out, Parallel: 1, Backend: backend, Lang: report.Vietnamese, Reuse: true, RetryUnknown: 2,
		Done: func(o Outcome) { order = append(order, o.Scenario.Name) }}
	outs := Run(context.Background(), Plan(scs, opts), opts)
	if len(outs) != 2 || outs[0].Results == nil || outs[1].Results == nil {
		t.Fatalf("outcomes %+v", outs)
	}
	broken, harmless := outs[0].Results, outs[1].Results
	t.Run("the runs finished broken first", func(t *testing.T) {
		if len(order) < 2 || order[0] != "broken" || order[1] != "harmless" {
			t.Errorf("finished in the order %v", order)
		}
	})
	t.Run("the broken report links this suite's report of its fix, in its language", func(t *testing.T) {
		page, _ := os.ReadFile(filepath.Join(broken.ReportDir, report.IndexFile))
		m := regexp.MustCompile(`<span id="fixed-report"> — <a href="([^"]+)">mở báo cáo của nó</a></span>`).FindSubmatch(page)
		if m == nil {
			t.Fatalf("no link to the fixed report in %s", filepath.Join(broken.ReportDir, report.IndexFile))
		}
		if got, want := filepath.Join(broken.ReportDir, string(m[1])), filepath.Join(harmless.ReportDir, report.IndexFile); filepath.Clean(got) != filepath.Clean(want) {
			t.Errorf("link to %s, want %s", got, want)
		}
	})
	t.Run("results.json names the fix and the report's language", func(t *testing.T) {
		if broken.FixedBy != filepath.Join(dir, "harmless.yaml") || broken.Lang != report.Vietnamese {
			t.Errorf("fixed_by %q lang %q", broken.FixedBy, broken.Lang)
		}
	})
	t.Run("each report keeps its whole history in its own directory", func(t *testing.T) {
		for _, r := range []*report.Results{broken, harmless} {
			h, err := history.ReadFile(filepath.Join(r.ReportDir, "history.jsonl"))
			if err != nil || len(h.Ops) == 0 {
				t.Errorf("%s: %d ops, %v", r.ReportDir, len(h.Ops), err)
			}
		}
	})
	t.Run("the suite page is written", func(t *testing.T) {
		if _, err := os.Stat(filepath.Join(out, report.IndexFile)); err != nil {
			t.Error(err)
		}
	})
	t.Run("the JUnit file has a case per run and no failure", func(t *testing.T) {
		path := filepath.Join(dir, "junit.xml")
		if err := WriteJUnit(path, outs); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		var doc junitSuites
		if err := xml.Unmarshal(b, &doc); err != nil || doc.Tests != 2 || doc.Failures != 0 || doc.Errors != 0 {
			t.Errorf("JUnit %+v (%v)", doc, err)
		}
	})
}

func TestALockClientProcessIsNamedByItsProgramAndArguments(t *testing.T) {
	tests := []struct {
		name string
		cmd  []string
		want string
	}{
		{"a Node adapter with a version says both", []string{"node", "--unhandled-rejections=warn", "adapters/node/semaphore.js", "4.1.0"}, "semaphore.js 4.1.0"},
		{"a Python adapter with no arguments is its file", []string{"/usr/bin/python3", "adapters/python/redis_py_lock.py"}, "redis_py_lock.py"},
		{"a program run by path alone is that program", []string{"./mylock"}, "mylock"},
		{"a bare program name is kept", []string{"mylock"}, "mylock"},
		{"no command is no name", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := adapterName(tt.cmd); got != tt.want {
				t.Errorf("adapterName(%q) = %q, want %q", tt.cmd, got, tt.want)
			}
		})
	}
}
