package report

import "github.com/locksim/locksim/internal/checker"

// unavailableText describes an unavailable stretch of the lock from t0 to
// t1 by its cause: a lock held inside a live client's own process; a key
// other clients' extends kept past its owner's lease (reader 7, F2: the
// key was live in Redis, no one's lease); else no acquire succeeded.
func (m *model) unavailableText(lang Lang, a checker.Anomaly, t0, t1 instant) string {
	c := a.Cause
	switch {
	case c != nil && c.Kind == checker.CauseRefusedLocally:
		if c.At > 0 && c.At < a.Start {
			t0 = instant(m.sec(c.At)) // free from when its last key left Redis (reader 15)
		}
		return tr(lang, "a.unavailable.local", a.Key, t0, t1, c.Client)
	case c != nil && c.Kind == checker.CauseKeptByOthers && len(c.Nodes) > 0:
		return tr(lang, "a.unavailable.kept", a.Key, t0, t1, c.Client, instant(m.sec(c.LeaseEnd)), c.ExtendedBy, c.Nodes[0], instant(m.sec(c.At)))
	}
	return tr(lang, "a.unavailable", a.Key, t0, t1)
}
