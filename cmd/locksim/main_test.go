package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/report"
)

// testBackend is the backend scenario tests run on: real redis-server when it
// is on PATH; otherwise the embedded backend, except under CI=true where a
// missing redis-server is a failure.
func testBackend(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err == nil {
		return "local"
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("redis-server is not on PATH and CI=true: scenario tests must run on real Redis")
	}
	t.Log("redis-server not on PATH: running on the embedded backend (emulated Redis)")
	return "embedded"
}

// runJSON runs the CLI with --json and returns the exit code and the results
// objects printed on stdout.
func runJSON(t *testing.T, args ...string) (int, []report.Results, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := realMain(append(args, "--json"), &out, &errb)
	var rs []report.Results
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if line == "" {
			continue
		}
		var r report.Results
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("stdout line is not a results object: %v\n%s\nstderr:\n%s", err, line, errb.String())
		}
		rs = append(rs, r)
	}
	return code, rs, errb.String()
}

func kinds(r report.Results, informational bool) []string {
	var ks []string
	for _, a := range r.Anomalies {
		if a.Informational == informational && !slices.Contains(ks, a.Kind) {
			ks = append(ks, a.Kind)
		}
	}
	slices.Sort(ks)
	return ks
}

func TestShippedScenariosMeetTheirExpectations(t *testing.T) {
	backend := testBackend(t)
	tests := []struct {
		file        string
		verdict     checker.Verdict
		violations  []string // non-informational anomaly kinds, sorted
		informative []string // informational anomaly kinds, sorted
	}{
		{"gc-pause.yaml", checker.Invalid, []string{checker.KindDoubleEffect, checker.KindMutexOverlap, checker.KindNotLinearizable}, nil},
		{"gc-pause-fencing.yaml", checker.Valid, nil, []string{checker.KindMutexOverlap}},
		{"slow-job.yaml", checker.Invalid, []string{checker.KindDoubleEffect, checker.KindMutexOverlap, checker.KindNotLinearizable}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.file+" comes out "+string(tt.verdict)+" with the expected anomalies", func(t *testing.T) {
			out := t.TempDir()
			code, rs, stderr := runJSON(t, "run", filepath.Join("..", "..", "scenarios", tt.file), "--out", out, "--backend", backend)
			if code != exitValid {
				t.Fatalf("exit code %d, want 0 (expectation met)\nstderr:\n%s", code, stderr)
			}
			if len(rs) != 1 {
				t.Fatalf("got %d results, want 1", len(rs))
			}
			r := rs[0]
			if r.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s", r.Verdict, tt.verdict)
			}
			if got := kinds(r, false); !slices.Equal(got, tt.violations) {
				t.Errorf("violations %v, want %v", got, tt.violations)
			}
			if got := kinds(r, true); !slices.Equal(got, tt.informative) {
				t.Errorf("informational anomalies %v, want %v", got, tt.informative)
			}
			if r.Backend != backend {
				t.Errorf("backend %q, want %q", r.Backend, backend)
			}
			for _, f := range []string{"history.jsonl", "scenario.yaml", "results.json", "index.html", "timeline.png", "history.html"} {
				if _, err := os.Stat(filepath.Join(r.ReportDir, f)); err != nil {
					t.Errorf("report file missing: %v", err)
				}
			}
		})
	}
}

func TestGCPauseOverlapStartsWhenTheKeyExpires(t *testing.T) {
	backend := testBackend(t)
	code, rs, stderr := runJSON(t, "run", "../../scenarios/gc-pause.yaml", "--out", t.TempDir(), "--backend", backend)
	if code != exitValid || len(rs) != 1 {
		t.Fatalf("exit %d, %d results\n%s", code, len(rs), stderr)
	}
	found := false
	for _, a := range rs[0].Anomalies {
		if a.Kind != checker.KindMutexOverlap {
			continue
		}
		found = true
		if !slices.Equal(a.Clients, []string{"w1", "w2"}) {
			t.Errorf("overlap clients %v, want [w1 w2]", a.Clients)
		}
		// TTL 30 s from w1's acquire at ≈0 s; w2 retries every 250 ms.
		if a.StartS < 29.5 || a.StartS > 31.5 {
			t.Errorf("overlap starts at %.2fs, want ≈30s (the key's expiry)", a.StartS)
		}
		// The overlap lasts until w2 releases after its 1 s job; w1 still
		// sleeps then (its 35 s pause began after ≈1.1 s of work).
		if a.EndS <= a.StartS || a.EndS > 36.5 {
			t.Errorf("overlap ends at %.2fs, want after its start and before w1 wakes", a.EndS)
		}
	}
	if !found {
		t.Fatalf("no mutex-overlap anomaly in %+v", rs[0].Anomalies)
	}
}

func TestTheVerdictIsTheSameWithLessTimeCompression(t *testing.T) {
	if testing.Short() {
		t.Skip("runs gc-pause at time scale 10 (≈4 s)")
	}
	backend := testBackend(t)
	code, rs, stderr := runJSON(t, "run", "../../scenarios/gc-pause.yaml", "--out", t.TempDir(), "--backend", backend, "--time-scale", "10")
	if code != exitValid || len(rs) != 1 || rs[0].Verdict != checker.Invalid {
		t.Fatalf("exit %d, results %+v\n%s", code, rs, stderr)
	}
}

func TestAMalformedScenarioIsRefusedWithItsLineAndStartsNothing(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("name: bad\nclients: 2\nalgorithm: safe\nttl: 30s\nworkload:\n  kind: payment\n  jbo: 45s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	code := realMain([]string{"run", bad, "--out", out}, &stdout, &stderr)
	if code != exitUsage {
		t.Errorf("exit code %d, want %d", code, exitUsage)
	}
	if !strings.Contains(stderr.String(), "bad.yaml:7:3") || !strings.Contains(stderr.String(), "workload.jbo") {
		t.Errorf("error does not locate the field: %q", stderr.String())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a report directory was created for a bad scenario: %v", err)
	}
}

func TestNoRedisServerSurvivesARun(t *testing.T) {
	if testBackend(t) != "local" {
		t.Skip("needs redis-server")
	}
	// Only this process's children count: other tests and other users may
	// run redis-server at the same time.
	code, _, stderr := runJSON(t, "run", "../../scenarios/gc-pause.yaml", "--out", t.TempDir(), "--backend", "local")
	if code != exitValid {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if left := alive(childRedis(t, os.Getpid())); len(left) > 0 {
		t.Errorf("redis-server pids %v still running after the run", left)
	}
	tmp, _ := filepath.Glob(filepath.Join(os.TempDir(), "locksim-*"))
	for _, d := range tmp {
		if st, err := os.Stat(filepath.Join(d, "owner.pid")); err == nil && !st.IsDir() {
			b, _ := os.ReadFile(filepath.Join(d, "owner.pid"))
			if strings.TrimSpace(string(b)) == strconv.Itoa(os.Getpid()) {
				t.Errorf("temp dir %s of this process left behind", d)
			}
		}
	}
}

// redisPids lists the pids of running redis-server processes.
func redisPids(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	var pids []string
	for _, e := range ents {
		comm, err := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		if err == nil && strings.TrimSpace(string(comm)) == "redis-server" {
			pids = append(pids, e.Name())
		}
	}
	return pids
}
