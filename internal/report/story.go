package report

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
	"github.com/locksim/locksim/internal/workload"
)

// faultDur is a fault's length as the reader should see it, scenario
// time: the length the plan declared, or the measured window when it
// differs from that by more than 5 %, with the planned one beside it (or
// the step declared none); for a fault still in force when the history
// ends (a run read as it goes, a cut file), its length so far, said so.
// A window cut short (healed early when the run ended) says both whenever
// the two read differently (reader 6: "for 8s" of a partition healed at
// 7.8 s).
func (m *model) faultDur(lang Lang, w window) string {
	from, to := w.Active()
	measured := m.sec(to) - m.sec(from)
	if m.open(w) {
		return tr(lang, "dur.sofar", span(measured))
	}
	if w.Step.Duration > 0 {
		decl := m.sec(w.Step.Duration)
		short := measured < decl && span(measured).in(lang) != span(decl).in(lang)
		if math.Abs(measured-decl) <= 0.05*decl && !short {
			return span(decl).in(lang)
		}
		// A loaded machine ends a step late (or a fault's own end comes
		// early): say what it lasted and what the plan said, so a page
		// that shows the plan and one that shows the window agree.
		return tr(lang, "dur.planned", span(measured), span(decl))
	}
	return span(measured).in(lang)
}

// open reports whether fault window w was still in force when the history
// ended: its operation never completed.
func (m *model) open(w window) bool { return w.Op >= 0 && w.Op < len(m.h.Ops) && m.h.Ops[w.Op].Open() }

// linkGroups groups a step's links by client, in order of first
// appearance: w1 → [n4, n5].
func linkGroups(ls []history.Link) (from []string, to map[string][]string) {
	to = map[string][]string{}
	for _, l := range ls {
		if _, seen := to[l.Client]; !seen {
			from = append(from, l.Client)
		}
		to[l.Client] = append(to[l.Client], l.Node)
	}
	return from, to
}

// targetsOf is who a step acts on, for a sentence: its clients, nodes, or
// the clients of its links.
func targetsOf(st history.FaultStep) []string {
	switch {
	case len(st.Clients) > 0:
		return st.Clients
	case len(st.Nodes) > 0:
		return st.Nodes
	}
	return st.LinkClients()
}

// replicationLinks reports whether every link of a link step is a
// replica's replication link to its master (replication-lag): the
// history names the replica as the link's client.
func replicationLinks(st history.FaultStep) bool {
	return len(st.Links) > 0 && !slices.ContainsFunc(st.Links, func(l history.Link) bool { return !history.IsReplicaOf(l.Client, l.Node) })
}

// sdur is a wall-time duration of the history as scenario time.
func (m *model) sdur(ns int64) time.Duration { return m.h.Header.ScenarioTime(ns) }

