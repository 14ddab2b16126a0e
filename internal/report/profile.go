package report

import (
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/report/page"
)

// Files of a safety profile (`locksim explore`).
const (
	ProfileJSON = "profile.json"
	ProfileHTML = "profile.html"
)

// Profile is the safety profile `locksim explore` writes (profile.json):
// per fault class, whether a schedule of that class broke the lock (with
// the smallest such schedule) or how many it survived over which
// parameters. It is data only; WriteProfile renders it in each language.
// Paths are relative to the profile's directory.
type Profile struct {
	Algorithm string   `json:"algorithm"`
	Traits    []string `json:"traits,omitempty"`
	Workload  string   `json:"workload"`
	Nodes     int      `json:"nodes"`
	Replicas  int      `json:"replicas,omitempty"`
	Sentinels int      `json:"sentinels,omitempty"`
	Clients   int      `json:"clients"`
	// Persistence of the base run's nodes (a crash class sets its own).
	Persistence string `json:"persistence"`
	Fencing     bool   `json:"fencing,omitempty"`
	// TTL and Job are the base run's, scenario seconds; Renewal the
	// lock's renewal period in the fault-free run (0: it renewed nothing).
	TTLSeconds     float64 `json:"ttl_s"`
	JobSeconds     float64 `json:"job_s"`
	RenewalSeconds float64 `json:"renewal_s,omitempty"`
	TimeScale      float64 `json:"time_scale"`
	Seed           int64   `json:"seed"`
	// Budget is the search's budget as given ("2m0s", "300 runs"), per
	// shard; ShrinkBudget each shrink's.
	Budget       string `json:"budget"`
	ShrinkBudget string `json:"shrink_budget"`
	K            int    `json:"k"`
	// Shard is "K/N" for a shard's profile (every row of another shard
	// is left out), "" for a whole one; Shards the shards a merged
	// profile came from.
	Shard  string   `json:"shard,omitempty"`
	Shards []string `json:"shards,omitempty"`
	// PlanHash identifies the exploration (base scenario, seed, classes)
	// so that merge can tell its shards from another's.
	PlanHash  string `json:"plan_hash"`
	Version   string `json:"version"`
	Backend   string `json:"backend"`
	Reproduce string `json:"reproduce"`
	// BaseYAML is the base scenario, normalised.
	BaseYAML string `json:"base_yaml"`
	// Baseline is the fault-free run; BaselineBroken: it was invalid, so
	// no fault was needed and none was tried.
	Baseline       ProfileRun `json:"baseline"`
	BaselineBroken bool       `json:"baseline_broken,omitempty"`
	// Runs is the number of runs, shrinks' included; ElapsedSeconds the
	// wall time (the longest shard's, when merged).
	Runs           int     `json:"runs"`
	ElapsedSeconds float64 `json:"elapsed_s"`
	// Interrupted: the exploration was stopped (Ctrl-C) before its end.
	Interrupted bool `json:"interrupted,omitempty"`
	// Abandoned are the runs that never ended and were left behind (a
	// proxy that deadlocked; their nodes stop when locksim exits).
	Abandoned int          `json:"abandoned,omitempty"`
	Rows      []ProfileRow `json:"rows"`
	// NotApplicable are the classes left out, and why.
	NotApplicable []ProfileSkip `json:"not_applicable,omitempty"`
}

// Row statuses.
const (
	// StatusBroken: a schedule of the class made the run invalid and its
	// smallest form is invalid in every one of K seeds.
	StatusBroken = "broken"
	// StatusFlaky: schedules of the class made runs invalid, but none was
	// invalid in every one of K seeds (so there is no regression file).
	StatusFlaky = "flaky"
	// StatusSurvived: no schedule of the class made a run invalid within
	// the budget — evidence, not proof.
	StatusSurvived = "survived"
	// StatusUntried: the budget ran out before a run of the class ended.
	StatusUntried = "untried"
)

// ProfileRow is one fault class.
type ProfileRow struct {
	Class string `json:"class"`
	Kind  string `json:"kind"`
	// Status is one of Status*.
	Status string `json:"status"`
	// Schedules were run: Valid, Invalid, Unknown and NoVerdict (an
	// infrastructure error) of them; Guided were aimed at the fault-free
	// run's windows, the rest drawn at random.
	Schedules int `json:"schedules"`
	Valid     int `json:"valid"`
	Invalid   int `json:"invalid"`
	Unknown   int `json:"unknown"`
	NoVerdict int `json:"no_verdict,omitempty"`
	Guided    int `json:"guided"`
	// Ranges are the values the schedules' fields took.
	Ranges []ProfileRange `json:"ranges,omitempty"`
	// FirstViolationSeconds is the wall time from the exploration's
	// start to the end of the class's first invalid run (0: none).
	FirstViolationSeconds float64 `json:"first_violation_s,omitempty"`
	// Found is the first invalid run as found; Minimal its smallest form
	// (a broken row's regression file).
	Found   *ProfileRun `json:"found,omitempty"`
	Minimal *ProfileRun `json:"minimal,omitempty"`
	// ShrinkPage is the shrink's page; ShrinkExhausted: its budget ran
	// out (the smallest form found so far).
	ShrinkPage      string `json:"shrink_page,omitempty"`
	ShrinkExhausted bool   `json:"shrink_exhausted,omitempty"`
	// Requirements are lesson 42's requirements the class bears on, from
	// the checkers' findings (Shows): a broken row's minimal run's
	// broken ones, a survived row's kept ones with how many valid runs
	// kept each.
	Requirements []ProfileRequirement `json:"requirements,omitempty"`
}

