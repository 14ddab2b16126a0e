package report

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
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
	s := sayText(m.causes(normLang(in.Lang), in, commands, nil))
	if s == "" {
		return headline
	}
	return headline + " " + s
}

// sayWithCauses is the page's headline: the sentences of head, then the
// experiments' (causes), each with the claim it renders (cs are the run's
// numbered claims).
func (m *model) sayWithCauses(in Input, head []said, cs []claim.Claim) []said {
	return append(slices.Clone(head), m.causes(normLang(in.Lang), in, true, cs)...)
}

// causes tells the necessary faults, each with its experiment's reproduce
// command when commands is true: a sentence naming them, rendered from
// their experiments' claims (among cs, why.Claims; none when cs is nil),
// and one of the first one's experiment at half its length.
func (m *model) causes(lang Lang, in Input, commands bool, cs []claim.Claim) []said {
	if in.Verdict != checker.Invalid || len(in.Counterfactuals) == 0 {
		return nil
	}
	var necessary, tried []string
	var claims []string // the necessary experiments' claims
	var names []string  // the necessary faults, each by whose and which (why.fault.short)
	var first *why.Counterfactual
	stillInvalid, decided := 0, 0
	expClaim := map[int]string{} // counterfactual → its Experiment claim
	for i, c := range in.Counterfactuals {
		if c.Verdict != "" {
			expClaim[i] = nthClaim(cs, claim.Experiment, decided)
			decided++
		}
	}
	for i, c := range in.Counterfactuals {
		if c.Change != why.Without {
			continue
		}
		tried = append(tried, expClaim[i])
		switch {
		case c.Necessary():
			item := m.stepPhrase(lang, c.Step)
			if commands {
				item = tr(lang, "why.item", item, c.Reproduce)
			}
			necessary = append(necessary, item)
			names = append(names, m.stepName(lang, c.Step))
			claims = append(claims, expClaim[i])
			if first == nil {
				first = &in.Counterfactuals[i]
			}
		case c.Verdict == checker.Invalid:
			stillInvalid++
		}
	}
	switch {
	case len(necessary) > 0:
		out := []said{{Text: tr(lang, "why.without", strings.Join(necessary, tr(lang, "why.or"))), Claim: joinIDs(claims)}}
		// The first fault at half its length: "it" when the sentence
		// before named it alone, else its name (w1's host sleep), with its
		// time when another fault named has the same name. An experiment
		// the machine spoiled (unknown) tells nothing of the cause: only
		// the experiments table shows it, with its reason (teacher 3, F11).
		fault := ""
		if len(names) > 1 {
			fault = names[0]
			if slices.Contains(names[1:], names[0]) {
				fault = m.stepPhrase(lang, first.Step)
			}
		}
		for i, h := range in.Counterfactuals {
			if h.Change != why.Half || h.Step != first.Step {
				continue
			}
			if h.Verdict == "" || h.Verdict == checker.Unknown {
				break
			}
			st, _ := m.step(first.Step)
			whole, _ := why.Halved(st)
			out = append(out, said{Text: m.halfSentence(lang, fault, h, 2*whole, commands), Claim: expClaim[i]})
			break
		}
		return out
	case len(tried) > 0 && stillInvalid == len(tried):
		return []said{{Text: tr(lang, "why.none"), Claim: joinIDs(tried)}}
	}
	return nil
}

// halfSentence tells the experiment h, a fault at half its length
// (whole, wall ns, the run's length of it): of "it" when fault is "", else
// of fault; with its reproduce command when commands is true.
func (m *model) halfSentence(lang Lang, fault string, h why.Counterfactual, whole int64, commands bool) string {
	key, args := "why.half", []any{span(m.sec(h.ValueNS)), span(m.sec(whole)), tr(lang, "why.verdict."+string(h.Verdict))}
	if fault != "" {
		key, args = "why.half.named", append([]any{fault}, args...)
	}
	if !commands {
		return tr(lang, key+".short", args...)
	}
	return tr(lang, key, append(args, h.Reproduce)...)
}

