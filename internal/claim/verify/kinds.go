package verify

import (
	"slices"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// The end operation each way a hold can end names (account's Hold words).
var holdEnds = map[string]history.Func{"released": history.Release, "lost": history.Lost, "done": history.Done,
	"stopped": history.Stopped, "reacquired": history.Acquire}

// hold: the acquire is the client's on the key, answered ok at Start (a
// believed hold), the ending operation is the client's, of the kind How
// names, invoked at End; a crash is a fault that killed the client then.
func (v *verifier) hold(c claim.Claim) outcome {
	a, ok := v.rec(c, 0)
	if !ok || (a.F != history.Acquire && a.F != history.Probe) || a.Client != c.Client || a.Key != c.Key {
		return refuse(c.Records, "record %v is not an acquire of %s on %s", c.Records, c.Client, c.Key)
	}
	if c.End < c.Start {
		return refuse(c.Records[:1], "the hold ends (%d) before it starts (%d)", c.End, c.Start)
	}
	if c.Believed && (a.Type != history.OK || a.Complete != c.Start) {
		return refuse(c.Records[:1], "the acquire's outcome is %s at %d, not ok at %d", a.Type, a.Complete, c.Start)
	}
	if !c.Believed && a.Type == history.OK {
		return refuse(c.Records[:1], "the acquire returned ok at %d: its client knew it held", a.Complete)
	}
	if c.Start < a.Invoke {
		return refuse(c.Records[:1], "the hold starts (%d) before its acquire was invoked (%d)", c.Start, a.Invoke)
	}
	if a.Value.Token != c.Token || a.Value.Fence != c.Fence || a.Value.TTL != c.TTL {
		return refuse(c.Records[:1], "the acquire recorded token %q, fence %d and TTL %d", a.Value.Token, a.Value.Fence, a.Value.TTL)
	}
	if w := v.waited(a); w != c.Wait {
		return refuse(c.Records[:1], "the acquire's WAIT asked for %d replicas, not %d", w, c.Wait)
	}
	if f, ok := holdEnds[c.How]; ok {
		e, ok := v.rec(c, 1)
		if !ok || e.Client != c.Client || e.F != f || e.Invoke != c.End || (e.Key != "" && e.Key != c.Key) {
			return refuse(c.Records, "no %s of %s on %s invoked at %d ends it", f, c.Client, c.Key, c.End)
		}
		return held
	}
	switch c.How {
	case "crashed":
		for i, op := range v.h.Ops {
			st := op.Value.Fault
			if op.F == history.Fault && st != nil && (st.Effect == history.EffectCrashClient || st.Effect == history.EffectRestartClient) &&
				slices.Contains(st.Clients, c.Client) && near(op.Invoke, c.End) {
				_ = i
				return held
			}
		}
		return refuse(c.Records, "no fault killed %s at %d", c.Client, c.End)
	case "last":
		return held
	}
	return refuse(c.Records, "a hold cannot end %q", c.How)
}

// lockKeys are the keys the client's lock stored for key: key itself and
// any lock key its acquires recorded.
func (v *verifier) lockKeys(client, key string) []string {
	ks := []string{key}
	for _, op := range v.h.Ops {
		if op.F == history.Acquire && op.Client == client && op.Key == key && op.Value.LockKey != "" && !slices.Contains(ks, op.Value.LockKey) {
			ks = append(ks, op.Value.LockKey)
		}
	}
	return ks
}

// extend: "moved" needs a deadline command of the client in the window
// that found a key on Node (set by By); "missed" needs every one to have
// found none.
func (v *verifier) extend(c claim.Claim) outcome {
	e, ok := v.rec(c, 0)
	if !ok || e.F != history.Extend || e.Client != c.Client || e.Key != c.Key || e.Invoke != c.Start || e.Complete != c.End {
		return refuse(c.Records, "record %v is not %s's extend of %s over [%d, %d]", c.Records, c.Client, c.Key, c.Start, c.End)
	}
	if o := v.cutBy(c); o.reason != "" {
		return o
	}
	for _, n := range v.h.Header.Nodes {
		if !v.watched(n, c.Start, c.End) {
			return skip("extend on a node not recorded")
		}
	}
	keys := v.lockKeys(c.Client, c.Key)
	var moved, missed []int
	vagueSeen := false
	var owner string
	for i, op := range v.h.Ops {
		mv, ok := v.m.moves[i]
		if !ok || op.Client != c.Client || op.Invoke < c.Start-slack || op.Invoke > c.End+slack || len(op.Value.Cmd) < 2 || !slices.Contains(keys, op.Value.Cmd[1]) {
			continue
		}
		switch {
		case mv.vague:
			vagueSeen = true
		case mv.life != nil:
			moved = append(moved, i)
			if op.Value.Node == c.Node || owner == "" {
				owner = mv.life.owner
			}
		default:
			missed = append(missed, i)
		}
	}
	if o := v.extendAlso(c); o.reason != "" {
		return o
	}
	switch c.What {
	case claim.Moved:
		if len(moved) == 0 {
			if vagueSeen {
				return skip("extend at its key's deadline")
			}
			return refuse(append([]int{c.Records[0]}, missed...), "no deadline command of %s in the extend found a key: it extended nothing", c.Client)
		}
		if c.By != "" && owner != "" && owner != c.By {
			return refuse(moved, "the key it moved was set by %s, not %s", owner, c.By)
		}
		if c.At != 0 {
			return v.movedAt(c, moved, vagueSeen)
		}
	case claim.Missed:
		if len(moved) > 0 {
			return refuse(moved, "a deadline command of %s in the extend moved a key", c.Client)
		}
		if c.Own {
			return v.missedOwn(c)
		}
	default:
		return refuse(c.Records, "an extend is moved or missed, not %q", c.What)
	}
	return held
}

// movedAt: an extend's At is when Node ran the first of the client's
// commands in the window that moved the key there (by the node's stamp).
func (v *verifier) movedAt(c claim.Claim, moved []int, vagueSeen bool) outcome {
	i := slices.IndexFunc(moved, func(j int) bool { return v.h.Ops[j].Value.Node == c.Node })
	switch {
	case vagueSeen:
		return skip("extend at its key's deadline")
	case i < 0:
		return refuse(moved, "no command of %s in the extend moved the key on %s", c.Client, c.Node)
	case v.h.Ops[moved[i]].Invoke != c.At: // exact: a fast time scale puts a call and its command within the slack
		return refuse(moved[i:i+1], "the first command of %s that moved the key on %s ran at %d, not %d", c.Client, c.Node, v.h.Ops[moved[i]].Invoke, c.At)
	}
	return held
}

// keyLife: the recorded command created Key with Token on Node at Start,
// sent by Client, and the key left as How says at End.
func (v *verifier) keyLife(c claim.Claim) outcome {
	if c.End < c.Start {
		return refuse(c.Records, "the key's life ends (%d) before it starts (%d)", c.End, c.Start)
	}
	if c.How == "failover" && (len(c.Nodes) > 0 || c.At != 0) {
		if o := v.failoverCopy(c); o.reason != "" {
			return o
		}
	}
	if c.What == claim.Inferred {
		if v.watched(c.Node, c.Start, c.Start) {
			for _, l := range v.m.lives {
				if l.node == c.Node && l.key == c.Key && l.value == c.Token && c.Token != "" && l.start <= c.End && l.end >= c.Start {
					return refuse([]int{l.set}, "the node recorded this key: the command at record %d set it", l.set)
				}
			}
		}
		if o := v.shownStart(c); o.reason != "" {
			return o
		}
		return skip("key life inferred from the clients")
	}
	if !v.watched(c.Node, c.Start, c.End) {
		if o := v.setRecorded(c); o.reason != "" {
			return o
		}
		return skip("key life on a node not recorded throughout")
	}
	if len(c.Records) == 0 {
		return refuse(nil, "no record created it")
	}
	if v.unsureAt(c.Records[0]) {
		return skip("SET at its key's deadline")
	}
	l := v.m.lifeOf(c.Records[0])
	if l == nil {
		return refuse(c.Records[:1], "the command at record %d created no key", c.Records[0])
	}
	if v.m.unsure[l] {
		return skip("SET at its key's deadline")
	}
	switch {
	case l.node != c.Node || l.key != c.Key:
		return refuse([]int{l.set}, "that command set %s on %s, not %s on %s", l.key, l.node, c.Key, c.Node)
	case c.Token != "" && l.value != "" && l.value != c.Token:
		return refuse([]int{l.set}, "that command set the value %s, not %s", l.value, c.Token)
	case c.Client != "" && l.owner != "" && l.owner != c.Client:
		return refuse([]int{l.set}, "%s sent that command, not %s", l.owner, c.Client)
	case !near(l.start, c.Start):
		return refuse([]int{l.set}, "the key was set at %d, not %d", l.start, c.Start)
	}
	if out := v.ended(c, l); out.reason != "" || out.skip != "" || c.What != claim.Kept {
		if out.reason == "" && out.skip == "" && c.What == claim.Thawed {
			return v.thawed(c, l)
		}
		return out
	}
	return v.keptLife(c, l)
}

// setRecorded checks, of a key life whose node was not recorded
// throughout it, what its node recorded when it began: the SET its first
// record is (a dump's key has none) set Key on Node to Token, sent by
// Client, at Start.
func (v *verifier) setRecorded(c claim.Claim) outcome {
	if len(c.Records) == 0 || c.Records[0] < 0 || c.Records[0] >= len(v.h.Ops) || !v.watched(c.Node, c.Start, c.Start) {
		return held
	}
	s := v.h.Ops[c.Records[0]]
	if s.F != history.NodeCmd || len(s.Value.Cmd) < 3 || !strings.EqualFold(s.Value.Cmd[0], "set") && !strings.EqualFold(s.Value.Cmd[0], "setnx") {
		return held
	}
	switch by := v.m.sender(c.Records[0]); {
	case s.Value.Node != c.Node || s.Value.Cmd[1] != c.Key:
		return refuse(c.Records[:1], "that command set %s on %s, not %s on %s", s.Value.Cmd[1], s.Value.Node, c.Key, c.Node)
	case c.Token != "" && s.Value.Cmd[2] != c.Token:
		return refuse(c.Records[:1], "that command set the value %s, not %s", s.Value.Cmd[2], c.Token)
	case c.Client != "" && by != "" && by != c.Client:
		return refuse(c.Records[:1], "%s sent that command, not %s", by, c.Client)
	case !near(s.Invoke, c.Start):
		return refuse(c.Records[:1], "the key was set at %d, not %d", s.Invoke, c.Start)
	}
	return held
}

// thawed: a key whose deadline At passed while its node was stopped: the
// model's deadline is At, a freeze-node step had the node stopped then,
// and the key left later, at End.
func (v *verifier) thawed(c claim.Claim, l *life) outcome {
	switch {
	case c.How != "expired":
		return refuse([]int{l.set}, "a thawed key expired, not %s", c.How)
	case l.deadline < 0 || !near(l.deadline, c.At):
		return refuse([]int{l.set}, "the key's deadline was %d, not %d", l.deadline, c.At)
	case c.End <= c.At+slack && !v.thawedWithin(c.Node, c.At, c.End):
		// Within the stamps' slack of its deadline, the key left late only
		// if the node was stopped then and resumed when it left (issue 32's
		// loaded sweep: a deadline 2.7 ms before a freeze's end).
		return refuse([]int{l.set}, "the key left at its deadline (%d), not after it", c.End)
	case !v.inStep(history.EffectFreezeNode, c.Node, c.At):
		return refuse([]int{l.set}, "no freeze-node step had %s stopped at %d", c.Node, c.At)
	}
	return held
}

// thawedWithin reports whether a freeze-node step had node stopped at t
// and ended, the node resuming, at end (within slack).
func (v *verifier) thawedWithin(node string, t, end int64) bool {
	for _, op := range v.h.Ops {
		st := op.Value.Fault
		if op.F == history.Fault && st != nil && st.Effect == history.EffectFreezeNode && (len(st.Nodes) == 0 || slices.Contains(st.Nodes, node)) &&
			op.Invoke <= t && t <= v.end(op) && near(v.end(op), end) {
			return true
		}
	}
	return false
}

// ended: the key's end as the claim tells it against the model's.
func (v *verifier) ended(c claim.Claim, l *life) outcome {
	recs := []int{l.set}
	if l.rec >= 0 {
		recs = append(recs, l.rec)
	}
	atDeadline := l.deadline >= 0 && near(l.deadline, c.End)
	removed := func(by string) bool { return (l.how == "removed" || atDeadline) && l.by == by }
	if l.how == "gone?" && c.How != "held" {
		return skip("key gone while its node was away")
	}
	ok := false
	switch c.How {
	case "held":
		ok = l.how == "held"
	case "expired":
		ok = (l.how == "expired" || atDeadline || l.how == "crash?" && l.deadline >= 0 && near(l.deadline, c.End)) && l.lastMoveBy != history.AdminClient
		if ok && l.how == "crash?" {
			return held // expired while its crashed node was not yet read back
		}
	case "clock":
		ok = (l.how == "removed" && l.by == history.AdminClient && v.inStep(history.EffectNodeClock, l.node, l.end)) ||
			((l.how == "expired" || atDeadline) && l.lastMoveBy == history.AdminClient)
	case "released": // never by the harness: its scripts shift clocks
		ok = removed(c.By) && (l.by == l.owner || v.scripted(l.rec)) && c.By != history.AdminClient
	case "deleted": // the harness's DEL inside a clock step is that step's
		ok = removed(c.By) && c.By != l.owner && !(c.By == history.AdminClient && v.inStep(history.EffectNodeClock, l.node, l.end))
	case "restored": // the owner may be the restarted client's old incarnation
		ok = removed(c.By) && v.restoring(c.By, l.end)
	case "janitor":
		ok = l.how == "removed" && (l.by == history.AdminClient || l.by == "") && v.inStep(history.EffectDeleteKey, l.node, l.end)
	case "overwritten":
		ok = l.how == "overwritten" && (c.By == "" || l.by == c.By)
	case "flushed":
		ok = l.how == "flushed"
	case "crashed":
		return v.crashed(c, l, recs)
	case "failover":
		if !v.failoverBefore(c.End) {
			return refuse(recs, "no failover step began before the key left at %d", c.End)
		}
		return skip("key lost in a failover")
	default:
		return refuse(recs, "a key cannot end %q", c.How)
	}
	if !ok {
		return refuse(recs, "the nodes' record shows it %s (by %q) at %d, not %s by %q", l.how, l.by, l.end, c.How, c.By)
	}
	if c.How != "held" && !near(l.end, c.End) && !v.inStep(history.EffectFreezeNode, l.node, l.end) && !(atDeadline && l.how == "expired") {
		return refuse(recs, "it left the node at %d, not %d", l.end, c.End)
	}
	return held
}

// failoverBefore reports whether a failover step began by t (within
// slack): only a failover loses a key to a replica that lacked it.
func (v *verifier) failoverBefore(t int64) bool {
	return slices.ContainsFunc(v.h.Ops, func(op history.Op) bool {
		st := op.Value.Fault
		return op.F == history.Fault && st != nil && st.Effect == history.EffectFailover && op.Invoke <= t+slack
	})
}

// scripted reports whether node command rec ran inside a script (a
// compare-and-delete: whose token it compared is its argument's, not
// read here).
func (v *verifier) scripted(rec int) bool { return rec >= 0 && v.h.Ops[rec].Value.Lua }

// crashed: a crash of the key's node took it, and the claim says whether
// that crash was a power loss as the step recorded it.
func (v *verifier) crashed(c claim.Claim, l *life, recs []int) outcome {
	if l.how != "lost" && l.how != "crash?" {
		return refuse(recs, "the nodes' record shows it %s at %d, not lost in a crash", l.how, l.end)
	}
	if !near(l.end, c.End) {
		return refuse(recs, "its node crashed at %d, not %d", l.end, c.End)
	}
	for i, op := range v.h.Ops {
		st := op.Value.Fault
		if op.F != history.Fault || st == nil || st.Effect != history.EffectCrashNode || !slices.Contains(st.Nodes, l.node) || st.ID != c.Step {
			continue
		}
		if power := c.Fault != nil && c.Fault.PowerLoss; power != st.PowerLoss {
			return refuse(append(recs, i), "crash step %d power_loss is %t, the claim says %t", st.ID, st.PowerLoss, power)
		}
		return held
	}
	return refuse(recs, "no crash-node step %d of %s", c.Step, l.node)
}

// inStep reports whether a fault of effect acted on node around t.
func (v *verifier) inStep(effect, node string, t int64) bool {
	for _, op := range v.h.Ops {
		st := op.Value.Fault
		if op.F == history.Fault && st != nil && st.Effect == effect && (len(st.Nodes) == 0 || slices.Contains(st.Nodes, node)) &&
			op.Invoke-slack <= t && t <= v.end(op)+slack {
			return true
		}
	}
	return false
}

// cmdIs reports whether node command op is name (any case) on key.
func cmdIs(op history.Op, name, key string) bool {
	return op.F == history.NodeCmd && len(op.Value.Cmd) >= 2 && strings.EqualFold(op.Value.Cmd[0], name) && op.Value.Cmd[1] == key
}

// permit: the ZADD added Token with its score to Key on Node at Start; a
// purge was By's range removal whose bound covered the score.
func (v *verifier) permit(c claim.Claim) outcome {
	if c.What == claim.Inferred {
		return skip("permit inferred from the clients")
	}
	z, ok := v.rec(c, 0)
	if !ok || !cmdIs(z, "zadd", c.Key) || z.Value.Node != c.Node || !slices.Contains(z.Value.Cmd[2:], c.Token) || !near(z.Invoke, c.Start) {
		return refuse(c.Records[:min(1, len(c.Records))], "no ZADD of %s to %s on %s at %d", c.Token, c.Key, c.Node, c.Start)
	}
	if o := v.tokenOwner(c.Token); o != "" && c.Client != "" && o != c.Client {
		return refuse(c.Records[:1], "%s's acquire drew the permit %s, not %s's", o, c.Token, c.Client)
	}
	if score, err := strconv.ParseFloat(argAfter(z.Value.Cmd, c.Token), 64); err == nil && c.Score != 0 && score != c.Score {
		return refuse(c.Records[:1], "the ZADD gave %s the score %v, not %v", c.Token, score, c.Score)
	}
	switch c.How {
	case "released", "deleted":
		return v.permitRemoved(c)
	case "held":
		if len(c.Records) > 1 || c.End != v.m.end {
			return refuse(c.Records, "a permit held to the end has no removal and lasts to the history's end (%d), not %d", v.m.end, c.End)
		}
	}
	if c.How != "purged" {
		return held
	}
	r, ok := v.rec(c, 1)
	if !ok || r.Value.Node != c.Node || v.m.sender(c.Records[1]) != c.By || !near(r.Invoke, c.End) {
		return refuse(c.Records, "no command of %s on %s at %d removed it", c.By, c.Node, c.End)
	}
	switch {
	case cmdIs(r, "zremrangebyscore", c.Key) && len(r.Value.Cmd) >= 4:
		score, err := strconv.ParseFloat(argAfter(z.Value.Cmd, c.Token), 64)
		bound, err2 := strconv.ParseFloat(strings.TrimPrefix(r.Value.Cmd[3], "("), 64)
		if r.Value.Cmd[3] == "+inf" {
			bound, err2 = score, nil
		}
		if err == nil && err2 == nil && bound < score {
			return refuse(c.Records, "the purge's bound %v is below the permit's score %v", bound, score)
		}
	case cmdIs(r, "zinterstore", c.Key), cmdIs(r, "zrem", c.Key):
	default:
		return refuse(c.Records, "record %d does not remove members of %s", c.Records[1], c.Key)
	}
	return held
}

// permitRemoved: a permit released (by its owner) or deleted (by
// another) left when By's command (the claim's second record) on its
// node, naming its key, ran at End.
func (v *verifier) permitRemoved(c claim.Claim) outcome {
	r, ok := v.rec(c, 1)
	if !ok || r.F != history.NodeCmd || r.Value.Node != c.Node || len(r.Value.Cmd) < 2 || v.m.sender(c.Records[1]) != c.By || !near(r.Invoke, c.End) {
		return refuse(c.Records, "no command of %s on %s at %d removed it", c.By, c.Node, c.End)
	}
	if !slices.Contains(r.Value.Cmd[1:], c.Key) {
		return refuse(c.Records[1:], "record %d names no key %s", c.Records[1], c.Key)
	}
	if own := c.By == c.Client; own != (c.How == "released") {
		return refuse(c.Records[1:], "%s's command removed %s's permit: it was %s, not %s", c.By, c.Client, map[bool]string{true: "released", false: "deleted"}[own], c.How)
	}
	return held
}

// argAfter returns the score before member in a ZADD's arguments.
func argAfter(cmd []string, member string) string {
	for j := 2; j+1 < len(cmd); j++ {
		if cmd[j+1] == member {
			return cmd[j]
		}
	}
	return ""
}

// unsureAt reports whether node command rec is a SET whose outcome the
// model decided from its client's outcome alone, or met a key so decided.
func (v *verifier) unsureAt(rec int) bool {
	if l := v.m.lifeOf(rec); l != nil {
		return v.m.unsure[l]
	}
	if rec < 0 || rec >= len(v.h.Ops) {
		return false
	}
	op := v.h.Ops[rec]
	for l := range v.m.unsure {
		if len(op.Value.Cmd) > 1 && l.node == op.Value.Node && l.key == op.Value.Cmd[1] && l.start <= op.Invoke+slack && op.Invoke-slack <= l.end {
			return true
		}
	}
	return false
}

// waited is the numreplicas of the WAIT the acquire's client sent while
// the acquire was open, 0 when none.
func (v *verifier) waited(acq history.Op) int {
	for _, op := range v.waits[acq.Client] {
		if op.Invoke >= acq.Invoke && op.Invoke <= acq.Complete {
			n, _ := strconv.Atoi(op.Value.Cmd[1])
			return n
		}
	}
	return 0
}

// extendAlso: each key of an Extend claim's Also needs a deadline command
// of the client inside the extend that found that key, on its node, set by
// its By with its Token; and that owner is not the client.
func (v *verifier) extendAlso(c claim.Claim) outcome {
	for _, k := range c.Also {
		if k.By == c.Client {
			return refuse(c.Records, "%s's key %s is its own, not another client's", c.Client, k.Key)
		}
		found := false
		for i, op := range v.h.Ops {
			mv, ok := v.m.moves[i]
			if !ok || mv.life == nil || op.Client != c.Client || op.Invoke < c.Start-slack || op.Invoke > c.End+slack {
				continue
			}
			if l := mv.life; l.node == k.Node && l.key == k.Key && l.owner == k.By && l.value == k.Token {
				found = true
				break
			}
		}
		if !found {
			return refuse(c.Records, "no deadline command of %s in the extend moved %s's key %s on %s", c.Client, k.By, k.Key, k.Node)
		}
	}
	return outcome{}
}
