package checker

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// DefaultUnavailableBound is the unavailable bound, in scenario time, for a
// key whose grants record no TTL.
const DefaultUnavailableBound = 10 * time.Second

// Liveness is the liveness checker (design §8; lock-theory §8.1 "liveness
// findings", S14, S15b, S24). Liveness is not safety: Jepsen reports
// availability separately from correctness, so its findings are
// Informational unless the scenario asks for liveness with
// Header.Params["expect_live"] == 1, in which case they are violations.
// (A scenario that expects liveness but recorded no probe gives Unknown.)
//
// Rules, per key:
//
//   - The final probe (history.Probe, one per key after every fault
//     healed; the runner types it ok when it acquired within its bound)
//     failed or got no answer (info), and the key was still held: some
//     client's grant (ok acquire; an info acquire counts from its invoke)
//     was not followed by that client's removing release (the key a node
//     held then names it; only where the nodes were not observed do the
//     clients' outcomes), and it was
//     granted at least its TTL before the probe (TTL 0 = a lock with no
//     expiry: at once) → stuck-lock. The holder's lease should have run
//     out (a crashed client, S24) or is being renewed for ever (a hung
//     worker under a watchdog, S15b).
//   - The probe failed otherwise → unavailable: no one held the key past
//     its lease, yet the lock could not be taken.
//   - During the run: a client's acquire of the key was refused while no
//     lease could be live, and no acquire of the key succeeded (and no node
//     took the lock) for longer than the bound after that refusal →
//     unavailable, window [first such refusal, next grant, next key a node
//     set, or end of history]. Where every node was observed, the nodes'
//     record says whether a lease was live (heldCover: a key on a node is
//     one while the TTL it was set with runs, to the deadline its owner's
//     own extends gave it, and while its owner still believes it holds the
//     lock; a grant no observed key backs counts by its client's
//     outcomes); elsewhere the clients' outcomes do, and the summary says
//     so: every grant's lease had ended (released, or its TTL since the
//     grant or the last ok extend had passed; an info acquire counts as a
//     lease from its invoke unless the nodes show it never reached them,
//     an extend of unknown outcome renews unless it renewed nothing
//     there). The bound is Header.Params["unavailable_ns"] (wall ns)
//     when set, else the key's longest recorded lease TTL (a free lock that
//     stays ungrantable for a whole lease is down, not busy), else 10 s.
func Liveness(ctx context.Context, h history.History) Result { return liveness(ctx, account.New(h)) }

