// Package shrink finds, from a failing run, a smaller fault schedule that
// still fails (`locksim shrink`): it drops faults, shortens durations,
// removes targets, moves times to round values and lowers the clients and
// keys, keeping a change only when the changed scenario is still invalid
// in every one of K seeds. Every candidate is a real run of each seed;
// a run that is unknown (or has no verdict) counts as not failing.
//
// Candidates are edits of the scenario's YAML node tree (scenario.Doc) read
// back by the strict parser, so a candidate the parser refuses (a fault on
// a client that is no more) is skipped without a run. The search is
// greedy, pass after pass, until a whole round changes nothing or the
// budget (wall time or runs) is spent; the best schedule found so far is
// the result either way.
package shrink

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/scenario"
)

// Run is one run of a candidate with one seed.
type Run struct {
	Seed    int64
	Verdict checker.Verdict // "" when the run has no verdict
	// Kinds are the run's violation kinds (informational findings left
	// out).
	Kinds []string
	// ReportDir is the run's report ("" without one); Err why it has no
	// verdict.
	ReportDir string
	Err       string
}

// Evaluator runs a candidate once per seed and says how each run ended,
// and in which directory the candidate's runs are ("" for none). The
// search calls it one candidate at a time.
type Evaluator interface {
	Eval(ctx context.Context, sc scenario.Scenario, seeds []int64) (runs []Run, dir string, err error)
}

// Options configure a search.
type Options struct {
	// K is the number of seeds (Seed, Seed+1, …) a candidate must be
	// invalid in, all of them. Default 5.
	K int
	// Seed is the first seed.
	Seed int64
	// Budget bounds the search's wall time (0: none); BudgetRuns its runs
	// (0: none). A candidate still running when the time is up is cut
	// off and does not count.
	Budget     time.Duration
	BudgetRuns int
	// Kinds, when set, makes a candidate fail only when every run is
	// invalid with exactly these violation kinds: the same failure, not
	// just some failure (`locksim explore` keeps the class's own).
	Kinds []string
	// Progress, when set, is told of every candidate as it is judged.
	Progress func(Step)
	// Eval runs candidates.
	Eval Evaluator
}

func (o Options) k() int {
	if o.K <= 0 {
		return 5
	}
	return o.K
}

// Step is one candidate the search tried.
type Step struct {
	// N numbers the candidates from 0 (the original schedule).
	N int
	// Change says what the candidate changes in the best schedule so far,
	// e.g. "drop faults[2..4]" or "faults[0].duration 3.5s → 2s".
	Change string
	// Faults is the candidate's number of faults.
	Faults int
	// Skipped is the parser's objection to a candidate that was not run.
	Skipped string
	// Runs are its runs (none when skipped); Failing is whether every
	// one of them was invalid — the candidate was then kept.
	Runs    []Run
	Failing bool
	// Dir is the directory of the candidate's runs and its YAML.
	Dir string
	// TotalRuns and Elapsed (wall time) are the search's so far, after
	// this step.
	TotalRuns int
	Elapsed   time.Duration
}

// Candidate is a schedule with the runs that judged it.
type Candidate struct {
	Scenario scenario.Scenario
	// YAML is the scenario as the parser read it (normalised).
	YAML []byte
	Runs []Run
	Dir  string
}

// Failing reports whether every run of c was invalid.
func (c Candidate) Failing() bool { return failing(c.Runs, nil) }

// Kinds are the violation kinds every run of c showed (sorted), nil when
// the runs disagree.
func (c Candidate) Kinds() []string {
	var ks []string
	for i, r := range c.Runs {
		k := slices.Clone(r.Kinds)
		slices.Sort(k)
		if i > 0 && !slices.Equal(k, ks) {
			return nil
		}
		ks = k
	}
	return ks
}

// Result is a finished search.
type Result struct {
	// Original is the schedule shrinking started from, with its runs;
	// Minimal the smallest failing one found (Original when nothing
	// smaller fails, or when the original does not fail).
	Original, Minimal Candidate
	Steps             []Step
	// Runs is every run of every candidate; Elapsed the search's wall time.
	Runs    int
	Elapsed time.Duration
	// Exhausted: the budget ran out before a round changed nothing.
	Exhausted bool
	Seeds     []int64
}

// ErrNotFailing says the original schedule is not invalid in every seed
// (with Options.Kinds: not with those kinds): there is no failure to
// shrink.
var ErrNotFailing = errors.New("the original schedule is not invalid in every seed")

// failing reports whether every run was invalid, with exactly the kinds
// when kinds is set.
func failing(runs []Run, kinds []string) bool {
	if len(runs) == 0 {
		return false
	}
	want := slices.Sorted(slices.Values(kinds))
	for _, r := range runs {
		if r.Verdict != checker.Invalid {
			return false
		}
		if kinds != nil && !slices.Equal(slices.Sorted(slices.Values(r.Kinds)), want) {
			return false
		}
	}
	return true
}

