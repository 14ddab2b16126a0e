package explore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/shrink"
	"github.com/locksim/locksim/internal/suite"
)

// maxFlaky is how many violations of one class that are not invalid in
// every seed are shrunk before the class stops looking for one that is.
const maxFlaky = 2

// maxBusy is how many times a violation whose shrink could not judge it
// (its runs unknown, none valid: a busy machine) is shrunk again.
const maxBusy = 2

// maxDuplicates is how many schedules in a row a class may draw that it
// has already run before its space is taken as exhausted.
const maxDuplicates = 50

// search explores the classes, each in its own goroutine, until each
// has found its violation or the budget is spent, and returns their rows
// and the classes whose every schedule the parser refused.
func (x *explorer) search(ctx context.Context, e *env, cs []*class) ([]report.ProfileRow, []report.ProfileSkip) {
	sctx := ctx
	if x.o.Budget > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithDeadline(ctx, x.began.Add(x.o.Budget))
		defer cancel()
	}
	per := max(1, x.o.Parallel/max(len(cs), 1))
	rows := make([]report.ProfileRow, len(cs))
	skips := make([]*report.ProfileSkip, len(cs))
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Go(func() {
			s := &classSearch{x: x, e: e, c: c, guided: c.guided(e), seen: map[string]bool{}, kept: map[string]int{}}
			rows[i], skips[i] = s.explore(ctx, sctx, per)
		})
	}
	wg.Wait()
	var outRows []report.ProfileRow
	var outSkips []report.ProfileSkip
	for i := range cs {
		if skips[i] != nil {
			outSkips = append(outSkips, *skips[i])
			continue
		}
		outRows = append(outRows, rows[i])
	}
	return outRows, outSkips
}

// classSearch is the exploration of one class.
type classSearch struct {
	x      *explorer
	e      *env
	c      *class
	guided []candidate

	mu         sync.Mutex
	next       int
	stop       bool
	hit        *hit
	row        report.ProfileRow
	tried      tried
	kept       map[string]int // requirement → valid runs that kept it
	seen       map[string]bool
	duplicates int
	refused    string // the parser's last refusal
}

// hit is an invalid run of a candidate; attempt counts its shrinks.
type hit struct {
	i       int
	sc      scenario.Scenario
	out     suite.Outcome
	attempt int
}

// candidate is the class's i-th schedule (its guided ones first, then
// drawn) and the seed to run it with, both from the seed and i alone.
func (s *classSearch) candidate(i int) (candidate, int64) {
	r := classSeed(s.x.o.Seed, s.c.Name+"#"+strconv.Itoa(i))
	var c candidate
	if i < len(s.guided) {
		c = s.guided[i]
	} else {
		c = s.c.random(s.e, r)
	}
	if c.Set == nil {
		c.Set = s.c.Set
	}
	return c, r.Int64N(1 << 40)
}

// explore runs the class's search (ctx bounds its shrinks, sctx its
// search) and returns its row, or why it was not explored.
func (s *classSearch) explore(ctx, sctx context.Context, per int) (report.ProfileRow, *report.ProfileSkip) {
	s.row = report.ProfileRow{Class: s.c.Name, Kind: s.c.Kind, Status: report.StatusUntried}
	flaky, busy := 0, 0
	for {
		s.runWorkers(ctx, sctx, per)
		h := s.hit
		if h == nil || ctx.Err() != nil {
			break
		}
		broken, inconclusive := s.shrinkHit(ctx, h)
		if broken {
			break
		}
		if inconclusive && busy < maxBusy {
			busy++
			h.attempt++
			s.x.say(s.c.Name, "%s: the machine was too busy to judge the violation in every seed (runs unknown, none valid); shrinking it again", s.c.Name)
			continue
		}
		if flaky++; flaky >= maxFlaky {
			break
		}
		s.x.say(s.c.Name, "%s: the violation is not invalid in every one of %d seeds; searching on", s.c.Name, s.x.o.k())
		s.mu.Lock()
		s.hit, s.stop = nil, false
		s.mu.Unlock()
	}
	if s.row.Schedules == 0 && s.refused != "" {
		return s.row, &report.ProfileSkip{Class: s.c.Name, Kind: s.c.Kind, Reason: naParser, Arg: s.refused}
	}
	s.finish()
	return s.row, nil
}

