package report

import (
	"strings"

	"github.com/locksim/locksim/internal/claim"
)

// ungranted is the line of an acquire of unknown outcome that took no
// lock, from its Ungranted claim c (a sixth reader, A9): the nodes that
// granted it, short of the quorum; what each other node did (held
// another's key, never ran its SET, was down, or came back inside it
// without its key); that its client removed
// its keys; and that the client itself recorded the outcome as unknown.
func (n *narrator) ungranted(c claim.Claim) string {
	lang, m := n.lang, n.m
	var parts strings.Builder
	var owners []string
	byOwner := map[string][]string{}
	for _, h := range c.Holders {
		if byOwner[h.By] == nil {
			owners = append(owners, h.By)
		}
		byOwner[h.By] = append(byOwner[h.By], h.Node)
	}
	for _, o := range owners {
		parts.WriteString(tr(lang, "n.ungranted.held", joinAnd(lang, byOwner[o]), o))
	}
	if len(c.Silent) > 0 {
		var ns []string
		for _, s := range c.Silent {
			ns = append(ns, s.Node)
		}
		parts.WriteString(tr(lang, "n.ungranted.silent", joinAnd(lang, ns)))
	}
	switch len(c.Down) {
	case 0:
	case 1:
		parts.WriteString(tr(lang, "n.ungranted.down.one", c.Down[0]))
	default:
		parts.WriteString(tr(lang, "n.ungranted.down", joinAnd(lang, c.Down)))
	}
	for _, b := range c.Back {
		parts.WriteString(tr(lang, "n.ungranted.back", b.Node, instant(m.sec(b.At)), c.Client))
	}
	if c.Removed {
		key := "n.ungranted.removed"
		if len(c.Nodes) == 1 {
			key = "n.ungranted.removed.one"
		}
		parts.WriteString(tr(lang, key, c.Client, joinAnd(lang, c.Nodes)))
	}
	return tr(lang, "n.acquire.ungranted", c.Client, c.Key, joinAnd(lang, c.Nodes), len(c.Nodes), len(m.nodes), m.a.Quorum(), parts.String())
}
