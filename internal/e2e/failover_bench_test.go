package e2e

import (
	"encoding/json"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkFailoverEndToEnd runs the Sentinel failover pair as a user
// would — `locksim run` of one file, cluster start (a master, a replica,
// three sentinels) to report — and reports each file's wall time per run
// (issue 17: a failover scenario end to end takes ≤ 3 s wall).
func BenchmarkFailoverEndToEnd(b *testing.B) {
	if _, err := exec.LookPath("redis-sentinel"); err != nil {
		b.Skip("needs redis-sentinel")
	}
	bin := buildLocksim(b)
	out := b.TempDir()
	files := []struct{ file, metric, want string }{
		{"../../scenarios/failover-wait.yaml", "failover-wait-wall-s/run", "valid"},
		{"../../scenarios/failover-lost-lock.yaml", "failover-lost-lock-wall-s/run", "invalid"},
	}
	walls := make([]time.Duration, len(files))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, f := range files {
			t0 := time.Now()
			stdout, err := exec.Command(bin, "run", f.file, "--out", out, "--json").Output()
			walls[j] += time.Since(t0)
			var r struct {
				Verdict string `json:"verdict"`
			}
			if jerr := json.Unmarshal(stdout, &r); jerr != nil {
				b.Fatalf("%s: %v (%v)\n%s", f.file, jerr, err, stdout)
			}
			if r.Verdict != f.want {
				b.Fatalf("%s verdict %q, want %q", f.file, r.Verdict, f.want)
			}
		}
	}
	b.StopTimer()
	for j, f := range files {
		b.ReportMetric(walls[j].Seconds()/float64(b.N), f.metric)
	}
}
