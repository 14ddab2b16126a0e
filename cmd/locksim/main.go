// Command locksim runs lock scenarios against real Redis through toxiproxy,
// injects faults, checks the recorded history and writes a report.
//
// Exit codes (Jepsen's): 0 valid, 1 invalid, 2 unknown, 254 bad usage or bad
// scenario, 255 internal or infrastructure error. When a scenario declares
// `expect`, the code says whether the expectation held: 0 met, 1 not met.
package main

import (
	"os"

	"github.com/locksim/locksim"
)

func main() { os.Exit(locksim.Main()) }
