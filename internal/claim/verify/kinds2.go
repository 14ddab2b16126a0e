package verify

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// refusal: the client's acquire was refused over [Start, End] while the
// key the SET at Records[1] created stood on Node, set by By.
func (v *verifier) refusal(c claim.Claim) outcome {
	a, ok := v.rec(c, 0)
	if !ok || a.F != history.Acquire || a.Type != history.Fail || a.Client != c.Client || a.Key != c.Key || a.Invoke != c.Start || a.Complete != c.End {
		return refuse(c.Records, "record %v is not %s's refused acquire of %s over [%d, %d]", c.Records, c.Client, c.Key, c.Start, c.End)
	}
	if (c.Own || c.How == claim.Restarted) && c.By != c.Client {
		return refuse(c.Records, "own is %t, how %q, but the holder named is %s", c.Own, c.How, c.By)
	}
	if c.What == claim.Local {
		return v.localRefusal(c, a)
	}
	if o := v.unreachedByKey(c, a); o.reason != "" {
		return o
	}
	if c.What == claim.Granted {
		return v.grantedRefusal(c, a)
	}
	if c.What == claim.Inferred {
		return v.inferredRefusal(c)
	}
	if o := v.nodeKey(c); o.reason != "" {
		return o
	}
	if o := v.ownCause(c); o.reason != "" {
		return o
	}
	if len(c.Records) < 2 {
		return refuse(c.Records, "a refusal names no SET of the key it met")
	}
	first := claim.Holder{Node: c.Node, By: c.By, Token: c.Token, Set: c.Records[1]}
	if c.What == claim.Met {
		if o := v.metRefusal(c); o.reason != "" || o.skip != "" {
			return o
		}
		first.At = c.At
	}
	holders := c.Holders
	if len(holders) == 0 {
		holders = []claim.Holder{first}
	}
	if h := holders[0]; h.Node != first.Node || h.By != first.By || h.Set != first.Set || h.At != first.At {
		return refuse(c.Records, "its first holder %s on %s (record %d, at %d) is not the claim's %s on %s (record %d, at %d)", h.By, h.Node, h.Set, h.At, c.By, c.Node, c.Records[1], first.At)
	}
	for i, h := range holders {
		if slices.ContainsFunc(holders[:i], func(o claim.Holder) bool { return o.Node == h.Node }) {
			return refuse([]int{h.Set}, "%s is named twice among the nodes that refused it", h.Node)
		}
		if o := v.stoodThrough(c, h); o.reason != "" || o.skip != "" {
			return o
		}
	}
	for _, w := range c.Won {
		// Its own SET took this node: a key of Client's created inside
		// the acquire, on a node no holder is named on.
		if slices.ContainsFunc(holders, func(h claim.Holder) bool { return h.Node == w.Node }) {
			return refuse([]int{w.Set}, "%s is named both as refusing it and as taken by its own SET", w.Node)
		}
		if !v.watched(w.Node, c.Start, c.End) {
			return skip("refusal on a node not recorded")
		}
		l := v.m.lifeOf(w.Set)
		if l == nil || l.node != w.Node || l.key != c.KeyName() || l.owner != c.Client || w.By != c.Client ||
			l.start < c.Start-slack || l.start > c.End+slack {
			if v.unsureAt(w.Set) {
				// The replay could not tell whether this SET NX, at the
				// deadline of a key it met, took (redsync-happy seed 7:
				// w3's SET on n5 1.7 ms past w3's own orphaned key's
				// deadline, in an acquire the other nodes refused).
				return skip("SET at its key's deadline")
			}
			return refuse([]int{w.Set}, "record %d created no key of %s's on %s inside the acquire", w.Set, c.Client, w.Node)
		}
	}
	return v.silent(c, holders)
}

// silent: each node a refusal says gave its SET no answer is not one of
// its holders, is named once, and the client got none from it: the
// Silent's Cmd is a SET of the client's to that node, of the key, sent
// inside the acquire and recorded unanswered (Stalled, not OK); no SET of
// the client's to it in the acquire was answered late (Stalled OK); and
// the node, where its commands were recorded, ran no more of the client's
// SETs of the key in the acquire than went unanswered.
func (v *verifier) silent(c claim.Claim, holders []claim.Holder) outcome {
	key := c.KeyName()
	set := func(op history.Op) bool {
		cmd := op.Value.Cmd
		return !op.Value.Lua && len(cmd) > 1 && cmd[1] == key && (strings.EqualFold(cmd[0], "set") || strings.EqualFold(cmd[0], "setnx")) &&
			op.Client == c.Client && op.Invoke >= c.Start-slack && op.Invoke <= c.End+slack
	}
	for i, s := range c.Silent {
		if slices.ContainsFunc(holders, func(h claim.Holder) bool { return h.Node == s.Node }) ||
			slices.ContainsFunc(c.Silent[:i], func(o claim.Silent) bool { return o.Node == s.Node }) {
			return refuse([]int{s.Cmd}, "%s is said to have given no answer, yet it is named already", s.Node)
		}
		if s.Cmd < 0 || s.Cmd >= len(v.h.Ops) {
			return refuse(c.Records, "no record %d of a SET to %s", s.Cmd, s.Node)
		}
		if op := v.h.Ops[s.Cmd]; op.F != history.Stalled || op.Type == history.OK || op.Value.Node != s.Node || !set(op) {
			return refuse([]int{s.Cmd}, "record %d is not a SET of %s's to %s of %s, sent in its acquire, that got no answer", s.Cmd, c.Client, s.Node, key)
		}
		unanswered, ran := 0, 0
		for j, op := range v.h.Ops {
			if op.Value.Node != s.Node || !set(op) {
				continue
			}
			switch {
			case op.F == history.Stalled && op.Type == history.OK:
				return refuse([]int{j}, "%s answered %s's SET late, inside the acquire", s.Node, c.Client)
			case op.F == history.Stalled:
				unanswered++
			case op.F == history.NodeCmd:
				ran++
			}
		}
		if ran > unanswered && v.watched(s.Node, c.Start, c.End) {
			return refuse([]int{s.Cmd}, "%s ran %d of %s's SETs of %s in the acquire, and only %d went unanswered", s.Node, ran, c.Client, key, unanswered)
		}
	}
	return held
}

