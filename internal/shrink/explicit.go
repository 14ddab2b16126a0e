package shrink

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/why"
)

// Source is a failing run to shrink, its schedule made explicit.
type Source struct {
	// Scenario has the run's resolved plan as explicit faults and no
	// nemesis (Explicit).
	Scenario scenario.Scenario
	// Seed is the run's seed, the first of the K seeds.
	Seed int64
	// Steps is the run's resolved plan, as its history header holds it.
	Steps []history.FaultStep
	// From says what it was shrunk from, for the minimal scenario's
	// comment: "reports/x/…-seed7" or "scenarios/x.yaml --seed 7".
	From string
	// File is the scenario file the run came from ("" when unknown).
	File string
}

// Explicit is sc with a resolved plan written as its faults (every step,
// the random nemesis's drawn ones included, with concrete targets) and no
// nemesis, read back by the strict parser: the schedule a shrink changes.
// A drawn step stays optional, as it was in the run (a step the run ended
// before does not make it unknown); shrinking tries to make it required.
func Explicit(sc scenario.Scenario, steps []history.FaultStep) (scenario.Scenario, error) {
	return why.WithFaults(sc, steps, sc.TimeScale)
}

// FromScenario resolves sc's plan for seed (selectors, random points and
// the random nemesis drawn exactly as a run with that seed draws them)
// and makes it explicit.
func FromScenario(sc scenario.Scenario, seed int64) (Source, error) {
	steps, err := why.Plan(sc, seed)
	if err != nil {
		return Source{}, err
	}
	ex, err := Explicit(sc, steps)
	if err != nil {
		return Source{}, err
	}
	return Source{Scenario: ex, Seed: seed, Steps: steps, From: fmt.Sprintf("%s --seed %d", sc.File, seed), File: sc.File}, nil
}

// ErrNotInvalid says a stored run is not invalid: there is nothing to
// shrink.
var ErrNotInvalid = errors.New("the run is not invalid")

// FromReport reads a stored run (its report directory: scenario.yaml,
// history.jsonl, results.json) and makes its plan — the one in its
// history header, as it was resolved for that run — explicit. A run that
// was not invalid gives ErrNotInvalid.
func FromReport(dir string) (Source, error) {
	var res report.Results
	if b, err := os.ReadFile(filepath.Join(dir, "results.json")); err == nil {
		if err := json.Unmarshal(b, &res); err != nil {
			return Source{}, fmt.Errorf("report %s: results.json: %w", dir, err)
		}
		if res.Verdict != checker.Invalid {
			return Source{}, fmt.Errorf("report %s is %s: %w", dir, res.Verdict, ErrNotInvalid)
		}
	}
	h, err := history.ReadFile(filepath.Join(dir, "history.jsonl"))
	if err != nil {
		return Source{}, err
	}
	data, err := os.ReadFile(filepath.Join(dir, "scenario.yaml"))
	if err != nil {
		return Source{}, fmt.Errorf("report %s: %w", dir, err)
	}
	sc, err := scenario.Parse(filepath.Join(dir, "scenario.yaml"), data)
	if err != nil {
		return Source{}, err
	}
	if h.Header.TimeScale > 0 {
		sc.TimeScale = h.Header.TimeScale
	}
	sc.File = filepath.Join(dir, "scenario.yaml")
	ex, err := Explicit(sc, h.Header.Plan)
	if err != nil {
		return Source{}, err
	}
	return Source{Scenario: ex, Seed: h.Header.Seed, Steps: h.Header.Plan, From: dir, File: res.File}, nil
}
