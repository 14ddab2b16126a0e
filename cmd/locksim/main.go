// Command locksim runs lock scenarios against real Redis through toxiproxy,
// injects faults, checks the recorded history and writes a report.
//
// Exit codes (Jepsen's): 0 valid, 1 invalid, 2 unknown, 254 bad usage or bad
// scenario, 255 internal or infrastructure error. When a scenario declares
// `expect`, the code says whether the expectation held: 0 met, 1 not met.
package main

import (
	"fmt"
	"io"
	"os"
)

// Exit codes.
const (
	exitValid    = 0
	exitInvalid  = 1
	exitUnknown  = 2
	exitUsage    = 254
	exitInternal = 255
)

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `locksim — when does a Redis distributed lock keep its promise?

Usage:
  locksim run <file|dir|glob>... [flags]
                                      run scenarios on real Redis through toxiproxy, check, report
  locksim check <report dir|history.jsonl>
                                      re-check a stored history (no Redis needed)
  locksim shrink <report dir|scenario --seed N> [flags]
                                      find the smallest fault schedule that still fails
  locksim map <scenario> --vary path=values [--vary …] | <map file> [flags]
                                      map the violation rate over one or two parameters
  locksim merge <dir>... [flags]      combine the results of a suite's shards (run --shard K/N)
  locksim validate <file|dir>...      parse and validate scenario files only
  locksim list                        algorithms, workloads, faults, checkers
  locksim version

Examples:
  locksim run scenarios/gc-pause.yaml
  locksim run scenarios/gc-pause.yaml --seed 7 --time-scale 1
  locksim run scenarios/ --out /tmp/reports --json
  locksim run scenarios/fencing-random-nemesis.yaml --count 1000
  locksim check reports/gc-pause/20261129-101500-seed42

Exit codes: 0 valid (or expectation met), 1 invalid (or expectation not met),
2 unknown, 254 bad usage or scenario, 255 internal or infrastructure error,
130/143 interrupted (SIGINT/SIGTERM).
Run 'locksim <command> --help' for a command's flags.
`

// realMain runs the CLI and returns the exit code.
func realMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "check":
		return cmdCheck(args[1:], stdout, stderr)
	case "merge":
		return cmdMerge(args[1:], stdout, stderr)
	case "shrink":
		return cmdShrink(args[1:], stdout, stderr)
	case "map":
		return cmdMap(args[1:], stdout, stderr)
	case "validate":
		return cmdValidate(args[1:], stdout, stderr)
	case "list":
		return cmdList(args[1:], stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintln(stdout, "locksim", version())
		return exitValid
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return exitValid
	default:
		fmt.Fprintf(stderr, "locksim: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
}
