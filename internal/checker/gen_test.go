package checker

import (
	"fmt"
	"math/rand/v2"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// genConfig describes a generated history of a correct lock: per key,
// holds follow one another without overlap (a client acquires, claims with
// its fencing token, reads the invoice, the first holder of each invoice
// charges and marks it paid, then releases); other clients' acquires fail
// meanwhile. Holds on different keys run concurrently.
type genConfig struct {
	seed    uint64
	clients int
	keys    int
	ops     int  // stop after about this many ops
	fenced  bool // Header.FencingEnforced
	// inject one overlap: during one hold, another client is granted the
	// key and writes, then the stale holder's write is accepted.
	inject bool
	// infos mixes in operations with unknown outcomes and their Jepsen
	// process switches, none of which break the lock: competitors' acquires
	// that never return (and are never acted on), holders whose acquire
	// never returned but who act alone on the key, claims that never
	// return, holds ended by the client's own lost marker, and (fenced
	// runs) late writes of an earlier holder that the fence refuses.
	infos bool
}

type genResult struct {
	h history.History
	// injected overlap, when cfg.inject: stale and fresh client, key, and
	// the window in true ns.
	stale, fresh, key string
	from, to          int64
}

func genHistory(cfg genConfig) genResult {
	r := rand.New(rand.NewPCG(cfg.seed, 0x10c5))
	var g genResult
	g.h.Header = history.Header{Format: history.Format, Version: history.Version, TimeScale: 1, FencingEnforced: cfg.fenced}
	ops := make([]history.Op, 0, cfg.ops+16)
	procOf := make([]int, cfg.clients)
	for i := range procOf {
		procOf[i] = i
	}
	nextProc := cfg.clients
	newProc := func(c int) { procOf[c] = nextProc; nextProc++ }
	chance := func(n int) bool { return cfg.infos && r.IntN(n) == 0 }
	prevHolder := make([]int, cfg.keys) // client of the key's last hold, -1 none
	prevFence := make([]int64, cfg.keys)
	for i := range prevHolder {
		prevHolder[i] = -1
	}
	clientName := make([]string, cfg.clients)
	for i := range clientName {
		clientName[i] = fmt.Sprintf("w%d", i+1)
	}
	keyName := make([]string, cfg.keys)
	for i := range keyName {
		keyName[i] = fmt.Sprintf("invoice-%d", i+1)
	}
	keyAt := make([]int64, cfg.keys)
	clientAt := make([]int64, cfg.clients)
	fence := make([]int64, cfg.keys)
	paid := make([]bool, cfg.keys)
	add := func(c int, f history.Func, k int, inv, comp int64, t history.Type, v history.Value) {
		ops = append(ops, history.Op{Index: len(ops), Process: procOf[c], Client: clientName[c], F: f, Key: keyName[k],
			Value: v, Invoke: inv, Complete: comp, Type: t})
	}
	step := func() int64 { return 1_000_000 + r.Int64N(9_000_000) } // 1–10 ms
	injectAt := -1
	if cfg.inject {
		injectAt = r.IntN(max(1, cfg.ops/8))
	}
	for hold := 0; len(ops) < cfg.ops; hold++ {
		k := r.IntN(cfg.keys)
		c := r.IntN(cfg.clients)
		t := max(keyAt[k], clientAt[c]) + step()
		status := func() string {
			if paid[k] {
				return "paid"
			}
			return "unpaid"
		}
		// acquire; sometimes its reply is lost (info, new process) and the
		// client acts as holder anyway: a possible hold it acted on
		fence[k]++
		myFence := fence[k]
		if chance(6) && hold != injectAt {
			add(c, history.Acquire, k, t, -1, history.Info, history.Value{Token: "t", TTL: 30e9})
			newProc(c)
			t += step()
		} else {
			add(c, history.Acquire, k, t, t+step(), history.OK, history.Value{Token: "t", Fence: myFence, TTL: 30e9})
			t = ops[len(ops)-1].Complete + step()
		}
		// a competitor's failed acquire during the hold; sometimes one that
		// never returns (the competitor never acts on it)
		if cfg.clients > 1 && r.IntN(2) == 0 {
			o := (c + 1 + r.IntN(cfg.clients-1)) % cfg.clients
			if chance(4) {
				add(o, history.Acquire, k, t, -1, history.Info, history.Value{Token: "t"})
				newProc(o)
			} else {
				add(o, history.Acquire, k, t, t+step(), history.Fail, history.Value{})
			}
		}
		if chance(8) {
			add(c, history.Write, k, t, -1, history.Info, history.Value{Action: workload.ActionClaim, Fence: myFence})
			newProc(c)
			t += step()
		}
		add(c, history.Write, k, t, t+step(), history.OK, history.Value{Action: workload.ActionClaim, Fence: myFence})
		t = ops[len(ops)-1].Complete + step()
		// an earlier holder's late write with its old token, refused by the
		// fence (it released long ago; the refusal is legal)
		if cfg.fenced && prevHolder[k] >= 0 && prevHolder[k] != c && chance(3) {
			p := prevHolder[k]
			add(p, history.Write, k, t, t+step(), history.Fail, history.Value{Action: workload.ActionCharge, Fence: prevFence[k],
				Refusal: history.RefusalStaleFence, SeenFence: myFence})
			clientAt[p] = max(clientAt[p], ops[len(ops)-1].Complete)
			t = ops[len(ops)-1].Complete + step()
		}
		add(c, history.Read, k, t, t+step(), history.OK, history.Value{Action: workload.ActionReadStatus, Result: status()})
		t = ops[len(ops)-1].Complete + step()
		if !paid[k] {
			add(c, history.Write, k, t, t+step(), history.OK, history.Value{Action: workload.ActionCharge, Fence: myFence})
			t = ops[len(ops)-1].Complete + step()
			add(c, history.Write, k, t, t+step(), history.OK, history.Value{Action: workload.ActionMarkPaid, Fence: myFence})
			t = ops[len(ops)-1].Complete + step()
			paid[k] = true
		}
		removed := true
		if hold == injectAt {
			o := (c + 1 + r.IntN(cfg.clients-1)) % cfg.clients
			fence[k]++
			add(o, history.Acquire, k, t, t+step(), history.OK, history.Value{Token: "t", Fence: fence[k], TTL: 30e9})
			g.from = ops[len(ops)-1].Complete
			t = g.from + step()
			add(o, history.Write, k, t, t+step(), history.OK, history.Value{Action: workload.ActionClaim, Fence: fence[k]})
			t = ops[len(ops)-1].Complete + step()
			// the stale holder's write is accepted
			add(c, history.Write, k, t, t+step(), history.OK, history.Value{Action: workload.ActionClaim, Fence: myFence})
			t = ops[len(ops)-1].Complete + step()
			g.to = t
			g.stale, g.fresh, g.key = clientName[c], clientName[o], keyName[k]
			removed = false
			rt := t + step()
			add(c, history.Release, k, t, rt, history.OK, history.Value{})
			t = rt + step()
			add(o, history.Release, k, t, t+step(), history.OK, history.Value{Removed: true})
			clientAt[o] = ops[len(ops)-1].Complete
			t = ops[len(ops)-1].Complete
		} else {
			if chance(5) { // the client's own validity check ends the hold first
				add(c, history.Lost, k, t, t, history.OK, history.Value{})
				t += step()
			}
			add(c, history.Release, k, t, t+step(), history.OK, history.Value{Removed: removed})
			t = ops[len(ops)-1].Complete
		}
		prevHolder[k], prevFence[k] = c, myFence
		keyAt[k] = t
		clientAt[c] = t
	}
	g.h.Ops = ops
	return g
}
