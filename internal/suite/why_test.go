package suite

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/clients/clientstest"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/why"
)

// faultOps counts the fault operations a stored run's history recorded:
// a second reading of what an experiment left out.
func faultOps(t *testing.T, dir string) (n int, kinds []string) {
	t.Helper()
	h, err := history.ReadFile(filepath.Join(dir, "history.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range h.Ops {
		if o.Process == history.NemesisProcess && o.Value.Fault != nil {
			n++
			kinds = append(kinds, o.Value.Fault.Kind)
		}
	}
	return n, kinds
}

func TestGCPausesExperimentsFindThePauseNecessaryAndAValidRunGetsNone(t *testing.T) {
	backend := clientstest.Backend(t)
	tests := []struct {
		name  string
		files []string // broken first
		// after: the experiments run after the runs (else they were
		// started beside the single run and kept).
		after bool
	}{
		{"a single run, its experiments started beside it", []string{"broken"}, false},
		{"a suite with its valid fix, the experiments run after the runs", []string{"broken", "harmless"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			copyScenario(t, dir, "gc-pause-fencing.yaml", "harmless", "")
			var scs []scenario.Scenario
			for _, name := range tt.files {
				p := filepath.Join(dir, name+".yaml")
				if name == "broken" {
					p = copyScenario(t, dir, "gc-pause.yaml", "broken", "fixed_by: harmless.yaml\n")
				}
				sc, err := scenario.Load(p)
				if err != nil {
					t.Fatal(err)
				}
				scs = append(scs, sc)
			}
			var done []string
			var logs bytes.Buffer
			opts := Options{Logger: slog.New(slog.NewTextHandler(&logs, nil)), Out: filepath.Join(dir, "out"), Parallel: 4, Backend: backend, Reuse: true, RetryUnknown: 2, Why: true,
				Done: func(o Outcome) {
					if o.Job.Retry == 0 { // a rerun of a run the machine spoiled reports again, as its try
						done = append(done, o.Scenario.Name)
					}
				}}
			outs := Run(context.Background(), Plan(scs, opts), opts)
			if len(outs) != len(tt.files) {
				t.Fatalf("%d outcomes, want %d", len(outs), len(tt.files))
			}
			if slices.Sort(done); !slices.Equal(done, slices.Sorted(slices.Values(tt.files))) {
				t.Errorf("Done called for %v's first tries, want once per run and never for an experiment", done)
			}
			if got := strings.Contains(logs.String(), afterLine); got != tt.after {
				t.Errorf("experiments run after the runs: %v, want %v", got, tt.after)
			}
			broken := outs[0].Results
			if broken == nil || broken.Verdict != checker.Invalid {
				t.Fatalf("gc-pause came out %+v, want invalid", outs[0])
			}
			by := map[why.Change]why.Counterfactual{}
			for _, c := range broken.Counterfactuals {
				by[c.Change] = c
			}
			without, ok := by[why.Without]
			if !ok || without.Step != 1 || by[why.Half].Step != 1 || by[why.FixedBy].Name != "harmless" || len(broken.Counterfactuals) != 3 {
				t.Fatalf("experiments %+v, want without #1, #1 at half, and the fix", broken.Counterfactuals)
			}
			if without.Verdict == checker.Unknown || without.Verdict == "" {
				t.Skipf("the experiment without the pause proved nothing on this machine (%q %s)", without.Verdict, without.Error)
			}
			t.Run("without the pause the same seed is valid: the pause was necessary", func(t *testing.T) {
				if !without.Necessary() {
					t.Errorf("without the pause: %s %v", without.Verdict, without.Kinds)
				}
				if n, kinds := faultOps(t, without.Report); n != 0 {
					t.Errorf("the experiment's history has %d fault operations (%v), want none", n, kinds)
				}
				if !strings.Contains(broken.Headline, "Without w1's GC pause at t=") || !strings.Contains(broken.Headline, without.Reproduce) {
					t.Errorf("headline %q does not name the pause with its reproduce line", broken.Headline)
				}
			})
			t.Run("each experiment has its scenario file, its reproduce line and its report in the run's why directory", func(t *testing.T) {
				for _, c := range broken.Counterfactuals {
					if filepath.Dir(c.File) != filepath.Join(broken.ReportDir, WhyDir) || !strings.Contains(c.Reproduce, c.File) {
						t.Errorf("%s: file %s, reproduce %q", c.Change, c.File, c.Reproduce)
					}
					if _, err := os.Stat(filepath.Join(c.Report, report.IndexFile)); err != nil {
						t.Errorf("%s: %v", c.Change, err)
					}
				}
			})
			if len(outs) > 1 {
				t.Run("the valid fix gets no experiments", func(t *testing.T) {
					fix := outs[1].Results
					if fix == nil || fix.Verdict != checker.Valid {
						t.Skipf("the fix came out %+v", outs[1])
					}
					if len(fix.Counterfactuals) != 0 {
						t.Errorf("a valid run has experiments %+v", fix.Counterfactuals)
					}
					if _, err := os.Stat(filepath.Join(fix.ReportDir, WhyDir)); !os.IsNotExist(err) {
						t.Errorf("a valid run has a why directory (%v)", err)
					}
				})
			}
		})
	}
}

func TestExperimentsStartedBesideARunThatCameOutValidAreRemoved(t *testing.T) {
	backend := clientstest.Backend(t)
	dir := t.TempDir()
	// gc-pause-fencing's run is valid; expecting invalid makes a single
	// run of it start its experiments beside it.
	p := copyScenario(t, dir, "gc-pause-fencing.yaml", "expects-invalid", "")
	b, _ := os.ReadFile(p)
	s := regexp.MustCompile(`(?m)^expect: .*$`).ReplaceAllString(string(b), "expect: invalid")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Expect.Verdict != "invalid" {
		t.Fatalf("the copy expects %q", sc.Expect.Verdict)
	}
	var logs bytes.Buffer
	opts := Options{Out: filepath.Join(dir, "out"), Parallel: 4, Backend: backend, Reuse: true, Why: true,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	outs := Run(context.Background(), Plan([]scenario.Scenario{sc}, opts), opts)
	if !strings.Contains(logs.String(), "scenario=expects-invalid-without-1") {
		t.Fatalf("no experiment ran beside the run:\n%s", logs.String())
	}
	if len(outs) != 1 || outs[0].Results == nil {
		t.Fatalf("outcomes %+v", outs)
	}
	r := outs[0].Results
	if r.Verdict == checker.Invalid {
		t.Skipf("gc-pause-fencing came out invalid: %v", report.ViolationKinds(r.Anomalies))
	}
	if len(r.Counterfactuals) != 0 {
		t.Errorf("a %s run has experiments %+v", r.Verdict, r.Counterfactuals)
	}
	if _, err := os.Stat(filepath.Join(r.ReportDir, WhyDir)); !os.IsNotExist(err) {
		t.Errorf("the experiments started beside a %s run were not removed (%v)", r.Verdict, err)
	}
}