// stoodThrough: the life record h.Set created is c's key (under its
// node name) on h.Node, set by h.By, and it stood there through c's
// acquire; or, for a holder met at At, c's SET NX on h.Node met it then
// (as metRefusal checks a Refusal Met).
func (v *verifier) stoodThrough(c claim.Claim, h claim.Holder) outcome {
	if h.At != 0 {
		m := c
		m.Node, m.By, m.At, m.Records = h.Node, h.By, h.At, []int{c.Records[0], h.Set}
		return v.metRefusal(m)
	}
	if !v.watched(h.Node, c.Start, c.End) {
		return skip("refusal on a node not recorded")
	}
	if v.unsureAt(h.Set) {
		return skip("SET at its key's deadline")
	}
	l := v.m.lifeOf(h.Set)
	if l == nil || l.node != h.Node || l.key != c.KeyName() {
		return refuse([]int{h.Set}, "record %d created no key %s on %s", h.Set, c.KeyName(), h.Node)
	}
	if l.start > c.Start+slack || l.end < c.End-slack && !v.stoppedThrough(l.node, l.end, c.End) {
		return refuse([]int{l.set}, "that key stood from %d to %d, not through the acquire", l.start, l.end)
	}
	if l.owner != h.By {
		return refuse([]int{l.set}, "%s set the key it met, not %s", l.owner, h.By)
	}
	if h.Token != "" && l.value != "" && l.value != h.Token {
		return refuse([]int{l.set}, "the key it met held %s, not %s", l.value, h.Token)
	}
	return held
}

// nodeKey: a refusal's NodeKey is the lock's own name for Key on the
// nodes — an acquire (or probe) record of Key gave it as its lock key, or
// Client sent a SET of it while its refused acquire ran.
func (v *verifier) nodeKey(c claim.Claim) outcome {
	if c.NodeKey == "" || c.NodeKey == c.Key {
		return held
	}
	for _, op := range v.h.Ops {
		if (op.F == history.Acquire || op.F == history.Probe) && op.Key == c.Key && op.Value.LockKey == c.NodeKey {
			return held
		}
		if op.F == history.NodeCmd && op.Client == c.Client && op.Invoke >= c.Start-slack && op.Invoke <= c.End+slack && setsKey(op, c.NodeKey) {
			return held
		}
	}
	return refuse(c.Records, "no record names %s as the lock's key for %s, and %s sent no SET of it in its acquire", c.NodeKey, c.Key, c.Client)
}

// metRefusal: a SET NX of the client on Key ran on Node at At, inside the
// acquire, while the life the SET at Records[1] created stood there, set
// by By.
func (v *verifier) metRefusal(c claim.Claim) outcome {
	if !v.watched(c.Node, c.At, c.At) {
		return skip("refusal on a node not recorded")
	}
	if c.At < c.Start-slack || c.At > c.End+slack {
		return refuse(c.Records, "its SET at %d is outside the acquire [%d, %d]", c.At, c.Start, c.End)
	}
	sent := false
	for _, op := range v.h.Ops {
		if op.F == history.NodeCmd && op.Client == c.Client && op.Value.Node == c.Node && op.Invoke == c.At && setsKey(op, c.KeyName()) {
			sent = true
		}
	}
	if !sent {
		return refuse(c.Records, "%s sent no SET of %s to %s at %d", c.Client, c.Key, c.Node, c.At)
	}
	l := v.m.lifeOf(c.Records[1])
	if len(c.Records) > 1 && v.unsureAt(c.Records[1]) {
		return skip("SET at its key's deadline")
	}
	if l == nil || l.node != c.Node || l.key != c.KeyName() {
		return refuse(c.Records, "record %v created no key %s on %s", c.Records[1:], c.Key, c.Node)
	}
	if l.start > c.At+slack || l.end < c.At-slack && !v.stoppedThrough(l.node, l.end, c.At) {
		return refuse([]int{l.set}, "that key stood from %d to %d, not at %d", l.start, l.end, c.At)
	}
	if l.owner != c.By {
		return refuse([]int{l.set}, "%s set the key it met, not %s", l.owner, c.By)
	}
	return held
}

// setsKey reports whether node command op is a SET (or SETNX) of key.
func setsKey(op history.Op, key string) bool {
	cmd := op.Value.Cmd
	return len(cmd) > 2 && (strings.EqualFold(cmd[0], "set") || strings.EqualFold(cmd[0], "setnx")) && cmd[1] == key
}

