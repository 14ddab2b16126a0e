package suite

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/report"
)

// SummaryLine is a one-line summary of one run's results: the verdict and
// its violations, the expectation and whether it was met (with the kinds
// missing or not expected when it was not), the seed and the report.
func SummaryLine(r report.Results) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", r.Scenario, strings.ToUpper(string(r.Verdict)))
	if ks := report.ViolationKinds(r.Anomalies); len(ks) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(ks, ", "))
	}
	switch m := r.ExpectationMet; {
	case m != nil && *m:
		fmt.Fprintf(&b, " — expected %s: met", r.Expect)
		if len(r.UnjudgedKinds) > 0 {
			fmt.Fprintf(&b, " (not judged without node events: %s)", strings.Join(r.UnjudgedKinds, ", "))
		}
		if len(r.UndecidedKinds) > 0 {
			fmt.Fprintf(&b, " (not judged, its checker undecided: %s)", strings.Join(r.UndecidedKinds, ", "))
		}
	case m != nil:
		fmt.Fprintf(&b, " — expected %s, got %s: NOT MET", r.Expect, r.Verdict)
		if why := KindsMissed(r); why != "" {
			fmt.Fprintf(&b, " (%s)", why)
		}
	case r.Expect != "":
		fmt.Fprintf(&b, " — expected %s: not judged", r.Expect)
	}
	fmt.Fprintf(&b, " seed=%d", r.Seed)
	if r.Emulated {
		b.WriteString(" [emulated Redis]")
	}
	fmt.Fprintf(&b, " report=%s", filepath.Join(r.ReportDir, report.IndexFile))
	return b.String()
}

// KindsMissed says which expected kinds a run did not show and which it
// showed unexpected, e.g. "missing kinds: lost-update; unexpected kinds:
// foreign-unlock"; "" when none.
func KindsMissed(r report.Results) string {
	var parts []string
	if len(r.MissingKinds) > 0 {
		parts = append(parts, "missing kinds: "+strings.Join(r.MissingKinds, ", "))
	}
	if len(r.UnexpectedKinds) > 0 {
		parts = append(parts, "unexpected kinds: "+strings.Join(r.UnexpectedKinds, ", "))
	}
	return strings.Join(parts, "; ")
}

// Line says in one line how a run ended.
func (o Outcome) Line() string {
	switch {
	case o.Results != nil:
		s := SummaryLine(*o.Results)
		if o.Aborted {
			s += " [aborted]"
		}
		return s
	case o.Aborted:
		return fmt.Sprintf("%s: ABORTED before the workload started seed=%d", o.Scenario.Name, o.Seed)
	default:
		return fmt.Sprintf("%s: ERROR (no verdict) seed=%d: %s", o.Scenario.Name, o.Seed, FirstLine(o.Err))
	}
}

// FirstLine is the first line of s, with " …" when there is more.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// SweepLines gives each scenario's violation rate and failing seeds, e.g.
// "gc-pause (algorithm safe): 37/100 runs invalid (37%); invalid seeds: 3 5 …".
func SweepLines(outs []Outcome) []string {
	runs := make([]report.Results, len(outs))
	algo := map[string]string{}
	for i, o := range outs {
		runs[i] = report.Results{Scenario: o.Scenario.Name, File: o.Scenario.File, Seed: o.Seed, Aborted: o.Aborted, Error: o.Err}
		if o.Results != nil {
			runs[i].Verdict = o.Results.Verdict
		} else if runs[i].Error == "" {
			runs[i].Error = "no verdict"
		}
		algo[o.Scenario.File] = o.Scenario.Algorithm
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

// Count is "1 run", "2 runs".
func Count(n int, one, many string) string { return count(n, one, many) }

// RetryLine says how many runs the suite ran again because the machine
// spoiled them, why, and how many are still spoiled after their reruns,
// e.g. "3 runs rerun (2 busy, 1 exposure), 1 still unknown"; "" when none
// was.
func RetryLine(outs []Outcome) string {
	n, still := 0, 0
	causes := map[string]int{}
	var order []string
	for _, o := range outs {
		tries := o.retried
		if len(tries) == 0 && o.Results != nil {
			tries = o.Results.Retried // an outcome read back (merge)
		}
		if len(tries) == 0 {
			continue
		}
		n++
		for _, c := range tries {
			if causes[c] == 0 {
				order = append(order, c)
			}
			causes[c]++
		}
		if _, ok := o.spoiled(); ok {
			still++
		}
	}
	if n == 0 {
		return ""
	}
	parts := make([]string, len(order))
	for i, c := range order {
		parts[i] = fmt.Sprintf("%d %s", causes[c], c)
	}
	s := fmt.Sprintf("%s rerun (%s)", count(n, "run", "runs"), strings.Join(parts, ", "))
	if still > 0 {
		s += fmt.Sprintf(", %d still spoiled", still)
	}
	return s
}

// count is "1 run", "2 runs".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
