package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/suite"
)

func TestExitCodesOfSeveralRunsCombineByPriority(t *testing.T) {
	tests := []struct {
		name  string
		codes []int
		want  int
	}{
		{"all valid runs exit 0", []int{0, 0}, 0},
		{"an unknown run beats valid ones", []int{0, 2, 0}, 2},
		{"an invalid run beats an unknown one", []int{2, 1, 0}, 1},
		{"bad usage beats an invalid run", []int{1, 254, 2}, 254},
		{"an infrastructure error beats everything", []int{254, 255, 1, 2, 0}, 255},
		{"no runs exit 0", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := combine(tt.codes); got != tt.want {
				t.Errorf("combine(%v) = %d, want %d", tt.codes, got, tt.want)
			}
		})
	}
}

func TestPathsExpandToScenarioFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.yaml", "b.yml", "c.yaml", "notes.txt", "sub/d.yaml"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	j := func(fs ...string) []string {
		var out []string
		for _, f := range fs {
			out = append(out, filepath.Join(dir, f))
		}
		return out
	}
	tests := []struct {
		name    string
		args    []string
		want    []string
		wantErr string
	}{
		{"a file stands for itself", j("c.yaml"), j("c.yaml"), ""},
		{"a directory gives its yaml files sorted", j("."), j("a.yaml", "b.yml", "c.yaml"), ""},
		{"a glob is expanded", j("[ab].y*"), j("a.yaml", "b.yml"), ""},
		{"a glob may match directories", j("su*"), j("sub/d.yaml"), ""},
		{"a file named twice runs once", j("a.yaml", "*.yaml"), j("a.yaml", "c.yaml"), ""},
		{"a glob matching nothing is an error", j("*.json"), nil, "matches no file"},
		{"a missing file is an error", j("missing.yaml"), nil, "missing.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := expandPaths(tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// junitDoc is what a CI system reads from the JUnit file.
type junitDoc struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Suites   []struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
			} `xml:"error"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// writeScenario copies a shipped scenario into dir under a new name,
// without its fixed_by (a file next to the shipped one) and, when expect is
// not "", with "expect: <expect>" instead of its own.
func writeScenario(t *testing.T, dir, from, name, expect string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "scenarios", from))
	if err != nil {
		t.Fatal(err)
	}
	s := regexp.MustCompile(`(?m)^name: .*$`).ReplaceAllString(string(b), "name: "+name)
	// fixed_by names a file next to the shipped scenario, not in dir.
	s = regexp.MustCompile(`(?m)^fixed_by: .*\n`).ReplaceAllString(s, "")
	if expect != "" {
		s = regexp.MustCompile(`(?m)^expect: .*$`).ReplaceAllString(s, "expect: "+expect)
	}
	p := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestASuiteWithAWrongExpectationFailsAndNamesIt(t *testing.T) {
	backend := testBackend(t)
	dir := t.TempDir()
	wrong := writeScenario(t, dir, "gc-pause.yaml", "wrong-expect", "valid")
	right := writeScenario(t, dir, "gc-pause-fencing.yaml", "right-expect", "")
	out, junit := filepath.Join(dir, "out"), filepath.Join(dir, "junit.xml")
	var stdout, stderr bytes.Buffer
	code := realMain([]string{"run", wrong, right, "--out", out, "--backend", backend, "--junit", junit}, &stdout, &stderr)

	t.Run("the exit code is 1", func(t *testing.T) {
		if code != exitInvalid {
			t.Errorf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
		}
	})
	t.Run("the summary names the scenario whose expectation was not met", func(t *testing.T) {
		if !regexp.MustCompile(`(?m)^wrong-expect\s+42\s+invalid\s+valid\s+NO\s`).MatchString(stdout.String()) {
			t.Errorf("no NO row for wrong-expect in:\n%s", stdout.String())
		}
		if !strings.Contains(stdout.String(), "NOT MET wrong-expect seed 42: expected valid, got invalid") {
			t.Errorf("no NOT MET line in:\n%s", stdout.String())
		}
		if !regexp.MustCompile(`(?m)^right-expect\s+42\s+valid\s+valid\s+yes\s`).MatchString(stdout.String()) {
			t.Errorf("no met row for right-expect in:\n%s", stdout.String())
		}
	})
	t.Run("stdout carries only the summary", func(t *testing.T) {
		if strings.Contains(stdout.String(), "level=") {
			t.Errorf("log lines on stdout:\n%s", stdout.String())
		}
	})
	t.Run("the JUnit file has one test case per run and a failure for the unmet one", func(t *testing.T) {
		b, err := os.ReadFile(junit)
		if err != nil {
			t.Fatal(err)
		}
		var doc junitDoc
		if err := xml.Unmarshal(b, &doc); err != nil {
			t.Fatalf("JUnit file does not parse: %v\n%s", err, b)
		}
		if doc.Tests != 2 || doc.Failures != 1 || len(doc.Suites) != 2 {
			t.Fatalf("tests=%d failures=%d suites=%d, want 2, 1, 2\n%s", doc.Tests, doc.Failures, len(doc.Suites), b)
		}
		for _, s := range doc.Suites {
			if len(s.Cases) != 1 {
				t.Fatalf("suite %s has %d cases, want 1", s.Name, len(s.Cases))
			}
			c := s.Cases[0]
			switch s.Name {
			case "wrong-expect":
				if c.Failure == nil || c.Failure.Type != "expectation-not-met" || !strings.Contains(c.Failure.Message, "expected valid, got invalid: ") || !strings.Contains(c.Failure.Message, "charge") {
					t.Errorf("failure of wrong-expect = %+v, want the unmet expectation with the anomaly explanations", c.Failure)
				}
			case "right-expect":
				if c.Failure != nil || c.Error != nil {
					t.Errorf("right-expect failed: %+v %+v", c.Failure, c.Error)
				}
			default:
				t.Errorf("unexpected suite %q", s.Name)
			}
		}
	})
	t.Run("the suite index links every run's report", func(t *testing.T) {
		b, err := os.ReadFile(filepath.Join(out, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		links := regexp.MustCompile(`href="([^"]+)"`).FindAllStringSubmatch(string(b), -1)
		distinct := map[string]bool{}
		for _, l := range links {
			if _, err := os.Stat(filepath.Join(out, l[1])); err != nil {
				t.Errorf("link %s: %v", l[1], err)
			}
			if strings.HasSuffix(l[1], "/index.html") { // a run's report; the others are the lesson and requirements pages
				distinct[l[1]] = true
			}
		}
		if len(distinct) != 2 {
			t.Fatalf("%d distinct run reports linked from the suite index, want 2: %v", len(distinct), distinct)
		}
	})
}

