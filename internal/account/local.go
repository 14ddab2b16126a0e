package account

import "github.com/locksim/locksim/internal/history"

// RefusedLocally reports whether acquire i was refused without reaching
// Redis (a Refusal claim Local): it failed, giving no reason of the lock's
// own (a refusal code), on a lock that keeps its key in Redis; every node
// was recorded throughout it (Reached known); no node ran a command of its
// client in its window, nor one whose sender the observer could not name;
// and its client sent none there that went unanswered (a Stalled record).
// The lock refused it inside the client's own process (a two-level lock's
// local level, BR-35), not a key on a node.
func (a *Account) RefusedLocally(i int) bool {
	op := a.H.Ops[i]
	if op.F != history.Acquire || op.Type != history.Fail || op.Complete < 0 || op.Value.Refusal != "" || a.H.Header.KeepsNoKey() {
		return false
	}
	if ran, known := a.Reached(i); ran || !known {
		return false
	}
	from, to := op.Invoke-grantSlack, op.Complete+grantSlack
	if len(a.sentIn("", from, to)) > 0 {
		return false
	}
	for _, j := range a.stalledBy[op.Client] { // indexed by Reached's indexSent
		if o := a.H.Ops[j]; o.Invoke <= to && (o.Complete < 0 || o.Complete >= from) {
			return false
		}
	}
	return true
}
