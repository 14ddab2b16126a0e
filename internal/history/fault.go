package history

import (
	"maps"
	"slices"
	"strconv"
)

// FaultStep is one step of a run's fault plan, as the header's Plan and
// every fault operation's Value.Fault record it: data only, every time in
// wall ns. A step is resolved from the scenario and the seed before the run
// starts (selectors drawn, random points picked), so its targets are
// concrete names.
type FaultStep struct {
	// ID numbers the steps of a plan from 1, in plan order.
	ID int `json:"id"`
	// Kind is the registered fault kind ("pause", "partition", …).
	Kind string `json:"kind"`
	// Effect is what the step does to the run, in the checkers' terms
	// (Effect* constants): a checker judges by the effect, never by the
	// kind's name.
	Effect string `json:"effect"`
	// Targets: the clients, nodes or client→node links the step acts on;
	// which of the three is set follows from Effect (see Effect*).
	Clients []string `json:"clients,omitempty"`
	Nodes   []string `json:"nodes,omitempty"`
	Links   []Link   `json:"links,omitempty"`
	// Key is the lock key a key fault acts on (EffectDeleteKey).
	Key string `json:"key,omitempty"`
	// Trigger is when the step fires.
	Trigger Trigger `json:"trigger"`
	// Duration is the planned active window, wall ns: how long a pause
	// freezes, a partition cuts, a crashed node stays down before its
	// restart. 0 with UntilEnd false: the step is an instant (a clock
	// jump, a client crash) or a zero-length window (a crash restarted at
	// once).
	Duration int64 `json:"duration_ns,omitempty"`
	// UntilEnd: the step stays active until the run's final heal.
	UntilEnd bool `json:"until_end,omitempty"`
	// Delta is a clock jump, wall ns (negative: backwards).
	Delta int64 `json:"delta_ns,omitempty"`
	// Rate is a clock's speed: seconds per real second (1.5 = 50 % fast).
	Rate float64 `json:"rate,omitempty"`
	// Latency and Jitter of a latency step, wall ns.
	Latency int64 `json:"latency_ns,omitempty"`
	Jitter  int64 `json:"jitter_ns,omitempty"`
	// Cause is why a freeze-client step froze its client, for the words
	// of the report only (a checker never reads it): PauseGC,
	// PauseEventLoop, PauseSleep or PauseStop; "" when the scenario named
	// none (told as a pause: the client frozen, no cause claimed).
	Cause string `json:"cause,omitempty"`
	// Mode is a partition's mode (drop|refuse; Direction both|replies
	// with it) or, of an EffectRestartClient step, what its restarted
	// client restores (RestoreNone|RestoreAll).
	Mode      string `json:"mode,omitempty"`
	Direction string `json:"direction,omitempty"`
	// Stream (upstream|downstream|both) and Toxicity (the probability a
	// connection gets the toxic, 1 when 0) of a toxic step; Toxic its
	// toxiproxy type and attributes (ms, bytes, KB/s), when the kind is a
	// toxic of its own (bandwidth, slicer, limit-data, slow-close,
	// timeout) or a latency or reset with a stream or a timeout.
	Stream   string  `json:"stream,omitempty"`
	Toxicity float64 `json:"toxicity,omitempty"`
	Toxic    *Toxic  `json:"toxic,omitempty"`
	// FailoverMode (crash|stop|sentinel) of an EffectFailover step;
	// Promotions is what it did, once it fired (one per group): set on
	// the fault operation's value when it completes.
	FailoverMode string      `json:"failover_mode,omitempty"`
	Promotions   []Promotion `json:"promotions,omitempty"`
	// PowerLoss: a crash that also drops what no fsync reached (an
	// aof-everysec node loses its last second of writes).
	PowerLoss bool `json:"power_loss,omitempty"`
	// Optional: the run is not judged incomplete when this step never
	// fires (scenario `optional: true`; every random nemesis step).
	Optional bool `json:"optional,omitempty"`
	// Random marks a step drawn by the random nemesis.
	Random bool `json:"random,omitempty"`
}

// Toxic is a toxiproxy toxic as a step applies it: its type and its
// attributes, in toxiproxy's own units (latency, jitter, delay and timeout
// in ms of wall time; rate in KB/s; bytes, average_size and
// size_variation in bytes).
type Toxic struct {
	Type       string           `json:"type"`
	Attributes map[string]int64 `json:"attributes,omitempty"`
	// Seed drives the per-connection toxicity draws of this step.
	Seed uint64 `json:"seed,omitempty"`
}

