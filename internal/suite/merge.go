package suite

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
)

// ManifestFile is what a shard writes in its report root: which runs of
// the plan it had and how each ended, so that merge can tell a complete
// set of shards, and runs without a report, from a partial one.
const ManifestFile = "locksim-shard.json"

// ManifestVersion is the version of ManifestFile's format.
const ManifestVersion = 1

// Manifest is a shard's ManifestFile.
type Manifest struct {
	Version int `json:"version"`
	// Shard is "K/N".
	Shard string `json:"shard"`
	// Plan is PlanHash of the whole plan, Total its number of runs;
	// Planned is this shard's share of them.
	Plan    string `json:"plan"`
	Total   int    `json:"total"`
	Planned int    `json:"planned"`
	// Interrupted is the exit code of an interrupted shard (130, 143);
	// 0 when it ran to its end.
	Interrupted int `json:"interrupted,omitempty"`
	// Lang is the language of the shard's reports.
	Lang report.Lang `json:"lang,omitempty"`
	Runs []RunRecord `json:"runs"`
}

// RunRecord is one finished (or failed, or aborted) run of a shard.
type RunRecord struct {
	// N is the run's position in the whole plan.
	N           int      `json:"n"`
	Scenario    string   `json:"scenario"`
	File        string   `json:"file"`
	Algorithm   string   `json:"algorithm"`
	Expect      string   `json:"expect,omitempty"`
	ExpectKinds []string `json:"expect_kinds,omitempty"`
	Seed        int64    `json:"seed"`
	// ReportDir is the run's report directory relative to the manifest's
	// directory ("" for a run without a report).
	ReportDir   string  `json:"report_dir,omitempty"`
	ExitCode    int     `json:"exit_code"`
	Error       string  `json:"error,omitempty"`
	Aborted     bool    `json:"aborted,omitempty"`
	WallSeconds float64 `json:"wall_seconds"`
	Reproduce   string  `json:"reproduce"`
}

// NewManifest records a shard's outcomes; plan is the whole plan, codes
// the exit code of each outcome.
func NewManifest(out string, shard Shard, plan []Job, planned int, outs []Outcome, codes []int, interrupted int, lang report.Lang) Manifest {
	m := Manifest{Version: ManifestVersion, Shard: shard.String(), Plan: PlanHash(plan), Total: len(plan),
		Planned: planned, Interrupted: interrupted, Lang: lang, Runs: []RunRecord{}}
	for i, o := range outs {
		sc := o.Scenario
		r := RunRecord{N: o.N, Scenario: sc.Name, File: sc.File, Algorithm: sc.Algorithm, Expect: sc.Expect.Verdict,
			ExpectKinds: sc.Expect.Kinds, Seed: o.Seed, ExitCode: codes[i], Error: o.Err, Aborted: o.Aborted,
			WallSeconds: o.Wall.Seconds(), Reproduce: o.Reproduce}
		if o.Results != nil {
			if rel, err := filepath.Rel(out, o.Results.ReportDir); err == nil {
				r.ReportDir = filepath.ToSlash(rel)
			}
		}
		m.Runs = append(m.Runs, r)
	}
	return m
}

// WriteManifest writes m as <dir>/ManifestFile.
func WriteManifest(dir string, m Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("encode shard manifest: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write shard manifest: %w", err)
	}
	return nil
}

// Merged is the combination of several shards' (or runs') results.
type Merged struct {
	// Outcomes in plan order: the shards' runs by their position in the
	// plan, then any bare results.json by scenario file and seed.
	Outcomes []Outcome
	// Shards are the shards found ("1/3", …), in order; Loose counts runs
	// found as a bare results.json outside any shard.
	Shards []string
	Loose  int
	// Interrupted is an interrupted shard's exit code (0 when none was).
	Interrupted int
	// Lang is the shards' report language.
	Lang report.Lang
}

