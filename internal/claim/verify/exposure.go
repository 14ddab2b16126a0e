package verify

import (
	"slices"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// exposure: an untested exposure (see claim.Exposure), read from the raw
// history: Records[0] is Client's first write on Key after Start,
// accepted, invoked at At, doing Action, and the window ends at the
// completion of one of its writes after it; the lease of Client's last
// granted acquire of Key before the write had ended by Start, and not
// long before it (leaseEnded); no other client tried the lock in the
// window (untried); the tries around it are other clients' acquires of
// Key at the stated instants, with none between them and the window
// (around). Of a claim with a short try (Short), the tries inside the
// window are read against the nodes' keys instead: none could have been
// granted there (shortTry).
func (v *verifier) exposure(c claim.Claim) outcome {
	w, ok := v.rec(c, 0)
	if !ok || w.F != history.Write || w.Client != c.Client || w.Key != c.Key || w.Process < 0 {
		return refuse(c.Records, "record %v is not a write of %s on %s", c.Records, c.Client, c.Key)
	}
	if act := writeAction(w); w.Type != history.OK || act != c.Action || w.Invoke != c.At {
		return refuse(c.Records[:1], "the write is %s's %s answered %s, invoked at %d: not an accepted %s invoked at %d", w.Client, act, w.Type, w.Invoke, c.Action, c.At)
	}
	if c.At <= c.Start || c.End < v.end(w) {
		return refuse(c.Records[:1], "the write [%d, %d] is not inside the window (%d, %d]", w.Invoke, v.end(w), c.Start, c.End)
	}
	lastEnd := false
	for i, op := range v.h.Ops {
		if op.F != history.Write || op.Client != c.Client || op.Key != c.Key || op.Process < 0 || op.Invoke <= c.Start {
			continue
		}
		if op.Invoke < c.At {
			return refuse([]int{i}, "%s's write on %s invoked at %d came after the lease's end before the one claimed first", c.Client, c.Key, op.Invoke)
		}
		lastEnd = lastEnd || op.Invoke <= c.End && v.end(op) == c.End
	}
	if !lastEnd {
		return refuse(c.Records[:1], "no write of %s on %s in the window completes at its end (%d)", c.Client, c.Key, c.End)
	}
	acq := -1
	for i, op := range v.h.Ops {
		if op.F == history.Acquire && op.Client == c.Client && op.Key == c.Key && op.Type == history.OK && op.Process >= 0 && op.Invoke < c.At {
			acq = i
		}
	}
	if acq < 0 {
		return refuse(c.Records[:1], "%s had no granted acquire of %s before the write", c.Client, c.Key)
	}
	if o := v.recordsOf(c); o.reason != "" {
		return o
	}
	if o := v.leaseEnded(c, acq); o.reason != "" || o.skip != "" {
		return o
	}
	if c.Short == nil {
		if o := v.untried(c); o.reason != "" || o.skip != "" {
			return o
		}
	}
	for _, o := range []outcome{v.around(c, c.LastTry, true), v.around(c, c.NextTry, false), v.shortTry(c)} {
		if o.reason != "" || o.skip != "" {
			return o
		}
	}
	return held
}

// writeAction is what a write did: its action word, else its kind.
func writeAction(op history.Op) string {
	if op.Value.Action != "" {
		return op.Value.Action
	}
	return string(op.F)
}

// recordsOf: an Exposure claim's records after the write are its tries'
// acquires, LastTry, NextTry and Short, each when set, in that order.
func (v *verifier) recordsOf(c claim.Claim) outcome {
	want := []int{c.Records[0]}
	for _, t := range []*claim.Try{c.LastTry, c.NextTry} {
		if t != nil {
			want = append(want, t.Op)
		}
	}
	if c.Short != nil {
		want = append(want, c.Short.Op)
	}
	if !slices.Equal(want, c.Records) {
		return refuse(c.Records, "records %v are not the write and its tries' acquires %v", c.Records, want)
	}
	return held
}

// leaseEnded: the lease of Client's granted acquire acq (its token's key)
// stood on fewer nodes than a grant needs at Start (give or take slack;
// a key of the token set again after Start is no part of it), and on as
// many as it needs just before (Start − slack): Start is the lease's end. A grant needs a quorum (N/2+1) of a lock on several nodes
// whose acquire named that many, else 1. Where no node's record shows the
// token's key, the lease is the clients': its TTL from the acquire.
func (v *verifier) leaseEnded(c claim.Claim, acq int) outcome {
	a := v.h.Ops[acq]
	nodes := v.h.Header.Nodes
	need := 1
	if q := len(nodes)/2 + 1; len(nodes) > 1 && len(a.Value.Nodes) >= q {
		need = q
	}
	keys := v.lockKeys(c.Client, c.Key)
	var lives []*life
	for _, l := range v.m.lives {
		if l.value == a.Value.Token && a.Value.Token != "" && slices.Contains(keys, l.key) {
			lives = append(lives, l)
		}
	}
	if len(lives) == 0 {
		return v.inferredLease(c, a)
	}
	// stood counts the nodes whose record shows the key there at t, set
	// by Start (a key of the token set again after the lease's end — a
	// renewal that recreates a missing key — does not continue it), and
	// those that may have had it (a life whose end the model cannot
	// place, a node not recorded then).
	stood := func(t int64) (sure, maybe int) {
		for _, n := range nodes {
			s, m := false, !v.watched(n, t, t)
			for _, l := range lives {
				if l.node != n || l.start > min(t, c.Start) || v.lifeEnd(l) <= t {
					continue
				}
				if l.how == "crash?" || l.how == "gone?" || v.m.unsure[l] {
					m = true
				} else {
					s = true
				}
			}
			switch {
			case s:
				sure++
			case m:
				maybe++
			}
		}
		return sure, maybe
	}
	if sure, maybe := stood(c.Start + slack); sure >= need {
		return refuse(c.Records[:1], "%s's key (token %s) still stood on %d nodes at %d, after the claimed end of its lease; a grant needs %d", c.Client, a.Value.Token, sure, c.Start+slack, need)
	} else if sure+maybe >= need {
		return skip("exposure: the lease's end the nodes' record cannot place")
	}
	if sure, maybe := stood(c.Start - slack); sure+maybe < need {
		return refuse(c.Records[:1], "%s's key (token %s) stood on %d nodes at %d, before the claimed end of its lease: it had ended earlier; a grant needs %d", c.Client, a.Value.Token, sure, c.Start-slack, need)
	} else if sure < need {
		return skip("exposure: the lease's end the nodes' record cannot place")
	}
	return held
}

// lifeEnd is when l left its node for a lock: its end, but for a key
// that expired while a freeze-node step had its node stopped, the step's
// end, when the node resumed (a stopped Redis expires nothing and answers
// no one: the key stood, unseen, till then).
func (v *verifier) lifeEnd(l *life) int64 {
	if l.how != "expired" {
		return l.end
	}
	for _, op := range v.h.Ops {
		st := op.Value.Fault
		if op.F == history.Fault && st != nil && st.Effect == history.EffectFreezeNode && op.Type != history.Fail &&
			(len(st.Nodes) == 0 || slices.Contains(st.Nodes, l.node)) && op.Invoke <= l.end && l.end <= v.end(op) {
			return v.end(op)
		}
	}
	return l.end
}

// inferredLease: no node recorded the lease's key; by the clients it was
// set inside the acquire [Invoke, Complete] for its TTL, so it ended from
// Invoke + TTL to Complete + TTL (on the nodes' clock), unless Client
// renewed it (then not checkable) or a fault on the nodes ended it early
// (a claimed end before Invoke + TTL is not checkable then).
func (v *verifier) inferredLease(c claim.Claim, a history.Op) outcome {
	if a.Value.TTL <= 0 || a.Complete < 0 {
		return skip("exposure: a lease with no TTL the clients recorded")
	}
	for _, op := range v.h.Ops {
		if op.F == history.Extend && op.Client == c.Client && op.Key == c.Key && op.Type != history.Fail && op.Invoke >= a.Invoke && op.Invoke <= c.Start {
			return skip("exposure: a lease inferred from the clients that its holder renewed")
		}
	}
	ttl := v.h.Header.NodeDuration(a.Value.TTL)
	first, last := a.Invoke+ttl, a.Complete+ttl
	if c.Start > last+slack {
		return refuse(c.Records[:1], "%s's lease, taken by its acquire [%d, %d] for %d, had ended by %d, before the claimed end %d", c.Client, a.Invoke, a.Complete, a.Value.TTL, last, c.Start)
	}
	if c.Start < first-slack {
		for _, op := range v.h.Ops {
			if op.F == history.Fault && op.Value.Fault != nil && len(op.Value.Fault.Nodes) > 0 && op.Invoke <= c.Start && v.end(op) >= a.Invoke {
				return skip("exposure: a lease inferred from the clients that a fault on its nodes may have ended early")
			}
		}
		return refuse(c.Records[:1], "%s's lease, taken by its acquire [%d, %d] for %d, lasted to %d at least, after the claimed end %d", c.Client, a.Invoke, a.Complete, a.Value.TTL, first, c.Start)
	}
	return held
}

// untried (of a claim with no short try): no other client's acquire of
// Key answered was invoked in the window [Start, End] (one granted only
// after End is a try after it) nor granted in it; one refused that
// overlaps it reached no node in it (its nodes recorded throughout the
// window); and no command of another client's on the lock's key reached a
// node in it. An acquire of unknown outcome that reached a node in the
// window, and a command whose sender the record does not name, leave the
// claim not checkable.
func (v *verifier) untried(c claim.Claim) outcome {
	keys := []string{c.Key}
	var unknown []history.Op // the others' acquires of unknown outcome
	for i, op := range v.h.Ops {
		if op.F != history.Acquire || op.Key != c.Key || op.Client == c.Client || op.Process < 0 || op.Client == history.ProbeClient {
			continue
		}
		if op.Value.LockKey != "" && !slices.Contains(keys, op.Value.LockKey) {
			keys = append(keys, op.Value.LockKey)
		}
		end := v.end(op)
		if end < c.Start || op.Invoke > c.End {
			continue
		}
		switch {
		case op.Type == history.OK && end <= c.End:
			return refuse([]int{i}, "%s's acquire of %s was granted at %d, inside the window [%d, %d]", op.Client, c.Key, end, c.Start, c.End)
		case op.Type == history.OK:
		case op.Type == history.Fail && op.Invoke >= c.Start:
			return refuse([]int{i}, "%s's acquire of %s was invoked at %d, inside the window [%d, %d]", op.Client, c.Key, op.Invoke, c.Start, c.End)
		case op.Type == history.Fail:
			for _, n := range v.nodesOf(op) {
				if !v.watched(n, c.Start, min(end, c.End)) {
					return refuse([]int{i}, "%s's acquire of %s [%d, %d] spans the window's start, and %s's commands were not recorded: it may have tried the lock in the window", op.Client, c.Key, op.Invoke, end, n)
				}
			}
		default:
			unknown = append(unknown, op)
		}
	}
	for i, op := range v.h.Ops {
		if op.F != history.NodeCmd || op.Process != history.NodeProcess || op.Invoke < c.Start || op.Invoke > c.End || !slices.ContainsFunc(cmdKeys(op.Value.Cmd), func(k string) bool { return slices.Contains(keys, k) }) {
			continue
		}
		by := v.m.sender(i)
		switch {
		case by == c.Client, by == history.AdminClient:
			// The holder's own, or the harness's (a fault's script: a
			// node clock step's shift that ended the lease at Start).
		case by == "":
			return skip("exposure: a command on the key in the window whose sender the record does not name")
		case slices.ContainsFunc(unknown, func(u history.Op) bool { return u.Client == by && u.Invoke <= op.Invoke && op.Invoke <= v.end(u) }):
			return skip("exposure: an acquire of unknown outcome reached a node in the window")
		default:
			return refuse([]int{i}, "%s's command %s reached %s at %d, inside the window [%d, %d]", by, strings.Join(op.Value.Cmd, " "), op.Value.Node, op.Invoke, c.Start, c.End)
		}
	}
	return held
}

// nodesOf are the nodes an acquire may have reached: those it names, else
// the run's.
func (v *verifier) nodesOf(op history.Op) []string {
	if len(op.Value.Nodes) > 0 {
		return op.Value.Nodes
	}
	return v.h.Header.Nodes
}

// cmdKeys are the keys a command names: a script's (EVAL, EVALSHA:
// numkeys after the script), every argument of DEL and UNLINK, else the
// first argument.
func cmdKeys(cmd []string) []string {
	if len(cmd) < 2 {
		return nil
	}
	switch strings.ToLower(cmd[0]) {
	case "eval", "evalsha":
		if len(cmd) < 3 {
			return nil
		}
		n, err := strconv.Atoi(cmd[2])
		if err != nil || n < 0 || 3+n > len(cmd) {
			return nil
		}
		return cmd[3 : 3+n]
	case "del", "unlink":
		return cmd[1:]
	}
	return cmd[1:2]
}

// around: a try before the window (before) or after it is another
// client's acquire of Key (Op) at At — its invoke, its completion, or the
// stamp of a command of its client's a node ran inside it — strictly
// before Start or after End, with no other client's answered acquire of
// Key invoked between it and the window (of a claim with a short try, but
// those that overlap the window: tries inside it, shortTry's; never one
// its own guard gave up). With no try named, there is none such before
// the window, or after it.
func (v *verifier) around(c claim.Claim, t *claim.Try, before bool) outcome {
	// try: another client's acquire of Key, answered, that its own guard
	// did not give up (a lease's validity, too few replicas: it asked the
	// lock nothing), and of a claim with a short try, clear of the window.
	try := func(op history.Op) bool {
		return op.F == history.Acquire && op.Key == c.Key && op.Client != c.Client && op.Process >= 0 && op.Client != history.ProbeClient &&
			(op.Type == history.OK || op.Type == history.Fail) &&
			op.Value.Refusal != history.RefusalValidity && op.Value.Refusal != history.RefusalNotReplicated &&
			(c.Short == nil || op.Invoke > c.End || v.end(op) < c.Start)
	}
	if t == nil {
		// None: no such acquire before the window (ended before Start) or
		// after it (invoked after End).
		for i, op := range v.h.Ops {
			if try(op) && (before && v.end(op) < c.Start || !before && op.Invoke > c.End) {
				return refuse([]int{i}, "%s's acquire of %s [%d, %d] is a try outside the window [%d, %d] the claim does not name", op.Client, c.Key, op.Invoke, v.end(op), c.Start, c.End)
			}
		}
		return held
	}
	if t.Op < 0 || t.Op >= len(v.h.Ops) {
		return refuse(c.Records, "the try's record %d is not in the history", t.Op)
	}
	a := v.h.Ops[t.Op]
	if a.F != history.Acquire || a.Key != c.Key || a.Client != t.Client || a.Client == c.Client || a.Process < 0 {
		return refuse([]int{t.Op}, "record %d is not an acquire of %s by %s, another client than %s", t.Op, c.Key, t.Client, c.Client)
	}
	end := v.end(a)
	at := t.At == a.Invoke || t.At == end
	for i, op := range v.h.Ops {
		if at {
			break
		}
		at = op.F == history.NodeCmd && op.Invoke == t.At && v.m.sender(i) == t.Client && a.Invoke <= t.At && t.At <= end
	}
	if !at {
		return refuse([]int{t.Op}, "%s's acquire [%d, %d] was not invoked, answered or run on a node at %d", t.Client, a.Invoke, end, t.At)
	}
	from, to := t.At, c.Start
	if !before {
		from, to = c.End, t.At
	}
	if before && t.At >= c.Start || !before && t.At <= c.End {
		return refuse([]int{t.Op}, "the try at %d is not outside the window [%d, %d]", t.At, c.Start, c.End)
	}
	for i, op := range v.h.Ops {
		if i != t.Op && try(op) && from < op.Invoke && op.Invoke < to {
			return refuse([]int{i}, "%s's acquire of %s invoked at %d came between the try at %d and the window", op.Client, c.Key, op.Invoke, t.At)
		}
	}
	return held
}
