package e2e

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// genPayment builds a valid payment history of about n operations over
// keys invoices and clients clients (fenced lock, fencing enforced):
// holds of one key never overlap; holds of different keys do (up to
// clients at a time). The first holder of an invoice charges it and marks
// it paid; later holders read "paid" and release.
func genPayment(seed uint64, n, keys, clients int) history.History {
	rng := rand.New(rand.NewPCG(seed, 1))
	names := make([]string, clients)
	for i := range names {
		names[i] = fmt.Sprintf("w%d", i+1)
	}
	h := history.History{Header: history.Header{
		Format: history.Format, Version: history.Version, Scenario: "bench-generated",
		Seed: int64(seed), TimeScale: 1, Backend: "local", Algorithm: "fenced",
		Workload: "payment", FencingEnforced: true, Clients: names, Nodes: []string{"n1"},
		Started: time.Unix(0, 0).UTC(),
	}}
	h.Ops = make([]history.Op, 0, n+8)
	fence := make([]int64, keys)
	paid := make([]bool, keys)
	free := make([]int64, keys)     // time the key is free again
	clock := make([]int64, clients) // each client's own time
	add := func(c int, f history.Func, key string, v history.Value, d int64) {
		op := history.Op{Index: len(h.Ops), Process: c, Client: names[c], F: f, Key: key, Value: v,
			Invoke: clock[c], Complete: clock[c] + d, Type: history.OK}
		h.Ops = append(h.Ops, op)
		clock[c] += d + 1000
	}
	ttl := int64(30 * time.Second)
	for len(h.Ops) < n {
		c := rng.IntN(clients)
		k := rng.IntN(keys)
		key := fmt.Sprintf("invoice-%d", k+1)
		if clock[c] < free[k] {
			clock[c] = free[k] + 1000
		}
		fence[k]++
		tok := fmt.Sprintf("%016x", rng.Uint64())
		add(c, history.Acquire, key, history.Value{Token: tok, Fence: fence[k], TTL: ttl, Nodes: []string{"n1"}}, 200_000)
		res := "unpaid"
		if paid[k] {
			res = "paid"
		}
		add(c, history.Read, key, history.Value{Action: "read-status", Result: res}, 10_000)
		if !paid[k] {
			add(c, history.Write, key, history.Value{Action: "charge", Fence: fence[k]}, 10_000)
			add(c, history.Write, key, history.Value{Action: "mark-paid", Fence: fence[k]}, 10_000)
			paid[k] = true
		}
		add(c, history.Release, key, history.Value{Token: tok, Fence: fence[k], Removed: true, Nodes: []string{"n1"}}, 200_000)
		free[k] = clock[c]
	}
	return h
}