func TestASweepReportsTheViolationRateWithReproducibleSeeds(t *testing.T) {
	backend := testBackend(t)
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := realMain([]string{"run", "../../scenarios/redlock-gc-pause.yaml", "--count", "3", "--seed", "100", "--out", out, "--backend", backend}, &stdout, &stderr)
	if code != exitValid {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	t.Run("the rate and the failing seeds are printed", func(t *testing.T) {
		if want := "redlock-gc-pause (algorithm redlock): 3/3 runs invalid (100%); invalid seeds: 100 101 102"; !strings.Contains(stdout.String(), want) {
			t.Errorf("no %q in:\n%s", want, stdout.String())
		}
	})
	t.Run("every run logs a reproduce command with its own seed first", func(t *testing.T) {
		for _, seed := range []string{"100", "101", "102"} {
			if !regexp.MustCompile(`seed=` + seed + ` time_scale=\S+ version=` + regexp.QuoteMeta(version()) + ` reproduce="locksim run \.\./\.\./scenarios/redlock-gc-pause\.yaml --seed ` + seed + ` --backend ` + backend + `"`).MatchString(stderr.String()) {
				t.Errorf("no reproduce line for seed %s in:\n%s", seed, stderr.String())
			}
		}
	})
	t.Run("the suite page gives the rate and the failing seeds too", func(t *testing.T) {
		page, _ := os.ReadFile(filepath.Join(out, "index.html"))
		if want := "redlock-gc-pause: 3 of 3 runs invalid (100%), 0 unknown, 0 errors. Invalid seeds: 100 101 102"; !strings.Contains(string(page), want) {
			t.Errorf("no %q in the suite page", want)
		}
	})
	t.Run("only the first seed gets charts, the others say how to draw them", func(t *testing.T) {
		// A try the machine spoiled keeps its report, without charts,
		// beside its rerun's: a seed may have more than one directory.
		dirs, _ := filepath.Glob(filepath.Join(out, "redlock-gc-pause", "*"))
		var drawn int
		seeds := map[string]bool{}
		for _, d := range dirs {
			seeds[d[strings.LastIndex(d, "-seed")+1:]] = true
			_, err := os.Stat(filepath.Join(d, report.TimelineFile))
			page, _ := os.ReadFile(filepath.Join(d, report.IndexFile))
			switch {
			case err == nil:
				drawn++
				if !strings.HasSuffix(d, "-seed100") {
					t.Errorf("%s has charts; the first seed, 100, should", d)
				}
			case !strings.Contains(string(page), `id="no-charts"`) || !strings.Contains(string(page), "locksim check "+d) || strings.Contains(string(page), "latency.png"):
				files, _ := os.ReadDir(d)
				var names []string
				for _, f := range files {
					names = append(names, f.Name())
				}
				res, _ := os.ReadFile(filepath.Join(d, "results.json"))
				t.Errorf("%s: no charts, and its page does not say how to draw them (files %v; results %.400s)", d, names, res)
			}
		}
		if len(seeds) != 3 || drawn != 1 {
			t.Errorf("%d of %d runs (seeds %v) have charts, want 1 of 3 seeds", drawn, len(dirs), slices.Sorted(maps.Keys(seeds)))
		}
	})
	t.Run("re-running a printed seed gives the same verdict", func(t *testing.T) {
		code, rs, stderr := runJSON(t, "run", "../../scenarios/redlock-gc-pause.yaml", "--seed", "101", "--out", t.TempDir(), "--backend", backend)
		if len(rs) == 1 && spoiled(t, rs[0]) {
			return
		}
		if code != exitValid || len(rs) != 1 || rs[0].Verdict != checker.Invalid || rs[0].Seed != 101 {
			t.Errorf("exit %d, results %+v\n%s", code, rs, stderr)
		}
	})
}

// schedule is what a seed fixes in a history: the fault plan, each client's
// sequence of operations (retries of the same failed acquire collapsed,
// since how many fit in a wait is timing) and the owner token of each
// client whose first acquire succeeded at once (later tokens depend on how
// many draws failed retries used). Node events are left out: how many
// commands a node ran is timing too.
func schedule(t *testing.T, file string) []string {
	t.Helper()
	h, err := history.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	last := map[string]string{}
	first := map[string]bool{}
	var out []string
	for _, op := range h.Ops {
		if op.Process == history.NodeProcess {
			continue
		}
		v := op.Value
		token := ""
		if op.F == history.Acquire && !first[op.Client] {
			first[op.Client] = true
			token = v.Token
		}
		fault := ""
		if v.Fault != nil {
			fault = faults.Describe(*v.Fault, h.Header.TimeScale)
		}
		s := strings.Join([]string{op.Client, string(op.F), op.Key, string(op.Type), token, v.Action, v.Result, fault}, "|")
		if last[op.Client] == s {
			continue
		}
		last[op.Client] = s
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func TestOneSeedGivesTheSameFaultPlanAndScheduleTwice(t *testing.T) {
	backend := testBackend(t)
	// Seeds 9 and 10 side by side (--count 2), then seed 9 again.
	run := func(count string) map[int64][]string {
		code, rs, stderr := runJSON(t, "run", "../../scenarios/gc-pause.yaml", "--seed", "9", "--count", count, "--out", t.TempDir(), "--backend", backend)
		if (code != exitValid && !slices.ContainsFunc(rs, func(r report.Results) bool { return spoiled(t, r) })) || len(rs) == 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		out := map[int64][]string{}
		for _, r := range rs {
			out[r.Seed] = schedule(t, filepath.Join(r.ReportDir, "history.jsonl"))
		}
		return out
	}
	first, again := run("2"), run("1")
	a, b, c := first[9], again[9], first[10]
	if a == nil || b == nil || c == nil {
		t.Fatalf("missing runs: seed 9 %d ops, again %d, seed 10 %d", len(a), len(b), len(c))
	}
	t.Run("the same seed gives the identical schedule", func(t *testing.T) {
		if !slices.Equal(a, b) {
			t.Errorf("seed 9 twice gave different schedules:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
		}
	})
	t.Run("another seed gives other owner tokens", func(t *testing.T) {
		if slices.Equal(a, c) {
			t.Errorf("seeds 9 and 10 gave the same schedule; the seed does not reach the run")
		}
	})
	t.Run("the schedule holds the fault plan", func(t *testing.T) {
		if !slices.ContainsFunc(a, func(s string) bool { return strings.Contains(s, "when w1 first reaches before-write: pause on w1") }) {
			t.Errorf("no pause of w1 in the schedule:\n%s", strings.Join(a, "\n"))
		}
	})
}

// checkedScenarios are the kinds of stored report `check` must read back: a
// single-node run with fencing and an informational anomaly, a five-node
// Redlock violation under a clock fault, and a library adapter's clean run.
// `make scenarios` runs the whole catalogue through the CLI already; this
// test is about check, so a representative subset keeps CI time down.
// checkedScenarios: a fenced single-node run, an invalid Redlock run with a
// client clock fault, and a library's. (Not lesson 47's per-spec Redlock
// files: at time scale 0.5 each takes 20 s of wall time.)
var checkedScenarios = []string{"gc-pause-fencing.yaml", "client-clock-skew.yaml", "redislock-happy.yaml"}

func TestCheckReproducesTheVerdictOfStoredReports(t *testing.T) {
	backend := testBackend(t)
	args := []string{"run"}
	for _, f := range checkedScenarios {
		args = append(args, filepath.Join("..", "..", "scenarios", f))
	}
	// --why=false: check reproduces the verdict, not the experiments.
	code, rs, stderr := runJSON(t, append(args, "--out", t.TempDir(), "--backend", backend, "--parallel", "3", "--why=false")...)
	if code != exitValid || len(rs) != len(checkedScenarios) {
		t.Fatalf("exit %d, %d results\n%s", code, len(rs), stderr)
	}
	for _, r := range rs {
		for _, target := range []struct{ what, path string }{
			{"report directory", r.ReportDir},
			{"history file", filepath.Join(r.ReportDir, "history.jsonl")},
		} {
			t.Run("check on the "+target.what+" of "+r.Scenario+" gives the run's verdict and anomalies", func(t *testing.T) {
				code, cs, stderr := runJSON(t, "check", target.path)
				if code != exitValid || len(cs) != 1 {
					t.Fatalf("exit %d, %d results\n%s", code, len(cs), stderr)
				}
				c := cs[0]
				if c.Verdict != r.Verdict {
					t.Errorf("verdict %s, run said %s", c.Verdict, r.Verdict)
				}
				for _, inf := range []bool{false, true} {
					if got, want := kinds(c, inf), kinds(r, inf); !slices.Equal(got, want) {
						t.Errorf("anomaly kinds (informational=%v) %v, run said %v", inf, got, want)
					}
				}
				if c.Reproduce != r.Reproduce {
					t.Errorf("reproduce %q, run said %q", c.Reproduce, r.Reproduce)
				}
				if c.File != r.File {
					t.Errorf("scenario file %q, run said %q", c.File, r.File)
				}
			})
		}
	}
}

func TestInfrastructureFailuresExit255WithoutAVerdict(t *testing.T) {
	fake := t.TempDir()
	script := "#!/bin/sh\necho 'FATAL CONFIG FILE ERROR: bad directive' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(fake, "redis-server"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		want []string
	}{
		{"a missing redis-server is named with a way out", t.TempDir(), []string{"redis-server not found", "--backend embedded"}},
		{"a redis-server that fails to start is named with its log tail", fake, []string{"n1", "FATAL CONFIG FILE ERROR"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("PATH", tt.path)
			out := t.TempDir()
			var stdout, stderr bytes.Buffer
			code := realMain([]string{"run", "../../scenarios/gc-pause.yaml", "--backend", "local", "--out", out, "--json"}, &stdout, &stderr)
			if code != exitInternal {
				t.Errorf("exit %d, want 255", code)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
				}
			}
			if strings.Contains(stdout.String(), `"verdict":"valid"`) || strings.Contains(stdout.String(), `"verdict":"invalid"`) {
				t.Errorf("a verdict was printed for a run that did not happen:\n%s", stdout.String())
			}
			if ents, _ := os.ReadDir(filepath.Join(out, "gc-pause")); len(ents) > 0 {
				t.Errorf("a report was written for a run that did not happen")
			}
		})
	}
}

func TestRunsWithoutAVerdictStillShowInTheSuite(t *testing.T) {
	fake := t.TempDir()
	script := "#!/bin/sh\necho 'FATAL CONFIG FILE ERROR: bad directive' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(fake, "redis-server"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", fake)
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := realMain([]string{"run", "../../scenarios/gc-pause.yaml", "--count", "2", "--backend", "local", "--out", out, "--json"}, &stdout, &stderr); code != exitInternal {
		t.Fatalf("exit %d, want 255\n%s", code, stderr.String())
	}
	t.Run("each JSON line says what is known of the run and why it has no verdict", func(t *testing.T) {
		for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
			var r struct {
				Expect, Reproduce, Error, Verdict string
			}
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			if r.Expect != "invalid" || !strings.Contains(r.Reproduce, "--seed") || !strings.Contains(r.Error, "FATAL CONFIG FILE ERROR") || r.Verdict != "" {
				t.Errorf("line %s", line)
			}
		}
	})
	t.Run("the suite page lists both runs as errors", func(t *testing.T) {
		page, err := os.ReadFile(filepath.Join(out, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(page), `class="v-error"`); n != 2 || !strings.Contains(string(page), "2 had no verdict") {
			t.Errorf("%d error rows, or no error total:\n%s", n, page)
		}
	})
}

func TestEverySubcommandHelpShowsExamples(t *testing.T) {
	for _, cmd := range []string{"run", "check", "shrink", "map", "merge", "validate", "list"} {
		t.Run(cmd+" --help exits 0 and shows examples", func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := realMain([]string{cmd, "--help"}, &stdout, &stderr); code != exitValid {
				t.Errorf("exit %d", code)
			}
			if !strings.Contains(stderr.String(), "Example") || !strings.Contains(stderr.String(), "locksim "+cmd) {
				t.Errorf("no examples in:\n%s", stderr.String())
			}
		})
	}
}

