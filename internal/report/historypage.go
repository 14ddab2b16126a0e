package report

import (
	"bufio"
	"fmt"
	"html/template"
	"os"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/report/page"

	"github.com/anishathalye/porcupine"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
	"github.com/locksim/locksim/internal/workload"
)

// history.html: porcupine's result on the report's own axis — one lane per
// client, named as the run names it, each operation porcupine checked as a
// bar from its call to its return in scenario seconds, solid when it is in
// the longest order porcupine found that keeps one holder at a time and a
// dashed outline when it is not; the faults and the violation windows as
// on the timeline. Every fact is porcupine's (its partial linearizations)
// or the history's.

// linearized is, per history index, the position of the operation in its
// partition's longest partial linearization (from 1); absent when it is
// in none.
func linearized(info porcupine.LinearizationInfo) map[int]int {
	out := map[int]int{}
	for _, part := range info.PartialLinearizationsOperations() {
		var best []porcupine.Operation
		for _, lin := range part {
			if len(lin) > len(best) {
				best = lin
			}
		}
		for i, op := range best {
			if in, ok := op.Input.(checker.LeaseInput); ok {
				out[in.Index] = i + 1
			}
		}
	}
	return out
}

// linState is porcupine's verdict on the operations history.html draws.
type linState int

const (
	// linUnsure: no verdict known (porcupine timed out, or none is
	// recorded): the drawing's own orders decide.
	linUnsure linState = iota
	linValid
	linInvalid
)

// linOf is the linearizable checker's verdict among results.
func linOf(results []checker.Result) linState {
	for _, r := range results {
		if r.Checker != checker.CheckerLinearizable {
			continue
		}
		switch r.Verdict {
		case checker.Valid:
			return linValid
		case checker.Invalid:
			return linInvalid
		}
	}
	return linUnsure
}

// historyDrawing draws the porcupine operations of in (its model m) with
// info's linearizations; lin is porcupine's verdict on them. Its
// headline follows that verdict: a linearizable history whose longest
// order leaves out operations of unknown outcome says so, not that no
// order was found (watchdog-orphan-unlock-lost: w1's unanswered release
// was left out of a valid order; a fresh reader, issue 27).
func historyDrawing(in Input, m *model, info porcupine.LinearizationInfo, lin linState, order map[int]int) *chart.Drawing {
	lang := normLang(in.Lang)
	h := in.History.Header
	end := max(m.sec(m.end), 1e-3)
	d := &chart.Drawing{Say: sayer(lang), Comma: commaIn(lang), Title: tr(lang, "hist.title", h.Scenario), End: end}
	b := &builder{m: m, in: in, lang: lang, d: d, lane: map[string]int{}, res: map[string]int{}, legend: map[string]bool{}}
	_, ops := checker.Porcupine(in.History)
	has := map[string]bool{}
	for _, o := range ops {
		if li, ok := o.Input.(checker.LeaseInput); ok {
			has[li.Client] = true
		}
	}
	for i, c := range m.clients {
		if has[c] {
			b.lane[c] = len(d.Lanes)
			d.Lanes = append(d.Lanes, chart.Lane{Kind: chart.LaneClient, Name: c, Label: c, Color: i})
		}
	}
	if len(d.Lanes) == 0 {
		d.Lanes = append(d.Lanes, chart.Lane{Kind: chart.LaneClient, Name: "", Label: "", Color: -1})
	}
	b.bands()
	b.faults()
	pos := order // the checker's (checker.Linearization.Order)
	if pos == nil {
		pos = linearized(info)
	}
	free := freeModel(in.History)
	// Operations by their Index (a window keeps its ops' indices in the
	// whole history).
	at := make(map[int]int, len(in.History.Ops))
	for i, o := range in.History.Ops {
		at[o.Index] = i
	}
	out := 0
	var left []history.Op // the operations out of the longest order
	for _, o := range ops {
		li, ok := o.Input.(checker.LeaseInput)
		j, found := at[li.Index]
		if !ok || !found {
			continue
		}
		op := in.History.Ops[j]
		lane := b.laneOf(op.Client)
		if lane < 0 {
			continue
		}
		s, e := m.sec(op.Invoke), m.sec(opEnd(op, m.end))
		if e-s < end*0.002 {
			e = s + end*0.002
		}
		sub, fact := chart.OpIn, tr(lang, "hist.in", pos[li.Index], op.Key)
		if _, ok := pos[li.Index]; !ok {
			sub, fact, out = chart.OpOut, tr(lang, pick(free == "", "hist.out", "hist.out.free"), op.Key), out+1
			left = append(left, op)
		}
		tip := tr(lang, "hist.op", b.at(op.Invoke), b.at(opEnd(op, m.end)), op.Client, opWords(lang, m, op), outcomeWord(lang, op)) + "\n" + fact
		b.shape(chart.Shape{Kind: chart.ShOp, Sub: sub, Lane: lane, Lane2: lane, X0: s, X1: e, Y0: -0.22, Y1: 0.22, Color: m.laneOf(op.Client), Tip: tip, Op: j + 1})
		b.label(chart.Label{Lane: lane, X: s, Dy: -0.38, Text: opShort(lang, op), Style: chart.LbSmall, Width: max(e-s, end*0.04), Prio: chart.PrKey, Pin: true})
	}
	d.Headline = historyHeadline(lang, m, free, lin, left)
	b.pauses()
	b.legendOnce("op:in", chart.Legend{Kind: chart.ShOp, Sub: chart.OpIn, Color: 0, Text: tr(lang, "hist.legend.in")})
	if out > 0 {
		b.legendOnce("op:out", chart.Legend{Kind: chart.ShOp, Sub: chart.OpOut, Color: 0, Text: tr(lang, "hist.legend.out")})
	}
	return d
}

