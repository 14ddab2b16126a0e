// Package why finds the causes of an invalid run by experiment (issue 27):
// the same seed is run again without each planned fault, one at a time,
// and, for a pause or a latency, with that fault at half its length. A
// fault without which the same seed is valid was necessary; one without
// which it is still invalid was not. A run whose scenario names a
// fixed_by is also run as that file with the same seed: the remedy's own
// experiment, with the run's faults when the fix declares the same ones
// (it changes the lock, not the faults), and with its own faults when
// they differ (the fix is the change of faults): overlaying the run's
// faults on such a fix would run the broken scenario under another name.
//
// The package only makes the experiments (Variants) and says what their
// outcomes mean (Counterfactual); package suite runs them on its pool and
// package report tells them. Every variant is a real scenario: the run's
// resolved plan (its history header's steps, made explicit with
// faults.SpecOf) with one step removed or shortened, read back by the
// strict parser, so its reproduce line runs exactly that experiment.
//
// The idea is delta debugging's, one fault at a time (Zeller 2002) as
// Jepsen's and etcd's robustness tests bisect a failing schedule by hand;
// locksim shrink searches further (internal/shrink).
package why

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/scenario"
)

// Change is what an experiment changes in the run.
type Change string

const (
	// Without runs the same seed without one planned step.
	Without Change = "without"
	// Half runs the same seed with one pause or latency step at half its
	// length: a pause's duration, a latency's added delay.
	Half Change = "half"
	// FixedBy runs the scenario's fixed_by file with the run's faults and
	// seed: the fix declares the same faults (SameFaults).
	FixedBy Change = "fixed-by"
	// FixedByOwn runs the scenario's fixed_by file as it is, its own
	// faults, with the run's seed: its faults differ from the run's.
	FixedByOwn Change = "fixed-by-own"
)

// Counterfactual is one experiment and its outcome, as results.json
// stores it (`counterfactuals`).
type Counterfactual struct {
	Change Change `json:"change"`
	// Step is the ID of the plan step the experiment removes or shortens
	// (Without, Half); 0 for FixedBy and FixedByOwn.
	Step int `json:"step,omitempty"`
	// Lacks are, for FixedByOwn, the IDs of the run's plan steps the fix's
	// plan lacks, when its plan is the run's without them (Lacking); empty
	// when the fix has a fault the run had not.
	Lacks []int `json:"lacks,omitempty"`
	// Changed are, for FixedByOwn, the run's plan steps the fix's plan has
	// in another form (Differ), when its plan is the run's with them
	// changed and without Lacks; empty when the fix has a fault the run
	// had not.
	Changed []claim.StepChange `json:"changed,omitempty"`
	// Fired is, for FixedByOwn with Changed steps, how each changed step
	// fired in the fix's run (FiredIn): when, and where its client stood.
	Fired []claim.Fired `json:"fired,omitempty"`
	// ValueNS is, for Half, the step's new length (a pause's duration, a
	// latency's delay), wall ns like the plan's.
	ValueNS int64 `json:"value_ns,omitempty"`
	// File is the experiment's scenario file (written beside the run's
	// report, in why/); Name its scenario name.
	File string `json:"file"`
	Name string `json:"name"`
	// Verdict is the experiment's verdict, "" when it got none (Error
	// says why); Kinds its violation kinds (informational ones left out).
	Verdict finding.Verdict `json:"verdict,omitempty"`
	// Spoiled is, for an unknown verdict the machine made, its cause
	// (the experiment's Results.Spoiled, a checker.Spoiled* value): a fix
	// tried with the run's seed whose run proves nothing is told as
	// tried, with why (reader 14); "" otherwise or when not recorded.
	Spoiled string   `json:"spoiled,omitempty"`
	Kinds   []string `json:"kinds,omitempty"`
	// InfoKinds are the kinds of its informational anomalies (an overlap
	// the checker judged harmless: a fence refused the stale writes), so
	// that a row with no violation does not read as "nothing happened".
	InfoKinds []string `json:"info_kinds,omitempty"`
	// Effects counts the writes the experiment's resource accepted whose
	// action is one the lock protects (EffectActions); nil when it got
	// no results. A valid experiment with none shows no harm done, not
	// that a write was made safe.
	Effects       *int     `json:"effects,omitempty"`
	EffectActions []string `json:"effect_actions,omitempty"`
	// Reproduce is the command that repeats the experiment; Report its
	// report directory ("" without one).
	Reproduce string `json:"reproduce"`
	Report    string `json:"report,omitempty"`
	Error     string `json:"error,omitempty"`
}

