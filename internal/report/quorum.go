package report

import (
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// quorumText says what a holder's quorum lost at its keys' end on nodes
// ns means, left nodes still holding it (quorum q): the lock no longer
// really its, unless the nodes that lost it crashed and stayed down
// through its hold (heldThroughCrash).
func (m *model) quorumText(lang Lang, kind string, ns []string, left, q int, l *lease) string {
	if upAt, ok := m.heldThroughCrash(kind, ns, left, q, l); ok {
		return tr(lang, "n.quorum.down", left, len(m.nodes), q, joinAnd(lang, ns), instant(m.sec(upAt)), l.Client)
	}
	return quorumLost(lang, left, len(m.nodes), q, l.Client)
}

// heldThroughCrash reports whether a holder whose quorum was lost when
// nodes ns lost its key (kind, left nodes still holding it, quorum q)
// still held the lock in practice: they crashed and stayed down through
// its hold, so the nodes up and free of its key were too few for anyone's
// quorum (a delayed restart: redlock-delayed-restart). upAt is when the
// last of them came back.
func (m *model) heldThroughCrash(kind string, ns []string, left, q int, l *lease) (upAt int64, ok bool) {
	if kind != account.EndCrashed || len(m.nodes)-left-len(ns) >= q {
		return 0, false
	}
	upAt = -1
	for _, f := range m.a.Faults {
		// Its down time is the crash's active window (the kill's return
		// to the restart), as the crash's own lines tell it (a fresh
		// reader, A18: "stayed down until t=7.2s" beside "t=7.1s n3
		// restarted").
		from, to := f.Active()
		if f.Step.Effect == history.EffectCrashNode && slices.ContainsFunc(ns, func(n string) bool { return slices.Contains(f.Step.Nodes, n) }) &&
			from <= l.BelievedEnd && to > upAt {
			upAt = to
		}
	}
	down := upAt > l.BelievedEnd
	for _, n := range ns {
		down = down && m.a.NodeDown(n, l.BelievedEnd)
	}
	return upAt, down
}

// heldInPractice is heldThroughCrash of lease l at its quorum's loss
// (l.KeyEnd): ns are the nodes whose lives of l ended then, in a crash,
// left the nodes still holding it, upAt when the last of ns came back.
func (m *model) heldInPractice(l *lease) (ns []string, left int, upAt int64, ok bool) {
	if !l.lost() || len(l.Lives) < 2 || len(m.nodes) < 2 || l.Cause.Kind != account.EndCrashed {
		return nil, 0, 0, false
	}
	for _, k := range l.Lives {
		if k.End == l.KeyEnd && k.Ended.Kind == account.EndCrashed {
			ns = append(ns, k.Node)
		}
	}
	left = account.HeldAfter(l.Lives, l.KeyEnd)
	upAt, ok = m.heldThroughCrash(account.EndCrashed, ns, left, m.a.Quorum(), l)
	return ns, left, upAt, ok
}

// quorumLost says that a holder's key stands on left of total nodes,
// fewer than the quorum q: it no longer really holds the lock.
func quorumLost(lang Lang, left, total, q int, client string) string {
	if left == 0 {
		return tr(lang, "n.quorum.none", total, q, client)
	}
	return tr(lang, "n.quorum.lost", left, total, q, client)
}

// copiesAfter are the nodes still holding lease l's key when its lock,
// on several nodes, lost its quorum (l.KeyEnd), in the run's node order:
// none when it was not lost so (one node, or no copy was left, or its
// own release took it below the quorum: releasedCopies).
func (m *model) copiesAfter(l lease) []string {
	if ownRelease(l) {
		return nil
	}
	return m.copiesLeft(l)
}

// releasedCopies are the nodes still holding lease l's key when its
// holder's own release, deleting it node by node, took it below the
// quorum: a lock given up, not lost (a fresh reader, reader 10: "the
// lock had lost its quorum" of w2's release in redlock-gc-pause-cas).
func (m *model) releasedCopies(l lease) []string {
	if !ownRelease(l) {
		return nil
	}
	return m.copiesLeft(l)
}

// ownRelease reports whether lease l's key left Redis (its quorum, on
// several nodes) through its own client's release after the client
// stopped believing it held the lock: the key life whose end ended the
// hold in Redis was released by its owner, not expired, crashed, failed
// over or deleted by another client while its holder still believed.
func ownRelease(l lease) bool {
	if !l.lost() || l.BelievedEnd > l.KeyEnd {
		return false
	}
	for _, k := range l.Lives {
		if k.End == l.KeyEnd && k.Ended.Kind == account.EndReleased && (k.Ended.By == l.Client || k.Ended.By == "" && k.Owner == l.Client) {
			return true
		}
	}
	return false
}

// copiesLeft are the nodes still holding lease l's key at l.KeyEnd, on
// several nodes, in the run's node order.
func (m *model) copiesLeft(l lease) []string {
	if !l.lost() || len(l.Lives) < 2 || len(m.nodes) < 2 {
		return nil
	}
	var ns []string
	for _, n := range m.nodes {
		if slices.ContainsFunc(l.Lives, func(k account.KeyLife) bool { return k.Node == n && k.Start <= l.KeyEnd && k.End > l.KeyEnd }) {
			ns = append(ns, n)
		}
	}
	return ns
}

// lastCopyEnd is when the last of lease l's key lives left its node.
func lastCopyEnd(l lease) int64 {
	var t int64
	for _, k := range l.Lives {
		t = max(t, k.End)
	}
	return t
}

// livesRef names the KeyLife claims of lease l's key lives.
func livesRef(l lease) string {
	var rs []string
	for _, k := range l.Lives {
		rs = append(rs, ref(claim.KeyLife, k.Set, k.Node))
	}
	return strings.Join(rs, " ")
}
