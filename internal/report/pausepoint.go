package report

import (
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// pausePoint is the words of a freeze's pause point (", just before its
// write"), from the step's Fault claim c: a freeze inside a multi-node
// acquire says which nodes had run the acquire's SET by then (c.Nodes,
// when c names the acquire: the account's inFlight), no more — not that
// the nodes had answered (node-redlock-pause-in-flight: the freeze came
// before four of five nodes ran the SET; a fresh reader, issue 27).
func (m *model) pausePoint(lang Lang, st history.FaultStep, c claim.Claim) string {
	if st.Trigger.Kind != history.TriggerPoint {
		return ""
	}
	words := m.pointWord(lang, st.Trigger.Point)
	if st.Trigger.Point == history.PointInAcquire && c.Client != "" {
		total := len(m.h.Header.Nodes)
		switch len(c.Nodes) {
		case 0:
			words = tr(lang, "point.in-acquire.none")
		case total:
			words = tr(lang, "point.in-acquire.all", total)
		default:
			words = tr(lang, "point.in-acquire.some", joinAnd(lang, c.Nodes), total)
		}
	}
	return tr(lang, "n.pause.point", words)
}

// faultClaim is the account's Fault claim of fault window w (its
// in-flight acquire, for a freeze inside one), found only when the
// pause's words need it.
func (b *builder) faultClaim(w window) claim.Claim {
	if w.Step.Trigger.Point != history.PointInAcquire {
		return claim.Claim{}
	}
	c, _ := claim.Find(b.m.a.Claims(), func(c claim.Claim) bool {
		return c.Kind == claim.Fault && c.Step == w.Step.ID && len(c.Records) > 0 && c.Records[0] == w.Op
	})
	return c
}

// pointWord is the words of a fault's point in the run's workload: its
// own (point.<point>.<workload>: a semaphore's write is giving its permit
// back, a fresh reader's "just before its write" of w1's exit), else the
// general ones.
func (m *model) pointWord(lang Lang, point string) string {
	if own := "point." + point + "." + workload.Of(m.h.Header).Name; messages["en"][own] != "" {
		return tr(lang, own)
	}
	if _, ok := messages["en"]["point."+point]; ok {
		return tr(lang, "point."+point)
	}
	return point
}
