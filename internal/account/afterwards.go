package account

import "github.com/locksim/locksim/internal/history"

// What a client did after a point a story tells as an end (reader 14):
// a renewal whose wait its own release cut short (CutBy), a stale
// holder's write the resource accepted after its overlap (LaterWrite).

// CutBy is the release (or done record) of extend op i's client and key
// that cancelled the extend's wait for its reply: the extend ended with an
// unknown outcome (Info) for no timeout and no lost or refused connection
// (history.FailOther: a cancelled context is one), and that release was
// invoked inside the extend's window [invoke, completion], the first such
// in history order. Its node may well have run the extend: it is not a
// renewal the lock refused (reader 14, stalled-job-failed-reason-half-1:
// n1 ran w1's renewal while the key was still w1's). -1 when there is
// none. The error text is never read (history.Op.Error).
func (a *Account) CutBy(i int) int {
	o := a.H.Ops[i]
	if o.F != history.Extend || o.Type != history.Info || o.Failure != history.FailOther || o.Open() {
		return -1
	}
	for j, r := range a.H.Ops {
		if r.Client == o.Client && r.Key == o.Key && r.Process != history.NodeProcess && (r.F == history.Release || r.F == history.Done) &&
			r.Invoke >= o.Invoke && r.Invoke <= o.Complete {
			return j
		}
	}
	return -1
}

// LaterWrite is the first write of client to key the resource accepted
// (ok) invoked at or after from (wall ns), in history order, before that
// client's next granted acquire of key invoked then: a stale holder's
// write under the same lease after its overlap ended (reader 14,
// stalled-job-failed-reason: w1's failure record accepted at 40.270 s,
// after the overlap a checker judged harmless). -1 when there is none.
func (a *Account) LaterWrite(client, key string, from int64) int {
	for j, o := range a.H.Ops {
		if o.Client != client || o.Key != key || o.Process == history.NodeProcess || o.Invoke < from {
			continue
		}
		if o.F == history.Acquire && o.Type == history.OK {
			return -1 // a new lease: its writes are not the stale holder's
		}
		if o.F == history.Write && o.Type == history.OK {
			return j
		}
	}
	return -1
}
