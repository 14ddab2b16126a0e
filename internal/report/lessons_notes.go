package report

// This file says, on a lesson page, where each run the lesson's words
// name is, and what a run shown alone is evidence of: a lesson's
// takeaways and caveats are written for the whole catalogue and printed
// on the page of any suite that ran one of its scenarios (issue 34,
// teacher7 F1, F2, F5, F24; reader7 F5, F15).

import (
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/locksim/locksim/internal/lesson"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/why"
	"github.com/locksim/locksim/scenarios"
)

// lessonNote is a takeaway or caveat with where each run it names is:
// Runs those the suite ran or ran as an experiment, NotRun the shipped
// files of the others (told together, so that a caveat naming five runs
// the suite did not make reads as one line).
type lessonNote struct {
	Text   string
	Runs   []noteRun
	NotRun string
}

// noteRun is one run a lesson's text names: its scenario's name, where
// the page's reader finds it, and a link to it ("" when none).
type noteRun struct {
	Name, Where, Link string
}

// lessonNotes are texts in lang, each with its files' whereabouts.
func lessonNotes(lang Lang, outDir string, texts []lesson.Text, files [][]string, runs []*suiteRun) []lessonNote {
	out := make([]lessonNote, 0, len(texts))
	for i, t := range texts {
		n := lessonNote{Text: t.In(string(normLang(lang)))}
		var none []string
		if i < len(files) {
			for _, f := range files[i] {
				if r, ok := runWhere(lang, outDir, f, runs); ok {
					n.Runs = append(n.Runs, r)
				} else {
					none = append(none, shippedFile(f))
				}
			}
		}
		if len(none) > 0 {
			n.NotRun = tr(lang, "lesson.note.none", strings.Join(none, ", "))
		}
		out = append(out, n)
	}
	return out
}

// runWhere says where the run of the scenario file base (gc-pause.yaml)
// is: the suite's runs of it with their verdicts, else an experiment of
// a suite's run that ran it; false when the suite ran it neither way.
func runWhere(lang Lang, outDir, base string, runs []*suiteRun) (noteRun, bool) {
	name := strings.TrimSuffix(base, ".yaml")
	if r := firstRunOf(base, runs); r != nil {
		t := tallyOf(r, runs)
		return noteRun{Name: r.R.Scenario, Link: r.Card.Link,
			Where: tr(lang, "lesson.note.suite", t.othersThan(lang, ""), t.seedsWord(lang))}, true
	}
	if r, c, ok := experimentOf(name, runs); ok {
		return noteRun{Name: name, Link: experimentLink(outDir, c),
			Where: tr(lang, "lesson.note.why", r.R.Scenario, r.R.Seed, tr(lang, "verdict."+string(c.Verdict)))}, true
	}
	return noteRun{}, false
}

// experimentOf finds the run (lowest seed first) that ran the scenario
// named name as its fixed_by experiment (why.FixedBy, why.FixedByOwn)
// and got a verdict.
func experimentOf(name string, runs []*suiteRun) (*suiteRun, why.Counterfactual, bool) {
	var best *suiteRun
	var found why.Counterfactual
	for _, r := range runs {
		for _, c := range r.R.Counterfactuals {
			if c.Name != name || c.Verdict == "" || c.Change != why.FixedBy && c.Change != why.FixedByOwn {
				continue
			}
			if best == nil || r.R.Seed < best.R.Seed {
				best, found = r, c
			}
		}
	}
	return best, found, best != nil
}

// experimentLink is an experiment's report page relative to outDir, ""
// when it kept no report.
func experimentLink(outDir string, c why.Counterfactual) string {
	if c.Report == "" {
		return ""
	}
	return suiteRel(outDir, filepath.Join(c.Report, IndexFile))
}

// shippedFile is where locksim ships the scenario file base:
// scenarios/base or scenarios/field/base.
func shippedFile(base string) string {
	if _, err := fs.Stat(scenarios.FS, base); err == nil {
		return "scenarios/" + base
	}
	if _, err := fs.Stat(scenarios.FS, "field/"+base); err == nil {
		return "scenarios/field/" + base
	}
	return base
}

// missingLine is a line of a lesson page about a pair the suite did not
// run side by side, with a link to an experiment that ran its fix.
type missingLine struct {
	Text, Link, LinkText string
}

// missingFix is the line for a broken run whose fixed_by the suite did
// not run: run only as its experiment (with a link) or not at all.
func missingFix(lang Lang, outDir string, r *suiteRun) missingLine {
	kind := fixSide(r.R.FixedBySide).kind()
	name := strings.TrimSuffix(filepath.Base(r.R.FixedBy), filepath.Ext(r.R.FixedBy))
	for _, c := range r.R.Counterfactuals {
		if c.Name == name && c.Verdict != "" && (c.Change == why.FixedBy || c.Change == why.FixedByOwn) {
			m := missingLine{Text: experimentFixText(lang, kind, r, c)}
			if m.Link = experimentLink(outDir, c); m.Link != "" {
				m.LinkText = tr(lang, "lesson.missing.open")
			}
			return m
		}
	}
	return missingLine{Text: tr(lang, "lesson.missing."+kind, r.R.Scenario, r.R.FixedBy)}
}

