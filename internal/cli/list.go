package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/workload"
)

const listUsage = `Usage: locksim list

Prints the lock algorithms, workloads, faults and checkers a scenario may
name, one line each.

Examples:
  locksim list
  locksim list | grep -i fencing
`

func cmdList(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, listUsage) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitValid
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "locksim list: takes no arguments")
		return exitUsage
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
	}
	fmt.Fprintln(tw, "CHECKERS\t")
	for _, c := range checker.Checkers() {
		fmt.Fprintf(tw, "  %s\t%s\n", c.Name, c.About)
	}
	if err := tw.Flush(); err != nil {
		return exitInternal
	}
	return exitValid
}
