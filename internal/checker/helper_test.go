package checker

import (
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/history/historytest"
	"github.com/locksim/locksim/internal/workload"
)

// hb builds hand-written histories; times are scenario seconds with
// TimeScale 1, so 1 s = 1e9 true ns.
type hb struct {
	h     history.History
	procs map[string]int
	next  int
}

func newHB(fenced bool) *hb {
	return &hb{
		h:     history.History{Header: history.Header{Format: history.Format, Version: history.Version, TimeScale: 1, FencingEnforced: fenced}},
		procs: map[string]int{},
	}
}

func ns(s float64) int64 { return int64(s * 1e9) }

func (b *hb) proc(c string) int {
	p, ok := b.procs[c]
	if !ok {
		p = b.next
		b.next++
		b.procs[c] = p
	}
	return p
}

// op appends one op; comp < 0 means never completed. After an info outcome
// the client gets a new process (Jepsen's rule).
func (b *hb) op(c string, f history.Func, key string, inv, comp float64, t history.Type, v history.Value) int {
	i := len(b.h.Ops)
	c2 := int64(-1)
	if comp >= 0 {
		c2 = ns(comp)
	}
	b.h.Ops = append(b.h.Ops, history.Op{Index: i, Process: b.proc(c), Client: c, F: f, Key: key, Value: v,
		Invoke: ns(inv), Complete: c2, Type: t})
	if t == history.Info {
		delete(b.procs, c)
	}
	return i
}

func (b *hb) acquire(c, key string, inv, comp float64, fence int64) int {
	return b.op(c, history.Acquire, key, inv, comp, history.OK, history.Value{Token: c + "-tok", Fence: fence, TTL: ns(30)})
}

func (b *hb) acquireFail(c, key string, inv, comp float64) int {
	return b.op(c, history.Acquire, key, inv, comp, history.Fail, history.Value{})
}

func (b *hb) acquireInfo(c, key string, inv float64) int {
	return b.op(c, history.Acquire, key, inv, -1, history.Info, history.Value{Token: c + "-tok"})
}

func (b *hb) release(c, key string, inv, comp float64, removed bool) int {
	return b.op(c, history.Release, key, inv, comp, history.OK, history.Value{Removed: removed})
}

func (b *hb) write(c, key, action string, inv, comp float64, fence int64) int {
	return b.op(c, history.Write, key, inv, comp, history.OK, history.Value{Action: action, Fence: fence})
}

// refused appends a write the resource refused with the reason code why
// (history Refusal*), having seen fencing token seen.
func (b *hb) refused(c, key, action string, inv, comp float64, fence int64, why string, seen int64) int {
	return b.op(c, history.Write, key, inv, comp, history.Fail, history.Value{Action: action, Fence: fence, Refusal: why, SeenFence: seen})
}

func (b *hb) read(c, key string, inv, comp float64, result string) int {
	return b.op(c, history.Read, key, inv, comp, history.OK, history.Value{Action: workload.ActionReadStatus, Result: result})
}

func (b *hb) lost(c, key string, t float64) int {
	return b.op(c, history.Lost, key, t, t, history.OK, history.Value{})
}

// fault appends an applied fault of kind on targets (client names, node
// names n1…, or links "w1→n4") active from..to (to < 0: never healed).
func (b *hb) fault(kind string, targets []string, from, to float64) int {
	i := len(b.h.Ops)
	st := stepOf(kind, targets)
	st.ID = i + 1
	comp := ns(to)
	if to < 0 {
		comp = -1
	}
	typ := history.OK
	if comp < 0 {
		typ = history.Info
	}
	b.h.Ops = append(b.h.Ops, history.Op{Index: i, Process: history.NemesisProcess, Client: history.NemesisClient,
		F: history.Fault, Value: history.Value{Fault: &st}, Invoke: ns(from), Complete: comp, Type: typ})
	return i
}

// stepOf is the plan step of a fault of kind on targets (historytest.Step).
func stepOf(kind string, targets []string) history.FaultStep {
	return historytest.Step(kind, targets...)
}

// n1Cmd records node command args of client c on inv1, run by n1 at at
// (scenario seconds), inside a script when lua.
func (b *hb) n1Cmd(c string, at float64, lua bool, args ...string) {
	b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, Client: c, F: history.NodeCmd,
		Key: inv1, Value: history.Value{Node: "n1", Cmd: args, Lua: lua}, Invoke: ns(at), Complete: ns(at), Type: history.OK})
}