func liveness(ctx context.Context, a *account.Account) Result {
	h := a.H
	expect := h.Header.Params[history.ParamExpectLive] == 1
	eoh := h.End()
	type keyOps struct{ lock, probes []int }
	per := map[string]*keyOps{}
	var keys []string
	get := func(k string) *keyOps {
		if per[k] == nil {
			per[k] = &keyOps{}
			keys = append(keys, k)
		}
		return per[k]
	}
	for i := range h.Ops {
		op := &h.Ops[i]
		switch {
		case op.F == history.Probe && op.Key != "":
			get(op.Key).probes = append(get(op.Key).probes, i)
		case isClientOp(*op) && (op.F == history.Acquire || op.F == history.Release || op.F == history.Extend):
			get(op.Key).lock = append(get(op.Key).lock, i)
		}
	}
	sort.Strings(keys)
	var anomalies []Anomaly
	probes, probeFails, stretches, orphaned, refused := 0, 0, 0, 0, 0
	inferred := false           // a refusal was judged by the clients' outcomes, not the nodes' record
	var lastOf map[string]int64 // latest instant per client, built on first use
	lastInstant := func(client string) int64 {
		if lastOf == nil {
			lastOf = lastInstants(h)
		}
		return lastOf[client]
	}
	believed := beliefEnds(a) // once: it reads every hold, of every key
	for _, k := range keys {
		if err := ctx.Err(); err != nil {
			return Result{Checker: CheckerLiveness, Verdict: Unknown, Summary: "not checked: " + err.Error()}
		}
		ko := per[k]
		for _, i := range ko.lock {
			if op := h.Ops[i]; op.F == history.Acquire && op.Type == history.Fail {
				refused++
			}
		}
		sortIdx(h, ko.lock, invokeOf)
		_, maxTTL := leaseWindows(a, ko.lock, eoh, nil)
		cover := newHeldCover(a, k, ko.lock, eoh, believed)
		var failed []Anomaly
		for _, p := range ko.probes {
			probes++
			pr := h.Ops[p]
			if pr.Type == history.OK && pr.Complete >= 0 {
				continue
			}
			probeFails++
			failed = append(failed, probeAnomaly(a, ko.lock, pr, eoh, lastInstant))
		}
		bound := maxTTL
		if ns, ok := h.Header.Params[history.ParamUnavailableNS]; ok && ns > 0 {
			bound = ns
		} else if bound <= 0 {
			bound = h.Header.Wall(DefaultUnavailableBound)
		}
		st := refusedLocally(a, unavailableStretches(h, k, ko.lock, ko.probes, cover, bound, eoh))
		failed, st = outages(a, ko.lock, cover, failed, st)
		inferred = inferred || cover.inferred
		stretches += len(st)
		anomalies = append(anomalies, failed...)
		anomalies = append(anomalies, st...)
	}
	for i := range anomalies {
		anomalies[i].Informational = !expect
		if anomalies[i].Informational {
			anomalies[i].Harmless = HarmlessLiveness
		}
	}
	// Orphaned leases are reported for their duration; they break what a
	// scenario expects only when no TTL bounded them. Why one is
	// informational is said as what it is: the scenario does not ask for
	// liveness, or (it does) a TTL bounded it — never the first for the
	// second (issue 27, a fresh reader: "this scenario does not ask for
	// liveness" on a page of a scenario with expect_live: true).
	kept := 0
	for _, o := range orphanedLeases(a, keys) {
		switch {
		case o.an.Cause != nil && o.an.Cause.MinHold:
			// Kept on purpose by its owner's release: no orphan.
			o.an.Informational, o.an.Harmless = true, HarmlessMinHold
			anomalies = append(anomalies, o.an)
			kept++
			continue
		case !expect:
			o.an.Informational, o.an.Harmless = true, HarmlessLiveness
		case !o.unbounded:
			o.an.Informational, o.an.Harmless = true, HarmlessBounded
		}
		anomalies = append(anomalies, o.an)
		orphaned++
	}
	policy := "informational: the scenario does not set expect_live"
	if expect {
		policy = "the scenario expects liveness"
	}
	var parts []string
	switch {
	case probes == 0:
		// With no final probe, what liveness judges is the run's refused
		// acquires alone (a stretch unavailable, an orphaned lease): the
		// summary says so, never a bare "no final probe" beside VALID
		// (reader 13, inventory-oversell).
		parts = append(parts, fmt.Sprintf("the run's refused acquires alone were judged (%s): no final probe ran", plural(refused, "refused acquire", "refused acquires")))
	case probeFails == 0:
		parts = append(parts, fmt.Sprintf("%s succeeded", plural(probes, "final probe", "final probes")))
	default:
		parts = append(parts, fmt.Sprintf("%d of %s failed", probeFails, plural(probes, "final probe", "final probes")))
	}
	if stretches > 0 {
		parts = append(parts, plural(stretches, "stretch unavailable", "stretches unavailable"))
	}
	if orphaned > 0 {
		parts = append(parts, plural(orphaned, "orphaned lease", "orphaned leases"))
	}
	if kept > 0 {
		parts = append(parts, plural(kept, "key", "keys")+" kept for the minimum hold")
	}
	summary := strings.Join(parts, ", ")
	if len(anomalies) > 0 {
		summary += " (" + policy + ")"
	}
	if inferred {
		summary += "; where the nodes were not observed, whether the lock was free is inferred from the clients' outcomes"
	}
	counts := map[string]int{claim.FinalProbes: probes, claim.FailedProbes: probeFails}
	if probes == 0 {
		counts[claim.RefusedAcquires] = refused
	}
	if expect && probes == 0 {
		return Result{Checker: CheckerLiveness, Verdict: Unknown, Anomalies: anomalies,
			Summary: "the scenario expects liveness but recorded no final probe", Counts: counts}
	}
	if probes == 0 && refused == 0 && len(anomalies) == 0 {
		// No probe and no refusal: nothing of liveness was judged, and a
		// VALID row would read as checked and fine (as fencing without
		// tokens).
		return Result{Checker: CheckerLiveness, Verdict: Valid, NotChecked: true, Counts: counts,
			Summary: "not checked: no final probe, and no acquire was refused"}
	}
	return Result{Checker: CheckerLiveness, Verdict: verdictOf(anomalies), Summary: summary, Anomalies: anomalies, Counts: counts}
}