// faultSentence tells a fault step's start in lang (a pause is told by the
// narrative itself).
func (m *model) faultSentence(lang Lang, w window, dur string) string {
	st := w.Step
	targets := joinAnd(lang, targetsOf(st))
	switch {
	case st.Effect == history.EffectCutLinks && replicationLinks(st):
		// A replica's link to its master (replication-lag stop): the
		// replica stops receiving the stream; no client is cut off.
		var parts []string
		for _, l := range st.Links {
			parts = append(parts, tr(lang, "n.replag.stop.one", l.Client, l.Node))
		}
		return tr(lang, "n.replag.stop", strings.Join(parts, "; "), dur)
	case st.Effect == history.EffectSlowLinks && replicationLinks(st):
		var parts []string
		for _, l := range st.Links {
			parts = append(parts, tr(lang, "n.replag.delay.one", l.Client, l.Node))
		}
		return tr(lang, "n.replag.delay", strings.Join(parts, "; "), dur, m.sdur(st.Latency), m.sdur(st.Jitter))
	}
	switch st.Effect {
	case history.EffectCutLinks:
		from, to := linkGroups(st.Links)
		var parts []string
		for _, f := range from {
			parts = append(parts, tr(lang, cutKey("n.cut.one", st), f, joinAnd(lang, to[f])))
		}
		return tr(lang, "n.partition", strings.Join(parts, "; "), dur)
	case history.EffectSlowLinks:
		from, to := linkGroups(st.Links)
		var parts []string
		for _, f := range from {
			parts = append(parts, tr(lang, "n.slow.one", f, joinAnd(lang, to[f])))
		}
		return tr(lang, "n.latency", strings.Join(parts, "; "), dur, m.sdur(st.Latency), m.sdur(st.Jitter))
	case history.EffectResetLinks:
		from, to := linkGroups(st.Links)
		var parts []string
		for _, f := range from {
			parts = append(parts, tr(lang, "n.cut.one", f, joinAnd(lang, to[f])))
		}
		return tr(lang, "n.reset", strings.Join(parts, "; "))
	case history.EffectNodeClock:
		if st.Rate != 0 {
			return tr(lang, pick(st.Rate < 1, "n.clock.rate.slow", "n.clock.rate"), targets, dur, number(st.Rate))
		}
		if st.Delta < 0 { // back: keys live longer
			return tr(lang, "n.clock.jump.back", targets, m.sdur(-st.Delta))
		}
		return tr(lang, "n.clock.jump", targets, jump(m.sdur(st.Delta)))
	case history.EffectClientClock:
		if st.Rate != 0 {
			// Slow or fast by the rate (reader 4, finding 2: "chạy nhanh
			// gấp 0,9 lần" of a clock at 0.9×).
			return tr(lang, pick(st.Rate < 1, "n.clock.rate.client.slow", "n.clock.rate.client"), targets, dur, number(st.Rate))
		}
		return tr(lang, "n.clock.jump.client", targets, jump(m.sdur(st.Delta)))
	case history.EffectCrashNode:
		// What the nodes came back with (the account, from the keys they
		// showed after the restart); the persistence says only where from.
		var kept, lost []string
		for _, n := range st.Nodes {
			k, l := m.a.CrashOutcome(w, n)
			kept, lost = append(kept, k...), append(lost, l...)
		}
		from := tr(lang, "n.crash.from.aof")
		if len(st.Nodes) > 0 && m.h.Header.Persistence[st.Nodes[0]] == "rdb" {
			from = tr(lang, "n.crash.from.rdb")
		}
		switch {
		case len(kept) > 0 && len(lost) > 0:
			return tr(lang, "n.crash.some", targets, dur, from, joinAnd(lang, slices.Compact(slices.Sorted(slices.Values(kept)))), joinAnd(lang, slices.Compact(slices.Sorted(slices.Values(lost)))))
		case len(kept) > 0:
			return tr(lang, "n.crash.kept", targets, dur, from)
		case len(lost) > 0:
			return tr(lang, "n.crash", targets, dur)
		}
		for _, n := range st.Nodes {
			if m.a.CrashLoses(st, n) {
				return tr(lang, "n.crash", targets, dur)
			}
		}
		return tr(lang, "n.crash.kept", targets, dur, from)
	case history.EffectFreezeNode:
		return tr(lang, "n.pause.node", targets, dur)
	case history.EffectStarveRenewer:
		return tr(lang, "n.starve", targets, dur)
	case history.EffectCrashClient:
		key, args := m.crashKey(st.Clients, w.Start)
		return tr(lang, key, append([]any{targets}, args...)...)
	case history.EffectRestartClient:
		if st.Mode == history.RestoreAll {
			return tr(lang, "n.restart.client.restore", targets, dur)
		}
		for _, c := range st.Clients {
			if _, ok := m.leaseAt(c, "", w.Start); ok {
				return tr(lang, "n.restart.client", targets, dur)
			}
		}
		// It held no lease when it was killed: none to leave to its TTL.
		return tr(lang, "n.restart.client.nolease", targets, dur)
	case history.EffectDeleteKey:
		return tr(lang, "n.delete.key", st.Key, targets)
	case history.EffectFailover:
		if len(st.Promotions) > 0 && st.Promotions[0].Promoted != "" {
			p := st.Promotions[0]
			got := p.ReplicaOffsets[p.Promoted]
			bytes := tr(lang, "n.failover.bytes", p.Promoted, got, p.MasterOffset, p.Old)
			if got >= p.MasterOffset {
				bytes = tr(lang, "n.failover.bytes.all", p.Promoted, p.MasterOffset, p.Old)
			}
			if w.Switch >= 0 {
				// When Sentinel announced it (the history's switch-master
				// record, the claim's At): what the clients that ask the
				// sentinels go by.
				at := m.h.Ops[w.Switch].Invoke
				return tr(lang, "n.failover", p.Group, p.Old, st.FailoverMode, p.Promoted,
					instant(m.sec(at)), m.sdur(at-w.Start).Seconds()) + " " + bytes
			}
			// No announcement heard: the step's own measure, said as
			// what it is.
			return tr(lang, "n.failover.role", p.Group, p.Old, st.FailoverMode, p.Promoted, m.sdur(p.TookNS).Seconds()) + " " + bytes
		}
		return tr(lang, "n.failover.none", targets, st.FailoverMode)
	}
	return tr(lang, "n.fault", faultWord(lang, st), targets, dur, "")
}

