// Package scenario is the schema of a scenario file: strict YAML parsing with
// file:line:column positions, defaults and validation. Nothing else in
// locksim reads scenario YAML.
//
// Every duration in a scenario is scenario time (the incident's own units,
// "ttl: 30s"), written as a Go duration string. The runner divides by
// TimeScale to get wall time.
package scenario

import (
	"strconv"
	"time"

	"github.com/locksim/locksim/internal/algo"

	"github.com/locksim/locksim/internal/workload"
)

// HarnessFields are the top-level fields of a scenario that say what the
// harness expects of a run or how it watches it (the expected verdict, the
// coverage checker's minimum of acquires, the final probe, MONITOR), not
// what the lock, its clients or the faults do: a lesson page's scenario
// diff leaves them out, as it leaves out name and seed, so that a student
// does not read them as part of a fix (issue 34).
var HarnessFields = []string{"expect", "expect_live", "min_acquires", "observe", "probe", "probe_timeout"}

// Scenario is one scenario file after defaults are applied.
type Scenario struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	// DescriptionVI is the description in Vietnamese, for a report
	// written in vi; "" falls back to Description.
	DescriptionVI string `yaml:"description_vi,omitempty"`
	// Lessons are the course lessons (42–51) the scenario illustrates;
	// a suite writes one page per lesson from them.
	Lessons Lessons `yaml:"lesson,omitempty"`
	// Seed drives every random choice of the run; nil means "draw one".
	Seed *int64 `yaml:"seed"`
	// TimeScale compresses time: wall = scenario / TimeScale. Default 1.
	TimeScale float64 `yaml:"time_scale"`
	// Duration bounds the run in scenario time. Default 10m.
	Duration Duration `yaml:"duration"`
	// Nodes is the number of redis masters, 1..9 (Redlock's quorum is
	// Nodes/2+1). Default 1.
	Nodes int `yaml:"nodes"`
	// Replicas is the number of replicas of every master (0..4), each
	// following it through its own replication link; Sentinels the number
	// of redis-sentinel processes watching them (0, 1, 3 or 5), with the
	// timings in Sentinel (issue 17). Default 0.
	Replicas  int       `yaml:"replicas,omitempty"`
	Sentinels int       `yaml:"sentinels,omitempty"`
	Sentinel  *Sentinel `yaml:"sentinel,omitempty"`
	// Persistence of every node: none (default), aof-everysec, aof-always,
	// rdb (a snapshot every SaveInterval).
	Persistence string `yaml:"persistence"`
	// SaveInterval is how often an rdb node writes its snapshot, scenario
	// time. Default 60s.
	SaveInterval Duration `yaml:"save_interval,omitempty"`
	// Clients is the number of lock clients, named w1..wN. Required, ≥ 1.
	// The file gives it as a count ("clients: 2") or as a mapping of the
	// clients w1..wN to their own settings ("clients: {w1: {job: 40s},
	// w2: {}}"), kept in PerClient.
	Clients int `yaml:"clients"`
	// PerClient holds the settings of the clients the mapping form names
	// (their job, start and keys); nil for the count form. Normalize
	// writes the mapping form back.
	PerClient map[string]ClientSpec `yaml:"-"`
	// Algorithm is the lock algorithm: naive, safe, fenced, redlock,
	// redlock-nocheck, redlock-fenced. Required.
	Algorithm string `yaml:"algorithm"`
	// TTL of the lease, scenario time. Required, > 0.
	TTL Duration `yaml:"ttl"`
	// RetryDelay between acquire attempts of one client. Default 1s.
	RetryDelay Duration `yaml:"retry_delay"`
	// Stagger delays client wN's start by (N-1)×Stagger. Default 1s.
	Stagger  Duration `yaml:"stagger"`
	Workload Workload `yaml:"workload"`
	Faults   []Fault  `yaml:"faults,omitempty"`
	// Nemesis is an optional seeded random fault schedule (Jepsen style).
	Nemesis *Nemesis `yaml:"nemesis,omitempty"`
	// ClientStart overrides the stagger for the named clients: client →
	// start offset, scenario time.
	ClientStart map[string]Duration `yaml:"client_start,omitempty"`
	// NodePersistence overrides Persistence for the named nodes.
	NodePersistence map[string]string `yaml:"node_persistence,omitempty"`
	// Library holds the options of a third-party lock library (algorithm
	// redsync or redislock); nil when the file has no library block.
	Library *Library `yaml:"library,omitempty"`
	// NodeTimeout bounds one node's reply in a multi-node algorithm
	// (redlock's per-node timeout), scenario time; 0 keeps the
	// algorithm's default. It also becomes the clients' per-command
	// timeout.
	NodeTimeout Duration `yaml:"node_timeout,omitempty"`
	// Process configures a lock client run as a child process (algorithm
	// process); nil otherwise.
	Process *Process `yaml:"process,omitempty"`
	// Probe makes the runner do one final liveness probe per lock key after
	// every fault healed and the workers finished: a fresh client acquires
	// and releases it through a healthy link. Default true, false for the
	// lock-free algorithms (atomic-lua, idempotency-key).
	Probe *bool `yaml:"probe,omitempty"`
	// MinHold is the least time a lease stays taken after its grant, even
	// when its holder finishes sooner (ShedLock's lockAtLeastFor), scenario
	// time; only for an algorithm with the min-hold trait. Default 0.
	MinHold Duration `yaml:"min_hold,omitempty"`
	// ProbeTimeout bounds how long the final probe waits for the lock,
	// scenario time; 0 means twice the TTL. A scenario whose TTL is far
	// longer than the run (a 24 h scheduler mutex, BR-34) sets it so that
	// a probe of a lock held for the whole TTL does not wait for it.
	ProbeTimeout Duration `yaml:"probe_timeout,omitempty"`
	// ExpectLive makes liveness findings (stuck-lock, unavailable)
	// violations rather than informational (history Params "expect_live").
	ExpectLive bool `yaml:"expect_live,omitempty"`
	// MinAcquires overrides the coverage checker's minimum of granted
	// acquires (history Params "min_acquires"); nil keeps its default.
	MinAcquires *int `yaml:"min_acquires,omitempty"`
	// Observe records what each Redis node executed as node events (one
	// MONITOR connection per node, design §12); nil means true. MONITOR
	// costs the node throughput: a throughput scenario may turn it off.
	Observe *bool `yaml:"observe,omitempty"`
	// Expect is what the scenario is meant to produce: a verdict (valid,
	// invalid, unknown; none when zero) and, in the long form, the
	// anomaly kinds.
	Expect Expectation `yaml:"expect,omitempty"`
	// FixedBy names the scenario that shows the same fault made harmless,
	// a path relative to this file's directory ("gc-pause-fencing.yaml");
	// "" when none is shipped. Normalize leaves it out: a stored copy of
	// the scenario lives elsewhere (results.json keeps it, resolved).
	FixedBy string `yaml:"-"`

	// File is the path the scenario was loaded from (not a YAML field).
	File string `yaml:"-"`
	// Warnings are what Load found on disk that will not stop a run but
	// may change it (a python3 that lacks a module its adapter imports);
	// Parse finds none. Not a YAML field.
	Warnings []*FieldError `yaml:"-"`
}

