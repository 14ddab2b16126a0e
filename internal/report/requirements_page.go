package report

// The requirements scorecard (requirements.html) and the requirement
// strip under each pair of a lesson page: what each run showed of lesson
// 42's five requirements, by MarkOf's one rule (requirements.go).

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/lesson"
	"github.com/locksim/locksim/internal/report/page"
)

// stripRow is one requirement as a pair's two runs showed it.
type stripRow struct {
	Requirement    reqName
	Broken, Fixed  string // the showing's mark and word
	BClass, FClass string // req-kept, req-broken, req-prevented or empty
}

// markClass is the CSS class of a mark.
func markClass(s Showing) string {
	switch s {
	case Kept:
		return "req-kept"
	case Broken:
		return "req-broken"
	case Spared:
		return "req-prevented"
	}
	return ""
}

// markText is a mark with its words: ✔ kept or ✘ broken, and its note's
// definition where the mark alone would mislead (two believed holders
// beside a kept mutual exclusion; a broken safety that did no harm).
func markText(lang Lang, r Results, m Mark) string {
	s := markWords(lang, r, m)
	if m.NodeNotNeeded {
		s += "; " + tr(lang, "lesson.strip.nodenotneeded")
	}
	return s
}

// markWords is markText without what the run's experiments add.
func markWords(lang Lang, r Results, m Mark) string {
	a := m.Anomaly
	// A finding that names no roles still reads: "the stale holder".
	if a.Stale == "" {
		a.Stale = tr(lang, "lesson.strip.stale")
	}
	if a.Current == "" {
		a.Current = tr(lang, "lesson.strip.current")
	}
	switch m.Note {
	case NoteRefused:
		return "✘ " + tr(lang, "lesson.strip.prevented", a.Stale)
	case NoteWaste:
		return "✘ " + tr(lang, "lesson.strip.waste")
	case NoteInOrder:
		return "✘ " + tr(lang, "lesson.strip.inorder", a.Stale)
	case NoteSinglePoint:
		return "✔ " + tr(lang, "lesson.strip.singlepoint")
	case NoteLinksOnly:
		return "✔ " + tr(lang, "lesson.strip.linksonly", joinAnd(lang, cutLinks(r)))
	case NoteHarmOneHolder:
		return "✘ " + tr(lang, "lesson.strip.harmoneholder")
	case NoteNoHarm:
		return "✘ " + tr(lang, "lesson.strip.noharm", a.Stale)
	case NoteExpired:
		return "✔ " + tr(lang, "lesson.strip.expired", a.Current, a.Stale)
	case NoteGranted:
		if a.Cause != nil && a.Cause.Kind == account.EndJanitor {
			// A delete-key fault removed the key, not the lock (reader 6).
			return "✘ " + tr(lang, "lesson.strip.granted.janitor", a.Stale, a.Current)
		}
		return "✘ " + tr(lang, "lesson.strip.granted", a.Current, a.Stale)
	case NoteNoLock:
		return "✘ " + tr(lang, "lesson.strip.nolock", a.Current, a.Stale)
	case NoteBounded:
		// A lease outlived its holder; its TTL ended it: say by how
		// much and what bound it.
		return "✔ " + stayText(lang, r, a, "lesson.strip.bounded")
	case NoteGaveUp:
		return "✔ " + gaveUpText(lang, r, m.Hold)
	case NoteNodeSpared:
		return "✘ " + nodeSpared(lang, r, a)
	case NoteInformational:
		return "✘ " + stayText(lang, r, a, "lesson.strip.informational")
	case NoteKeptByOthers:
		return "✘ " + tr(lang, "lesson.strip.keptbyothers", a.Owner, a.Key, span(a.EndS-a.StartS), a.Cause.ExtendedBy,
			instant(float64(a.Cause.Extended)*r.TimeScale/1e9))
	}
	if m.Showing == Kept {
		return "✔ " + tr(lang, "req.kept")
	}
	return "✘ " + tr(lang, "req.broken")
}

