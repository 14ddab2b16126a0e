package verify

import (
	"slices"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// ungranted: the record is Client's acquire of Key over [Start, End],
// answered info; Records[1:] are SETs of Client's, one per node of Nodes,
// run inside it, that created Client's key with Token there, fewer than a
// majority of the run's nodes; every other node of the run is named once,
// as a holder whose key met its SET NX (as a refusal's), a silent node (as
// a refusal's, recorded through the acquire and running no SET of Token
// ever after), or a node a crash-node step had dead, by its recorded
// death and restart, throughout [Start, End], or dead when it began and
// back inside it without its key (Back: backWithout); Removed: each key
// left its node by a command of Client's by End.
func (v *verifier) ungranted(c claim.Claim) outcome {
	a, ok := v.rec(c, 0)
	if !ok || a.F != history.Acquire || a.Type != history.Info || a.Client != c.Client || a.Key != c.Key || a.Invoke != c.Start || a.Complete != c.End || c.At != c.End {
		return refuse(c.Records, "record %v is not %s's acquire of %s answered info over [%d, %d], told at its end", c.Records, c.Client, c.Key, c.Start, c.End)
	}
	nodes := v.h.Header.Nodes
	if len(c.Nodes) == 0 || len(c.Nodes) >= len(nodes)/2+1 || len(c.Records) != len(c.Nodes)+1 {
		return refuse(c.Records, "%d nodes granted it, of %d, with %d SETs named: not a grant short of a majority", len(c.Nodes), len(nodes), len(c.Records)-1)
	}
	var named []string
	for _, h := range c.Holders {
		named = append(named, h.Node)
	}
	for _, s := range c.Silent {
		named = append(named, s.Node)
	}
	named = append(append(named, c.Nodes...), c.Down...)
	for _, b := range c.Back {
		named = append(named, b.Node)
	}
	for _, n := range nodes {
		if k := countOf(named, n); k != 1 {
			return refuse(c.Records, "%s is named %d times among the nodes of the acquire", n, k)
		}
	}
	if len(named) != len(nodes) {
		return refuse(c.Records, "it names %d nodes; the run has %d", len(named), len(nodes))
	}
	for j, n := range c.Nodes {
		if o := v.grantedBy(c, n, c.Records[j+1]); o.reason != "" || o.skip != "" {
			return o
		}
	}
	for _, h := range c.Holders {
		if o := v.stoodThrough(c, h); o.reason != "" || o.skip != "" {
			return o
		}
	}
	if o := v.silent(c, c.Holders); o.reason != "" {
		return o
	}
	for _, s := range c.Silent {
		if !v.watched(s.Node, c.Start, v.m.end) {
			return skip("ungranted acquire on a node not recorded")
		}
		for j, op := range v.h.Ops {
			if op.F == history.NodeCmd && op.Value.Node == s.Node && setsKey(op, c.Key) && len(op.Value.Cmd) > 2 && op.Value.Cmd[2] == c.Token {
				return refuse([]int{j}, "%s ran a SET of %s's token %s: it did not stay without it", s.Node, c.Client, c.Token)
			}
		}
	}
	for _, n := range c.Down {
		if !v.deadThrough(n, c.Start, c.End) {
			return refuse(c.Records, "no crash-node step recorded %s dead through [%d, %d]", n, c.Start, c.End)
		}
	}
	for _, b := range c.Back {
		if o := v.backWithout(c, b); o.reason != "" || o.skip != "" {
			return o
		}
	}
	return held
}

// backWithout: b.Node was dead when the acquire began, by a crash-node
// step's recorded death that ended at b.At, inside the acquire; b.Held is
// its dump after that restart, which shows no key of c's token; and no
// command of b.Node recorded from the dump on is a SET of c's key with
// c's token.
func (v *verifier) backWithout(c claim.Claim, b claim.Back) outcome {
	if !slices.ContainsFunc(v.h.Ops, func(op history.Op) bool {
		st := op.Value.Fault
		return op.F == history.Fault && op.Type != history.Fail && st != nil && st.Effect == history.EffectCrashNode &&
			slices.Contains(st.Nodes, b.Node) && op.Value.DeadFrom > 0 && op.Value.DeadFrom <= c.Start && c.Start <= op.Value.DeadTo &&
			op.Value.DeadTo == b.At && b.At < c.End
	}) {
		return refuse(c.Records, "no crash-node step recorded %s dead from before %d to %d, inside the acquire", b.Node, c.Start, b.At)
	}
	if b.Held < 0 || b.Held >= len(v.h.Ops) {
		return refuse(c.Records, "no dump record %d of %s", b.Held, b.Node)
	}
	d := v.h.Ops[b.Held]
	if d.F != history.NodeHeld || d.Value.Node != b.Node || d.Invoke < b.At {
		return refuse([]int{b.Held}, "record %d is not %s's dump after its restart at %d", b.Held, b.Node, b.At)
	}
	for _, k := range d.Value.Held {
		if k.Key == c.Key && k.Value == c.Token {
			return refuse([]int{b.Held}, "%s came back holding %s's key %s", b.Node, c.Client, c.Token)
		}
	}
	if !v.watched(b.Node, d.Invoke+slack, v.m.end) {
		return skip("ungranted acquire on a node not recorded after its restart")
	}
	for j, op := range v.h.Ops {
		if op.F == history.NodeCmd && op.Value.Node == b.Node && setsKey(op, c.Key) && len(op.Value.Cmd) > 2 && op.Value.Cmd[2] == c.Token {
			return refuse([]int{j}, "%s ran a SET of %s's token %s: it did not stay without it", b.Node, c.Client, c.Token)
		}
	}
	return outcome{}
}

// grantedBy: record set is a SET of Client's on node, inside the acquire,
// that created Client's key with Token there; with Removed, a command of
// Client's removed that key by End.
func (v *verifier) grantedBy(c claim.Claim, node string, set int) outcome {
	if set < 0 || set >= len(v.h.Ops) {
		return refuse(c.Records, "no record %d", set)
	}
	if !v.watched(node, c.Start, c.End) {
		return skip("ungranted acquire on a node not recorded")
	}
	if v.unsureAt(set) {
		return skip("SET at its key's deadline")
	}
	op, l := v.h.Ops[set], v.m.lifeOf(set)
	if op.F != history.NodeCmd || op.Client != c.Client || op.Value.Node != node || op.Invoke < c.Start-slack || op.Invoke > c.End+slack ||
		l == nil || l.node != node || l.key != c.Key || l.value != c.Token || l.owner != c.Client {
		return refuse([]int{set}, "record %d created no key %s of %s's with %s on %s inside the acquire", set, c.Key, c.Client, c.Token, node)
	}
	if c.Removed && (l.how != "removed" || l.by != c.Client || l.end > c.End+slack) {
		return refuse([]int{set}, "%s's key on %s left it at %d (%s by %q), not removed by %s by %d", c.Client, node, l.end, l.how, l.by, c.Client, c.End)
	}
	return held
}

// deadThrough reports whether a crash-node step that recorded when its
// nodes were down (dead_from before dead_to) had node dead over [from, to].
func (v *verifier) deadThrough(node string, from, to int64) bool {
	return slices.ContainsFunc(v.h.Ops, func(op history.Op) bool {
		st := op.Value.Fault
		return op.F == history.Fault && op.Type != history.Fail && st != nil && st.Effect == history.EffectCrashNode &&
			slices.Contains(st.Nodes, node) && op.Value.DeadFrom > 0 && op.Value.DeadTo > op.Value.DeadFrom &&
			op.Value.DeadFrom <= from && to <= op.Value.DeadTo
	})
}

func countOf(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}
