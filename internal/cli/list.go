package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/workload"
)

const listUsage = `Usage: locksim list [--markdown]

Prints the lock algorithms, workloads, faults (with their fields and the
triggers each takes), checkers and the anomaly kinds a scenario's
expect.kinds may name (each with what it is a finding about: safety,
liveness or efficiency), one line each. With --markdown, the same and the
shipped catalogue as the Markdown reference committed as docs/reference.md.

Examples:
  locksim list
  locksim list | grep -i fencing
  locksim list --markdown > docs/reference.md

Flags:
`

func cmdList(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, listUsage); fs.PrintDefaults() }
	markdown := fs.Bool("markdown", false, "print the same, and the shipped catalogue, as the Markdown reference committed as "+ReferenceFile)
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitValid
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "locksim list: takes no arguments")
		return exitUsage
	}
	if *markdown {
		if err := writeMarkdown(stdout); err != nil {
			fmt.Fprintf(stderr, "locksim list: %v\n", err)
			return exitInternal
		}
		return exitValid
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ALGORITHMS\t")
	for _, a := range clients.All() {
		about := a.About
		if t := a.Traits.String(); t != "" {
			about = "[" + t + "] " + about
		}
		fmt.Fprintf(tw, "  %s\t%s\n", a.Name, about)
	}
	fmt.Fprintln(tw, "WORKLOADS\t")
	for _, w := range workload.Kinds() {
		fmt.Fprintf(tw, "  %s\t%s\n", w.Name, w.About)
	}
	fmt.Fprintln(tw, "FAULTS\t")
	for _, k := range faults.Kinds() {
		fmt.Fprintf(tw, "  %s\t%s\n", k.Name, k.About)
		fmt.Fprintf(tw, "  \t  %s\n", faultShape(k))
	}
	fmt.Fprintln(tw, "CHECKERS\t")
	for _, c := range checker.Checkers() {
		fmt.Fprintf(tw, "  %s\t%s\n", c.Name, c.About)
	}
	fmt.Fprintln(tw, "ANOMALY KINDS (expect.kinds)\t")
	for _, k := range checker.Kinds() {
		fmt.Fprintf(tw, "  %s\t[%s] %s\n", k.Name, k.Class, k.About)
	}
	if err := tw.Flush(); err != nil {
		return exitInternal
	}
	return exitValid
}

// faultShape is a fault kind's fields and the triggers it takes with
// their fields, the default first: "fields: client, duration, cause;
// triggers: point (point, occurrence) | at (at)".
func faultShape(k faults.Kind) string {
	fields := "none of its own"
	if len(k.Fields) > 0 {
		fields = strings.Join(k.Fields, ", ")
	}
	tf := faults.TriggerFields()
	var trig []string
	for _, t := range k.Triggers {
		trig = append(trig, fmt.Sprintf("%s (%s)", t, strings.Join(tf[t], ", ")))
	}
	out := "fields: " + fields + "; triggers: " + strings.Join(trig, " | ")
	if len(k.Points) > 0 {
		out += "; points: " + strings.Join(k.Points, ", ")
		if k.RandomPoint {
			out += ", random"
		}
	}
	return out
}