// grantedRefusal: the acquire a (refused) had its own SETs create
// Client's key on Nodes (Records[1:], one per node, inside it), and the
// lock refused it for How: its record's refusal, or Validity when it took
// at least its TTL less the drift allowance.
func (v *verifier) grantedRefusal(c claim.Claim, a history.Op) outcome {
	if c.By != c.Client || len(c.Records) != len(c.Nodes)+1 || len(c.Nodes) == 0 {
		return refuse(c.Records, "a refusal by the lock names %s's key and %d records for %d nodes", c.By, len(c.Records)-1, len(c.Nodes))
	}
	for i, n := range c.Nodes {
		if !v.watched(n, c.Start, c.End) {
			return skip("refusal on a node not recorded")
		}
		l := v.m.lifeOf(c.Records[i+1])
		if l == nil || l.node != n || l.key != c.Key || l.owner != c.Client || l.start < c.Start-slack || l.start > c.End+slack {
			if v.unsureAt(c.Records[i+1]) {
				return skip("SET at its key's deadline")
			}
			return refuse(c.Records, "record %d created no key of %s's on %s inside the acquire", c.Records[i+1], c.Client, n)
		}
	}
	switch {
	case c.How == claim.Validity:
		ttl := a.Value.TTL
		if a.Value.Refusal != "" && a.Value.Refusal != claim.Validity || ttl <= 0 || c.TTL != ttl ||
			c.Elapsed != c.End-c.Start || c.Drift != claim.Drift(ttl) || c.Validity != ttl-c.Elapsed-c.Drift || c.Validity > 0 {
			return refuse(c.Records, "the acquire took %d of a TTL of %d: its validity had not run out as claimed", c.End-c.Start, ttl)
		}
	case c.How != a.Value.Refusal:
		return refuse(c.Records, "the acquire's record gives the refusal %q, not %q", a.Value.Refusal, c.How)
	case c.How == "" && len(c.Nodes) < len(v.h.Header.Nodes)/2+1:
		return refuse(c.Records, "its SETs took %d nodes, fewer than a quorum, and its record gives no reason", len(c.Nodes))
	}
	return held
}

// ownCause checks why a refusal met its own client's key: an orphan (Own:
// the third record is the client's acquire of the key, not ok, within
// which the key's SET ran) or a restart (How restarted: the third record
// is a restart-client step of the client between that SET and the refused
// acquire). held when the claim gives no such cause.
func (v *verifier) ownCause(c claim.Claim) outcome {
	if !c.Own && c.How != claim.Restarted {
		return held
	}
	set, ok1 := v.rec(c, 1)
	r, ok2 := v.rec(c, 2)
	if !ok1 || !ok2 || set.F != history.NodeCmd {
		return refuse(c.Records, "records %v name no SET and no cause of it", c.Records)
	}
	if c.Own {
		// An acquire answered info may have its SET run after it gave up
		// (sent to a stopped node, run when it woke).
		late := r.Type == history.Info && set.Invoke > v.end(r)
		if r.F != history.Acquire || r.Client != c.Client || r.Key != c.Key || r.Type == history.OK ||
			set.Invoke < r.Invoke-slack || set.Invoke > v.end(r)+slack && !late {
			return refuse(c.Records, "record %d is not an acquire of %s's, with no ok reply, that sent the SET: the key is no orphan of its", c.Records[2], c.Client)
		}
		return held
	}
	st := r.Value.Fault
	if r.F != history.Fault || st == nil || r.Type == history.Fail || st.Effect != history.EffectRestartClient ||
		!slices.Contains(st.Clients, c.Client) || r.Invoke <= set.Invoke || r.Invoke > c.Start {
		return refuse(c.Records, "record %d is no restart of %s between the SET and the acquire", c.Records[2], c.Client)
	}
	return held
}

// stoppedThrough reports whether node was stopped from `from` to `to`: a
// freeze-node step (SIGSTOP) was in force over the whole span and the node
// executed no command in it. A stopped Redis expires nothing, so a key
// whose deadline passed at `from` still stood, unseen, until `to`.
func (v *verifier) stoppedThrough(node string, from, to int64) bool {
	covered := false
	for _, op := range v.h.Ops {
		st := op.Value.Fault
		if op.F == history.Fault && st != nil && st.Effect == history.EffectFreezeNode && slices.Contains(st.Nodes, node) &&
			op.Invoke <= from && to <= v.end(op) {
			covered = true
		}
		if op.F == history.NodeCmd && op.Value.Node == node && from < op.Invoke && op.Invoke < to {
			return false
		}
	}
	return covered
}

