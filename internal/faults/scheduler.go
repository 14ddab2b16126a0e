package faults

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// Scheduler carries out a run's fault plan, whatever the kinds: for each
// step it waits for the step's trigger, applies it, records it as one
// fault operation of the history (Invoke..Complete is the active window),
// holds it for its duration and undoes it. A step whose apply fails is
// recorded with type fail and the error. Steps at or before time zero are
// applied before any client starts (Prepare); point-triggered steps fire
// inside the client that reaches the point (Point).
//
// Whatever is still active when the run ends is undone by Finish.
type Scheduler struct {
	plan Plan
	env  Env
	rec  *history.Recorder
	log  *slog.Logger
	// scale is the run's time scale (log lines speak scenario time).
	scale float64
	// applied, when set (tests), is called right after a step was
	// applied, while it is active.
	applied func(history.FaultStep)

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// points lists, per client, the steps triggered at its points; built
	// once, read without a lock.
	points map[string][]int
	// triggered: some step waits for a client event.
	triggered bool

	mu     sync.Mutex
	active map[int]*activeStep
	fired  map[int]bool      // steps started (or refused to start)
	counts map[[2]string]int // times each client reached each point
	seen   map[string]bool   // client events that happened
	events map[string]chan struct{}
	// closing is set by Stop: nothing fires any more.
	closing bool
	// manual are the steps fired by hand (Manual), in firing order, each
	// as it stands now (its window's length once it ended).
	manual []history.FaultStep
}

// activeStep is an applied step whose window is still open.
type activeStep struct {
	step history.FaultStep
	pend *history.Pending
	v    history.Value
	undo Undo
	// applied is when Apply returned (history ns): a crash's nodes were
	// down from then until the undo began.
	applied int64
	// manual: fired by hand; ended: a person ended it by hand (EndManual).
	// Its window is then recorded as it was (see closeValue).
	manual, ended bool
}

// SchedulerOptions tune a Scheduler.
type SchedulerOptions struct {
	Logger *slog.Logger
	// Applied, when set (tests), is called right after a step was applied,
	// while it is active.
	Applied func(history.FaultStep)
	// Scale is the run's time scale, for the log lines (scenario time).
	Scale float64
}

