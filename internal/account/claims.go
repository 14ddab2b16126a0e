package account

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// Claims returns the account's facts as claims (issue 27, package claim):
// every believed hold, key life, permit, fault step, node record, extend
// whose effect the nodes show, refusal met by a key the nodes show, orphaned
// key, removing release and multi-node grant. Unnumbered (claim.Number
// numbers a run's claims once the checkers' are added); in a fixed order.
func (a *Account) Claims() []claim.Claim {
	a.derive()
	var cs []claim.Claim
	cs = append(cs, a.faultClaims()...)
	cs = append(cs, a.recordedClaims()...)
	for _, h := range a.Holds {
		c := claim.Claim{Kind: claim.Hold, Client: h.Client, Key: h.Key, Start: h.Start, End: h.End, How: h.Ended,
			Believed: !h.Possible, Token: a.H.Ops[h.Acquire].Value.Token, Fence: h.Fence, TTL: h.TTL, Wait: a.waitOf(h.Acquire),
			Records: []int{h.Acquire}}
		if h.EndOp >= 0 {
			c.Records = append(c.Records, h.EndOp)
		}
		cs = append(cs, c)
	}
	for _, k := range a.keys {
		cs = append(cs, a.keyClaim(k))
	}
	for _, m := range a.members {
		c := claim.Claim{Kind: claim.Permit, Client: m.Owner, Key: m.Key, Node: m.Node, Token: m.Member, Score: m.Score,
			Start: m.Start, End: m.End, How: m.Ended.Kind, By: m.Ended.By, Step: m.Ended.Step, Records: []int{m.Set}}
		if !m.Observed {
			c.What = claim.Inferred
		}
		if m.Ended.Op >= 0 {
			c.Records = append(c.Records, m.Ended.Op)
		}
		cs = append(cs, c)
	}
	cs = append(cs, a.opClaims()...)
	cs = append(cs, a.orphanClaims()...)
	cs = append(cs, a.markClaims()...)
	cs = append(cs, a.ownClaims(cs)...)
	cs = append(cs, a.absentClaims()...)
	return cs
}

// told are the client operations a story line renders.
var told = map[history.Func]bool{history.Acquire: true, history.Probe: true, history.Read: true, history.Write: true,
	history.Release: true, history.Extend: true, history.Lost: true, history.Done: true, history.Stopped: true}

// ownClaims states, as an Op claim, every client operation that none of
// cs covers: an ok acquire without a believed hold, a refused acquire
// without a refusal whose key the nodes show, an acquire of unknown
// outcome the nodes do not show took no lock (Ungranted), an extend without an Extend
// claim, a release without a Release claim, and every read, write, probe,
// lost, done and stopped. Each says only what the operation's own record
// says.
func (a *Account) ownClaims(cs []claim.Claim) []claim.Claim {
	covered := map[int]bool{}
	for _, c := range cs {
		switch {
		case len(c.Records) == 0:
		case c.Kind == claim.Hold && c.Believed, c.Kind == claim.Extend, c.Kind == claim.Refusal, c.Kind == claim.Ungranted, c.Kind == claim.QueueHead, c.Kind == claim.Release:
			covered[c.Records[0]] = true
		}
	}
	var out []claim.Claim
	for i, op := range a.H.Ops {
		if covered[i] || !told[op.F] || op.Process == history.NodeProcess {
			continue
		}
		out = append(out, a.opClaim(i))
	}
	return out
}

// opClaim states what operation i recorded of itself (claim.Op).
func (a *Account) opClaim(i int) claim.Claim {
	op := a.H.Ops[i]
	v := op.Value
	c := claim.Claim{Kind: claim.Op, What: string(op.F), Client: op.Client, Key: op.Key, Start: op.Invoke, End: op.Complete,
		How: string(op.Type), Token: v.Token, Fence: v.Fence, TTL: v.TTL, SeenFence: v.SeenFence, Result: v.Result, Refusal: v.Refusal,
		Removed: v.Removed, Renewal: v.Renewal, Action: v.Action, Records: []int{i}}
	if v.Num != nil {
		n := *v.Num
		c.Num = &n
	}
	c.At = op.Invoke
	if op.F == history.Lost {
		// A client told its lock was lost that went on writing under that
		// lease did not stop: the write is the claim's second record
		// (reader 14: "…was lost and stopped" of a client that charged 1 ms
		// later). One record: it wrote nothing more under it.
		if w := a.wroteAfterLost(i); w >= 0 {
			c.Records = append(c.Records, w)
		}
	}
	if j := a.CutBy(i); j >= 0 {
		c.CutBy = &j // its own release cancelled its wait
	}
	switch {
	case op.Open():
		c.How, c.End = claim.Open, a.end
	case op.Type == history.Info, op.Type == history.OK && (op.F == history.Acquire || op.F == history.Probe),
		op.Type == history.Fail && op.F == history.Acquire && v.Refusal != "":
		// How it ended is what its line tells ("ended in an error", "got
		// no answer"): it is told when it ended (issue 27, a fresh reader:
		// an acquire begun at 0.06 s told at 0.1 s as having ended in an
		// error, which came at 12.35 s). A grant is told when it returned,
		// and a refusal its record gives a reason for when it came (a WAIT
		// that waited 15 s).
		c.At = op.Complete
		if k, ok := a.probeGrant(i); ok {
			// A probe returns after its own release: its grant is when its
			// SET ran (a fresh reader, issue 27: a probe step stamped at
			// its completion), the claim's second record.
			c.At, c.Records = k.Start, append(c.Records, k.Set)
		}
	}
	return c
}

