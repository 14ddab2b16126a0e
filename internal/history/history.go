// Package history is the run's record of everything that happened: lock
// operations of the clients, decisions of the protected resource and faults of
// the nemesis, one [Op] per operation, in the JSON Lines form of design §7
// (format version 2, design §12).
//
// A history is data only: no field holds prose meant to be read back. Every
// instant and every duration in a history is true wall time in nanoseconds
// (instants: since the run's monotonic start), whatever it describes: a TTL,
// a pause's planned length, a clock jump's delta. The header's TimeScale
// converts: scenario time = wall time × TimeScale ([Header.ScenarioTime]).
// Client clocks never appear here.
//
// history imports nothing from the runtime packages, so a stored history can
// be checked and reported without Redis (`locksim check`).
package history

import (
	"math"
	"time"
)

// Format and Version identify the file format on the header line. Version 2
// made faults, refusals and the plan structured data and put every time in
// wall ns; version 1 files are refused with a message naming the version.
const (
	Format  = "locksim-history"
	Version = 2
)

// Type is an operation's outcome, in Jepsen's words.
type Type string

// Outcomes. An Info operation may or may not have taken effect (a lost reply,
// a timeout); checkers must treat it as possibly applied at any time after its
// invoke.
const (
	OK   Type = "ok"
	Fail Type = "fail"
	Info Type = "info"
)

// Func names what an operation did.
type Func string

// Operation functions. Acquire, Release and Extend are lock operations of a
// client; Read and Write are the client's operations on the protected
// resource (a Write of type Fail is a write the resource refused); Lost marks
// the instant a client itself concluded its lease was gone (a failed renewal,
// a validity check), which ends its believed hold; Fault is a nemesis
// operation whose Invoke..Complete is the fault's active window; Probe is the
// final liveness acquire after every fault healed.
const (
	Acquire Func = "acquire"
	Release Func = "release"
	Extend  Func = "extend"
	Read    Func = "read"
	Write   Func = "write"
	Lost    Func = "lost"
	// Done marks the instant a client left its critical section: it will
	// do nothing more under this lease but release it. Like Lost, it ends
	// the client's believed hold (lock-theory S05: work finished, then a
	// pause before the release).
	Done Func = "done"
	// Stopped is an instant at which the harness stopped the client at the
	// run's end while it was still inside its critical section on Key (its
	// work unfinished): it believed it held the lock until then. Unlike
	// Done, the client never finished.
	Stopped Func = "stopped"
	Fault   Func = "fault"
	Probe   Func = "probe"
	// NodeCmd is a command a node executed, as its observer saw it
	// (MONITOR): Process NodeProcess, Client the sender (a client name,
	// ProbeClient, AdminClient, or "" when it could not be told),
	// Value.Node the node, Value.Cmd the command and its arguments
	// (Value.Lua: run inside the script of the sender's preceding EVAL).
	// Invoke == Complete is the node's own timestamp on the run's clock.
	NodeCmd Func = "node-cmd"
	// Unobserved is a window [Invoke, Complete] in which Value.Node's
	// commands were not observed (its observer was reconnecting after the
	// node went away): node events are missing there.
	Unobserved Func = "unobserved"
	// Stalled is one command (or dial) of a client's connection to a node
	// that was answered late or not at all: Process NodeProcess, Client the
	// client, Value.Node the node, Value.Cmd the command's name (and key),
	// [Invoke, Complete] from the send to the answer (Type OK) or to the
	// deadline that passed or the connection's failure, with no answer
	// (Type Info), wall time. The harness records every
	// command that took StallNS or more; one that no fault explains shows
	// the machine was too busy for the run's compressed time.
	Stalled Func = "stalled"
	// MasterSwitch is a promotion Sentinel announced (+switch-master):
	// Process NodeProcess, Value.Node the group, Value.Cmd [old master, new
	// master] (node names), Invoke == Complete when the harness heard of it.
	// One that no failover fault explains means the sentinels judged a
	// healthy master down: the machine was too busy for their down-after.
	MasterSwitch Func = "switch-master"
	// NodeHeld is every string key a node held at one instant, read by its
	// observer in one atomic script right after it reconnected to a node
	// that had gone away (a crash and restart): what the node came back
	// with from its persistence. Process NodeProcess, Value.Node the node,
	// Value.Held the keys (complete: a string key not listed was not
	// there), Invoke == Complete the node's own timestamp of the script
	// (MONITOR), so it is ordered exactly among the node's commands.
	NodeHeld Func = "node-held"
	// TimerLag is a stretch of wall time in which the harness's own
	// timers fired late: a timer due at Invoke fired only at Complete
	// (wall ns; Process NodeProcess, Client "", Type OK); with a client's
	// name, that client was planned to begin its workload at Invoke and
	// began only at Complete (LateStart). The harness
	// records every such lag of LagRecordNS or more while the workload
	// runs (the worst is also the header's MaxTimerLagNS): how much of
	// the run's compressed time the machine, not the scenario, took. The
	// checkers compare a violation's margin with the lag around it.
	TimerLag Func = "timer-lag"
)

