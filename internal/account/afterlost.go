package account

import "github.com/locksim/locksim/internal/history"

// wroteAfterLost is the first write (any outcome) of the client of lost
// record i to its key (any key, when the record names none) invoked after
// the record, before that client's next granted acquire of the key: the
// client went on writing under the lease it was told it had lost (reader
// 14, redis-semaphore-gc-pause-half-1: w1's lost record at 50.516 s, its
// charge at 50.517 s). -1 when there is none.
func (a *Account) wroteAfterLost(i int) int {
	ops := a.H.Ops
	lost := ops[i]
	for j := i + 1; j < len(ops); j++ {
		o := ops[j]
		if o.Client != lost.Client || o.Process == history.NodeProcess || (lost.Key != "" && o.Key != lost.Key) {
			continue
		}
		switch {
		case o.F == history.Acquire && o.Type == history.OK:
			return -1
		case o.F == history.Write && o.Invoke >= lost.Complete:
			return j
		}
	}
	return -1
}