// fault: the nemesis operation is step Step of kind What, active from
// Start to End, with the targets and attributes the claim gives.
func (v *verifier) fault(c claim.Claim) outcome {
	f, ok := v.rec(c, 0)
	if !ok || f.F != history.Fault || f.Value.Fault == nil {
		return refuse(c.Records, "record %v is not a fault", c.Records)
	}
	st := f.Value.Fault
	// A crash that recorded its nodes' death is told from it: the kill's
	// return to the restart's start, not the harness's run-up before the
	// kill and recovery after the restart.
	from, to := f.Invoke, v.end(f)
	if st.Effect == history.EffectCrashNode && f.Value.DeadFrom > 0 && f.Value.DeadTo > f.Value.DeadFrom {
		from, to = f.Value.DeadFrom, f.Value.DeadTo
	}
	switch {
	case st.ID != c.Step || st.Kind != c.What:
		return refuse(c.Records, "record %d is step %d (%s), not step %d (%s)", c.Records[0], st.ID, st.Kind, c.Step, c.What)
	case from != c.Start || to != c.End:
		return refuse(c.Records, "step %d was active over [%d, %d], not [%d, %d]", st.ID, from, to, c.Start, c.End)
	case c.Node != "" && !slices.Contains(st.Nodes, c.Node):
		return refuse(c.Records, "step %d acted on %v, not on %s", st.ID, st.Nodes, c.Node)
	case c.Persistence != "" && v.h.Header.Persistence[c.Node] != c.Persistence:
		return refuse(c.Records, "%s's persistence is %q, not %q", c.Node, v.h.Header.Persistence[c.Node], c.Persistence)
	}
	if d := stepDiff(*st, c.Fault); d != "" {
		return refuse(c.Records, "step %d's %s differs", st.ID, d)
	}
	if st.Effect == history.EffectFailover {
		return v.announced(c, f, st)
	}
	if c.Client != "" {
		return v.inFlight(c, st)
	}
	if c.At != 0 || len(c.Records) > 1 {
		return refuse(c.Records, "step %d (%s) announced nothing: no instant or record beyond its own", st.ID, st.Kind)
	}
	return held
}

// inFlight: a freeze of Client planned inside its acquire (point
// in-acquire) came while Client's acquire of Key, Records[1], was open
// (invoked at or before Start, not answered before it); Records[2:] are,
// one per node of Nodes, a SET Client's connection had that node run
// inside the acquire by Start; every other node of the run, its commands
// recorded from the acquire's invoke to Start, ran no SET of Client's in
// that time.
func (v *verifier) inFlight(c claim.Claim, st *history.FaultStep) outcome {
	if st.Effect != history.EffectFreezeClient || st.Trigger.Kind != history.TriggerPoint || st.Trigger.Point != history.PointInAcquire ||
		!slices.Contains(st.Clients, c.Client) || c.At != 0 {
		return refuse(c.Records, "step %d is no freeze of %s inside its acquire", st.ID, c.Client)
	}
	a, ok := v.rec(c, 1)
	if !ok || a.F != history.Acquire || a.Client != c.Client || a.Key != c.Key || a.Invoke > c.Start || (a.Complete >= 0 && a.Complete < c.Start) {
		return refuse(c.Records, "record %v is no acquire of %s's of %s open at %d", c.Records, c.Client, c.Key, c.Start)
	}
	if len(c.Records) != len(c.Nodes)+2 {
		return refuse(c.Records, "%d nodes named with %d SETs", len(c.Nodes), len(c.Records)-2)
	}
	isSet := func(op history.Op, node string) bool {
		return op.F == history.NodeCmd && op.Client == c.Client && op.Value.Node == node && len(op.Value.Cmd) > 2 &&
			(strings.EqualFold(op.Value.Cmd[0], "set") || strings.EqualFold(op.Value.Cmd[0], "setnx"))
	}
	for j, n := range c.Nodes {
		op, ok := v.rec(c, j+2)
		if !ok || !isSet(op, n) || op.Invoke < a.Invoke-slack || op.Invoke > c.Start || countOf(c.Nodes, n) != 1 {
			return refuse(c.Records, "record %d is no SET of %s's that %s ran inside its acquire by %d", c.Records[min(j+2, len(c.Records)-1)], c.Client, n, c.Start)
		}
	}
	for _, n := range v.h.Header.Nodes {
		if slices.Contains(c.Nodes, n) {
			continue
		}
		if !v.watched(n, a.Invoke, c.Start) {
			return skip("a freeze inside an acquire on a node not recorded")
		}
		for j, op := range v.h.Ops {
			if isSet(op, n) && op.Invoke >= a.Invoke && op.Invoke <= c.Start {
				return refuse([]int{j}, "%s ran %s's SET at %d, by the freeze at %d", n, c.Client, op.Invoke, c.Start)
			}
		}
	}
	return held
}

// announced: a failover claim's At is the first switch-master record that
// announces one of the step's promotions (group, old master → promoted
// replica) at or after the step began, and its second record is that one;
// neither when no such record exists.
func (v *verifier) announced(c claim.Claim, f history.Op, st *history.FaultStep) outcome {
	first := -1
	for i, op := range v.h.Ops {
		if op.F != history.MasterSwitch || len(op.Value.Cmd) != 2 || op.Invoke < f.Invoke {
			continue
		}
		if slices.ContainsFunc(st.Promotions, func(p history.Promotion) bool {
			return p.Promoted != "" && p.Group == op.Value.Node && p.Old == op.Value.Cmd[0] && p.Promoted == op.Value.Cmd[1]
		}) && (first < 0 || op.Invoke < v.h.Ops[first].Invoke) {
			first = i
		}
	}
	switch {
	case first < 0 && (c.At != 0 || len(c.Records) > 1):
		return refuse(c.Records, "no sentinel announced step %d's promotion (no switch-master record of it), yet the claim gives one at %d", st.ID, c.At)
	case first < 0:
		return held
	case len(c.Records) < 2 || c.Records[1] != first || c.At != v.h.Ops[first].Invoke:
		return refuse([]int{c.Records[0], first}, "Sentinel announced step %d's promotion at %d (record %d), not at %d", st.ID, v.h.Ops[first].Invoke, first, c.At)
	}
	return held
}

