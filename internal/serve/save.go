package serve

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/shrink"
)

// SavedFile is the name "Save as scenario" gives the scenario it writes in
// the run's report directory.
const SavedFile = "replay.yaml"

// save writes the finished run as a scenario that replays it: the run's
// scenario at its seed and time scale, with its whole fault plan written
// out as explicit faults (shrink.Explicit: the planned steps with the
// targets they resolved to, and every fault fired by hand as a fault at
// the time it fired, held as long as it was), expecting the verdict and
// the violation kinds the run showed. It returns the file's path and
// content.
func (r *liveRun) save() (string, []byte, error) {
	r.mu.Lock()
	dir, res := r.dir, r.results
	r.mu.Unlock()
	if res == nil || dir == "" {
		return "", nil, fmt.Errorf("%w: the run has no report yet", errConflict)
	}
	h, err := history.ReadFile(filepath.Join(dir, "history.jsonl"))
	if err != nil {
		return "", nil, err
	}
	if h.Cut {
		return "", nil, fmt.Errorf("%w: the run's history is cut off (it was stopped): nothing to replay", errConflict)
	}
	sc := r.sc
	seed := h.Header.Seed
	sc.Seed = &seed
	ex, err := shrink.Explicit(sc, h.Header.Plan)
	if err != nil {
		return "", nil, err
	}
	manual := 0
	for _, st := range h.Header.Plan {
		if st.Trigger.Kind == history.TriggerManual {
			manual++
		}
	}
	ex.Name = sc.Name + "-manual"
	ex.Expect = scenario.Expectation{Verdict: string(res.Verdict), Kinds: violationKinds(*res)}
	body, err := scenario.Normalize(ex)
	if err != nil {
		return "", nil, err
	}
	// The file must read back as the scenario it says it is.
	if _, err := scenario.Parse(SavedFile, body); err != nil {
		return "", nil, fmt.Errorf("the saved scenario does not parse: %w", err)
	}
	head := fmt.Sprintf("# %s: %s, run live by locksim serve (seed %d, time scale %s), with its\n"+
		"# %d fault(s) fired by hand written as faults at the times they fired.\n"+
		"# Replay it: locksim run %s\n", ex.Name, sc.File, seed, fmtScale(sc.TimeScale), manual, filepath.Join(dir, SavedFile))
	body = append([]byte(head), body...)
	path := filepath.Join(dir, SavedFile)
	if err := os.WriteFile(path, body, 0o644); err != nil {
		return "", nil, err
	}
	r.mu.Lock()
	r.saved = path
	r.touch()
	r.mu.Unlock()
	return path, body, nil
}

// violationKinds are the kinds of the run's violations (not the
// informational findings), as an expectation lists them.
func violationKinds(res report.Results) []string {
	kinds := []string{}
	for _, a := range res.Anomalies {
		if !a.Informational && !slices.Contains(kinds, a.Kind) {
			kinds = append(kinds, a.Kind)
		}
	}
	slices.Sort(kinds)
	return kinds
}