// historyHeadline is history.html's verdict: porcupine's (lin), or,
// when none is known, linearizable when its longest orders hold every
// operation; of a linearizable history whose orders leave out the
// operations left, which they are (an operation of unknown outcome may
// be left out). free is why the model has no one-holder rule ("": it has).
func historyHeadline(lang Lang, m *model, free string, lin linState, left []history.Op) string {
	if lin == linUnsure {
		lin = linValid
		if len(left) > 0 {
			lin = linInvalid
		}
	}
	key := pick(lin == linInvalid, "hist.verdict.bad", pick(len(left) > 0, "hist.verdict.ok.part", "hist.verdict.ok"))
	if free != "" {
		// The model checked no one-holder rule: say what it checked
		// (reader 4, findings 5 and 17: "keeps one lock holder at a time"
		// of a semaphore of two permits and of a run with no lock).
		key += ".free"
	}
	s := tr(lang, key)
	if free != "" {
		s = tr(lang, key, tr(lang, free))
	}
	if lin == linInvalid || len(left) == 0 {
		return s
	}
	unknown := !slices.ContainsFunc(left, func(o history.Op) bool { return o.Type != history.Info })
	switch {
	case !unknown:
		return s + " " + tr(lang, "hist.left", len(left))
	case len(left) > 3:
		return s + " " + tr(lang, "hist.left.unknown.n", len(left))
	}
	var ops []string
	for _, o := range left {
		ops = append(ops, tr(lang, "hist.left.op", o.Client, opWords(lang, m, o)))
	}
	return s + " " + tr(lang, "hist.left.unknown", joinAnd(lang, ops))
}

// freeModel is why porcupine's lease model (workload.LeaseModel) has no
// one-holder rule for h's keys, as the message of its reason: no lock
// ops (a lock-free run), or a lock that is advisory for the resource (a
// semaphore's permits, an efficiency lock); "" when it has the rule.
func freeModel(h history.History) string {
	kind := workload.Of(h.Header)
	switch {
	case slices.Contains(h.Header.Traits, history.TraitLockFree) || h.Header.NoLock():
		return "hist.free.nolock"
	case kind.Permits:
		return "hist.free.permits"
	case kind.Efficiency:
		return "hist.free.efficiency"
	}
	return ""
}

// outcomeWord is how an operation ended, in words: an ok acquire, renewal
// or probe was granted, an ok write accepted, another ok operation done
// (reader 4, finding 15: "granted or done").
func outcomeWord(lang Lang, o history.Op) string {
	if o.Type == history.OK && hasMessage("outcome.ok."+string(o.F)) {
		return tr(lang, "outcome.ok."+string(o.F))
	}
	return tr(lang, "outcome."+string(o.Type))
}

