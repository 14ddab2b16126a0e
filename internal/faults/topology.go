package faults

import (
	"context"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// The parts of the fault machinery that replicated runs add (issue 17):
// optional interfaces, so that a kind that needs replicas or sentinels
// asks for them and every other kind and environment stays as it was.

// Outcomer is implemented by kinds whose steps find out what they did only
// when they run (a failover learns which replica was promoted): the
// scheduler calls Outcome right after Apply, and what it writes into the
// step is recorded on the fault operation's completion.
type Outcomer interface {
	Outcome(s *history.FaultStep)
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