// leaseWindows returns the true-time windows in which some lease on the key
// may be live by the clients' outcomes alone (see Liveness), and the
// longest TTL recorded (true ns). An acquire of unknown outcome that the
// nodes' record shows never reached them is no lease, and an extend of
// unknown outcome that renewed nothing there (its script found no key of
// its own, or it never arrived) stretches none (neverReached,
// renewedNothing).
//
// keep, when not nil, chooses the acquires (history index) whose leases
// count.
func leaseWindows(a *account.Account, lock []int, eoh int64, keep func(int) bool) (windows [][2]int64, maxTTL int64) {
	h := a.H
	for _, i := range lock {
		if op := h.Ops[i]; op.F == history.Acquire {
			maxTTL = max(maxTTL, op.Value.TTL)
		}
	}
	// each lock op's client's next lock op on the key (position in lock, -1 none)
	next := make([]int, len(lock))
	lastAt := map[string]int{}
	for n := len(lock) - 1; n >= 0; n-- {
		c := h.Ops[lock[n]].Client
		next[n] = -1
		if j, ok := lastAt[c]; ok {
			next[n] = j
		}
		lastAt[c] = n
	}
	for n, i := range lock {
		op := h.Ops[i]
		if op.F != history.Acquire || op.Type == history.Fail || neverReached(a, i) || (keep != nil && !keep(i)) {
			continue
		}
		start := op.Complete
		if open(op) {
			start = op.Invoke
		}
		ttl := op.Value.TTL
		if ttl <= 0 && open(op) {
			ttl = maxTTL
		}
		end := eoh
		renewed := start
		released := false
		for m := next[n]; m >= 0; m = next[m] {
			o := &h.Ops[lock[m]]
			if o.F == history.Acquire {
				break // a new lease of this client starts its own window
			}
			switch {
			case o.F == history.Extend && o.Type == history.OK && o.Complete >= 0:
				renewed = o.Complete
				if t := o.Value.TTL; t > 0 {
					ttl = t
				}
			case o.F == history.Extend && open(*o) && o.Invoke <= renewed+ttl && !renewedNothing(a, lock[m]):
				// An extend of unknown outcome may have renewed the
				// lease, from its invoke on.
				renewed = max(renewed, o.Invoke)
				if t := o.Value.TTL; t > 0 {
					ttl = t
				}
			}
			if o.F == history.Release && o.Type == history.OK && o.Value.Removed {
				end, released = o.Invoke, true
				break
			}
		}
		switch {
		case released && !deletesByKey(h):
			// A removing release by the owner's token proves the key lived
			// until then, renewed or not.
		case ttl > 0:
			end = min(end, renewed+ttl)
		case !released:
			end = eoh
		}
		windows = append(windows, [2]int64{start, max(end, start)})
	}
	return windows, maxTTL
}

// refusedAt returns, for a refused acquire i, when it met the key that
// refused it: when a node ran its client's last command on its key within
// it (a frozen node runs a queued SET NX when it wakes, seconds after the
// invoke: a second reader found w3's refusal by its own key counted
// against w1's orphan, which had expired before that SET ran), else its
// invoke.
func refusedAt(a *account.Account) func(i int) int64 {
	h := a.H
	last := map[int]int64{}
	for j, ev := range h.Ops {
		if ev.F != history.NodeCmd {
			continue
		}
		if i := a.OpOf(j); i >= 0 && h.Ops[i].F == history.Acquire && h.Ops[i].Type == history.Fail && ev.Key == h.Ops[i].Key {
			last[i] = max(last[i], ev.Invoke)
		}
	}
	return func(i int) int64 {
		if t, ok := last[i]; ok {
			return t
		}
		return h.Ops[i].Invoke
	}
}

// queuedGrant returns the acquire a node ran the SET of key life l after
// the acquire had ended without an answer (a frozen node runs what it
// queued when it wakes), which the account's window match leaves
// unmatched: the last acquire of l's owner on its key answered info before
// l started, holding l's value as its token or recording none; -1 when
// none.
func queuedGrant(h history.History, l account.KeyLife) int {
	if !l.Observed {
		return -1
	}
	g := -1
	for i, op := range h.Ops {
		if op.F == history.Acquire && op.Process >= 0 && op.Client == l.Owner && op.Key == l.Key && op.Type == history.Info &&
			op.Complete >= 0 && op.Complete < l.Start && (op.Value.Token == "" || op.Value.Token == l.Value) {
			g = i
		}
	}
	return g
}

// setsDuring counts the SET commands of op's client on key that a node ran
// within op's window and inside [from, to): the attempts of a granted
// acquire that met a key standing then.
func setsDuring(h history.History, op history.Op, key string, from, to int64) int {
	n := 0
	end := op.Complete
	if end < 0 {
		end = to
	}
	for _, ev := range h.Ops {
		if ev.F == history.NodeCmd && ev.Client == op.Client && ev.Invoke >= max(from, op.Invoke) && ev.Invoke < min(to, end) &&
			len(ev.Value.Cmd) > 1 && strings.EqualFold(ev.Value.Cmd[0], "set") && ev.Value.Cmd[1] == key {
			n++
		}
	}
	return n
}

// orphan is one orphaned-lease finding and whether a TTL bounded it.
type orphan struct {
	an        Anomaly
	unbounded bool
}

