package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/clients/clientstest"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
)

func TestAShardIsReadAsKOfN(t *testing.T) {
	tests := []struct {
		in      string
		want    Shard
		wantErr string
	}{
		{"1/3", Shard{1, 3}, ""},
		{"3/3", Shard{3, 3}, ""},
		{" 2 / 5 ", Shard{2, 5}, ""},
		{"0/3", Shard{}, "K must be between 1 and N"},
		{"4/3", Shard{}, "K must be between 1 and N"},
		{"1/0", Shard{}, "N must be between 1 and"},
		{"2", Shard{}, "want K/N"},
		{"a/b", Shard{}, "want K/N"},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%q is shard %v", tt.in, tt.want)
		if tt.wantErr != "" {
			name = fmt.Sprintf("%q is refused", tt.in)
		}
		t.Run(name, func(t *testing.T) {
			got, err := ParseShard(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %v, %v", got, err)
			}
		})
	}
}

// sweepPlan is three scenarios × 40 seeds.
func sweepPlan() []Job {
	var scs []scenario.Scenario
	for _, n := range []string{"gc-pause", "slow-job", "fencing-random-nemesis"} {
		seed := int64(len(n))
		scs = append(scs, scenario.Scenario{Name: n, File: n + ".yaml", Seed: &seed, Expect: scenario.Expectation{Verdict: "valid"}})
	}
	return Plan(scs, Options{Count: 40})
}

func TestEveryRunLandsInExactlyOneShardWhateverN(t *testing.T) {
	plan := sweepPlan()
	for _, n := range []int{1, 2, 3, 7, 16} {
		t.Run(fmt.Sprintf("with %d shards", n), func(t *testing.T) {
			count := map[int]int{}
			for k := 1; k <= n; k++ {
				for _, j := range (Shard{K: k, N: n}).Of(plan) {
					count[j.N]++
				}
			}
			for _, j := range plan {
				if count[j.N] != 1 {
					t.Errorf("%s seed %d is in %d shards", j.Scenario.Name, j.Seed, count[j.N])
				}
			}
		})
	}
	t.Run("a run's shard depends on its scenario and seed, not on the rest of the plan", func(t *testing.T) {
		alone := Plan([]scenario.Scenario{plan[len(plan)-1].Scenario}, Options{Count: 40})
		for k := 1; k <= 3; k++ {
			s := Shard{K: k, N: 3}
			for _, j := range alone {
				if want := s.Has(j); want != s.Has(plan[80+j.N]) {
					t.Errorf("%s seed %d moved shard when the plan changed", j.Scenario.Name, j.Seed)
				}
			}
		}
	})
	t.Run("three shards of 120 runs are about even", func(t *testing.T) {
		for k := 1; k <= 3; k++ {
			if n := len((Shard{K: k, N: 3}).Of(plan)); n < 25 || n > 55 {
				t.Errorf("shard %d/3 has %d of 120 runs", k, n)
			}
		}
	})
}

func TestAShardsRunsKeepTheirPlaceAndNotabilityInTheWholePlan(t *testing.T) {
	plan := sweepPlan()
	whole := newNotable(plan)
	valid := report.Input{Verdict: checker.Valid}
	for k := 1; k <= 3; k++ {
		s := Shard{K: k, N: 3}
		jobs := s.Of(plan)
		part := newNotable(jobs)
		t.Run(fmt.Sprintf("shard %s judges every run as the whole plan does", s), func(t *testing.T) {
			for _, j := range jobs {
				if plan[j.N].Seed != j.Seed || plan[j.N].Scenario.Name != j.Scenario.Name {
					t.Fatalf("job N=%d is %s seed %d in the shard, %s seed %d in the plan", j.N, j.Scenario.Name, j.Seed, plan[j.N].Scenario.Name, plan[j.N].Seed)
				}
				if got, want := part.charts(j.Scenario, j.Seed, valid), whole.charts(j.Scenario, j.Seed, valid); got != want {
					t.Errorf("%s seed %d: charts %v in the shard, %v in the whole plan", j.Scenario.Name, j.Seed, got, want)
				}
			}
		})
	}
}