// LateStart is the client that began its workload latest past its
// planned start (its TimerLag span, the worst), ok false when every
// client began within LagRecordNS of its plan.
func (h History) LateStart() (op Op, ok bool) {
	for _, o := range h.Ops {
		if o.F == TimerLag && o.Client != "" && (!ok || o.Complete-o.Invoke > op.Complete-op.Invoke) {
			op, ok = o, true
		}
	}
	return op, ok
}

// LagRecordNS is the timer lag (wall ns) from which the harness records a
// TimerLag operation: shorter lags are the ordinary jitter of a timer.
const LagRecordNS = int64(10e6)

// MaxTimerLag is the harness lateness (wall time) at and above which
// coverage takes a run's timing as lost (checker.MaxTimerLag, where the
// rule is told); below it a run counts as on time. The scenario parser
// keeps the races a plan sets up clear of it (scenario.LeadFloor).
const MaxTimerLag = 100 * time.Millisecond

// HeldKey is one string key a node showed it held (Func NodeHeld).
type HeldKey struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	// TTL is the remaining time to live in wall ns; -1: none.
	TTL int64 `json:"ttl_ns"`
}

// StallNS is the round trip (wall ns) from which a client's command is
// recorded as Stalled.
const StallNS = int64(50e6)

// NodeProcess is the Process of every node event.
const NodeProcess = -2

// AdminClient is the sender of the harness's own commands on a node
// (FLUSHALL, clock shifts, a janitor's DEL), as node events name it.
const AdminClient = "admin"

// NemesisProcess is the Process of every fault operation, and NemesisClient
// its Client.
const (
	NemesisProcess = -1
	NemesisClient  = "nemesis"
)

// ProbeClient is the Client of the final liveness probe's operations.
const ProbeClient = "probe"

// Value carries what an operation was about. Only the fields that apply are
// set.
type Value struct {
	// Lock fields.
	Token string   `json:"token,omitempty"`  // random owner token of the lease
	Fence int64    `json:"fence,omitempty"`  // fencing token; 0 when the algorithm has none
	TTL   int64    `json:"ttl_ns,omitempty"` // lease TTL, wall ns, as given to Redis
	Nodes []string `json:"nodes,omitempty"`  // nodes that granted (acquire) or released the key
	// Removed is set on a Release/Probe that removed the key; Removed false
	// with type OK means the release found nothing of its own to remove.
	Removed bool `json:"removed,omitempty"`
	// Renewal marks an extend that the client's background renewer (a
	// watchdog) made, not the client's own code.
	Renewal bool `json:"renewal,omitempty"`
	// LockKey is the key the lock stored in Redis when the algorithm
	// derived its own from the resource's (an ok acquire whose lease names
	// another key than the op's Key); "" when the two agree. The op's Key,
	// here and on the hold's later operations, stays the resource's.
	LockKey string `json:"lock_key,omitempty"`

	// Resource fields (Read and Write).
	Action string `json:"action,omitempty"` // one of the Action* constants
	Result string `json:"result,omitempty"` // what a read returned: Result* constants
	// Refusal says why the resource refused a write (type Fail): one of the
	// Refusal* constants. SeenFence is the highest fencing token (or epoch)
	// the resource had seen for the object when it refused a stale one.
	Refusal   string `json:"refusal,omitempty"`
	SeenFence int64  `json:"seen_fence,omitempty"`
	// Num is a number the operation read or wrote: a counter value, the
	// stock left after a sale. nil when the operation has none.
	Num *int64 `json:"num,omitempty"`

	// Fault is set on every Func == Fault operation: the plan step that
	// fired, with its resolved targets.
	Fault *FaultStep `json:"fault,omitempty"`
	// DeadFrom and DeadTo are set on the operation of a step that crashed
	// nodes (EffectCrashNode), once it ended: the window, wall ns, in which
	// its nodes' processes were certainly not running — from the kill's
	// return to the restart's start. A command sent to such a node then
	// ran nowhere (issue 33: judge from what the nodes did).
	DeadFrom int64 `json:"dead_from_ns,omitempty"`
	DeadTo   int64 `json:"dead_to_ns,omitempty"`
	// ThawHeard and ThawRTT are set on the operation of a step that froze
	// a lock client process (EffectFreezeClient of an algorithm: process
	// client), once it ended (issue 32: SIGCONT sent on time is not the
	// process running on time). The harness sent the process SIGCONT at
	// the operation's Complete and, at once, a request (clock); ThawHeard
	// is when the process was first heard from again — the first line it
	// wrote after that SIGCONT — or, when none came within the harness's
	// wait, the end of that wait: the process said nothing before it
	// (wall ns since time zero). ThawRTT is the process's round trip for
	// the same request once it was running, asked right after (wall ns;
	// 0 when not measured). The process ran again no earlier than
	// Complete and no later than ThawHeard − ThawRTT; how much later than
	// Complete is how long the machine left it stopped past the step's
	// window. Both 0: not measured (an in-process client; a process that
	// has never answered a request after a thaw and said nothing in the
	// wait; one that died).
	ThawHeard int64 `json:"thaw_heard_ns,omitempty"`
	ThawRTT   int64 `json:"thaw_rtt_ns,omitempty"`

	// Node event fields (Func NodeCmd, Unobserved, Stalled, NodeHeld).
	Node string    `json:"node,omitempty"`
	Cmd  []string  `json:"cmd,omitempty"`
	Lua  bool      `json:"lua,omitempty"`
	Held []HeldKey `json:"held,omitempty"`
}