func TestValidateReportsEveryProblemOfEveryFile(t *testing.T) {
	dir := t.TempDir()
	bad1 := filepath.Join(dir, "bad1.yaml")
	bad2 := filepath.Join(dir, "bad2.yaml")
	_ = os.WriteFile(bad1, []byte("name: bad1\nclients: 2\nalgorithm: safe\nttl: 30s\nworkload:\n  kind: payment\n  jbo: 45s\n"), 0o644)
	_ = os.WriteFile(bad2, []byte("name: bad2\nclients: 2\nalgorithm: nope\nttl: 30s\nworkload:\n  kind: payment\n"), 0o644)
	var stdout, stderr bytes.Buffer
	code := realMain([]string{"validate", bad1, filepath.Join(dir, "missing.yaml"), bad2, "../../scenarios/gc-pause.yaml"}, &stdout, &stderr)
	if code != exitUsage {
		t.Errorf("exit %d, want 254", code)
	}
	for _, w := range []string{"bad1.yaml:7:3: workload.jbo", "missing.yaml", "bad2.yaml:3:", "algorithm"} {
		t.Run("the output names "+w, func(t *testing.T) {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
			}
		})
	}
	if !strings.Contains(stdout.String(), "gc-pause.yaml: ok") {
		t.Errorf("the good file is not reported ok: %q", stdout.String())
	}
}

