// Package cli is the locksim command line: flags, subcommands, signals,
// printing and exit codes. The public locksim.Main runs it (cmd/locksim and
// every user's own locksim binary are ten lines that call that); it never
// exits the process itself but returns the exit code.
//
// Exit codes (Jepsen's): 0 valid, 1 invalid, 2 unknown, 254 bad usage or bad
// scenario, 255 internal or infrastructure error. When a scenario declares
// `expect`, the code says whether the expectation held: 0 met, 1 not met.
package cli

import (
	"fmt"
	"io"

	"github.com/locksim/locksim/internal/scenario"
)

// Exit codes.
const (
	exitValid    = 0
	exitInvalid  = 1
	exitUnknown  = 2
	exitUsage    = 254
	exitInternal = 255
)

// Main runs the command line with args (without the program name) and
// returns the exit code for the caller to pass to os.Exit. A second
// interrupt (signals.go) makes it return at once with the interrupt's code,
// while the command may still be winding down; every node and client
// process has been killed by then.
func Main(args []string, stdout, stderr io.Writer) int {
	now := make(chan int, 1)
	exitNow = func(code int) {
		select {
		case now <- code:
		default:
		}
	}
	done := make(chan int, 1)
	go func() { done <- realMain(args, stdout, stderr) }()
	select {
	case code := <-done:
		return code
	case code := <-now:
		return code
	}
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
  locksim explore --algorithm NAME | <base scenario> [flags]
                                      search for the fault schedules that break a lock; a safety profile
  locksim merge <dir>... [flags]      combine the shards of a suite (run --shard K/N) or of an exploration
  locksim validate <file|dir>...      parse and validate scenario files only
  locksim serve [flags]               the classroom web application: run scenarios live,
                                      fire faults by hand, browse past runs (127.0.0.1:7420)
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
// commands are the subcommands, for "did you mean".
var commands = []string{"run", "check", "merge", "shrink", "map", "explore", "validate", "serve", "list", "version", "help"}

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
	case "explore":
		return cmdExplore(args[1:], stdout, stderr)
	case "validate":
		return cmdValidate(args[1:], stdout, stderr)
	case "serve":
		return cmdServe(args[1:], stdout, stderr)
	case "list":
		return cmdList(args[1:], stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintln(stdout, "locksim", version())
		return exitValid
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return exitValid
	default:
		hint := ""
		if s := scenario.Suggest(args[0], commands); s != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", s)
		}
		fmt.Fprintf(stderr, "locksim: unknown command %q%s\n\n%s", args[0], hint, usage)
		return exitUsage
	}
}