// NewScheduler returns the scheduler of plan on env, recording into rec
// (whose start is the run's time zero).
func NewScheduler(plan Plan, env Env, rec *history.Recorder, o SchedulerOptions) *Scheduler {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Scheduler{plan: plan, env: env, rec: rec, log: log, applied: o.Applied, scale: o.Scale,
		points: map[string][]int{}, active: map[int]*activeStep{}, fired: map[int]bool{},
		counts: map[[2]string]int{}, seen: map[string]bool{}, events: map[string]chan struct{}{}}
	for i, st := range plan.Steps {
		switch st.Trigger.Kind {
		case history.TriggerPoint:
			s.points[st.Trigger.Client] = append(s.points[st.Trigger.Client], i)
		case history.TriggerEvent:
			s.triggered = true
		}
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s
}

// atStart reports whether step i fires before the clients start.
func (s *Scheduler) atStart(i int) bool {
	t := s.plan.Steps[i].Trigger
	return t.Kind == history.TriggerAt && t.At <= 0
}

// Prepare applies the steps at or before time zero, synchronously, before
// any client starts.
func (s *Scheduler) Prepare(ctx context.Context) {
	for i := range s.plan.Steps {
		if s.atStart(i) && s.claim(i) {
			_, _ = s.apply(ctx, s.plan.Steps[i], s.plan.faults[i])
		}
	}
}

// Start launches the other time- and event-triggered steps and the holds of
// the prepared ones, under ctx (the run's context); they stop at Stop.
func (s *Scheduler) Start(ctx context.Context) {
	s.ctx, s.cancel = context.WithCancel(ctx)
	for i, st := range s.plan.Steps {
		switch {
		case st.Trigger.Kind == history.TriggerPoint:
			continue // fired by the client at its point
		case s.atStart(i):
			if a := s.activeOf(st.ID); a != nil {
				s.wg.Go(func() { s.hold(a) })
			}
			continue
		}
		s.wg.Go(func() {
			if !s.wait(st) || !s.claim(i) {
				return
			}
			if a, _ := s.apply(s.ctx, s.plan.Steps[i], s.plan.faults[i]); a != nil {
				s.hold(a)
			}
		})
	}
}

// claim marks step i as fired; false when it already was, or the run is
// over.
func (s *Scheduler) claim(i int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fired[i] || s.closing {
		return false
	}
	s.fired[i] = true
	return true
}

func (s *Scheduler) activeOf(id int) *activeStep {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active[id]
}

func eventKey(client, event, node string) string { return client + "|" + event + "|" + node }

// Event tells the scheduler that client's acquire returned ok, granted by
// nodes: it fires the client's "acquired" event and a "granted-by" event
// per granting node, each the first time only.
func (s *Scheduler) Event(client string, nodes []string) {
	if !s.triggered {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := []string{eventKey(client, history.EventAcquired, "")}
	for _, node := range nodes {
		keys = append(keys, eventKey(client, history.EventGrantedBy, node))
	}
	for _, k := range keys {
		if s.seen[k] {
			continue
		}
		s.seen[k] = true
		if ch := s.events[k]; ch != nil {
			close(ch)
		}
	}
}

// waitEvent returns a channel closed when the event happens.
func (s *Scheduler) waitEvent(k string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.events[k]
	if ch == nil {
		ch = make(chan struct{})
		s.events[k] = ch
		if s.seen[k] {
			close(ch)
		}
	}
	return ch
}

// wait blocks until the step's trigger fires; false when the run ended
// first.
func (s *Scheduler) wait(st history.FaultStep) bool {
	t := st.Trigger
	var delay time.Duration
	if t.Kind == history.TriggerEvent {
		select {
		case <-s.waitEvent(eventKey(t.Client, t.Event, t.Node)):
		case <-s.ctx.Done():
			return false
		}
		delay = wall(t.Delay)
	} else {
		delay = time.Until(s.rec.Start().Add(wall(t.At)))
	}
	if delay <= 0 {
		return s.ctx.Err() == nil
	}
	tm := time.NewTimer(delay)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-s.ctx.Done():
		return false
	}
}

// Point is called by client's gate each time the client reaches point: the
// steps planned for this occurrence fire now, inside the client (a pause
// freezes it before it passes the point). The client then waits at its
// gate while it is frozen.
func (s *Scheduler) Point(client, point string) {
	idx := s.points[client]
	if len(idx) == 0 {
		return // nothing planned at this client's points: nothing to count
	}
	s.mu.Lock()
	k := [2]string{client, point}
	s.counts[k]++
	n := s.counts[k]
	var fire []int
	for _, i := range idx {
		t := s.plan.Steps[i].Trigger
		if t.Point == point && t.Occurrence == n && !s.fired[i] && !s.closing {
			s.fired[i] = true
			fire = append(fire, i)
		}
	}
	s.mu.Unlock()
	for _, i := range fire {
		if a, _ := s.apply(s.ctx, s.plan.Steps[i], s.plan.faults[i]); a != nil {
			s.wg.Go(func() { s.hold(a) })
		}
	}
}

// apply starts step st (carried out by f) and records its operation. It
// returns the active step to hold, or nil when the step was an instant or
// failed (then with the error, which the operation records too).
func (s *Scheduler) apply(ctx context.Context, st history.FaultStep, f Fault) (*activeStep, error) {
	v := history.Value{Fault: &st}
	pend := s.rec.Begin(history.NemesisProcess, history.NemesisClient, history.Fault, st.Key, v)
	// What the step did (a failover's promotion) is written by Record
	// into a copy, recorded on the operation's completion (st itself may
	// be read by the history's stream meanwhile).
	done := st.Clone()
	undo, err := f.Apply(withOutcome(ctx, &done), s.env, st)
	applied := s.rec.Now()
	if len(done.Promotions) > 0 {
		v = history.Value{Fault: &done}
	}
	if err != nil {
		pend.End(history.Fail, v, err.Error())
		s.log.Warn("nemesis: fault failed", "step", st.ID, "fault", st.Kind, "err", err)
		return nil, err
	}
	s.log.Info("nemesis", "step", Describe(st, s.scale))
	if undo == nil {
		pend.End(history.OK, v, "")
		if s.applied != nil {
			s.applied(st)
		}
		return nil, nil
	}
	a := &activeStep{step: st, pend: pend, v: v, undo: undo, applied: applied, manual: st.Trigger.Kind == history.TriggerManual}
	s.mu.Lock()
	s.active[st.ID] = a
	s.mu.Unlock()
	if s.applied != nil {
		s.applied(st)
	}
	return a, nil
}

// hold keeps an applied step active for its duration, then undoes it. A
// step that lasts until the end stays active until Finish.
func (s *Scheduler) hold(a *activeStep) {
	if a.step.UntilEnd {
		return
	}
	if d := wall(a.step.Duration); d > 0 {
		tm := time.NewTimer(d)
		defer tm.Stop()
		select {
		case <-tm.C:
		case <-s.ctx.Done():
			return
		}
	}
	s.end(a)
}

// end undoes an active step (once) and closes its operation.
func (s *Scheduler) end(a *activeStep) {
	s.mu.Lock()
	if s.active[a.step.ID] != a {
		s.mu.Unlock()
		return
	}
	delete(s.active, a.step.ID)
	s.mu.Unlock()
	began, v, err := s.undo(a)
	if healsAtOnce(a.step) {
		a.pend.EndAt(began, history.OK, v, errText(err))
	} else {
		a.pend.End(history.OK, v, errText(err))
	}
	if err != nil {
		s.log.Warn("nemesis: undo failed", "step", a.step.ID, "fault", a.step.Kind, "err", err)
	}
}

// undo undoes active step a, bounded by undoTimeout: when its undo began
// (history ns), the value its operation closes with (closeValue, with
// what the undo heard of a thawed lock client process: Value.ThawHeard,
// ThawRTT) and the undo's error.
func (s *Scheduler) undo(a *activeStep) (began int64, v history.Value, err error) {
	var heard thawHeard
	ctx, cancel := context.WithTimeout(withThaw(context.Background(), &heard), undoTimeout)
	began = s.rec.Now()
	err = a.undo(ctx)
	cancel()
	v = s.closeValue(a, began)
	if !heard.at.IsZero() {
		v.ThawHeard = max(int64(heard.at.Sub(s.rec.Start())), began)
		v.ThawRTT = int64(heard.rtt)
	}
	return began, v, err
}

// healsAtOnce reports whether a step's undo takes effect as it begins: a
// freeze ends with the thaw's first act (the gate opens, SIGCONT), so the
// clients or the node may act before the undo returns (redis-semaphore-
// gc-pause: w1's process refreshed and charged 3 ms before the undo
// returned). Other undos (a restart, a link restored) take effect when
// they return.
func healsAtOnce(st history.FaultStep) bool {
	return st.Effect == history.EffectFreezeClient || st.Effect == history.EffectFreezeNode
}

// undoTimeout bounds one undo (a node restart waits for redis-server).
const undoTimeout = 10 * time.Second

// Stop ends the waits and holds; active steps stay active and nothing
// fires any more.
func (s *Scheduler) Stop() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
}

// Finish undoes every step still active (after Stop), closing its
// operation; it returns the undo errors joined.
func (s *Scheduler) Finish() error {
	s.mu.Lock()
	var as []*activeStep
	for _, a := range s.active {
		as = append(as, a)
	}
	s.mu.Unlock()
	var errs []error
	for _, a := range as {
		s.mu.Lock()
		mine := s.active[a.step.ID] == a
		if mine {
			delete(s.active, a.step.ID)
		}
		s.mu.Unlock()
		if !mine {
			continue
		}
		began, v, err := s.undo(a)
		if healsAtOnce(a.step) {
			// Its window ends at the thaw, not after the undo heard the
			// thawed process (Value.ThawHeard).
			a.pend.EndAt(began, history.OK, v, errText(err))
		} else {
			a.pend.End(history.OK, v, errText(err))
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("step %d (%s): %w", a.step.ID, a.step.Kind, err))
		}
	}
	return errors.Join(errs...)
}

// Fired reports which steps fired (by ID): applied, or tried and failed.
func (s *Scheduler) Fired() map[int]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[int]bool{}
	for i := range s.fired {
		out[s.plan.Steps[i].ID] = true
	}
	return out
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