// Shrink searches for the smallest schedule of sc (its faults explicit,
// no nemesis: see Explicit) still invalid in every one of K seeds. It
// returns ErrNotFailing (with the original's runs in the Result) when sc
// itself is not.
func Shrink(ctx context.Context, sc scenario.Scenario, o Options) (Result, error) {
	if o.Eval == nil {
		return Result{}, errors.New("shrink: no evaluator")
	}
	if sc.Nemesis != nil {
		return Result{}, errors.New("shrink: the schedule still has a random nemesis; make its steps explicit first (Explicit)")
	}
	doc, err := scenario.DocOf(sc)
	if err != nil {
		return Result{}, fmt.Errorf("shrink: %w", err)
	}
	s := &search{o: o, began: time.Now(), tried: map[string]bool{}}
	for i := range o.k() {
		s.seeds = append(s.seeds, o.Seed+int64(i))
	}
	s.ctx = ctx
	if o.Budget > 0 {
		var cancel context.CancelFunc
		s.ctx, cancel = context.WithDeadline(ctx, s.began.Add(o.Budget))
		defer cancel()
	}
	res := Result{Seeds: s.seeds}
	orig, ok := s.judge("the original schedule", doc)
	res.Original, res.Minimal = orig.Candidate, orig.Candidate
	if !ok || !failing(orig.Runs, o.Kinds) {
		res.Steps, res.Runs, res.Elapsed = s.steps, s.runs, time.Since(s.began)
		if ctx.Err() != nil {
			return res, fmt.Errorf("shrink: %w", ctx.Err())
		}
		return res, ErrNotFailing
	}
	s.best = orig
	for round := 0; round < maxRounds && !s.stopped; round++ {
		changed := false
		for _, pass := range passes {
			if s.stopped {
				break
			}
			if pass(s) {
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	res.Minimal = s.best.Candidate
	res.Steps, res.Runs, res.Elapsed, res.Exhausted = s.steps, s.runs, time.Since(s.began), s.stopped
	if ctx.Err() != nil {
		return res, fmt.Errorf("shrink: %w", ctx.Err())
	}
	return res, nil
}

// maxRounds bounds the rounds of passes (each round after the first is
// cheap unless something changed).
const maxRounds = 6

// search is one shrinking in progress.
type search struct {
	ctx     context.Context
	o       Options
	seeds   []int64
	began   time.Time
	best    cand
	tried   map[string]bool // candidates already judged, by their YAML
	steps   []Step
	runs    int
	stopped bool // the budget is spent
}

type cand struct {
	Candidate
	doc *scenario.Doc
}

// out of budget?
func (s *search) spent() bool {
	switch {
	case s.ctx.Err() != nil:
		return true
	case s.o.Budget > 0 && time.Since(s.began) >= s.o.Budget:
		return true
	case s.o.BudgetRuns > 0 && s.runs+len(s.seeds) > s.o.BudgetRuns:
		return true
	}
	return false
}

// try judges a change of the best schedule and keeps it when it fails.
func (s *search) try(change string, d *scenario.Doc) bool {
	c, ok := s.judge(change, d)
	if ok && failing(c.Runs, s.o.Kinds) {
		s.best = c
		return true
	}
	return false
}

// judge parses and runs a candidate; ok is false when it was not run
// (refused by the parser, already tried, out of budget).
func (s *search) judge(change string, d *scenario.Doc) (cand, bool) {
	if s.stopped {
		return cand{}, false
	}
	sc, err := d.Scenario()
	step := Step{N: len(s.steps), Change: change, Faults: len(sc.Faults)}
	if err != nil {
		step.Skipped = firstLine(err.Error())
		s.record(step)
		return cand{}, false
	}
	norm, err := scenario.Normalize(sc)
	if err != nil {
		step.Skipped = err.Error()
		s.record(step)
		return cand{}, false
	}
	if s.tried[string(norm)] {
		return cand{}, false
	}
	if s.spent() {
		s.stopped = true
		return cand{}, false
	}
	s.tried[string(norm)] = true
	runs, dir, err := s.o.Eval.Eval(s.ctx, sc, s.seeds)
	s.runs += len(runs)
	if err != nil {
		step.Skipped = "not run: " + err.Error()
	}
	if s.ctx.Err() != nil {
		// Cut off by the budget: its runs prove nothing.
		s.stopped = true
		step.Skipped = "cut off by the budget"
		runs = nil
	}
	if len(runs) != len(s.seeds) {
		runs = nil // some seed did not run: nothing is known
	}
	step.Runs, step.Failing = runs, failing(runs, s.o.Kinds)
	c := cand{Candidate: Candidate{Scenario: sc, YAML: norm, Runs: runs, Dir: dir}, doc: d}
	step.Dir = dir
	s.record(step)
	return c, err == nil && len(runs) > 0
}

func (s *search) record(st Step) {
	st.TotalRuns, st.Elapsed = s.runs, time.Since(s.began)
	s.steps = append(s.steps, st)
	if s.o.Progress != nil {
		s.o.Progress(st)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