// stepDiff names the first attribute in which the claimed step differs
// from the recorded one ("" when none does, or nothing is claimed).
func stepDiff(st history.FaultStep, c *history.FaultStep) string {
	if c == nil {
		return ""
	}
	linkEq := func(a, b history.Link) bool { return a == b }
	switch {
	case st.Effect != c.Effect:
		return "effect"
	case st.Direction != c.Direction:
		return "direction"
	case st.Stream != c.Stream:
		return "stream"
	case st.Mode != c.Mode:
		return "mode"
	case st.PowerLoss != c.PowerLoss:
		return "power_loss"
	case st.Delta != c.Delta || st.Rate != c.Rate:
		return "clock delta or rate"
	case st.Latency != c.Latency || st.Jitter != c.Jitter:
		return "latency"
	case st.Duration != c.Duration || st.UntilEnd != c.UntilEnd:
		return "duration"
	case st.Cause != c.Cause:
		return "cause"
	case !slices.EqualFunc(st.Promotions, c.Promotions, promotionEq):
		return "promotions"
	case !slices.Equal(st.Clients, c.Clients) || !slices.Equal(st.Nodes, c.Nodes) || !slices.EqualFunc(st.Links, c.Links, linkEq):
		return "targets"
	}
	return ""
}

// promotionEq reports whether two recorded promotions say the same:
// group, old master, promoted replica, offsets and the time it took.
func promotionEq(a, b history.Promotion) bool {
	return a.Group == b.Group && a.Old == b.Old && a.Promoted == b.Promoted && a.MasterOffset == b.MasterOffset &&
		a.PromotedOffset == b.PromotedOffset && a.TookNS == b.TookNS && maps.Equal(a.ReplicaOffsets, b.ReplicaOffsets)
}

// orphan: the client's command set the key at Start, and the acquire
// around it was not ok: the client never believed it held it.
func (v *verifier) orphan(c claim.Claim) outcome {
	s, ok := v.rec(c, 0)
	if !ok || s.F != history.NodeCmd || v.m.sender(c.Records[0]) != c.Client || s.Value.Node != c.Node || !near(s.Invoke, c.Start) {
		return refuse(c.Records, "no command of %s on %s at %d set the key (the orphan's life starts at its SET)", c.Client, c.Node, c.Start)
	}
	if !v.watched(c.Node, c.Start, c.End) {
		return skip("orphan on a node not recorded")
	}
	if v.unsureAt(c.Records[0]) {
		return skip("SET at its key's deadline")
	}
	l := v.m.lifeOf(c.Records[0])
	if l == nil || l.key != c.Key {
		return refuse(c.Records[:1], "the command at record %d set no key %s", c.Records[0], c.Key)
	}
	a, ok := v.rec(c, 1)
	if !ok || a.F != history.Acquire || a.Client != c.Client || s.Invoke < a.Invoke-slack || s.Invoke > v.end(a)+slack {
		return refuse(c.Records, "record %v is not the acquire that sent the SET", c.Records[1:])
	}
	if a.Type == history.OK || c.Believed {
		return refuse(c.Records, "the acquire was %s and the claim says believed %t: an orphan is a key its client never believed it held", a.Type, c.Believed)
	}
	if !near(l.end, c.End) && !(l.deadline >= 0 && near(l.deadline, c.End)) && !v.inStep(history.EffectFreezeNode, l.node, l.end) {
		return refuse([]int{l.set}, "the key left the node at %d, not %d", l.end, c.End)
	}
	return held
}

// release: the client's release removed, at At (when its command ran),
// the key By had set.
func (v *verifier) release(c claim.Claim) outcome {
	r, ok := v.rec(c, 0)
	if !ok || r.F != history.Release || r.Client != c.Client || r.Invoke != c.Start || r.Complete != c.End {
		return refuse(c.Records, "record %v is not %s's release over [%d, %d]", c.Records, c.Client, c.Start, c.End)
	}
	if c.What == claim.Inferred {
		if c.At < c.Start || c.At > c.End {
			return refuse(c.Records, "the removal at %d is outside the release [%d, %d]", c.At, c.Start, c.End)
		}
		return skip("release inferred from the clients")
	}
	if !v.watched(c.Node, c.Start, c.End) {
		return skip("release on a node not recorded")
	}
	d, ok := v.rec(c, 1)
	if !ok || d.F != history.NodeCmd || v.m.sender(c.Records[1]) != c.Client || d.Value.Node != c.Node {
		return refuse(c.Records, "record %v is not a command of %s on %s", c.Records[1:], c.Client, c.Node)
	}
	if !near(d.Invoke, c.At) {
		return refuse(c.Records, "the release's command ran at %d, not %d", d.Invoke, c.At)
	}
	if c.What == claim.Kept || c.What == claim.Rewrote {
		return v.keptRelease(c, d)
	}
	for _, l := range v.m.removedAt[c.Records[1]] {
		if l.node == c.Node && l.key == c.Key {
			owner := l.owner
			if owner == "" {
				// A key the node showed (a dump after a restart) without
				// the command that set it: whose value it holds.
				if owner = v.tokenOwner(l.value); owner == "" {
					return skip("release of a key whose setter the nodes do not name")
				}
			}
			if owner != c.By || (c.Token != "" && l.value != c.Token) {
				return refuse([]int{l.set, c.Records[1]}, "the key it removed was set by %s (value %s), not %s", owner, l.value, c.By)
			}
			if l.start > c.At {
				return refuse([]int{l.set, c.Records[1]}, "the key it removed was set at %d, after %d", l.start, c.At)
			}
			return held
		}
	}
	return refuse(c.Records, "the command at record %d removed no key", c.Records[1])
}

