package shrink

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/suite"
)

// CandidateFile is the name of a candidate's scenario in its directory.
const CandidateFile = "candidate.yaml"

// PoolEval runs candidates on a suite pool (real runs, nodes reused from
// one candidate to the next as a sweep reuses them), each candidate's
// runs together, into <Dir>/c<N>/ beside the candidate's YAML.
type PoolEval struct {
	Pool *suite.Pool
	Dir  string
	n    int
}

// Reruns is how many times a candidate's run the machine spoiled is run
// again (issue 32).
const Reruns = 2

// Eval writes the candidate to <Dir>/c<N>/candidate.yaml and runs it once
// per seed, all at once; a run the machine spoiled runs again (Reruns).
func (e *PoolEval) Eval(ctx context.Context, sc scenario.Scenario, seeds []int64) ([]Run, string, error) {
	dir := filepath.Join(e.Dir, fmt.Sprintf("c%03d", e.n))
	e.n++
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, "", fmt.Errorf("candidate directory: %w", err)
	}
	b, err := scenario.Normalize(sc)
	if err != nil {
		return nil, "", err
	}
	file := filepath.Join(dir, CandidateFile)
	if err := os.WriteFile(file, b, 0o644); err != nil {
		return nil, "", fmt.Errorf("write candidate: %w", err)
	}
	sc.File = file
	jobs := make([]suite.Job, len(seeds))
	for i, seed := range seeds {
		jobs[i] = suite.Job{N: i, Scenario: sc, Seed: seed, Out: dir}
	}
	outs := e.Pool.Run(ctx, jobs)
	// A run the machine spoiled (an unknown from lateness, never a
	// definite verdict) says nothing of the candidate: it runs again, at
	// fewer at once (suite.Pool.Rerun), as a suite's and a map's do.
	e.Pool.Rerun(ctx, outs, Reruns, nil)
	runs := make([]Run, 0, len(outs))
	for _, o := range outs {
		r := Run{Seed: o.Seed, Err: o.Err}
		if o.Aborted && r.Err == "" {
			r.Err = "aborted"
		}
		if o.Results != nil {
			if !o.Aborted {
				r.Verdict = o.Results.Verdict
			}
			r.Kinds = report.ViolationKinds(o.Results.Anomalies)
			r.ReportDir = o.Results.ReportDir
		}
		runs = append(runs, r)
	}
	return runs, dir, nil
}