// Op is one operation. Invoke and Complete are true-time ns since the run's
// start; Complete is -1 for an operation that never completed (recorded as
// Info).
type Op struct {
	Index    int    `json:"index"`
	Process  int    `json:"process"`
	Client   string `json:"client"`
	F        Func   `json:"f"`
	Key      string `json:"key,omitempty"`
	Value    Value  `json:"value"`
	Invoke   int64  `json:"invoke_ns"`
	Complete int64  `json:"complete_ns"`
	Type     Type   `json:"type"`
	// Error is the error text a client library returned, verbatim, for a
	// reader; no part of locksim interprets it.
	Error string `json:"error,omitempty"`
	// Failure classifies the Error of an unknown outcome (Type Info;
	// FailureOf) for a reader; empty otherwise.
	Failure Failure `json:"failure,omitempty"`
}

// Open reports whether the operation has no known completion time.
func (o Op) Open() bool { return o.Complete < 0 }

// Header is the first line of a history file.
type Header struct {
	Format   string `json:"format"`
	Version  int    `json:"version"`
	Scenario string `json:"scenario"`
	Seed     int64  `json:"seed"`
	// TimeScale is the run's compression: scenario time = wall time × TimeScale.
	TimeScale float64 `json:"time_scale"`
	Backend   string  `json:"backend"` // "local", "embedded" or "external"
	Algorithm string  `json:"algorithm"`
	// Traits are what the algorithm's registration declares of it that a
	// reader needs (Trait* constants).
	Traits   []string `json:"traits,omitempty"`
	Workload string   `json:"workload"`
	// FencingEnforced is true when the resource refuses stale fencing tokens.
	FencingEnforced bool `json:"fencing_enforced"`
	// CheckAndSet is true when the resource stores the lock's unique token
	// as currlock at the claim and accepts a write only while currlock
	// still equals the write's token (antirez 2016, lock-theory §7.3).
	CheckAndSet  bool      `json:"check_and_set,omitempty"`
	Clients      []string  `json:"clients"`
	Nodes        []string  `json:"nodes"`
	RedisVersion string    `json:"redis_version,omitempty"`
	Started      time.Time `json:"started"`
	// Plan is the run's fault plan, one step per fault, resolved from the
	// scenario and the seed alone (targets drawn, times in wall ns). Each
	// fault operation of the history carries the step it fired. The steps
	// fired by hand (TriggerManual, locksim serve) follow the planned ones
	// once the run has ended: a history streamed during the run has only
	// the planned steps in its header.
	Plan []FaultStep `json:"plan,omitempty"`
	// Params are the workload's numbers the checkers need (Param*
	// constants); durations among them are wall ns like every time here.
	Params map[string]int64 `json:"params,omitempty"`
	// Persistence is each node's persistence ("none", "aof-everysec",
	// "aof-always"), by node name: whether a crashed node comes back with
	// its keys.
	Persistence map[string]string `json:"persistence,omitempty"`
	// MaxTimerLagNS is how late, at worst, the harness was while the
	// workload ran (wall ns; 0 when not measured): a short timer of its
	// firing late, or a client beginning its workload late past its
	// planned start (LateStart): how busy the machine was. Every wall ns of lag is TimeScale ns of
	// scenario time the clients did not get on time.
	MaxTimerLagNS int64 `json:"max_timer_lag_ns,omitempty"`
	// WallRate is how many ns the host's wall clock (CLOCK_REALTIME) ran
	// per ns of the run's own monotonic clock, measured from the run's
	// start to its end; 0 (not measured, or equal to within 1e-6) reads
	// as 1. Redis stamps MONITOR lines and counts a key's TTL on the wall
	// clock, the harness times clients on the monotonic one: on a host
	// whose wall clock is slewed (found at 1.005: a 10 s TTL ended 50 ms
	// of the run's clock early), a key set with PX n lives n/WallRate ns
	// of the run's clock (NodeDuration).
	WallRate float64 `json:"wall_rate,omitempty"`
	// Streaming is true in the header of a file still being written while
	// the run goes on (Recorder.Stream); the finished run's file is
	// rewritten without it. A file whose header still says streaming was
	// cut off: its writer died (SIGKILL) before the run ended.
	Streaming bool `json:"streaming,omitempty"`
	// Observed names the nodes whose commands the history records as node
	// events (NodeCmd); empty: node events not observed (observation off,
	// or a backend that cannot observe, like the embedded one).
	Observed []string `json:"observed,omitempty"`
	// Cut is true in a file written from a cut-off history (History.Cut),
	// e.g. one `locksim check` saved beside its report.
	Cut bool `json:"cut,omitempty"`
	// Ops is the number of operation lines that follow the header in a
	// finished file (Encode sets it; 0 in a streaming file and in files
	// of a locksim before it). Decode of a file with fewer sets
	// History.Cut: a file cut at a line boundary (`head -n 100`) has no
	// torn last line to give it away (issue 31).
	Ops int `json:"ops,omitempty"`
}