// Promotion is what one group's failover did: the master that failed, the
// replica the sentinels promoted, and the replication offsets just before
// the failure (the master's; each replica's, -1 when it did not answer)
// and of the promoted replica when it was first seen as master. A write
// the master acknowledged beyond PromotedOffset is lost.
type Promotion struct {
	Group          string           `json:"group"`
	Old            string           `json:"old"`
	Promoted       string           `json:"promoted,omitempty"`
	MasterOffset   int64            `json:"master_offset"`
	ReplicaOffsets map[string]int64 `json:"replica_offsets,omitempty"`
	PromotedOffset int64            `json:"promoted_offset,omitempty"`
	// TookNS is the failure-to-promotion time, wall ns.
	TookNS int64 `json:"took_ns,omitempty"`
}

// Link is one client→node proxied connection. A replication link is one
// too: its Client is the replica, its Node the master it follows.
type Link struct {
	Client string `json:"client"`
	Node   string `json:"node"`
}

// Trigger kinds: exactly one applies to a step.
const (
	// TriggerAt fires at a time: Trigger.At wall ns after the run's time
	// zero (≤ 0: before any client starts).
	TriggerAt = "at"
	// TriggerEvent fires Trigger.Delay after the first time Trigger.Client
	// has Trigger.Event (EventAcquired, or EventGrantedBy Trigger.Node).
	TriggerEvent = "event"
	// TriggerPoint fires the Occurrence-th time Trigger.Client reaches
	// Trigger.Point of its work (Point* constants), inside the client.
	TriggerPoint = "point"
	// TriggerManual: a person fired the step by hand during the run
	// (locksim serve's fault buttons), Trigger.At wall ns after time zero.
	// No scenario file writes it: a manual step is not planned, it joins
	// the header's Plan when the run ends, and a scenario that replays the
	// run writes it as a step at that time (TriggerAt). Every checker and
	// the report treat it like any other step.
	TriggerManual = "manual"
)

// Client events a step can be triggered by.
const (
	// EventAcquired: the client's acquire returns ok.
	EventAcquired = "acquired"
	// EventGrantedBy: an ok acquire of the client names the node among its
	// granting nodes.
	EventGrantedBy = "granted-by"
)

// Trigger is when a fault step fires: Kind says which of the three forms
// applies, and only that form's fields are set.
type Trigger struct {
	Kind string `json:"kind"`
	// At is the start of a TriggerAt step (and the instant a TriggerManual
	// step fired), wall ns since time zero.
	At int64 `json:"at_ns,omitempty"`
	// Client whose event or point fires the step.
	Client string `json:"client,omitempty"`
	// Event and Node of a TriggerEvent step; Delay is added to the
	// event's instant, wall ns.
	Event string `json:"event,omitempty"`
	Node  string `json:"node,omitempty"`
	Delay int64  `json:"delay_ns,omitempty"`
	// Point and Occurrence (1 = the first time) of a TriggerPoint step.
	Point      string `json:"point,omitempty"`
	Occurrence int    `json:"occurrence,omitempty"`
}

