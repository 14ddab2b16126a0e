package report

import (
	"path/filepath"
	"strings"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/why"
)

// The run's causes by experiment (package why, issue 27): the report
// tells the counterfactual runs it was given, their verdicts and
// reproduce lines, and infers nothing of its own — a fault is named
// necessary only when the same seed without it was valid.

// withCauses is the headline followed by what the experiments found: the
// faults without which the same seed is valid, each with its reproduce
// line, and how the first of them did at half its length; or, when every
// fault was tried and none alone was necessary, that. Nothing for a run
// that is not invalid or had no experiments.
func (m *model) withCauses(in Input, headline string) string {
	return m.joinCauses(in, headline, true)
}

// withCausesShort is withCauses without the experiments' reproduce
// commands (their long paths), for a picture's title: the page beside it
// has them.
func (m *model) withCausesShort(in Input, headline string) string {
	return m.joinCauses(in, headline, false)
}

func (m *model) joinCauses(in Input, headline string, commands bool) string {
	s := m.causes(normLang(in.Lang), in, commands)
	if s == "" {
		return headline
	}
	return headline + " " + s
}

// causes tells the necessary faults, each with its experiment's reproduce
// command when commands is true.
func (m *model) causes(lang Lang, in Input, commands bool) string {
	if in.Verdict != checker.Invalid || len(in.Counterfactuals) == 0 {
		return ""
	}
	var necessary []string
	var first *why.Counterfactual
	tried, stillInvalid := 0, 0
	for i, c := range in.Counterfactuals {
		if c.Change != why.Without {
			continue
		}
		tried++
		switch {
		case c.Necessary():
			item := m.stepPhrase(lang, c.Step)
			if commands {
				item = tr(lang, "why.item", item, c.Reproduce)
			}
			necessary = append(necessary, item)
			if first == nil {
				first = &in.Counterfactuals[i]
			}
		case c.Verdict == checker.Invalid:
			stillInvalid++
		}
	}
	switch {
	case len(necessary) > 0:
		s := tr(lang, "why.without", strings.Join(necessary, tr(lang, "why.or")))
		if h, ok := m.halfOf(in.Counterfactuals, first.Step); ok && h.Verdict != "" {
			st, _ := m.step(first.Step)
			whole, _ := why.Halved(st)
			if commands {
				s += " " + tr(lang, "why.half", fmtDur(m.sec(h.ValueNS)), fmtDur(m.sec(2*whole)), tr(lang, "why.verdict."+string(h.Verdict)), h.Reproduce)
			} else {
				s += " " + tr(lang, "why.half.short", fmtDur(m.sec(h.ValueNS)), fmtDur(m.sec(2*whole)), tr(lang, "why.verdict."+string(h.Verdict)))
			}
		}
		return s
	case tried > 0 && stillInvalid == tried:
		return tr(lang, "why.none")
	}
	return ""
}

// halfOf is the experiment that halved step id, when there is one.
func (m *model) halfOf(cs []why.Counterfactual, id int) (why.Counterfactual, bool) {
	for _, c := range cs {
		if c.Change == why.Half && c.Step == id {
			return c, true
		}
	}
	return why.Counterfactual{}, false
}

// stepPhrase names a plan step for a reader: whose fault, which, and when
// it fired ("w1's GC pause at t=5.1s"), or when it was planned to fire.
func (m *model) stepPhrase(lang Lang, id int) string {
	st, ok := m.step(id)
	if !ok {
		return tr(lang, "why.step", id)
	}
	targets := joinAnd(lang, targetsOf(st))
	for _, w := range m.faults {
		if w.Step.ID == id {
			from, _ := w.Active()
			return tr(lang, "why.fault", targets, faultWord(lang, st), fmtT(m.sec(from)))
		}
	}
	return tr(lang, "why.fault.when", targets, faultWord(lang, st), m.whenText(lang, st.Trigger))
}

// whyRow is one experiment in the page's "Causes by experiment" section.
type whyRow struct {
	Change, Verdict, VerdictWord, Kinds, Meaning, Reproduce, Report string
}

// whySection is the page's section of the run's experiments; nil when it
// had none. dir is the report's directory (links are relative to it).
func (m *model) whySection(lang Lang, in Input, dir string) []whyRow {
	var rows []whyRow
	for _, c := range in.Counterfactuals {
		var kinds []string
		for _, k := range c.Kinds {
			kinds = append(kinds, m.kindWord(lang, k))
		}
		r := whyRow{Reproduce: c.Reproduce, Kinds: strings.Join(kinds, ", "), Verdict: string(c.Verdict)}
		switch c.Change {
		case why.Without:
			r.Change = tr(lang, "why.change.without", m.stepPhrase(lang, c.Step))
			switch c.Verdict {
			case checker.Valid:
				r.Meaning = tr(lang, "why.necessary")
			case checker.Invalid:
				r.Meaning = tr(lang, "why.notnecessary")
			}
		case why.Half:
			r.Change = tr(lang, "why.change.half", m.stepPhrase(lang, c.Step), fmtDur(m.sec(c.ValueNS)))
		case why.FixedBy:
			r.Change = tr(lang, "why.change.fix", c.Name)
		}
		if c.Verdict == "" {
			r.Verdict, r.VerdictWord = "none", tr(lang, "why.noverdict", c.Error)
		} else {
			r.VerdictWord = tr(lang, "verdict."+string(c.Verdict))
		}
		if c.Verdict == checker.Unknown {
			r.Meaning = tr(lang, "why.undecided")
		}
		if c.Report != "" {
			if rel, err := relLink(dir, filepath.Join(c.Report, IndexFile)); err == nil {
				r.Report = rel
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// fixedRun is the remedy's sentence on its fixed_by file's run with the
// same faults and seed, and the id of its claim among cs (the run's
// claims: an Experiment claim, why.Claims); "" when there was none or it
// got no verdict.
func fixedRun(lang Lang, in Input, cs []claim.Claim) (string, string) {
	for _, c := range in.Counterfactuals {
		if c.Change == why.FixedBy && c.Verdict != "" {
			e, _ := claim.Find(cs, func(e claim.Claim) bool {
				return e.Kind == claim.Experiment && e.What == string(why.FixedBy) && e.How == string(c.Verdict)
			})
			return tr(lang, "why.fix."+string(c.Verdict), c.Name, c.Reproduce), e.ID
		}
	}
	return "", ""
}
