package report

import (
	"math"
	"sort"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// faultDur is a fault's length as the reader should see it: the length the
// scenario declared (from the fault op's Detail, e.g. "stop-the-world pause
// of 35s"), or the measured window when it differs from that by more than
// 5 % (or nothing was declared).
func (m *model) faultDur(w window) string {
	measured := m.sec(w.End) - m.sec(w.Start)
	if d, ok := declaredDuration(w.Detail); ok && w.Fault != "clock-jump" {
		decl := d.Seconds()
		if math.Abs(measured-decl) <= 0.05*decl {
			return fmtDur(decl)
		}
	}
	return fmtDur(measured)
}

// linkTargets splits "w1→n4" (or "w1->n4") targets into from → []to, in
// order of first appearance; plain targets are returned in rest.
func linkTargets(ts []string) (from []string, to map[string][]string, rest []string) {
	to = map[string][]string{}
	for _, t := range ts {
		a, b, ok := strings.Cut(t, "→")
		if !ok {
			a, b, ok = strings.Cut(t, "->")
		}
		if !ok {
			rest = append(rest, t)
			continue
		}
		a, b = strings.TrimSpace(a), strings.TrimSpace(b)
		if _, seen := to[a]; !seen {
			from = append(from, a)
		}
		to[a] = append(to[a], b)
	}
	return from, to, rest
}

// faultSentence tells a non-pause fault's start in lang.
func (m *model) faultSentence(lang Lang, w window, dur string) string {
	from, to, rest := linkTargets(w.Targets)
	switch w.Fault {
	case "partition":
		if len(from) > 0 {
			var parts []string
			for _, f := range from {
				parts = append(parts, tr(lang, "n.cut.one", f, joinAnd(lang, to[f])))
			}
			return tr(lang, "n.partition", strings.Join(parts, "; "), dur)
		}
		return tr(lang, "n.partition.nodes", joinAnd(lang, rest), dur)
	case "clock-jump":
		if d, ok := parseJump(w.Detail); ok {
			return tr(lang, "n.clock.jump", joinAnd(lang, w.Targets), signedDur(d))
		}
	case "clock-rate":
		return tr(lang, "n.clock.rate", joinAnd(lang, w.Targets), dur, w.Detail)
	case "crash":
		for _, n := range w.Targets {
			if keysLostOnCrash(m.h.Header, n) {
				return tr(lang, "n.crash", joinAnd(lang, w.Targets), dur)
			}
		}
		return tr(lang, "n.crash.kept", joinAnd(lang, w.Targets), dur)
	case "pause-node":
		return tr(lang, "n.pause.node", joinAnd(lang, w.Targets), dur)
	case "latency":
		return tr(lang, "n.latency", joinAnd(lang, w.Targets), dur, w.Detail)
	case "reset":
		return tr(lang, "n.reset", joinAnd(lang, w.Targets))
	}
	det := ""
	if w.Detail != "" {
		det = " (" + w.Detail + ")"
	}
	return tr(lang, "n.fault", faultWord(lang, w.Fault), joinAnd(lang, w.Targets), dur, det)
}

func signedDur(d time.Duration) string {
	if d >= 0 {
		return "+" + d.String()
	}
	return d.String()
}

// faultWord is the reader's name of a fault kind ("clock jump").
func faultWord(lang Lang, kind string) string {
	if _, ok := messages["en"]["fault."+kind]; ok {
		return tr(lang, "fault."+kind)
	}
	return kind
}

// kindWord is the reader's name of an anomaly kind.
func kindWord(lang Lang, kind string) string {
	if _, ok := messages["en"]["kind."+kind]; ok {
		return tr(lang, "kind."+kind)
	}
	return kind
}

func pointWord(lang Lang, point string) string {
	if _, ok := messages["en"]["point."+point]; ok {
		return tr(lang, "point."+point)
	}
	return point
}

// releaseNothing tells a release that removed nothing: why the key was not
// the client's any more, and who had it meanwhile.
func (m *model) releaseNothing(lang Lang, o history.Op) string {
	var own *lease
	if ll := m.byCK[clientKey{o.Client, o.Key}]; ll != nil {
		for q := ll.upTo(o.Invoke) - 1; q >= 0; q-- {
			l := &m.leases[ll.idx[q]]
			if o.Value.Token == "" || l.Token == "" || o.Value.Token == l.Token {
				own = l
				break
			}
		}
	}
	if own == nil || own.KeyEnd > o.Invoke {
		if owner, ok := m.keyOwnerAt(o.Key, o.Invoke); ok && owner.Client != o.Client {
			return tr(lang, "n.release.none.other", o.Client, o.Key, owner.Client)
		}
		return tr(lang, "n.release.none", o.Client, o.Key)
	}
	var cause string
	switch {
	case strings.HasPrefix(own.EndCause, "removed:"):
		cause = tr(lang, "n.gone.removed", fmtT(m.sec(own.KeyEnd)), strings.TrimPrefix(own.EndCause, "removed:"))
	case own.EndCause == "clock":
		cause = tr(lang, "n.gone.clock", fmtT(m.sec(own.KeyEnd)))
	default:
		cause = tr(lang, "n.gone.expired", fmtT(m.sec(own.KeyEnd)))
	}
	// Who took the lock after ours ended, and do they still hold it?
	if ll := m.byKey[o.Key]; ll != nil {
		for q := sort.Search(len(ll.start), func(q int) bool { return ll.start[q] >= own.KeyEnd }); q < len(ll.idx) && ll.start[q] <= o.Invoke; q++ {
			l := m.leases[ll.idx[q]]
			if l.Client == o.Client {
				continue
			}
			if l.KeyEnd <= o.Invoke {
				cause += tr(lang, "n.gone.taken.released", l.Client)
			} else {
				cause += tr(lang, "n.gone.taken.holds", l.Client)
			}
			break
		}
	}
	return tr(lang, "n.release.gone", o.Client, o.Key, cause)
}

// chargesOf lists the accepted charges an anomaly is about as
// "w2 at t=31.4s, w1 at t=36.3s".
func (m *model) chargesOf(lang Lang, a checker.Anomaly) (string, int) {
	want := map[int]bool{}
	for _, i := range a.Ops {
		want[i] = true
	}
	var parts []string
	for _, i := range m.opsByKey[a.Key] {
		o := m.h.Ops[i]
		if o.F != history.Write || o.Type != history.OK || o.Key != a.Key {
			continue
		}
		if len(want) > 0 && !want[o.Index] {
			continue
		}
		if len(want) == 0 && o.Value.Action != "charge" {
			continue
		}
		parts = append(parts, tr(lang, "a.at", o.Client, fmtT(m.sec(o.Invoke))))
	}
	return strings.Join(parts, ", "), len(parts)
}

// describeAnomaly is one sentence in lang about what an anomaly is; the
// checker's own Explain (English) is shown beside it on the page.
func (m *model) describeAnomaly(lang Lang, a checker.Anomaly) string {
	clients := joinAnd(lang, a.Clients)
	t0, t1 := fmtT(a.StartS), fmtT(a.EndS)
	switch a.Kind {
	case checker.KindMutexOverlap:
		if len(a.Clients) > 2 {
			return tr(lang, "a.mutex-overlap.many", clients, a.Key, t0, t1)
		}
		return tr(lang, "a.mutex-overlap", clients, a.Key, t0, t1)
	case checker.KindDoubleEffect:
		if list, n := m.chargesOf(lang, a); n >= 2 {
			return tr(lang, "a.double-effect", a.Key, n, list)
		}
		return tr(lang, "a.double-effect.plain", a.Key, clients)
	case checker.KindForeignUnlock:
		if len(a.Clients) >= 2 {
			return tr(lang, "a.foreign-unlock", a.Clients[0], a.Key, joinAnd(lang, a.Clients[1:]), t0)
		}
	case checker.KindNotLinearizable:
		return tr(lang, "a.not-linearizable", a.Key, clients, t0)
	case checker.KindTokenRegression:
		return tr(lang, "a.token-regression", clients, a.Key, t0, t1)
	case checker.KindLostUpdate:
		return tr(lang, "a.lost-update", a.Key, t0, t1, clients)
	case checker.KindOversell:
		stock, ok := m.h.Header.Params[checker.ParamStock]
		sold := 0
		for _, i := range m.opsByKey[a.Key] {
			if o := m.h.Ops[i]; o.F == history.Write && o.Type == history.OK && o.Key == a.Key && o.Value.Action == checker.ActionSell {
				sold++
			}
		}
		if ok {
			return tr(lang, "a.oversell", a.Key, sold, stock, clients)
		}
		return tr(lang, "a.oversell.plain", a.Key, clients)
	case checker.KindDuplicateRun:
		if list, n := m.chargesOf(lang, a); n >= 2 {
			return tr(lang, "a.duplicate-run", a.Key, n, list)
		}
	case checker.KindSplitBrain:
		return tr(lang, "a.split-brain", clients, a.Key, t1, t0)
	case checker.KindOverAdmission:
		return tr(lang, "a.over-admission", clients, a.Key, t0, t1, m.h.Header.Params[checker.ParamPermits])
	case checker.KindDuplicateWork:
		return tr(lang, "a.duplicate-work", clients, a.Key, t0, t1)
	case checker.KindStuckLock:
		return tr(lang, "a.stuck-lock", a.Key, clients, t0)
	case checker.KindUnavailable:
		return tr(lang, "a.unavailable", a.Key, t0, t1)
	}
	return tr(lang, "a.generic", kindWord(lang, a.Kind), clients, a.Key, t0, t1)
}

// whyAnomaly says why an anomaly matters: a correctness problem (data is
// wrong), only an efficiency one (work was wasted: duplicate work, or any
// broken lock of an efficiency-lock workload), or liveness.
func (m *model) whyAnomaly(lang Lang, a checker.Anomaly) string {
	switch {
	case a.Kind == checker.KindDuplicateWork:
		return tr(lang, "why.duplicate-work")
	case a.Kind == checker.KindStuckLock || a.Kind == checker.KindUnavailable:
		if a.Informational {
			return tr(lang, "why."+a.Kind) + tr(lang, "why.liveness.info")
		}
		return tr(lang, "why."+a.Kind)
	case a.Informational && m.h.Header.Workload == history.WorkloadCacheRebuild:
		return tr(lang, "why.efficiency")
	case a.Informational:
		return tr(lang, "why.informational")
	}
	if _, ok := messages["en"]["why."+a.Kind]; ok {
		return tr(lang, "why."+a.Kind)
	}
	return tr(lang, "why.other")
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](mp map[string]V) []string {
	ks := make([]string, 0, len(mp))
	for k := range mp {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
