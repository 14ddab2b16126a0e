package report

// This file counts a lesson pair's runs by verdict over the suite's seeds
// and says what they are evidence of ("valid in N of N seeds").

import (
	"slices"
	"strconv"

	"github.com/locksim/locksim/internal/checker"
)

// seedTally counts the runs of r's scenario file in the suite by verdict
// (an error, an aborted run counted as such), with the seeds' range.
type seedTally struct {
	N, Valid, Invalid, Unknown, Error int
	Lo, Hi                            int64
	// Rerun counts the runs a suite ran again because the machine had
	// spoiled a try (Results.Retried); each counts by its last try.
	Rerun int
	// Busy counts the unknown runs whose every try the machine's load
	// spoiled (checker.SpoiledBusy: their own unknown reason, and each
	// earlier try's): no near-violation, nothing of the lock.
	Busy int
}

// rerunWords says how many of a tally's runs were rerun after a spoiled
// try ("" when none was): "N of N" must not hide them.
func (t seedTally) rerunWords(lang Lang) string {
	switch t.Rerun {
	case 0:
		return ""
	case 1:
		return " " + tr(lang, "lesson.evidence.rerun.one")
	}
	return " " + tr(lang, "lesson.evidence.rerun", t.Rerun)
}

func tallyOf(r *suiteRun, runs []*suiteRun) seedTally {
	var t seedTally
	for _, o := range runs {
		if !sameRunFile(o, r) {
			continue
		}
		if t.N == 0 || o.R.Seed < t.Lo {
			t.Lo = o.R.Seed
		}
		if t.N == 0 || o.R.Seed > t.Hi {
			t.Hi = o.R.Seed
		}
		t.N++
		if len(o.R.Retried) > 0 {
			t.Rerun++
		}
		switch {
		case o.R.Error != "" || o.R.Aborted:
			t.Error++
		case o.R.Verdict == checker.Valid:
			t.Valid++
		case o.R.Verdict == checker.Invalid:
			t.Invalid++
		default:
			t.Unknown++
			if o.R.Verdict == checker.Unknown && o.R.Spoiled == checker.SpoiledBusy && !slices.ContainsFunc(o.R.Retried, func(w string) bool { return w != checker.SpoiledBusy }) {
				t.Busy++
			}
		}
	}
	return t
}

// seedsWord is a tally's seeds: "seed 42" or "seeds 42–51".
func (t seedTally) seedsWord(lang Lang) string {
	if t.Lo == t.Hi {
		return tr(lang, "lesson.seeds.one", t.Lo)
	}
	return tr(lang, "lesson.seeds.range", t.Lo, t.Hi)
}

// others says what a tally's runs that were not valid came out as.
func (t seedTally) others(lang Lang) string { return t.othersThan(lang, checker.Valid) }

// othersThan says what a tally's runs that did not come out as v came
// out as (a partial fix's runs that were not invalid).
func (t seedTally) othersThan(lang Lang, v checker.Verdict) string {
	var parts []string
	for _, c := range []struct {
		n   int
		key string
		v   checker.Verdict
	}{{t.Valid, "verdict.valid", checker.Valid}, {t.Invalid, "verdict.invalid", checker.Invalid}, {t.Unknown, "verdict.unknown", checker.Unknown}, {t.Error, "suite.error", ""}} {
		if c.n > 0 && (c.v != v || c.v == "") {
			parts = append(parts, strconv.Itoa(c.n)+" "+tr(lang, c.key))
		}
	}
	return joinAnd(lang, parts)
}

// evidence is what a pair's page says of the seeds behind it: how often the
// broken file was invalid and the fix valid, over how many seeds; a fix
// run at fewer than MinEvidenceSeeds seeds is said to be too few. A
// harness control on the right (isControl) is counted as the control it
// is: it is no fix, so nothing is said of how well a fix holds.
func evidence(lang Lang, b, f *suiteRun, runs []*suiteRun) []string {
	bt, ft := tallyOf(b, runs), tallyOf(f, runs)
	out := []string{tr(lang, "lesson.evidence.broken", bt.Invalid, bt.N, bt.seedsWord(lang)) + bt.rerunWords(lang)}
	key, control, contrast := "lesson.evidence.fixed", false, false
	switch sideOf(b.R, f.R, false) {
	case sideControl:
		key, control = "lesson.evidence.control", true
	case sideClock, sideRestart:
		// The clock assumption holding, or a node kept down past the
		// TTL, is no fix to the lock either: nothing is said of how well
		// a fix holds.
		key, control, contrast = "lesson.evidence.contrast", true, true
	}
	fix := tr(lang, key, ft.Valid, ft.N, ft.seedsWord(lang))
	if ft.Valid < ft.N {
		fix += " " + tr(lang, "lesson.evidence.rest", ft.others(lang))
	}
	// Every run that was not valid was the machine's load (teacher11 G6).
	busyRest := ft.Valid < ft.N && ft.Valid+ft.Busy == ft.N
	if busyRest && !partialFix(f.R) {
		if ft.Busy == 1 {
			fix += " " + tr(lang, "lesson.evidence.busy.one")
		} else {
			fix += " " + tr(lang, "lesson.evidence.busy", ft.Busy)
		}
	}
	if partialFix(f.R) && !control {
		// A partial fix is expected to still violate: count how often it
		// did, not how often it was valid (issue 34).
		fix, control = tr(lang, "lesson.evidence.partial", ft.Invalid, ft.N, ft.seedsWord(lang)), true
		if ft.Invalid < ft.N {
			fix += " " + tr(lang, "lesson.evidence.rest", ft.othersThan(lang, checker.Invalid))
		}
	}
	fix += ft.rerunWords(lang)
	out = append(out, fix)
	switch {
	case contrast && ft.N < MinEvidenceSeeds:
		// A contrast is no fix, but one seed of it is no more than one
		// run either (a second teacher: "the no-jump run shows the answer
		// works", from 1 of 1).
		out = append(out, tr(lang, "lesson.evidence.few.contrast", MinEvidenceSeeds, b.R.File, f.R.File, MinEvidenceSeeds))
	case control:
	case ft.N < MinEvidenceSeeds:
		out = append(out, tr(lang, "lesson.evidence.few", MinEvidenceSeeds, b.R.File, f.R.File, MinEvidenceSeeds))
	case ft.Valid == ft.N, busyRest:
		out = append(out, tr(lang, "lesson.evidence.scope"))
	}
	return out
}

// partialFix tells whether a fix's run came out invalid as its scenario
// expects: a fix that closes one hole and is known to leave another
// (redis-semaphore 4.x, 5.3.1), not a fix without evidence.
func partialFix(f Results) bool {
	return f.Verdict == checker.Invalid && f.Expect == string(checker.Invalid) && f.ExpectationMet != nil && *f.ExpectationMet &&
		f.Error == "" && !f.Aborted
}

// expectedWords names the kinds a partial fix is expected to show, in
// lang's words for them ("two clients held the lock at once").
func expectedWords(lang Lang, kinds []string) string {
	words := make([]string, len(kinds))
	for i, k := range kinds {
		words[i] = kindWord(lang, k)
	}
	return joinAnd(lang, words)
}
