package report

import "github.com/locksim/locksim/internal/claim"

// probeRewrote is what a final probe's own release did to its key when it
// wrote the key again instead of deleting it (account.ProbeRewrote: a
// min-hold release, SET … PX n XX), told after the probe's grant in the
// same step; "" when it did not (reader 16, unlock-deletes-next-lock: the
// probe's key was told as released at the probe's return, and, once read
// from n1's record, as "overwritten by probe" before the probe's grant).
func (m *model) probeRewrote(lang Lang, i int) string {
	kp, ok := m.a.ProbeRewrote(i)
	if !ok {
		return ""
	}
	return " " + tr(lang, "n.probe.rewrote", span(m.sec(kp.TTL)), instant(m.sec(kp.At+kp.TTL)), kp.Node)
}

// rewrittenByProbe reports whether the key life of KeyLife claim c was
// overwritten by its own final probe's release (probeRewrote): the probe's
// step tells it.
func (n *narrator) rewrittenByProbe(l lease, c claim.Claim) bool {
	if len(c.Records) < 2 {
		return false
	}
	kp, ok := n.m.a.ProbeRewrote(l.Op)
	return ok && kp.Cmd == c.Records[len(c.Records)-1]
}

// keptGone tells, for each client of released (those that took and
// released the lock after a release's own key ended, at from), how the key
// its release left behind ended by now: a release that wrote the key again
// (a min-hold release) left a key that expired later, and that key is what
// the late release found gone (reader 16, unlock-deletes-next-lock F4: w3's
// rewritten key expired at t=51.4s, not when w3 released).
func (m *model) keptGone(lang Lang, released []string, key string, from, now int64) string {
	out := ""
	for _, c := range released {
		var end int64 = -1
		for _, k := range m.a.Keys() {
			if k.Owner == c && k.Key == key && k.ExpiredAsKept() && k.End > from && k.End <= now && k.End > end {
				end = k.End
			}
		}
		if end >= 0 {
			out += tr(lang, "n.gone.taken.kept", c, instant(m.sec(end)))
		}
	}
	return out
}

// probeKeptMessages are this file's sentences, merged into messages at
// init.
var probeKeptMessages = map[Lang]map[string]string{
	"en": {
		"n.gone.taken.kept": ", and the key %s's release left behind expired at t=%ss",                                                                             // client, t
		"n.probe.rewrote":   "Its release did not delete the key: it wrote the key again (a new value) to expire %s later, at t=%ss (%s's record of the command).", // ttl, t, node
	},
	"vi": {
		"n.gone.taken.kept": ", và key mà lệnh nhả lock của %s để lại đã hết hạn lúc t=%ss",
		"n.probe.rewrote":   "Lệnh nhả lock của nó không xoá key: nó ghi lại key (giá trị mới) để hết hạn sau %s nữa, lúc t=%ss (theo bản ghi của %s về lệnh này).",
	},
}

func init() { addMessages(probeKeptMessages, "probekept.go") }