// Effects: what a fault step does, in the terms the checkers and the report
// reason in. A fault kind declares its effect when it resolves a step.
const (
	// EffectFreezeClient: the Clients stop the world (GC pause, SIGSTOP):
	// their job, renewer and timers freeze; they are alive and still
	// believe what they believed.
	EffectFreezeClient = "freeze-client"
	// EffectCrashClient: the Clients stop for good (kill -9 of the worker)
	// and never release what they hold.
	EffectCrashClient = "crash-client"
	// EffectRestartClient: the Clients are killed (kill -9 of the worker)
	// at the step's start and a new incarnation of each, under the same
	// name, starts Duration later; with Mode RestoreAll it first re-queues
	// every job lease it finds (kombu's restore of unacked messages on a
	// worker's start, PR #905).
	EffectRestartClient = "restart-client"
	// RestoreNone and RestoreAll are the Mode of an EffectRestartClient
	// step: the new incarnation restores nothing, or re-queues every job
	// lease it finds on start.
	RestoreNone = "none"
	RestoreAll  = "all"
	// EffectStarveRenewer: only the Clients' lease renewers are held back;
	// their jobs run on.
	EffectStarveRenewer = "starve-renewer"
	// EffectClientClock: the Clients' own clocks jump by Delta (Rate 0) or
	// run at Rate. No Redis key changes.
	EffectClientClock = "client-clock"
	// EffectCutLinks: traffic on the Links is dropped or refused (Mode,
	// Direction).
	EffectCutLinks = "cut-links"
	// EffectSlowLinks: replies on the Links are delayed by Latency ± Jitter.
	EffectSlowLinks = "slow-links"
	// EffectResetLinks: connections on the Links are reset (TCP RST).
	EffectResetLinks = "reset-links"
	// EffectCrashNode: the Nodes are killed (kill -9); a node without
	// persistence comes back empty (Header.Persistence).
	EffectCrashNode = "crash-node"
	// EffectFreezeNode: the Nodes are stopped (SIGSTOP) and resumed.
	EffectFreezeNode = "freeze-node"
	// EffectNodeClock: the Nodes' clocks jump by Delta (Rate 0) or run at
	// Rate: every key's remaining TTL on them moves accordingly.
	EffectNodeClock = "node-clock"
	// EffectDeleteKey: something outside the lock (a janitor, an operator)
	// deletes Key on the Nodes.
	EffectDeleteKey = "delete-key"
	// EffectFailover: the master of each of the Nodes' replication groups
	// fails (FailoverMode) and the sentinels promote a replica
	// (Promotions); what the master acknowledged and the promoted replica
	// had not received is gone from the group.
	EffectFailover = "failover"
)

// OnLinks reports whether the step acts on client→node links (a partition,
// latency, a reset): it bears only on those links' clients.
func (s FaultStep) OnLinks() bool {
	switch s.Effect {
	case EffectCutLinks, EffectSlowLinks, EffectResetLinks:
		return true
	}
	return false
}

// Touches reports whether the step acts on client c itself, or on one of
// c's links.
func (s FaultStep) Touches(c string) bool {
	if slices.Contains(s.Clients, c) {
		return true
	}
	for _, l := range s.Links {
		if l.Client == c {
			return true
		}
	}
	return false
}

// LinkClients lists the distinct clients of the step's links, in order.
func (s FaultStep) LinkClients() []string {
	var out []string
	for _, l := range s.Links {
		if !slices.Contains(out, l.Client) {
			out = append(out, l.Client)
		}
	}
	return out
}

// Instant reports whether the step has no active window at all: it
// happens at one instant (a clock jump, a client crash, a key deletion).
func (s FaultStep) Instant() bool {
	switch s.Effect {
	case EffectCrashClient, EffectDeleteKey:
		return true
	case EffectClientClock, EffectNodeClock:
		return s.Rate == 0
	}
	return false
}

// Clone returns a deep copy of s.
func (s FaultStep) Clone() FaultStep {
	s.Clients = slices.Clone(s.Clients)
	s.Nodes = slices.Clone(s.Nodes)
	s.Links = slices.Clone(s.Links)
	if s.Toxic != nil {
		t := *s.Toxic
		t.Attributes = maps.Clone(t.Attributes)
		s.Toxic = &t
	}
	s.Promotions = slices.Clone(s.Promotions)
	for i := range s.Promotions {
		s.Promotions[i].ReplicaOffsets = maps.Clone(s.Promotions[i].ReplicaOffsets)
	}
	return s
}

// Causes of a client pause (FaultStep.Cause): the same freeze, told as the
// field reports tell it.
const (
	PauseGC        = "gc"         // a stop-the-world garbage collection (Kleppmann 2016)
	PauseEventLoop = "event-loop" // a blocked event loop (bull #1416, redis-semaphore #9)
	PauseSleep     = "sleep"      // the host slept (redis-semaphore #24)
	PauseStop      = "stop"       // SIGSTOP of the process (a debugger, an operator)
)

// PauseCauses are the causes a pause step may name; a step may name none.
func PauseCauses() []string { return []string{PauseGC, PauseEventLoop, PauseSleep, PauseStop} }

// Ordinal is n as an English ordinal, "1st", "2nd", "3rd", "11th", …: the
// occurrence of a TriggerPoint step in the words of a plan and a story.
func Ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}
