package report

import (
	"cmp"
	"slices"
	"sort"
	"time"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// refusedByLock is the line of an acquire the lock itself refused, with
// no key of anyone's in the way (reader 2: "refused (someone else held
// it)" of an acquire whose validity ran out, or whose WAIT got too few
// replicas): told from its Refusal claim Granted, or from its own record's
// refusal.
func (n *narrator) refusedByLock(c claim.Claim) (string, bool) { return n.m.refusedByLock(n.lang, c) }

// refusedByLock is the narrator's line of an acquire refused by the lock
// itself (see narrator.refusedByLock), in lang.
func (m *model) refusedByLock(lang Lang, c claim.Claim) (string, bool) {
	switch {
	case c.Kind == claim.Refusal && c.What == claim.Granted:
		nodes := joinAnd(lang, c.Nodes)
		switch c.How {
		case claim.Validity:
			return tr(lang, "n.refused.granted.validity", c.Client, c.Key, nodes, m.sdur(c.Elapsed).Round(100*time.Millisecond), m.sdur(c.TTL)), true
		case history.RefusalNotReplicated:
			return tr(lang, "n.refused.granted.not-replicated", c.Client, c.Key, nodes), true
		}
		return tr(lang, "n.refused.granted", c.Client, c.Key, nodes, len(c.Nodes), len(m.nodes)), true
	case c.Kind == claim.Op && c.Refusal == history.RefusalNotReplicated:
		return tr(lang, "n.refused.not-replicated", c.Client, c.Key), true
	case c.Kind == claim.Op && c.Refusal == history.RefusalLoading:
		// A definite refusal: the node ran nothing (not "no definite answer").
		return tr(lang, "n.refused.loading", c.Client, c.Key), true
	}
	return "", false
}

// refusedOn is the message (n.tries.by, or n.tries.by.as when the lock
// keeps the key under a name of its own) and its holder, nodes and key
// name of a refusal by the key claim c names: on a lock of several nodes,
// every node whose key refused it, grouped by whose key it was ("w1's key
// stood on n1, n2 and n3", "… on n1 and n2, w3's on n4"), as its Holders
// say, then the nodes that gave its SET no answer, as its Silent says
// ("…; n4 and n5 did not answer w2's SET").
func (m *model) refusedOn(lang Lang, c claim.Claim) (msg, by, nodes, as string) {
	msg, by, nodes = "n.tries.by", c.By, c.Node
	if c.NodeKey != "" {
		msg, as = "n.tries.by.as", c.NodeKey
	}
	defer func() {
		if len(c.Silent) > 0 {
			var silent []string
			for _, s := range c.Silent {
				silent = append(silent, s.Node)
			}
			nodes += tr(lang, "n.tries.by.silent", joinAnd(lang, silent), c.Client)
		}
	}()
	if len(c.Holders) == 0 {
		return msg, by, nodes, as
	}
	var whose []string
	on := map[string][]string{}
	for _, h := range c.Holders {
		if _, ok := on[h.By]; !ok {
			whose = append(whose, h.By)
		}
		on[h.By] = append(on[h.By], h.Node)
	}
	for _, ns := range on { // in the run's node order (a met key's first is the first its SET met)
		slices.SortStableFunc(ns, func(x, y string) int { return cmp.Compare(slices.Index(m.nodes, x), slices.Index(m.nodes, y)) })
	}
	nodes = joinAnd(lang, on[whose[0]])
	for _, w := range whose[1:] {
		nodes += tr(lang, "n.tries.by.more", w, joinAnd(lang, on[w]))
	}
	return msg, whose[0], nodes, as
}

// wonText is where refusal c's own SET took the lock's key, short of a
// quorum ("; its own SET took only n1 (1 of 5)"), to follow the nodes of
// one attempt's line; "" when it took none (reader 4, finding 16: a
// refusal that left out n1, which the client briefly held).
func (m *model) wonText(lang Lang, c claim.Claim) string {
	if len(c.Won) == 0 {
		return ""
	}
	var won []string
	for _, w := range c.Won {
		won = append(won, w.Node)
	}
	return tr(lang, "n.tries.by.won", joinAnd(lang, won), len(won), len(m.nodes))
}

// refusalText says in lang why the resource refused a write, from its
// reason code (history Refusal*); a refusal without a code gives the
// client library's error text.
func refusalText(lang Lang, o history.Op) string {
	switch o.Value.Refusal {
	case history.RefusalStaleFence:
		return tr(lang, "refusal.stale-fence", o.Value.Fence, o.Value.SeenFence)
	case history.RefusalDuplicateKey:
		return tr(lang, "refusal.duplicate-key", o.Key)
	case history.RefusalLockChanged:
		return tr(lang, "refusal.lock-changed", o.Key)
	case history.RefusalOutOfStock:
		return tr(lang, "refusal.out-of-stock")
	case history.RefusalLockMismatch:
		return tr(lang, "refusal.lock-mismatch", o.Key)
	case "":
		if o.Error != "" {
			return o.Error
		}
		return tr(lang, "refusal.unknown")
	}
	if _, ok := messages[English]["refusal."+o.Value.Refusal]; ok {
		return tr(lang, "refusal."+o.Value.Refusal, o.Key) // a workload's own refusal
	}
	return o.Value.Refusal
}

// infoKey is the message of an unknown outcome, fitted to how the
// operation failed (history.Failure): only a timeout "got no answer".
func infoKey(base string, o history.Op) string {
	switch o.Failure {
	case history.FailTimeout:
		return base
	case history.FailRefused, history.FailReset:
		return base + "." + string(o.Failure)
	default:
		return base + ".error"
	}
}

// tries is a run of refused acquire attempts of one client on one key,
// told as one step.
type tries struct {
	n           int
	first, last int64
	msg         string // refusalKey of the run's attempts
	claim       string // the claim of the run's first attempt
	// by and node: whose key the nodes show refused every attempt of the
	// run, and where (its refusal claims' By and Node); "" when not known.
	by, node string
	// as: the lock's own name for the key on the nodes, when it has one
	// (the refusal claims' NodeKey).
	as string
	// fire: the cron fire time the attempts were for (0: none); a run
	// of tries spans one.
	fire int
	// won: where the first attempt's own SET took the key (wonText),
	// told when the run is that one attempt.
	won string
	// holders: the grants whose keys refused the first attempt
	// (holders), whose grant steps the run's step must follow.
	holders []holder
}

// holder is one grant whose key a refusal names: its client, key and
// owner token.
type holder struct{ client, key, token string }

// holders are the grants whose keys the refusal claim c names (its By and
// Token, and each of its Holders).
func holders(c claim.Claim) []holder {
	var out []holder
	if c.By != "" && c.Token != "" {
		out = append(out, holder{c.By, c.Key, c.Token})
	}
	for _, h := range c.Holders {
		k := h.Key
		if k == "" {
			k = c.Key
		}
		if h.By != "" && h.Token != "" && !slices.Contains(out, holder{h.By, k, h.Token}) {
			out = append(out, holder{h.By, k, h.Token})
		}
	}
	return out
}

// steps is the told steps in time order (at one instant: heals, then
// faults and key ends, then operations, then anomalies; then as told).
func (n *narrator) steps() []Step {
	raw := n.raw
	// A refusal whose first attempt met a key at the instant its holder's
	// grant is told, but before it (the holder's reply came after its SET
	// ran), is told just after that grant: "w3 … refused every time: w2's
	// key stood on n1" must not come before "w2 acquired the lock"
	// (reader9, finding B). Its time stays its own; a grant told at a later
	// instant is left where the times put it.
	for i := range raw {
		for _, h := range raw[i].after {
			if g, ok := n.grantAt[h]; ok && g >= raw[i].ns && instantIn(English, n.m.sec(g)) == instantIn(English, raw[i].T) {
				raw[i].ns, raw[i].late = g, true
			}
		}
	}
	sort.SliceStable(raw, func(a, b int) bool {
		x, y := raw[a], raw[b]
		if x.ns != y.ns {
			return x.ns < y.ns
		}
		if x.prio != y.prio {
			return x.prio < y.prio
		}
		if x.late != y.late {
			return y.late
		}
		return x.seq < y.seq
	})
	out := make([]Step, len(raw))
	for i, r := range raw {
		out[i] = r.Step
	}
	return out
}

// toldAt is when an operation's own line (an Op claim) is told: the
// instant its claim gives (At: its completion when it is told by how it
// ended, an error or no answer; else its invoke). A refusal its SETs met
// on several nodes is told when the last of them met its key (Holders'
// At): the line names every one, and a key met later (set after a
// partition healed) did not stand when the first was met (reader 12,
// redlock-majority-partition: "t=20.3s … refused: … w2's on n4 and n5",
// keys set at 20.8 s and 20.9 s, after the heal; issue 27, class 12).
func (n *narrator) toldAt(c claim.Claim) int64 {
	switch {
	case c.Kind == claim.Op && c.At > 0, c.Kind == claim.Ungranted:
		return c.At
	case c.Kind == claim.Refusal && c.What == claim.Granted:
		return c.End // refused by the lock when the acquire ended, however long it ran
	case c.Kind == claim.Refusal:
		return refusedAt(c, c.Start)
	}
	return c.Start
}

// refusedAt is when refusal claim c (not Granted) is told, by the story
// and the timeline's tip alike: when its SET met the key (Met, At), else
// from (its invoke), and never before the last of its Holders' keys met
// later (Holder.At): the line names them all.
func refusedAt(c claim.Claim, from int64) int64 {
	at := from
	if c.What == claim.Met && c.At > 0 {
		at = c.At
	}
	for _, h := range c.Holders {
		at = max(at, h.At)
	}
	return at
}

// grantedAt is when the story tells ok operation o, whose claim is c: the
// grant's return (an operation ends there), a believed hold's start, or,
// for a probe told at its SET (claim.Op's second record), that SET — the
// probe returned only after its own release.
func grantedAt(c claim.Claim, o history.Op) int64 {
	switch {
	case c.Kind == claim.Hold:
		return c.Start
	case c.Kind == claim.Op && o.F == history.Probe && len(c.Records) > 1:
		return c.At
	}
	return c.End
}