// orphanedLeases finds the keys held on a node by a token that no live
// client believes it holds — its owner's believed hold had ended (it
// crashed, gave the lease up, or decided it was lost) — while other
// clients were refused the lock (bug-reports-2 BR-31's ghost, BR-34). The
// window runs from the end of the owner's belief to the key's end; a key
// its owner's own release removed, and a window shorter than a tenth of
// the lease's TTL and than a second of scenario time, is a release in
// flight, not an orphan (a 24 h lease's orphan is found within the run).
// One finding per grant: its longest node.
func orphanedLeases(a *account.Account, keys []string) []orphan {
	h := a.H
	if h.Header.Params[history.ParamLockPerFire] == 1 {
		return nil // a lock per fire time is left to expire by design
	}
	lockKey := map[string]bool{}
	for _, k := range keys {
		lockKey[k] = true
	}
	holdEnd := beliefEnds(a)
	refusals := map[string][]int{} // key → refused acquires (by invoke)
	for i, op := range h.Ops {
		if op.F == history.Acquire && op.Type == history.Fail && isClientOp(op) && !a.RefusedLocally(i) {
			// An acquire refused without reaching Redis (its process's
			// local lock) was not refused by the key (reader 15).
			refusals[op.Key] = append(refusals[op.Key], i)
		}
	}
	ranAt := refusedAt(a)
	waited := map[string][]int{} // key → granted acquires and probes (by invoke)
	for i, op := range h.Ops {
		if (op.F == history.Acquire || op.F == history.Probe) && op.Type == history.OK && op.Process >= 0 {
			waited[op.Key] = append(waited[op.Key], i)
		}
	}
	best := map[int]orphan{}
	for _, l := range a.Keys() {
		if l.Grant < 0 && lockKey[l.Key] {
			l.Grant = queuedGrant(h, l) // a SET a frozen node ran after its acquire gave up
		}
		if l.Grant < 0 || !lockKey[l.Key] || h.Ops[l.Grant].F != history.Acquire {
			continue
		}
		g := h.Ops[l.Grant]
		from, believed := holdEnd[g.Index]
		if !believed {
			// The client never believed it held this grant (its acquire's
			// outcome was unknown to it, and it did not act on it).
			from = max(l.Start, g.Invoke)
			if g.Complete >= 0 {
				from = max(l.Start, g.Complete)
			}
		}
		if from >= l.End {
			continue
		}
		if l.Ended.Kind == account.EndReleased && l.Ended.By == l.Owner {
			continue // its owner's own release, in flight when its belief ended
		}
		ttl := g.Value.TTL
		if l.Observed {
			ttl = max(l.TTL, 0) // the node's own: a library's PX, not the TTL its client recorded
		}
		if ttl > 0 && l.End-from < min(ttl/10, h.Header.Wall(time.Second)) {
			continue
		}
		var refused []int
		var who []string
		for _, i := range refusals[l.Key] {
			op := h.Ops[i]
			if t := ranAt(i); op.Client != l.Owner && t >= from && t < l.End {
				refused = append(refused, op.Index)
				if !slices.Contains(who, op.Client) {
					who = append(who, op.Client)
				}
			}
		}
		for _, i := range waited[l.Key] {
			op := h.Ops[i]
			if n := setsDuring(h, op, l.Key, max(from, l.Start), l.End); op.Client != l.Owner && n > 0 {
				// A grant (a final probe) that retried while the key stood:
				// each of its SETs then was refused by it.
				for range n {
					refused = append(refused, op.Index)
				}
				if !slices.Contains(who, op.Client) {
					who = append(who, op.Client)
				}
			}
		}
		if len(refused) == 0 {
			continue
		}
		if prev, ok := best[l.Grant]; ok && prev.an.End-prev.an.Start >= l.End-from {
			continue
		}
		end := "until the end of the run"
		if l.Ended.Kind != account.EndHeld {
			end = fmt.Sprintf("until %s (%s)", at(h, l.End), l.Ended.Kind)
		}
		on := ""
		if l.Node != "" {
			on = " on " + l.Node
		}
		after := fmt.Sprintf("%s after %s stopped believing it held it", secs(h, l.End-from), l.Owner)
		if !believed {
			after = fmt.Sprintf("%s, though %s never believed it held it (its acquire got no answer)", secs(h, l.End-from), l.Owner)
		}
		explain := fmt.Sprintf("%s's key %s stayed%s from %s %s, %s, while %s %s refused %s",
			l.Owner, l.Key, on, at(h, from), end, after, strings.Join(who, " and "), pick(len(who) == 1, "was", "were"), plural(len(refused), "time", "times"))
		minHold := l.Kept != nil && l.ExpiredAsKept() && h.Ops[l.Kept.Release].Client == l.Owner
		if minHold {
			explain = fmt.Sprintf("%s's release kept its key %s%s for the lock's minimum hold: its command at %s set the key to expire then, and it stood %s, while %s %s refused %s; a key kept on purpose, not an orphan",
				l.Owner, l.Key, on, at(h, l.Kept.At), end, strings.Join(who, " and "), pick(len(who) == 1, "was", "were"), plural(len(refused), "time", "times"))
		}
		an := newAnomaly(h, KindOrphanedLease, l.Key, append([]string{l.Owner}, who...), from, l.End, explain, append([]int{g.Index}, refused...)...)
		an.Owner = l.Owner
		an.Cause = &Cause{Kind: l.Ended.Kind, Client: l.Owner, Nodes: []string{l.Node}, At: l.End, By: l.Ended.By, Step: l.Ended.Step, TTL: ttl, Observed: l.Observed}
		an.Cause.Unbelieved = !believed
		if minHold {
			an.Cause.MinHold, an.Cause.Kept = true, l.Kept.At
		}
		if r := lastRenewal(h, l.Owner, l.Key, from, l.End+1); r > 0 {
			an.Cause.Renewed = r // its renewer went on after its belief ended
		}
		for _, mv := range l.Moves {
			if !mv.Clock && mv.By != "" && mv.By != l.Owner && mv.By != history.AdminClient && mv.At >= from && mv.At <= l.End {
				an.Cause.ExtendedBy, an.Cause.Extended = mv.By, mv.At // another client's extend kept it
			}
		}
		if c := an.Cause; c.ExtendedBy != "" {
			an.Explain += fmt.Sprintf("; %s's commands kept extending it, the last at %s, though the key was not %s's", c.ExtendedBy, at(h, c.Extended), c.ExtendedBy)
		}
		unbounded := l.Ended.Kind == account.EndHeld || ttl <= 0 || l.End-from > ttl
		an.Cause.Bounded = !unbounded && l.Ended.Kind == account.EndExpired
		best[l.Grant] = orphan{an: an, unbounded: unbounded}
	}
	out := make([]orphan, 0, len(best))
	for _, o := range best {
		out = append(out, o)
	}
	slices.SortFunc(out, func(x, y orphan) int { return cmp.Compare(x.an.Start, y.an.Start) })
	return out
}

