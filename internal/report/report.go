package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/anishathalye/porcupine"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// Input is everything one run's report needs.
type Input struct {
	History      history.History
	Verdict      checker.Verdict // merged verdict of the run
	Results      []checker.Result
	ScenarioYAML []byte  // normalised scenario, written as scenario.yaml
	ScenarioFile string  // path given by the user
	Description  string  // scenario's description (may be empty)
	Expect       string  // "", valid, invalid, unknown
	Reproduce    string  // copy-pasteable command, e.g. "locksim run scenarios/gc-pause.yaml --seed 42"
	Version      string  // locksim version
	WallSeconds  float64 // wall time of the run, seconds
	// Porcupine is optional; nil means no history.html (the page says so).
	// Its operations' Call/Return times must be the history's true-time ns,
	// so fault windows can be added as annotations on the same axis.
	Porcupine *PorcupineView
	// Lang selects the message table ("en"; unknown languages fall back to
	// English).
	Lang string
}

// PorcupineView is the linearizability result history.html visualises.
type PorcupineView struct {
	Model porcupine.Model
	Info  porcupine.LinearizationInfo
}

// Results is results.json (and the --json line on stdout).
type Results struct {
	Scenario     string          `json:"scenario"`
	File         string          `json:"file"`
	Seed         int64           `json:"seed"`
	Backend      string          `json:"backend"` // local | embedded | external
	RedisVersion string          `json:"redis_version"`
	TimeScale    float64         `json:"time_scale"` // scenario s per wall s
	Verdict      checker.Verdict `json:"verdict"`
	Expect       string          `json:"expect"`
	// ExpectationMet is null when the scenario declares no expectation.
	ExpectationMet *bool                      `json:"expectation_met"`
	Checkers       map[string]checker.Verdict `json:"checkers"`
	Anomalies      []checker.Anomaly          `json:"anomalies"`
	// ScenarioSeconds is the scenario time the history covers (last
	// instant, scenario s); WallSeconds the run's wall time (s).
	ScenarioSeconds float64 `json:"scenario_seconds"`
	WallSeconds     float64 `json:"wall_seconds"`
	ReportDir       string  `json:"report_dir"`
	Reproduce       string  `json:"reproduce"`
	// Emulated is true when the nodes were miniredis, not redis-server.
	Emulated bool `json:"emulated"`
}

// Emulated reports whether the history's backend is emulated Redis.
func emulated(h history.Header) bool { return h.Backend == "embedded" }

// BuildResults assembles results.json's content; dir is recorded as
// ReportDir.
func BuildResults(in Input, dir string) Results {
	h := in.History.Header
	m := newModel(in.History)
	r := Results{
		Scenario: h.Scenario, File: in.ScenarioFile, Seed: h.Seed, Backend: h.Backend,
		RedisVersion: h.RedisVersion, TimeScale: m.scale, Verdict: in.Verdict, Expect: in.Expect,
		Checkers: map[string]checker.Verdict{}, Anomalies: allAnomalies(in.Results),
		ScenarioSeconds: m.sec(m.end), WallSeconds: in.WallSeconds, ReportDir: dir,
		Reproduce: in.Reproduce, Emulated: emulated(h),
	}
	if r.Verdict == "" {
		var vs []checker.Verdict
		for _, c := range in.Results {
			vs = append(vs, c.Verdict)
		}
		r.Verdict = checker.Merge(vs...)
	}
	if r.Anomalies == nil {
		r.Anomalies = []checker.Anomaly{}
	}
	for _, c := range in.Results {
		if prev, ok := r.Checkers[c.Checker]; ok {
			r.Checkers[c.Checker] = checker.Merge(prev, c.Verdict)
		} else {
			r.Checkers[c.Checker] = c.Verdict
		}
	}
	if in.Expect != "" {
		met := checker.Verdict(in.Expect) == r.Verdict
		r.ExpectationMet = &met
	}
	return r
}

// Write writes the report into dir, which must exist: scenario.yaml (from
// in.ScenarioYAML, when given), results.json, index.html, timeline.png,
// latency.png and, when in.Porcupine is set and the history is small
// enough, history.html. It does not write history.jsonl. It writes every
// file it can and returns the first error met together with the Results.
func Write(dir string, in Input) (Results, error) {
	res := BuildResults(in, dir)
	var errs []error
	if len(in.ScenarioYAML) > 0 {
		if err := os.WriteFile(filepath.Join(dir, "scenario.yaml"), in.ScenarioYAML, 0o644); err != nil {
			errs = append(errs, fmt.Errorf("write scenario.yaml: %w", err))
		}
	}
	b, err := json.MarshalIndent(res, "", "  ")
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "results.json"), append(b, '\n'), 0o644)
	}
	if err != nil {
		errs = append(errs, fmt.Errorf("write results.json: %w", err))
	}
	if err := writeTimeline(filepath.Join(dir, TimelineFile), in); err != nil {
		errs = append(errs, fmt.Errorf("write %s: %w", TimelineFile, err))
	}
	if err := writeLatency(filepath.Join(dir, LatencyFile), in); err != nil {
		errs = append(errs, fmt.Errorf("write %s: %w", LatencyFile, err))
	}
	hist := historyStatus(in)
	if hist.Written {
		if err := writeHistoryHTML(filepath.Join(dir, HistoryFile), in); err != nil {
			errs = append(errs, fmt.Errorf("write %s: %w", HistoryFile, err))
			hist.Written = false
			hist.Note = err.Error()
		}
	}
	if err := writeIndex(filepath.Join(dir, IndexFile), in, res, hist); err != nil {
		errs = append(errs, fmt.Errorf("write %s: %w", IndexFile, err))
	}
	return res, errors.Join(errs...)
}

