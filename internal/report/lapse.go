package report

import (
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// resurrectedText tells a resurrected-lease finding in lang from its
// account fact (account.Resurrections): whose token came back on which
// key, when its key had ended, and whose grant came in between.
func (m *model) resurrectedText(lang Lang, a checker.Anomaly) (string, bool) {
	for _, r := range m.a.Resurrections() {
		if r.Holder != a.Stale || r.Other != a.Current || r.After.Start != a.End {
			continue
		}
		return tr(lang, "a.resurrected-lease", r.Holder, a.Key, r.After.Key, r.After.Node, instant(m.sec(r.After.Start)),
			instant(m.sec(r.Before.End)), r.Other, instant(m.sec(r.Between.Start))), true
	}
	return "", false
}

// hiddenLapseText tells a hidden-lapse finding in lang: the checker names
// the grant, the operation by which the lock vouched for the lapsed lease
// and the holder's act (Ops), in that order.
func (m *model) hiddenLapseText(lang Lang, a checker.Anomaly) (string, bool) {
	if len(a.Ops) != 3 || a.Stale == "" {
		return "", false
	}
	said, act := m.h.Ops[a.Ops[1]], m.h.Ops[a.Ops[2]]
	ended := instant(a.StartS)
	if act.F == history.Release {
		if a.Ops[1] == a.Ops[2] {
			return tr(lang, "a.hidden-lapse.release", a.Stale, a.Key, ended, instant(m.sec(act.Invoke))), true
		}
		return tr(lang, "a.hidden-lapse.release.said", a.Stale, a.Key, ended, lockOpWord(lang, said), instant(m.sec(said.Invoke)), instant(m.sec(act.Invoke))), true
	}
	return tr(lang, "a.hidden-lapse", a.Stale, a.Key, ended, lockOpWord(lang, said), instant(m.sec(said.Invoke)),
		actionLegendWord(lang, act.Value.Action), instant(m.sec(act.Invoke))), true
}

// lockOpWord names, in lang, the lock operation that vouched for a lapsed
// lease: a background renewal or an extend.
func lockOpWord(lang Lang, o history.Op) string {
	if o.Value.Renewal {
		return tr(lang, "lockop.renewal")
	}
	return tr(lang, "lockop.extend")
}