// Necessary reports whether c shows its step was necessary: without it
// the same seed is valid.
func (c Counterfactual) Necessary() bool { return c.Change == Without && c.Verdict == finding.Valid }

// Claims states each experiment that got a verdict as a claim
// (claim.Experiment), in cs's order, unnumbered.
func Claims(cs []Counterfactual) []claim.Claim {
	var out []claim.Claim
	for _, c := range cs {
		if c.Verdict == "" {
			continue
		}
		e := claim.Claim{Kind: claim.Experiment, What: string(c.Change), Step: c.Step, How: string(c.Verdict),
			Steps: slices.Clone(c.Lacks), Changed: slices.Clone(c.Changed), Fired: slices.Clone(c.Fired), Report: c.Report, Kinds: slices.Clone(c.Kinds), InfoKinds: slices.Clone(c.InfoKinds), Records: []int{}}
		if c.Effects != nil {
			n := int64(*c.Effects)
			e.Num, e.Actions = &n, slices.Clone(c.EffectActions)
		}
		out = append(out, e)
	}
	return out
}

// FiredIn says how each changed step (a fix's own form of a run's step)
// fired in ex, the fix's run: the first applied fault of its effect on
// its targets, when, and — for a client fault — whether its client was
// then inside an acquire or holding the lock (claim.Fired). A step that
// never fired there is left out. The experiment's own plan numbers its
// steps afresh: a step is found by its effect and targets.
func FiredIn(ex history.History, changed []claim.StepChange) []claim.Fired {
	var out []claim.Fired
	for _, ch := range changed {
		for _, op := range ex.Ops {
			st := op.Value.Fault
			if op.F != history.Fault || op.Type == history.Fail || st == nil || st.Effect != ch.To.Effect ||
				!slices.Equal(st.Clients, ch.To.Clients) || !slices.Equal(st.Nodes, ch.To.Nodes) {
				continue
			}
			at := op.Invoke
			if st.Effect == history.EffectCrashNode && op.Value.DeadFrom > 0 && op.Value.DeadTo > op.Value.DeadFrom {
				// A crash of nodes fired when they died, the instant the
				// experiment's own report tells it at (a sixth reader, A14).
				at = op.Value.DeadFrom
			}
			f := claim.Fired{Step: ch.Step, At: at, AtS: ex.Header.ScenarioSeconds(at)}
			if len(st.Clients) > 0 {
				f.Client = st.Clients[0]
				f.State = stateAt(ex, f.Client, f.At)
			}
			out = append(out, f)
			break
		}
	}
	return out
}

// stateAt is where client stood in h at instant t: inside an acquire
// (invoked, not answered by t), holding the lock (its last acquire before
// t returned ok and it sent no release after), or neither.
func stateAt(h history.History, client string, t int64) string {
	state := ""
	for _, op := range h.Ops {
		if op.Client != client || op.Process < 0 || op.Invoke > t {
			continue
		}
		switch op.F {
		case history.Acquire:
			switch {
			case op.Open() || op.Complete > t:
				return claim.Acquiring
			case op.Type == history.OK:
				state = claim.Holding
			default:
				state = ""
			}
		case history.Release, history.Lost:
			state = ""
		}
	}
	return state
}

