package verify

import (
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// The checks of the kinds behind the timeline's marks (claim/marks.go),
// from their definitions.

// markKind checks c when it is of one of claim.MarkKinds.
func (v *verifier) markKind(c claim.Claim) (outcome, bool) {
	switch c.Kind {
	case claim.Outcome:
		return v.outcomeOf(c), true
	case claim.Command:
		return v.command(c), true
	case claim.ClockOffset:
		return v.clockOffset(c), true
	case claim.FenceSeen:
		return v.fenceSeen(c), true
	}
	return outcome{}, false
}

// outcomeOf: the record is Client's operation What on Key, invoked at
// Start and answered How at End (the history's end when never).
func (v *verifier) outcomeOf(c claim.Claim) outcome {
	op, ok := v.rec(c, 0)
	switch {
	case !ok || op.Process < 0 || string(op.F) != c.What || op.Client != c.Client || op.Key != c.Key:
		return refuse(c.Records, "record %v is not %s's %s of %s", c.Records, c.Client, c.What, c.Key)
	case string(op.Type) != c.How:
		return refuse(c.Records, "the %s was answered %s, not %s", c.What, op.Type, c.How)
	case op.Invoke != c.Start || v.end(op) != c.End:
		return refuse(c.Records, "the %s ran over [%d, %d], not [%d, %d]", c.What, op.Invoke, v.end(op), c.Start, c.End)
	case op.Value.Action != c.Token:
		return refuse(c.Records, "the write's action is %q, not %q", op.Value.Action, c.Token)
	}
	return held
}

// command: the record is Client's command What to Node; "ran": the node
// ran it at Start (= End); "unanswered": a send at Start no answer reached
// by End.
func (v *verifier) command(c claim.Claim) outcome {
	op, ok := v.rec(c, 0)
	if !ok || op.Process != history.NodeProcess || op.Client != c.Client || op.Value.Node != c.Node || len(op.Value.Cmd) == 0 ||
		!strings.EqualFold(op.Value.Cmd[0], c.What) {
		return refuse(c.Records, "record %v is not %s's %s to %s", c.Records, c.Client, c.What, c.Node)
	}
	switch c.How {
	case claim.Ran:
		if op.F != history.NodeCmd || op.Invoke != c.Start || c.End != c.Start {
			return refuse(c.Records, "%s did not run it at %d (record %s at %d)", c.Node, c.Start, op.F, op.Invoke)
		}
		if c.By != "" {
			return v.foundKey(c, op)
		}
	case claim.Unanswered:
		if op.F != history.Stalled || op.Type == history.OK || op.Invoke != c.Start || v.end(op) != c.End {
			return refuse(c.Records, "record %d is not a send at %d left unanswered to %d", c.Records[0], c.Start, c.End)
		}
	case claim.Late:
		if op.F != history.Stalled || op.Type != history.OK || op.Invoke != c.Start || v.end(op) != c.End {
			return refuse(c.Records, "record %d is not a send at %d answered at %d", c.Records[0], c.Start, c.End)
		}
	default:
		return refuse(c.Records, "a command is ran, unanswered or late, not %q", c.How)
	}
	return held
}

// clockJump is one jump of a clock: a clock fault of no rate that set the
// clock of name.
type clockJump struct {
	rec   int
	at    int64
	delta int64
	id    int
	kind  string
}

// jumpsOf are the jumps of name's clock (a node's when node), in time
// order.
func (v *verifier) jumpsOf(name string, node bool) []clockJump {
	var js []clockJump
	for i, op := range v.h.Ops {
		st := op.Value.Fault
		if op.F != history.Fault || st == nil || op.Type == history.Fail || st.Rate != 0 {
			continue
		}
		if node && st.Effect == history.EffectNodeClock && slices.Contains(st.Nodes, name) ||
			!node && st.Effect == history.EffectClientClock && slices.Contains(st.Clients, name) {
			js = append(js, clockJump{i, op.Invoke, st.Delta, st.ID, st.Kind})
		}
	}
	slices.SortStableFunc(js, func(a, b clockJump) int { return int(a.at - b.at) })
	return js
}

// clockOffset: a jump of the clock (step Step) was applied at Start; the
// jumps applied up to it sum to Offset; none came after it before End,
// and End is the next one or the history's end.
func (v *verifier) clockOffset(c claim.Claim) outcome {
	name, node := c.Client, false
	if c.Node != "" {
		name, node = c.Node, true
	}
	js := v.jumpsOf(name, node)
	q := slices.IndexFunc(js, func(j clockJump) bool { return j.at == c.Start && j.id == c.Step })
	if q < 0 {
		return refuse(c.Records, "no jump of %s's clock (step %d) was applied at %d", name, c.Step, c.Start)
	}
	if c.What != "" && c.What != js[q].kind {
		return refuse([]int{js[q].rec}, "step %d was a %s, not a %s", c.Step, js[q].kind, c.What)
	}
	sum := int64(0)
	for _, j := range js[:q+1] {
		sum += j.delta
	}
	if sum != c.Offset {
		return refuse([]int{js[q].rec}, "%s's clock was %d ns off after step %d, not %d", name, sum, c.Step, c.Offset)
	}
	end := v.m.end
	if q+1 < len(js) {
		end = js[q+1].at
	}
	if c.End != end {
		return refuse([]int{js[q].rec}, "that offset lasted to %d, not %d", end, c.End)
	}
	return held
}

// shownFence is the fencing token write op showed the resource: a
// refused write's seen fence; an accepted write's own token, else that of
// the last ok acquire (or probe) of its key its client invoked before it.
func (v *verifier) shownFence(i int) int64 {
	op := v.h.Ops[i]
	if op.Type == history.Fail {
		return op.Value.SeenFence
	}
	if op.Type != history.OK {
		return 0
	}
	if op.Value.Fence > 0 {
		return op.Value.Fence
	}
	for j := i - 1; j >= 0; j-- {
		a := v.h.Ops[j]
		if (a.F == history.Acquire || a.F == history.Probe) && a.Type == history.OK && a.Client == op.Client && a.Key == op.Key && a.Invoke <= op.Invoke {
			return a.Value.Fence
		}
	}
	return 0
}

// fenceSeen: the write at Start on Key showed the resource the token
// Score; no write on Key before End showed a higher one, and none before
// Start showed Score or more; End is the next write to raise it, or the
// history's end.
func (v *verifier) fenceSeen(c claim.Claim) outcome {
	w, ok := v.rec(c, 0)
	if !ok || w.F != history.Write || w.Key != c.Key || w.Invoke != c.Start {
		return refuse(c.Records, "record %v is not a write on %s at %d", c.Records, c.Key, c.Start)
	}
	val := int64(c.Score)
	if f := v.shownFence(c.Records[0]); f != val {
		return refuse(c.Records, "that write showed the token %d, not %d", f, val)
	}
	raised := c.End == v.m.end
	for i, op := range v.h.Ops {
		if op.F != history.Write || op.Key != c.Key || op.Process < 0 || i == c.Records[0] {
			continue
		}
		f := v.shownFence(i)
		if op.Invoke == c.End && f > val {
			raised = true
		}
		switch {
		case op.Invoke < c.Start && f >= val:
			return refuse([]int{i}, "a write at %d had already shown %d", op.Invoke, f)
		case op.Invoke >= c.Start && op.Invoke < c.End && f > val:
			return refuse([]int{i}, "a write at %d showed %d before %d", op.Invoke, f, c.End)
		}
	}
	if !raised {
		return refuse(c.Records, "no write at %d showed a higher token than %d", c.End, val)
	}
	return held
}
