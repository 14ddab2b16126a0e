package explore

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/report"
)

// shardProfile writes the profile of shard k/n with the given rows into
// dir/shard-k and returns that directory.
func shardProfile(t *testing.T, dir, shard, plan string, rows ...string) string {
	t.Helper()
	d := filepath.Join(dir, "shard-"+shard[:1], "safe-explore", "20261202-000000")
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	p := report.Profile{Algorithm: "safe", Shard: shard, PlanHash: plan, Runs: 10, ElapsedSeconds: float64(len(rows)),
		Baseline: report.ProfileRun{Verdict: "valid", Report: "baseline/safe/x/index.html"}}
	for _, c := range rows {
		p.Rows = append(p.Rows, report.ProfileRow{Class: c, Status: report.StatusSurvived,
			Minimal: &report.ProfileRun{File: "regressions/safe-" + c + ".yaml"}})
	}
	for _, c := range ClassNames() {
		if !slices.Contains(rows, c) {
			p.NotApplicable = append(p.NotApplicable, report.ProfileSkip{Class: c, Reason: naOtherShard, Arg: "x"})
		}
	}
	if err := report.WriteProfileJSON(d, p); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestMergeCombinesTheShardsOfOneExploration(t *testing.T) {
	root := t.TempDir()
	a := shardProfile(t, root, "1/2", "p1", "pause", "latency")
	b := shardProfile(t, root, "2/2", "p1", "crash-none")
	dirs, err := Profiles([]string{root})
	if err != nil || len(dirs) != 2 {
		t.Fatalf("profiles %v, %v", dirs, err)
	}
	out := filepath.Join(root, "merged")
	m, err := Merge(dirs, out)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("every shard's rows, in the classes' order, and the runs summed", func(t *testing.T) {
		var got []string
		for _, r := range m.Rows {
			got = append(got, r.Class)
		}
		if want := []string{"pause", "crash-none", "latency"}; !slices.Equal(got, want) || m.Runs != 20 || m.ElapsedSeconds != 2 {
			t.Errorf("rows %v runs %d elapsed %g", got, m.Runs, m.ElapsedSeconds)
		}
	})
	t.Run("no class is said to be another shard's", func(t *testing.T) {
		for _, s := range m.NotApplicable {
			if s.Reason == naOtherShard {
				t.Errorf("%+v", s)
			}
		}
	})
	t.Run("paths point into the shard they came from", func(t *testing.T) {
		if got, want := m.Rows[1].Minimal.File, relTo(out, filepath.Join(b, "regressions", "safe-crash-none.yaml")); got != want {
			t.Errorf("crash-none's file %q, want %q", got, want)
		}
		if got, want := m.Baseline.Report, relTo(out, filepath.Join(a, "baseline", "safe", "x", "index.html")); got != want {
			t.Errorf("baseline %q, want %q", got, want)
		}
	})
}

func TestMergeRefusesWhatIsNotOneExplorationsShards(t *testing.T) {
	tests := []struct {
		name  string
		make  func(t *testing.T, root string)
		wants string
	}{
		{"a missing shard", func(t *testing.T, root string) { shardProfile(t, root, "1/2", "p1", "pause") }, "shard 2/2 missing"},
		{"a shard of another exploration", func(t *testing.T, root string) {
			shardProfile(t, root, "1/2", "p1", "pause")
			shardProfile(t, root, "2/2", "p2", "latency")
		}, "another lock, base or seed"},
		{"a whole exploration", func(t *testing.T, root string) { shardProfile(t, root, "x", "p1", "pause") }, "not a shard"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is refused", func(t *testing.T) {
			root := t.TempDir()
			tt.make(t, root)
			dirs, err := Profiles([]string{root})
			if err != nil {
				t.Fatal(err)
			}
			_, err = Merge(dirs, filepath.Join(root, "merged"))
			if !errors.Is(err, ErrNotShards) || !strings.Contains(err.Error(), tt.wants) {
				t.Errorf("err %v, want ErrNotShards saying %q", err, tt.wants)
			}
		})
	}
}
