package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/scenario"
)

// nemesis carries out a run's fault plan: each step is one fault operation
// in the history whose Invoke..Complete is the fault's active window.
// Steps at or before time zero are applied before any client starts; later
// steps and event-triggered ones run in their own goroutines. Whatever is
// still active when the run ends is healed by the runner (Cluster.HealAll)
// and then closed by finish.
type nemesis struct {
	r    *run
	plan faults.Plan

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	active map[int]*activeFault
	fired  map[string]bool
	events map[string]chan struct{}
	// triggered is true when some step waits for a client event; event
	// has nothing to do otherwise.
	triggered bool
}

// activeFault is a fault whose window is still open.
type activeFault struct {
	step faults.Step
	pend *history.Pending
	v    history.Value
	// final runs at the end of the run for what HealAll does not cover
	// (a clock-rate ticker, a client clock's rate).
	final func()
}

func newNemesis(r *run, plan faults.Plan) *nemesis {
	n := &nemesis{r: r, plan: plan, active: map[int]*activeFault{},
		fired: map[string]bool{}, events: map[string]chan struct{}{}}
	for _, s := range plan.Steps {
		n.triggered = n.triggered || s.Trigger != nil
	}
	return n
}

func eventKey(client, event, node string) string { return client + "|" + event + "|" + node }

// event is called by a worker after an ok acquire: it fires the client's
// "acquired" event and a "granted-by" event per granting node, once each.
func (n *nemesis) event(client string, nodes []string) {
	if !n.triggered {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	keys := []string{eventKey(client, scenario.EventAcquired, "")}
	for _, node := range nodes {
		keys = append(keys, eventKey(client, scenario.EventGrantedBy, node))
	}
	for _, k := range keys {
		if n.fired[k] {
			continue
		}
		n.fired[k] = true
		if ch := n.events[k]; ch != nil {
			close(ch)
		}
	}
}

// waitEvent returns a channel closed when the event fires.
func (n *nemesis) waitEvent(k string) <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	ch := n.events[k]
	if ch == nil {
		ch = make(chan struct{})
		n.events[k] = ch
		if n.fired[k] {
			close(ch)
		}
	}
	return ch
}

// prepare applies the steps at or before time zero, synchronously.
func (n *nemesis) prepare(ctx context.Context) {
	for _, s := range n.plan.Steps {
		if s.Gated() || s.Trigger != nil || s.At > 0 {
			continue
		}
		n.apply(ctx, s)
	}
}

// start launches the other steps; they stop when stop is called.
func (n *nemesis) start(ctx context.Context) {
	n.ctx, n.cancel = context.WithCancel(ctx)
	for _, s := range n.plan.Steps {
		if s.Gated() {
			continue // fired by the client's gate at its point
		}
		if s.Trigger == nil && s.At <= 0 {
			if _, ok := n.activeStep(s.ID); ok {
				n.wg.Add(1)
				go func() { defer n.wg.Done(); n.hold(s) }()
			}
			continue
		}
		n.wg.Add(1)
		go func() {
			defer n.wg.Done()
			if !n.wait(s) {
				return
			}
			if n.apply(n.ctx, s) {
				n.hold(s)
			}
		}()
	}
}

func (n *nemesis) activeStep(id int) (*activeFault, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	a, ok := n.active[id]
	return a, ok
}

// wait blocks until the step's start; false when the run ended first.
func (n *nemesis) wait(s faults.Step) bool {
	var delay time.Duration
	if s.Trigger != nil {
		select {
		case <-n.waitEvent(eventKey(s.Trigger.Client, s.Trigger.Event, s.Trigger.Node)):
		case <-n.ctx.Done():
			return false
		}
		delay = n.r.wall(s.Delay)
	} else {
		delay = time.Until(n.r.rec.Start().Add(n.r.wall(s.At)))
	}
	if delay <= 0 {
		return n.ctx.Err() == nil
	}
	t := time.NewTimer(delay)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-n.ctx.Done():
		return false
	}
}

