package faults

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// failover makes the master of replication groups fail so that the
// sentinels promote a replica (BR-20, lock-theory S23): mode crash kills
// it (kill -9), stop freezes it (SIGSTOP: alive, still a master in its own
// eyes when it wakes up), sentinel asks a sentinel for SENTINEL FAILOVER
// (a promotion with the master alive). The step waits for the promotion
// and records it as data: which replica was promoted, the replication
// offsets before the failure and the promoted replica's (a write the old
// master acknowledged past the promoted offset is lost). restart_after
// brings a crashed master back (restart) or a stopped one (resume) that
// much later; Sentinel then turns it into a replica of the new master.
type failover struct {
	Nodes        []string       `yaml:"nodes"`
	Mode         string         `yaml:"mode,omitempty"`
	RestartAfter *time.Duration `yaml:"restart_after,omitempty"`
}

// Failover modes.
const (
	FailoverCrash   = "crash"
	FailoverStop    = "stop"
	FailoverCommand = "sentinel"
)

// failoverWait bounds how long a step waits for the sentinels to promote a
// replica, wall time.
const failoverWait = 10 * time.Second

func init() {
	Register(Kind{
		Name:     "failover",
		About:    "make a replicated master fail (mode crash, stop or sentinel: SENTINEL FAILOVER) so Sentinel promotes a replica; records who was promoted at what offset",
		Fields:   []string{"nodes", "mode", "restart_after"},
		Triggers: []string{history.TriggerAt, history.TriggerEvent},
		New:      func() Fault { return &failover{} },
	})
}

func (f *failover) Decode(d Decoder) {
	f.Nodes = requiredNodes(d, `the masters whose groups fail over, e.g. "nodes: [n1]"`)
	f.Mode, _ = d.Enum("mode", "failover mode", []string{FailoverCrash, FailoverStop, FailoverCommand})
	if v, ok := d.Duration("restart_after", NonNegative); ok {
		f.RestartAfter = &v
		if f.Mode == FailoverCommand {
			d.Errorf("restart_after", "mode sentinel leaves the master running; restart_after applies to crash and stop")
		}
	}
	if td, ok := d.(TopologyDecoder); ok && (td.Sentinels() == 0 || td.Replicas() == 0) {
		d.Errorf("", "a failover needs replicas to promote and sentinels to promote them (replicas: 1, sentinels: 3)")
	}
}

func (f *failover) Resolve(r *Resolver, s *history.FaultStep) error {
	nodes, err := r.Select(f.Nodes, r.Nodes, nil)
	if err != nil {
		return err
	}
	for _, n := range nodes {
		if !slices.Contains(r.Nodes, n) {
			return fmt.Errorf("%s is no master: a failover names a replication group by its master (%v)", n, r.Nodes)
		}
	}
	s.Effect, s.Nodes = history.EffectFailover, nodes
	s.FailoverMode = f.Mode
	if s.FailoverMode == "" {
		s.FailoverMode = FailoverCrash
	}
	switch {
	case s.FailoverMode == FailoverCommand:
	case f.RestartAfter == nil:
		s.UntilEnd = true
	default:
		s.Duration = r.Wall(*f.RestartAfter)
	}
	return nil
}

func (f *failover) Apply(ctx context.Context, env Env, s history.FaultStep) (Undo, error) {
	re, ok := env.(ReplicatedEnv)
	if !ok {
		return nil, errors.New("a failover needs a replicated cluster with sentinels")
	}
	var olds []Node
	var errs []error
	for _, g := range s.Nodes {
		p, err := re.Failover(ctx, g, s.FailoverMode, failoverWait)
		Record(ctx, func(st *history.FaultStep) { st.Promotions = append(st.Promotions, p) })
		if err != nil {
			errs = append(errs, err)
		}
		if p.Old != "" {
			if n, err := env.Node(p.Old); err == nil {
				olds = append(olds, n)
			}
		}
	}
	var undo Undo
	switch s.FailoverMode {
	case FailoverCrash:
		undo = func(ctx context.Context) error { return each(olds, func(n Node) error { return n.Restart(ctx) }) }
	case FailoverStop:
		undo = func(context.Context) error { return each(olds, Node.Resume) }
	}
	return undo, errors.Join(errs...)
}

func (f *failover) Encode(e Encoder, s history.FaultStep) error {
	f.Nodes, f.Mode = slices.Clone(s.Nodes), s.FailoverMode
	if s.FailoverMode != FailoverCommand && !s.UntilEnd {
		d := e.Scen(s.Duration)
		f.RestartAfter = &d
	}
	return nil
}