// Variant is one experiment to run.
type Variant struct {
	Change  Change
	Step    int   // plan step ID (Without, Half)
	ValueNS int64 // Half: the new length, wall ns
	Lacks   []int // FixedByOwn: the run's steps the fix's plan lacks
	// Changed: FixedByOwn: the run's steps the fix's plan has changed.
	Changed []claim.StepChange
	// Label names the experiment in file and directory names:
	// "without-1", "half-1", "fixed-by".
	Label string
	// Scenario is the experiment, its faults explicit, no nemesis, no
	// expectation (an experiment is not judged against the original's).
	Scenario scenario.Scenario
}

// Counterfactual is v's record, its outcome still to be filled in.
func (v Variant) Counterfactual() Counterfactual {
	return Counterfactual{Change: v.Change, Step: v.Step, ValueNS: v.ValueNS, Lacks: slices.Clone(v.Lacks), Changed: slices.Clone(v.Changed),
		Name: v.Scenario.Name, File: v.Scenario.File}
}

// Halved is the step's length an experiment halves and the field that
// holds it: a pause's (client or node) duration, a latency's delay; ok is
// false for every other step and for a window that lasts to the run's end.
func Halved(st history.FaultStep) (ns int64, ok bool) {
	switch st.Effect {
	case history.EffectFreezeClient, history.EffectFreezeNode:
		if st.UntilEnd || st.Duration <= 0 {
			return 0, false
		}
		return st.Duration / 2, true
	case history.EffectSlowLinks:
		if st.Latency <= 0 {
			return 0, false
		}
		return st.Latency / 2, true
	}
	return 0, false
}

// Fix is a run's fixed_by scenario, parsed, and its own fault plan
// resolved for the run's seed (Plan).
type Fix struct {
	Scenario scenario.Scenario
	Plan     []history.FaultStep
}

// Variants are the experiments of a run of sc with the resolved plan
// steps (the run's history header's): one without each step, one with
// each pause or latency at half its length, and, when fix is set (sc's
// fixed_by file), the fix: with the same faults at sc's time scale when it
// declares sc's faults (SameFaults), else as it is, with its own faults
// (FixedByOwn, with the run's steps its plan lacks, Lacking).
// A variant the parser refuses (a fix whose topology lacks a fault's
// target) is left out; its error is returned beside the others.
func Variants(sc scenario.Scenario, steps []history.FaultStep, fix *Fix) ([]Variant, []error) {
	var out []Variant
	var errs []error
	add := func(v Variant, base scenario.Scenario, plan []history.FaultStep) {
		ex, err := WithFaults(base, plan, sc.TimeScale)
		if err != nil {
			errs = append(errs, fmt.Errorf("experiment %s: %w", v.Label, err))
			return
		}
		ex.Expect, ex.FixedBy, ex.Lessons, ex.Seed = scenario.Expectation{}, "", nil, nil
		if v.Change != FixedBy {
			ex.Name = sc.Name + "-" + v.Label
			ex.Description, ex.DescriptionVI = describe(sc, v, steps)
		}
		v.Scenario = ex
		out = append(out, v)
	}
	for i, st := range steps {
		rest := make([]history.FaultStep, 0, len(steps)-1)
		rest = append(append(rest, steps[:i]...), steps[i+1:]...)
		add(Variant{Change: Without, Step: st.ID, Label: "without-" + strconv.Itoa(st.ID)}, sc, rest)
		if ns, ok := Halved(st); ok {
			half := append([]history.FaultStep(nil), steps...)
			h := st
			if h.Effect == history.EffectSlowLinks {
				h.Latency = ns
			} else {
				h.Duration = ns
			}
			half[i] = h
			add(Variant{Change: Half, Step: st.ID, ValueNS: ns, Label: "half-" + strconv.Itoa(st.ID)}, sc, half)
		}
	}
	if fix != nil {
		f := fix.Scenario
		if SameFaults(sc, f) {
			f.TimeScale = sc.TimeScale
			add(Variant{Change: FixedBy, Label: "fixed-by"}, f, steps)
		} else {
			// The fix is the change of faults: run it as it is.
			lacks, changed, _ := Differ(steps, fix.Plan)
			f.Expect, f.FixedBy, f.Lessons, f.Seed = scenario.Expectation{}, "", nil, nil
			out = append(out, Variant{Change: FixedByOwn, Label: "fixed-by", Lacks: lacks, Changed: changed, Scenario: f})
		}
	}
	return out, errs
}

