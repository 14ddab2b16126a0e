package runner

import (
	"time"

	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
)

// Control is a run as a person drives it while it goes (locksim serve):
// faults fired by hand, through the same registered fault kinds as the
// scenario's (faults.Scheduler.Manual). Its methods are safe for
// concurrent use; once the workload has ended they return
// faults.ErrRunOver.
type Control struct {
	sched *faults.Scheduler
	rec   *history.Recorder
	scale float64
	over  chan struct{}
}

// Over is closed when the run's workload has ended: no fault fires any
// more, and the run goes on to heal, probe and record.
func (c *Control) Over() <-chan struct{} { return c.over }

// Fire fires the fault sp now (its When is ignored) and returns the step
// as it fired, its trigger history.TriggerManual. With open set, a fault
// with a window lasts until End or the run's end; else its own duration.
func (c *Control) Fire(sp faults.Spec, open bool) (history.FaultStep, error) {
	return c.sched.Manual(sp, open)
}

// End ends the active fault fired by hand whose step has this ID (a resume,
// a heal, a restart).
func (c *Control) End(id int) error { return c.sched.EndManual(id) }

// Now is the run's scenario time so far (wall time since time zero × the
// time scale).
func (c *Control) Now() time.Duration {
	return time.Duration(float64(c.rec.Now()) * c.scale)
}
