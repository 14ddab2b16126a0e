package cli

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/cluster"
)

// exitNow makes Main return at once with the code (second interrupt); Main
// sets it, tests replace it. Nil outside Main: the interrupt then only
// kills the nodes.
var exitNow func(code int)

// sameInterrupt is how long after the first signal another one still
// counts as the same interrupt. `timeout -s INT 3 locksim run …` sends two
// SIGINTs at once (one to locksim, one to its process group), and a
// supervisor may send SIGINT then SIGTERM; a person pressing Ctrl-C again
// to get out at once does it later.
const sameInterrupt = time.Second

// handleSignals cancels the run on the first SIGINT/SIGTERM and records the
// exit code it asks for (130, 143; 0 while none came): the runs stop their
// workload, heal their faults, stop their nodes and save their partial
// histories. A repeat within sameInterrupt of the first is the same
// interrupt; a later one kills every node of every run and exits at once.
// stop ends the handling.
func handleSignals(cancel context.CancelFunc, log *slog.Logger) (code *atomic.Int32, stop func()) {
	code = new(atomic.Int32)
	sigs := make(chan os.Signal, 4)
	done := make(chan struct{})
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		var first time.Time
		for {
			var s os.Signal
			select {
			case s = <-sigs:
			case <-done:
				return
			}
			switch {
			case first.IsZero():
				first = time.Now()
				code.Store(int32(128 + int(s.(syscall.Signal))))
				log.Warn("interrupted: stopping the workload, healing faults, stopping nodes and saving partial histories (interrupt again to exit at once)", "signal", s.String())
				cancel()
			case time.Since(first) < sameInterrupt:
				log.Info("the same interrupt again (within "+sameInterrupt.String()+" of the first): still saving partial histories", "signal", s.String())
			default:
				log.Error("interrupted again: killing every node and exiting now", "signal", s.String())
				if err := cluster.KillAll(); err != nil {
					log.Error("kill nodes", "err", err)
				}
				clients.KillAllProcesses()
				if exitNow != nil {
					exitNow(int(code.Load()))
				}
				return
			}
		}
	}()
	return code, func() { signal.Stop(sigs); close(done) }
}
