package faults

import (
	"errors"
	"fmt"
	"slices"

	"github.com/locksim/locksim/internal/history"
)

// ErrRunOver is what Manual returns once the run's faults have stopped
// (the workload ended, or the run was cancelled): nothing fires any more.
var ErrRunOver = errors.New("the run is over: no fault can fire any more")

// Manual fires the fault sp now, by hand (locksim serve's fault buttons),
// through its registered kind like any planned fault: resolved on the
// run's topology (sp names concrete targets; a selector is drawn from a
// generator of the plan's seed of its own), applied, and recorded as a
// fault operation whose step has the trigger history.TriggerManual at this
// instant and the ID after the plan's and the earlier manual steps'.
// sp.When is ignored.
//
// A step with a window is held for its resolved duration, like a planned
// one; with open set (or a kind that has no duration, a crash without
// restart_after) it stays active until EndManual or the run's end. A step
// held open, or ended by hand before its duration, closes with the window
// it really had: its step's Duration then says how long it lasted (wall
// ns) and UntilEnd is false, so that a scenario replaying the run holds it
// that long (SpecOf).
//
// It returns the step as it fired; an error when the run is over
// (ErrRunOver), the fault does not resolve (an unknown target), or its
// apply failed (the operation is then recorded with type fail, as a
// planned step's would be).
func (s *Scheduler) Manual(sp Spec, open bool) (history.FaultStep, error) {
	if sp.Fault == nil {
		return history.FaultStep{}, fmt.Errorf("manual %s: no attributes decoded", sp.Kind)
	}
	if s.plan.manual == nil {
		return history.FaultStep{}, errors.New("manual fault: the plan was not made by NewPlan")
	}
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return history.FaultStep{}, ErrRunOver
	}
	st := history.FaultStep{ID: len(s.plan.Steps) + len(s.manual) + 1, Kind: sp.Kind}
	if err := sp.Fault.Resolve(s.plan.manual, &st); err != nil {
		s.mu.Unlock()
		return history.FaultStep{}, fmt.Errorf("manual %s: %w", sp.Kind, err)
	}
	if open && !st.Instant() {
		st.UntilEnd, st.Duration = true, 0
	}
	st.Trigger = history.Trigger{Kind: history.TriggerManual, At: s.rec.Now()}
	s.manual = append(s.manual, st)
	// Counted before Stop can wait: its hold belongs to the run.
	s.wg.Add(1)
	s.mu.Unlock()
	a, err := s.apply(s.ctx, st, sp.Fault)
	if a == nil {
		s.wg.Done()
		return st, err
	}
	go func() {
		defer s.wg.Done()
		s.hold(a)
	}()
	return st, nil
}

// EndManual ends the active step fired by hand with this ID now (a resume,
// a heal, a restart): it is undone and its operation closes, as when a
// planned step's window ends.
func (s *Scheduler) EndManual(id int) error {
	s.mu.Lock()
	a := s.active[id]
	if a != nil && a.manual {
		a.ended = true
	}
	s.mu.Unlock()
	if a == nil || !a.manual {
		return fmt.Errorf("step #%d is not an active fault fired by hand", id)
	}
	s.end(a)
	return nil
}

// ManualSteps are the steps fired by hand so far, in the order they fired,
// each as it stands now: a step whose window has ended has its Duration.
// Once the run has ended (after Finish), they are what the history
// header's Plan adds after the planned steps.
func (s *Scheduler) ManualSteps() []history.FaultStep {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]history.FaultStep, len(s.manual))
	for i, st := range s.manual {
		out[i] = st.Clone()
	}
	return out
}

// closeValue is the value an active step's operation closes with, its
// undo having begun at began (wall ns): a step as it was applied — but a
// manual step held open, or ended by hand before its duration, with the
// window it had, which it also keeps among the manual steps; a crash's
// with the window its nodes were down (Value.DeadFrom, DeadTo).
func (s *Scheduler) closeValue(a *activeStep, began int64) history.Value {
	v := s.measuredValue(a, began)
	if a.step.Effect == history.EffectCrashNode {
		v.DeadFrom, v.DeadTo = a.applied, began
	}
	return v
}

// measuredValue is a.v, with the window a person gave a step fired by
// hand (see closeValue).
func (s *Scheduler) measuredValue(a *activeStep, began int64) history.Value {
	s.mu.Lock()
	measured := a.manual && (a.step.UntilEnd || a.ended)
	s.mu.Unlock()
	if !measured {
		return a.v
	}
	st := a.step.Clone()
	st.UntilEnd, st.Duration = false, max(began-st.Trigger.At, 0)
	s.mu.Lock()
	if i := slices.IndexFunc(s.manual, func(m history.FaultStep) bool { return m.ID == st.ID }); i >= 0 {
		s.manual[i] = st.Clone()
	}
	s.mu.Unlock()
	v := a.v
	v.Fault = &st
	return v
}