// Merge reads the results under dirs: every shard manifest found in them
// (at any depth, as CI artifacts nest them) with its runs' results.json,
// and any results.json outside a shard. The shards must be every part of
// one plan (each K of N exactly once); a missing or repeated shard, or
// shards of different plans, is an error that names them.
func Merge(dirs []string) (Merged, error) {
	var manifests, loose []string
	for _, d := range dirs {
		st, err := os.Stat(d)
		if err != nil {
			return Merged{}, fmt.Errorf("merge: %w", err)
		}
		if !st.IsDir() {
			return Merged{}, fmt.Errorf("merge: %s is not a directory (give the --out directories of the shards)", d)
		}
		err = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			switch {
			case e.IsDir() && e.Name() == WhyDir:
				return fs.SkipDir // a run's experiments (Options.Why), not runs of the suite
			case e.IsDir():
			case e.Name() == ManifestFile:
				manifests = append(manifests, p)
			case e.Name() == "results.json":
				loose = append(loose, p)
			}
			return nil
		})
		if err != nil {
			return Merged{}, fmt.Errorf("merge: read %s: %w", d, err)
		}
	}
	var m Merged
	seen := map[string]bool{} // report dirs covered by a manifest
	var plan string
	shardOf := map[int]string{}
	n := 0
	for _, mf := range manifests {
		var man Manifest
		b, err := os.ReadFile(mf)
		if err == nil {
			err = json.Unmarshal(b, &man)
		}
		if err != nil {
			return Merged{}, fmt.Errorf("merge: %s: %w", mf, err)
		}
		if man.Version != ManifestVersion {
			return Merged{}, fmt.Errorf("merge: %s: manifest version %d; this locksim reads version %d", mf, man.Version, ManifestVersion)
		}
		sh, err := ParseShard(man.Shard)
		if err != nil {
			return Merged{}, fmt.Errorf("merge: %s: %w", mf, err)
		}
		switch {
		case plan == "":
			plan, n = man.Plan, sh.N
		case man.Plan != plan || sh.N != n:
			return Merged{}, fmt.Errorf("merge: %s is shard %s of another suite than %s (different scenarios, seeds or counts)", mf, man.Shard, shardOf[firstKey(shardOf)])
		}
		if prev, dup := shardOf[sh.K]; dup {
			return Merged{}, fmt.Errorf("merge: shard %s twice: %s and %s", man.Shard, prev, mf)
		}
		shardOf[sh.K] = mf
		if man.Interrupted != 0 && m.Interrupted == 0 {
			m.Interrupted = man.Interrupted
		}
		m.Lang = man.Lang
		base := filepath.Dir(mf)
		for _, r := range man.Runs {
			o, err := outcomeOf(base, r)
			if err != nil {
				return Merged{}, fmt.Errorf("merge: %s: run %s seed %d: %w", mf, r.Scenario, r.Seed, err)
			}
			if o.Results != nil {
				seen[filepath.Clean(o.Results.ReportDir)] = true
			}
			m.Outcomes = append(m.Outcomes, o)
		}
	}
	if len(shardOf) > 0 {
		var missing []string
		for k := 1; k <= n; k++ {
			if _, ok := shardOf[k]; ok {
				m.Shards = append(m.Shards, Shard{K: k, N: n}.String())
			} else {
				missing = append(missing, Shard{K: k, N: n}.String())
			}
		}
		if len(missing) > 0 {
			verb := "is"
			if len(missing) > 1 {
				verb = "are"
			}
			return Merged{}, fmt.Errorf("merge: shard %s %s missing (found %s)", strings.Join(missing, ", "), verb, strings.Join(m.Shards, ", "))
		}
	}
	sort.SliceStable(m.Outcomes, func(a, b int) bool { return m.Outcomes[a].N < m.Outcomes[b].N })
	// A shard's run the machine spoiled and that ran again left its first
	// try's report beside the rerun's: the manifest names the rerun, and a
	// results.json of the same scenario file and seed is that superseded
	// try (the rerun's results list its cause, Retried), not a run of its
	// own.
	planned := map[string]bool{}
	for _, o := range m.Outcomes {
		planned[fmt.Sprintf("%s\x00%d", o.Scenario.File, o.Seed)] = true
	}
	var looseOuts []Outcome
	for _, p := range loose {
		dir := filepath.Dir(p)
		if seen[filepath.Clean(dir)] {
			continue
		}
		o, err := outcomeOf(dir, RunRecord{ReportDir: "."})
		if err != nil {
			return Merged{}, fmt.Errorf("merge: %s: %w", p, err)
		}
		if len(manifests) > 0 && planned[fmt.Sprintf("%s\x00%d", o.Scenario.File, o.Seed)] {
			continue
		}
		looseOuts = append(looseOuts, o)
	}
	looseOuts = latestTries(looseOuts)
	sort.SliceStable(looseOuts, func(a, b int) bool {
		x, y := looseOuts[a], looseOuts[b]
		if x.Scenario.File != y.Scenario.File {
			return x.Scenario.File < y.Scenario.File
		}
		return x.Seed < y.Seed
	})
	m.Loose = len(looseOuts)
	for _, o := range looseOuts {
		o.N = len(m.Outcomes)
		m.Outcomes = append(m.Outcomes, o)
		// Runs outside any shard have no manifest to say their reports'
		// language: their results.json does (a vi suite's --out merged
		// into English pages).
		if m.Lang == "" && o.Results != nil {
			m.Lang = o.Results.Lang
		}
	}
	return m, nil
}

