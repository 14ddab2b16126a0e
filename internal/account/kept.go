package account

import "github.com/locksim/locksim/internal/history"

// deriveKept finds the releases that removed no key but set when their
// client's key would end, per the nodes' record (issue 27, reader
// findings 8 and 9): a command of the releasing client, while its release
// ran, that moved the deadline of its own key (a minimum hold's PEXPIRE:
// checked-min-hold-unlock), or that SET its own key again with a new value
// and a TTL (ShedLock's unlock with lockAtLeastFor: SET … PX … XX). Each
// life that command set the end of carries it (KeyLife.Kept): the moved
// life when it then expired at that deadline; the overwritten life and the
// new one, for a rewrite. A release that removed a key (RemovedBy) keeps
// nothing.
func (a *Account) deriveKept() {
	a.keptBy = map[int]Keep{}
	for i, o := range a.H.Ops {
		if o.F != history.Release || o.Process < 0 || o.Open() || o.Client == "" {
			continue
		}
		from, to := o.Invoke-grantSlack, o.Complete+grantSlack
		in := func(t int64) bool { return t >= from && t <= to }
		for _, n := range a.H.Header.Nodes {
			for _, j := range a.byKey[nk(n, lockKeyOf(&o))] {
				k := &a.keys[j]
				if !k.Observed || k.Owner != o.Client || k.Kept != nil || k.Start > to || k.End < from {
					continue
				}
				switch {
				case k.Ended.Kind == EndReleased || k.Ended.Kind == EndDeleted:
					// Removed: not kept (a release's own DEL, another's).
				case k.Ended.Kind == EndOverwritten && k.Ended.By == o.Client && k.Ended.Op >= 0 && in(a.H.Ops[k.Ended.Op].Invoke):
					next := a.lifeSetBy(n, k.Key, k.Ended.Op)
					if next < 0 || a.keys[next].Owner != o.Client || a.keys[next].Deadline < 0 || a.keys[next].TTL < 0 {
						continue
					}
					nl := &a.keys[next]
					kp := &Keep{Release: i, Cmd: k.Ended.Op, Node: n, At: nl.Start, TTL: nl.TTL, Rewrote: true, Value: nl.Value}
					k.Kept, a.keptBy[i] = kp, *kp
					if len(nl.Moves) == 0 {
						nl.Kept = kp // its end is the one the rewrite set
					}
				default:
					for q := len(k.Moves) - 1; q >= 0; q-- {
						mv := k.Moves[q]
						if mv.Clock || mv.By != o.Client || !in(mv.At) || mv.Deadline <= mv.At || mv.Op < 0 || a.H.Ops[mv.Op].F != history.NodeCmd {
							continue
						}
						k.Kept = &Keep{Release: i, Cmd: mv.Op, Node: n, At: mv.At, TTL: mv.Deadline - mv.At, Value: k.Value}
						a.keptBy[i] = *k.Kept
						break
					}
				}
			}
		}
	}
}

// ExpiredAsKept reports whether k expired at the end its owner's release
// set (Kept): the last deadline it had was that release's command's, or,
// for the new life a rewrite made, the rewrite's own.
func (k KeyLife) ExpiredAsKept() bool {
	if k.Kept == nil || k.Ended.Kind != EndExpired {
		return false
	}
	if n := len(k.Moves); n > 0 {
		return k.Moves[n-1].Op == k.Kept.Cmd && k.Moves[n-1].Deadline == k.Deadline
	}
	return k.Set == k.Kept.Cmd
}

// lifeSetBy is the position in keys of the life of key on node that the
// node command cmd created, -1 none.
func (a *Account) lifeSetBy(node, key string, cmd int) int {
	for _, j := range a.byKey[nk(node, key)] {
		if a.keys[j].Set == cmd {
			return j
		}
	}
	return -1
}

// KeptBy is what release op (a history index) kept on the nodes instead
// of removing a key (see deriveKept): false when it kept nothing.
func (a *Account) KeptBy(op int) (Keep, bool) {
	a.derive()
	kp, ok := a.keptBy[op]
	return kp, ok
}