// acquire: elapsed and validity as the definitions give them from the
// acquire's own times and TTL.
func (v *verifier) acquire(c claim.Claim) outcome {
	a, ok := v.rec(c, 0)
	switch {
	case !ok || a.F != history.Acquire || a.Type != history.OK || a.Client != c.Client || a.Key != c.Key:
		return refuse(c.Records, "record %v is not %s's granted acquire of %s", c.Records, c.Client, c.Key)
	case a.Invoke != c.Start || a.Complete != c.End || a.Value.TTL != c.TTL:
		return refuse(c.Records, "the acquire ran over [%d, %d] with TTL %d", a.Invoke, a.Complete, a.Value.TTL)
	case c.Elapsed != a.Complete-a.Invoke:
		return refuse(c.Records, "the acquire took %d, not %d", a.Complete-a.Invoke, c.Elapsed)
	case c.Drift != claim.Drift(c.TTL) || c.Validity != c.TTL-c.Elapsed-c.Drift:
		return refuse(c.Records, "validity is TTL − elapsed − drift = %d", c.TTL-c.Elapsed-claim.Drift(c.TTL))
	}
	return held
}

// recorded: a node's commands were recorded exactly when the header names
// it observed, except over the unobserved records' windows.
func (v *verifier) recorded(c claim.Claim) outcome {
	obs := slices.Contains(v.h.Header.Observed, c.Node)
	if len(c.Records) == 0 {
		if obs != (c.What == claim.RecordedW) {
			return refuse(nil, "the history's header says %s observed: %t", c.Node, obs)
		}
		return held
	}
	u, ok := v.rec(c, 0)
	if !ok || u.F != history.Unobserved || u.Value.Node != c.Node || u.Invoke != c.Start || v.end(u) != c.End || c.What != claim.Unrecorded {
		return refuse(c.Records, "record %v is not %s's unobserved window [%d, %d]", c.Records, c.Node, c.Start, c.End)
	}
	return held
}

// foreignDelete: a command of By removed, at At, a key on Node that
// another client, Client, had set.
func (v *verifier) foreignDelete(c claim.Claim) outcome {
	switch restoring := v.restoring(c.By, c.At); {
	case !near(c.Start, c.At) || !near(c.End, c.At):
		return refuse(c.Records, "a removal is an instant, %d, not [%d, %d]", c.At, c.Start, c.End)
	case c.How == "restored" && !restoring:
		return refuse(c.Records, "%s was not restoring on start at %d: no restart of it had just ended", c.By, c.At)
	case c.How == "deleted" && restoring:
		return refuse(c.Records, "%s removed it in its restore on start, after its restart, not in a release", c.By)
	case c.How != "restored" && c.How != "deleted":
		return refuse(c.Records, "a foreign delete is deleted or restored, not %q", c.How)
	}
	if !v.watched(c.Node, c.At, c.At) {
		return skip("foreign delete on a node not recorded")
	}
	var near_ []int
	for _, l := range v.m.lives {
		if l.node != c.Node || l.key != c.Key || l.rec < 0 || !near(l.end, c.At) {
			continue
		}
		near_ = append(near_, l.set, l.rec)
		if l.by != c.By {
			continue
		}
		if l.owner != c.Client || l.owner == c.By {
			return refuse([]int{l.set, l.rec}, "the key %s removed at %d was set by %s, not %s", c.By, l.end, l.owner, c.Client)
		}
		return held
	}
	return refuse(near_, "no command of %s removed %s on %s at %d", c.By, c.Key, c.Node, c.At)
}

// restoring reports whether client's restore on start was under way at
// t: a restart-client step of it (restore: all) had ended by t (within
// slack), and the client began no operation between that end and t.
func (v *verifier) restoring(client string, t int64) bool {
	for _, f := range v.h.Ops {
		st := f.Value.Fault
		if f.F != history.Fault || st == nil || st.Effect != history.EffectRestartClient || st.Mode != history.RestoreAll ||
			!slices.Contains(st.Clients, client) || v.end(f) > t+slack {
			continue
		}
		if !slices.ContainsFunc(v.h.Ops, func(op history.Op) bool {
			return op.Process >= 0 && op.Client == client && op.Invoke >= v.end(f) && op.Invoke < t-slack
		}) {
			return true
		}
	}
	return false
}

