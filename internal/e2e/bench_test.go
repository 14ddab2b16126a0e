package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// buildLocksim builds the CLI once into a temp dir and returns its path.
func buildLocksim(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "locksim")
	cmd := exec.Command("go", "build", "-o", bin, "../../cmd/locksim")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build locksim: %v\n%s", err, out)
	}
	return bin
}

// BenchmarkGCPauseEndToEnd measures `locksim run scenarios/gc-pause.yaml` at
// its default time scale, end to end: nodes started, run, checked, report
// written. It reports wall seconds per run and the compression factor
// (scenario seconds / wall seconds). Target (issue 8): ≤ 1.0 s wall per run
// on a 2-core machine; the verdict must stay invalid.
func BenchmarkGCPauseEndToEnd(b *testing.B) {
	bin := buildLocksim(b)
	out := b.TempDir()
	var scenarioS, wallS float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin, "run", "../../scenarios/gc-pause.yaml", "--out", out, "--json")
		cmd.Stderr = nil
		stdout, err := cmd.Output()
		if err != nil {
			b.Fatalf("locksim run: %v", err)
		}
		var r struct {
			Verdict         string  `json:"verdict"`
			ScenarioSeconds float64 `json:"scenario_seconds"`
		}
		if err := json.Unmarshal(stdout, &r); err != nil {
			b.Fatalf("results: %v\n%s", err, stdout)
		}
		if r.Verdict != "invalid" {
			b.Fatalf("gc-pause verdict %q, want invalid", r.Verdict)
		}
		scenarioS += r.ScenarioSeconds
	}
	b.StopTimer()
	wallS = b.Elapsed().Seconds()
	b.ReportMetric(wallS/float64(b.N), "wall-s/run")
	b.ReportMetric(scenarioS/wallS, "x-compression")
	if err := os.RemoveAll(out); err != nil {
		b.Log(err)
	}
}