// missingPair is the line for a pair a lesson file declares (its broken
// file and its fix or contrast) that the suite did not run side by side:
// which of the two it ran, if either.
func missingPair(lang Lang, broken, other string, runs []*suiteRun) missingLine {
	b, o := firstRunOf(broken, runs) != nil, firstRunOf(other, runs) != nil
	switch {
	case b && !o:
		return missingLine{Text: tr(lang, "lesson.missing.lessonpair.one", broken, other)}
	case o && !b:
		return missingLine{Text: tr(lang, "lesson.missing.lessonpair.one", other, broken)}
	case !b && !o:
		return missingLine{Text: tr(lang, "lesson.missing.lessonpair.none", broken, other)}
	}
	return missingLine{Text: tr(lang, "lesson.missing.lessonpair", broken, other)}
}

// brokenOf are the shipped scenarios whose fixed_by is base, each with
// what base is to it (fixSide's kind: fixed, contrast or control).
func brokenOf(base string) map[string]string {
	fixesOnce.Do(func() { fixes = shippedFixes() })
	return fixes[base]
}

var (
	fixesOnce sync.Once
	fixes     map[string]map[string]string // fixed_by → broken file → kind
)

// shippedFixes maps each shipped fixed_by file to the files that name it,
// each with what the fix is to it.
func shippedFixes() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, glob := range []string{"*.yaml", "field/*.yaml"} {
		names, _ := fs.Glob(scenarios.FS, glob)
		for _, n := range names {
			sc, raw, ok := shippedScenario(n)
			if !ok || sc.FixedBy == "" {
				continue
			}
			kind := "fixed"
			if fsc, fraw, ok := shippedScenario(filepath.Join(filepath.Dir(n), sc.FixedBy)); ok {
				bf, _ := scenario.Flatten(raw)
				ff, _ := scenario.Flatten(fraw)
				if s := operationalSide(fsc.Algorithm, bf, ff); s != "" {
					kind = s.kind()
				}
			}
			if out[sc.FixedBy] == nil {
				out[sc.FixedBy] = map[string]string{}
			}
			out[sc.FixedBy][filepath.Base(n)] = kind
		}
	}
	return out
}

// cardNotes are what a lesson page says under a run it shows alone (not
// in a pair): how many runs of its file the suite made and how they came
// out, when more than one (a --count page showed one seed, teacher7 F24),
// and, for the fix of a broken file the suite did not run, what it is and
// how many seeds back it (teacher7 F5: a bare ✔ read as proof).
func cardNotes(lang Lang, r *suiteRun, runs []*suiteRun) []string {
	var out []string
	t := tallyOf(r, runs)
	if t.N > 1 {
		out = append(out, tr(lang, "lesson.card.count", t.N, t.seedsWord(lang), t.othersThan(lang, ""), r.R.Seed))
	}
	if r.R.File == "" {
		return out
	}
	var alone []string
	kind := ""
	for _, b := range slices.Sorted(maps.Keys(brokenOf(filepath.Base(r.R.File)))) {
		if firstRunOf(b, runs) == nil {
			alone = append(alone, b)
			kind = brokenOf(filepath.Base(r.R.File))[b]
		}
	}
	if len(alone) == 0 {
		if t.Valid > 0 && t.N < MinEvidenceSeeds {
			// A valid run shown alone is one seed's outcome, not proof
			// (teacher7 F5: redis-py-stale-release, a bare ✔).
			out = append(out, tr(lang, "lesson.card.few", t.Valid, t.N, t.seedsWord(lang), MinEvidenceSeeds, r.R.File, MinEvidenceSeeds))
		}
		return out
	}
	out = append(out, tr(lang, "lesson.card.alone."+kind, joinAnd(lang, alone)))
	broken := shippedFile(alone[0])
	switch kind {
	case "fixed":
		out = append(out, tr(lang, "lesson.evidence.fixed", t.Valid, t.N, t.seedsWord(lang)))
		if t.N < MinEvidenceSeeds {
			out = append(out, tr(lang, "lesson.evidence.few", MinEvidenceSeeds, broken, r.R.File, MinEvidenceSeeds))
		}
	case "contrast":
		out = append(out, tr(lang, "lesson.evidence.contrast", t.Valid, t.N, t.seedsWord(lang)))
		if t.N < MinEvidenceSeeds {
			out = append(out, tr(lang, "lesson.evidence.few.contrast", MinEvidenceSeeds, broken, r.R.File, MinEvidenceSeeds))
		}
	default:
		out = append(out, tr(lang, "lesson.evidence.control", t.Valid, t.N, t.seedsWord(lang)))
	}
	return out
}

// shippedScenario parses the shipped file name (field/x.yaml), with its
// normalised bytes.
func shippedScenario(name string) (scenario.Scenario, []byte, bool) {
	b, err := scenarios.FS.ReadFile(name)
	if err != nil {
		return scenario.Scenario{}, nil, false
	}
	sc, err := scenario.Parse(filepath.Join("scenarios", name), b)
	if err != nil {
		return scenario.Scenario{}, nil, false
	}
	n, err := scenario.Normalize(sc)
	if err != nil {
		return sc, nil, false
	}
	return sc, n, true
}
