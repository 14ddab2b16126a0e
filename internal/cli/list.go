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
	"github.com/locksim/locksim/internal/history"
)

// workloadAbout describes the workloads.
var workloadAbout = map[string]string{
	"payment":       "charge an invoice through a non-idempotent gateway; a second charge is a double charge (idempotency: true keys charges)",
	"counter":       "read-modify-write of a counter under the lock; an increment that vanishes is a lost update",
	"inventory":     "check the stock in Redis and sell one item; more sales than stock is an oversell",
	"cron":          "schedulers with their own clocks run a job per fire time; a second run of one fire time is a duplicate run",
	"leader":        "the lease holder leads and writes with its epoch; two leaders' writes accepted is split brain",
	"semaphore":     "N permits in a sorted set; more holders than permits at once is over-admission",
	"cache-rebuild": "an efficiency lock: overlapping rebuilds are reported as wasted work, not as a violation",
}

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
	for _, n := range history.Workloads() {
		fmt.Fprintf(tw, "  %s\t%s\n", n, workloadAbout[n])
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
