package scenario

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/workload"
)

// workloadOnly names, for each workload field that belongs to some kinds
// only, the kinds it applies to.
var workloadOnly = map[string][]string{
	"idempotency":    {workload.Payment},
	"completion":     {workload.Payment},
	"failure_record": {workload.Payment},
	"stock":          {workload.Inventory},
	"interval":       {workload.Cron},
	"fires":          {workload.Cron},
	"lock_per_fire":  {workload.Cron},
	"terms":          {workload.Leader},
	"epoch_check":    {workload.Leader},
	"heartbeat":      {workload.Leader},
	"permits":        {workload.Semaphore},
	"fencing":        {workload.Payment, workload.Counter},
	"claim":          {workload.Payment, workload.Counter},
}

// workloadMore reads the workload fields beyond payment's, and checks that
// the workload and the algorithm fit together. Unknown and duplicate
// fields were reported by workload; the first occurrence of each known
// field is used here.
func (p *parser) workloadMore(f field, w *Workload, algorithm string) {
	m := f.val
	if m == nil || m.Kind != yaml.MappingNode {
		p.defaultsFor(w)
		return
	}
	fs := knownFields(m, workloadFields)
	kind := w.Kind
	kindOK := true
	if kf := fs["kind"]; kf.val != nil {
		if v, isStr := kf.val.Value, kf.val.Kind == yaml.ScalarNode; !isStr || !contains(workload.Names(), v) {
			kindOK = false // reported by workload
		}
	}
	for name, kinds := range workloadOnly {
		f := fs[name]
		if (name == "fencing" || name == "claim") && f.val != nil && f.val.Value == "false" {
			continue // written by Normalize for every workload
		}
		if f.key != nil && kindOK && !contains(kinds, kind) {
			p.errorf(f.key, "workload."+name, "does not apply to the %s workload (only to %s)", kind, strings.Join(kinds, ", "))
		}
	}
	if v, _, st := p.boolean(fs["idempotency"], "workload.idempotency"); st == good {
		w.Idempotency = v
	}
	p.completion(fs["completion"], fs["failure_record"], w, algorithm)
	if v, st := p.smallInt(fs["stock"], "workload.stock", 1, 1_000_000, "items in stock at time zero"); st == good {
		w.Stock = v
	}
	d, n, st := p.duration(fs["interval"], "workload.interval")
	switch st {
	case good:
		if d <= 0 {
			p.errorf(n, "workload.interval", "must be > 0 (got %s)", describe(n))
		}
		w.Interval = d
	case absent:
		if kind == workload.Cron && kindOK {
			p.required(m, fs["interval"], "workload.interval", "the time between two fire times, e.g. \"interval: 60s\"")
		}
	}
	if v, st := p.smallInt(fs["fires"], "workload.fires", 1, 10_000, "how many fire times each scheduler goes through"); st == good {
		w.Fires = v
	}
	if v, _, st := p.boolean(fs["lock_per_fire"], "workload.lock_per_fire"); st == good {
		w.LockPerFire = v
	}
	if v, st := p.smallInt(fs["terms"], "workload.terms", 1, 10_000, "units of work an elected leader does"); st == good {
		w.Terms = v
	}
	if v, _, st := p.boolean(fs["epoch_check"], "workload.epoch_check"); st == good {
		w.EpochCheck = v
	}
	p.heartbeat(fs["heartbeat"], w, algorithm)
	switch v, st := p.smallInt(fs["permits"], "workload.permits", 1, MaxClients, "how many clients may hold the semaphore at once"); st {
	case good:
		w.Permits = v
	case absent:
		if kind == workload.Semaphore && kindOK {
			p.required(m, fs["permits"], "workload.permits", "how many clients may hold the semaphore at once, e.g. \"permits: 2\"")
		}
	}
	p.defaultsFor(w)
	if !kindOK || algorithm == "" {
		return
	}
	at := m
	if kf := fs["kind"]; kf.val != nil {
		at = kf.val
	}
	traits := p.traitsOf(algorithm)
	if ws := traits.Workloads; len(ws) > 0 && !contains(ws, kind) {
		p.errorf(at, "workload.kind", "algorithm %s runs the %s workload only (got %s)", algorithm, strings.Join(ws, ", "), kind)
	}
	if kind == workload.Semaphore && !traits.Runs(kind) {
		p.errorf(at, "workload.kind", "the semaphore workload needs algorithm %s (got %s): a lock admits one client, a semaphore N", runnersOf(kind), algorithm)
	}
	if traits.IdempotencyKey && kind == workload.Payment && !w.Idempotency {
		msg := "algorithm " + algorithm + " takes no lock and relies on the gateway's idempotency key; set \"idempotency: true\""
		if f := fs["idempotency"]; f.val != nil {
			p.errorf(f.val, "workload.idempotency", "%s", msg)
		} else {
			p.errorf(m, "workload.idempotency", "%s", msg)
		}
	}
}

// defaultsFor fills the defaults of the workload's own fields.
func (p *parser) defaultsFor(w *Workload) {
	switch w.Kind {
	case workload.Inventory:
		if w.Stock == 0 {
			w.Stock = 1
		}
	case workload.Cron:
		if w.Fires == 0 {
			w.Fires = 1
		}
	case workload.Leader:
		if w.Terms == 0 {
			w.Terms = 1
		}
	}
}

// knownFields maps the allowed keys of mapping m to their fields, for a
// second pass over a mapping whose problems (unknown or duplicate keys)
// the first pass (parser.fields) already reported; a duplicate keeps its
// first value.
func knownFields(m *yaml.Node, allowed []string) map[string]field {
	fs := map[string]field{}
	for k := 0; k+1 < len(m.Content); k += 2 {
		key := m.Content[k]
		if key.Kind != yaml.ScalarNode || !contains(allowed, key.Value) {
			continue
		}
		if _, dup := fs[key.Value]; !dup {
			fs[key.Value] = field{key, m.Content[k+1]}
		}
	}
	return fs
}

// Completion and failure-record styles of the payment workload
// (Workload.Completion, Workload.FailureRecord).
const (
	CompletionToken        = "token"
	FailureRecordUnchecked = "unchecked"
	FailureRecordToken     = "token"
)

// completion reads workload.completion and workload.failure_record: the
// two-write job of BR-23 (an unguarded charge, then a token-checked
// completion, then on refusal a failure record).
func (p *parser) completion(cf, ff field, w *Workload, algorithm string) {
	if v, n, st := p.enum(cf, "workload.completion", "completion", []string{CompletionToken}); st == good {
		if algorithm != "" && p.traitsOf(algorithm).LockFree {
			p.errorf(n, "workload.completion", "needs an algorithm that takes a lock (got %s): the completion checks the lock key's owner token", algorithm)
		} else {
			w.Completion = v
		}
	}
	v, n, st := p.enum(ff, "workload.failure_record", "failure record", []string{FailureRecordUnchecked, FailureRecordToken})
	switch {
	case st != good:
		if w.Completion != "" {
			w.FailureRecord = FailureRecordUnchecked
		}
	case cf.val == nil:
		p.errorf(n, "workload.failure_record", "needs completion: token: the failure record is what a worker writes after its token-checked completion is refused")
	default:
		w.FailureRecord = v
	}
}
