package faults

import (
	"context"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// The parts of the fault machinery that replicated runs add (issue 17):
// optional interfaces, so that a kind that needs replicas or sentinels
// asks for them and every other kind and environment stays as it was.

// Record lets a kind's Apply write what its step did, found out only as it
// ran (a failover learns which replica was promoted), into the step the
// fault operation records on its completion. A kind's value is shared by
// every run of a scenario, so it keeps no state of its own: the outcome
// travels in ctx, which the scheduler gives each Apply. Outside a
// scheduler Record does nothing.
func Record(ctx context.Context, f func(s *history.FaultStep)) {
	if st, ok := ctx.Value(outcomeKey{}).(*history.FaultStep); ok {
		f(st)
	}
}

type outcomeKey struct{}

// withOutcome is ctx carrying the step Record writes into.
func withOutcome(ctx context.Context, st *history.FaultStep) context.Context {
	return context.WithValue(ctx, outcomeKey{}, st)
}

// thawHeard is what an undo heard of its client's thaw (recordThaw):
// ThawHearer.ThawHeard's measure, for the step's operation.
type thawHeard struct {
	at  time.Time
	rtt time.Duration
}

type thawKey struct{}

// withThaw is ctx carrying the thawHeard recordThaw writes into.
func withThaw(ctx context.Context, t *thawHeard) context.Context {
	return context.WithValue(ctx, thawKey{}, t)
}

// recordThaw tells the scheduler undoing a step, through ctx, when its
// thawed client was heard from again and its round trip (wall).
func recordThaw(ctx context.Context, at time.Time, rtt time.Duration) {
	if t, ok := ctx.Value(thawKey{}).(*thawHeard); ok {
		t.at, t.rtt = at, rtt
	}
}

// TopologyDecoder is implemented by a Decoder that knows the scenario's
// replication topology, so a kind can refuse a step the topology cannot
// carry out (a failover without sentinels).
type TopologyDecoder interface {
	// Replicas is the number of replicas per master; Sentinels the number
	// of sentinels.
	Replicas() int
	Sentinels() int
}

// ReplicatedEnv is an Env whose masters have replicas and may be watched
// by sentinels (the runner's, over cluster.Cluster).
type ReplicatedEnv interface {
	// Failover makes the current master of group fail in mode (crash,
	// stop or sentinel) and waits for the sentinels to promote a replica;
	// the Promotion says what happened, also when err is not nil.
	Failover(ctx context.Context, group, mode string, wait time.Duration) (history.Promotion, error)
	// ReplicationLink is the link a replica follows its master through.
	ReplicationLink(replica string) (Link, error)
}

// ToxicLink is a Link that takes any toxiproxy toxic (the runner's links,
// cluster.Link.AddToxic).
type ToxicLink interface {
	AddToxic(name, typ, stream string, toxicity float64, seed uint64, attrs map[string]any) error
	RemoveToxic(name string) error
}

// PowerLossNode is a Node that can crash as a power loss would (writes no
// fsync reached are dropped).
type PowerLossNode interface {
	PowerLoss() (dropped int64, err error)
}

// BoolDecoder is implemented by a Decoder that reads true/false fields.
type BoolDecoder interface {
	Bool(field string) (bool, bool)
}