// faultWord is the reader's name of a fault step's kind ("clock jump"); a
// pause is named by its cause ("GC pause", "blocked event loop"), a pause
// of no named cause "pause".
// byHand adds to a sentence about a fault step that it was fired by hand
// (locksim serve), when it was.
func byHand(lang Lang, st history.FaultStep, sentence string) string {
	if st.Trigger.Kind != history.TriggerManual {
		return sentence
	}
	return sentence + " " + tr(lang, "n.manual")
}

func faultWord(lang Lang, st history.FaultStep) string {
	key := causeKey("fault."+st.Kind, st)
	if _, ok := messages["en"][key]; ok {
		return tr(lang, key)
	}
	return st.Kind
}

// causeKey is the message key base+"."+cause for a pause step whose cause
// has words of its own (history.PauseCauses), else base: a pause whose
// scenario named no cause is told as a pause (the client frozen), not as a
// GC pause the history does not show (a fresh reader, F11).
func causeKey(base string, st history.FaultStep) string {
	if st.Cause == "" {
		return base
	}
	if _, ok := messages["en"][base+"."+st.Cause]; ok {
		return base + "." + st.Cause
	}
	return base
}

// kindWord is the reader's name of an anomaly kind in this run: a
// semaphore's "overlap" is more holders than permits.
func (m *model) kindWord(lang Lang, kind string) string {
	if kind == checker.KindMutexOverlap && workload.Of(m.h.Header).Permits {
		return tr(lang, "kind.mutex-overlap.semaphore")
	}
	return kindWord(lang, kind)
}

// anomalyWord is the reader's name of anomaly a: its kind's word, or
// where the checker says more (a token repeated, not lower) that word.
func (m *model) anomalyWord(lang Lang, a checker.Anomaly) string {
	return m.kindWord(lang, anomalyLabel(a))
}

// anomalyLabel is the message name (kind.<label>) of anomaly a's word.
func anomalyLabel(a checker.Anomaly) string {
	if a.Kind == checker.KindTokenRegression && a.Repeated {
		return a.Kind + ".repeated"
	}
	if a.Kind == checker.KindOrphanedLease && a.Cause != nil && a.Cause.MinHold {
		return a.Kind + ".kept" // its owner's release kept it: no orphan
	}
	return a.Kind
}

// kindWord is the reader's name of an anomaly kind.
func kindWord(lang Lang, kind string) string {
	if _, ok := messages["en"]["kind."+kind]; ok {
		return tr(lang, "kind."+kind)
	}
	return kind
}

// releaseRemoved tells client's release of key that removed a key: its
// own, or — a plain DEL — another client's (the owner, By, of the key
// lives its Release claims rs say it removed).
func (m *model) releaseRemoved(lang Lang, client, key string, rs []claim.Claim) string {
	if workload.Of(m.h.Header).Permits {
		return tr(lang, "n.release.permit", client, key)
	}
	if m.h.Header.InProcess() {
		return tr(lang, "n.release.mutex", client, key)
	}
	var others []string
	for _, c := range rs {
		if c.By != "" && c.By != client && !containsStr(others, c.By) {
			others = append(others, c.By)
		}
	}
	if len(others) > 0 {
		return tr(lang, "n.release.foreign", client, joinAnd(lang, others), key)
	}
	return tr(lang, "n.release.ok", client, key)
}

// ownLease is the lease a client's op on its key was about: the latest one
// it was granted before the op with the op's owner token.
func (m *model) ownLease(o history.Op) (lease, bool) {
	idx := m.byCK[clientKey{o.Client, o.Key}]
	for q := len(idx) - 1; q >= 0; q-- {
		l := m.leases[idx[q]]
		if l.Start > o.Invoke {
			continue
		}
		if o.Value.Token == "" || l.Token == "" || o.Value.Token == l.Token {
			return l, true
		}
	}
	return lease{}, false
}

