package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The first-day papercuts of issue 31, each as a user meets it.

func TestASingleRunSaysItsVerdictAndItsReportOnce(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := realMain([]string{"run", "../../scenarios/gc-pause.yaml", "--out", out, "--backend", testBackend(t)}, &stdout, &stderr)
	if code != exitValid {
		t.Fatalf("exit %d, want 0 (gc-pause meets its expectation)\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	verdict := "gc-pause: INVALID"
	if n := strings.Count(stdout.String(), verdict); n != 1 {
		t.Errorf("stdout says %q %d times, want once:\n%s", verdict, n, stdout.String())
	}
	// A busy machine may spoil the run: each rerun says so on its own
	// line ("(rerun N)") and writes its own report; the run itself says
	// its verdict only on stdout.
	reruns := 0
	for _, l := range strings.Split(stderr.String(), "\n") {
		switch {
		case strings.Contains(l, "(rerun "):
			reruns++
		case strings.Contains(l, verdict) || strings.Contains(l, "[1/1]"):
			t.Errorf("stderr repeats the verdict line: %s", l)
		}
	}
	if n := strings.Count(stderr.String(), `msg="report written"`); n != 1+reruns {
		t.Errorf("stderr says \"report written\" %d times after %d reruns, want once per try:\n%s", n, reruns, stderr.String())
	}
}

func TestCheckGivenAScenarioSaysSoAndSuggestsRun(t *testing.T) {
	dir := t.TempDir()
	yaml, err := os.ReadFile("../../scenarios/gc-pause.yaml")
	if err != nil {
		t.Fatal(err)
	}
	renamed := filepath.Join(dir, "gc-pause.txt") // a scenario under another name
	if err := os.WriteFile(renamed, yaml, 0o644); err != nil {
		t.Fatal(err)
	}
	notHistory := filepath.Join(dir, "history.jsonl") // JSON, but no history
	if err := os.WriteFile(notHistory, []byte(`{"a": 1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, file string
		scenario   bool
	}{
		{"a .yaml file is named a scenario file", "../../scenarios/gc-pause.yaml", true},
		{"a scenario under another extension is recognised by its first field", renamed, true},
		{"a JSON file that is no history gets the history's own error", notHistory, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := realMain([]string{"check", tt.file}, &stdout, &stderr)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			said := strings.Contains(stderr.String(), "looks like a scenario file") && strings.Contains(stderr.String(), "locksim run "+tt.file)
			if said != tt.scenario {
				t.Errorf("stderr %q: says it is a scenario and suggests locksim run: %v, want %v", stderr.String(), said, tt.scenario)
			}
		})
	}
}

func TestCheckOfAHistoryCutAtALineBoundaryWarnsItIsCutOff(t *testing.T) {
	_, res := shippedResults(t)
	r, ok := res["gc-pause"]
	if !ok {
		t.Fatal("no gc-pause run")
	}
	data, err := os.ReadFile(filepath.Join(r.ReportDir, "history.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) < 101 {
		t.Fatalf("gc-pause's history has %d lines; the test cuts it at 100", len(lines))
	}
	tests := []struct {
		name string
		text string
		cut  bool
	}{
		{"the whole file is not cut off", string(data), false},
		{"the first 100 lines (head -n 100) are cut off", strings.Join(lines[:100], ""), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "history.jsonl")
			if err := os.WriteFile(file, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := realMain([]string{"check", file}, &stdout, &stderr)
			warned := strings.Contains(stderr.String(), "the history is cut off")
			marked := strings.Contains(stdout.String(), "[cut off]")
			if warned != tt.cut || marked != tt.cut {
				t.Errorf("warned %v, summary marked %v; want %v (exit %d)\nstdout:\n%s\nstderr:\n%s", warned, marked, tt.cut, code, stdout.String(), stderr.String())
			}
			if tt.cut && code == exitValid {
				t.Errorf("a cut-off history of an invalid run checked valid (exit 0)")
			}
		})
	}
}

func TestAMistypedFlagGetsADidYouMean(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"run's --sed is --seed", []string{"run", "--sed", "3", "../../scenarios/gc-pause.yaml"}, "unknown flag --sed (did you mean --seed?)"},
		{"a typo after the file and with a value is found", []string{"run", "../../scenarios/gc-pause.yaml", "--out", "x", "--bakend=local"}, "unknown flag --bakend=local (did you mean --backend?)"},
		{"check's --claim is --claims", []string{"check", "--claim", "x"}, "unknown flag --claim (did you mean --claims?)"},
		{"serve's --adr is --addr", []string{"serve", "--adr", "127.0.0.1:1"}, "unknown flag --adr (did you mean --addr?)"},
		{"a flag like none gets no guess", []string{"run", "--zzzzzz", "../../scenarios/gc-pause.yaml"}, "unknown flag --zzzzzz\n"},
		{"a mistyped command gets one too", []string{"rn", "x.yaml"}, `unknown command "rn" (did you mean "run"?)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := realMain(tt.args, &stdout, &stderr)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr %q does not say %q", stderr.String(), tt.want)
			}
		})
	}
	t.Run("an argument after -- is not taken for a flag", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		realMain([]string{"validate", "--", "-no-such-file.yaml"}, &stdout, &stderr)
		if strings.Contains(stderr.String(), "unknown flag") {
			t.Errorf("an argument after -- was taken for a flag: %q", stderr.String())
		}
	})
}
