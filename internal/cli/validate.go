package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/locksim/locksim/internal/lesson"
	"github.com/locksim/locksim/internal/scenario"
)

const validateUsage = `Usage: locksim validate <file|dir|glob>...

Parses and validates scenario files without running anything, and reports
every problem of every file (file:line:col, field path). A *.yaml in a
directory named lessons is a course lesson's file (scenarios/lessons/N.yaml:
goal, requirements, pairs' questions, takeaways, caveats in en and vi) and is
checked as one. Exit 0 when all are valid, 254 otherwise.

Examples:
  locksim validate scenarios/
  locksim validate scenarios/gc-pause.yaml my-scenario.yaml
  locksim validate 'scenarios/*.yaml'
  locksim validate scenarios/lessons/
`

func cmdValidate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, validateUsage) }
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitValid
		}
		return exitUsage
	}
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "locksim validate: no scenario given")
		return exitUsage
	}
	// Report every problem of every path: a missing file does not hide the
	// problems of the others.
	code := exitValid
	var files []string
	for _, p := range paths {
		fs, err := expandPaths([]string{p})
		if err != nil {
			fmt.Fprintf(stderr, "locksim validate: %v\n", err)
			code = exitUsage
			continue
		}
		files = append(files, fs...)
	}
	for _, f := range files {
		if lesson.IsLessonFile(f) {
			// A course lesson's words (scenarios/lessons/N.yaml), not a
			// scenario: its own parser, the same file:line:col errors.
			if _, err := lesson.Load(f); err != nil {
				fmt.Fprintln(stderr, err)
				code = exitUsage
				continue
			}
			fmt.Fprintf(stdout, "%s: ok\n", f)
			continue
		}
		sc, err := scenario.Load(f)
		if err != nil {
			fmt.Fprintln(stderr, err)
			code = exitUsage
			continue
		}
		printWarnings(stderr, sc)
		fmt.Fprintf(stdout, "%s: ok\n", f)
	}
	return code
}

// printWarnings prints what Load found that will not stop a run but may
// change it, and the faults planned too soon after a client's start at
// the scenario's time scale (scenario.TightLeads), one "warning:
// file:line:col: path: message" line each.
func printWarnings(stderr io.Writer, sc scenario.Scenario) {
	for _, w := range append(slices.Clone(sc.Warnings), sc.TightLeads(0)...) {
		fmt.Fprintln(stderr, "warning: "+w.Error())
	}
}