// stayText is a lesson strip's words (key, or key.unbelieved for a key
// its owner never believed it held) for a lease that stayed after its
// holder (a.Cause), with how long it stayed beside its TTL.
func stayText(lang Lang, r Results, a checker.Anomaly, key string) string {
	if a.Cause.Unbelieved {
		key += ".unbelieved"
	}
	ttl := float64(a.Cause.TTL) * r.TimeScale / 1e9
	return tr(lang, key, a.Owner, a.Key, stayBeside(a.EndS-a.StartS, ttl), span(ttl))
}

// stayBeside is how long a key stayed, written beside its TTL's figure:
// as a span, or to the millisecond when the span would round to the
// TTL's own figure without being it (teacher12 N-3: 2.969 s written "3s"
// beside "TTL (3s)" read as a key that lived exactly its TTL).
func stayBeside(stay, ttl float64) any {
	d := time.Duration(stay * 1e9).Round(time.Millisecond)
	if spanDuration(stay) == spanDuration(ttl) && d != time.Duration(ttl*1e9).Round(time.Millisecond) {
		return d
	}
	return span(stay)
}

// nodeSpared tells a fault tolerance broken without harm (NoteNodeSpared):
// what the node's fault did to the stale holder's key (a.Cause), that the
// lock then let the fresh holder in, and what spared the resource
// (sparedNote), with the fencing token when it was what refused.
func nodeSpared(lang Lang, r Results, a checker.Anomaly) string {
	cause := "lesson.strip.node.cause." + a.Cause.Kind
	if !hasOwn(English, cause) {
		cause = "lesson.strip.node.cause"
	}
	what := tr(lang, cause, joinAnd(lang, a.Cause.Nodes), a.Stale)
	how := sparedNote(r, a)
	fence := ""
	if how == NoteRefused && slices.ContainsFunc(r.Claims, func(c claim.Claim) bool {
		return c.Kind == claim.Op && c.Client == a.Stale && c.Refusal == history.RefusalStaleFence
	}) {
		fence = tr(lang, "lesson.strip.node.fence")
	}
	return tr(lang, "lesson.strip.node."+how, what, a.Current, a.Stale, fence)
}

// gaveUpText tells a lease the lock gave up while its holder was inside
// (NoteGaveUp), from the run's claims about hold h: the renewals that
// moved its key's deadline (Extend claims of its owner token in the hold)
// and the last of them, when the holder was told the lease was lost (the
// hold's end), and when and how its key left its node (its KeyLife
// claim, when that is a release's delete or an expiry).
func gaveUpText(lang Lang, r Results, h claim.Claim) string {
	at := func(ns int64) instant { return instant(history.Header{TimeScale: r.TimeScale}.ScenarioSeconds(ns)) }
	ours := func(c claim.Claim) bool { return c.Client == h.Client && c.Key == h.Key && c.Token == h.Token }
	var renewals []claim.Claim
	for _, c := range r.Claims {
		if c.Kind == claim.Extend && c.What == claim.Moved && ours(c) && c.Start >= h.Start && c.End <= h.End {
			renewals = append(renewals, c)
		}
	}
	renewed := tr(lang, "lesson.strip.gaveup.none")
	switch n := len(renewals); n {
	case 0:
	case 1:
		renewed = tr(lang, "lesson.strip.gaveup.once", at(renewals[0].End))
	default:
		renewed = tr(lang, "lesson.strip.gaveup.times", n, at(renewals[n-1].End))
	}
	ended := ""
	if i := slices.IndexFunc(r.Claims, func(c claim.Claim) bool { return c.Kind == claim.KeyLife && ours(c) && c.Start <= h.End }); i >= 0 {
		switch k := r.Claims[i]; k.How {
		case account.EndReleased:
			ended = tr(lang, "lesson.strip.gaveup.released", k.Node, at(k.End))
		case account.EndExpired:
			ended = tr(lang, "lesson.strip.gaveup.expired", k.Node, at(k.End))
		}
	}
	return tr(lang, "lesson.strip.gaveup", h.Client, h.Key, renewed, at(h.End), ended)
}