// opWords is an operation in words: "acquire of invoice-1 (owner token
// 2e5a3c5a)", "charge of invoice-1 with token 3", a leader's "lead of
// leader with epoch 2" where the lock issues no token.
func opWords(lang Lang, m *model, o history.Op) string {
	h := m.h.Header
	what := tr(lang, "hist.f."+string(o.F))
	if o.F == history.Write && o.Value.Action != "" {
		what = actionLegendWord(lang, o.Value.Action)
	}
	s := tr(lang, "hist.of", what, o.Key)
	switch {
	case o.Value.Fence > 0:
		s += tr(lang, pick(h.LockFences(), "n.with.token", "n.with.epoch"), o.Value.Fence)
	case o.Value.Token != "":
		s += " (" + tr(lang, "n.token.owner", m.shortToken(o.Value.Token)) + ")"
	}
	return s
}

// opShort is an operation's label on its bar: "acquire ✓", "charge ✗".
func opShort(lang Lang, o history.Op) string {
	what := tr(lang, "hist.f."+string(o.F))
	if o.F == history.Write && o.Value.Action != "" {
		what = actionLegendWord(lang, o.Value.Action)
	}
	switch o.Type {
	case history.OK:
		return what + " ✓"
	case history.Fail:
		return what + " ✗"
	}
	return what + " ?"
}

// historyPageDrawing is history.html's drawing of in (a window of it,
// re-checked, when hist has one), its headline porcupine's verdict: the
// linearizable checker's of the whole run.
func historyPageDrawing(in Input, m *model, hist historyInfo) *chart.Drawing {
	info, order := in.Porcupine.Info, in.Porcupine.Order
	lin := linOf(in.Results)
	if hist.Window != nil {
		order = nil // the window's own check
		model, ops := checker.Porcupine(*hist.Window)
		var res porcupine.CheckResult
		res, info = porcupine.CheckOperationsVerbose(model, ops, 0)
		lin = map[porcupine.CheckResult]linState{porcupine.Ok: linValid, porcupine.Illegal: linInvalid}[res]
		in.History = *hist.Window
		m = newModel(in.History, nil) // the window's own account: its op indices are its own
	}
	return historyDrawing(in, m, info, lin, order)
}

// writeHistoryPage writes history.html: the drawing above, in the page's
// language, self-contained like index.html.
// historyHow is history.html's reading guide: how the bars read and, where
// the model keeps one lease holder at a time, that a grant hands the lease
// on (so grants may follow one another in an order: a fresh reader took
// three grants in a row for three holders in the order, issue 27).
func historyHow(lang Lang, h history.History) string {
	how := tr(lang, "hist.how")
	if freeModel(h) == "" {
		how += " " + tr(lang, "hist.model")
	}
	return how
}

func writeHistoryPage(path string, in Input, m *model, hist historyInfo) error {
	lang := normLang(in.Lang)
	d := historyPageDrawing(in, m, hist)
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create history page: %w", err)
	}
	w := bufio.NewWriterSize(f, 64<<10)
	esc := template.HTMLEscapeString
	if err := page.WriteHead(w, string(lang), d.Title); err != nil {
		f.Close()
		return fmt.Errorf("write history page: %w", err)
	}
	fmt.Fprintf(w, "<style>body{font-family:\"Liberation Sans\",Arial,sans-serif;font-size:20px;line-height:1.45;color:#111;max-width:1500px;margin:0 auto;padding:24px 32px}h1{font-size:32px;margin:0 0 8px}.say{font-size:24px;font-weight:700}.desc{color:#444}</style>\n<style>%s</style>\n</head>\n<body>\n", chart.TimelineCSS())
	fmt.Fprintf(w, "<h1>%s</h1>\n<p class=\"say\" id=\"porcupine-verdict\">%s</p>\n<p class=\"desc\">%s</p>\n", esc(d.Title), esc(d.Headline), esc(historyHow(lang, in.History)))
	if hist.Note != "" {
		fmt.Fprintf(w, "<p class=\"desc\" id=\"history-window\">%s</p>\n", esc(hist.Note))
	}
	w.WriteString(chart.RenderSVG(d.Windowed(MaxPorcupineOps*2, focusOf(in, m)), chart.SVGOptions{}))
	fmt.Fprintf(w, "<p><a href=\"index.html\">%s</a></p>\n<script>%s</script>\n</body>\n</html>\n", esc(tr(lang, "hist.back")), strings.ReplaceAll(chart.TimelineJS, "</", "<\\/"))
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write history page: %w", err)
	}
	return f.Close()
}