// runWorkers runs the class's candidates, per at a time, until one is
// invalid, the budget is spent or the class has nothing new to try.
func (s *classSearch) runWorkers(ctx, sctx context.Context, per int) {
	var wg sync.WaitGroup
	for range per {
		wg.Go(func() {
			for s.step(ctx, sctx) {
			}
		})
	}
	wg.Wait()
}

// step runs the next candidate (ctx bounds its run, sctx whether it
// starts); false when the class stops.
func (s *classSearch) step(ctx, sctx context.Context) bool {
	x := s.x
	if sctx.Err() != nil || (x.o.BudgetRuns > 0 && int(x.searchRuns.Load()) >= x.o.BudgetRuns) {
		return false
	}
	s.mu.Lock()
	if s.stop {
		s.mu.Unlock()
		return false
	}
	i := s.next
	s.next++
	s.mu.Unlock()
	c, seed := s.candidate(i)
	name := s.e.base.Name + "-" + s.c.Name
	sc, yml, err := scenarioOf(s.e.base, c, name)
	s.mu.Lock()
	switch {
	case err != nil:
		s.refused = firstLine(err.Error())
		s.duplicates++
	case s.seen[string(yml)]:
		s.duplicates++
	default:
		s.seen[string(yml)], s.duplicates = true, 0
	}
	exhausted := s.duplicates >= maxDuplicates
	skip := err != nil || s.duplicates > 0
	s.mu.Unlock()
	if exhausted {
		return false
	}
	if skip {
		return true
	}
	x.searchRuns.Add(1)
	dir := filepath.Join(x.o.Dir, ClassesDir, s.c.Name, fmt.Sprintf("c%03d", i))
	// The budget decides whether a run starts, not whether it finishes: a
	// run cut off would prove nothing and cost as much.
	out, err := x.runOne(ctx, sc, seed, dir)
	if err != nil {
		x.say(s.c.Name, "%s #%d: %v", s.c.Name, i, err)
		return false
	}
	if out.Aborted {
		return false // cut off by the budget: it proves nothing
	}
	sc.File = filepath.Join(dir, "scenario.yaml")
	s.record(i, c, sc, out)
	return true
}

// record counts a finished run of candidate i.
func (s *classSearch) record(i int, c candidate, sc scenario.Scenario, out suite.Outcome) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.row.Schedules++
	if c.Guided {
		s.row.Guided++
	}
	s.tried.add(c)
	verdict := checker.Verdict("")
	if out.Results != nil {
		verdict = out.Results.Verdict
	}
	switch verdict {
	case checker.Valid:
		s.row.Valid++
		for _, req := range report.Requirements() {
			// Spared: the course's safety broken, but no harm done (the
			// resource refused the stale write): a valid run kept it by
			// locksim's rule, as it counted before issue 34 split it out.
			if sh := report.Shows(*out.Results, req); sh == report.Kept || sh == report.Spared {
				s.kept[req]++
			}
		}
	case checker.Invalid:
		s.row.Invalid++
		if s.hit == nil || i < s.hit.i {
			s.hit = &hit{i: i, sc: sc, out: out}
		}
		if s.row.FirstViolationSeconds == 0 {
			s.row.FirstViolationSeconds = s.x.elapsed().Seconds()
		}
		s.stop = true
		s.x.say(s.c.Name, "%s #%d (%s): INVALID (%s) after %.1fs — %s", s.c.Name, i, guidedWord(c.Guided),
			strings.Join(report.ViolationKinds(out.Results.Anomalies), ", "), s.x.elapsed().Seconds(), out.Reproduce)
		return
	case checker.Unknown:
		s.row.Unknown++
	default:
		s.row.NoVerdict++
	}
	if s.x.o.Verbose {
		v := string(verdict)
		if v == "" {
			v = "no verdict: " + out.Err
		}
		s.x.say(s.c.Name, "%s #%d (%s): %s", s.c.Name, i, guidedWord(c.Guided), v)
	}
}

func guidedWord(g bool) string {
	if g {
		return "guided"
	}
	return "random"
}