// releaseNothing tells a release that removed nothing: how its key had
// left Redis (the account's cause) and who had the lock meanwhile.
//
// The line is told at the release's invoke; where its command reached the
// node later, at a time the page's tenths tell apart, it says when the
// node found the key gone (reader 4, finding 9: "t=31.2s … its key was
// gone" of a check n1 ran at 31.4 s).
func (m *model) releaseNothing(lang Lang, i int, o history.Op) string {
	if m.h.Header.NoLock() {
		return tr(lang, "n.release.nolock", o.Client, o.Key) // no key to have lost, nobody's to meet
	}
	own, ok := m.ownLease(o)
	if !ok || !own.lost() || own.KeyEnd > o.Invoke {
		if owner, ok := m.keyOwnerAt(o.Key, o.Invoke); ok && owner.Client != o.Client {
			return tr(lang, "n.release.none.other", o.Client, o.Key, owner.Client)
		}
		return tr(lang, "n.release.none", o.Client, o.Key)
	}
	t := instant(m.sec(own.KeyEnd))
	if own.Cause.Kind == account.EndPurged {
		return tr(lang, "n.release.permit.gone", o.Client, o.Key, t)
	}
	// When the node ran the release's lookup (the instant told; reader
	// 13), else when the release finished.
	now := opEnd(o, m.end)
	lookupNode, lookupAt, lookedUp := m.ranAt(i)
	if lookedUp {
		now = lookupAt
	}
	var cause string
	switch own.Cause.Kind {
	case account.EndDeleted:
		cause = tr(lang, "n.gone.removed", t, own.Cause.By)
	case account.EndRestored:
		cause = tr(lang, "n.gone.restored", t, own.Cause.By)
	case account.EndJanitor:
		cause = tr(lang, "n.gone.deleted", t)
	case account.EndClock:
		if st, ok := m.step(own.Cause.Step); ok && st.Rate != 0 {
			cause = tr(lang, "n.gone.clock.rate", t) // a clock that ran fast, not one that jumped
		} else {
			cause = tr(lang, "n.gone.clock", t)
		}
	case account.EndCrashed:
		cause = tr(lang, "n.gone.crashed", t, own.CauseNode)
	case account.EndFailover:
		cause = tr(lang, "n.gone.failover", t, own.CauseNode)
		if fate, _, name, ok := m.failoverLoss(lang, own.Cause.Step); ok {
			cause = tr(lang, "n.gone.failover.fate", t, own.CauseNode, fate, name)
			if r, ok := m.copyLost(own.Cause.Step); ok {
				cause = tr(lang, "n.gone.failover.copy", t, own.CauseNode, fate, name, r)
			}
		}
	case account.EndTaken:
		cause = tr(lang, "n.gone.taken", t)
	case account.EndFlushed, account.EndOverwritten:
		cause = tr(lang, "n.gone."+own.Cause.Kind, t)
	case account.EndReleased:
		// A grant that re-entered another client's key (the same owner
		// token): that client's release removed it.
		cause = tr(lang, "n.gone.sharer", t, own.Cause.By)
	default:
		cause = tr(lang, "n.gone.expired", t)
		if lookedUp && lookupNode != own.CauseNode {
			// The node whose lookup is told found its own key gone: its
			// expiry, not the lease's (a Redlock lease ends when its
			// quorum is lost, on another node: a fresh reader of
			// client-clock-skew s33, "n1 … had expired at t=10.1s" of n1's
			// key that ran out at 10.0 s).
			if k, ok := own.life(lookupNode); ok && k.Ended.Kind == account.EndExpired && k.End <= lookupAt {
				cause = tr(lang, "n.gone.expired", instant(m.sec(k.End)))
			}
		} else if k, ok := own.life(own.CauseNode); ok && k.End == own.KeyEnd && k.Deadline >= 0 && k.Deadline < k.End && k.Observed {
			// Its deadline passed while its node was stopped: the TTL ran
			// out then, the node dropped the key when it woke (reader 8,
			// F3: "expired at t=27.0s" after "had run out at t=17.5s").
			cause = tr(lang, "n.gone.thawed", instant(m.sec(k.Deadline)), own.CauseNode, t)
		}
	}
	// Who took the lock after ours ended, and how did theirs end, by now?
	idx := m.byKey[o.Key]
	// Every client that took it in between is named (a fresh reader,
	// issue 27: w3 had taken and released it too, after w2).
	from := sort.Search(len(idx), func(q int) bool { return m.leases[idx[q]].Start >= own.KeyEnd })
	var released, ended []string
	holds := ""
	for _, q := range idx[from:] {
		l := m.leases[q]
		if l.Start > o.Invoke {
			break
		}
		if l.Client == o.Client || l.EndHow == "" {
			continue
		}
		switch {
		case l.KeyEnd > now:
			if holds == "" {
				holds = l.Client
			}
		case l.Cause.Kind == account.EndReleased || l.keptByRelease():
			if !slices.Contains(released, l.Client) {
				released = append(released, l.Client)
			}
		default:
			if !slices.Contains(ended, l.Client) {
				ended = append(ended, l.Client)
			}
		}
	}
	if len(released) > 0 {
		cause += tr(lang, "n.gone.taken.released", joinAnd(lang, released)) + m.keptGone(lang, released, o.Key, own.KeyEnd, now)
	}
	if len(ended) > 0 {
		cause += tr(lang, "n.gone.taken.ended", joinAnd(lang, ended))
	}
	if holds != "" {
		cause += tr(lang, "n.gone.taken.holds", holds)
	}
	if lookedUp && chart.Tenths(m.sec(lookupAt)) != chart.Tenths(m.sec(o.Invoke)) {
		return tr(lang, "n.release.gone.at", o.Client, o.Key, cause, instant(m.sec(lookupAt)), lookupNode)
	}
	return tr(lang, "n.release.gone", o.Client, o.Key, cause)
}