// hold keeps an applied step active for its duration, then undoes it.
// Steps without an end stay active until the run's final heal.
func (n *nemesis) hold(s faults.Step) {
	var d time.Duration
	switch {
	case s.Kind == scenario.KindCrash && s.Restart:
		d = n.r.wall(s.RestartAfter)
	case s.Kind == scenario.KindCrash || s.Kind == scenario.KindClockJump || s.Kind == scenario.KindPause || s.Kind == scenario.KindCrashClient:
		return
	case s.Duration > 0:
		d = n.r.wall(s.Duration)
	default:
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-n.ctx.Done():
		return
	}
	n.mu.Lock()
	a := n.active[s.ID]
	delete(n.active, s.ID)
	n.mu.Unlock()
	if a == nil {
		return
	}
	err := n.undo(s)
	if a.final != nil {
		a.final()
	}
	a.pend.End(history.OK, a.v, errText(err))
	if err != nil {
		n.r.log.Warn("nemesis: undo failed", "step", s.ID, "fault", s.Kind, "err", err)
	}
}

// apply starts a step and records its operation; false when it failed (the
// operation is then recorded as fail, with the error).
func (n *nemesis) apply(ctx context.Context, s faults.Step) bool {
	r := n.r
	v := history.Value{Fault: s.Kind, Targets: s.Targets(), Detail: s.Detail()}
	if s.Kind == scenario.KindPause {
		// A random-nemesis pause: freeze the client now, wherever it is.
		w := r.worker(s.Clients[0])
		if w == nil {
			return false
		}
		_ = w.gate.Freeze(n.ctx, faults.Pause{Client: w.name, Point: "random", Duration: r.wall(s.Duration), Scenario: s.Duration})
		return false
	}
	if s.Kind == scenario.KindCrashClient {
		w := r.worker(s.Clients[0])
		if w == nil {
			return false
		}
		w.crash("")
		r.log.Info("nemesis", "step", s.ID, "fault", s.Kind, "detail", s.Detail())
		if r.applied != nil {
			r.applied(s, r.cl)
		}
		return false
	}
	pend := r.rec.Begin(history.NemesisProcess, history.NemesisClient, history.Fault, "", v)
	a := &activeFault{step: s, pend: pend, v: v}
	err := n.do(ctx, s, a)
	if err != nil {
		pend.End(history.Fail, v, err.Error())
		r.log.Warn("nemesis: fault failed", "step", s.ID, "fault", s.Kind, "err", err)
		return false
	}
	r.log.Info("nemesis", "step", s.ID, "fault", s.Kind, "detail", s.Detail())
	if r.applied != nil {
		r.applied(s, r.cl)
	}
	if s.Kind == scenario.KindClockJump {
		pend.End(history.OK, v, "")
		return false
	}
	n.mu.Lock()
	n.active[s.ID] = a
	n.mu.Unlock()
	return true
}

// links returns the cluster links a network step acts on.
func (n *nemesis) links(s faults.Step) ([]*cluster.Link, error) {
	var out []*cluster.Link
	for _, c := range s.Clients {
		for _, node := range s.Nodes {
			l := n.r.cl.LinkByName(c, node)
			if l == nil {
				return nil, fmt.Errorf("no link %s→%s", c, node)
			}
			out = append(out, l)
		}
	}
	return out, nil
}

func (n *nemesis) nodes(s faults.Step) ([]*cluster.Node, error) {
	var out []*cluster.Node
	for _, name := range s.Nodes {
		nd := n.r.cl.NodeByName(name)
		if nd == nil {
			return nil, fmt.Errorf("no node %s", name)
		}
		out = append(out, nd)
	}
	return out, nil
}

