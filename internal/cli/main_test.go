package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/clients/clientstest"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
)

// testBackend is the backend tests run on (see clientstest.Backend).
func testBackend(t *testing.T) string { return clientstest.Backend(t) }

// runJSON runs the CLI with --json and returns the exit code and the results
// objects printed on stdout.
func runJSON(t *testing.T, args ...string) (int, []report.Results, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := realMain(append(args, "--json"), &out, &errb)
	var rs []report.Results
	at := map[string]int{} // file and seed → position in rs
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if line == "" {
			continue
		}
		var r report.Results
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("stdout line is not a results object: %v\n%s\nstderr:\n%s", err, line, errb.String())
		}
		// A run the machine spoiled prints a line per try: its rerun's,
		// printed later, replaces the try before (issue 32).
		k := fmt.Sprintf("%s %d", r.File, r.Seed)
		if i, ok := at[k]; ok && len(r.Retried) > 0 {
			rs[i] = r
			continue
		}
		at[k] = len(rs)
		rs = append(rs, r)
	}
	return code, rs, errb.String()
}

// spoiled says, for a test that judges a run's verdict, when the machine
// spoiled the run even after its reruns (an unknown a loaded machine
// gives, never a definite verdict): the run then proves nothing to judge,
// and the test logs it instead (issue 32).
func spoiled(t *testing.T, r report.Results) bool {
	t.Helper()
	if r.Spoiled == "" {
		return false
	}
	t.Logf("%s seed %d: the machine spoiled it after %d reruns (%s: %s); its verdict is not judged", r.Scenario, r.Seed, len(r.Retried), r.Spoiled, r.SpoiledWhy)
	return true
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

// shippedFiles are the single-node course scenarios the CLI tests look at
// closely; shippedResults runs them once, together, for every test here
// (each takes a few seconds of wall time: their races need wide margins).
var shippedFiles = []string{"gc-pause.yaml", "gc-pause-fencing.yaml", "slow-job.yaml"}

var (
	shippedOnce sync.Once
	shippedDir  string
	shippedCode int
	shippedRes  map[string]report.Results
	shippedErr  string
)

// shippedResults runs shippedFiles in one `locksim run` and returns its exit
// code and the results by scenario name. The reports stay until TestMain
// removes shippedDir.
func shippedResults(t *testing.T) (int, map[string]report.Results) {
	t.Helper()
	backend := testBackend(t)
	shippedOnce.Do(func() {
		var err error
		if shippedDir, err = os.MkdirTemp("", "locksim-test-shipped-"); err != nil {
			shippedErr = err.Error()
			return
		}
		args := []string{"run"}
		for _, f := range shippedFiles {
			args = append(args, filepath.Join("..", "..", "scenarios", f))
		}
		args = append(args, "--out", shippedDir, "--backend", backend, "--parallel", "3")
		code, rs, stderr := runJSON(t, args...)
		shippedCode, shippedErr = code, stderr
		shippedRes = map[string]report.Results{}
		for _, r := range rs {
			shippedRes[r.Scenario] = r
		}
	})
	if shippedRes == nil {
		t.Fatalf("running the shipped scenarios: %s", shippedErr)
	}
	return shippedCode, shippedRes
}

func TestShippedScenariosMeetTheirExpectations(t *testing.T) {
	backend := testBackend(t)
	// The violations come from each file's own expect; the informational
	// findings, which an expectation never names, from here.
	tests := []struct {
		name        string
		informative []string // informational anomaly kinds, sorted
	}{
		{"gc-pause", nil},
		{"gc-pause-fencing", []string{checker.KindMutexOverlap}},
		{"slow-job", nil},
	}
	code, rs := shippedResults(t)
	anySpoiled := false
	for _, r := range rs {
		anySpoiled = anySpoiled || r.Spoiled != ""
	}
	if code != exitValid && !anySpoiled {
		t.Errorf("exit code %d, want 0 (every expectation met)\nstderr:\n%s", code, shippedErr)
	}
	if len(rs) != len(tests) {
		t.Fatalf("got %d results, want %d", len(rs), len(tests))
	}
	for _, tt := range tests {
		sc, err := scenario.Load(filepath.Join("..", "..", "scenarios", tt.name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(tt.name+" comes out "+sc.Expect.String()+" with the expected anomalies", func(t *testing.T) {
			r, ok := rs[tt.name]
			if !ok {
				t.Fatalf("no result for %s", tt.name)
			}
			if r.Backend != backend {
				t.Errorf("backend %q, want %q", r.Backend, backend)
			}
			for _, f := range []string{"history.jsonl", "scenario.yaml", "results.json", "index.html", "history.html"} {
				if _, err := os.Stat(filepath.Join(r.ReportDir, f)); err != nil {
					t.Errorf("report file missing: %v", err)
				}
			}
			if spoiled(t, r) {
				return
			}
			if string(r.Verdict) != sc.Expect.Verdict {
				t.Errorf("verdict %s, want %s", r.Verdict, sc.Expect.Verdict)
			}
			if got := kinds(r, false); !slices.Equal(got, sc.Expect.Kinds) {
				t.Errorf("violations %v, want %v", got, sc.Expect.Kinds)
			}
			if r.ExpectationMet == nil || !*r.ExpectationMet || !slices.Equal(r.ExpectKinds, sc.Expect.Kinds) {
				t.Errorf("expectation met %v with kinds %v, want met with %v", r.ExpectationMet, r.ExpectKinds, sc.Expect.Kinds)
			}
			if got := kinds(r, true); !slices.Equal(got, tt.informative) {
				t.Errorf("informational anomalies %v, want %v", got, tt.informative)
			}
			// A suite of many scenarios draws the charts of its misses
			// only; a run that met its expectation says how to draw them.
			if _, err := os.Stat(filepath.Join(r.ReportDir, "timeline.png")); err == nil {
				t.Error("timeline.png drawn for a run that met its expectation in a suite of three scenarios")
			}
			if page, err := os.ReadFile(filepath.Join(r.ReportDir, "index.html")); err != nil || !strings.Contains(string(page), `id="no-charts"`) {
				t.Errorf("the page does not say how to draw the charts (%v)", err)
			}
		})
	}
}

// firstOK is a client's first successful acquire.
func firstOK(h history.History, client string) (history.Op, bool) {
	for _, op := range h.Ops {
		if op.Client == client && op.F == history.Acquire && op.Type == history.OK {
			return op, true
		}
	}
	return history.Op{}, false
}

// TestGCPauseOverlapStartsWhenTheKeyExpires pins the overlap to the key's
// expiry from the run's own history, not to a fixed time: w1's key expires a
// TTL after its SET (within w1's acquire), so the overlap may not start
// before that, and w2 must get the lock on its first attempt after it.
func TestGCPauseOverlapStartsWhenTheKeyExpires(t *testing.T) {
	_, rs := shippedResults(t)
	r, ok := rs["gc-pause"]
	if !ok {
		t.Fatal("no gc-pause result")
	}
	h, err := history.ReadFile(filepath.Join(r.ReportDir, "history.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	w1, ok1 := firstOK(h, "w1")
	w2, ok2 := firstOK(h, "w2")
	if !ok1 || !ok2 {
		t.Fatalf("w1 acquired: %v, w2 acquired: %v; want both", ok1, ok2)
	}
	ttl := w1.Value.TTL                   // wall ns
	const slack = int64(time.Millisecond) // Redis's clock vs the history's
	expiryLo, expiryHi := w1.Invoke+ttl, w1.Complete+ttl
	sec := h.Header.ScenarioSeconds
	for _, op := range h.Ops {
		if op.Client == "w2" && op.F == history.Acquire && op.Type == history.Fail && op.Invoke > expiryHi+slack {
			t.Errorf("w2 was refused at %.2fs, after w1's key expired (by %.2fs)", sec(op.Invoke), sec(expiryHi))
		}
	}
	var charge *history.Op
	for i, op := range h.Ops {
		if op.Client == "w1" && op.F == history.Write && op.Value.Action == "charge" {
			charge = &h.Ops[i]
			break
		}
	}
	if charge == nil {
		t.Fatal("w1 never charged")
	}
	found := false
	for _, a := range r.Anomalies {
		if a.Kind != checker.KindMutexOverlap {
			continue
		}
		found = true
		if !slices.Equal(a.Clients, []string{"w1", "w2"}) {
			t.Errorf("overlap clients %v, want [w1 w2]", a.Clients)
		}
		if a.Start < expiryLo-slack || a.Start > w2.Complete {
			t.Errorf("overlap starts at %.2fs, want at w2's grant (%.2fs–%.2fs), after w1's key expired (from %.2fs)",
				a.StartS, sec(w2.Invoke), sec(w2.Complete), sec(expiryLo))
		}
		// The overlap lasts until w2 releases after its 1 s job; w1 still
		// sleeps then (its 35 s pause began after ≈1.1 s of work).
		if a.End <= a.Start || a.End > charge.Invoke {
			t.Errorf("overlap ends at %.2fs, want after its start and before w1 wakes and charges (%.2fs)", a.EndS, sec(charge.Invoke))
		}
	}
	if !found {
		t.Fatalf("no mutex-overlap anomaly in %+v", r.Anomalies)
	}
}

func TestTheVerdictIsTheSameWithLessTimeCompression(t *testing.T) {
	if testing.Short() {
		t.Skip("runs redlock-gc-pause at time scale 5 (≈4 s)")
	}
	backend := testBackend(t)
	code, rs, stderr := runJSON(t, "run", "../../scenarios/redlock-gc-pause.yaml", "--out", t.TempDir(), "--backend", backend, "--time-scale", "5")
	if len(rs) == 1 && spoiled(t, rs[0]) {
		return
	}
	if code != exitValid || len(rs) != 1 || rs[0].Verdict != checker.Invalid || rs[0].TimeScale != 5 {
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
	// run redis-server at the same time. Any scenario will do: a short one.
	code, _, stderr := runJSON(t, "run", "../../scenarios/redislock-happy.yaml", "--out", t.TempDir(), "--backend", "local")
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
