package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/locksim/locksim/internal/cluster"
)

// exitNow ends the process at once (second interrupt); a variable for tests.
var exitNow = os.Exit

// handleSignals cancels the run on the first SIGINT/SIGTERM and records the
// exit code it asks for (130, 143; 0 while none came). A second signal kills
// every node of every run and exits at once. stop ends the handling.
func handleSignals(cancel context.CancelFunc, log *slog.Logger) (code *atomic.Int32, stop func()) {
	code = new(atomic.Int32)
	sigs := make(chan os.Signal, 2)
	done := make(chan struct{})
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		for first := true; ; first = false {
			var s os.Signal
			select {
			case s = <-sigs:
			case <-done:
				return
			}
			if first {
				code.Store(int32(128 + int(s.(syscall.Signal))))
				log.Warn("interrupted: stopping the workload, healing faults, stopping nodes and saving partial histories (again to exit at once)", "signal", s.String())
				cancel()
				continue
			}
			log.Error("interrupted again: killing every node and exiting now", "signal", s.String())
			if err := cluster.KillAll(); err != nil {
				log.Error("kill nodes", "err", err)
			}
			exitNow(int(code.Load()))
			return
		}
	}()
	return code, func() { signal.Stop(sigs); close(done) }
}
