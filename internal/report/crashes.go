package report

import (
	"slices"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// crashKey is the words of a crash of clients at t by what they held
// then (issue 27, a fresh reader: a killed waiter of a fair lock was told
// as one that "never releases its lock", though it never held one): a
// lease one of them believed it held; else a key of theirs a node held
// then, though no ok reply had told them so (the account's key lives: a
// second reader found a client killed after its SET NX landed told as
// holding no lock, beside the stuck lock it had left); or none — while
// waiting for the lock (its last acquire before the crash was refused) or
// not. It returns the message and the arguments after the clients.
func (m *model) crashKey(clients []string, t int64) (string, []any) {
	waiting := false
	for _, c := range clients {
		if _, ok := m.leaseAt(c, "", t); ok {
			return "n.crash.client", nil
		}
	}
	for _, c := range clients {
		if k, ok := m.keyOfAt(c, t); ok {
			return "n.crash.client.keyset", []any{k.Key, k.Node}
		}
		waiting = waiting || m.lastAcquireRefused(c, t)
	}
	if waiting {
		return "n.crash.client.waiting", nil
	}
	return "n.crash.client.nolock", nil
}

// keyOfAt returns a lock key life (of a key the run's acquires name, not
// a fence counter its INCR created) client's own command had created that
// a node still held at t (the first by start).
func (m *model) keyOfAt(client string, t int64) (account.KeyLife, bool) {
	locks := map[string]bool{}
	for _, o := range m.h.Ops {
		if o.F == history.Acquire || o.F == history.Probe {
			locks[o.Key] = true
		}
	}
	for _, k := range m.a.Keys() {
		if locks[k.Key] && k.Owner == client && k.Start <= t && (t < k.End || k.Ended.Kind == account.EndHeld) {
			return k, true
		}
	}
	return account.KeyLife{}, false
}

// crashedClients are the clients a crash-client step killed, in step
// order.
func (m *model) crashedClients() []string {
	var dead []string
	for _, w := range m.faults {
		if w.Step.Effect == history.EffectCrashClient {
			for _, c := range w.Step.Clients {
				if !slices.Contains(dead, c) {
					dead = append(dead, c)
				}
			}
		}
	}
	return dead
}

// lastAcquireRefused reports whether client's last acquire invoked before
// t was refused: it was still waiting for the lock.
func (m *model) lastAcquireRefused(client string, t int64) bool {
	refused, last := false, int64(-1)
	for _, op := range m.h.Ops {
		if op.F == history.Acquire && op.Client == client && op.Invoke < t && op.Invoke > last {
			refused, last = op.Type == history.Fail, op.Invoke
		}
	}
	return refused
}
