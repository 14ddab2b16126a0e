package explore

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/scenario"
)

// Base is the fault-free run an exploration starts from: the lock, its
// workload and its topology. Either a scenario file gives them (its
// faults, random nemesis and expectation are dropped) and the fields set
// here override it, or the fields alone do. Durations are scenario time.
type Base struct {
	// File is a scenario file to start from ("" for none): how to explore
	// a lock client process (algorithm: process and its process: block).
	File string
	// Algorithm is a registered algorithm (built in, or registered
	// through locksim.Main). Required without File.
	Algorithm string
	// Workload is a workload kind by name; default payment.
	Workload string
	// Nodes (masters), Clients and Keys; 0 keeps the file's, else 5 nodes
	// for a multi-node lock and 1 otherwise, 2 clients, 2 keys.
	Nodes, Clients, Keys int
	// Replicas per master and Sentinels, for failover and replication
	// lag; 0 keeps the file's.
	Replicas, Sentinels int
	// Persistence of every node; "" keeps the file's (none without one).
	Persistence string
	// TTL of the lease; 0 keeps the file's, else 10s.
	TTL time.Duration
	// Job is the job's length; 0 keeps the file's, else it is chosen by
	// the exploration (see Explore: half the TTL, or twice the TTL for a
	// lock that renews its lease).
	Job time.Duration
	// Fencing makes the resource refuse stale fencing tokens (and claim
	// first); nil keeps the file's.
	Fencing *bool
	// TimeScale compresses time; 0 keeps the file's, else 10: a TTL of
	// 10s is a second of wall time, so a loaded machine's 100 ms hiccup
	// does not make most runs unknown.
	TimeScale float64
}

// Default scales of a base built from flags alone.
const (
	DefaultTTL       = 10 * time.Second
	DefaultTimeScale = 10
	DefaultClients   = 2
	DefaultKeys      = 2
)

// Scenario builds the base scenario: read by the strict parser, as a file
// is, so a field the algorithm or the workload refuses is reported with
// its name. JobSet reports whether the job length was given (by the file
// or Job) rather than left to the exploration.
func (b Base) Scenario() (sc scenario.Scenario, jobSet bool, err error) {
	var doc *scenario.Doc
	if b.File != "" {
		data, err := os.ReadFile(b.File)
		if err != nil {
			return sc, false, fmt.Errorf("base scenario: %w", err)
		}
		if _, err := scenario.Parse(b.File, data); err != nil {
			return sc, false, err
		}
		if doc, err = scenario.ParseDoc(b.File, data); err != nil {
			return sc, false, err
		}
		for _, f := range []string{"faults", "nemesis", "expect", "fixed_by"} {
			if err := doc.Delete(f); err != nil {
				return sc, false, err
			}
		}
		jobSet = doc.Has("workload.job") || doc.Has("workload.until_validity")
	} else {
		if b.Algorithm == "" {
			return sc, false, fmt.Errorf("no algorithm: give --algorithm NAME (locksim list shows them) or a base scenario file")
		}
		doc, err = scenario.ParseDoc("explore", []byte("clients: 2\nalgorithm: safe\nttl: 10s\n"))
		if err != nil {
			return sc, false, err
		}
	}
	set := func(path, v string) {
		if err == nil {
			err = doc.Set(path, v)
		}
	}
	has := doc.Has
	alg := b.Algorithm
	if alg == "" {
		alg, _ = doc.Value("algorithm")
	}
	traits := clients.Traits{}
	if a, ok := clients.Lookup(alg); ok {
		traits = a.Traits
	}
	if b.Algorithm != "" {
		set("algorithm", b.Algorithm)
	}
	if !has("name") || b.File == "" {
		set("name", alg)
	}
	switch {
	case b.Nodes > 0:
		set("nodes", strconv.Itoa(b.Nodes))
	case !has("nodes") && traits.MultiNode:
		set("nodes", "5")
	case !has("nodes"):
		set("nodes", "1")
	}
	if b.Clients > 0 || b.File == "" {
		set("clients", strconv.Itoa(cmpOr(b.Clients, DefaultClients)))
	}
	ttl := b.TTL
	if ttl == 0 && b.File != "" {
		if v, verr := doc.Value("ttl"); verr == nil {
			ttl, _ = time.ParseDuration(v)
		}
	}
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	set("ttl", ttl.String())
	if b.File == "" || b.TimeScale > 0 {
		set("time_scale", strconv.FormatFloat(cmpOr(b.TimeScale, DefaultTimeScale), 'g', -1, 64))
	}
	if b.File == "" {
		set("retry_delay", max(ttl/40, time.Millisecond).String())
		set("stagger", max(ttl/10, time.Millisecond).String())
		set("workload.read", max(ttl/100, time.Millisecond).String())
	}
	if b.Workload != "" || !has("workload.kind") {
		set("workload.kind", cmpOr(b.Workload, "payment"))
	}
	if b.Keys > 0 || !has("workload.keys") {
		set("workload.keys", strconv.Itoa(cmpOr(b.Keys, DefaultKeys)))
	}
	if b.Job > 0 {
		set("workload.job", b.Job.String())
		jobSet = true
	}
	if b.Fencing != nil {
		set("workload.fencing", strconv.FormatBool(*b.Fencing))
	}
	if b.Persistence != "" {
		set("persistence", b.Persistence)
	}
	if b.Replicas > 0 {
		set("replicas", strconv.Itoa(b.Replicas))
	}
	if b.Sentinels > 0 {
		set("sentinels", strconv.Itoa(b.Sentinels))
	}
	if err != nil {
		return sc, false, fmt.Errorf("base scenario: %w", err)
	}
	sc, err = doc.Scenario()
	if err != nil {
		return sc, false, err
	}
	sc.File = b.File
	return sc, jobSet, nil
}

// withJob is sc with its job length (every client's) set to job and a run
// duration that leaves room for faults: twice the work of every key in
// turn plus four TTLs.
func withJob(sc scenario.Scenario, job time.Duration) (scenario.Scenario, error) {
	doc, err := scenario.DocOf(sc)
	if err != nil {
		return sc, err
	}
	if err := doc.Set("workload.job", job.String()); err != nil {
		return sc, err
	}
	work := time.Duration(sc.Workload.Keys) * (job + sc.Workload.Read.D() + sc.RetryDelay.D())
	if err := doc.Set("duration", runDuration(work*time.Duration(max(sc.Clients, 1)), sc.TTL.D()).String()); err != nil {
		return sc, err
	}
	out, err := doc.Scenario()
	if err != nil {
		return sc, err
	}
	out.File = sc.File
	return out, nil
}

// runDuration bounds a run whose work takes work: twice that plus four
// TTLs, on a whole second (a run ends when its work is done; the bound
// only stops a stuck one).
func runDuration(work, ttl time.Duration) time.Duration {
	return (2*work + 4*ttl).Round(time.Second) + time.Second
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