// lossSentence tells how a lock on one node left Redis, for the story:
// how its key life ended, where and by whom, as its KeyLife claim c says
// (the lease's cause when the lock was taken over or purged, which no key
// life's end says); false when another step tells it (a release, a
// foreign DEL, a delete-key fault).
func (m *model) lossSentence(lang Lang, l lease, c claim.Claim, ttl time.Duration) (string, bool) {
	how, node, by, step := l.Cause.Kind, l.CauseNode, l.Cause.By, l.Cause.Step
	if c.ID != "" && how != account.EndTaken && how != account.EndPurged {
		how, node, by, step = c.How, c.Node, c.By, c.Step
	}
	switch how {
	case account.EndCrashed:
		return tr(lang, "n.expired.crash", l.Client, l.Key, node), true
	case account.EndFailover:
		if fate, promoted, _, ok := m.failoverLoss(lang, step); ok {
			if len(c.Nodes) == 1 && c.At > 0 && c.How == account.EndFailover {
				return tr(lang, "n.lost.failover.copy", l.Client, l.Key, node, fate, promoted, c.Nodes[0], instant(m.sec(c.End))), true
			}
			return tr(lang, "n.lost.failover.fate", l.Client, l.Key, node, fate, promoted), true
		}
		return tr(lang, "n.lost.failover", l.Client, l.Key, node), true
	case account.EndClock:
		return tr(lang, m.clockEndKey(step), l.Client, l.Key, node), true
	case account.EndPurged:
		return "", false // told with the semaphore's members
	case account.EndFlushed:
		return tr(lang, "n.flushed", l.Client, l.Key, node), true
	case account.EndOverwritten:
		return tr(lang, "n.overwritten", l.Client, l.Key, node, by), true
	case account.EndTaken:
		return tr(lang, "n.expired.taken", l.Client, l.Key), true
	case account.EndExpired:
		if c.What == claim.Kept {
			// The end that passed was the one its release set (a minimum
			// hold), not its TTL (issue 27, reader finding 9).
			return tr(lang, "n.expired.kept", l.Client, l.Key, instant(m.sec(c.At)), span(m.sec(c.TTL))), true
		}
		if c.What == claim.Thawed {
			// Its TTL ran out while its node was stopped: the key left
			// only when the node woke (a second reader: host-sleep told
			// the wake, t=27.0s, as the expiry of a 10 s TTL that had run
			// out at t=16.7s).
			say := tr(lang, "n.expired.thawed", l.Client, l.Key, c.Node, ttl, instant(m.sec(c.At)))
			if _, paused := m.pausedAt(l.Client, l.KeyEnd); paused {
				say += " " + tr(lang, "n.expired.thawed.paused", l.Client)
			}
			return say, true
		}
		switch _, paused := m.pausedAt(l.Client, l.KeyEnd); {
		case paused:
			return tr(lang, "n.expired.paused", l.Client, l.Key, ttl, l.Client), true
		case l.BelievedEnd > l.KeyEnd:
			return tr(lang, "n.expired.belief", l.Client, l.Key, ttl, l.Client), true
		}
		return tr(lang, "n.expired", l.Client, l.Key, ttl), true
	}
	return "", false
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
		if len(want) == 0 && o.Value.Action != workload.ActionCharge {
			continue
		}
		parts = append(parts, tr(lang, "a.at", o.Client, instant(m.sec(o.Invoke))))
	}
	return strings.Join(parts, ", "), len(parts)
}