// beliefEnds maps each acquire (history index) to the end of its owner's
// belief that it holds the key that acquire granted: its believed hold's
// end; to the end of the run for a hold the client never ended (a job that
// hangs, a pause the run's end cut short); to its release for a client out
// of its critical section that still means to release (done).
func beliefEnds(a *account.Account) map[int]int64 {
	h := a.H
	out := map[int]int64{}
	releases := releaseTimes(h)
	for _, hd := range a.Holds {
		end := hd.End
		if hd.Ended == account.HoldLast {
			end = max(end, h.End())
		}
		if hd.Ended == account.HoldDone {
			end = nextRelease(releases[[2]string{hd.Client, hd.Key}], hd.End)
		}
		out[hd.Acquire] = max(out[hd.Acquire], end)
	}
	return out
}

// deletesByKey reports whether h's algorithm releases with a plain DEL,
// whatever the key's owner (naive): its removing release proves nothing
// about its own lease.
func deletesByKey(h history.History) bool { return h.Header.DeletesByKey() }

// leaseCover answers "is t inside some window [start, end)" by binary
// search: the windows sorted by start, with the running maximum of their
// ends.
type leaseCover struct{ start, maxEnd []int64 }

func newLeaseCover(ws [][2]int64) leaseCover {
	s := slices.Clone(ws)
	slices.SortFunc(s, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
	c := leaseCover{start: make([]int64, len(s)), maxEnd: make([]int64, len(s))}
	for j, w := range s {
		c.start[j], c.maxEnd[j] = w[0], w[1]
		if j > 0 {
			c.maxEnd[j] = max(c.maxEnd[j], c.maxEnd[j-1])
		}
	}
	return c
}

func (c leaseCover) covered(t int64) bool {
	n := sort.Search(len(c.start), func(j int) bool { return c.start[j] > t })
	return n > 0 && c.maxEnd[n-1] > t
}

func unavailableStretches(h history.History, key string, lock, probes []int, cover *heldCover, bound, eoh int64) []Anomaly {
	var grants []int64
	// The final probe's grant ends a stretch too: it is an acquire that
	// succeeded (a stretch told to the end of the run through it was false).
	for _, i := range append(slices.Clone(lock), probes...) {
		if op := h.Ops[i]; (op.F == history.Acquire || op.F == history.Probe) && op.Type == history.OK && op.Complete >= 0 {
			grants = append(grants, op.Complete)
		}
	}
	sort.Slice(grants, func(a, b int) bool { return grants[a] < grants[b] })
	var out []Anomaly
	until := int64(-1) // refusals before this are inside a reported stretch
	for _, i := range lock {
		op := h.Ops[i]
		if op.F != history.Acquire || op.Type != history.Fail || op.Invoke < until || cover.covered(op.Invoke) {
			continue
		}
		end := eoh
		if j := sort.Search(len(grants), func(j int) bool { return grants[j] > op.Invoke }); j < len(grants) {
			end = grants[j]
		}
		if t, ok := cover.takenAfter(op.Invoke); ok && t < end {
			end = t // a SET the node ran took the lock, whatever its client was told
		}
		until = end
		if end-op.Invoke <= bound {
			continue
		}
		// The outage began earlier where the clients refused before this
		// refusal met no believed hold, only a lease whose holder was gone
		// (scheduler-heartbeat-foreign-queue: w2 refused from 11.1 s, after
		// w1 died at 10.0 s, though w1's TTL ran to 19.1 s).
		start := op.Invoke
		if r := runUp(cover.a, key, lock, cover, op.Invoke); len(r) > 0 {
			start = h.Ops[r[0]].Invoke
		}
		var clients []string
		var ops []int
		// lock is sorted by Invoke: the ops invoked in [start, end) are contiguous
		from := sort.Search(len(lock), func(j int) bool { return h.Ops[lock[j]].Invoke >= start })
		for _, j := range lock[from:] {
			o := &h.Ops[j]
			if o.Invoke >= end {
				break
			}
			if o.F == history.Acquire && o.Type == history.Fail {
				clients = append(clients, o.Client)
				if len(ops) < 20 {
					ops = append(ops, o.Index)
				}
			}
		}
		free := fmt.Sprintf("no client believed it held %s", key)
		if cover.observedAt(op.Invoke) {
			free = fmt.Sprintf("no node held the key of a client that still believed it held %s", key)
		}
		explain := fmt.Sprintf("%s, yet no acquire succeeded from %s to %s (%s > the bound of %s); the lock was unavailable",
			free, at(h, op.Invoke), at(h, end), secs(h, end-op.Invoke), secs(h, bound))
		var cause *Cause
		if start < op.Invoke {
			explain = fmt.Sprintf("no client believed it held %s, yet no acquire succeeded from %s to %s (%s); from %s no lease could be live, and none was granted for %s > the bound of %s; the lock was unavailable",
				key, at(h, start), at(h, end), secs(h, end-start), at(h, op.Invoke), secs(h, end-op.Invoke), secs(h, bound))
			if k, until, by, last, ok := cover.keptByOthers(op.Invoke); ok {
				// The key stood, live in Redis, kept by others' extends: no
				// one's lease, but not "no lease could be live" (reader 7,
				// F2: w2's heartbeat kept w1's key to t=39.3 s), and from
				// when the lease ran out, not from the refusal that opened
				// the stretch (reader 8, F1).
				explain = fmt.Sprintf("no client believed it held %s, yet no acquire succeeded from %s to %s (%s); no client's lease was live from %s, when %s's ran out, though %s's extends kept %s's key on %s, the last at %s, until %s; from %s none was granted for %s > the bound of %s; the lock was unavailable",
					key, at(h, start), at(h, end), secs(h, end-start), at(h, until), k.Owner, strings.Join(by, " and "), k.Owner, k.Node, at(h, last), at(h, k.End),
					at(h, op.Invoke), secs(h, end-op.Invoke), secs(h, bound))
				cause = &Cause{Kind: CauseKeptByOthers, Client: k.Owner, Nodes: []string{k.Node}, At: k.End, ExtendedBy: by[0], Extended: last,
					LeaseEnd: until, Observed: true}
			}
		}
		an := newAnomaly(h, KindUnavailable, key, clients, start, end, explain, ops...)
		an.Cause = cause
		out = append(out, an)
	}
	return out
}

// outages tells each failed final probe's unavailable finding as the
// outage it ends, one finding per outage:
//
//   - where an unavailable stretch of the key found during the run already
//     spans the probe, the probe joins it: one outage, not two nested ones
//     (fair-lock-dead-waiter: w3 refused from 10.3 s, the probe from 45.0
//     s, both to the end of the run);
//   - else its window starts at the first refusal of the key's run of
//     refusals before the probe (runUp): from then on the lock could be
//     had by no client that tried (scheduler-mutex-24h: w2 refused at
//     every fire from 60.1 s, not only the probe from 240.1 s; a run of
//     refusals shorter than the key's TTL is no stretch of its own).
func outages(a *account.Account, lock []int, cover *heldCover, probes, stretches []Anomaly) ([]Anomaly, []Anomaly) {
	h := a.H
	var kept []Anomaly
	for _, pa := range probes {
		if pa.Kind != KindUnavailable {
			kept = append(kept, pa)
			continue
		}
		if j := slices.IndexFunc(stretches, func(s Anomaly) bool { return s.Start <= pa.Start && pa.End <= s.End }); j >= 0 {
			s := &stretches[j]
			s.Ops = append(s.Ops, pa.Ops...)
			s.Explain += fmt.Sprintf("; the final probe, from %s, was refused too", at(h, pa.Start))
			continue
		}
		refused := runUp(a, pa.Key, lock, cover, pa.Start)
		if len(refused) == 0 {
			kept = append(kept, pa)
			continue
		}
		var who []string
		for _, i := range refused {
			if c := h.Ops[i].Client; !slices.Contains(who, c) {
				who = append(who, c)
			}
		}
		from := h.Ops[refused[0]].Invoke
		explain := fmt.Sprintf("from %s on no acquire of %s succeeded: %s %s refused %s, no client believing it held the lock, and %s",
			at(h, from), pa.Key, strings.Join(who, " and "), pick(len(who) == 1, "was", "were"), plural(len(refused), "time", "times"), pa.Explain)
		var ops []int
		for _, i := range refused[:min(len(refused), 20)] {
			ops = append(ops, h.Ops[i].Index)
		}
		ops = append(ops, pa.Ops...)
		an := newAnomaly(h, KindUnavailable, pa.Key, who, from, pa.End, explain, ops...)
		an.Cause = pa.Cause
		kept = append(kept, an)
	}
	return kept, stretches
}

// runUp is the run of refused client acquires of key (history indices,
// by invoke) that leads up to instant t with the lock never obtainable in
// between: walking back from t, it stops at an acquire that was granted
// or whose outcome is unknown, at a refusal while some client believed it
// held the key (its believed hold, to the end beliefEnds gives it: a
// crashed holder's key outliving its belief is the outage, not a holder),
// and at a refusal after which a node took the lock before t.
func runUp(a *account.Account, key string, lock []int, cover *heldCover, t int64) []int {
	h := a.H
	beliefs := beliefEnds(a)
	believed := func(at int64) bool {
		return slices.ContainsFunc(a.Holds, func(hd account.Hold) bool {
			return hd.Key == key && hd.Start <= at && at < beliefs[hd.Acquire]
		})
	}
	// When the key's grants completed, sorted: a refusal after which a
	// grant completed before t is no part of an outage that ends at t,
	// though that acquire was invoked before it (issue 27's sweep, seed
	// 1157: w1's SET ran before w2's refused acquire was invoked, and w1
	// was told it held the lock after).
	var granted []int64
	for _, i := range lock {
		if op := h.Ops[i]; op.F == history.Acquire && op.Type == history.OK && op.Complete >= 0 {
			granted = append(granted, op.Complete)
		}
	}
	slices.Sort(granted)
	var out []int
	for n := len(lock) - 1; n >= 0; n-- {
		op := h.Ops[lock[n]]
		if op.Invoke >= t || op.F != history.Acquire {
			continue
		}
		if op.Type != history.Fail || believed(op.Invoke) {
			break
		}
		if j, _ := slices.BinarySearch(granted, op.Invoke+1); j < len(granted) && granted[j] < t {
			break
		}
		// A SET that took the lock after this refusal ends the run of
		// refusals; one that took it while the refusal was still trying is
		// what refused it (issue 32's loaded sweep: w3's acquire, given up
		// during a node freeze, ran at the thaw and took the lock while
		// w2's and w3's next acquires were trying: both were refused by
		// that orphaned key, and the outage began with them).
		if taken, ok := cover.takenAfter(op.Invoke); ok && taken < t && (op.Complete < 0 || taken >= op.Complete) {
			break
		}
		out = append(out, lock[n])
	}
	slices.Reverse(out)
	return out
}

// probeAnomaly classifies a failed probe as stuck-lock or unavailable.
func probeAnomaly(a *account.Account, lock []int, pr history.Op, eoh int64, lastInstant func(string) int64) Anomaly {
	h := a.H
	holder := keyHolderAt(a, pr.Key, pr.Invoke)
	if holder < 0 && !(&heldCover{a: a}).observedAt(pr.Invoke) {
		// The nodes' record says who held the key where it exists; only
		// where it does not do the clients' outcomes tell.
		holder = latestUnreleased(a, lock, pr)
	}
	end := pr.Complete
	if end < 0 {
		end = eoh
	}
	what := "could not acquire"
	if open(pr) {
		what = "got no answer acquiring"
	}
	if holder >= 0 {
		g := h.Ops[holder]
		granted := g.Complete
		if open(g) {
			granted = g.Invoke
		}
		ttl := g.Value.TTL
		if pr.Invoke-granted >= ttl {
			last := lastInstant(g.Client)
			why := fmt.Sprintf("its TTL of %s had long passed", secs(h, ttl))
			if ttl <= 0 {
				why = "the key had no TTL, so it never expires"
			}
			renewed := lastRenewal(h, g.Client, g.Key, granted, pr.Invoke)
			if ttl > 0 && renewed > 0 && pr.Invoke-renewed < ttl {
				why = fmt.Sprintf("its renewals kept it, the last at %s, so its TTL of %s never ran out", at(h, renewed), secs(h, ttl))
			} else if k, ok := heldKey(a, pr.Key, g.Client, pr.Invoke); ok {
				// What the node held says why, not the TTL the client asked for
				// (setnx-expire's EXPIRE may never have run).
				why = fmt.Sprintf("its key on %s was still there", k.Node)
				if k.Deadline < 0 {
					why += " with no TTL, so it never expires"
				} else {
					why += fmt.Sprintf(" until %s", at(h, k.Deadline))
				}
			}
			// An acquire of unknown outcome held the lock from when its
			// key was set, as the node shows, not from when the acquire
			// began (reader 11, setnx-expire-crash: "held since t=0.4s" of
			// a key set at t=0.553s, told "from t=0.6s" on the same page).
			since := granted
			if k, ok := heldKey(a, pr.Key, g.Client, pr.Invoke); ok && open(g) && k.Start > since {
				since = k.Start
			}
			explain := fmt.Sprintf("at the end of the run, the final probe %s %s at %s: %s still held it since %s (its last operation at %s) and %s",
				what, pr.Key, at(h, pr.Invoke), g.Client, at(h, since), at(h, last), why)
			an := stuckAnomaly(a, g, pr, since, end, explain)
			if ttl > 0 && renewed > 0 && renewed-granted >= ttl/3 {
				an.Cause = &Cause{Kind: CauseRenewed, Client: g.Client, TTL: ttl, At: renewed, Renewed: renewed}
			}
			return an
		}
	}
	explain := fmt.Sprintf("at the end of the run, the final probe %s %s at %s although no client held it past its lease; the lock was unavailable",
		what, pr.Key, at(h, pr.Invoke))
	if holder >= 0 {
		// A lease not yet run out: a long TTL whose holder is gone (BR-34).
		g := h.Ops[holder]
		explain = fmt.Sprintf("at the end of the run, the final probe %s %s at %s: %s's key, granted at %s with a TTL of %s that had not run out, still held it (%s's last operation at %s); the lock was unavailable",
			what, pr.Key, at(h, pr.Invoke), g.Client, at(h, max(g.Complete, g.Invoke)), secs(h, g.Value.TTL), g.Client, at(h, lastInstant(g.Client)))
	}
	return newAnomaly(h, KindUnavailable, pr.Key, nil, pr.Invoke, end, explain, pr.Index)
}

// heldKey returns an observed life of key that client created and that was
// live at t, from the account (false when none or no account).
func heldKey(a *account.Account, key, client string, t int64) (account.KeyLife, bool) {
	if a == nil {
		return account.KeyLife{}, false
	}
	for _, k := range a.LivesAt(key, t) {
		if k.Owner == client && k.Observed {
			return k, true
		}
	}
	return account.KeyLife{}, false
}

// keyHolderAt is the grant (history index) whose key held key on a node at
// instant t, per the account's node-side key lives (the latest begun when
// several did); -1 when no observed or inferred life of a granted key
// covers t. An acquire of unknown outcome that never reached the node (cut
// by the run's end) holds nothing.
func keyHolderAt(a *account.Account, key string, t int64) int {
	best := -1
	var start int64
	for _, l := range a.LivesAt(key, t) {
		if l.Grant >= 0 && (best < 0 || l.Start > start) {
			best, start = l.Grant, l.Start
		}
	}
	return best
}

// latestUnreleased is the latest client grant of the key before the probe
// that its client's removing release did not end (the clients' outcomes
// alone, for a key the account has no life of; an acquire that never
// reached a node is none); -1 when none.
func latestUnreleased(a *account.Account, lock []int, pr history.Op) int {
	h := a.H
	holder := -1
	for _, i := range lock {
		op := h.Ops[i]
		if op.Invoke > pr.Invoke {
			break
		}
		switch {
		case op.F == history.Acquire && op.Type != history.Fail && !neverReached(a, i):
			holder = i
		case op.F == history.Release && op.Type == history.OK && op.Value.Removed && holder >= 0 && h.Ops[holder].Client == op.Client:
			holder = -1
		}
	}
	return holder
}

// lastRenewal is the completion of client's last ok extend of key in
// (from, before), true ns; 0 when there is none.
func lastRenewal(h history.History, client, key string, from, before int64) int64 {
	var last int64
	for i := range h.Ops {
		op := &h.Ops[i]
		if op.F == history.Extend && op.Type == history.OK && op.Client == client && op.Key == key &&
			op.Complete > from && op.Complete < before {
			last = max(last, op.Complete)
		}
	}
	return last
}

// lastInstants maps each client to the latest instant it recorded.
func lastInstants(h history.History) map[string]int64 {
	out := map[string]int64{}
	for i := range h.Ops {
		op := &h.Ops[i]
		out[op.Client] = max(out[op.Client], op.Invoke, op.Complete)
	}
	return out
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// releaseTimes lists, per client and key, the invokes of its releases, in
// order.
func releaseTimes(h history.History) map[[2]string][]int64 {
	out := map[[2]string][]int64{}
	for _, op := range h.Ops {
		if op.F == history.Release {
			k := [2]string{op.Client, op.Key}
			out[k] = append(out[k], op.Invoke)
		}
	}
	for _, v := range out {
		slices.Sort(v)
	}
	return out
}

// nextRelease is the first of the release invokes ts at or after t, or t
// when there is none.
func nextRelease(ts []int64, t int64) int64 {
	if i, _ := slices.BinarySearch(ts, t); i < len(ts) {
		return ts[i]
	}
	return t
}