// stepName names a plan step by whose fault and which ("w1's host
// sleep"), without when: stepPhrase with its time.
func (m *model) stepName(lang Lang, id int) string {
	st, ok := m.step(id)
	if !ok {
		return tr(lang, "why.step", id)
	}
	return faultOf(lang, st)
}

// faultOf names a plan step's fault with whose it is, as a noun: "w1's
// client crash" (why.fault.short), or a language's own form for the fault,
// "whose.<fault>" (Vietnamese "lần crash của client w1": its fault words,
// "client bị crash", are clauses, which "X của w1" cannot follow; teacher9
// F1).
func faultOf(lang Lang, st history.FaultStep) string {
	targets := joinAnd(lang, targetsOf(st))
	if key := "whose." + strings.TrimPrefix(causeKey("fault."+st.Kind, st), "fault."); hasOwn(lang, key) {
		return tr(lang, key, targets)
	}
	return tr(lang, "why.fault.short", targets, faultWord(lang, st))
}

// hasOwn reports whether lang's own table has key.
func hasOwn(lang Lang, key string) bool {
	_, ok := messages[normLang(lang)][key]
	return ok
}

// joinIDs is claim ids as data-claim has them: space-separated, the
// empty ones left out.
func joinIDs(ids []string) string {
	return strings.Join(slices.DeleteFunc(slices.Clone(ids), func(s string) bool { return s == "" }), " ")
}

// stepPhrase names a plan step for a reader: whose fault, which, and when
// it fired ("w1's GC pause at t=5.1s"), or when it was planned to fire.
func (m *model) stepPhrase(lang Lang, id int) string {
	st, ok := m.step(id)
	if !ok {
		return tr(lang, "why.step", id)
	}
	for _, w := range m.faults {
		if w.Step.ID == id {
			from, _ := w.Active()
			return tr(lang, "why.fault", faultOf(lang, st), instant(m.sec(from)))
		}
	}
	return tr(lang, "why.fault.when", faultOf(lang, st), m.whenText(lang, st.Trigger))
}

// whyRow is one experiment in the page's "Causes by experiment" section.
type whyRow struct {
	Change, Verdict, VerdictWord, Kinds, Meaning, Reproduce, Report string
	Claim                                                           string // the experiment's claim
}