// probeGrant is the key an ok probe i's SET created — its token's, on its
// one node, whose record shows the command (the lock's own key name
// where it has one) — set between the probe's invoke and its completion,
// which comes after the probe's release.
func (a *Account) probeGrant(i int) (KeyLife, bool) {
	op := a.H.Ops[i]
	v := op.Value
	if op.F != history.Probe || op.Type != history.OK || op.Complete < 0 || len(v.Nodes) != 1 || v.Token == "" {
		return KeyLife{}, false
	}
	key := op.Key
	if v.LockKey != "" {
		key = v.LockKey
	}
	for _, j := range a.byKey[nk(v.Nodes[0], key)] {
		k := a.keys[j]
		if k.Observed && k.Value == v.Token && k.Set >= 0 && a.H.Ops[k.Set].F == history.NodeCmd &&
			k.Start == a.H.Ops[k.Set].Invoke && op.Invoke <= k.Start && k.Start <= op.Complete {
			return k, true
		}
	}
	return KeyLife{}, false
}

// keyClaim states one key life.
func (a *Account) keyClaim(k KeyLife) claim.Claim {
	c := claim.Claim{Kind: claim.KeyLife, Client: k.Owner, Key: k.Key, Node: k.Node, Token: k.Value,
		Start: k.Start, End: k.End, How: k.Ended.Kind, By: k.Ended.By, Step: k.Ended.Step, Records: []int{k.Set}}
	if !k.Observed {
		c.What = claim.Inferred
	}
	if k.Ended.Kind == EndExpired && k.Observed && k.Deadline >= 0 && k.Deadline < k.End {
		// The deadline passed while its node was stopped (thawedAt): the
		// key left only when the node resumed.
		c.What, c.At = claim.Thawed, k.Deadline
	}
	if k.ExpiredAsKept() {
		c.What, c.At, c.TTL = claim.Kept, k.Kept.At, k.Kept.TTL
	}
	if k.Ended.Op >= 0 {
		c.Records = append(c.Records, k.Ended.Op)
	}
	if k.Copy != nil {
		// Lost in a failover: the replica that still had it, and its death.
		c.Nodes, c.At, c.Records = []string{k.Copy.Node}, k.Copy.Died, append(c.Records, k.Copy.Op)
	}
	if k.Ended.Kind == EndCrashed {
		c.Persistence = a.H.Header.Persistence[k.Node]
		for _, f := range a.Faults {
			if f.Step.ID == k.Ended.Step && f.Step.PowerLoss {
				c.Fault = &history.FaultStep{ID: f.Step.ID, Kind: f.Step.Kind, Effect: f.Step.Effect, PowerLoss: true}
			}
		}
	}
	return c
}

// faultClaims states every applied fault step with its window.
func (a *Account) faultClaims() []claim.Claim {
	var cs []claim.Claim
	for _, f := range a.Faults {
		st := f.Step
		from, to := f.Active()
		c := claim.Claim{Kind: claim.Fault, What: st.Kind, Step: st.ID, Start: from, End: to, Fault: &st, Records: []int{f.Op}}
		if f.Switch >= 0 {
			// A failover: when Sentinel announced the promotion.
			c.At = a.H.Ops[f.Switch].Invoke
			c.Records = append(c.Records, f.Switch)
		}
		if len(st.Nodes) == 1 {
			c.Node = st.Nodes[0]
			c.Persistence = a.H.Header.Persistence[c.Node]
		}
		a.inFlight(&c, st, from)
		cs = append(cs, c)
	}
	return cs
}