func TestExpectedKindsDecideTheExitCode(t *testing.T) {
	backend := testBackend(t)
	dir := t.TempDir()
	runs := []struct {
		name, from, expect string
		code               int
		line               string // in the one-line summary
	}{
		{"the-kinds-it-shows", "gc-pause.yaml", "{verdict: invalid, kinds: [mutex-overlap, double-effect, not-linearizable]}", exitValid, "expected invalid: met"},
		{"a-kind-it-misses", "gc-pause.yaml", "{verdict: invalid, kinds: [double-effect, lost-update, mutex-overlap, not-linearizable]}", exitInvalid, "NOT MET (missing kinds: lost-update)"},
		{"a-kind-it-did-not-expect", "gc-pause.yaml", "{verdict: invalid, kinds: [double-effect, mutex-overlap]}", exitInvalid, "NOT MET (unexpected kinds: not-linearizable)"},
		{"informational-findings-ignored", "gc-pause-fencing.yaml", "{verdict: valid, kinds: []}", exitValid, "expected valid: met"},
	}
	args := []string{"run"}
	for _, r := range runs {
		args = append(args, writeScenario(t, dir, r.from, r.name, r.expect))
	}
	code, rs, stderr := runJSON(t, append(args, "--out", filepath.Join(dir, "out"), "--backend", backend)...)
	t.Run("the suite exits 1, for the runs that missed their kinds", func(t *testing.T) {
		if code != exitInvalid {
			t.Errorf("exit %d, want 1\n%s", code, stderr)
		}
	})
	byName := map[string]report.Results{}
	for _, r := range rs {
		byName[r.Scenario] = r
	}
	for _, r := range runs {
		t.Run(r.name+" exits "+strconv.Itoa(r.code)+" and says why", func(t *testing.T) {
			res, ok := byName[r.name]
			if !ok {
				t.Fatalf("no result for %s", r.name)
			}
			if got := exitCode(res); got != r.code {
				t.Errorf("exit code %d, want %d", got, r.code)
			}
			if line := suite.SummaryLine(res); !strings.Contains(line, r.line) {
				t.Errorf("summary %q lacks %q", line, r.line)
			}
			if res.ExpectKinds == nil {
				t.Errorf("results carry no expect_kinds")
			}
		})
	}
}

