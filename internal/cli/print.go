package cli

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"text/tabwriter"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/suite"
)

// progress shows how far a suite is: a progress bar on a terminal, one
// line per finished run otherwise. It is also the log writer, so that log
// lines do not tear the bar.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	tty     bool
	bar     *progressbar.ProgressBar
	done    int
	invalid int
	reruns  int
}

func newProgress(stderr io.Writer) *progress {
	p := &progress{w: stderr}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
	}
	return p
}

// Write writes a log line above the bar.
func (p *progress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Clear()
	}
	n, err := p.w.Write(b)
	if p.bar != nil {
		_ = p.bar.RenderBlank()
	}
	return n, err
}

func (p *progress) start(total int) {
	if !p.tty || total < 2 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("runs · 0 invalid · 0 rerun"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
	)
	_ = p.bar.RenderBlank()
}

// finished counts a finished run: a rerun of a run the machine spoiled
// (o.Retry > 0) adds one to the total. The line shows how many runs the
// pool let go at once when it started (its adaptive level).
func (p *progress) finished(o suite.Outcome, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if o.Retry > 0 {
		p.reruns++
	}
	if o.Results != nil && o.Results.Verdict == checker.Invalid {
		p.invalid++
	}
	if p.bar != nil {
		if o.Retry > 0 {
			p.bar.ChangeMax(p.bar.GetMax() + 1)
		}
		p.bar.Describe(fmt.Sprintf("runs · %d invalid · %d rerun · %d at once", p.invalid, p.reruns, o.Parallel))
		_ = p.bar.Add(1)
		return
	}
	if total < 2 && o.Retry == 0 {
		// A single run's verdict line is the summary (stdout) or its
		// results object (--json); "[1/1]" would say it twice (issue 31).
		// A rerun of it says so.
		return
	}
	again := ""
	if o.Retry > 0 {
		again = fmt.Sprintf(" (rerun %d)", o.Retry)
	}
	fmt.Fprintf(p.w, "[%d/%d, %d at once]%s %s\n", p.done, total+p.reruns, o.Parallel, again, o.Line())
}

func (p *progress) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
		_ = p.bar.Clear()
		p.bar = nil
	}
}

// verdictCell is the verdict column of the summary.
func verdictCell(o suite.Outcome) string {
	switch {
	case o.Results != nil && o.Aborted:
		return string(o.Results.Verdict) + " (aborted)"
	case o.Results != nil:
		return string(o.Results.Verdict)
	case o.Aborted:
		return "aborted"
	default:
		return "ERROR"
	}
}

// metCell is the "met" column: yes, NO, or - without an expectation.
func metCell(o suite.Outcome) string {
	if o.Results == nil || o.Results.ExpectationMet == nil {
		if o.Results == nil && !o.Aborted {
			return "NO"
		}
		return "-"
	}
	if *o.Results.ExpectationMet {
		return "yes"
	}
	return "NO"
}

// printSummary prints the summary table, the violation rates of sweeps and
// the runs that need attention.
func printSummary(w io.Writer, outs []suite.Outcome, sweep bool) {
	// One run: one line, verdict first, then the report's path.
	if len(outs) == 1 && outs[0].Results != nil {
		fmt.Fprintln(w, suite.SummaryLine(*outs[0].Results))
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tSEED\tVERDICT\tEXPECTED\tMET\tWALL\tREPORT")
	for _, o := range outs {
		expect, rep := o.Scenario.Expect.Verdict, "-"
		if expect == "" {
			expect = "-"
		}
		if o.Results != nil {
			rep = filepath.Join(o.Results.ReportDir, report.IndexFile)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%.2fs\t%s\n", o.Scenario.Name, o.Seed, verdictCell(o), expect, metCell(o), o.Wall.Seconds(), rep)
	}
	_ = tw.Flush()
	if sweep {
		fmt.Fprintln(w)
		for _, l := range suite.SweepLines(outs) {
			fmt.Fprintln(w, l)
		}
	}
	var bad []string
	for _, o := range outs {
		r := o.Results
		switch {
		case r == nil && !o.Aborted:
			bad = append(bad, fmt.Sprintf("ERROR %s seed %d: %s", o.Scenario.Name, o.Seed, suite.FirstLine(o.Err)))
		case r != nil && r.ExpectationMet != nil && !*r.ExpectationMet && !o.Aborted:
			line := fmt.Sprintf("NOT MET %s seed %d: expected %s, got %s", o.Scenario.Name, o.Seed, r.Expect, r.Verdict)
			if why := suite.KindsMissed(*r); why != "" {
				line += "; " + why
			}
			if r.SpoiledWhy != "" {
				line += ": " + r.SpoiledWhy
			}
			if n := len(r.Retried); n > 0 {
				line += fmt.Sprintf(" (after %s)", suite.Count(n, "rerun", "reruns"))
			}
			bad = append(bad, line+" ("+r.Reproduce+")")
		}
	}
	if len(bad) > 0 {
		fmt.Fprintln(w)
		for _, l := range bad {
			fmt.Fprintln(w, l)
		}
	}
	fmt.Fprintf(w, "\n%s\n", tally(outs))
}

// tally counts the runs by how they ended.
func tally(outs []suite.Outcome) string {
	var met, notMet, valid, invalid, unknown, errs, aborted int
	for _, o := range outs {
		switch {
		case o.Aborted:
			aborted++
			continue
		case o.Results == nil:
			errs++
			continue
		}
		switch o.Results.Verdict {
		case checker.Valid:
			valid++
		case checker.Invalid:
			invalid++
		default:
			unknown++
		}
		if m := o.Results.ExpectationMet; m != nil {
			if *m {
				met++
			} else {
				notMet++
			}
		}
	}
	s := fmt.Sprintf("%d runs: %d valid, %d invalid, %d unknown; expectations %d met, %d not met", len(outs), valid, invalid, unknown, met, notMet)
	if errs > 0 {
		s += fmt.Sprintf("; %d errors", errs)
	}
	if aborted > 0 {
		s += fmt.Sprintf("; %d aborted", aborted)
	}
	if l := suite.RetryLine(outs); l != "" {
		s += "; " + l
	}
	return s
}

func countFinished(outs []suite.Outcome) int {
	n := 0
	for _, o := range outs {
		if !o.Aborted && o.Results != nil {
			n++
		}
	}
	return n
}

// progressLog is a command's progress line on stderr and the log that
// writes through it: at level, or at verbose's level with -v.
func progressLog(stderr io.Writer, verbose bool, level, verboseLevel slog.Level) (*progress, *slog.Logger) {
	prog := newProgress(stderr)
	if verbose {
		level = verboseLevel
	}
	return prog, slog.New(slog.NewTextHandler(prog, &slog.HandlerOptions{Level: level}))
}