// inFlight states, of a client freeze planned inside a multi-node acquire
// (point in-acquire), which nodes had run that acquire's SET by the
// freeze (c.Start): Client the frozen client, Key the acquire's key,
// Nodes those nodes in the run's node order, Records the acquire and
// their SETs (node-redlock-pause-in-flight: only n1 had, the freeze
// came before the other four ran theirs; a fresh reader, issue 27).
// Nothing when the freeze is elsewhere, no acquire of the client was
// open then, or a node's commands were not recorded through it.
func (a *Account) inFlight(c *claim.Claim, st history.FaultStep, from int64) {
	if st.Effect != history.EffectFreezeClient || st.Trigger.Kind != history.TriggerPoint || st.Trigger.Point != history.PointInAcquire ||
		len(st.Clients) != 1 || len(a.H.Header.Nodes) < 2 || !slices.Contains(a.H.Header.Traits, history.TraitMultiNode) {
		return
	}
	who, acq := st.Clients[0], -1
	for i, op := range a.H.Ops {
		if op.F == history.Acquire && op.Client == who && op.Process >= 0 && op.Invoke <= from && (op.Open() || op.Complete >= from) &&
			(acq < 0 || op.Invoke > a.H.Ops[acq].Invoke) {
			acq = i
		}
	}
	if acq < 0 {
		return
	}
	op := a.H.Ops[acq]
	ran := map[string]int{}
	for _, j := range a.sentIn(who, op.Invoke-grantSlack, from) {
		if e := a.H.Ops[j]; isSetCmd(e.Value.Cmd) {
			if _, ok := ran[e.Value.Node]; !ok {
				ran[e.Value.Node] = j
			}
		}
	}
	var nodes []string
	var sets []int
	for _, n := range a.H.Header.Nodes {
		if !a.Observed[n] || slices.ContainsFunc(a.Gaps[n], func(g [2]int64) bool { return g[0] <= from && op.Invoke <= g[1] }) {
			return // the record cannot say whether n ran it
		}
		if j, ok := ran[n]; ok {
			nodes, sets = append(nodes, n), append(sets, j)
		}
	}
	c.Client, c.Key, c.Nodes = who, op.Key, nodes
	c.Records = append(append(c.Records, acq), sets...)
}

// recordedClaims states, per node of the run, whether its commands were
// recorded, and each window in which they were not.
func (a *Account) recordedClaims() []claim.Claim {
	var cs []claim.Claim
	for _, n := range a.H.Header.Nodes {
		c := claim.Claim{Kind: claim.Recorded, Node: n, What: claim.Unrecorded, End: a.end}
		if a.Observed[n] {
			c.What = claim.RecordedW
		}
		cs = append(cs, c)
	}
	for i, op := range a.H.Ops {
		if op.F == history.Unobserved {
			cs = append(cs, claim.Claim{Kind: claim.Recorded, Node: op.Value.Node, What: claim.Unrecorded,
				Start: op.Invoke, End: a.endOf(op), Records: []int{i}})
		}
	}
	return cs
}

// opClaims states what the clients' extends, refused acquires, acquires
// of unknown outcome, releases and multi-node grants did on the nodes.
func (a *Account) opClaims() []claim.Claim {
	var cs []claim.Claim
	multi := len(a.H.Header.Nodes) > 1
	for i, op := range a.H.Ops {
		if (op.F == history.Acquire || op.F == history.Probe) && op.Type == history.Fail && op.Process >= 0 {
			if c, ok := a.queueHeadClaim(i); ok {
				cs = append(cs, c)
			}
		}
		if op.Process < 0 || op.Client == history.ProbeClient || op.Open() {
			continue
		}
		switch {
		case op.F == history.Extend:
			if c, ok := a.extendClaim(i); ok {
				cs = append(cs, c)
			}
		case op.F == history.Acquire && op.Type == history.Fail:
			if c, ok := a.refusalClaim(i); ok {
				cs = append(cs, c)
			}
		case op.F == history.Acquire && op.Type == history.Info:
			if c, ok := a.ungrantedClaim(i); ok {
				cs = append(cs, c)
			}
		case op.F == history.Acquire && op.Type == history.OK && multi && op.Value.TTL > 0:
			el := op.Complete - op.Invoke
			d := claim.Drift(op.Value.TTL)
			cs = append(cs, claim.Claim{Kind: claim.Acquire, Client: op.Client, Key: op.Key, Start: op.Invoke, End: op.Complete,
				TTL: op.Value.TTL, Elapsed: el, Drift: d, Validity: op.Value.TTL - el - d, Records: []int{i}})
		case op.F == history.Release:
			if kp, ok := a.KeptBy(i); ok && len(a.RemovedBy(i)) == 0 {
				c := claim.Claim{Kind: claim.Release, What: claim.Kept, Client: op.Client, Key: lockKeyOf(&a.H.Ops[i]), Node: kp.Node,
					Token: kp.Value, By: op.Client, Start: op.Invoke, End: op.Complete, At: kp.At, TTL: kp.TTL, Records: []int{i, kp.Cmd}}
				if kp.Rewrote {
					c.What = claim.Rewrote
				}
				cs = append(cs, c)
				continue
			}
			for _, k := range a.RemovedBy(i) {
				if !k.Observed && (k.End < op.Invoke || k.End > op.Complete) {
					continue // inferred: a life that ended outside the release is not what it removed
				}
				c := claim.Claim{Kind: claim.Release, Client: op.Client, Key: k.Key, Node: k.Node, Token: k.Value, By: k.Owner,
					Start: op.Invoke, End: op.Complete, At: k.End, Records: []int{i}}
				if !k.Observed {
					c.What = claim.Inferred
				} else if k.Ended.Op >= 0 {
					c.Records = append(c.Records, k.Ended.Op)
				}
				cs = append(cs, c)
			}
		}
	}
	return cs
}

