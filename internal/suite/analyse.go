package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/why"
)

// AnalyseOptions is what Analyse knows of a history beyond its content.
type AnalyseOptions struct {
	// Reproduce is the command that repeats the run.
	Reproduce string
	// Aborted: the run was interrupted before its end.
	Aborted bool
	// Cut: the history ends early (its file was cut off while the run
	// streamed it; history.History.Cut once the decoder reports it).
	Cut bool
	// Lang of the report.
	Lang report.Lang
	// Version of locksim, written in the report.
	Version string
	// FixedBy, when set, is the file of the scenario that fixes this one,
	// overriding the scenario's own fixed_by (a stored report knows it
	// from its results.json; its scenario.yaml leaves fixed_by out).
	FixedBy string
}

// Analyse checks a history and assembles its report's input: the checkers'
// verdict and anomalies, the scenario normalised, the expectation with its
// kinds, and the scenario named by fixed_by. `locksim run` (every run of a
// suite) and `locksim check` share it.
//
// A partial history — an aborted run, or a cut-off file — is invalid when
// a violation was found (a violation stands) and unknown otherwise: a
// clean part of a run proves nothing.
func Analyse(ctx context.Context, sc scenario.Scenario, h history.History, o AnalyseOptions) (report.Input, error) {
	// A history checked on its own (no scenario.yaml beside it) has only
	// the header's name and scale: write no scenario.yaml from that.
	var norm []byte
	if sc.Clients > 0 {
		var err error
		if norm, err = scenario.Normalize(sc); err != nil {
			return report.Input{}, fmt.Errorf("normalise scenario: %w", err)
		}
	}
	rep := checker.Check(ctx, h, checker.Options{})
	var pv *report.PorcupineView
	if l := rep.Linearization; l != nil {
		pv = &report.PorcupineView{Model: l.Model, Info: l.Info, Order: l.Order}
	}
	verdict := rep.Verdict
	if (o.Aborted || o.Cut) && verdict != checker.Invalid {
		verdict = checker.Unknown
	}
	fixed := o.FixedBy
	if fixed == "" {
		fixed = sc.FixedByFile()
	}
	var fb *report.Fixed
	if fixed != "" {
		fb = &report.Fixed{Name: fixedName(fixed), File: fixed}
		fb.Faults, fb.Side = fixedFaults(sc, fixed)
		fb.Changes = fixedChanges(sc, fixed)
	}
	var library string
	if sc.Process != nil {
		library = adapterName(sc.Process.Command)
	}
	return report.Input{
		History: h, Account: rep.Account, Verdict: verdict, Results: rep.Results, ScenarioYAML: norm,
		ScenarioFile: sc.File, Description: sc.Description, DescriptionVI: sc.DescriptionVI, Lessons: sc.Lessons, Library: library, Expect: sc.Expect.Verdict, ExpectKinds: sc.Expect.Kinds,
		FixedBy: fb, Reproduce: o.Reproduce, Version: o.Version, Porcupine: pv, Lang: o.Lang,
		Aborted: o.Aborted, Cut: o.Cut,
	}, nil
}

// Redraw rewrites the stored report in dir from its history.jsonl with
// every chart, keeping what its results.json says of the run (the
// reproduce command, its wall time, an interruption): what `locksim check`
// does, for the few runs of a shrink or a map that their pages link. sc is
// the run's scenario.
func Redraw(ctx context.Context, dir string, sc scenario.Scenario, lang report.Lang, version string) (report.Results, error) {
	h, err := history.ReadFile(filepath.Join(dir, "history.jsonl"))
	if err != nil {
		return report.Results{}, fmt.Errorf("redraw %s: %w", dir, err)
	}
	var old report.Results
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err == nil {
		err = json.Unmarshal(b, &old)
	}
	if err != nil {
		return report.Results{}, fmt.Errorf("redraw %s: results.json: %w", dir, err)
	}
	in, err := Analyse(ctx, sc, h, AnalyseOptions{Reproduce: old.Reproduce, Aborted: old.Aborted, Cut: h.Cut,
		Lang: lang, Version: version, FixedBy: old.FixedBy})
	if err != nil {
		return report.Results{}, fmt.Errorf("redraw %s: %w", dir, err)
	}
	in.WallSeconds, in.Counterfactuals = old.WallSeconds, old.Counterfactuals
	r, err := report.Write(dir, in)
	if err != nil {
		return r, fmt.Errorf("redraw %s: %w", dir, err)
	}
	return r, nil
}

// fixedFaults tells whether the fixed scenario in file declares sc's
// faults (report.FaultsSame) or its own (report.FaultsOwn), and what it
// is when it is no fix (report.FixSideWithout: the run without some of its
// faults; report.FixSide: a harness control, the clock assumption holding,
// a crashed node kept down); "" when either is not at
// hand (a history checked without its scenario, a fix file not found).
func fixedFaults(sc scenario.Scenario, file string) (faults, side string) {
	if sc.Clients == 0 {
		return "", ""
	}
	fix, err := scenario.Load(file)
	if err != nil {
		return "", ""
	}
	faults = report.FaultsOwn
	if why.SameFaults(sc, fix) {
		faults = report.FaultsSame
	}
	if why.FewerFaults(sc, fix) {
		// The run without some of its faults: a control, whatever the
		// faults left out (reader9: redlock-no-clock-jump).
		return faults, report.FixSideWithout
	}
	return faults, report.FixSide(fix.Algorithm, fields(sc), fields(fix))
}

// fixedChanges are the fields the fixed scenario in file changes against
// sc's (report.FixChanges); nil when either is not at hand.
func fixedChanges(sc scenario.Scenario, file string) []report.FixChange {
	if sc.Clients == 0 {
		return nil
	}
	fix, err := scenario.Load(file)
	if err != nil {
		return nil
	}
	return report.FixChanges(fields(sc), fields(fix))
}

// FixedChanges is fixedChanges for `locksim check` (as FixedFaults).
func FixedChanges(sc scenario.Scenario, file string) []report.FixChange {
	return fixedChanges(sc, file)
}

// FixedFaults is fixedFaults for `locksim check`, which may run where the
// scenario's fixed_by path does not lead: file is then the fix as its
// experiment ran it (the report's why/ copy).
func FixedFaults(sc scenario.Scenario, file string) (faults, side string) {
	return fixedFaults(sc, file)
}

// fields is sc as path → value (scenario.Flatten of it normalised), nil
// when it cannot be normalised.
func fields(sc scenario.Scenario) map[string]string {
	b, err := scenario.Normalize(sc)
	if err != nil {
		return nil
	}
	m, err := scenario.Flatten(b)
	if err != nil {
		return nil
	}
	return m
}

// adapterName names a lock client process by its command: the file name of
// its program (the last argument that is a path) and the arguments after
// it ("semaphore.js 4.1.0", "redis_py_lock.py"); the last argument's base
// when none is a path. A version alone ("process: 4.1.0") hid which library
// a requirements row was (a second teacher).
func adapterName(cmd []string) string {
	for i := len(cmd) - 1; i >= 0; i-- {
		if strings.ContainsRune(cmd[i], '/') {
			return strings.Join(append([]string{filepath.Base(cmd[i])}, cmd[i+1:]...), " ")
		}
	}
	if len(cmd) == 0 {
		return ""
	}
	return filepath.Base(cmd[len(cmd)-1])
}