// shrinkHit shrinks the class's violation and, when its smallest form is
// invalid in every seed, writes the regression file; it reports whether
// it did (the class is then broken), and else whether the schedule was
// not judged at all: no run of it valid, the others unknown (a machine
// too busy to keep compressed time), not a violation that comes and goes.
func (s *classSearch) shrinkHit(ctx context.Context, h *hit) (broken, inconclusive bool) {
	x := s.x
	r := h.out.Results
	s.row.Found = ptr(x.profileRun(r, h.sc, ""))
	src := shrink.Source{Scenario: h.sc, Seed: h.out.Seed, Steps: r.Plan, File: h.sc.File,
		From: fmt.Sprintf("%s --seed %d", h.sc.File, h.out.Seed)}
	dir := filepath.Join(x.o.Dir, ShrinksDir, s.c.Name, fmt.Sprintf("c%03d", h.i))
	if h.attempt > 0 {
		dir += fmt.Sprintf("-%d", h.attempt+1)
	}
	o := shrink.Options{K: x.o.k(), Seed: h.out.Seed, Budget: x.o.shrinkBudget(), Kinds: s.row.Found.Kinds,
		Eval: guardedEval{x: x, inner: &shrink.PoolEval{Pool: x.o.Pool, Dir: filepath.Join(dir, "runs")}},
		Progress: func(st shrink.Step) {
			x.runs.Add(int64(len(st.Runs)))
			if x.o.Verbose {
				x.say(s.c.Name, "%s shrink #%d: %s (failing %v)", s.c.Name, st.N, st.Change, st.Failing)
			}
		}}
	res, err := shrink.Shrink(ctx, h.sc, o)
	notFailing := errors.Is(err, shrink.ErrNotFailing)
	if err != nil && !notFailing && ctx.Err() == nil {
		x.say(s.c.Name, "%s: shrink: %v", s.c.Name, err)
	}
	if len(res.Seeds) == 0 {
		s.row.Status = report.StatusFlaky
		return false, false
	}
	var redraw func(string, scenario.Scenario) error
	if x.o.Redraw != nil {
		redraw = x.o.Redraw
	}
	sum, err := shrink.Write(dir, src, res, x.o.Version, redraw)
	if err != nil {
		x.say(s.c.Name, "%s: %v", s.c.Name, err)
		s.row.Status = report.StatusFlaky
		return false, false
	}
	s.row.ShrinkPage = x.rel(sum.Page)
	if notFailing || !sum.Failing {
		s.row.Status = report.StatusFlaky
		return false, undecided(res.Original.Runs)
	}
	chosen, confirmed := s.confirm(ctx, dir, res, s.row.Found.Kinds)
	steps, err := planSteps(chosen.sc)
	if err != nil {
		x.say(s.c.Name, "%s: %v", s.c.Name, err)
		s.row.Status = report.StatusFlaky
		return false, false
	}
	res.Minimal = shrink.Candidate{Scenario: chosen.sc, Runs: chosen.runs}
	file, err := x.writeRegression(s.c, src, res, steps, confirmed)
	if err != nil {
		x.say(s.c.Name, "%s: %v", s.c.Name, err)
		s.row.Status = report.StatusFlaky
		return false, false
	}
	s.row.Status, s.row.ShrinkExhausted = report.StatusBroken, sum.Exhausted
	m := &report.ProfileRun{Verdict: string(checker.Invalid), Kinds: res.Minimal.Kinds(), Seed: res.Seeds[0], Steps: steps,
		Faults: len(chosen.sc.Faults), File: x.rel(file), Reproduce: "locksim run " + file,
		Confirmed: confirmed, ConfirmSeeds: x.o.k()}
	if rd := firstReport(chosen.runs); rd != "" {
		if x.o.Redraw != nil && rd != sum.MinimalReport {
			_ = x.o.Redraw(rd, chosen.sc)
		}
		m.Report = x.rel(filepath.Join(rd, report.IndexFile))
		if _, err := os.Stat(filepath.Join(rd, "timeline.png")); err == nil {
			m.Timeline = x.rel(filepath.Join(rd, "timeline.png"))
		}
		if mr, err := readResults(rd); err == nil {
			r = &mr
		}
	}
	s.row.Minimal = m
	for _, req := range report.Requirements() {
		if report.Shows(*r, req) == report.Broken {
			s.row.Requirements = append(s.row.Requirements, report.ProfileRequirement{Req: req, Showing: "broken", Runs: 1})
		}
	}
	x.say(s.c.Name, "%s: %d fault(s) → %d, invalid in %d/%d seeds (%s), then in %d/%d fresh ones; shrunk in %.1fs; regression=%s",
		s.c.Name, sum.OriginalFaults, len(chosen.sc.Faults), len(res.Seeds), len(res.Seeds), strings.Join(m.Kinds, ", "),
		confirmed, x.o.k(), res.Elapsed.Seconds(), file)
	return true, false
}