// extendClaim states whether extend op i moved a key on the nodes: only
// when their record shows it did, or shows every node it names watched
// throughout while it ran and no move of its client.
func (a *Account) extendClaim(i int) (claim.Claim, bool) {
	op := a.H.Ops[i]
	c := claim.Claim{Kind: claim.Extend, Client: op.Client, Key: op.Key, Start: op.Invoke, End: op.Complete, Records: []int{i}}
	if j := a.CutBy(i); j >= 0 {
		c.CutBy = &j // its own release cancelled its wait
	}
	for _, k := range a.MovedOthers(i) {
		// Told beside its own key: the same heartbeat kept another's key
		// alive (reader 7, F4).
		c.Also = append(c.Also, claim.Holder{Node: k.Node, Key: k.Key, By: k.Owner, Token: k.Value, Set: k.Set})
	}
	if ls := a.ExtendedBy(i); len(ls) > 0 {
		k := ls[0]
		c.What, c.Node, c.By, c.Token = claim.Moved, k.Node, k.Owner, k.Value
		end := a.endOf(op)
		for _, m := range k.Moves {
			// When the node ran the command that moved it (its record),
			// not the client's call (a sixth reader, A12).
			if !m.Clock && m.By == op.Client && m.At >= op.Invoke-grantSlack && m.At <= end+grantSlack {
				c.At = m.At
				if m.Op >= 0 && m.Op != i {
					c.Records = append(c.Records, m.Op)
				}
				break
			}
		}
		return c, true
	}
	if ran, known := a.Reached(i); ran && known {
		c.What = claim.Missed
		a.ownReleaseFirst(i, &c)
		return c, true
	}
	return claim.Claim{}, false
}

// refusalClaim states whose key refused acquire op i: a recorded life of
// its key (under the lock's own name for it, refusalKeys) that stood on a
// node throughout the acquire; on a lock of several nodes, every node's
// such key (Holders).
func (a *Account) refusalClaim(i int) (claim.Claim, bool) {
	op := a.H.Ops[i]
	if op.Value.Refusal == history.RefusalLoading {
		// The node refused it unrun while loading its data: no key did,
		// whatever key its dataset brought back (its Op claim tells it).
		return claim.Claim{}, false
	}
	if c, ok := a.grantedRefusal(i); ok {
		return c, true
	}
	if a.RefusedLocally(i) {
		// No key refused it, whatever key stood then: it never reached
		// Redis (reader 15: "w1's key stood on n1" of w2's acquires its
		// process's local lock refused).
		return claim.Claim{Kind: claim.Refusal, What: claim.Local, Client: op.Client, Key: op.Key,
			Start: op.Invoke, End: op.Complete, Records: []int{i}}, true
	}
	for _, key := range a.refusalKeys(i) {
		var c claim.Claim
		for _, n := range a.H.Header.Nodes {
			k, ok := a.stoodThrough(n, key, op)
			if !ok {
				continue
			}
			if c.Kind == "" {
				c = claim.Claim{Kind: claim.Refusal, Client: op.Client, Key: op.Key, Node: n, By: k.Owner, Token: k.Value,
					Start: op.Invoke, End: op.Complete, Records: []int{i, k.Set}}
				if key != op.Key {
					c.NodeKey = key
				}
				if k.Owner == op.Client {
					a.ownRefusal(&c, k)
				}
			}
			c.Holders = append(c.Holders, claim.Holder{Node: n, By: k.Owner, Token: k.Value, Set: k.Set})
		}
		if c.Kind != "" {
			c.Holders = append(c.Holders, a.metHolders(i, key, c.Holders)...)
			a.nameNodes(i, &c)
			return c, true
		}
	}
	if c, ok := a.metRefusal(i); ok {
		return c, true
	}
	return a.inferredRefusal(i)
}

// nameNodes completes refusal c of acquire i on a lock of several nodes:
// its Holders in the run's node order after the first (none when one node
// alone refused it so), and its Silent, the other nodes that gave it no
// answer.
func (a *Account) nameNodes(i int, c *claim.Claim) {
	slices.SortStableFunc(c.Holders[1:], func(x, y claim.Holder) int {
		return cmp.Compare(slices.Index(a.H.Header.Nodes, x.Node), slices.Index(a.H.Header.Nodes, y.Node))
	})
	named := []string{c.Node}
	for _, h := range c.Holders {
		named = append(named, h.Node)
	}
	if len(c.Holders) < 2 {
		c.Holders = nil
	} else {
		c.Won = a.wonIn(i, c.KeyName(), c.Holders)
	}
	c.Silent = a.silentNodes(i, c.KeyName(), named)
}