// Sentinel holds Sentinel's timings, scenario time (scaled like every
// duration): down-after-milliseconds and failover-timeout.
type Sentinel struct {
	// DownAfter: how long a master must not answer before a sentinel
	// thinks it down. Default 30s, Redis's.
	DownAfter Duration `yaml:"down_after"`
	// FailoverTimeout: Sentinel's failover-timeout. Default 3m, Redis's.
	FailoverTimeout Duration `yaml:"failover_timeout"`
}

// Sentinel timing defaults: Redis's own (sentinel.conf, "Redis Sentinel"
// on redis.io).
const (
	DefaultDownAfter       = Duration(30 * time.Second)
	DefaultFailoverTimeout = Duration(180 * time.Second)
	DefaultSaveInterval    = Duration(60 * time.Second)
)

// Workload describes the protected resource and what each client does.
type Workload struct {
	// Kind of workload: payment. Default payment.
	Kind string `yaml:"kind"`
	// Keys is the number of protected objects (invoices), named
	// invoice-1..invoice-N; every client processes every one. Default 1.
	Keys int `yaml:"keys"`
	// Read is how long reading the invoice's status takes. Default 0.
	Read Duration `yaml:"read"`
	// Job is how long the slow work between the read and the charge takes
	// (the payment provider call). Default 0.
	Job Duration `yaml:"job"`
	// Fencing makes the resource refuse a fencing token lower than the
	// highest it has seen for that object (check and write in one step).
	Fencing bool `yaml:"fencing"`
	// Claim makes each client register its fencing token at the resource
	// right after acquiring (Kleppmann's fencing with "claim first",
	// lock-theory §7.2). Default: true when Fencing is on.
	Claim *bool `yaml:"claim"`
	// CheckAndSet makes the resource check the lock's unique token
	// instead of an ordered fencing token (antirez's alternative to
	// fencing, lock-theory §7.3): the claim stores currlock = the lease's
	// owner token, and a write is accepted only while currlock still equals
	// the write's token, checked and written in one step. It needs no
	// fenced algorithm; it cannot order holders. Payment and counter only.
	CheckAndSet bool `yaml:"check_and_set,omitempty"`
	// UntilValidity, when > 0, replaces Job: the client works until its
	// own clock says its lease's validity has only this much left
	// (lock-theory S16). Scenario time.
	UntilValidity Duration `yaml:"until_validity,omitempty"`

	// Attrs are the workload's own fields (Kind's workload.Kind.Fields),
	// decoded by its registration (package workload); nil only in a
	// Scenario not made by the parser. A normalised scenario writes them
	// among the fields above (MarshalYAML).
	Attrs workload.Workload `yaml:"-"`
	// Rounds: how many times each client works through its keys (a
	// workload of numbered objects), so that a key is locked again later.
	// Default 1.
	Rounds int `yaml:"rounds,omitempty"`
	// RoundDelay is the pause between two rounds, scenario time.
	RoundDelay Duration `yaml:"round_delay,omitempty"`
}

