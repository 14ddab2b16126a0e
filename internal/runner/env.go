package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
)

// env is the run as its fault steps act on it (faults.Env): the cluster's
// links and nodes, and the workers.
type env struct{ r *run }

func (e env) Link(client, node string) (faults.Link, error) {
	l := e.r.cl.LinkByName(client, node)
	if l == nil {
		return nil, fmt.Errorf("no link %s→%s", client, node)
	}
	return l, nil
}

func (e env) Node(name string) (faults.Node, error) {
	n := e.r.cl.NodeByName(name)
	if n == nil {
		return nil, fmt.Errorf("no node %s", name)
	}
	return n, nil
}

func (e env) Client(name string) (faults.Client, error) {
	w := e.r.worker(name)
	if w == nil {
		return nil, fmt.Errorf("no client %s", name)
	}
	return w, nil
}

// A worker is a faults.Client: a pause freezes its gate, a crash stops it
// for good, a starved renewer waits at its latch, a clock fault moves its
// own clock.

// Freeze stops the world of the worker until Thaw; a lock client
// process is stopped too (SIGSTOP of its process group), so its library's
// timers and refreshes stop with the worker.
func (w *worker) Freeze() {
	if w.process != nil {
		w.process.Freeze()
	}
	w.gate.Freeze()
}

// Thaw ends one Freeze (SIGCONT for a lock client process).
func (w *worker) Thaw() {
	w.gate.Thaw()
	if w.process != nil {
		w.process.Thaw()
	}
}

// ThawHeard ends one Freeze as Thaw does and, for a lock client process,
// hears when the process runs again (clients.ProcessLock.ThawHeard: when
// it was first heard from after its SIGCONT, and its round trip once
// running, wall time); ok false for an in-process client, whose thaw is
// the harness's own gate.
func (w *worker) ThawHeard(ctx context.Context) (heard time.Time, rtt time.Duration, ok bool) {
	w.gate.Thaw()
	if w.process == nil {
		return time.Time{}, 0, false
	}
	return w.process.ThawHeard(ctx)
}

// Starve holds back the worker's lease renewer until Feed.
func (w *worker) Starve() { w.starve.Shut() }

// Feed lets the worker's lease renewer go on.
func (w *worker) Feed() { w.starve.Open() }

// Clock is the worker's own clock; for a lock client process started
// with libfaketime, a fault moves the process's clock too.
func (w *worker) Clock() faults.Clock {
	if w.process != nil {
		if fc := w.process.FakeClock(); fc != nil {
			return bothClocks{w.clock, fc}
		}
	}
	return w.clock
}

// bothClocks applies a clock fault to the worker's clock and its lock
// client process's.
type bothClocks []faults.Clock

func (b bothClocks) Jump(d time.Duration) {
	for _, c := range b {
		c.Jump(d)
	}
}

func (b bothClocks) SetRate(rate float64) {
	for _, c := range b {
		c.SetRate(rate)
	}
}

// CrashToRestart crashes the worker as Crash does, and makes its goroutine
// wait for Restart instead of ending (a restart-client fault).
func (w *worker) CrashToRestart() {
	w.mu.Lock()
	if w.restart == nil {
		w.restart = make(chan string, 1)
	}
	w.mu.Unlock()
	w.Crash()
}

// Restart starts the new incarnation of a worker CrashToRestart killed,
// with the restore-on-start mode restore (faults.Restore*). A client that
// had finished all its work before the kill stays finished.
func (w *worker) Restart(restore string) error {
	w.mu.Lock()
	ch := w.restart
	w.mu.Unlock()
	if ch == nil {
		return fmt.Errorf("client %s was not crashed to restart", w.name)
	}
	select {
	case ch <- restore:
	default: // already restarted
	}
	return nil
}

// Crash stops the worker for good: its gate refuses everything from now on
// (its job and its renewer stop) and its context ends.
func (w *worker) Crash() {
	if w.process != nil {
		w.process.Crash() // SIGKILL of its process group
	}
	w.gate.Crash()
	w.mu.Lock()
	cancel := w.cancel
	w.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

var _ faults.Client = (*worker)(nil)

// Failover and ReplicationLink make env a faults.ReplicatedEnv (issue 17).
func (e env) Failover(ctx context.Context, group, mode string, wait time.Duration) (history.Promotion, error) {
	p, err := e.r.cl.Failover(ctx, group, mode, wait)
	return history.Promotion{Group: p.Group, Old: p.Old, Promoted: p.Promoted, MasterOffset: p.MasterOffset,
		ReplicaOffsets: p.ReplicaOffsets, PromotedOffset: p.PromotedOffset, TookNS: int64(p.Took)}, err
}

func (e env) ReplicationLink(replica string) (faults.Link, error) {
	l := e.r.cl.ReplicationLink(replica)
	if l == nil {
		return nil, fmt.Errorf("no replication link of %s", replica)
	}
	return l, nil
}

var (
	_ faults.ReplicatedEnv = env{}
	_ faults.ToxicLink     = (*cluster.Link)(nil)
	_ faults.PowerLossNode = (*cluster.Node)(nil)
)

// healAll ends every fault still active at the end of the run: the
// scheduler undoes its steps (closing their operations), then the cluster
// heals whatever remains (a toxic, a paused or down node) as a safety net.
func (r *run) healAll(ctx context.Context) error {
	schedErr := r.sched.Finish()
	if err := r.cl.HealAll(ctx); err != nil {
		return err
	}
	return schedErr
}
