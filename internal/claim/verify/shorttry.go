package verify

import (
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// shortTry: of an exposure claim with a short try (Short), every other
// client's acquire of Key answered (refused, or granted by End) that
// reached a node in the window could not have been granted there: one its
// own guard gave up (a lease's validity, too few replicas) asked the lock
// nothing; any other found fewer than a grant needs of the nodes free of
// the lock's key (freeNodes) when its commands reached them. Short itself
// is one of them, invoked at At, and found Met free of Need (or gave up
// for GaveUp; or, of a lock on one node, met KeyOwner's key there), or,
// with Granted, was granted then, after End, invoked by it. Where
// the record cannot tell (a node not recorded, a key's deadline or start
// within slack of a command, a node down, a script the lock refused on a
// free node: ScriptRefused), the claim is not checkable.
func (v *verifier) shortTry(c claim.Claim) outcome {
	s := c.Short
	if s == nil {
		return held
	}
	if s.Op < 0 || s.Op >= len(v.h.Ops) {
		return refuse(c.Records, "the short try's record %d is not in the history", s.Op)
	}
	a := v.h.Ops[s.Op]
	if a.F != history.Acquire || a.Key != c.Key || a.Client != s.Client || a.Client == c.Client || a.Invoke != s.At || a.Process < 0 {
		return refuse([]int{s.Op}, "record %d is not an acquire of %s by %s, another client than %s, invoked at %d", s.Op, c.Key, s.Client, c.Client, s.At)
	}
	if a.Invoke > c.End || v.end(a) < c.Start {
		return refuse([]int{s.Op}, "%s's acquire [%d, %d] does not overlap the window [%d, %d]", s.Client, a.Invoke, v.end(a), c.Start, c.End)
	}
	if s.Granted != 0 {
		// In flight in the window, granted after it: its client held
		// nothing there.
		if a.Type != history.OK || v.end(a) != s.Granted || s.Granted <= c.End || s.Met != 0 || s.Need != 0 || s.GaveUp != "" {
			return refuse([]int{s.Op}, "%s's acquire was answered %s at %d, not granted at %d, after the window's end %d", s.Client, a.Type, v.end(a), s.Granted, c.End)
		}
	}
	if s.GaveUp != "" && (a.Type != history.Fail || a.Value.Refusal != s.GaveUp) {
		return refuse([]int{s.Op}, "%s's acquire was answered %s (%s), not refused by its own guard (%s)", s.Client, a.Type, a.Value.Refusal, s.GaveUp)
	}
	need := 1
	if slices.Contains(v.h.Header.Traits, history.TraitMultiNode) {
		need = len(v.h.Header.Nodes)/2 + 1
	}
	if s.GaveUp == "" && s.Granted == 0 && s.Need != need {
		return refuse([]int{s.Op}, "a grant of this lock needs %d nodes, not %d", need, s.Need)
	}
	keys := []string{c.Key}
	for _, op := range v.h.Ops {
		if op.F == history.Acquire && op.Key == c.Key && op.Value.LockKey != "" && !slices.Contains(keys, op.Value.LockKey) {
			keys = append(keys, op.Value.LockKey)
		}
	}
	unsure := ""
	for i, op := range v.h.Ops {
		if op.F != history.Acquire || op.Key != c.Key || op.Client == c.Client || op.Process < 0 || op.Client == history.ProbeClient ||
			op.Invoke > c.End || v.end(op) < c.Start || op.Type == history.Info || op.Type == history.OK && v.end(op) > c.End && (i != s.Op || s.Granted != 0) ||
			op.Value.Refusal == history.RefusalValidity || op.Value.Refusal == history.RefusalNotReplicated {
			continue
		}
		f := v.freeNodes(op, keys, need, c.Start, c.End)
		switch {
		case f.why != "":
			if i == s.Op || f.inside {
				unsure = f.why
			}
		case !f.inside:
			// It reached no node in the window: a try before or after it.
		case f.free >= need:
			return refuse(append([]int{i}, f.recs...), "%s's acquire of %s reached a node inside the window [%d, %d] and found %d nodes free of the lock's key, as many as a grant needs (%d)", op.Client, c.Key, c.Start, c.End, f.free, need)
		case i == s.Op && s.GaveUp == "" && f.free != s.Met:
			return refuse(append([]int{i}, f.recs...), "%s's acquire found %d nodes free of the lock's key, not %d", op.Client, f.free, s.Met)
		case i == s.Op && s.KeyOwner != "" && f.owner != s.KeyOwner:
			return refuse(append([]int{i}, f.recs...), "the key of the lock %s's command found on the node was %q's, not %s's", op.Client, f.owner, s.KeyOwner)
		}
	}
	if s.ScriptRefused {
		return skip("exposure: a script the lock refused on a node its record shows free")
	}
	if unsure != "" {
		return skip("exposure: " + unsure)
	}
	return held
}

// free is what freeNodes found of one acquire: how many nodes free of
// the lock's key, whose key its first command met (of a lock on one
// node), whether one of its commands reached a node inside the window
// (from Start; the caller bounds it by End), the commands read, and why
// the record cannot tell ("" when it can).
type free struct {
	free   int
	owner  string
	inside bool
	recs   []int
	why    string
}

// freeNodes reads acquire a's tries on the nodes up to end (inside: one
// at or after start): on each node,
// its first command (outside a script) on the lock's keys inside a and
// every later one that sets a key, each finding the node free when no key
// of the lock stood there then — none but one of a's client's own set at
// or after a's invoke (never, of a lock on one node whose acquire was
// refused: a key of its own it met was an earlier acquire's). A node is
// free if one of its tries found it so.
func (v *verifier) freeNodes(a history.Op, keys []string, need int, start, end int64) free {
	var f free
	to := min(v.end(a), end)
	refused := a.Type == history.Fail
	tried := map[string]bool{}
	freeAt := map[string]bool{}
	scripted := false
	for i, op := range v.h.Ops {
		if op.F != history.NodeCmd || op.Process != history.NodeProcess || op.Value.Lua || op.Invoke < a.Invoke || op.Invoke > to ||
			v.m.sender(i) != a.Client || !slices.ContainsFunc(cmdKeys(op.Value.Cmd), func(k string) bool { return slices.Contains(keys, k) }) {
			continue
		}
		name := strings.ToLower(op.Value.Cmd[0])
		if tried[op.Value.Node] && name != "set" && name != "setnx" {
			continue
		}
		tried[op.Value.Node] = true
		scripted = scripted || name == "eval" || name == "evalsha"
		f.recs = append(f.recs, i)
		f.inside = f.inside || op.Invoke >= start
		l, sure := v.keyAt(op.Value.Node, keys, i, op.Invoke, a.Client, a.Invoke, need == 1 && refused)
		switch {
		case !sure:
			f.why = "a key of the lock within slack of a try's command"
		case l == nil:
			freeAt[op.Value.Node] = true
		case f.owner == "":
			f.owner = l.owner
		}
	}
	for _, n := range v.nodesOf(a) {
		if !v.watched(n, a.Invoke, to) {
			f.why = "a try on a node not recorded throughout it"
		} else if !tried[n] && v.downIn(n, a.Invoke, to) {
			f.why = "a try while a node was down"
		}
	}
	f.free = len(freeAt)
	if need == 1 && refused && scripted && f.free > 0 {
		f.free, f.why = 0, "" // the lock's script refused it on a free node: ScriptRefused
	}
	return f
}

// keyAt is the key of the lock (keys) that stood on node when its
// command i (at t) ran, but for one of client's own set at or after since
// (unless always: a refused try on a lock of one node counts its client's
// own key as taken). A node runs its commands one by one: a key set by an
// earlier command of its stream and removed by a later one stood then; a
// key's expiry is placed by its deadline, and within slack of t the
// record cannot tell (sure false) — unless the command's own replay
// decided it (its SET found the key gone: the key ends at t).
func (v *verifier) keyAt(node string, keys []string, i int, t int64, client string, since int64, always bool) (l *life, sure bool) {
	sure = true
	for _, k := range v.m.lives {
		if k.node != node || !slices.Contains(keys, k.key) || k.owner == client && k.start >= since && !always || k.set >= i {
			continue
		}
		switch e := v.lifeEnd(k); {
		case k.rec >= 0 && (k.how == "removed" || k.how == "overwritten" || k.how == "flushed"):
			if k.rec > i {
				return k, true
			}
		case v.m.unsure[k] || k.how == "crash?" || k.how == "gone?":
			sure = sure && !(k.start <= t+slack && t-slack < e)
		case e == t && k.how == "expired":
			// Its end was decided at this command: gone.
		case near(e, t):
			sure = false
		case t < e:
			return k, true
		}
	}
	return nil, sure
}

// downIn reports whether a crash-node step had node dead at some instant
// of [from, to].
func (v *verifier) downIn(node string, from, to int64) bool {
	for _, op := range v.h.Ops {
		st := op.Value.Fault
		if op.F == history.Fault && st != nil && st.Effect == history.EffectCrashNode && op.Type != history.Fail && slices.Contains(st.Nodes, node) &&
			op.Invoke <= to && v.end(op) >= from {
			return true
		}
	}
	return false
}