// anomaly: with violating writes, it became true at a recorded event on
// its key (an operation's invoke or completion) no earlier than any
// violating write's invoke, each an accepted write — except a duplicate
// run, which became true at its first violating run, the second run of
// its fire time (an accepted run before it); without, At lies in its
// window.
func (v *verifier) anomaly(c claim.Claim) outcome {
	if o := v.later(c); o.reason != "" {
		return o
	}
	if c.How == claim.Kept {
		if o := v.keptOrphan(c); o.reason != "" || o.skip != "" {
			return o
		}
	}
	if o := v.fenceable(c); o.reason != "" {
		return o
	}
	if o := v.accepted(c); o.reason != "" {
		return o
	}
	if len(c.Violating) == 0 {
		if c.At < c.Start-slack || c.At > c.End+slack {
			return refuse(c.Records, "it became true at %d, outside its window [%d, %d]", c.At, c.Start, c.End)
		}
		if c.What == history.AnomalyUnavailable {
			return v.unavailable(c)
		}
		if c.What == history.AnomalyStuckLock {
			return v.stuck(c)
		}
		return held
	}
	dup := c.What == history.AnomalyDuplicateRun
	first := -1
	for _, w := range c.Violating {
		if w < 0 || w >= len(v.h.Ops) {
			return refuse([]int{}, "violating record %d does not exist", w)
		}
		op := v.h.Ops[w]
		switch {
		case op.F != history.Write || op.Type != history.OK:
			return refuse([]int{w}, "record %d is not an accepted write", w)
		case op.Invoke > c.At+slack && !dup:
			return refuse([]int{w}, "the violating write was invoked at %d, after the instant %d it is placed at", op.Invoke, c.At)
		}
		if first < 0 || op.Invoke < v.h.Ops[first].Invoke {
			first = w
		}
	}
	if dup {
		f := v.h.Ops[first]
		if f.Invoke != c.At {
			return refuse([]int{first}, "a duplicate run became one at its second run, invoked at %d, not at %d", f.Invoke, c.At)
		}
		if !slices.ContainsFunc(v.h.Ops, func(op history.Op) bool {
			return op.F == history.Write && op.Type == history.OK && op.Key == f.Key && op.Invoke < f.Invoke && !slices.Contains(c.Violating, op.Index)
		}) {
			return refuse([]int{first}, "no run of %s was accepted before record %d: it is no duplicate", f.Key, first)
		}
		return held
	}
	for _, op := range v.h.Ops {
		if op.Process >= 0 && op.Key == c.Key && (op.Invoke == c.At || op.Complete == c.At) {
			return held
		}
	}
	return refuse(c.Violating, "no operation on %s was invoked or completed at %d, where it is placed", c.Key, c.At)
}

// tokenOwner is the one client whose acquires carried owner token value,
// "" when none did or more than one did.
func (v *verifier) tokenOwner(value string) string {
	owner := ""
	for _, op := range v.h.Ops {
		if (op.F != history.Acquire && op.F != history.Probe) || op.Value.Token != value || value == "" {
			continue
		}
		if owner != "" && owner != op.Client {
			return ""
		}
		owner = op.Client
	}
	return owner
}

// fenceable: each of an anomaly's Fenceable records is an accepted write
// of Client on Key invoked after an accepted write of By on Key had
// completed, By's write invoked after By's acquire (the claim's second
// record, an ok acquire of By's) had completed.
func (v *verifier) fenceable(c claim.Claim) outcome {
	if len(c.Fenceable) == 0 {
		return held
	}
	acq, ok := v.rec(c, 1)
	if !ok || acq.F != history.Acquire || acq.Type != history.OK || acq.Client != c.By || c.By == "" || c.By == c.Client {
		return refuse(c.Records, "the anomaly's second record is not an ok acquire of the newer holder %q", c.By)
	}
	for _, w := range c.Fenceable {
		if w < 0 || w >= len(v.h.Ops) {
			return refuse([]int{}, "fenceable record %d does not exist", w)
		}
		op := v.h.Ops[w]
		if op.F != history.Write || op.Type != history.OK || op.Client != c.Client || op.Key != c.Key {
			return refuse([]int{w}, "record %d is not an accepted write of %s on %s", w, c.Client, c.Key)
		}
		if !slices.ContainsFunc(v.h.Ops, func(f history.Op) bool {
			return f.F == history.Write && f.Type == history.OK && f.Client == c.By && f.Key == c.Key &&
				f.Invoke >= acq.Complete && f.Complete < op.Invoke
		}) {
			return refuse([]int{w}, "no write of %s accepted after its grant had completed before record %d was invoked", c.By, w)
		}
	}
	return held
}

// unavailable: the lock on Key could be had by no client that tried over
// [Start, End]: the window opens with a refused acquire (or failed final
// probe) of Key invoked at Start, and no acquire or probe of Key was
// granted in between (one completed strictly inside the window). An
// outage told from a later refusal than its first, or through a grant, is
// refused; a refusal after which a grant completed, before the window,
// began no outage.
func (v *verifier) unavailable(c claim.Claim) outcome {
	tried := func(op history.Op) bool {
		return op.Key == c.Key && op.Process >= 0 && (op.F == history.Acquire || op.F == history.Probe)
	}
	opens := slices.ContainsFunc(v.h.Ops, func(op history.Op) bool {
		return tried(op) && op.Type != history.OK && op.Invoke == c.Start
	})
	if !opens {
		return refuse(c.Records, "no acquire of %s was refused at %d, where the outage is said to begin", c.Key, c.Start)
	}
	last := -1 // the last client acquire of Key invoked before Start
	for _, op := range v.h.Ops {
		if tried(op) && op.Type == history.OK && op.Complete > c.Start && op.Complete < c.End {
			return refuse([]int{op.Index}, "%s was granted %s at %d, inside the outage [%d, %d]", op.Client, c.Key, op.Complete, c.Start, c.End)
		}
		if tried(op) && op.F == history.Acquire && op.Invoke < c.Start && (last < 0 || op.Invoke > v.h.Ops[last].Invoke) {
			last = op.Index
		}
	}
	if last >= 0 {
		// That refusal began the outage unless a grant of Key completed
		// after it, before Start (an acquire invoked before it, whose SET
		// had taken the key, told its client later).
		grantedSince := func(r history.Op) bool {
			return slices.ContainsFunc(v.h.Ops, func(op history.Op) bool {
				return tried(op) && op.Type == history.OK && op.Complete > r.Invoke && op.Complete <= c.Start
			})
		}
		if r := v.h.Ops[last]; r.Type == history.Fail && !v.believed(c.Key, r.Invoke) && !grantedSince(r) {
			return refuse([]int{last}, "%s was already refused %s at %d while no client believed it held it: the outage began earlier than %d", r.Client, c.Key, r.Invoke, c.Start)
		}
	}
	return held
}