// ProfileRange is what one field of a class's faults took: the least and
// greatest duration or number (Min, Max), or the values (Values).
type ProfileRange struct {
	Field  string   `json:"field"`
	Min    string   `json:"min,omitempty"`
	Max    string   `json:"max,omitempty"`
	Values []string `json:"values,omitempty"`
}

// ProfileRun is one run of the profile: its schedule, verdict, kinds and
// where to see and repeat it.
type ProfileRun struct {
	Verdict string   `json:"verdict"`
	Kinds   []string `json:"kinds,omitempty"`
	Seed    int64    `json:"seed"`
	// Steps are the schedule's fault steps in words (English); Faults
	// their number.
	Steps  []string `json:"steps,omitempty"`
	Faults int      `json:"faults"`
	// File is the scenario (the candidate, or the regression file), Report
	// its run's index.html, Timeline its timeline.png ("" when not drawn).
	File      string `json:"file,omitempty"`
	Report    string `json:"report,omitempty"`
	Timeline  string `json:"timeline,omitempty"`
	Reproduce string `json:"reproduce,omitempty"`
	// Seconds is the run's wall time.
	Seconds float64 `json:"seconds,omitempty"`
	// Confirmed is in how many of ConfirmSeeds fresh seeds a regression
	// file's schedule was invalid again with the same kinds.
	Confirmed    int `json:"confirmed,omitempty"`
	ConfirmSeeds int `json:"confirm_seeds,omitempty"`
}

// ProfileRequirement is one of lesson 42's requirements a row bears on:
// Showing "broken" or "kept", in Runs runs.
type ProfileRequirement struct {
	Req     string `json:"req"`
	Showing string `json:"showing"`
	Runs    int    `json:"runs"`
}

// ProfileSkip is a class that was not explored: Reason is a message key
// (explore.na.*) and Arg its argument.
type ProfileSkip struct {
	Class  string `json:"class"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
	Arg    string `json:"arg,omitempty"`
}

// Broken reports whether a row's class broke the lock (a reproducible or
// a flaky violation).
func (r ProfileRow) Broken() bool { return r.Status == StatusBroken || r.Status == StatusFlaky }

// WriteProfileJSON writes profile.json into dir.
func WriteProfileJSON(dir string, p Profile) error {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, ProfileJSON), append(b, '\n'), 0o644)
}

// ReadProfile reads a profile.json.
func ReadProfile(path string) (Profile, error) {
	var p Profile
	b, err := os.ReadFile(path)
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return p, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// ProfilePage is the page of lang: profile.html for first, else
// profile.<lang>.html.
func ProfilePage(lang, first Lang) string {
	if normLang(lang) == normLang(first) {
		return ProfileHTML
	}
	return "profile." + string(lang) + ".html"
}

// WriteProfile writes the profile's page into dir in every language:
// profile.html in first, profile.<lang>.html in the others, each linking
// the others. It renders the profile's data and decides nothing.
func WriteProfile(dir string, p Profile, first Lang) error {
	for _, lang := range Languages() {
		funcs := pageFuncs(lang)
		maps.Copy(funcs, profileFuncs)
		t, err := page.Parse("profile", suiteCSS+profileTemplate, funcs)
		if err != nil {
			return fmt.Errorf("parse profile template: %w", err)
		}
		v := profileView{Profile: p, Lang: lang, Title: tr(lang, "explore.page.title", p.Algorithm),
			T: func(key string, args ...any) string { return tr(lang, key, args...) }}
		for _, l := range Languages() {
			if l != lang {
				v.Others = append(v.Others, [2]string{string(l), ProfilePage(l, first)})
			}
		}
		if err := writeTemplate(filepath.Join(dir, ProfilePage(lang, first)), t, v); err != nil {
			return err
		}
	}
	return nil
}

// profileView is the page's data: the profile and its language.
type profileView struct {
	Profile
	Lang   Lang
	Title  string // the page's <title> (page.Head)
	T      func(key string, args ...any) string
	Others [][2]string
}

// Counts of the rows by status, for the summary line.
func (v profileView) Count(status string) int {
	n := 0
	for _, r := range v.Rows {
		if r.Status == status {
			n++
		}
	}
	return n
}

// Range renders one range: "1s – 25s", "1.5 – 10" or "a, b".
func (v profileView) Range(r ProfileRange) string {
	switch {
	case len(r.Values) > 0:
		return strings.Join(r.Values, ", ")
	case r.Min == r.Max:
		return r.Min
	}
	return r.Min + " – " + r.Max
}

// Req is a requirement's name in the page's language.
func (v profileView) Req(req string) string { return tr(v.Lang, "req."+req) }

// NA renders why a class was not explored (a parser's refusal is shown
// beside it, in its own English words).
func (v profileView) NA(s ProfileSkip) string {
	if s.Arg == "" || s.Reason == "explore.na.parser" {
		return tr(v.Lang, s.Reason)
	}
	return tr(v.Lang, s.Reason, s.Arg)
}

// ReqOrder lists the requirements in the course's order.
func (v profileView) ReqOrder() []string { return Requirements() }

// Has reports whether row r marks requirement req, and how.
func (v profileView) Has(r ProfileRow, req string) *ProfileRequirement {
	i := slices.IndexFunc(r.Requirements, func(x ProfileRequirement) bool { return x.Req == req })
	if i < 0 {
		return nil
	}
	return &r.Requirements[i]
}

var profileFuncs = template.FuncMap{
	"mark": verdictMark,
	"join": func(xs []string) string { return strings.Join(xs, ", ") },
	"secs": func(s float64) decimal { return decimal{s, 1} },
}