// do applies the fault itself.
func (n *nemesis) do(ctx context.Context, s faults.Step, a *activeFault) error {
	r := n.r
	switch s.Kind {
	case scenario.KindStarveRenewals:
		var ws []*worker
		for _, c := range s.Clients {
			w := r.worker(c)
			if w == nil {
				return fmt.Errorf("no client %s", c)
			}
			ws = append(ws, w)
		}
		for _, w := range ws {
			w.starve.Shut()
		}
		a.final = func() {
			for _, w := range ws {
				w.starve.Open()
			}
		}
		return nil
	case scenario.KindPartition, scenario.KindLatency, scenario.KindReset:
		ls, err := n.links(s)
		if err != nil {
			return err
		}
		var errs []error
		for _, l := range ls {
			switch s.Kind {
			case scenario.KindPartition:
				errs = append(errs, l.Cut(s.Mode, s.Direction))
			case scenario.KindLatency:
				errs = append(errs, l.AddLatency(r.wall(s.Latency), r.wall(s.Jitter)))
			default:
				errs = append(errs, l.Reset())
			}
		}
		return errors.Join(errs...)
	case scenario.KindCrash, scenario.KindPauseNode:
		ns, err := n.nodes(s)
		if err != nil {
			return err
		}
		var errs []error
		for _, nd := range ns {
			if s.Kind == scenario.KindCrash {
				errs = append(errs, nd.Kill())
			} else {
				errs = append(errs, nd.Pause())
			}
		}
		return errors.Join(errs...)
	case scenario.KindClockJump:
		if len(s.Nodes) == 0 {
			for _, c := range s.Clients {
				r.clocks[c].Jump(r.wall(s.Delta))
			}
			return nil
		}
		ns, err := n.nodes(s)
		if err != nil {
			return err
		}
		var errs []error
		for _, nd := range ns {
			errs = append(errs, nd.ShiftClock(ctx, r.wall(s.Delta)))
		}
		return errors.Join(errs...)
	case scenario.KindClockRate:
		if len(s.Nodes) == 0 {
			for _, c := range s.Clients {
				r.clocks[c].SetRate(s.Rate)
			}
			a.final = func() {
				for _, c := range s.Clients {
					r.clocks[c].SetRate(1)
				}
			}
			return nil
		}
		ns, err := n.nodes(s)
		if err != nil {
			return err
		}
		tctx, stop := context.WithCancel(context.WithoutCancel(ctx))
		done := make(chan struct{})
		go func() {
			defer close(done)
			n.skew(tctx, ns, s.Rate)
		}()
		a.final = func() { stop(); <-done }
		return nil
	}
	return fmt.Errorf("unknown fault kind %q", s.Kind)
}

// skewPeriod is how often a node clock-rate fault shifts the node's keys.
const skewPeriod = 10 * time.Millisecond

// skew makes the nodes' clocks run at rate by shifting their keys'
// remaining TTLs every skewPeriod (lock-theory §6.3): after t of real time
// the keys have lost (rate−1)×t more. Whole milliseconds are applied as
// they accrue, so no rounding error builds up.
func (n *nemesis) skew(ctx context.Context, ns []*cluster.Node, rate float64) {
	began := time.Now()
	applied := time.Duration(0)
	t := time.NewTicker(skewPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		owed := time.Duration(float64(time.Since(began))*(rate-1)) - applied
		step := owed.Truncate(time.Millisecond)
		if step == 0 {
			continue
		}
		for _, nd := range ns {
			_ = nd.ShiftClock(ctx, step) // a paused or down node keeps no time
		}
		applied += step
	}
}

// undo ends a step at the end of its window.
func (n *nemesis) undo(s faults.Step) error {
	switch s.Kind {
	case scenario.KindStarveRenewals:
		for _, c := range s.Clients {
			if w := n.r.worker(c); w != nil {
				w.starve.Open()
			}
		}
		return nil
	case scenario.KindPartition, scenario.KindLatency, scenario.KindReset:
		ls, err := n.links(s)
		if err != nil {
			return err
		}
		var errs []error
		for _, l := range ls {
			switch s.Kind {
			case scenario.KindPartition:
				errs = append(errs, l.Uncut())
			case scenario.KindLatency:
				errs = append(errs, l.RemoveLatency())
			default:
				errs = append(errs, l.RemoveReset())
			}
		}
		return errors.Join(errs...)
	case scenario.KindCrash, scenario.KindPauseNode:
		ns, err := n.nodes(s)
		if err != nil {
			return err
		}
		var errs []error
		for _, nd := range ns {
			if s.Kind == scenario.KindCrash {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				errs = append(errs, nd.Restart(ctx))
				cancel()
			} else {
				errs = append(errs, nd.Resume())
			}
		}
		return errors.Join(errs...)
	}
	return nil
}

// stop ends the nemesis goroutines; active faults stay active.
func (n *nemesis) stop() {
	if n.cancel != nil {
		n.cancel()
	}
	n.wg.Wait()
}

// finish closes every fault still active after the final heal.
func (n *nemesis) finish() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for id, a := range n.active {
		if a.final != nil {
			a.final()
		}
		a.pend.End(history.OK, a.v, "")
		delete(n.active, id)
	}
}