func TestBadExpectedKindsAndFixedByAreRefusedBeforeAnythingStarts(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, expect, extra, want string
	}{
		{"an unknown kind is refused with its position", "{verdict: invalid, kinds: [double-efect]}", "", `:36: expect.kinds[0]: unknown anomaly kind "double-efect" (did you mean "double-effect"?)`},
		{"kinds for a valid run are refused", "{verdict: valid, kinds: [mutex-overlap]}", "", ": expect.kinds: a valid run shows no violation"},
		{"a fixed_by naming a missing file is refused with its position", "invalid", "fixed_by: gc-pause-fixed.yaml\n", `:11: fixed_by: no file ` + filepath.Join(dir, "gc-pause-fixed.yaml")},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeScenario(t, dir, "gc-pause.yaml", "bad-"+strconv.Itoa(i), tt.expect)
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = f.WriteString(tt.extra)
			_ = f.Close()
			out := filepath.Join(dir, "out")
			var stderr bytes.Buffer
			if code := realMain([]string{"run", p, "--out", out}, &bytes.Buffer{}, &stderr); code != exitUsage {
				t.Errorf("exit %d, want 254", code)
			}
			if !strings.Contains(stderr.String(), p) || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr %q lacks %s…%s", stderr.String(), p, tt.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a report directory was made for a bad scenario")
			}
			var vs bytes.Buffer
			if code := realMain([]string{"validate", p}, &bytes.Buffer{}, &vs); code != exitUsage || !strings.Contains(vs.String(), tt.want) {
				t.Errorf("validate: exit %d, %q", code, vs.String())
			}
		})
	}
}