// writeRun writes a run's results.json under root/<rel>.
func writeRun(t *testing.T, root, rel string, r report.Results) {
	t.Helper()
	dir := filepath.Join(root, rel)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r.ReportDir = "/somewhere/else/" + rel // as the shard's machine wrote it
	b, _ := json.Marshal(r)
	if err := os.WriteFile(filepath.Join(dir, "results.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeShards runs nothing: it writes the manifests and results of the
// shards of plan as `locksim run --shard` would, invalid for odd seeds.
func writeShards(t *testing.T, root string, plan []Job, n int, skip int) []string {
	t.Helper()
	var dirs []string
	for k := 1; k <= n; k++ {
		if k == skip {
			continue
		}
		s := Shard{K: k, N: n}
		out := filepath.Join(root, "artifacts", fmt.Sprintf("shard-%d", k), "reports")
		jobs := s.Of(plan)
		var outs []Outcome
		var codes []int
		for _, j := range jobs {
			v := checker.Valid
			if j.Seed%2 == 1 {
				v = checker.Invalid
			}
			rel := fmt.Sprintf("%s/run-seed%d", j.Scenario.Name, j.Seed)
			r := report.Results{Scenario: j.Scenario.Name, File: j.Scenario.File, Seed: j.Seed, Verdict: v}
			writeRun(t, out, rel, r)
			r.ReportDir = filepath.Join(out, rel)
			outs = append(outs, Outcome{Job: j, Results: &r})
			codes = append(codes, 0)
		}
		if err := WriteManifest(out, NewManifest(out, s, plan, len(jobs), outs, codes, 0, report.English)); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, filepath.Join(root, "artifacts", fmt.Sprintf("shard-%d", k)))
	}
	return dirs
}

func TestMergeCombinesShardsIntoThePlansOrder(t *testing.T) {
	plan := sweepPlan()
	root := t.TempDir()
	dirs := writeShards(t, root, plan, 3, 0)
	m, err := Merge(dirs)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("every run of the plan is there once, in plan order", func(t *testing.T) {
		if len(m.Outcomes) != len(plan) {
			t.Fatalf("%d runs, want %d", len(m.Outcomes), len(plan))
		}
		for i, o := range m.Outcomes {
			if o.N != i || o.Seed != plan[i].Seed || o.Scenario.Name != plan[i].Scenario.Name {
				t.Fatalf("run %d is %s seed %d (N %d), want %s seed %d", i, o.Scenario.Name, o.Seed, o.N, plan[i].Scenario.Name, plan[i].Seed)
			}
		}
	})
	t.Run("each report is found where it lies now, not where its shard wrote it", func(t *testing.T) {
		for _, o := range m.Outcomes {
			if _, err := os.Stat(filepath.Join(o.Results.ReportDir, "results.json")); err != nil {
				t.Fatalf("%s seed %d: %v", o.Scenario.Name, o.Seed, err)
			}
		}
	})
	t.Run("the sweep rates are those of the whole plan", func(t *testing.T) {
		for _, l := range SweepLines(m.Outcomes) {
			if !strings.Contains(l, "20/40 runs invalid") {
				t.Errorf("rate line %q, want 20 of 40 invalid", l)
			}
		}
	})
	t.Run("the shards found are named", func(t *testing.T) {
		if strings.Join(m.Shards, " ") != "1/3 2/3 3/3" || m.Loose != 0 {
			t.Errorf("shards %v, loose %d", m.Shards, m.Loose)
		}
	})
}

func TestMergeCountsARunTheMachineSpoiledOnceWhenItRanAgain(t *testing.T) {
	plan := sweepPlan()
	root := t.TempDir()
	dirs := writeShards(t, root, plan, 3, 0)
	// The first try of shard 1's first run, spoiled and run again: its
	// report stays beside the rerun's, which the manifest names.
	j := Shard{K: 1, N: 3}.Of(plan)[0]
	out := filepath.Join(dirs[0], "reports")
	writeRun(t, out, fmt.Sprintf("%s/run-seed%d-try1", j.Scenario.Name, j.Seed), report.Results{Scenario: j.Scenario.Name, File: j.Scenario.File, Seed: j.Seed, Verdict: checker.Unknown, Spoiled: checker.SpoiledBusy})
	m, err := Merge(dirs)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Outcomes) != len(plan) || m.Loose != 0 {
		t.Errorf("%d runs (%d loose), want the plan's %d: the superseded try counted as a run", len(m.Outcomes), m.Loose, len(plan))
	}
}

func TestMergeRefusesShardsThatAreNotOneWholePlan(t *testing.T) {
	plan := sweepPlan()
	t.Run("a missing shard is named", func(t *testing.T) {
		_, err := Merge(writeShards(t, t.TempDir(), plan, 3, 2))
		if err == nil || !strings.Contains(err.Error(), "shard 2/3 is missing") {
			t.Errorf("err %v", err)
		}
	})
	t.Run("the same shard twice is refused", func(t *testing.T) {
		dirs := writeShards(t, t.TempDir(), plan, 3, 0)
		_, err := Merge(append(dirs, dirs[0]))
		if err == nil || !strings.Contains(err.Error(), "shard 1/3 twice") {
			t.Errorf("err %v", err)
		}
	})
	t.Run("a shard of another plan is refused", func(t *testing.T) {
		root := t.TempDir()
		dirs := writeShards(t, filepath.Join(root, "a"), plan, 3, 3)
		other := writeShards(t, filepath.Join(root, "b"), plan[:60], 3, 0)
		_, err := Merge(append(dirs, other[2]))
		if err == nil || !strings.Contains(err.Error(), "of another suite") {
			t.Errorf("err %v", err)
		}
	})
	t.Run("a directory that does not exist is refused", func(t *testing.T) {
		if _, err := Merge([]string{filepath.Join(t.TempDir(), "nope")}); err == nil {
			t.Error("no error")
		}
	})
}

func TestMergeTakesRunsOutsideAnyShardByTheirOwnResults(t *testing.T) {
	root := t.TempDir()
	for _, seed := range []int64{3, 1, 2} {
		writeRun(t, root, fmt.Sprintf("gc-pause/seed%d", seed), report.Results{Scenario: "gc-pause", File: "gc-pause.yaml", Seed: seed, Verdict: checker.Invalid})
	}
	m, err := Merge([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	if m.Loose != 3 || len(m.Outcomes) != 3 || m.Outcomes[0].Seed != 1 || m.Outcomes[2].Seed != 3 {
		t.Errorf("loose %d, outcomes %+v", m.Loose, m.Outcomes)
	}
}

// TestMergeTakesTheLanguageOfRunsOutsideAnyShardFromTheirResults: a vi
// suite's --out, merged, gave English pages (no manifest says the
// language; each results.json does).
func TestMergeTakesTheLanguageOfRunsOutsideAnyShardFromTheirResults(t *testing.T) {
	root := t.TempDir()
	writeRun(t, root, "gc-pause/seed1", report.Results{Scenario: "gc-pause", File: "gc-pause.yaml", Seed: 1, Verdict: checker.Invalid, Lang: report.Vietnamese})
	m, err := Merge([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	if m.Lang != report.Vietnamese {
		t.Errorf("merged language %q, want %q", m.Lang, report.Vietnamese)
	}
}

// TestMergeCountsARetriedRunOutsideAnyShardOnce: an unsharded suite's
// --out holds a spoiled try's report beside its rerun's; merging it gave
// 1406 runs and 36 "not met" for the ten-seed catalogue's 1370 (lesson
// 47's "10 of 11").
func TestMergeCountsARetriedRunOutsideAnyShardOnce(t *testing.T) {
	root := t.TempDir()
	writeRun(t, root, "gc-pause/seed1-try1", report.Results{Scenario: "gc-pause", File: "gc-pause.yaml", Seed: 1, Verdict: checker.Unknown, Spoiled: checker.SpoiledBusy})
	writeRun(t, root, "gc-pause/seed1-try2", report.Results{Scenario: "gc-pause", File: "gc-pause.yaml", Seed: 1, Verdict: checker.Unknown, Spoiled: checker.SpoiledBusy, Retried: []string{checker.SpoiledBusy}})
	writeRun(t, root, "gc-pause/seed1-try3", report.Results{Scenario: "gc-pause", File: "gc-pause.yaml", Seed: 1, Verdict: checker.Invalid, Retried: []string{checker.SpoiledBusy, checker.SpoiledBusy}})
	writeRun(t, root, "gc-pause/seed2", report.Results{Scenario: "gc-pause", File: "gc-pause.yaml", Seed: 2, Verdict: checker.Invalid})
	m, err := Merge([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Outcomes) != 2 || m.Outcomes[0].Results.Verdict != checker.Invalid || len(m.Outcomes[0].Results.Retried) != 2 {
		t.Errorf("%d runs, want 2 (seed 1's last try and seed 2): %+v", len(m.Outcomes), m.Outcomes)
	}
}

func TestAPoolKeepsItsNodesFromOneCallToTheNext(t *testing.T) {
	backend := clientstest.Backend(t)
	sc, err := scenario.Load(filepath.Join("..", "..", "scenarios", "control-positive.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Out: t.TempDir(), Parallel: 1, Backend: backend, Reuse: true, Charts: ChartsNone}
	p := NewPool(opts)
	defer p.Close()
	first := p.Run(context.Background(), Plan([]scenario.Scenario{sc}, opts))
	env := <-p.envs
	cl := env.cl
	p.envs <- env
	second := p.Run(context.Background(), Plan([]scenario.Scenario{sc}, opts))
	env = <-p.envs
	p.envs <- env
	t.Run("both calls ran their scenario to a verdict, valid or (a busy machine's) unknown", func(t *testing.T) {
		for _, outs := range [][]Outcome{first, second} {
			if len(outs) != 1 || outs[0].Results == nil {
				t.Fatalf("outcomes %+v", outs)
			}
			if v := outs[0].Results.Verdict; v != checker.Valid && v != checker.Unknown {
				t.Fatalf("control-positive came out %s on a reused cluster", v)
			}
		}
	})
	t.Run("the second call ran on the first call's cluster", func(t *testing.T) {
		if cl == nil || env.cl != cl {
			t.Errorf("cluster %p after the first call, %p after the second", cl, env.cl)
		}
	})
	t.Run("no charts are drawn with ChartsNone", func(t *testing.T) {
		if _, err := os.Stat(filepath.Join(second[0].Results.ReportDir, report.TimelineFile)); err == nil {
			t.Error("timeline.png drawn")
		}
	})
}

func TestARunTheMachineSpoiledIsRunAgainAndOneTheScenarioMadeUnknownIsNot(t *testing.T) {
	backend := clientstest.Backend(t)
	load := func(name string) scenario.Scenario {
		sc, err := scenario.Load(filepath.Join("..", "..", "scenarios", name))
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	t.Run("an exposure no contender tested is run again, twice, and the rerun says why", func(t *testing.T) {
		// gc-pause with w1 alone: its charge after its lease ended is an
		// exposure no other client can test, on every try (coverage:
		// unknown, spoiled "exposure").
		sc := load("gc-pause.yaml")
		sc.Clients, sc.Expect.Verdict, sc.Expect.Kinds = 1, "invalid", nil
		var tries []int
		opts := Options{Out: t.TempDir(), Parallel: 2, Backend: backend, Charts: ChartsNone, RetryUnknown: 2,
			Done: func(o Outcome) { tries = append(tries, o.Retry) }}
		outs := Run(context.Background(), Plan([]scenario.Scenario{sc}, opts), opts)
		if !slices.Equal(tries, []int{0, 1, 2}) {
			t.Errorf("tries %v, want [0 1 2] (once and twice again)", tries)
		}
		if len(outs) != 1 || outs[0].Results == nil || outs[0].Results.Verdict != checker.Unknown || outs[0].Passed() {
			t.Fatalf("outcome %+v, want the last try's unknown, not passed", outs)
		}
		r := outs[0].Results
		if r.Spoiled != checker.SpoiledExposure || !slices.Equal(r.Retried, []string{checker.SpoiledExposure, checker.SpoiledExposure}) {
			t.Errorf("spoiled %q, retried %v; want exposure, twice", r.Spoiled, r.Retried)
		}
		if l := RetryLine(outs); !strings.Contains(l, "1 run rerun (2 exposure)") {
			t.Errorf("retry line %q", l)
		}
	})
	t.Run("a spoiled run's first rerun goes while the pass still runs, its last after the pass", func(t *testing.T) {
		long := load("field/restart-restores-nothing.yaml") // about 5 s of wall time
		alone := load("gc-pause.yaml")                      // about 1 s
		alone.Clients, alone.Expect.Verdict, alone.Expect.Kinds = 1, "invalid", nil
		type span struct{ from, to time.Time }
		ran := map[[2]int]span{} // job, retry → when it began and ended
		opts := Options{Out: t.TempDir(), Parallel: 2, Backend: backend, Charts: ChartsNone, RetryUnknown: 2,
			Done: func(o Outcome) {
				// From the run's time zero to the last instant of its
				// history (WallSeconds counts its set-up too, from before
				// its time zero).
				if r := o.Results; r != nil {
					ran[[2]int{o.N, o.Retry}] = span{r.Started, r.Started.Add(time.Duration(r.ScenarioSeconds / r.TimeScale * float64(time.Second)))}
				}
			}}
		Run(context.Background(), Plan([]scenario.Scenario{long, alone}, opts), opts)
		// The long run may itself be spoiled on a busy machine and go
		// again: its first try is the pass's.
		pass, first, second := ran[[2]int{0, 0}], ran[[2]int{1, 1}], ran[[2]int{1, 2}]
		if pass.from.IsZero() || first.from.IsZero() || second.from.IsZero() {
			t.Fatalf("tries run %v, want the long run's and the short one's three", ran)
		}
		if !first.from.Before(pass.to) {
			t.Errorf("the first rerun began at %v, after the long run ended at %v: want it inside the pass", first.from, pass.to)
		}
		if second.from.Before(pass.to) {
			t.Errorf("the second rerun began at %v, before the long run ended at %v: want it after the pass", second.from, pass.to)
		}
	})
	t.Run("a fault that overlaps nothing is the scenario's unknown, which is not run again", func(t *testing.T) {
		sc := load("coverage-miss.yaml")
		sc.Expect.Verdict, sc.Expect.Kinds = "valid", nil
		var tries []Outcome
		opts := Options{Out: t.TempDir(), Parallel: 1, Backend: backend, Charts: ChartsNone, RetryUnknown: 2,
			Done: func(o Outcome) { tries = append(tries, o) }}
		outs := Run(context.Background(), Plan([]scenario.Scenario{sc}, opts), opts)
		if len(outs) != 1 || outs[0].Results == nil || outs[0].Results.Verdict != checker.Unknown {
			t.Fatalf("outcome %+v, want unknown", outs)
		}
		// A busy machine may spoil a try (its timing lost) before the
		// scenario's own unknown shows: that try runs again. The try
		// that is the scenario's unknown is the last.
		for i, o := range tries[:len(tries)-1] {
			if o.Results == nil || o.Results.Spoiled == "" {
				t.Errorf("try %d, not spoiled, was run again: %+v", i, o.Results)
			}
		}
		last := outs[0].Results
		switch {
		case last.Spoiled == "" && len(last.Retried) != len(tries)-1:
			t.Errorf("the last try lists %v, after %d tries", last.Retried, len(tries))
		case last.Spoiled != "":
			t.Logf("the machine spoiled every try (%v, then %s): nothing to judge", last.Retried, last.Spoiled)
		}
	})
	t.Run("an invalid run whose report waits for its experiments is not run again", func(t *testing.T) {
		// A sweep's first seed gets its experiments (Why) after every run
		// ends: until then it has a verdict but no results written.
		sc := load("gc-pause.yaml")
		out := t.TempDir()
		var tries []Outcome
		opts := Options{Out: out, Parallel: 2, Backend: backend, Charts: ChartsNone, RetryUnknown: 2, Count: 2, Why: true,
			Done: func(o Outcome) { tries = append(tries, o) }}
		Run(context.Background(), Plan([]scenario.Scenario{sc}, opts), opts)
		dirs, _ := filepath.Glob(filepath.Join(out, sc.Name, "*"))
		var spoiledTries int
		for _, o := range tries {
			if o.Retry > 0 {
				spoiledTries++
			}
			if o.Retry > 0 && o.Results != nil && (len(o.Results.Retried) == 0 || o.Results.Retried[0] == NoVerdict) {
				t.Errorf("seed %d was run again for want of a verdict (%v): its report was waiting for its experiments", o.Seed, o.Results.Retried)
			}
		}
		if len(dirs) != 2+spoiledTries {
			t.Errorf("%d report directories for 2 runs and %d reruns", len(dirs), spoiledTries)
		}
	})
	opts := Options{Out: t.TempDir(), Parallel: 1, Backend: backend, Charts: ChartsNone, RetryUnknown: 2}
	// A definite verdict is never run again, even when it misses (a busy
	// machine may make the tries before it unknown).
	var verdicts []checker.Verdict
	opts.Done = func(o Outcome) {
		if o.Results != nil {
			verdicts = append(verdicts, o.Results.Verdict)
		}
	}
	sc2 := load("control-positive.yaml")
	sc2.Expect.Verdict, sc2.Expect.Kinds = "invalid", nil
	Run(context.Background(), Plan([]scenario.Scenario{sc2}, opts), opts)
	for i, v := range verdicts {
		if v != checker.Unknown && i != len(verdicts)-1 {
			t.Errorf("tries %v: a definite verdict was run again", verdicts)
		}
	}
	if n := len(verdicts); n == 0 || n > 3 || (verdicts[n-1] != checker.Valid && n < 3) {
		t.Errorf("tries %v: want unknowns then valid, at most three tries", verdicts)
	}
}
