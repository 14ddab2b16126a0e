package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/report"
)

// exploreSeeds are the seeds BenchmarkExploreFirstViolation explores
// with: the figure is their median.
var exploreSeeds = []string{"1", "2", "3"}

// BenchmarkExploreFirstViolation runs `locksim explore --algorithm safe`
// with no scenario, once per seed of exploreSeeds, on a 45 s budget (each
// shrink cut to a second: the figure is the search's), and reports the
// median over the seeds of the wall time from the exploration's start —
// its fault-free runs included — to the end of its first invalid run
// (profile.json's earliest first_violation_s), and the machine's 1-minute
// load average when it began (the machine is shared: the figure is slower
// on a loaded one). A seed that finds nothing counts as 999 s. Target
// (issue 29): ≤ 30 s.
func BenchmarkExploreFirstViolation(b *testing.B) {
	needRedis(b)
	bin := buildLocksim(b)
	var median, load float64
	for b.Loop() {
		load = loadAverage()
		var firsts []float64
		for _, seed := range exploreSeeds {
			out := b.TempDir()
			stdout, err := exec.Command(bin, "explore", "--algorithm", "safe", "--budget", "45s", "--shrink-budget", "1s",
				"--k", "1", "--seed", seed, "--out", out).Output()
			files, _ := filepath.Glob(filepath.Join(out, "*-explore", "*", report.ProfileJSON))
			if len(files) != 1 {
				b.Fatalf("seed %s: profiles %v (%v)\n%s", seed, files, err, stdout)
			}
			p, err := report.ReadProfile(files[0])
			if err != nil {
				b.Fatal(err)
			}
			first := 999.0
			for _, r := range p.Rows {
				if r.FirstViolationSeconds > 0 {
					first = min(first, r.FirstViolationSeconds)
				}
			}
			b.Logf("seed %s: first violation after %.1f s (load %.1f)", seed, first, load)
			firsts = append(firsts, first)
		}
		slices.Sort(firsts)
		median += firsts[len(firsts)/2]
	}
	b.ReportMetric(median/float64(b.N), "first-violation-s")
	b.ReportMetric(load, "load1")
}

// loadAverage is the machine's 1-minute load average (0 when unknown).
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	return f
}