// duplicateRunAt tells a duplicate run at the instant it became one, its
// second run (the checker's At): the run before it and that run, and any
// later run of the fire time as later. ok is false for another kind, or
// when at is not one of its runs.
func (m *model) duplicateRunAt(lang Lang, a checker.Anomaly, at int64) (string, bool) {
	if a.Kind != checker.KindDuplicateRun {
		return "", false
	}
	var before, later []string
	second := ""
	for _, i := range m.opsByKey[a.Key] {
		o := m.h.Ops[i]
		if o.F != history.Write || o.Type != history.OK || !slices.Contains(a.Ops, o.Index) {
			continue
		}
		run := tr(lang, "a.at", o.Client, instant(m.sec(o.Invoke)))
		switch {
		case o.Invoke < at:
			before = append(before, run)
		case o.Invoke == at && second == "":
			second = run
		default:
			later = append(later, run)
		}
	}
	if second == "" || len(before) == 0 {
		return "", false
	}
	if len(later) == 0 {
		return tr(lang, "a.duplicate-run.second", a.Key, strings.Join(before, ", "), second), true
	}
	return tr(lang, "a.duplicate-run.second.more", a.Key, strings.Join(before, ", "), second, len(before)+1+len(later), strings.Join(later, ", ")), true
}

// describeAnomaly is one sentence in lang about what an anomaly is; the
// checker's own Explain (English) is shown beside it on the page.
func (m *model) describeAnomaly(lang Lang, a checker.Anomaly) string {
	clients := joinAnd(lang, a.Clients)
	t0, t1 := instant(a.StartS), instant(a.EndS)
	switch a.Kind {
	case checker.KindMutexOverlap:
		if permits, ok := m.h.Header.Params[history.ParamPermits]; ok && workload.Of(m.h.Header).Permits {
			return tr(lang, "a.mutex-overlap.permits", clients, a.Key, t0, t1, permits)
		}
		if len(a.Clients) > 2 {
			return tr(lang, "a.mutex-overlap.many", clients, a.Key, t0, t1)
		}
		stale, current := holderRoles(a)
		if c := a.Cause; c != nil && c.Kind == checker.CauseNodeHeldAnother {
			return tr(lang, "a.mutex-overlap.node", current, a.Key, t0, joinAnd(lang, c.Nodes), stale)
		}
		return tr(lang, "a.mutex-overlap.cause", stale, current, a.Key, t0, t1, m.causeText(lang, a.Cause, stale, current))
	case checker.KindDoubleEffect:
		if list, n := m.chargesOf(lang, a); n >= 2 {
			return tr(lang, "a.double-effect", a.Key, n, list)
		}
		return tr(lang, "a.double-effect.plain", a.Key, clients)
	case checker.KindForeignUnlock:
		if a.Deleter != "" && a.Owner != "" {
			if a.Cause != nil && a.Cause.Kind == account.EndRestored {
				return tr(lang, "a.foreign-unlock.restored", a.Deleter, a.Key, a.Owner, t0)
			}
			return tr(lang, "a.foreign-unlock", a.Deleter, a.Key, a.Owner, t0)
		}
	case checker.KindOrphanedLease:
		if c := a.Cause; a.Owner != "" && c != nil && c.MinHold {
			return tr(lang, "a.orphaned-lease.kept", a.Owner, a.Key, t0, t1, span(a.EndS-a.StartS), orphanWho(lang, a))
		}
		if c := a.Cause; a.Owner != "" && c != nil && c.ExtendedBy != "" {
			return tr(lang, "a.orphaned-lease.extended", a.Owner, a.Key, t0, t1, span(a.EndS-a.StartS), c.ExtendedBy, instant(m.sec(c.Extended)), orphanWho(lang, a))
		}
		if c := a.Cause; a.Owner != "" && c != nil && c.Unbelieved {
			return m.unbelievedOrphan(lang, a)
		}
		if a.Owner != "" {
			return tr(lang, "a.orphaned-lease", a.Owner, a.Key, t0, t1, span(a.EndS-a.StartS), orphanWho(lang, a))
		}
	case checker.KindStaleWriteAccepted:
		if a.Stale != "" && a.Current != "" {
			if m.violatesWith(a, workload.ActionRecordFailure) {
				return tr(lang, "a.stale-write-accepted.record", a.Stale, a.Current, a.Key, instant(a.AtS))
			}
			return tr(lang, "a.stale-write-accepted", a.Stale, a.Current, a.Key, instant(a.AtS))
		}
	case checker.KindNotLinearizable:
		return tr(lang, "a.not-linearizable", a.Key, clients, t0)
	case checker.KindResurrectedLease:
		if s, ok := m.resurrectedText(lang, a); ok {
			return s
		}
	case checker.KindHiddenLapse:
		if s, ok := m.hiddenLapseText(lang, a); ok {
			return s
		}
	case checker.KindTokenRegression:
		return tr(lang, "a.token-regression", clients, a.Key, t0, t1)
	case checker.KindLostUpdate:
		if len(a.Lost) > 0 && len(a.Violating) > 0 {
			// The checker's list of the writes the later one wiped out.
			w := m.h.Ops[a.Violating[len(a.Violating)-1]]
			var lost []string
			for _, i := range a.Lost {
				if i >= 0 && i < len(m.h.Ops) {
					lost = append(lost, tr(lang, "a.lost.of", m.h.Ops[i].Client, instant(m.sec(m.h.Ops[i].Invoke))))
				}
			}
			return tr(lang, pick(len(lost) == 1, "a.lost-update.wiped.one", "a.lost-update.wiped"), w.Client, a.Key, instant(m.sec(w.Invoke)), len(lost), joinAnd(lang, lost))
		}
		return tr(lang, "a.lost-update", a.Key, t0, t1, clients)
	case checker.KindOversell:
		stock, ok := m.h.Header.Params[history.ParamStock]
		var sales []string
		for _, i := range m.opsByKey[a.Key] {
			if o := m.h.Ops[i]; o.F == history.Write && o.Type == history.OK && o.Value.Action == workload.ActionSell && o.Invoke <= a.End {
				sales = append(sales, tr(lang, "a.at", o.Client, instant(m.sec(o.Invoke))))
			}
		}
		if ok {
			return tr(lang, "a.oversell", a.Key, len(sales), stock, strings.Join(sales, ", "))
		}
		return tr(lang, "a.oversell.plain", a.Key, clients)
	case checker.KindDuplicateRun:
		if list, n := m.chargesOf(lang, a); n >= 2 {
			return tr(lang, "a.duplicate-run", a.Key, n, list)
		}
	case checker.KindSplitBrain:
		if s, ok := m.splitBrainText(lang, a, t0); ok {
			return s
		}
		return tr(lang, "a.split-brain", clients, a.Key, t1, t0)
	case checker.KindOverAdmission:
		return tr(lang, "a.over-admission", clients, a.Key, t0, t1, m.h.Header.Params[history.ParamPermits])
	case checker.KindDuplicateWork:
		return tr(lang, "a.duplicate-work", clients, a.Key, t0, t1)
	case checker.KindStuckLock:
		// Held since the holder took it; stuck (nobody using it) from when
		// it stopped using it, which the clause tells (issue 27: "held
		// since t=0.2s" of a lock used until its release was lost at 3.2 s).
		since, quit := t0, ""
		if a.Quit != "" {
			since, quit = instant(m.sec(a.Since)), tr(lang, "a.stuck.quit."+a.Quit, t0)
		}
		if dead := m.crashedClients(); len(dead) > 0 {
			// A crashed client never comes back: not every fault healed.
			// The sentence says it is dead: no clause tells its crash again.
			return tr(lang, "a.stuck-lock.dead", a.Key, clients, since, joinAnd(lang, dead), pick(a.Quit == checker.QuitCrashed, "", quit))
		}
		// No fault in the plan: none healed (teacher 9, F3). Renewals that
		// kept the key to the end say why it was still held.
		k := pick(len(m.faults) == 0, "a.stuck-lock.nofault", "a.stuck-lock")
		if c := a.Cause; c != nil && c.Kind == checker.CauseRenewed && c.Renewed > 0 {
			return tr(lang, k+".renewed"+pick(quit != "", ".quit", ""), a.Key, clients, since, instant(m.sec(c.Renewed)), quit)
		}
		return tr(lang, k, a.Key, clients, since, "", quit)
	case checker.KindUnavailable:
		return m.unavailableText(lang, a, t0, t1)
	}
	if ak, ok := workload.AnomalyOf(a.Kind); ok && ak.Describe != nil {
		if w, ok := ak.Describe(m.h, a); ok {
			return say(lang, w) // a workload's own kind, told from its data
		}
	}
	return tr(lang, "a.generic", kindWord(lang, anomalyLabel(a)), clients, a.Key, t0, t1)
}

