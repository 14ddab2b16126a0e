package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/suite"
)

// sweepLines are the rate lines of a summary on stdout.
func sweepLines(stdout string) []string {
	var out []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.Contains(l, " runs invalid") {
			out = append(out, l)
		}
	}
	return out
}

// verdicts are "verdict met=…" per "scenario seed N", from JSON lines (a
// rerun's line, printed after the try it replaces, wins), and spoiled the
// runs whose last try the machine spoiled (an unknown of a busy machine,
// Results.Spoiled: issue 32), whose verdict no other run need share.
func verdicts(t *testing.T, jsonl []byte) (out map[string]string, spoiled map[string]bool) {
	t.Helper()
	out, spoiled = map[string]string{}, map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(jsonl))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r report.Results
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("results line: %v", err)
		}
		met := "-"
		if r.ExpectationMet != nil {
			met = fmt.Sprint(*r.ExpectationMet)
		}
		k := fmt.Sprintf("%s seed %d", r.Scenario, r.Seed)
		out[k] = string(r.Verdict) + " met=" + met
		spoiled[k] = r.Spoiled != ""
	}
	return out, spoiled
}

func TestThreeShardsAndAMergeGiveWhatOneRunOfEverythingGives(t *testing.T) {
	backend := testBackend(t)
	dir := t.TempDir()
	// A broken scenario that is expected broken, one expected valid that
	// is, and one whose expectation is wrong (exit 1).
	files := []string{
		filepath.Join("..", "..", "scenarios", "gc-pause.yaml"),
		filepath.Join("..", "..", "scenarios", "gc-pause-fencing.yaml"),
		writeScenario(t, dir, "slow-job.yaml", "slow-job-wrong", "valid"),
	}
	run := func(out string, extra ...string) (int, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		args := append(append([]string{"run"}, files...), "--count", "3", "--seed", "7", "--out", out, "--backend", backend, "--parallel", "4", "--retry-unknown", "2")
		code := realMain(append(args, extra...), &stdout, &stderr)
		if code != exitValid && code != exitInvalid {
			t.Fatalf("run %v: exit %d\n%s", extra, code, stderr.String())
		}
		return code, stdout.String()
	}
	wholeCode, wholeOut := run(filepath.Join(dir, "whole"), "--json")
	var shards []string
	for k := 1; k <= 3; k++ {
		out := filepath.Join(dir, "ci", fmt.Sprintf("shard-%d", k))
		run(out, "--shard", fmt.Sprintf("%d/3", k))
		shards = append(shards, out)
	}
	merged := filepath.Join(dir, "merged")
	var stdout, stderr bytes.Buffer
	mergeCode := realMain(append(append([]string{"merge"}, shards...), "--out", merged), &stdout, &stderr)
	jl, err := os.ReadFile(filepath.Join(merged, "results.jsonl"))
	if err != nil {
		t.Fatalf("merge wrote no results.jsonl (exit %d): %v\n%s", mergeCode, err, stderr.String())
	}

	t.Run("the merge exits as the unsharded run did", func(t *testing.T) {
		if mergeCode != wholeCode || wholeCode != exitInvalid {
			t.Errorf("merge exit %d, unsharded %d (want both %d: one expectation is wrong)", mergeCode, wholeCode, exitInvalid)
		}
	})
	want, wantSpoiled := verdicts(t, []byte(wholeOut))
	got, gotSpoiled := verdicts(t, jl)
	// A run the machine spoiled on either side even after its reruns has
	// no verdict to compare (a loaded machine's unknown); every other run
	// must have the same one, and each scenario needs at least one such.
	spoiled := map[string]bool{}
	for k := range want {
		if wantSpoiled[k] || gotSpoiled[k] {
			spoiled[k] = true
			scn, _, _ := strings.Cut(k, " seed ")
			spoiled[scn] = true
			t.Logf("%s: spoiled by the machine (%s unsharded, %s merged): not compared", k, want[k], got[k])
		}
	}
	t.Run("every run has the verdict it had unsharded", func(t *testing.T) {
		if len(want) != 9 || len(got) != len(want) {
			t.Fatalf("%d runs merged, %d unsharded, want 9", len(got), len(want))
		}
		compared := map[string]bool{}
		for k, v := range want {
			if spoiled[k] {
				continue
			}
			scn, _, _ := strings.Cut(k, " seed ")
			compared[scn] = true
			if got[k] != v {
				t.Errorf("%s: %s merged, %s unsharded", k, got[k], v)
			}
		}
		if len(compared) != 3 {
			t.Errorf("only %d of 3 scenarios had a run the machine did not spoil on both sides", len(compared))
		}
	})
	t.Run("the rates and failing seeds are those of the unsharded run", func(t *testing.T) {
		var again bytes.Buffer
		if code := realMain(append(append([]string{"run"}, files...), "--count", "3", "--seed", "7", "--out", filepath.Join(dir, "again"), "--backend", backend, "--parallel", "4"), &again, &bytes.Buffer{}); code != wholeCode {
			t.Fatalf("second unsharded run exit %d", code)
		}
		// Its summary table: an unknown there is the machine's (these
		// scenarios give a definite verdict on time).
		for _, l := range strings.Split(again.String(), "\n") {
			if f := strings.Fields(l); len(f) > 2 && f[2] == "unknown" {
				spoiled[f[0]] = true
			}
		}
		want, got := sweepLines(again.String()), sweepLines(stdout.String())
		if len(want) != 3 || len(got) != 3 {
			t.Fatalf("merged rates:\n%s\nunsharded:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		for i := range want {
			scn, _, _ := strings.Cut(want[i], " (algorithm")
			if spoiled[scn] {
				t.Logf("%s: a run spoiled by the machine on one side; rates not compared", scn)
				continue
			}
			if want[i] != got[i] {
				t.Errorf("merged rates: %s\nunsharded: %s", got[i], want[i])
			}
		}
	})
	t.Run("the JUnit file has a case per run and the wrong expectation's failures", func(t *testing.T) {
		b, err := os.ReadFile(filepath.Join(merged, "junit.xml"))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
		}
		// The wrong expectation's three runs fail; so does a run the
		// machine spoiled and that thus missed its expectation.
		fails := 3
		for k, sp := range gotSpoiled {
			if sp && !strings.HasPrefix(k, "slow-job-wrong") && strings.HasSuffix(got[k], "met=false") {
				fails++
			}
		}
		if err := xml.Unmarshal(b, &doc); err != nil || doc.Tests != 9 || doc.Failures != fails {
			t.Errorf("JUnit tests %d failures %d (%v), want 9 and %d", doc.Tests, doc.Failures, err, fails)
		}
	})
	t.Run("the merged suite page links every run's report where it lies", func(t *testing.T) {
		page, err := os.ReadFile(filepath.Join(merged, report.IndexFile))
		if err != nil {
			t.Fatal(err)
		}
		links := strings.Count(string(page), `href="../ci/shard-`)
		if links < 9 {
			t.Errorf("%d links into the shards' reports, want at least 9", links)
		}
	})
	t.Run("two of three shards do not merge", func(t *testing.T) {
		var stderr bytes.Buffer
		code := realMain([]string{"merge", shards[0], shards[2], "--out", filepath.Join(dir, "partial")}, &bytes.Buffer{}, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), "shard 2/3 is missing") {
			t.Errorf("exit %d: %s", code, stderr.String())
		}
	})
}

func TestShardFlagsAreCheckedBeforeAnythingStarts(t *testing.T) {
	dir := t.TempDir()
	unseeded := filepath.Join(dir, "unseeded.yaml")
	if err := os.WriteFile(unseeded, []byte("clients: 2\nalgorithm: safe\nttl: 30s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a shard past N is refused", []string{"run", "../../scenarios/gc-pause.yaml", "--shard", "4/3"}, "K must be between 1 and N"},
		{"a shard that is not K/N is refused", []string{"run", "../../scenarios/gc-pause.yaml", "--shard", "half"}, "want K/N"},
		{"a shard of a scenario without a seed needs --seed", []string{"run", unseeded, "--shard", "1/2"}, "has no seed"},
		{"merge without a directory is refused", []string{"merge"}, "no directory given"},
		{"merge of a directory without results is refused", []string{"merge", dir}, "no run results"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			args := append(tt.args, "--out", filepath.Join(t.TempDir(), "out"))
			if code := realMain(args, &bytes.Buffer{}, &stderr); code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr %q does not say %q", stderr.String(), tt.want)
			}
			if _, err := os.Stat(filepath.Join(dir, suite.ManifestFile)); err == nil {
				t.Error("a manifest was written")
			}
		})
	}
}
