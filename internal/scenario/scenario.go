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
)

// Scenario is one scenario file after defaults are applied.
type Scenario struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	// Seed drives every random choice of the run; nil means "draw one".
	Seed *int64 `yaml:"seed"`
	// TimeScale compresses time: wall = scenario / TimeScale. Default 1.
	TimeScale float64 `yaml:"time_scale"`
	// Duration bounds the run in scenario time. Default 10m.
	Duration Duration `yaml:"duration"`
	// Nodes is the number of redis nodes: 1 or 5. Default 1.
	Nodes int `yaml:"nodes"`
	// Persistence of every node: none (default), aof-everysec, aof-always.
	Persistence string `yaml:"persistence"`
	// Clients is the number of lock clients, named w1..wN. Required, ≥ 1.
	Clients int `yaml:"clients"`
	// Algorithm is the lock algorithm: naive, safe, fenced. Required.
	Algorithm string `yaml:"algorithm"`
	// TTL of the lease, scenario time. Required, > 0.
	TTL Duration `yaml:"ttl"`
	// RetryDelay between acquire attempts of one client. Default 1s.
	RetryDelay Duration `yaml:"retry_delay"`
	// Stagger delays client wN's start by (N-1)×Stagger. Default 1s.
	Stagger  Duration `yaml:"stagger"`
	Workload Workload `yaml:"workload"`
	Faults   []Fault  `yaml:"faults"`
	// Expect is the verdict the scenario is meant to produce: "" (none),
	// valid, invalid or unknown.
	Expect string `yaml:"expect"`

	// File is the path the scenario was loaded from (not a YAML field).
	File string `yaml:"-"`
}

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
}

// Pause points of a client (design §5).
const (
	PointAfterAcquire  = "after-acquire"
	PointBeforeWrite   = "before-write"
	PointBeforeRelease = "before-release"
)

// Fault is one scheduled fault.
type Fault struct {
	// Kind: pause.
	Kind string `yaml:"kind"`
	// Client the fault acts on (pause), e.g. w1.
	Client string `yaml:"client"`
	// Point at which a pause freezes the client: after-acquire,
	// before-write, before-release.
	Point string `yaml:"point"`
	// Occurrence: the pause fires the Nth time the client reaches Point.
	// Default 1.
	Occurrence int `yaml:"occurrence"`
	// Duration of the fault, scenario time. Required, > 0.
	Duration Duration `yaml:"duration"`

	// Line and Column locate the fault in its file (not YAML fields).
	Line   int `yaml:"-"`
	Column int `yaml:"-"`
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
	return w.Fencing
}
