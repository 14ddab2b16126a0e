package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/locksim/locksim/internal/report/chart"
	"github.com/locksim/locksim/internal/why"
)

// Write writes the report into dir, which must exist: scenario.yaml (from
// in.ScenarioYAML, when given), results.json, index.html, timeline.png,
// latency.png and, when in.Porcupine is set and the history is small
// enough, history.html. It does not write history.jsonl. It writes every
// file it can and returns the first error met together with the Results.
//
// The history is derived once (leases, faults, lanes) and shared by every
// file; the three PNGs are drawn concurrently with history.html and
// index.html.
func Write(dir string, in Input) (Results, error) {
	return Begin(dir, in).Finish(in.Counterfactuals)
}

// Draft is a report begun before its run's experiments have ended (see
// Begin).
type Draft struct {
	dir  string
	in   Input
	m    *model
	hist historyInfo
	// errs are latency.png's, rate.png's and history.html's errors,
	// written by their goroutines before wg is done.
	errs     [3]error
	histNote string // history.html's error, as its index link says it
	wg       sync.WaitGroup
}

// Begin starts writing run in's report into dir: the files its
// experiments cannot change — latency.png, rate.png and history.html — in
// the background (history.html is drawn while a run's experiments still
// run: gc-pause end to end, issue 27). Finish writes the rest with the
// experiments' outcomes; in.Counterfactuals is not read.
func Begin(dir string, in Input) *Draft {
	in.Lang = normLang(in.Lang)
	d := &Draft{dir: dir, in: in, m: newModel(in.History, in.Account)}
	m := d.m // read-only from here on
	if in.SkipCharts {
		for _, f := range []string{TimelineFile, LatencyFile, RateFile} {
			_ = os.Remove(filepath.Join(dir, f)) // none of an earlier report's
		}
	} else {
		d.draw(0, LatencyFile, func(p string) error { return writeLatency(p, in, m) })
		d.draw(1, RateFile, func(p string) error { return writeRate(p, in, m) })
	}
	d.hist = historyStatus(in, m)
	if d.hist.Written {
		d.wg.Go(func() {
			if err := writeHistoryPage(filepath.Join(dir, HistoryFile), in, m, d.hist); err != nil {
				d.histNote = err.Error()
				d.errs[2] = fmt.Errorf("write %s: %w", HistoryFile, err)
			}
		})
	}
	return d
}

// draw writes the chart file in the background, in one of the process's
// drawing slots, its error into d.errs[i].
func (d *Draft) draw(i int, file string, f func(string) error) {
	slots := *drawSlots.Load()
	d.wg.Go(func() {
		slots <- struct{}{}
		defer func() { <-slots }()
		if err := f(filepath.Join(d.dir, file)); err != nil {
			d.errs[i] = fmt.Errorf("write %s: %w", file, err)
		}
	})
}

// Finish writes the rest of the report — scenario.yaml, results.json,
// timeline.png and index.html — with the run's experiments' outcomes (nil:
// none), waits for what Begin started, and returns the results and every
// file's error. Call it once.
func (d *Draft) Finish(counterfactuals []why.Counterfactual) (Results, error) {
	d.in.Counterfactuals = counterfactuals
	in, m, dir := d.in, d.m, d.dir
	res := buildResults(in, dir, m)
	head := headlineOf(in, m, res.Claims)
	plain := sayText(head)
	say := m.sayWithCauses(in, head, res.Claims)
	res.Headline = sayText(say)
	res.HeadlineShort = m.withCausesShort(in, plain)
	// One drawing for the page's SVG timeline and timeline.png; none when
	// the charts are skipped (a sweep's unremarkable runs: the page says
	// how to draw them), unless a suite's lesson page draws the run beside
	// its pair (KeepDrawing): then the drawing is kept for that page alone
	// and the run's own page still skips its charts.
	var dr, pageDr *chart.Drawing
	if !in.SkipCharts || in.KeepDrawing {
		dr = buildDrawing(in, m, res.HeadlineShort)
		markClaims(dr, res.Claims)
	}
	if !in.SkipCharts {
		pageDr = dr
	}
	if in.KeepDrawing && dr != nil {
		res.drawing = dr.Windowed(chart.MaxSVGShapes, focusOf(in, m))
	}
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
	var timelineErr error
	var wg sync.WaitGroup
	if !in.SkipCharts {
		slots := *drawSlots.Load()
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			if err := chart.WriteTimeline(filepath.Join(dir, TimelineFile), dr); err != nil {
				timelineErr = fmt.Errorf("write %s: %w", TimelineFile, err)
			}
		})
	}
	d.wg.Wait()
	hist := d.hist
	if d.errs[2] != nil {
		hist.Written = false
		hist.Note = d.histNote
	}
	var indexErr error
	if err := writeIndex(filepath.Join(dir, IndexFile), in, m, res, hist, say, pageDr); err != nil {
		indexErr = fmt.Errorf("write %s: %w", IndexFile, err)
	}
	wg.Wait()
	errs = append(errs, timelineErr, d.errs[0], d.errs[1], d.errs[2], indexErr)
	return res, errors.Join(errs...)
}

// drawSlots bounds the charts drawn at once in this process, whatever the
// number of reports being written: LimitDrawing's ceiling, halved while
// runs race their scenario time (RacingRuns); one slot per CPU until then.
var drawSlots atomic.Pointer[chan struct{}]

var drawing struct {
	sync.Mutex
	ceiling, racing int
}

func init() { LimitDrawing(runtime.NumCPU()) }

// LimitDrawing sets how many charts the process draws at once (at least
// one), for the charts started from now on; those already drawing keep
// their slots.
func LimitDrawing(n int) {
	drawing.Lock()
	defer drawing.Unlock()
	drawing.ceiling = max(1, n)
	resizeDrawing()
}

// RacingRuns says runs of this process race their compressed scenario
// time from now until done is called: meanwhile charts take half of
// LimitDrawing's slots (at least one), and leave the other CPUs to the
// runs. Drawing a PNG is CPU-bound.
func RacingRuns() (done func()) {
	drawing.Lock()
	defer drawing.Unlock()
	drawing.racing++
	resizeDrawing()
	return sync.OnceFunc(func() {
		drawing.Lock()
		defer drawing.Unlock()
		drawing.racing--
		resizeDrawing()
	})
}

// resizeDrawing replaces drawSlots for the limit now; drawing held.
func resizeDrawing() {
	n := drawing.ceiling
	if drawing.racing > 0 {
		n = max(1, n/2)
	}
	if c := drawSlots.Load(); c != nil && cap(*c) == n {
		return
	}
	c := make(chan struct{}, n)
	drawSlots.Store(&c)
}