// File names inside a report directory.
const (
	IndexFile    = "index.html"
	TimelineFile = "timeline.png"
	LatencyFile  = "latency.png"
	HistoryFile  = "history.html"
)

// MaxPorcupineOps caps history.html: a larger history is not visualised
// (the browser page would be unusable).
const MaxPorcupineOps = 20000

// Headline is the one plain sentence under the verdict banner, derived from
// the anomalies: a double effect first, then a mutex overlap, then any
// other; for a valid run whose stale write the resource refused, the
// fencing sentence.
func Headline(in Input) string {
	lang := in.Lang
	m := newModel(in.History)
	verdict := in.Verdict
	var anoms []checker.Anomaly
	for _, a := range allAnomalies(in.Results) {
		if !a.Informational {
			anoms = append(anoms, a)
		}
	}
	prio := map[string]int{checker.KindDoubleEffect: 0, checker.KindMutexOverlap: 1, checker.KindStaleWriteAccepted: 2}
	sort.SliceStable(anoms, func(i, j int) bool {
		pi, ok := prio[anoms[i].Kind]
		if !ok {
			pi = 9
		}
		pj, ok := prio[anoms[j].Kind]
		if !ok {
			pj = 9
		}
		return pi < pj
	})
	if len(anoms) > 0 && verdict != checker.Valid {
		a := anoms[0]
		switch a.Kind {
		case checker.KindDoubleEffect:
			if w, ok := lastAcceptedWrite(in.History, a); ok {
				if l, ok := m.leaseAt(w.Client, w.Key, w.Invoke); ok && l.KeyEnd < w.Invoke {
					return tr(lang, "say.double.late", a.Key, w.Client, m.sec(w.Invoke)-m.sec(l.KeyEnd))
				}
			}
			return tr(lang, "say.double", a.Key, joinAnd(lang, a.Clients))
		case checker.KindMutexOverlap:
			return tr(lang, "say.overlap", joinAnd(lang, a.Clients), a.Key, a.EndS-a.StartS)
		case checker.KindStaleWriteAccepted:
			return tr(lang, "say.stale", a.Explain)
		}
		return tr(lang, "say.other", a.Kind, a.Explain)
	}
	switch verdict {
	case checker.Invalid:
		for _, r := range in.Results {
			if r.Verdict == checker.Invalid {
				return tr(lang, "say.other", r.Checker, r.Summary)
			}
		}
	case checker.Unknown:
		for _, r := range in.Results {
			if r.Verdict == checker.Unknown && r.Summary != "" {
				return tr(lang, "say.unknown", r.Summary)
			}
		}
		return tr(lang, "say.unknown.plain")
	}
	// Valid: did fencing save the day?
	for _, o := range in.History.Ops {
		if o.F != history.Write || o.Type != history.Fail {
			continue
		}
		tok := o.Value.Fence
		if tok <= 0 {
			if l, ok := m.leaseAt(o.Client, o.Key, o.Invoke); ok {
				tok = l.Fence
			}
		}
		var seen int64
		for _, p := range in.History.Ops {
			if p.F == history.Write && p.Type == history.OK && p.Key == o.Key && p.Invoke <= o.Invoke && p.Value.Fence > seen {
				seen = p.Value.Fence
			}
		}
		if seen == 0 {
			for _, l := range m.leases {
				if l.Key == o.Key && l.Start <= o.Invoke && l.Fence > seen && l.Client != o.Client {
					seen = l.Fence
				}
			}
		}
		if tok > 0 && seen > tok {
			action := o.Value.Action
			if action == "" {
				action = "write"
			}
			return tr(lang, "say.fenced", o.Client, action, tok, seen)
		}
		return tr(lang, "say.fenced.plain", o.Client)
	}
	return tr(lang, "say.valid")
}

// lastAcceptedWrite finds the latest accepted write the anomaly is about:
// from its Ops indices when given, else by its key and clients.
func lastAcceptedWrite(h history.History, a checker.Anomaly) (history.Op, bool) {
	want := map[int]bool{}
	for _, i := range a.Ops {
		want[i] = true
	}
	inClients := func(c string) bool {
		for _, x := range a.Clients {
			if x == c {
				return true
			}
		}
		return len(a.Clients) == 0
	}
	var best history.Op
	found := false
	for _, o := range h.Ops {
		if o.F != history.Write || o.Type != history.OK {
			continue
		}
		if len(want) > 0 {
			if !want[o.Index] {
				continue
			}
		} else if o.Key != a.Key || !inClients(o.Client) || (o.Value.Action != "" && o.Value.Action != "charge") {
			continue
		}
		if !found || o.Invoke > best.Invoke {
			best, found = o, true
		}
	}
	return best, found
}
