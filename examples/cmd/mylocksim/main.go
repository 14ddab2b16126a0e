// Command mylocksim is locksim with my-lock and renew-lock registered
// beside the built-in algorithms: `mylocksim run scenarios/gc-pause.yaml`
// after replacing its algorithm with my-lock, `mylocksim run
// renewlock/slow-job.yaml`, `mylocksim explore --algorithm my-lock --budget
// 5m` to search for the fault schedules that break it (regression files
// and a safety profile, docs/finding-failures.md, "Explore your own lock"), or `mylocksim
// list`.
package main

import (
	"os"

	"example.com/mylock/mylock"
	"example.com/mylock/renewlock"
	"github.com/locksim/locksim"
)

func main() {
	os.Exit(locksim.Main(locksim.WithAlgorithm(mylock.Algorithm), locksim.WithAlgorithm(renewlock.Algorithm)))
	// or locksim.WithLocker("my-lock", mylock.New, lock.Traits{SingleNode: true})
}