// SameFaults reports whether fix declares the faults sc declares: the
// same fault list and the same random nemesis. A fix that does changes
// the lock, not the faults, and is tried with the run's resolved faults.
func SameFaults(sc, fix scenario.Scenario) bool {
	return reflect.DeepEqual(unplaced(sc.Faults), unplaced(fix.Faults)) && reflect.DeepEqual(sc.Nemesis, fix.Nemesis)
}

// FewerFaults reports whether fix is sc with some of its faults left out
// and nothing else changed: its fields other than the faults (and those
// that name and judge a run) are sc's, its random nemesis is sc's, and its
// fault list is sc's without one or more of them, in order. Such a file is
// no remedy a user can apply but a control, the same run without those
// faults (reader9: redlock-no-clock-jump is redlock-clock-jump without
// n3's clock jump).
func FewerFaults(sc, fix scenario.Scenario) bool {
	diff, err := scenario.PairDiff(sc, fix)
	if err != nil || len(diff) == 0 || !reflect.DeepEqual(sc.Nemesis, fix.Nemesis) {
		return false
	}
	for _, p := range diff {
		if !strings.HasPrefix(p, "faults[") && p != "faults" {
			return false
		}
	}
	run, f := unplaced(sc.Faults), unplaced(fix.Faults)
	if len(f) >= len(run) {
		return false
	}
	j := 0
	for _, x := range run {
		if j < len(f) && reflect.DeepEqual(x, f[j]) {
			j++
		}
	}
	return j == len(f)
}

// unplaced is fs without where each fault stands in its file.
func unplaced(fs []scenario.Fault) []scenario.Fault {
	out := slices.Clone(fs)
	for i := range out {
		out[i].Line, out[i].Column = 0, 0
	}
	return out
}

// Lacking is the IDs of run's steps that fix's plan lacks, when fix's
// plan is run's without them (each of its steps equal, ID aside, to one
// of run's, in order); ok is false when fix has a step run has not.
func Lacking(run, fix []history.FaultStep) (ids []int, ok bool) {
	j := 0
	for _, st := range run {
		if j < len(fix) && sameStep(st, fix[j]) {
			j++
			continue
		}
		ids = append(ids, st.ID)
	}
	if j < len(fix) {
		return nil, false
	}
	return ids, true
}

// Differ is what fix's plan changes of run's: the IDs of run's steps it
// lacks and the steps it has in another form (one fault of the same kind
// on the same targets, sameFault, with other values), when fix's plan is
// run's so changed (each of its steps, in order, equal to one of run's or
// that step changed); ok is false, and both empty, when fix has a step
// run has not.
func Differ(run, fix []history.FaultStep) (lacks []int, changed []claim.StepChange, ok bool) {
	j := 0
	for _, st := range run {
		switch {
		case j < len(fix) && sameStep(st, fix[j]):
			j++
		case j < len(fix) && sameFault(st, fix[j]):
			changed = append(changed, claim.StepChange{Step: st.ID, To: fix[j]})
			j++
		default:
			lacks = append(lacks, st.ID)
		}
	}
	if j < len(fix) {
		return nil, nil, false
	}
	return lacks, changed, true
}

// sameFault: a and b are one fault of the same kind on the same targets,
// whatever their values.
func sameFault(a, b history.FaultStep) bool {
	return a.Kind == b.Kind && a.Effect == b.Effect && slices.Equal(a.Clients, b.Clients) && slices.Equal(a.Nodes, b.Nodes) &&
		reflect.DeepEqual(a.Links, b.Links) && a.Key == b.Key
}

