package main

import (
	"encoding/xml"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/locksim/locksim/internal/report"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/locksim/locksim/internal/checker"
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
		progressbar.OptionSetDescription("runs · 0 invalid"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
	)
	_ = p.bar.RenderBlank()
}

func (p *progress) finished(o outcome, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if o.res != nil && o.res.Verdict == checker.Invalid {
		p.invalid++
	}
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("runs · %d invalid", p.invalid))
		_ = p.bar.Add(1)
		return
	}
	fmt.Fprintf(p.w, "[%d/%d] %s\n", p.done, total, outcomeLine(o))
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

// outcomeLine says in one line how a run ended.
func outcomeLine(o outcome) string {
	switch {
	case o.res != nil:
		s := summaryLine(*o.res)
		if o.aborted {
			s += " [aborted]"
		}
		return s
	case o.aborted:
		return fmt.Sprintf("%s: ABORTED before the workload started seed=%d", o.sc.Name, o.seed)
	default:
		return fmt.Sprintf("%s: ERROR (no verdict) seed=%d: %s", o.sc.Name, o.seed, firstLine(o.err))
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// verdictCell is the verdict column of the summary.
func verdictCell(o outcome) string {
	switch {
	case o.res != nil && o.aborted:
		return string(o.res.Verdict) + " (aborted)"
	case o.res != nil:
		return string(o.res.Verdict)
	case o.aborted:
		return "aborted"
	default:
		return "ERROR"
	}
}

// metCell is the "met" column: yes, NO, or - without an expectation.
func metCell(o outcome) string {
	if o.res == nil || o.res.ExpectationMet == nil {
		if o.res == nil && !o.aborted {
			return "NO"
		}
		return "-"
	}
	if *o.res.ExpectationMet {
		return "yes"
	}
	return "NO"
}

// printSummary prints the summary table, the violation rates of sweeps and
// the runs that need attention.
func printSummary(w io.Writer, outs []outcome, sweep bool) {
	// One run: one line, verdict first, then the report's path.
	if len(outs) == 1 && outs[0].res != nil {
		fmt.Fprintln(w, summaryLine(*outs[0].res))
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tSEED\tVERDICT\tEXPECTED\tMET\tWALL\tREPORT")
	for _, o := range outs {
		expect, report := o.sc.Expect.Verdict, "-"
		if expect == "" {
			expect = "-"
		}
		if o.res != nil {
			report = filepath.Join(o.res.ReportDir, "index.html")
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%.2fs\t%s\n", o.sc.Name, o.seed, verdictCell(o), expect, metCell(o), o.wall.Seconds(), report)
	}
	_ = tw.Flush()
	if sweep {
		fmt.Fprintln(w)
		for _, l := range sweepLines(outs) {
			fmt.Fprintln(w, l)
		}
	}
	var bad []string
	for _, o := range outs {
		switch {
		case o.res == nil && !o.aborted:
			bad = append(bad, fmt.Sprintf("ERROR %s seed %d: %s", o.sc.Name, o.seed, firstLine(o.err)))
		case o.res != nil && o.res.ExpectationMet != nil && !*o.res.ExpectationMet && !o.aborted:
			bad = append(bad, fmt.Sprintf("NOT MET %s seed %d: expected %s, got %s (%s)", o.sc.Name, o.seed, o.res.Expect, o.res.Verdict, o.res.Reproduce))
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
func tally(outs []outcome) string {
	var met, notMet, valid, invalid, unknown, errs, aborted int
	for _, o := range outs {
		switch {
		case o.aborted:
			aborted++
			continue
		case o.res == nil:
			errs++
			continue
		}
		switch o.res.Verdict {
		case checker.Valid:
			valid++
		case checker.Invalid:
			invalid++
		default:
			unknown++
		}
		if m := o.res.ExpectationMet; m != nil {
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
	return s
}

// sweepLines gives each scenario's violation rate and failing seeds, e.g.
// "gc-pause (algorithm safe): 37/100 runs invalid (37%); invalid seeds: 3 5 …".
func sweepLines(outs []outcome) []string {
	runs := make([]report.Results, len(outs))
	algo := map[string]string{}
	for i, o := range outs {
		runs[i] = report.Results{Scenario: o.sc.Name, File: o.sc.File, Seed: o.seed, Aborted: o.aborted, Error: o.err}
		if o.res != nil {
			runs[i].Verdict = o.res.Verdict
		} else if runs[i].Error == "" {
			runs[i].Error = "no verdict"
		}
		algo[o.sc.File] = o.sc.Algorithm
	}
	var lines []string
	for _, r := range report.SweepRates(runs) {
		l := fmt.Sprintf("%s (algorithm %s): %d/%d runs invalid", r.Scenario, algo[r.File], r.Invalid, r.Runs)
		if r.Runs > 0 {
			l += fmt.Sprintf(" (%.0f%%)", 100*float64(r.Invalid)/float64(r.Runs))
		}
		if len(r.InvalidSeeds) > 0 {
			seeds := make([]string, len(r.InvalidSeeds))
			for i, s := range r.InvalidSeeds {
				seeds[i] = strconv.FormatInt(s, 10)
			}
			l += "; invalid seeds: " + strings.Join(seeds, " ")
		}
		if r.Unknown > 0 {
			l += fmt.Sprintf("; %d unknown", r.Unknown)
		}
		if r.Errors > 0 {
			l += "; " + count(r.Errors, "run", "runs") + " failed (no verdict)"
		}
		if r.Aborted > 0 {
			l += fmt.Sprintf("; %d aborted", r.Aborted)
		}
		lines = append(lines, l)
	}
	return lines
}

// count is "1 run", "2 runs".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func countFinished(outs []outcome) int {
	n := 0
	for _, o := range outs {
		if !o.aborted && o.res != nil {
			n++
		}
	}
	return n
}

// writeSuite writes <out>/index.html: one row per finished run with its
// verdict, expectation, timeline thumbnail and a link to its report.
func writeSuite(out string, outs []outcome, f runFlags, log *slog.Logger) {
	runs := make([]report.Results, 0, len(outs))
	for _, o := range outs {
		runs = append(runs, resultsOf(o, f)) // runs with errors too
	}
	if err := report.WriteSuite(out, runs, f.lang); err != nil {
		log.Error("write suite index", "err", err)
	}
}

// JUnit XML (the testsuites/testsuite/testcase/failure schema that CI
// systems read).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// junitOf builds the JUnit document: one testsuite per scenario file, one
// testcase per run. A run whose exit code is not 0 is a failure (expectation
// not met, invalid or unknown) with the anomaly explanations as message; an
// infrastructure error or an interruption is an error.
func junitOf(outs []outcome) junitSuites {
	doc := junitSuites{Name: "locksim"}
	idx := map[string]int{}
	var total float64
	secs := map[string]float64{}
	for _, o := range outs {
		i, ok := idx[o.sc.File]
		if !ok {
			i = len(doc.Suites)
			idx[o.sc.File] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: o.sc.Name})
		}
		s := &doc.Suites[i]
		c := junitCase{Name: fmt.Sprintf("%s seed %d", o.sc.Name, o.seed), Classname: "locksim." + o.sc.Name, Time: fmt.Sprintf("%.3f", o.wall.Seconds())}
		c.SystemOut = outcomeLine(o)
		switch {
		case o.aborted:
			c.Error = &junitProblem{Message: "run aborted (interrupted)", Type: "aborted", Text: c.SystemOut}
		case o.res == nil:
			c.Error = &junitProblem{Message: firstLine(o.err), Type: "infrastructure", Text: o.err}
		case o.code != exitValid:
			c.Failure = failureOf(o)
		}
		if c.Failure != nil {
			s.Failures++
			doc.Failures++
		}
		if c.Error != nil {
			s.Errors++
			doc.Errors++
		}
		s.Tests++
		doc.Tests++
		s.Cases = append(s.Cases, c)
		secs[o.sc.File] += o.wall.Seconds()
		total += o.wall.Seconds()
	}
	for f, i := range idx {
		doc.Suites[i].Time = fmt.Sprintf("%.3f", secs[f])
	}
	doc.Time = fmt.Sprintf("%.3f", total)
	return doc
}

func failureOf(o outcome) *junitProblem {
	r := o.res
	var explains []string
	for _, a := range r.Anomalies {
		if !a.Informational {
			explains = append(explains, a.Explain)
		}
	}
	typ, head := "verdict-"+string(r.Verdict), fmt.Sprintf("verdict %s", r.Verdict)
	if r.ExpectationMet != nil {
		typ, head = "expectation-not-met", fmt.Sprintf("expected %s, got %s", r.Expect, r.Verdict)
	}
	msg := head
	if len(explains) > 0 {
		msg += ": " + strings.Join(explains, " | ")
	} else if r.Verdict != checker.Valid {
		msg += ": no violation found"
	} else {
		msg += ": no anomaly found"
	}
	text := fmt.Sprintf("%s\nreproduce: %s\nreport: %s", msg, r.Reproduce, filepath.Join(r.ReportDir, "index.html"))
	return &junitProblem{Message: msg, Type: typ, Text: text}
}

// writeJUnit writes the JUnit XML file.
func writeJUnit(path string, outs []outcome) error {
	b, err := xml.MarshalIndent(junitOf(outs), "", "  ")
	if err != nil {
		return err
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(b, '\n')...), 0o644)
}
