package verify

import (
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// ownOp: the record is a client's operation (not a node's command, a
// fault or a gap) of the function What, by Client on Key, invoked at
// Start; answered How at End, or never answered (How open, End the end of
// the history); its line is told (At) when it ended if it was answered
// info or it was a grant, else at its invoke; and it carried exactly the token, fencing token, read
// result, number, TTL, refusal, action, seen token, removed and renewal marks the
// claim gives it.
func (v *verifier) ownOp(c claim.Claim) outcome {
	o, ok := v.rec(c, 0)
	switch {
	case !ok || o.Process == history.NodeProcess || o.F == history.NodeCmd || o.F == history.Fault || o.F == history.Unobserved:
		return refuse(c.Records, "record %v is not a client's operation", c.Records)
	case string(o.F) != c.What || o.Client != c.Client || o.Key != c.Key:
		return refuse(c.Records[:1], "record %d is %s's %s of %q, not %s's %s of %q", c.Records[0], o.Client, o.F, o.Key, c.Client, c.What, c.Key)
	case o.Invoke != c.Start:
		return refuse(c.Records[:1], "the %s was invoked at %d, not %d", o.F, o.Invoke, c.Start)
	}
	if o.Complete < 0 {
		if c.How != claim.Open || c.End != v.m.end {
			return refuse(c.Records[:1], "the %s was never answered: it is open to the history's end %d, not %s at %d", o.F, v.m.end, c.How, c.End)
		}
	} else if c.How != string(o.Type) || c.End != o.Complete {
		return refuse(c.Records[:1], "the %s was answered %s at %d, not %s at %d", o.F, o.Type, o.Complete, c.How, c.End)
	}
	granted := o.Type == history.OK && (o.F == history.Acquire || o.F == history.Probe)
	reasoned := o.Type == history.Fail && o.F == history.Acquire && o.Value.Refusal != ""
	if o.F == history.Probe && granted && len(c.Records) > 1 {
		return v.probeGranted(c, o)
	}
	switch atEnd := o.Complete >= 0 && (o.Type == history.Info || granted || reasoned); {
	case atEnd && c.At != o.Complete:
		return refuse(c.Records[:1], "the %s ended %s at %d: its line tells how it ended, so it is told then, not at %d", o.F, o.Type, o.Complete, c.At)
	case !atEnd && c.At != o.Invoke:
		return refuse(c.Records[:1], "the %s's line is told at its invoke %d, not at %d", o.F, o.Invoke, c.At)
	}
	w := o.Value
	num := w.Num == nil && c.Num == nil || w.Num != nil && c.Num != nil && *w.Num == *c.Num
	if w.Token != c.Token || w.Fence != c.Fence || w.TTL != c.TTL || w.SeenFence != c.SeenFence || w.Result != c.Result || !num ||
		w.Refusal != c.Refusal || w.Removed != c.Removed || w.Renewal != c.Renewal || w.Action != c.Action {
		return refuse(c.Records[:1], "the %s's record carries token %q fence %d TTL %d seen %d result %q refusal %q action %q removed %t renewal %t",
			o.F, w.Token, w.Fence, w.TTL, w.SeenFence, w.Result, w.Refusal, w.Action, w.Removed, w.Renewal)
	}
	if r := v.cutBy(c); r.reason != "" {
		return r
	}
	if o.F == history.Lost {
		return v.afterLost(c, o)
	}
	return held
}

// afterLost: a lost record told with a second record says its client went
// on writing under that lease: the second record is a write of the same
// client, to the lost key (any key when the record names none), invoked
// at or after the record's end, with no granted acquire of it by that
// client in between; a lost record with one record says the client wrote
// nothing more under it, and no such write exists.
func (v *verifier) afterLost(c claim.Claim, lost history.Op) outcome {
	wrote := -1
	for j := c.Records[0] + 1; j < len(v.h.Ops) && wrote < 0; j++ {
		o := v.h.Ops[j]
		if o.Client != lost.Client || o.Process < 0 || lost.Key != "" && o.Key != lost.Key {
			continue
		}
		if o.F == history.Acquire && o.Type == history.OK {
			break // a new lease: its writes are not under the lost one
		}
		if o.F == history.Write && o.Invoke >= lost.Complete {
			wrote = j
		}
	}
	switch {
	case len(c.Records) > 1 && wrote < 0:
		return refuse(c.Records, "%s wrote nothing under the lease after its lost record %d", lost.Client, c.Records[0])
	case len(c.Records) > 1 && c.Records[1] != wrote:
		return refuse(c.Records, "the first write %s made after its lost record is record %d, not %d", lost.Client, wrote, c.Records[1])
	case len(c.Records) == 1 && wrote >= 0:
		return refuse([]int{c.Records[0], wrote}, "%s went on writing after its lost record %d: record %d", lost.Client, c.Records[0], wrote)
	}
	return held
}

// probeGranted: an ok probe told at its grant names the node command that
// granted it (Records[1]): a SET of the probe's key (the lock's own name
// for it, where its record has one) with the probe's token, sent by the
// probe's client on the probe's one node, run at At, inside the probe.
func (v *verifier) probeGranted(c claim.Claim, o history.Op) outcome {
	s, ok := v.rec(c, 1)
	key := o.Key
	if o.Value.LockKey != "" {
		key = o.Value.LockKey
	}
	switch {
	case !ok || s.F != history.NodeCmd || !setsKey(s, key) || s.Value.Cmd[2] != o.Value.Token || v.m.sender(c.Records[1]) != c.Client:
		return refuse(c.Records, "record %d is no SET of %s with the probe's token by %s", c.Records[1], key, c.Client)
	case len(o.Value.Nodes) != 1 || s.Value.Node != o.Value.Nodes[0]:
		return refuse(c.Records, "the SET at record %d ran on %s, not on the probe's one node %v", c.Records[1], s.Value.Node, o.Value.Nodes)
	case s.Invoke != c.At || s.Invoke < o.Invoke || s.Invoke > o.Complete:
		return refuse(c.Records, "the probe's SET ran at %d, not at %d inside the probe [%d, %d]", s.Invoke, c.At, o.Invoke, o.Complete)
	}
	return held
}