// ClientSpec is one client's own settings (the mapping form of clients:).
// Unset fields keep the scenario's.
type ClientSpec struct {
	// Job replaces workload.job for this client.
	Job *Duration `yaml:"job,omitempty"`
	// Start replaces the stagger (and client_start) for this client:
	// its start offset, scenario time.
	Start *Duration `yaml:"start,omitempty"`
	// Keys are the numbers (1..workload.keys) of the protected objects
	// this client works on, in order; empty means all of them. For the
	// leader workload they are the leader leases it campaigns for (one
	// scheduler lock per queue: leader-1..leader-N).
	Keys []int `yaml:"keys,omitempty,flow"`
	// Process names the simulated process (one JVM, one Node worker) the
	// client runs in: clients naming the same process are its threads and
	// share its owner identity and its process-local locks (algo.Host).
	// "" means a process of its own.
	Process string `yaml:"process,omitempty"`
}

// Process configures a lock client run as a child process speaking
// locksim's JSON Lines protocol (docs/protocol.md).
type Process struct {
	// Command is the program and its arguments, run directly (never
	// through a shell). Required.
	Command []string `yaml:"command,flow"`
	// Dir is the working directory, relative to the scenario file's
	// directory (made absolute when the file is loaded). Default: that
	// directory.
	Dir string `yaml:"dir,omitempty"`
	// Env are extra environment variables.
	Env map[string]string `yaml:"env,omitempty"`
	// Timeout bounds one reply of the process, scenario time; no reply
	// within it is an unknown outcome. Default: the per-command timeout.
	Timeout Duration `yaml:"timeout,omitempty"`
	// Options are passed to the process in its hello message.
	Options map[string]any `yaml:"options,omitempty"`
	// Traits are what holds of the lock in the process: fenced,
	// multi-node, single-node.
	Traits []string `yaml:"traits,omitempty,flow"`
	// FakeTime is how client clock faults reach the process through
	// libfaketime: "jump" (wall clock only) or "rate" (wall and
	// monotonic); set from the scenario's client clock faults when the
	// file does not say, "" when it has none.
	FakeTime string `yaml:"fake_time,omitempty"`
}

// ProcessTraits are the traits a process block may declare.
func ProcessTraits() []string { return []string{"fenced", "multi-node", "single-node"} }

// Traits are the traits of the scenario's algorithm: its registration's,
// and for a lock client process those its process block declares (and
// ClientClock when client clock faults reach it through libfaketime).
func (s Scenario) Traits() algo.Traits {
	t := traitsOf(s.Algorithm)
	if !t.Process || s.Process == nil {
		return t
	}
	for _, name := range s.Process.Traits {
		switch name {
		case "fenced":
			t.Fenced = true
		case "multi-node":
			t.MultiNode = true
		case "single-node":
			t.SingleNode = true
		}
	}
	t.ClientClock = s.Process.FakeTime != ""
	return t
}

// Job is the job length of the named client, scenario time.
func (s Scenario) Job(client string) Duration {
	if c, ok := s.PerClient[client]; ok && c.Job != nil {
		return *c.Job
	}
	return s.Workload.Job
}

// ProcessOf is the name of the simulated process the named client runs in:
// the one its clients: entry names, else its own name.
func (s Scenario) ProcessOf(client string) string {
	if c, ok := s.PerClient[client]; ok && c.Process != "" {
		return c.Process
	}
	return client
}

// ProbeWait is how long the final probe waits for the lock, scenario
// time: ProbeTimeout, else twice the TTL.
func (s Scenario) ProbeWait() Duration {
	if s.ProbeTimeout > 0 {
		return s.ProbeTimeout
	}
	return 2 * s.TTL
}

// ProbeEnabled reports whether the runner probes the lock keys at the end.
func (s Scenario) ProbeEnabled() bool {
	if s.Probe != nil {
		return *s.Probe
	}
	return !lockFree(s.Algorithm) // a lock-free algorithm has no lock key
}

// Fenced reports whether the resource refuses stale fencing tokens or
// epochs: workload.fencing, or the workload's own check (a leader's
// epoch_check, workload.Fencer).
func (w Workload) Fenced() bool {
	f, ok := w.Attrs.(workload.Fencer)
	return w.Fencing || (ok && f.Fences())
}

// Duration is a time.Duration written in YAML as a Go duration string
// ("30s", "1m30s", "250ms").
type Duration time.Duration

// D returns d as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// String formats d like time.Duration.
func (d Duration) String() string { return time.Duration(d).String() }

// ClientName returns the name of client i (0-based): w1, w2, ….
func ClientName(i int) string { return "w" + strconv.Itoa(i+1) }

// ClaimFirst reports whether clients claim the resource right after acquiring.
func (w Workload) ClaimFirst() bool {
	if w.Claim != nil {
		return *w.Claim
	}
	return w.Fencing || w.CheckAndSet
}

// Observed reports whether the run records node events.
func (s Scenario) Observed() bool { return s.Observe == nil || *s.Observe }