// silentNodes are the nodes, other than those named, that gave acquire i's
// SET no answer: its client sent each a SET of key inside the acquire that
// got none (a Stalled record of Type Info, the first is the Silent's), got
// no late answer to one (a Stalled record of Type OK), and the node ran no
// more of those SETs than went unanswered (a node that ran the SET and
// answered it is no silent node; one whose replies were cut ran it,
// unanswered). What the node answered after (the unlock of a failed
// acquire, once a partition healed) does not count: the SET is what the
// lock needed from it.
func (a *Account) silentNodes(i int, key string, named []string) []claim.Silent {
	op := a.H.Ops[i]
	if len(a.H.Header.Nodes) < 2 || !slices.Contains(a.H.Header.Traits, history.TraitMultiNode) {
		return nil
	}
	type tally struct{ first, unanswered, late, ran int }
	by := map[string]*tally{}
	for j, cmd := range a.H.Ops {
		c := cmd.Value.Cmd
		if cmd.Process != history.NodeProcess || cmd.Client != op.Client || cmd.Invoke < op.Invoke-grantSlack || cmd.Invoke > op.Complete+grantSlack ||
			cmd.Value.Lua || len(c) < 2 || c[1] != key || !strings.EqualFold(c[0], "set") && !strings.EqualFold(c[0], "setnx") || slices.Contains(named, cmd.Value.Node) {
			continue
		}
		t := by[cmd.Value.Node]
		if t == nil {
			t = &tally{first: -1}
			by[cmd.Value.Node] = t
		}
		switch {
		case cmd.F == history.Stalled && cmd.Type == history.OK:
			t.late++
		case cmd.F == history.Stalled:
			t.unanswered++
			if t.first < 0 {
				t.first = j
			}
		case cmd.F == history.NodeCmd:
			t.ran++
		}
	}
	var out []claim.Silent
	for _, n := range a.H.Header.Nodes {
		if t := by[n]; t != nil && t.first >= 0 && t.late == 0 && t.ran <= t.unanswered {
			out = append(out, claim.Silent{Node: n, Cmd: t.first})
		}
	}
	return out
}

// wonIn are the nodes, none of have's, where a SET of acquire i's client
// created its key while the acquire ran (a Refusal claim's Won).
func (a *Account) wonIn(i int, key string, have []claim.Holder) []claim.Holder {
	op := a.H.Ops[i]
	var out []claim.Holder
	for _, n := range a.H.Header.Nodes {
		if slices.ContainsFunc(have, func(h claim.Holder) bool { return h.Node == n }) {
			continue
		}
		for _, j := range a.byKey[nk(n, key)] {
			k := a.keys[j]
			if k.Observed && k.Owner == op.Client && k.Set >= 0 && a.H.Ops[k.Set].F == history.NodeCmd &&
				op.Invoke-grantSlack <= k.Start && k.Start <= op.Complete+grantSlack {
				out = append(out, claim.Holder{Node: n, By: op.Client, Token: k.Value, Set: k.Set})
				break
			}
		}
	}
	return out
}

// metHolders are the other nodes' keys (not on the nodes of have) that a
// SET NX of acquire i's client met while it ran (a key set there after the
// acquire began: claim.Holder At), each another client's, or its own of
// an earlier acquire.
func (a *Account) metHolders(i int, key string, have []claim.Holder) []claim.Holder {
	op := a.H.Ops[i]
	var out []claim.Holder
	for _, j := range a.sentIn(op.Client, op.Invoke-grantSlack, op.Complete+grantSlack) {
		cmd := a.H.Ops[j]
		set, ok := a.metBy[j]
		if !ok || set < 0 || !isSetCmd(cmd.Value.Cmd) || cmd.Value.Cmd[1] != key {
			continue
		}
		n := cmd.Value.Node
		if slices.ContainsFunc(have, func(h claim.Holder) bool { return h.Node == n }) || slices.ContainsFunc(out, func(h claim.Holder) bool { return h.Node == n }) {
			continue
		}
		p := a.lifeSetBy(n, key, set)
		if p < 0 {
			continue
		}
		k := a.keys[p]
		if !k.Observed || k.Owner == "" || k.Owner == op.Client && k.Value == cmd.Value.Cmd[2] {
			continue // its own SET of this acquire, sent again
		}
		out = append(out, claim.Holder{Node: n, By: k.Owner, Token: k.Value, Set: k.Set, At: cmd.Invoke})
	}
	return out
}