// undecided reports whether none of runs was valid and some were not
// invalid: what they show is the machine's load, not the schedule.
func undecided(runs []shrink.Run) bool {
	some := false
	for _, r := range runs {
		switch r.Verdict {
		case checker.Valid:
			return false
		case checker.Invalid:
		default:
			some = true
		}
	}
	return some
}

// maxConfirm is how many of the shrink's kept schedules, smallest first,
// are run again on fresh seeds before the best of them is taken.
const maxConfirm = 3

// keptSchedule is a schedule the shrink kept and its runs.
type keptSchedule struct {
	sc   scenario.Scenario
	runs []shrink.Run
}

// keptSchedules are the schedules the shrink kept, the smallest (the
// last kept) first.
func keptSchedules(res shrink.Result) []keptSchedule {
	var out []keptSchedule
	for i := len(res.Steps) - 1; i >= 0; i-- {
		st := res.Steps[i]
		if !st.Failing || st.Dir == "" {
			continue
		}
		sc, err := scenario.Load(filepath.Join(st.Dir, shrink.CandidateFile))
		if err != nil {
			continue
		}
		out = append(out, keptSchedule{sc: sc, runs: st.Runs})
	}
	return out
}

// confirm runs the shrink's kept schedules again, smallest first, on k
// seeds none of its runs used, and takes the first one invalid with the
// same kinds in all of them: a shrink pushes durations to where the
// failure just still happens, and a regression file at that edge would
// fail now and then in CI. At most maxConfirm are tried; without a full
// confirmation the one confirmed in the most seeds is taken. It returns
// the schedule and in how many fresh seeds it was confirmed.
func (s *classSearch) confirm(ctx context.Context, dir string, res shrink.Result, kinds []string) (keptSchedule, int) {
	ks := keptSchedules(res)
	if len(ks) == 0 {
		return keptSchedule{sc: res.Minimal.Scenario, runs: res.Minimal.Runs}, 0
	}
	k := s.x.o.k()
	last := res.Seeds[len(res.Seeds)-1]
	var fresh []int64
	for i := range k {
		fresh = append(fresh, last+1+int64(i))
	}
	want := slices.Sorted(slices.Values(kinds))
	eval := guardedEval{x: s.x, inner: &shrink.PoolEval{Pool: s.x.o.Pool, Dir: filepath.Join(dir, "confirm")}}
	best, bestN := ks[0], -1
	for _, c := range ks[:min(len(ks), maxConfirm)] {
		if ctx.Err() != nil {
			break
		}
		runs, _, err := eval.Eval(ctx, c.sc, fresh)
		s.x.runs.Add(int64(len(runs)))
		if err != nil {
			continue
		}
		n := 0
		for _, r := range runs {
			if r.Verdict == checker.Invalid && slices.Equal(slices.Sorted(slices.Values(r.Kinds)), want) {
				n++
			}
		}
		if n > bestN {
			best, bestN = c, n
		}
		if n == k {
			break
		}
		s.x.say(s.c.Name, "%s: a kept schedule was confirmed in %d/%d fresh seeds only: trying a larger one", s.c.Name, n, k)
	}
	return best, max(bestN, 0)
}

// planSteps are sc's (explicit) faults in words.
func planSteps(sc scenario.Scenario) ([]string, error) {
	var seed int64
	if sc.Seed != nil {
		seed = *sc.Seed
	}
	p, err := faults.NewPlan(sc.Faults, nil, seed, sc.FaultTopology())
	if err != nil {
		return nil, fmt.Errorf("plan of the smallest schedule: %w", err)
	}
	var out []string
	for _, st := range p.Steps {
		out = append(out, describe(st, sc.TimeScale))
	}
	return out, nil
}

// firstReport is the first run's report directory ("" for none).
func firstReport(runs []shrink.Run) string {
	for _, r := range runs {
		if r.ReportDir != "" {
			return r.ReportDir
		}
	}
	return ""
}