// sameStep: a and b are one fault, whatever their IDs.
func sameStep(a, b history.FaultStep) bool {
	a.ID, b.ID = 0, 0
	return reflect.DeepEqual(a, b)
}

// WithFaults is sc with the resolved steps written as its faults (every
// step, a random nemesis's drawn ones included, with concrete targets, in
// scenario time at scale: scenario = wall × scale) and no nemesis, read
// back by the strict parser. A drawn step stays optional, as it was in
// the run.
func WithFaults(sc scenario.Scenario, steps []history.FaultStep, scale float64) (scenario.Scenario, error) {
	specs, err := faults.SpecsOf(steps, scale)
	if err != nil {
		return scenario.Scenario{}, fmt.Errorf("explicit schedule: %w", err)
	}
	sc.Faults, sc.Nemesis = specs, nil
	doc, err := scenario.DocOf(sc)
	if err != nil {
		return scenario.Scenario{}, fmt.Errorf("explicit schedule: %w", err)
	}
	out, err := doc.Scenario()
	if err != nil {
		return scenario.Scenario{}, fmt.Errorf("explicit schedule does not parse: %w", err)
	}
	out.File = sc.File
	return out, nil
}

// Plan resolves sc's fault plan for seed (selectors, random points and the
// random nemesis drawn exactly as a run with that seed draws them), before
// any run: what a run of sc with seed will have in its history header.
func Plan(sc scenario.Scenario, seed int64) ([]history.FaultStep, error) {
	plan, err := faults.NewPlan(sc.Faults, sc.Nemesis, seed, sc.FaultTopology())
	if err != nil {
		return nil, fmt.Errorf("fault plan of %s with seed %d: %w", sc.File, seed, err)
	}
	return plan.Steps, nil
}

// describe is a without- or half-experiment's description, in English and
// Vietnamese: what the experiment is, and the original scenario's own
// description only as the original's. The original's describes what its
// faults did; repeated as the experiment's own it told, over a run
// without the janitor and with one charge, of a janitor and a double
// charge (issue 27, a fresh reader).
func describe(sc scenario.Scenario, v Variant, steps []history.FaultStep) (en, vi string) {
	var st history.FaultStep
	for _, s := range steps {
		if s.ID == v.Step {
			st = s
		}
	}
	what := stepWords(st)
	switch v.Change {
	case Half:
		d := time.Duration(float64(v.ValueNS) * max(sc.TimeScale, 1)).Round(time.Millisecond).String()
		en = fmt.Sprintf("Experiment on %s: the same seed with plan step %d (%s) at half its length (%s).", sc.Name, v.Step, what, d)
		vi = fmt.Sprintf("Thí nghiệm trên %s: cùng seed, bước %d của kế hoạch lỗi (%s) chỉ dài một nửa (%s).", sc.Name, v.Step, what,
			strings.Replace(d, ".", ",", 1)) // a decimal comma
	default:
		en = fmt.Sprintf("Experiment on %s: the same seed without plan step %d (%s).", sc.Name, v.Step, what)
		vi = fmt.Sprintf("Thí nghiệm trên %s: cùng seed, bỏ bước %d của kế hoạch lỗi (%s).", sc.Name, v.Step, what)
	}
	origVI := sc.DescriptionVI
	if origVI == "" {
		origVI = sc.Description
	}
	if sc.Description != "" {
		en += " The original scenario: " + sc.Description
	}
	if origVI != "" {
		vi += " Kịch bản gốc: " + origVI
	}
	return en, vi
}

// stepWords names a plan step by its kind and targets ("delete-key, n1";
// "pause, w1"), words both languages read alike.
func stepWords(st history.FaultStep) string {
	ts := slices.Concat(st.Clients, st.Nodes)
	for _, l := range st.Links {
		ts = append(ts, l.Client+"→"+l.Node)
	}
	if len(ts) == 0 {
		return st.Kind
	}
	return st.Kind + ", " + strings.Join(ts, ", ")
}