// whyAnomaly says why an anomaly matters: a correctness problem (data is
// wrong), only an efficiency one (work was wasted: duplicate work, or any
// broken lock of an efficiency-lock workload), or liveness.
func (m *model) whyAnomaly(lang Lang, a checker.Anomaly) string {
	switch {
	case a.Kind == checker.KindDuplicateWork:
		return tr(lang, "why.duplicate-work")
	case a.Kind == checker.KindStuckLock || a.Kind == checker.KindUnavailable || a.Kind == checker.KindOrphanedLease:
		if a.Harmless == checker.HarmlessMinHold {
			return tr(lang, "why.min-hold")
		}
		if a.Harmless == checker.HarmlessBusy {
			return tr(lang, "why."+a.Kind) + tr(lang, "why.liveness.busy")
		}
		if a.Informational && a.Harmless == checker.HarmlessBounded {
			return tr(lang, "why."+a.Kind) + tr(lang, "why.liveness.bounded")
		}
		if a.Informational {
			return tr(lang, "why."+a.Kind) + tr(lang, "why.liveness.info")
		}
		return tr(lang, "why."+a.Kind)
	case a.Harmless == checker.HarmlessUncontended:
		return tr(lang, "why."+a.Kind) + tr(lang, "why.hidden-lapse.uncontended")
	case a.Informational && workload.Of(m.h.Header).Efficiency:
		return tr(lang, "why.efficiency")
	case a.Informational && slices.Contains([]string{checker.HarmlessFencedOrder, checker.HarmlessClaimOrder,
		checker.HarmlessFenced, checker.HarmlessNoWrite, checker.HarmlessCheckAndSet, checker.HarmlessIdempotent}, a.Harmless):
		// A correctness lock whose resource's own check prevented the
		// harm: "efficiency only" is lesson 42's word for a lock that
		// saves work, not for this (teacher 4, #21).
		return m.harmPrevented(lang, a)
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

// missedSteps names the plan steps (by ID) that never took effect, in lang:
// "step #1 (GC pause on w1, the 3-th time w1 reaches …)".
func (m *model) missedSteps(lang Lang, ids []int) string {
	var parts []string
	for _, id := range ids {
		for _, st := range m.h.Header.Plan {
			if st.ID == id {
				parts = append(parts, tr(lang, "step.missed", st.ID, faultWord(lang, st), joinAnd(lang, targetsOf(st)), m.whenText(lang, st.Trigger)))
			}
		}
	}
	return joinAnd(lang, parts)
}

// whenText tells a step's trigger in lang, scenario time.
func (m *model) whenText(lang Lang, t history.Trigger) string {
	switch t.Kind {
	case history.TriggerPoint:
		if t.Occurrence <= 1 {
			return tr(lang, "when.point", t.Client, m.pointWord(lang, t.Point))
		}
		return tr(lang, "when.point.nth", ordinal(lang, t.Occurrence), t.Client, m.pointWord(lang, t.Point))
	case history.TriggerEvent:
		if t.Event == history.EventGrantedBy {
			return tr(lang, "when.granted", m.sdur(t.Delay), t.Client, t.Node)
		}
		return tr(lang, "when.event", m.sdur(t.Delay), t.Client)
	case history.TriggerManual:
		return tr(lang, "when.manual", instant(m.sec(t.At)))
	}
	if t.At <= 0 {
		return tr(lang, "when.start")
	}
	return tr(lang, "when.at", instant(m.sec(t.At)))
}

// ordinal is "2nd", "3rd", "11th" in English (history.Ordinal) and the
// plain number in Vietnamese ("lần thứ 3").
func ordinal(lang Lang, n int) string {
	if lang != "en" {
		return strconv.Itoa(n)
	}
	return history.Ordinal(n)
}

// violatesWith reports whether one of the writes that are the anomaly's
// violation (the checker's Violating) has the given action.
func (m *model) violatesWith(a checker.Anomaly, action string) bool {
	for _, i := range a.Violating {
		if i >= 0 && i < len(m.h.Ops) && m.h.Ops[i].Value.Action == action {
			return true
		}
	}
	return false
}
