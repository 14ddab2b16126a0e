// Package history is the run's record of everything that happened: lock
// operations of the clients, decisions of the protected resource and faults of
// the nemesis, one [Op] per operation, in the JSON Lines form of design §7.
//
// Every time in a history is true time: nanoseconds of the harness's
// monotonic clock since the run started (wall time, not scenario time). The
// header's TimeScale converts: scenario seconds = wall seconds × TimeScale.
// Client clocks never appear here.
//
// history imports nothing from the runtime packages, so a stored history can
// be checked and reported without Redis (`locksim check`).
package history

import "time"

// Format and Version identify the file format on the header line.
const (
	Format  = "locksim-history"
	Version = 1
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
	Done  Func = "done"
	Fault Func = "fault"
	Probe Func = "probe"
)

// NemesisProcess is the Process of every fault operation, and NemesisClient
// its Client.
const (
	NemesisProcess = -1
	NemesisClient  = "nemesis"
)

// Value carries what an operation was about. Only the fields that apply are
// set.
type Value struct {
	// Lock fields.
	Token string   `json:"token,omitempty"`  // random owner token of the lease
	Fence int64    `json:"fence,omitempty"`  // fencing token; 0 when the algorithm has none
	TTL   int64    `json:"ttl_ns,omitempty"` // lease TTL in scenario ns, as the scenario wrote it
	Nodes []string `json:"nodes,omitempty"`  // nodes that granted (acquire) or released the key
	// Removed is set on a Release/Probe that removed the key; Removed false
	// with type OK means the release found nothing of its own to remove.
	Removed bool `json:"removed,omitempty"`

	// Resource fields (Read and Write).
	Action string `json:"action,omitempty"` // "read-status", "claim", "charge", "mark-paid", …
	Result string `json:"result,omitempty"` // what a read returned, e.g. "unpaid"
	Reason string `json:"reason,omitempty"` // why the resource refused, e.g. "stale fencing token 1 < 2"
	// Num is a number the operation read or wrote: a counter value, the
	// stock left after a sale. nil when the operation has none.
	Num *int64 `json:"num,omitempty"`

	// Fault fields (Func == Fault).
	Fault   string   `json:"fault,omitempty"`   // fault kind, e.g. "pause"
	Targets []string `json:"targets,omitempty"` // clients or nodes it acted on
	Point   string   `json:"point,omitempty"`   // pause point, e.g. "before-write"
	Detail  string   `json:"detail,omitempty"`  // free text for the narrative
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
	Error    string `json:"error,omitempty"`
}

// DetailRenewal is the Value.Detail of an extend operation that a client's
// background renewer (a watchdog) made, not the client's own code.
const DetailRenewal = "watchdog renewal"

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
	Workload  string  `json:"workload"`
	// FencingEnforced is true when the resource refuses stale fencing tokens.
	FencingEnforced bool      `json:"fencing_enforced"`
	Clients         []string  `json:"clients"`
	Nodes           []string  `json:"nodes"`
	RedisVersion    string    `json:"redis_version,omitempty"`
	Started         time.Time `json:"started"`
	// Plan is the run's fault plan, one plain line per fault in scenario
	// time; it depends on the scenario and the seed alone.
	Plan []string `json:"plan,omitempty"`
	// Params are the workload's numeric parameters the checkers need, e.g.
	// "stock" (initial inventory) or "permits" (semaphore size).
	Params map[string]int64 `json:"params,omitempty"`
	// Persistence is each node's persistence ("none", "aof-everysec",
	// "aof-always"), by node name: whether a crashed node comes back with
	// its keys. Absent in histories that predate it (then: none).
	Persistence map[string]string `json:"persistence,omitempty"`
	// MaxTimerLagNS is how late, at worst, a short timer of the harness
	// fired while the workload ran (wall ns; 0 when not measured): how
	// busy the machine was. Every wall ns of lag is TimeScale ns of
	// scenario time the clients did not get on time.
	MaxTimerLagNS int64 `json:"max_timer_lag_ns,omitempty"`
}

// ScenarioSeconds converts a true-time offset in ns to scenario seconds.
func (h Header) ScenarioSeconds(ns int64) float64 {
	scale := h.TimeScale
	if scale <= 0 {
		scale = 1
	}
	return float64(ns) / 1e9 * scale
}

// History is a header and its operations, ordered by Index.
type History struct {
	Header Header
	Ops    []Op
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

// Workload kinds, as Header.Workload names them (design §6). The scenario
// parser accepts these names and the checkers judge by them.
const (
	WorkloadPayment      = "payment"
	WorkloadCounter      = "counter"
	WorkloadInventory    = "inventory"
	WorkloadCron         = "cron"
	WorkloadLeader       = "leader"
	WorkloadSemaphore    = "semaphore"
	WorkloadCacheRebuild = "cache-rebuild"
)
