package runner

import (
	"sync"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// refusal is the resource's reason to refuse a write (history Refusal*
// codes), with the highest fencing token it had seen for a stale one; the
// zero value accepts.
type refusal struct {
	why  string
	seen int64
}

// ledger is the protected resource of every workload, in the harness: the
// invoices and the payment gateway, the counters, the inventory's shipping
// ledger, the leader's work log. It is the ground truth of what happened:
// every decision it makes is recorded in the history. With fencing on, it
// refuses a fencing token (or a leader's epoch) lower than the highest it
// has seen for that object, checking and writing in one step (Kleppmann
// 2016; lock-theory §7.2). With check-and-set on, it keeps the token of
// the last claim per object (currlock) and refuses a write whose token is
// not that one, in the same step (antirez 2016; lock-theory §7.3).
type ledger struct {
	fencing     bool
	idempotency bool
	cas         bool

	mu       sync.Mutex
	invoices map[string]*invoice
	fences   map[string]int64 // highest fencing token seen, per object
	counters map[string]int64
	shipped  map[string]int64
	terms    int64
	currlock map[string]string // last claimed owner token, per object (cas)
}

type invoice struct {
	paid    bool
	charges int
	// failed is the job record's failure metadata (Bull's failedReason),
	// written by a record-failure; it overwrites a finished record.
	failed bool
}

func newLedger(fencing, idempotency, cas bool) *ledger {
	return &ledger{fencing: fencing, idempotency: idempotency, cas: cas, invoices: map[string]*invoice{},
		fences: map[string]int64{}, counters: map[string]int64{}, shipped: map[string]int64{}, currlock: map[string]string{}}
}

func (l *ledger) get(key string) *invoice {
	inv := l.invoices[key]
	if inv == nil {
		inv = &invoice{}
		l.invoices[key] = inv
	}
	return inv
}

// admit applies fencing: it refuses a token lower than the object's
// highest, or accepts it and raises the highest; with check-and-set it
// refuses an owner token other than the object's currlock. Call with l.mu
// held.
func (l *ledger) admit(key string, p proof) refusal {
	if l.cas && l.currlock[key] != p.token {
		return refusal{why: history.RefusalLockChanged}
	}
	fence := p.fence
	if !l.fencing {
		return refusal{}
	}
	if seen := l.fences[key]; fence < seen {
		return refusal{history.RefusalStaleFence, seen}
	}
	l.fences[key] = fence
	return refusal{}
}

// status reads an invoice: workload.ResultPaid or ResultUnpaid.
func (l *ledger) status(key string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.get(key).paid {
		return workload.ResultPaid
	}
	return workload.ResultUnpaid
}

// proof is what a write shows the resource of its lease: the fencing
// token and the owner token.
type proof struct {
	fence int64
	token string
}

// claim registers a fencing token at the object ("claim first"); with
// check-and-set it stores the owner token as the object's currlock, as
// antirez's "set X.currlock = token" on starting work (always accepted).
func (l *ledger) claim(key string, p proof) refusal {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cas {
		l.currlock[key] = p.token
		return refusal{}
	}
	return l.admit(key, p)
}

// charge takes the money. Every accepted charge is money taken, whatever the
// invoice's status: the gateway is not idempotent, unless idempotency is on:
// then it keys each charge by the invoice and refuses a second one
// (Stripe-style idempotency keys, lock-theory S19).
func (l *ledger) charge(key string, p proof) refusal {
	l.mu.Lock()
	defer l.mu.Unlock()
	inv := l.get(key)
	if r := l.admit(key, p); r.why != "" {
		return r
	}
	if l.idempotency && inv.charges > 0 {
		return refusal{why: history.RefusalDuplicateKey}
	}
	inv.charges++
	return refusal{}
}

// markPaid sets the invoice's status to paid.
func (l *ledger) markPaid(key string, p proof) refusal {
	l.mu.Lock()
	defer l.mu.Unlock()
	inv := l.get(key)
	if r := l.admit(key, p); r.why != "" {
		return r
	}
	inv.paid = true
	return refusal{}
}

// complete is a job queue's completion (Bull's moveToFinished): the
// invoice's record set finished (paid), once owns — the token check the
// client ran on the lock key — said the writer still holds the lock.
func (l *ledger) complete(key string, p proof, owns bool) refusal {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !owns {
		return refusal{why: history.RefusalLockMismatch}
	}
	if r := l.admit(key, p); r.why != "" {
		return r
	}
	inv := l.get(key)
	inv.paid, inv.failed = true, false
	return refusal{}
}

// recordFailure writes the failure metadata into the invoice's job record
// (Bull's failedReason): refused only when checked and owns is false.
func (l *ledger) recordFailure(key string, p proof, checked, owns bool) refusal {
	l.mu.Lock()
	defer l.mu.Unlock()
	if checked && !owns {
		return refusal{why: history.RefusalLockMismatch}
	}
	if r := l.admit(key, p); r.why != "" {
		return r
	}
	l.get(key).failed = true
	return refusal{}
}

// readCounter returns the counter's value.
func (l *ledger) readCounter(key string) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.counters[key]
}

// setCounter writes v to the counter (the write of a read-modify-write).
func (l *ledger) setCounter(key string, p proof, v int64) refusal {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r := l.admit(key, p); r.why != "" {
		return r
	}
	l.counters[key] = v
	return refusal{}
}

// ship records one item shipped for a sale Redis accepted.
func (l *ledger) ship(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.shipped[key]++
}

// nextTerm numbers a leader election in grant order, for algorithms that
// hand out no fencing token.
func (l *ledger) nextTerm() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.terms++
	return l.terms
}

// lead accepts one unit of a leader's work under epoch; with the epoch
// check on it refuses an epoch lower than the highest seen.
func (l *ledger) lead(key string, p proof) refusal {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.admit(key, p)
}
