package account

import (
	"slices"
	"sort"
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// The claims behind the timeline's marks that no other claim states
// (claim.Outcome, Command, ClockOffset, FenceSeen; issue 27): every
// operation's outcome, every command sent outside an operation, every
// clock's offset and the fencing tokens the resource had seen.

// outcomeFuncs are the operations whose outcome is stated: those the
// timeline draws, or draws the commands of.
var outcomeFuncs = map[history.Func]bool{history.Acquire: true, history.Release: true, history.Extend: true,
	history.Write: true, history.Probe: true}

// parentFuncs are the operations a node event can be part of (OpOf).
var parentFuncs = map[history.Func]bool{history.Acquire: true, history.Release: true, history.Extend: true, history.Probe: true}

// markClaims states the facts above.
func (a *Account) markClaims() []claim.Claim {
	var cs []claim.Claim
	for i, op := range a.H.Ops {
		if op.Process < 0 || !outcomeFuncs[op.F] {
			continue
		}
		cs = append(cs, claim.Claim{Kind: claim.Outcome, Client: op.Client, Key: op.Key, What: string(op.F), How: string(op.Type),
			Token: op.Value.Action, Start: op.Invoke, End: a.endOf(op), Records: []int{i}})
	}
	cs = append(cs, a.commandClaims()...)
	cs = append(cs, a.clockClaims()...)
	for _, s := range a.FenceSeen() {
		cs = append(cs, claim.Claim{Kind: claim.FenceSeen, Key: s.Key, Score: float64(s.Value), Start: s.Start, End: s.End, Records: []int{s.Write}})
	}
	return cs
}

// OpOf is the client operation node event (or stalled send) ev was part
// of: an acquire, release, extend or probe of its client whose window
// (invoke to completion, or the end of the history) holds its instant, on
// its key when one does, and which sends such a command (sends); -1 when
// none does. A client has two operations in flight when its watchdog
// renews while its job runs: the job's EXISTS check before it writes and
// its release's DEL, both inside the renewal's window, are not the
// renewal's (reader 15, writer-exists-check: "del counter-1 … Part of
// w3's renewal").
func (a *Account) OpOf(ev int) int {
	a.opsOnce.Do(func() {
		a.opsOf = map[string][]int{}
		for i, op := range a.H.Ops {
			if op.Process >= 0 && parentFuncs[op.F] {
				a.opsOf[op.Client] = append(a.opsOf[op.Client], i)
			}
		}
		for _, l := range a.opsOf {
			slices.SortStableFunc(l, func(x, y int) int { return int(a.H.Ops[x].Invoke - a.H.Ops[y].Invoke) })
		}
	})
	e := a.H.Ops[ev]
	if a.ranOnWaking(e) {
		return -1 // a send its client had given up on: outside its operations
	}
	list := a.opsOf[e.Client]
	n := sort.Search(len(list), func(q int) bool { return a.H.Ops[list[q]].Invoke > e.Invoke })
	other := -1
	// A client's operations follow one another; a few back are enough
	// for those of its other processes (a restarted client's).
	for q := n - 1; q >= 0 && q >= n-8; q-- {
		op := a.H.Ops[list[q]]
		if e.Invoke > a.endOf(op) || !sends(op.F, e) {
			continue
		}
		if e.Key == "" || op.Key == e.Key || op.Value.LockKey == e.Key {
			return list[q]
		}
		if other < 0 {
			other = list[q]
		}
	}
	return other
}

// sends reports whether an operation of kind f can send node event e: no
// lock operation sends a bare EXISTS (a Validator's check before a write,
// exists-check-force-unlock's), and no extend a bare DEL or UNLINK (its
// client's release does). Commands a script ran are its script's.
func sends(f history.Func, e history.Op) bool {
	if e.Value.Lua || len(e.Value.Cmd) == 0 {
		return true
	}
	switch strings.ToLower(e.Value.Cmd[0]) {
	case "exists":
		return false
	case "del", "unlink":
		return f != history.Extend
	}
	return true
}

// commandClaims states every command a client sent outside its
// operations (OpOf): that its node ran it, or that no answer came.
func (a *Account) commandClaims() []claim.Claim {
	var cs []claim.Claim
	for i, op := range a.H.Ops {
		if op.Process != history.NodeProcess || len(op.Value.Cmd) == 0 || op.Client == "" || op.Client == history.AdminClient ||
			!(op.F == history.NodeCmd && !op.Value.Lua || op.F == history.Stalled) || a.OpOf(i) >= 0 {
			continue
		}
		c := claim.Claim{Kind: claim.Command, Client: op.Client, Node: op.Value.Node, Key: op.Key, What: strings.ToLower(op.Value.Cmd[0]),
			How: claim.Ran, Start: op.Invoke, End: op.Invoke, Records: []int{i}}
		a.existsFound(i, &c)
		switch {
		case op.F == history.Stalled && op.Type == history.OK:
			c.How, c.End = claim.Late, a.endOf(op)
		case op.F == history.Stalled:
			c.How, c.End = claim.Unanswered, a.endOf(op)
		}
		cs = append(cs, c)
	}
	return cs
}

// clockClaims states each clock's offset after each jump of it, to its
// next jump.
func (a *Account) clockClaims() []claim.Claim {
	type jump struct {
		f    FaultWindow
		node bool
	}
	byName := map[string][]jump{}
	var names []string
	for _, f := range a.Faults {
		st := f.Step
		if st.Rate != 0 || (st.Effect != history.EffectNodeClock && st.Effect != history.EffectClientClock) {
			continue
		}
		targets := st.Clients
		if st.Effect == history.EffectNodeClock {
			targets = st.Nodes
		}
		for _, n := range targets {
			if _, ok := byName[n]; !ok {
				names = append(names, n)
			}
			byName[n] = append(byName[n], jump{f, st.Effect == history.EffectNodeClock})
		}
	}
	var cs []claim.Claim
	for _, n := range names {
		js := byName[n]
		off := int64(0)
		var recs []int
		for q, j := range js {
			off += j.f.Step.Delta
			recs = append([]int{j.f.Op}, recs...)
			end := a.end
			if q+1 < len(js) {
				end = js[q+1].f.Start
			}
			c := claim.Claim{Kind: claim.ClockOffset, What: j.f.Step.Kind, Step: j.f.Step.ID, Offset: off, Start: j.f.Start, End: end,
				Records: slices.Clone(recs)}
			if j.node {
				c.Node = n
			} else {
				c.Client = n
			}
			cs = append(cs, c)
		}
	}
	return cs
}

// FenceStep is one rise of the highest fencing token the resource had
// been shown on Key: to Value, by write Write (a history index) at
// Start, until End (the next rise on Key, or the end of the history).
type FenceStep struct {
	Key        string
	Value      int64
	Start, End int64
	Write      int
	Refused    bool // shown by a refused write (the resource's own seen fence)
}

// FenceSeen returns every rise of the highest fencing token the resource
// had been shown, per key, in history order: an accepted write shows its
// fence (its recorded token, else its client's hold's at its invoke), a
// refused one the resource's seen fence.
func (a *Account) FenceSeen() []FenceStep {
	var out []FenceStep
	seen := map[string]int64{}
	last := map[string]int{} // key → its last step in out
	for i, op := range a.H.Ops {
		if op.F != history.Write || op.Process < 0 {
			continue
		}
		var v int64
		switch op.Type {
		case history.OK:
			v = a.FenceOf(op)
		case history.Fail:
			v = op.Value.SeenFence
		}
		if v <= 0 || v <= seen[op.Key] {
			continue
		}
		seen[op.Key] = v
		if j, ok := last[op.Key]; ok {
			out[j].End = op.Invoke
		}
		last[op.Key] = len(out)
		out = append(out, FenceStep{Key: op.Key, Value: v, Start: op.Invoke, End: a.end, Write: i, Refused: op.Type == history.Fail})
	}
	return out
}

// FenceOf is the fencing token write op was made under: its own, else
// that of the hold its client had on its key at its invoke (the latest
// begun); 0 when none.
func (a *Account) FenceOf(op history.Op) int64 {
	if op.Value.Fence > 0 {
		return op.Value.Fence
	}
	var f int64
	for _, h := range a.Holds {
		if h.Client == op.Client && h.Key == op.Key && h.Start <= op.Invoke && op.Invoke <= h.End {
			f = h.Fence
		}
	}
	return f
}

// ranOnWaking reports whether node command e is one its node ran as it
// woke from a stop (freeze-node), within 5 ms (wall) of the stop's end,
// that its client had sent before and given up on: a stalled send
// (history.Stalled, answered info) of the same client, node, command and
// key, begun before the node woke and ended before e ran. A stopped Redis
// runs what it had been sent when it wakes (a fresh reader of
// fencing-random-nemesis s1166: w3's script of an acquire it had given up
// on, run as n1 woke inside w3's next acquire, was told as part of that
// one).
func (a *Account) ranOnWaking(e history.Op) bool {
	if e.F != history.NodeCmd || e.Value.Lua || len(e.Value.Cmd) == 0 {
		return false
	}
	woke := int64(-1)
	for _, f := range a.Faults {
		if f.Step.Effect == history.EffectFreezeNode && slices.Contains(f.Step.Nodes, e.Value.Node) && f.End <= e.Invoke && e.Invoke-f.End <= 5e6 {
			woke = f.End
		}
	}
	if woke < 0 {
		return false
	}
	for _, s := range a.H.Ops {
		if s.F == history.Stalled && s.Type == history.Info && s.Client == e.Client && s.Value.Node == e.Value.Node && s.Invoke < woke &&
			s.Complete >= 0 && s.Complete < e.Invoke && s.Key == e.Key && len(s.Value.Cmd) > 0 && strings.EqualFold(s.Value.Cmd[0], e.Value.Cmd[0]) {
			return true
		}
	}
	return false
}