// stoodThrough is the recorded life of key on node, set by a client, that
// stood there throughout op.
func (a *Account) stoodThrough(node, key string, op history.Op) (KeyLife, bool) {
	for _, j := range a.byKey[nk(node, key)] {
		k := a.keys[j]
		if k.Observed && k.Owner != "" && k.Start < op.Invoke && k.End > op.Complete {
			return k, true
		}
	}
	return KeyLife{}, false
}

// refusalKeys are the names acquire op i's key may have on the nodes: its
// own key first, then each name a lock library stores it under — the lock
// key an acquire record of the same key gave (LockKeysOf), and the key of
// each SET the client's acquire sent to a node (a refused acquire's record
// names no lock key of its own; its recorded commands do).
func (a *Account) refusalKeys(i int) []string {
	op := a.H.Ops[i]
	keys := slices.Clone(a.LockKeysOf(op.Key))
	if !slices.Contains(keys, op.Key) {
		keys = append([]string{op.Key}, keys...)
	}
	for _, j := range a.sentIn(op.Client, op.Invoke-grantSlack, op.Complete+grantSlack) {
		if cmd := a.H.Ops[j]; isSetCmd(cmd.Value.Cmd) && !slices.Contains(keys, cmd.Value.Cmd[1]) {
			keys = append(keys, cmd.Value.Cmd[1])
		}
	}
	return keys
}

// isSetCmd reports whether a node command is a SET (or SETNX) of a key.
func isSetCmd(cmd []string) bool {
	return len(cmd) > 2 && (strings.EqualFold(cmd[0], "set") || strings.EqualFold(cmd[0], "setnx"))
}

// grantedRefusal states an acquire refused by the lock itself, not by a
// key (claim.Granted): its own SETs created its key on a quorum of the
// nodes (or on any, when its record names why it was refused), and its
// record's refusal or its length past the key's TTL says why.
func (a *Account) grantedRefusal(i int) (claim.Claim, bool) {
	op := a.H.Ops[i]
	c := claim.Claim{Kind: claim.Refusal, What: claim.Granted, Client: op.Client, Key: op.Key, By: op.Client,
		Start: op.Invoke, End: op.Complete, How: op.Value.Refusal, Records: []int{i}}
	for _, n := range a.H.Header.Nodes {
		for _, j := range a.byKey[nk(n, op.Key)] {
			k := a.keys[j]
			if k.Observed && k.Owner == op.Client && k.Set >= 0 && a.H.Ops[k.Set].F == history.NodeCmd &&
				op.Invoke-grantSlack <= k.Start && k.Start <= op.Complete+grantSlack && !a.metIn(i, n) {
				c.Nodes, c.Records = append(c.Nodes, n), append(c.Records, k.Set)
				break
			}
		}
	}
	if len(c.Nodes) == 0 || c.How == "" && len(c.Nodes) < a.Quorum() {
		return claim.Claim{}, false
	}
	c.Node = c.Nodes[0]
	if ttl := op.Value.TTL; (c.How == "" || c.How == claim.Validity) && ttl > 0 && op.Complete-op.Invoke >= ttl-claim.Drift(ttl) {
		c.How, c.TTL, c.Elapsed, c.Drift = claim.Validity, ttl, op.Complete-op.Invoke, claim.Drift(ttl)
		c.Validity = ttl - c.Elapsed - c.Drift
	}
	return c, true
}

// metRefusal states whose key a SET NX of acquire i found on a node
// (claim.Met) when no key stood through the whole acquire: a SET sent late,
// or run when its stopped node woke.
func (a *Account) metRefusal(i int) (claim.Claim, bool) {
	op := a.H.Ops[i]
	for j, cmd := range a.H.Ops { // in the history's order, the first SET NX that met a key
		set, ok := a.metBy[j]
		if !ok || cmd.Client != op.Client || cmd.Invoke < op.Invoke-grantSlack || cmd.Invoke > op.Complete+grantSlack || set < 0 {
			continue
		}
		p := a.lifeSetBy(cmd.Value.Node, op.Key, set)
		if p < 0 && isSetCmd(cmd.Value.Cmd) && slices.Contains(a.refusalKeys(i), cmd.Value.Cmd[1]) {
			p = a.lifeSetBy(cmd.Value.Node, cmd.Value.Cmd[1], set) // the lock's own name for the key
		}
		if p < 0 {
			continue
		}
		k := a.keys[p]
		if !k.Observed || k.Owner == "" || k.Owner == op.Client && len(cmd.Value.Cmd) > 2 && k.Value == cmd.Value.Cmd[2] {
			continue // its own SET of this acquire, sent again
		}
		c := claim.Claim{Kind: claim.Refusal, What: claim.Met, Client: op.Client, Key: op.Key, Node: k.Node, By: k.Owner, Token: k.Value,
			Start: op.Invoke, End: op.Complete, At: cmd.Invoke, Records: []int{i, k.Set}}
		if k.Key != op.Key {
			c.NodeKey = k.Key
		}
		if k.Owner == op.Client {
			a.ownRefusal(&c, k)
		}
		c.Holders = append([]claim.Holder{{Node: k.Node, By: k.Owner, Token: k.Value, Set: k.Set, At: cmd.Invoke}},
			a.metHolders(i, k.Key, []claim.Holder{{Node: k.Node}})...)
		a.nameNodes(i, &c)
		return c, true
	}
	return claim.Claim{}, false
}