// whySection is the page's section of the run's experiments; nil when it
// had none. dir is the report's directory (links are relative to it); cs
// the run's numbered claims (an experiment with a verdict has one).
func (m *model) whySection(lang Lang, in Input, dir string, cs []claim.Claim) []whyRow {
	var rows []whyRow
	decided := 0
	for _, c := range in.Counterfactuals {
		r := whyRow{Reproduce: c.Reproduce, Kinds: m.experimentKinds(lang, c), Verdict: string(c.Verdict)}
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
			r.Change = tr(lang, "why.change.half", m.stepPhrase(lang, c.Step), span(m.sec(c.ValueNS)))
		case why.FixedBy:
			r.Change = tr(lang, "why.change.fix", c.Name)
		case why.FixedByOwn:
			// Its faults as its claim states them; one with no verdict
			// has no claim, and is told by its own record.
			e := claim.Claim{Steps: c.Lacks, Changed: c.Changed}
			if c.Verdict != "" {
				e, _ = claim.Find(cs, func(e claim.Claim) bool { return e.ID == nthClaim(cs, claim.Experiment, decided) })
			}
			r.Change = tr(lang, "why.change.fix.own", c.Name, m.fixFaults(lang, e))
		}
		if c.Verdict == "" {
			r.Verdict, r.VerdictWord = "none", tr(lang, "why.noverdict", c.Error)
		} else {
			r.VerdictWord = tr(lang, "verdict."+string(c.Verdict))
			r.Claim = nthClaim(cs, claim.Experiment, decided)
			decided++
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
// same seed — with the run's faults (why.FixedBy) or its own
// (why.FixedByOwn) — and the id of its claim among cs (the run's claims:
// an Experiment claim, why.Claims); "" when there was none or it got no
// verdict.
func (m *model) fixedRun(lang Lang, in Input, cs []claim.Claim) (string, string) {
	for _, c := range in.Counterfactuals {
		if (c.Change != why.FixedBy && c.Change != why.FixedByOwn) || c.Verdict == "" {
			continue
		}
		e, _ := claim.Find(cs, func(e claim.Claim) bool {
			return e.Kind == claim.Experiment && e.What == string(c.Change) && e.How == string(c.Verdict)
		})
		// A valid fix whose run accepted no protected write shows no harm
		// done, not a write made safe (extend-after-expiry-deadline: its
		// holder was still inside its job when the run ended).
		none := ""
		if e.How == string(finding.Valid) && e.Num != nil && *e.Num == 0 { // its claim's count, not the record's
			none = " " + tr(lang, "why.fix.noeffect", tr(lang, "wl.write."+in.History.Header.Workload))
		}
		if c.Verdict == checker.Invalid && len(e.Kinds) > 0 {
			return m.fixStillInvalid(lang, in, c, e), e.ID
		}
		if c.Change == why.FixedByOwn {
			return tr(lang, "why.fixown."+string(c.Verdict), c.Name, m.fixFaults(lang, e), c.Reproduce) + m.fired(lang, e) + none, e.ID
		}
		return tr(lang, "why.fix."+string(c.Verdict), c.Name, c.Reproduce) + none, e.ID
	}
	return "", ""
}

// fired says, from a fix's experiment claim e, how each step the fix
// changed fired in its run (e.Fired): when, and where its client stood —
// a crash after the acquire returned is not the run's crash inside it
// (reader 2, finding 3). "" when the claim says none.
func (m *model) fired(lang Lang, e claim.Claim) string {
	var out string
	for _, f := range e.Fired {
		st, ok := m.step(f.Step)
		if !ok {
			continue
		}
		what := faultOf(lang, st)
		at := instant(f.AtS)
		// A fault the fix's plan makes last to the end of its run (a
		// clock rate) covered every hold from then on: where its client
		// stood when it began says nothing of whether it met the lock
		// (reader 14, client-clock-skew-safe).
		lasting := st.UntilEnd
		for _, ch := range e.Changed {
			if ch.Step == f.Step {
				lasting = ch.To.UntilEnd
			}
		}
		switch {
		case f.Client == "":
			out += " " + tr(lang, "why.fired.node", what, at)
		case lasting:
			out += " " + tr(lang, "why.fired.lasting", what, at, f.Client)
		case f.State == claim.Holding:
			out += " " + tr(lang, "why.fired.holding", what, at, f.Client)
		case f.State == claim.Acquiring:
			out += " " + tr(lang, "why.fired.acquiring", what, at, f.Client)
		default:
			out += " " + tr(lang, "why.fired.idle", what, at, f.Client)
		}
	}
	return out
}

// fixStillInvalid is the remedy's sentence on a fix's experiment c that
// came out invalid, from its claim e: the kinds it still showed, and
// those of the run's it no longer showed when there are some (a partial
// fix: redis-semaphore 5.3.1 made no double charge but still let two
// holders overlap; the page had called it "made harmless", then "still
// invalid"; fresh reader, issue 34).
func (m *model) fixStillInvalid(lang Lang, in Input, c why.Counterfactual, e claim.Claim) string {
	words := func(kinds []string) string {
		ws := make([]string, len(kinds))
		for i, k := range kinds {
			ws[i] = m.kindWord(lang, k)
		}
		return joinAnd(lang, ws)
	}
	gone, left := fixKinds(in, e)
	faults := tr(lang, "why.fixfaults.same")
	if c.Change == why.FixedByOwn {
		faults = m.fixFaults(lang, e)
	}
	if len(gone) > 0 {
		return tr(lang, "why.fix.partial", c.Name, faults, words(gone), words(left), c.Reproduce)
	}
	return tr(lang, "why.fix.invalid.kinds", c.Name, faults, words(left), c.Reproduce)
}

// fixFaults names the faults a fix with faults of its own ran with, as
// its experiment's claim e states them: the run's without the steps it
// lacks (e.Steps) and with the steps it changed (e.Changed) told with
// what changed, or only that they are its own.
func (m *model) fixFaults(lang Lang, e claim.Claim) string {
	var steps, changes []string
	for _, id := range e.Steps {
		steps = append(steps, m.stepPhrase(lang, id))
	}
	for _, c := range e.Changed {
		if st, ok := m.step(c.Step); ok {
			changes = append(changes, m.stepPhrase(lang, c.Step)+" "+m.stepChange(lang, st, c.To))
		}
	}
	switch {
	case len(steps) > 0 && len(changes) > 0:
		return tr(lang, "why.fixfaults.lacks.changed", joinAnd(lang, steps), joinAnd(lang, changes))
	case len(changes) > 0:
		return tr(lang, "why.fixfaults.changed", joinAnd(lang, changes))
	case len(steps) > 0:
		return tr(lang, "why.fixfaults.lacks", joinAnd(lang, steps))
	}
	return tr(lang, "why.fixfaults.own")
}

// stepChange says what a fix's step to changed of the run's step from: its
// length, rate, clock delta or latency with both values, any other field
// by its name as a scenario's faults write it.
func (m *model) stepChange(lang Lang, from, to history.FaultStep) string {
	var out, other []string
	dur := func(ns int64) span { return span(m.sec(ns)) }
	if from.Duration != to.Duration {
		out = append(out, tr(lang, "why.changed.duration", dur(to.Duration), dur(from.Duration)))
	}
	if from.Rate != to.Rate {
		out = append(out, tr(lang, "why.changed.rate", number(to.Rate), number(from.Rate)))
	}
	if from.Delta != to.Delta {
		out = append(out, tr(lang, "why.changed.delta", dur(to.Delta), dur(from.Delta)))
	}
	if from.Latency != to.Latency {
		out = append(out, tr(lang, "why.changed.latency", dur(to.Latency), dur(from.Latency)))
	}
	// The other fields, named as the history's step writes them.
	a, b := from, to
	a.ID, b.ID = 0, 0
	a.Duration, a.Rate, a.Delta, a.Latency = b.Duration, b.Rate, b.Delta, b.Latency
	var ma, mb map[string]any
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	_ = json.Unmarshal(ja, &ma)
	_ = json.Unmarshal(jb, &mb)
	for _, k := range slices.Sorted(maps.Keys(mergeKeys(ma, mb))) {
		if !reflect.DeepEqual(ma[k], mb[k]) {
			other = append(other, strings.TrimSuffix(k, "_ns"))
		}
	}
	if len(other) > 0 {
		out = append(out, tr(lang, "why.changed.other", joinAnd(lang, other)))
	}
	return joinAnd(lang, out)
}

// mergeKeys is the union of a's and b's keys.
func mergeKeys(a, b map[string]any) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// experimentKinds is an experiment row's Anomalies cell: its violation
// kinds, then its informational ones as such (an overlap the checker
// judged harmless is no "nothing happened": readers' findings 4 and 11,
// issue 27); "" when it had neither.
func (m *model) experimentKinds(lang Lang, c why.Counterfactual) string {
	var kinds, info []string
	for _, k := range c.Kinds {
		kinds = append(kinds, m.kindWord(lang, k))
	}
	for _, k := range c.InfoKinds {
		info = append(info, m.kindWord(lang, k))
	}
	switch {
	case len(info) == 0:
		return strings.Join(kinds, ", ")
	case len(kinds) == 0:
		return tr(lang, "why.kinds.info.only", strings.Join(info, ", "))
	}
	return tr(lang, "why.kinds.info", strings.Join(kinds, ", "), strings.Join(info, ", "))
}