func firstKey(m map[int]string) int {
	best := -1
	for k := range m {
		if best < 0 || k < best {
			best = k
		}
	}
	return best
}

// outcomeOf rebuilds a run's outcome from its record and its report's
// results.json (under base/r.ReportDir; its report_dir is made that
// directory, wherever the run wrote it).
func outcomeOf(base string, r RunRecord) (Outcome, error) {
	o := Outcome{Job: Job{N: r.N, Seed: r.Seed, Scenario: scenario.Scenario{Name: r.Scenario, File: r.File,
		Algorithm: r.Algorithm, Expect: scenario.Expectation{Verdict: r.Expect, Kinds: r.ExpectKinds}}},
		Aborted: r.Aborted, Err: r.Error, Wall: time.Duration(r.WallSeconds * float64(time.Second)), Reproduce: r.Reproduce}
	if r.ReportDir == "" {
		return o, nil
	}
	dir := filepath.Join(base, filepath.FromSlash(r.ReportDir))
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Outcome{}, fmt.Errorf("its report %s has no results.json", dir)
		}
		return Outcome{}, err
	}
	var res report.Results
	if err := json.Unmarshal(b, &res); err != nil {
		return Outcome{}, fmt.Errorf("%s: %w", filepath.Join(dir, "results.json"), err)
	}
	res.ReportDir = dir
	o.Results = &res
	if r.Scenario == "" { // a bare results.json: what it says of itself
		o.Scenario = scenario.Scenario{Name: res.Scenario, File: res.File,
			Expect: scenario.Expectation{Verdict: res.Expect, Kinds: res.ExpectKinds}}
		o.Seed, o.Reproduce, o.Aborted, o.Err = res.Seed, res.Reproduce, res.Aborted, res.Error
		o.Wall = time.Duration(res.WallSeconds * float64(time.Second))
		if b, err := os.ReadFile(filepath.Join(dir, "scenario.yaml")); err == nil {
			if sc, err := scenario.Parse(filepath.Join(dir, "scenario.yaml"), b); err == nil {
				o.Scenario.Algorithm = sc.Algorithm
			}
		}
	}
	return o, nil
}

// latestTries drops, from runs outside any shard, each try a rerun of the
// same scenario file and seed superseded: a suite's run the machine spoiled
// left its first try's report beside the rerun's, and the rerun's results
// list the causes of the tries before it (Retried); the try with the most
// of them is the run. Runs of one file and seed that no rerun ties
// together (none lists a retry) all stay.
func latestTries(outs []Outcome) []Outcome {
	type key struct {
		file string
		seed int64
	}
	retried := func(o Outcome) int {
		if o.Results == nil {
			return 0
		}
		return len(o.Results.Retried)
	}
	last := map[key]int{} // the most retries any try of the key lists
	for _, o := range outs {
		k := key{o.Scenario.File, o.Seed}
		last[k] = max(last[k], retried(o))
	}
	var kept []Outcome
	for _, o := range outs {
		if n := last[key{o.Scenario.File, o.Seed}]; n == 0 || retried(o) == n {
			kept = append(kept, o)
		}
	}
	return kept
}