// metIn reports whether a SET NX of acquire i's client found a key on
// node while i ran: that node did not grant it.
func (a *Account) metIn(i int, node string) bool {
	op := a.H.Ops[i]
	for j := range a.metBy {
		cmd := a.H.Ops[j]
		if cmd.Client == op.Client && cmd.Value.Node == node && op.Invoke-grantSlack <= cmd.Invoke && cmd.Invoke <= op.Complete+grantSlack {
			return true
		}
	}
	return false
}

// ownRefusal tells how refusal c met its own client's key k (issue 27, a
// fresh reader: a restarted client was told as refused by "its own key: an
// earlier acquire of it had set the key, though it never got the reply",
// while that acquire had been granted and the process holding it killed):
// an orphan (Own) when the acquire that set it never got an ok reply; else
// restarted when a restart killed the client's process between the key's
// SET and the refused acquire. Neither: the client met a lease it was
// granted (its record names no cause of its own).
func (a *Account) ownRefusal(c *claim.Claim, k KeyLife) {
	j := a.setBy(k)
	if j < 0 || j == c.Records[0] {
		j = a.lateSetBy(k, c.Start) // a SET that ran after its acquire gave up (its node stopped, then woken)
	}
	if j >= 0 && a.H.Ops[j].Type != history.OK {
		c.Own, c.Records = true, append(c.Records, j)
		return
	}
	for j, f := range a.H.Ops {
		st := f.Value.Fault
		if f.F == history.Fault && st != nil && f.Type != history.Fail && st.Effect == history.EffectRestartClient &&
			slices.Contains(st.Clients, c.Client) && k.Start < f.Invoke && f.Invoke <= c.Start {
			c.How, c.Records = claim.Restarted, append(c.Records, j)
			return
		}
	}
}

// lateSetBy is the last acquire of k's owner on its key, answered info
// (outcome unknown), invoked before k was set and before `before`: the one
// whose SET, held up, ran late. -1 when none.
func (a *Account) lateSetBy(k KeyLife, before int64) int {
	j := -1
	for i, op := range a.H.Ops {
		if op.F == history.Acquire && op.Process >= 0 && op.Client == k.Owner && op.Key == k.Key && op.Type == history.Info &&
			op.Invoke < k.Start && op.Invoke < before && (j < 0 || op.Invoke > a.H.Ops[j].Invoke) {
			j = i
		}
	}
	return j
}

// setBy is the history index of the acquire of k's owner whose command
// set k (its SET ran within the acquire), -1 when none did.
func (a *Account) setBy(k KeyLife) int {
	if k.Set < 0 || a.H.Ops[k.Set].F != history.NodeCmd {
		return -1
	}
	for j, op := range a.H.Ops {
		if op.F == history.Acquire && op.Process >= 0 && op.Client == k.Owner && op.Key == k.Key &&
			op.Invoke-grantSlack <= k.Start && k.Start <= a.endOf(op)+grantSlack {
			return j
		}
	}
	return -1
}

// orphanClaims states every recorded key a client's command set while
// its acquire did not succeed: the client never believed it held it.
func (a *Account) orphanClaims() []claim.Claim {
	acq := map[string][]int{} // client → its acquires, by invoke
	for i, op := range a.H.Ops {
		if op.F == history.Acquire && op.Process >= 0 {
			acq[op.Client] = append(acq[op.Client], i)
		}
	}
	for _, v := range acq {
		slices.SortStableFunc(v, func(x, y int) int { return cmp.Compare(a.H.Ops[x].Invoke, a.H.Ops[y].Invoke) })
	}
	var cs []claim.Claim
	for _, k := range a.keys {
		if !k.Observed || k.Owner == "" || k.Set < 0 || a.H.Ops[k.Set].F != history.NodeCmd {
			continue // an orphan is its SET: not a key a node's dump showed
		}
		for _, j := range acq[k.Owner] {
			op := a.H.Ops[j]
			if op.Invoke-grantSlack > k.Start {
				break
			}
			if k.Start <= a.endOf(op)+grantSlack && op.Type != history.OK && op.Key == k.Key {
				cs = append(cs, claim.Claim{Kind: claim.Orphan, Client: k.Owner, Key: k.Key, Node: k.Node, Token: k.Value,
					Start: k.Start, End: k.End, How: k.Ended.Kind, Records: []int{k.Set, j}})
				break
			}
		}
	}
	return cs
}