// cutLinks are the client↔node links run r's plan cuts ("w1↔n1"), each
// once, in plan order.
func cutLinks(r Results) []string {
	var out []string
	for _, st := range r.Plan {
		if st.Effect != history.EffectCutLinks {
			continue
		}
		for _, l := range st.Links {
			if s := l.Client + "↔" + l.Node; !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// reqName is a requirement's name on a page: Name in the page's
// language, and EN, its English name, on a page in another language: the
// course names the five requirements in English, "Mutual exclusion (loại
// trừ lẫn nhau)" (teacher9 F17), so a vi page shows EN first and Name
// after it in parentheses.
type reqName struct{ Name, EN string }

// reqNameOf is requirement code req's name in lang.
func reqNameOf(lang Lang, req string) reqName {
	n := reqName{Name: tr(lang, "req."+req)}
	if normLang(lang) != English {
		n.EN = tr(English, "req."+req)
		n.Name = strings.ToLower(n.Name)
	}
	return n
}

// strip is a pair's requirements strip over the lesson's requirements
// (reqs: report codes, in the course's order).
func strip(lang Lang, b, f Results, reqs []string) []stripRow {
	var out []stripRow
	for _, req := range reqs {
		row := stripRow{Requirement: reqNameOf(lang, req)}
		row.Broken, row.BClass = stripCell(lang, b, req)
		row.Fixed, row.FClass = stripCell(lang, f, req)
		out = append(out, row)
	}
	return out
}

// reqCode is the report's code of a requirement as a lesson file names
// it (lesson.Requirements and Requirements are in the same order).
func reqCode(name string) string {
	if i := slices.Index(lesson.Requirements, name); i >= 0 && i < len(Requirements()) {
		return Requirements()[i]
	}
	return name
}

// reqCell is one cell of the requirements grid.
type reqCell struct {
	Runs  []reqRun
	Empty string // what is missing, when no run shows it
	NA    string
}

type reqRun struct {
	Name, Link, Verdict, VerdictWord string
	Showing, Class                   string // the mark with its words (markText) and its CSS class
}

type reqRow struct {
	Algorithm string
	Cells     []reqCell
}

type reqPage struct {
	Lang        Lang
	Title, Head string
	Nav         []navItem
	Cols        []reqName
	Rules       []string
	Rows        []reqRow
	Index       string
}

// algorithmLabel is a run's row on the requirements page: its algorithm
// (the library's name for redsync and redislock; a lock client process
// is "process" with its adapter's file name).
func algorithmLabel(r Results) string {
	if r.Library != "" {
		return r.Algorithm + ": " + r.Library
	}
	return r.Algorithm
}

// invalidTested are the scenarios of runs that tested safety (a fault, or
// a job longer than its TTL), broke it not, and are invalid by other
// findings (a liveness one): safety is kept only by a valid run.
func invalidTested(runs []*suiteRun) []string {
	var out []string
	for _, r := range runs {
		if r.R.Verdict == checker.Invalid && (len(r.R.Plan) > 0 || outlivedTTL(r.R)) && MarkOf(r.R, ReqSafety).Showing == NotShown &&
			!slices.Contains(out, r.R.Scenario) {
			out = append(out, r.R.Scenario)
		}
	}
	return out
}

// writeRequirements writes requirements.html: algorithm × requirement.
func writeRequirements(outDir string, lang Lang, runs []*suiteRun) error {
	pg := reqPage{Lang: lang, Title: tr(lang, "req.page.title"), Head: tr(lang, "req.title"),
		Nav: lessonNav(lang, lessonsOf(runs), 0), Index: IndexFile}
	for _, req := range Requirements() {
		pg.Cols = append(pg.Cols, reqNameOf(lang, req))
		pg.Rules = append(pg.Rules, tr(lang, "req."+req)+": "+tr(lang, "req."+req+".rule"))
	}
	// A run that takes no lock (lock-free, the no-lock control): why its
	// cells read "does not apply".
	pg.Rules = append(pg.Rules, tr(lang, "req.na.head")+": "+tr(lang, "req.na.rule"))
	var algs []string
	byAlg := map[string][]*suiteRun{}
	for _, r := range runs {
		if !Judged(r.R) {
			continue // an error, an interrupted or an unknown run proves nothing
		}
		a := algorithmLabel(r.R)
		if _, ok := byAlg[a]; !ok {
			algs = append(algs, a)
		}
		byAlg[a] = append(byAlg[a], r)
	}
	slices.Sort(algs)
	for _, a := range algs {
		row := reqRow{Algorithm: a}
		for _, req := range Requirements() {
			var cell reqCell
			seen := map[string]bool{}
			noLockOnly := true // every run's mark: it takes no lock
			for _, r := range byAlg[a] {
				m := MarkOf(r.R, req)
				noLockOnly = noLockOnly && m.Note == NoteTakesNoLock
				s := m.Showing
				if s == NotShown || seen[r.R.Scenario+string(rune(s))] {
					continue
				}
				seen[r.R.Scenario+string(rune(s))] = true
				rr := reqRun{Name: r.R.Scenario, Link: r.Card.Link, Verdict: string(r.R.Verdict), VerdictWord: tr(lang, "verdict."+string(r.R.Verdict)),
					Showing: markText(lang, r.R, m), Class: markClass(s)}
				cell.Runs = append(cell.Runs, rr)
			}
			need := tr(lang, "req.need.any")
			switch req {
			case ReqFaultTolerance:
				need = tr(lang, "req.need.fault")
			case ReqDeadlockFree:
				need = tr(lang, "req.need.holder")
			}
			var ran []string
			for _, r := range byAlg[a] {
				if !slices.Contains(ran, r.R.Scenario) {
					ran = append(ran, r.R.Scenario)
				}
			}
			var h history.Header // the algorithm's traits, as its runs recorded them
			if len(byAlg[a]) > 0 {
				h = header(byAlg[a][0].R)
			}
			switch {
			case len(cell.Runs) > 0:
			case noLockOnly:
				cell.NA = tr(lang, "req.na", a)
			case req == ReqFaultTolerance && h.KeepsNoKey():
				cell.NA = tr(lang, "req.na.nokey", a) // no node of its own to fail
			case req == ReqDeadlockFree && h.InProcess():
				// Its mutex has no TTL: a struck holder that came back
				// and released shows nothing freeing the lock by itself.
				cell.Empty = tr(lang, "req.inprocess", a)
			case req == ReqLiveness:
				cell.Empty = tr(lang, "req.empty")
			case req == ReqSafety && len(invalidTested(byAlg[a])) > 0:
				// It was tested and broke nothing, but the run failed on
				// another finding: asking for "any fault" of a run that
				// had one was false (reader 7, F13).
				cell.Empty = tr(lang, "req.undecided.invalid", joinAnd(lang, invalidTested(byAlg[a])))
			default:
				// Its runs did not test it (no such fault) or their
				// findings do not tell (an overlap of unknown cause).
				cell.Empty = tr(lang, "req.undecided", joinAnd(lang, ran), a, need)
			}
			row.Cells = append(row.Cells, cell)
		}
		pg.Rows = append(pg.Rows, row)
	}
	t, err := page.Parse("req", suiteCSS+requirementsTemplate, pageFuncs(lang))
	if err != nil {
		return fmt.Errorf("parse requirements template: %w", err)
	}
	return writeTemplate(filepath.Join(outDir, RequirementsFile), t, pg)
}