// believed reports whether some client believed it held key at t, by the
// clients' own record: an acquire of key that was granted (or of unknown
// outcome, from its invoke) before t, and before t none of its client's
// release, lost or stopped of key, next acquire of key, or crash or
// restart of that client.
func (v *verifier) believed(key string, t int64) bool {
	for _, a := range v.h.Ops {
		if a.F != history.Acquire || a.Key != key || a.Process < 0 || a.Type == history.Fail {
			continue
		}
		from := a.Complete
		if a.Type != history.OK || from < 0 {
			from = a.Invoke
		}
		if from > t {
			continue
		}
		ended := slices.ContainsFunc(v.h.Ops, func(o history.Op) bool {
			if o.Invoke <= from || o.Invoke > t {
				return false
			}
			if st := o.Value.Fault; o.F == history.Fault && st != nil {
				return (st.Effect == history.EffectCrashClient || st.Effect == history.EffectRestartClient) && slices.Contains(st.Clients, a.Client)
			}
			return o.Client == a.Client && o.Key == key &&
				(o.F == history.Release || o.F == history.Lost || o.F == history.Stopped || o.F == history.Acquire)
		})
		if !ended {
			return true
		}
	}
	return false
}

// accepted: an overlap's Accepted are exactly the writes of the stale
// holder (Client) on Key that the resource accepted (ok writes) with
// [invoke, completion] meeting the overlap's window, in invoke order, and
// the newer holder (By) is another client that held the lock then: an ok
// acquire of By's completed by the window's start (the overlap begins at
// the later of the two holds' starts), with no release of By's between
// that acquire and the window's start.
func (v *verifier) accepted(c claim.Claim) outcome {
	if len(c.Accepted) == 0 {
		return held
	}
	if c.What != history.AnomalyMutexOverlap || c.By == "" || c.By == c.Client {
		return refuse(c.Accepted, "stale writes accepted are claimed of a %s between %q and %q, not of an overlap of two holders", c.What, c.Client, c.By)
	}
	var want []int
	for _, op := range v.h.Ops {
		if op.F == history.Write && op.Type == history.OK && op.Client == c.Client && op.Key == c.Key &&
			op.Invoke <= c.End && v.end(op) >= c.Start {
			want = append(want, op.Index)
		}
	}
	slices.SortStableFunc(want, func(x, y int) int { return cmp.Compare(v.h.Ops[x].Invoke, v.h.Ops[y].Invoke) })
	for i, w := range c.Accepted {
		if w < 0 || w >= len(v.h.Ops) {
			return refuse([]int{}, "accepted record %d does not exist", w)
		}
		op := v.h.Ops[w]
		if op.F != history.Write || op.Type != history.OK || op.Client != c.Client || op.Key != c.Key {
			return refuse([]int{w}, "record %d is not a write of %s on %s the resource accepted", w, c.Client, c.Key)
		}
		if op.Invoke > c.End || v.end(op) < c.Start {
			return refuse([]int{w}, "record %d ran over [%d, %d], outside the overlap [%d, %d]", w, op.Invoke, v.end(op), c.Start, c.End)
		}
		if i > 0 && v.h.Ops[c.Accepted[i-1]].Invoke > op.Invoke {
			return refuse([]int{c.Accepted[i-1], w}, "record %d was invoked before record %d, which is listed first", w, c.Accepted[i-1])
		}
	}
	if missed := slices.DeleteFunc(slices.Clone(want), func(w int) bool { return slices.Contains(c.Accepted, w) }); len(missed) > 0 {
		return refuse(missed, "the resource also accepted %s's writes %v in the overlap, which the claim leaves out", c.Client, missed)
	}
	for _, op := range v.h.Ops {
		if op.F == history.Acquire && op.Type == history.OK && op.Client == c.By && op.Key == c.Key && op.Complete <= c.Start+slack &&
			!slices.ContainsFunc(v.h.Ops, func(r history.Op) bool {
				return r.F == history.Release && r.Client == c.By && r.Key == c.Key && r.Invoke > op.Complete && v.end(r) < c.Start
			}) {
			return held
		}
	}
	return refuse(c.Records, "%s held no grant of %s through the overlap [%d, %d]", c.By, c.Key, c.Start, c.End)
}
