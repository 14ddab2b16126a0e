package runner

import (
	"fmt"
	"sync"
)

// ledger is the payment workload's protected resource: the invoices' status
// and a non-idempotent payment gateway, in the harness. It is the ground
// truth of what happened: every decision it makes is recorded in the
// history. With fencing on, it refuses a fencing token lower than the highest
// it has seen for that invoice, checking and writing in one step
// (Kleppmann 2016; lock-theory §7.2).
type ledger struct {
	fencing bool

	mu       sync.Mutex
	invoices map[string]*invoice
}

type invoice struct {
	paid     bool
	maxFence int64
	charges  int
}

func newLedger(fencing bool) *ledger {
	return &ledger{fencing: fencing, invoices: map[string]*invoice{}}
}

func (l *ledger) get(key string) *invoice {
	inv := l.invoices[key]
	if inv == nil {
		inv = &invoice{}
		l.invoices[key] = inv
	}
	return inv
}

// admit applies fencing: it reports why a token is refused, or "" and
// raises the invoice's highest token. Call with l.mu held.
func (l *ledger) admit(inv *invoice, fence int64) string {
	if !l.fencing {
		return ""
	}
	if fence < inv.maxFence {
		return fmt.Sprintf("stale fencing token %d < %d", fence, inv.maxFence)
	}
	inv.maxFence = fence
	return ""
}

// status reads an invoice: "paid" or "unpaid".
func (l *ledger) status(key string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.get(key).paid {
		return "paid"
	}
	return "unpaid"
}

// claim registers a fencing token at the invoice ("claim first").
func (l *ledger) claim(key string, fence int64) (refused string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.admit(l.get(key), fence)
}

// charge takes the money. Every accepted charge is money taken, whatever the
// invoice's status: the gateway is not idempotent.
func (l *ledger) charge(key string, fence int64) (refused string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	inv := l.get(key)
	if r := l.admit(inv, fence); r != "" {
		return r
	}
	inv.charges++
	return ""
}

// markPaid sets the invoice's status to paid.
func (l *ledger) markPaid(key string, fence int64) (refused string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	inv := l.get(key)
	if r := l.admit(inv, fence); r != "" {
		return r
	}
	inv.paid = true
	return ""
}