// scale is the header's time scale, 1 when unset.
func (h Header) scale() float64 {
	if h.TimeScale <= 0 || math.IsNaN(h.TimeScale) || math.IsInf(h.TimeScale, 0) {
		return 1
	}
	return h.TimeScale
}

// ScenarioSeconds converts a wall-time offset or duration in ns to scenario
// seconds.
func (h Header) ScenarioSeconds(ns int64) float64 {
	return float64(ns) / 1e9 * h.scale()
}

// ScenarioTime converts a wall-time duration in ns to scenario time, rounded to
// the microsecond (the wall value was scenario time divided by the scale, so
// a 35 s pause at scale 3 reads 35 s again, not 34.999999998 s).
func (h Header) ScenarioTime(ns int64) time.Duration {
	return time.Duration(float64(ns) * h.scale()).Round(time.Microsecond)
}

// wallRate is WallRate, 1 when unset or not a plausible rate.
func (h Header) wallRate() float64 {
	if !(h.WallRate > 0.5 && h.WallRate < 2) {
		return 1
	}
	return h.WallRate
}

// NodeDuration converts a span the nodes count on their wall clock (a
// TTL: PX, EX, PEXPIRE, in ns) to ns of the run's clock: n / WallRate.
func (h Header) NodeDuration(ns int64) int64 {
	r := h.wallRate()
	if r == 1 {
		return ns
	}
	return int64(math.Round(float64(ns) / r))
}

// NodeInstant maps an absolute Unix time on the nodes' wall clock (ns;
// PXAT, EXAT, PEXPIREAT, EXPIREAT) onto the run's clock: ns since
// Started, at WallRate. ok is false when the history does not say when
// it started.
func (h Header) NodeInstant(unixNS int64) (t int64, ok bool) {
	if h.Started.IsZero() {
		return 0, false
	}
	return h.NodeDuration(unixNS - h.Started.UnixNano()), true
}

// WallRateOf is the wall clock's ns per monotonic ns over a span that
// took mono on the monotonic clock and wall on the wall clock, as
// Header.WallRate records it (to 1e-6): 0 when they agree to within 1e-6
// or mono is not positive. The runner measures it from the run's start
// (a time.Now() reading, whose Sub is monotonic and whose Round(0).Sub is
// wall) to the end of its record.
func WallRateOf(mono, wall time.Duration) float64 {
	if mono <= 0 {
		return 0
	}
	r := float64(wall) / float64(mono)
	if math.Abs(r-1) < 1e-6 || r <= 0 {
		return 0
	}
	return math.Round(r*1e6) / 1e6
}

// Wall converts a scenario-time duration to wall ns.
func (h Header) Wall(d time.Duration) int64 {
	return int64(float64(d) / h.scale())
}

// History is a header and its operations, ordered by Index.
type History struct {
	Header Header
	Ops    []Op
	// Cut is set by Decode on a history whose writer died before the run
	// ended (its header still says streaming, or its last line is cut
	// off): it holds what was on disk, and operations still in flight were
	// recorded open. Not part of the file.
	Cut bool `json:"-"`
}

// End is the latest instant recorded in h: the largest invoke or complete
// time, true ns since the run's start (0 for an empty history).
func (h History) End() int64 {
	var end int64
	for _, op := range h.Ops {
		end = max(end, op.Invoke, op.Complete)
	}
	return end
}

// Faults returns the fault operations of h, in index order.
func (h History) Faults() []Op {
	var fs []Op
	for _, op := range h.Ops {
		if op.F == Fault && op.Value.Fault != nil {
			fs = append(fs, op)
		}
	}
	return fs
}