// absentClaims states what the run did not have that a remedy rests on
// (claim.Absent): no client pause, no write refused for its fencing token
// (of a fenced lock whose resource enforces it), no purge of a recorded sorted set's
// members, and, per node, no crash that lost writes (CrashLoses).
func (a *Account) absentClaims() []claim.Claim {
	var cs []claim.Claim
	paused := slices.ContainsFunc(a.Faults, func(f FaultWindow) bool { return f.Step.Effect == history.EffectFreezeClient }) ||
		slices.ContainsFunc(a.H.Header.Plan, func(st history.FaultStep) bool { return st.Effect == history.EffectFreezeClient })
	if !paused {
		cs = append(cs, claim.Claim{Kind: claim.Absent, What: claim.NoPause, End: a.end})
	}
	refused := slices.ContainsFunc(a.H.Ops, func(op history.Op) bool {
		return op.F == history.Write && op.Value.Refusal == history.RefusalStaleFence
	})
	if a.H.Header.LockFences() && a.H.Header.FencingEnforced && !refused {
		cs = append(cs, claim.Claim{Kind: claim.Absent, What: claim.NoFenceRefusal, End: a.end})
	}
	var sets []MemberLife // the first member of each recorded sorted set
	purged := map[string]bool{}
	for _, m := range a.members {
		if !m.Observed {
			continue
		}
		if !slices.ContainsFunc(sets, func(o MemberLife) bool { return o.Node == m.Node && o.Key == m.Key }) {
			sets = append(sets, m)
		}
		// A member another client's command removed (a range, its ZREM
		// or DEL of the set, a flush) was purged from its holder.
		if m.Ended.Kind == EndPurged || m.Ended.Kind == EndDeleted || m.Ended.Kind == EndFlushed {
			purged[nk(m.Node, m.Key)] = true
		}
	}
	for _, m := range sets {
		if !purged[nk(m.Node, m.Key)] {
			cs = append(cs, claim.Claim{Kind: claim.Absent, What: claim.NoPurge, Node: m.Node, Key: m.Key, End: a.end})
		}
	}
	fos := a.failovers()
	for _, n := range a.H.Header.Nodes {
		// A failover that lost part of the stream is a crash of the
		// master that lost its writes, whatever its persistence.
		if slices.ContainsFunc(fos[n], func(fo failover) bool { return fo.Lost }) {
			continue
		}
		if !slices.ContainsFunc(a.Faults, func(f FaultWindow) bool {
			return f.Step.Effect == history.EffectCrashNode && slices.Contains(f.Step.Nodes, n) && a.CrashLoses(f.Step, n)
		}) {
			cs = append(cs, claim.Claim{Kind: claim.Absent, What: claim.NoCrashLoss, Node: n, Persistence: a.H.Header.Persistence[n], End: a.end})
		}
	}
	return cs
}

// waitOf is the replicas the WAIT command its client sent during
// acquire i asked for (WAIT numreplicas timeout), 0 when it sent none.
func (a *Account) waitOf(i int) int {
	acq := a.H.Ops[i]
	for _, j := range a.sentIn(acq.Client, acq.Invoke, acq.Complete) {
		op := a.H.Ops[j]
		if op.Process != history.NodeProcess || len(op.Value.Cmd) < 2 || !strings.EqualFold(op.Value.Cmd[0], "wait") {
			continue
		}
		if n, err := strconv.Atoi(op.Value.Cmd[1]); err == nil {
			return n
		}
	}
	return 0
}

// indexSent indexes each client's node events (sentBy), once.
func (a *Account) indexSent() {
	a.sentIndex.Do(func() {
		a.sentBy = map[string][]int{}
		for i, o := range a.H.Ops {
			switch o.F {
			case history.NodeCmd:
				a.sentBy[o.Client] = append(a.sentBy[o.Client], i)
			case history.Stalled:
				if a.stalledBy == nil {
					a.stalledBy = map[string][]int{}
				}
				a.stalledBy[o.Client] = append(a.stalledBy[o.Client], i)
			}
		}
		for _, v := range a.sentBy {
			slices.SortStableFunc(v, func(x, y int) int { return cmp.Compare(a.H.Ops[x].Invoke, a.H.Ops[y].Invoke) })
		}
	})
}

// sentIn is client's node events (history indices) invoked within
// [from, to], by node time.
func (a *Account) sentIn(client string, from, to int64) []int {
	a.indexSent()
	evs := a.sentBy[client]
	lo, _ := slices.BinarySearchFunc(evs, from, func(i int, t int64) int { return cmp.Compare(a.H.Ops[i].Invoke, t) })
	hi := lo
	for hi < len(evs) && a.H.Ops[evs[hi]].Invoke <= to {
		hi++
	}
	return evs[lo:hi]
}
