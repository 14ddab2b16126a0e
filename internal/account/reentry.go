package account

import "github.com/locksim/locksim/internal/history"

// Re-entered grants (BR-26): an ok acquire that created no key life of its
// own because the key already held the owner token the client presents —
// a lock whose token names the process, not the holder, grants a second
// thread by extending the first one's key. Such a grant is backed by that
// key life, which another client's command set: holders are told apart by
// client, never by token.

// matchReentries backs every ok acquire that matched no created key life
// on a granting node with the life of its lock key there that held the
// acquire's token when the acquire ran and was set by another client.
func (a *Account) matchReentries() {
	matched := map[int]bool{}
	for i := range a.keys {
		if a.keys[i].Grant >= 0 {
			matched[a.keys[i].Grant] = true
		}
	}
	a.reentries = map[int][]int{}
	byKey := map[string][]int{}
	for i, k := range a.keys {
		byKey[nk(k.Node, k.Key)] = append(byKey[nk(k.Node, k.Key)], i)
	}
	for idx, op := range a.H.Ops {
		if op.F != history.Acquire || op.Type != history.OK || op.Complete < 0 || op.Key == "" || op.Value.Token == "" || matched[idx] {
			continue
		}
		key := lockKeyOf(&op)
		nodes := op.Value.Nodes
		if len(nodes) == 0 {
			nodes = a.H.Header.Observed
		}
		for _, n := range nodes {
			if i := a.reentryLife(idx, n, byKey[nk(n, key)]); i >= 0 {
				a.reentries[idx] = append(a.reentries[idx], i)
			}
		}
	}
}

// reentryLife is the position, among the key lives at cands, of the life
// that backs the ok acquire at history index op on node by re-entry: set
// by another client, holding the acquire's token while the acquire ran.
// -1 when none does.
func (a *Account) reentryLife(op int, node string, cands []int) int {
	o := &a.H.Ops[op]
	if o.Value.Token == "" {
		return -1
	}
	for _, i := range cands {
		k := a.keys[i]
		if k.Node == node && k.Observed && k.Owner != o.Client && k.Value == o.Value.Token &&
			k.Start <= o.Complete+grantSlack && k.End >= o.Invoke-grantSlack {
			return i
		}
	}
	return -1
}

// Reentered reports whether the acquire at history index op was granted by
// re-entering a key another client had set with the same owner token.
func (a *Account) Reentered(op int) bool {
	a.derive()
	return len(a.reentries[op]) > 0
}

// lockKeyOf is the Redis key an acquire locked: the one the algorithm
// derived (Value.LockKey), else the op's own.
func lockKeyOf(op *history.Op) string {
	if op.Value.LockKey != "" {
		return op.Value.LockKey
	}
	return op.Key
}
