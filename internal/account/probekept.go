package account

import "github.com/locksim/locksim/internal/history"

// ProbeRewrote is what final probe op (a history index) did to its key
// when it let the lock go by writing the key again rather than removing it
// (a min-hold release, SET … PX n XX with a new value; reader 16,
// unlock-deletes-next-lock: the probe's key was told as released at the
// probe's return though its release had set it to expire 10 s later): the
// life its own SET created ended overwritten by a later SET of the
// probe's, inside the probe's window, which made a new life of the
// probe's with a TTL. False when the record shows no such rewrite.
func (a *Account) ProbeRewrote(op int) (Keep, bool) {
	a.derive()
	if op < 0 || op >= len(a.H.Ops) {
		return Keep{}, false
	}
	o := a.H.Ops[op]
	if o.F != history.Probe || o.Process < 0 || o.Open() || o.Client == "" {
		return Keep{}, false
	}
	from, to := o.Invoke-grantSlack, o.Complete+grantSlack
	for _, n := range a.H.Header.Nodes {
		for _, j := range a.byKey[nk(n, lockKeyOf(&o))] {
			k := a.keys[j]
			if !k.Observed || k.Owner != o.Client || k.Start < from || k.Start > to || k.Ended.Kind != EndOverwritten ||
				k.Ended.By != o.Client || k.Ended.Op < 0 {
				continue
			}
			cmd := a.H.Ops[k.Ended.Op]
			if cmd.Invoke < k.Start || cmd.Invoke > to {
				continue
			}
			next := a.lifeSetBy(n, k.Key, k.Ended.Op)
			if next < 0 || a.keys[next].Owner != o.Client || a.keys[next].Deadline < 0 || a.keys[next].TTL < 0 {
				continue
			}
			nl := a.keys[next]
			return Keep{Release: op, Cmd: k.Ended.Op, Node: n, At: nl.Start, TTL: nl.TTL, Rewrote: true, Value: nl.Value}, true
		}
	}
	return Keep{}, false
}
