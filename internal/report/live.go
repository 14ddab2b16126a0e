package report

import (
	"context"
	"html/template"
	"strconv"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// The seam locksim serve draws a run through while the run goes
// (internal/serve uses nothing else of this package's drawing): the same
// drawing model and story as a finished run's report, built from the part
// of the history streamed so far. Kept in one file so that the package's
// split into sub-packages moves it whole.

// LiveView is a run so far, as locksim serve shows it while the run goes.
type LiveView struct {
	// Timeline is the interactive SVG timeline, a <figure> as index.html
	// holds it, for TimelineScript to lay out (its styles:
	// TimelineStyles).
	Timeline template.HTML
	// Story is the story's steps that are true so far, in time order.
	Story []Step
	// Now is the scenario time the history covers so far, seconds.
	Now float64
}

// Live draws h, the history a run has streamed so far (history.Decode of
// the stream: the header, then operations, some of them still open), in
// lang. An open client operation is left out (its outcome is not a fact
// yet); an open fault is drawn up to the history's last instant. The
// findings drawn and told are checker.SoFar's, the ones no later event can
// undo; a story step dated after the last instant is left out (a key's
// deadline still ahead). It computes nothing the report does not.
func Live(ctx context.Context, h history.History, lang Lang) LiveView {
	lang = normLang(lang)
	h = settled(h)
	h.Cut = true // the run goes on: its clients still believe at the end
	a, found := checker.SoFar(ctx, h)
	if a == nil {
		return LiveView{}
	}
	in := Input{History: h, Account: a, Lang: lang,
		Results: []checker.Result{{Checker: "so-far", Verdict: checker.Valid, Anomalies: found}}}
	m := newModel(h, a)
	now := m.sec(m.end)
	d := buildDrawing(in, m, tr(lang, "live.headline", instant(now)))
	d.Title = h.Header.Scenario + " — " + tr(lang, "live.running")
	v := LiveView{Now: now, Timeline: template.HTML(chart.RenderSVG(d.Windowed(chart.MaxSVGShapes, focusOf(in, m)), chart.SVGOptions{}))}
	for _, s := range narrative(in, m) {
		if s.T <= now {
			v.Story = append(v.Story, s)
		}
	}
	return v
}

// settled is h without its client operations still open, renumbered.
func settled(h history.History) history.History {
	ops := make([]history.Op, 0, len(h.Ops))
	for _, o := range h.Ops {
		if o.Complete < 0 && o.F != history.Fault {
			continue
		}
		o.Index = len(ops)
		ops = append(ops, o)
	}
	h.Ops = ops
	return h
}

// TimelineScript is timeline.js, the script that lays out, zooms and pans
// an SVG timeline and shows its tips, for a page that serves it as a file
// (a strict Content-Security-Policy allows no inline script). A figure
// added after the page loaded is laid out with lsmTimeline.attach(figure).
func TimelineScript() string { return chart.TimelineJS }

// TimelineStyles is the SVG timeline's stylesheet, for a page that serves
// it as a file.
func TimelineStyles() string { return chart.TimelineCSS() }

// VerdictWord is the verdict as the pages write it in lang ("INVALID").
func VerdictWord(lang Lang, v checker.Verdict) string {
	return tr(normLang(lang), "verdict."+string(v))
}

// LessonName is the title of a course lesson (42–51) in lang ("Lock
// expiration").
func LessonName(lang Lang, n int) string { return tr(normLang(lang), "lesson."+strconv.Itoa(n)) }