// writeRegression writes the smallest schedule (res.Minimal) as a plain
// scenario that expects what its runs showed, named after the base and
// the class, into regressions/.
func (x *explorer) writeRegression(c *class, src shrink.Source, res shrink.Result, steps []string, confirmed int) (string, error) {
	sc := shrink.Minimal(src, res)
	sc.Name = x.o.Base.Name + "-" + c.Name
	if len(sc.Name) > 64 {
		sc.Name = sc.Name[:64]
	}
	sc.Description = fmt.Sprintf("%s breaks %s (found by locksim explore, seed %d): %d fault(s), invalid in every one of %d seeds.",
		c.Name, lockWords(x.o.Base), x.o.Seed, len(sc.Faults), len(res.Seeds))
	sc.DescriptionVI = ""
	b, err := scenario.Normalize(sc)
	if err != nil {
		return "", err
	}
	var head strings.Builder
	fmt.Fprintf(&head, "# %s — a regression file written by `locksim explore` (locksim %s).\n", sc.Name, x.o.Version)
	fmt.Fprintf(&head, "# The fault class %s broke %s; this is the smallest schedule of it\n", c.Name, lockWords(x.o.Base))
	fmt.Fprintf(&head, "# found, invalid in all %d seeds (%d..%d)", len(res.Seeds), res.Seeds[0], res.Seeds[len(res.Seeds)-1])
	if ks := res.Minimal.Kinds(); len(ks) > 0 {
		fmt.Fprintf(&head, " with %s", strings.Join(ks, ", "))
	}
	fmt.Fprintf(&head, ", and again in %d of %d fresh seeds.\n", confirmed, x.o.k())
	for i, st := range steps {
		fmt.Fprintf(&head, "#   %d. %s\n", i+1, st)
	}
	if x.o.Reproduce != "" {
		fmt.Fprintf(&head, "# Explored with: %s\n", x.o.Reproduce)
	}
	fmt.Fprintf(&head, "# Shrunk from: %s\n", src.From)
	if sc.Process != nil && filepath.IsAbs(sc.Process.Dir) {
		fmt.Fprintf(&head, "# process.dir is this machine's path: make it relative to this file's directory where you commit it.\n")
	}
	file := filepath.Join(x.o.Dir, RegressionsDir, sc.Name+".yaml")
	fmt.Fprintf(&head, "# Run it: locksim run %s\n", file)
	if err := os.WriteFile(file, append([]byte(head.String()), b...), 0o644); err != nil {
		return "", fmt.Errorf("write regression file: %w", err)
	}
	return file, nil
}

// lockWords names the explored lock in a regression file: "the lock
// safe", or a lock client process by its command.
func lockWords(base scenario.Scenario) string {
	if base.Process != nil && len(base.Process.Command) > 0 {
		return "the lock client process " + strings.Join(base.Process.Command, " ")
	}
	return "the lock " + base.Algorithm
}

// finish fills the row's status (when nothing broke the class), ranges and
// requirements.
func (s *classSearch) finish() {
	r := &s.row
	if r.Status == report.StatusUntried && r.Valid > 0 && r.Invalid == 0 {
		r.Status = report.StatusSurvived
	}
	if r.Status == report.StatusFlaky && r.Found != nil && len(r.Requirements) == 0 && s.hit != nil && s.hit.out.Results != nil {
		for _, req := range report.Requirements() {
			if report.Shows(*s.hit.out.Results, req) == report.Broken {
				r.Requirements = append(r.Requirements, report.ProfileRequirement{Req: req, Showing: "broken", Runs: 1})
			}
		}
	}
	if r.Status == report.StatusSurvived {
		for _, req := range report.Requirements() {
			if n := s.kept[req]; n > 0 {
				r.Requirements = append(r.Requirements, report.ProfileRequirement{Req: req, Showing: "kept", Runs: n})
			}
		}
	}
	t := s.tried
	for _, f := range t.order {
		rg := report.ProfileRange{Field: f}
		switch {
		case len(t.words[f]) > 0:
			rg.Values = slices.Clone(t.words[f])
		case hasKey(t.durs, f):
			rg.Min, rg.Max = t.durs[f][0].String(), t.durs[f][1].String()
		default:
			n := t.nums[f]
			rg.Min, rg.Max = strconv.FormatFloat(n[0], 'g', -1, 64), strconv.FormatFloat(n[1], 'g', -1, 64)
		}
		r.Ranges = append(r.Ranges, rg)
	}
}

// readResults reads a run's results.json.
func readResults(dir string) (report.Results, error) {
	var r report.Results
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		return r, err
	}
	return r, json.Unmarshal(b, &r)
}

func ptr[T any](v T) *T { return &v }

func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// describe is a fault step in words (English).
func describe(s history.FaultStep, scale float64) string { return faults.Describe(s, scale) }
