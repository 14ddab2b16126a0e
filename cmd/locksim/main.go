// Command locksim runs lock scenarios against real Redis through toxiproxy,
// injects faults, checks the recorded history and writes a report.
//
// Exit codes (Jepsen's): 0 valid, 1 invalid, 2 unknown, 254 bad usage or bad
// scenario, 255 internal or infrastructure error. When a scenario declares
// `expect`, the code says whether the expectation held: 0 met, 1 not met.
//
// LOCKSIM_CPUPROFILE=file writes a pprof CPU profile of the whole command
// to file (for profiling locksim itself; `go tool pprof locksim file`).
//
// Unless GOGC is set, the garbage collector runs at GOGC=400, not 100: a
// suite's heap is small against the machine (tens of MB), and at 100 the
// collector (marking and assists) took about a tenth of locksim's own CPU
// in a 30-file suite (issue 32's CPU per run).
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/pprof"

	"github.com/locksim/locksim"
)

func main() { os.Exit(run()) }

// run is locksim.Main, under a CPU profile when LOCKSIM_CPUPROFILE names a
// file.
func run() int {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	path := os.Getenv("LOCKSIM_CPUPROFILE")
	if path == "" {
		return locksim.Main()
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "locksim: LOCKSIM_CPUPROFILE: %v\n", err)
		return 255
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "locksim: LOCKSIM_CPUPROFILE: %v\n", err)
		return 255
	}
	defer pprof.StopCPUProfile()
	return locksim.Main()
}
