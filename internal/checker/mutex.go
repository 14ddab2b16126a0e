package checker

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// Hold is one believed-hold interval of a client on a key (account.Hold).
type Hold = account.Hold

// Holds returns every believed-hold interval of h (account.Holds).
func Holds(h history.History) []Hold { return account.New(h).Holds }

// Mutex is the mutex checker (design §8, lock-theory §8.1). It reports:
//
//   - mutex-overlap: believed-hold intervals (see Holds) of two different
//     clients on one key intersect in true time; holds that merely touch
//     (one ends at the instant the other starts) do not overlap, but a
//     zero-length hold strictly inside another client's hold does (see
//     holdsOverlap). The window is [later start, earlier end]. When
//     Header.FencingEnforced is true, both holds carry fencing tokens, and
//     the stale holder (lower fencing token; with equal tokens the earlier
//     acquirer) had no accepted write whose [Invoke, Complete] meets the
//     window, the overlap is Informational: the fenced resource kept the
//     stale holder out (Kleppmann 2016, fencing; lock-theory §9 S03, S06).
//     It is Informational too when the stale holder's token is lower and
//     every write of it the resource accepted in the window completed
//     before the fresh holder first read or wrote the key in its hold:
//     the resource saw the holders serially, in token order (lock-theory
//     §7.2, S03; a stale write accepted after the fresh holder's first
//     read or write is a violation).
//     Without tokens a "fenced" resource refuses nobody, so the overlap is
//     a violation even if the stale holder happened not to write.
//     Otherwise it is a violation (Kleppmann 2016, timeline 1; S01).
//   - foreign-unlock: a release of client A typed ok with Removed true while
//     A's lease was no longer the latest granted one: another client's ok
//     acquire on the key was invoked after A's acquire returned and completed
//     before A's release was invoked (and, for multi-node locks, shares a
//     node with the release). A removed someone else's key (redis.io
//     single-instance section; lock-theory §9 S04). When both grants carry
//     fencing tokens, a grant with a higher token than A's that completed
//     before A's release was invoked counts too, even if its acquire ran
//     concurrently with A's and returned first: the token says it was
//     granted after A (token order itself is the fencing checker's job).
//     A release is not judged when A has an acquire with unknown outcome
//     (info) on the key invoked before it: that acquire may have applied
//     late and the release removed A's own lease.
func Mutex(ctx context.Context, h history.History) Result { return mutex(ctx, account.New(h)) }

func mutex(ctx context.Context, a *account.Account) Result {
	h := a.H
	holds := a.Holds
	if err := ctx.Err(); err != nil {
		return Result{Verdict: Unknown, Summary: "not checked: " + err.Error()}
	}
	ix := newWriteIndex(h)
	byKey := map[string][]int{} // positions in holds
	var keys []string
	for i := range holds {
		k := holds[i].Key
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], i)
	}
	sort.Strings(keys)
	kind := workload.Of(h.Header)
	permits := int64(1)
	if kind.Permits {
		p, ok := h.Header.Params[history.ParamPermits]
		if !ok || p < 1 {
			// How many may hold at once is the semaphore's size: without
			// it the check cannot be made (history.Validate refuses such a
			// file), and no default stands in for it.
			return Result{Verdict: Unknown, Summary: "not judged: a " + h.Header.Workload + " history without its permits parameter"}
		}
		permits = p
	}
	var anomalies []Anomaly
	overlaps, informational, dropped := 0, 0, 0
	ordered := map[string]int{} // informational overlaps by why they did no harm (Harmless*)
	kept := [2]int{}            // recorded anomalies: [violations, informational]
	steps := 0
	peak := 0 // a semaphore's most holders at once (distinct clients)
	for _, k := range keys {
		hs := byKey[k]
		slices.SortStableFunc(hs, func(a, b int) int { return cmp.Compare(holds[a].Start, holds[b].Start) })
		var active []Hold
		for _, hi := range hs {
			cur := holds[hi]
			live := active[:0]
			for _, a := range active {
				if a.End > cur.Start {
					live = append(live, a)
				}
			}
			active = live
			if permits > 1 {
				// A semaphore: up to permits holders at once are allowed.
				peak = max(peak, len(semaphoreHolders(active, cur)))
				if an, ok := semaphoreOverlap(h, active, cur, permits); ok {
					overlaps++
					if kept[0] < maxOverlapAnomalies {
						kept[0]++
						anomalies = append(anomalies, an)
					} else {
						dropped++
					}
				}
				if cur.End > cur.Start {
					active = append(active, cur)
				}
				continue
			}
			for _, other := range active {
				if steps++; steps%4096 == 0 && ctx.Err() != nil {
					return Result{Verdict: Unknown, Summary: "not checked: " + ctx.Err().Error()}
				}
				if other.Client == cur.Client || !holdsOverlap(other, cur) {
					continue
				}
				o := classifyOverlap(a, ix, other, cur)
				overlaps++
				slot := 0
				if o.info {
					informational++
					slot = 1
					ordered[o.harmless]++
				}
				if kept[slot] >= maxOverlapAnomalies {
					dropped++
					continue
				}
				kept[slot]++
				anomalies = append(anomalies, overlapAnomaly(a, o))
			}
			if cur.End > cur.Start {
				active = append(active, cur)
			}
		}
	}
	var foreign []Anomaly
	// A semaphore's release removes the client's own permit entry, never
	// the key: another holder's grant does not make it foreign.
	if !kind.Permits {
		foreign = append(foreignOnNodes(a), foreignUnlocks(a)...)
	}
	if kind.Efficiency {
		for i := range foreign {
			foreign[i].Informational, foreign[i].Harmless = true, HarmlessEfficiency
			foreign[i].Explain += "; " + h.Header.Workload + " uses an efficiency lock, so this costs duplicate work, not correctness"
		}
	}
	anomalies = append(anomalies, foreign...)
	unbacked := unbackedGrants(a)
	anomalies = append(anomalies, unbacked...)
	var lapses []Anomaly
	if !kind.Permits {
		lapses = append(resurrectedLeases(a), hiddenLapses(a)...)
	}
	anomalies = append(anomalies, lapses...)
	var parts []string
	switch {
	case permits > 1:
		parts = append(parts, semaphoreSummary(len(holds), overlaps, dropped, peak, permits))
	case overlaps == 0:
		parts = append(parts, fmt.Sprintf("no overlapping holds among %s", plural(len(holds), "believed hold", "believed holds")))
	default:
		s := plural(overlaps, "believed-hold overlap", "believed-hold overlaps") + whyInformational(h, ix, kind, informational, ordered)
		if dropped > 0 {
			s += fmt.Sprintf(" (%d not listed)", dropped)
		}
		parts = append(parts, s)
	}
	if len(foreign) > 0 {
		parts = append(parts, plural(len(foreign), "foreign unlock", "foreign unlocks"))
	}
	if len(unbacked) > 0 {
		parts = append(parts, plural(len(unbacked), "grant the nodes contradict (another owner's key held the lock)", "grants the nodes contradict (another owner's key held the lock)"))
	}
	parts = append(parts, lapseSummary(lapses)...)
	return Result{Checker: CheckerMutex, Verdict: verdictOf(anomalies), Summary: strings.Join(parts, ", "), Anomalies: anomalies}
}

// maxOverlapAnomalies caps the listed violating overlaps, and separately
// the listed informational ones, so a pathological history (thousands of
// clients that never release) gives a bounded report; the summary still
// counts every overlap, and a violation is listed before the cap is
// reached by informational ones, so the verdict never depends on the cap.
const maxOverlapAnomalies = 1000

// holdsOverlap reports whether two believed holds intersect in more than a
// touch. Holds are closed intervals; they merely touch when the only shared
// instant is one at which one hold ends and the other starts (a release
// invoked at the instant the next grant returns). A zero-length hold (a
// grant the client gave up at once, or a client that stopped right after its
// grant) strictly inside another client's hold is an overlap: the lock was
// granted while the other client believed it held it.
func holdsOverlap(a, b Hold) bool {
	lo, hi := max(a.Start, b.Start), min(a.End, b.End)
	switch {
	case lo < hi:
		return true
	case lo > hi:
		return false
	}
	point := func(p, q Hold) bool { return p.Start == p.End && q.Start < p.Start && p.Start < q.End }
	return point(a, b) || point(b, a)
}

// overlap is one classified overlap of two holds.
type overlap struct {
	stale, fresh Hold
	start, end   int64
	staleWrites  []int // positions of the stale holder's accepted writes in the window
	fenceable    []int // history indices of its writes after the fresh holder's first (fenceable)
	info         bool
	harmless     string // why info (Harmless*)
}

// classifyOverlap decides which of two overlapping holds is the stale one
// and whether the overlap did harm.
//
// The stale holder is the one that may never have been granted when
// exactly one hold is possible (it acted on an acquire whose outcome it
// never learnt); else the one whose lock was gone from its nodes before
// the other's stood (goneBefore), whatever the tokens say
// and whichever acquire returned first: a
// token taken in a step of its own after the grant (redlock-fenced) can
// come after a newer holder's (Kleppmann 2016), whose answer can itself
// come late; else the lower fencing token when both carry distinct ones;
// else the earlier start.
//
// The overlap is informational when the resource kept the stale holder
// out by its fence (FencingEnforced) and accepted no write of it in the
// window: either both grants carry distinct tokens, the stale one lower
// (Kleppmann 2016, fencing), or the resource refused the stale holder's
// writes for a stale token or epoch while it held (the epoch on a leader's
// writes). Equal tokens never: the fence cannot tell the two apart, and a
// resource that accepts an equal token twice charged twice. An
// idempotent payment gateway (lock-theory S19) makes it informational
// unless both holders had a charge accepted during their holds; an
// efficiency lock (cache-rebuild) always.
func classifyOverlap(acc *account.Account, ix *writeIndex, a, b Hold) overlap {
	h := acc.H
	o := overlap{stale: a, fresh: b, start: max(a.Start, b.Start), end: min(a.End, b.End)}
	switch {
	case a.Possible != b.Possible:
		if b.Possible {
			o.stale, o.fresh = b, a
		}
	case goneBefore(acc, a, b):
		// Whichever acquire returned first: a token taken after the
		// other's grant, or the other's answer come late, leaves it the
		// older lock, gone before the other's stood.
	case goneBefore(acc, b, a):
		o.stale, o.fresh = b, a
	case a.Fence > 0 && b.Fence > 0 && a.Fence != b.Fence:
		if b.Fence < a.Fence {
			o.stale, o.fresh = b, a
		}
	case b.Start < a.Start:
		o.stale, o.fresh = b, a
	}
	st := o.stale
	o.staleWrites = ix.acceptedIn(st.Client, st.Key, o.start, o.end)
	o.fenceable = fenceable(ix, st, o.fresh)
	tokensTell := st.Fence > 0 && o.fresh.Fence > 0 && st.Fence < o.fresh.Fence
	if h.Header.FencingEnforced && len(o.staleWrites) == 0 {
		switch {
		case ix.fenceRefusedIn(st.Client, st.Key, st.Start, st.End):
			o.info, o.harmless = true, HarmlessFenced
		case tokensTell:
			// The tokens would tell the holders apart, but no write of
			// the stale holder was accepted or refused: the fence was
			// never tested, and is credited with nothing (teacher 7, F26).
			o.info, o.harmless = true, HarmlessNoWrite
		}
	}
	if h.Header.FencingEnforced && tokensTell && len(o.staleWrites) > 0 && acceptedBeforeTouch(h, o.staleWrites, o.fresh) {
		// The resource saw the holders one at a time, in token order: the
		// stale holder's writes before the fresh holder's first use
		// (lock-theory §7.2, S03).
		o.info, o.harmless = true, HarmlessFencedOrder
	}
	if h.Header.CheckAndSet && len(o.staleWrites) > 0 && acceptedBeforeTouch(h, o.staleWrites, o.fresh) {
		// The resource's currlock still held the stale holder's token:
		// the fresh holder had not claimed, read or written it yet. It saw
		// the holders one at a time, in claim order, as a fenced resource
		// does in token order (antirez 2016, lock-theory §7.3).
		o.info, o.harmless = true, HarmlessClaimOrder
	}
	if h.Header.CheckAndSet && len(o.staleWrites) == 0 && ix.fenceRefusedIn(st.Client, st.Key, st.Start, st.End) {
		// The resource's currlock held the newer holder's token, so it
		// refused the stale one (lock-theory §7.3).
		o.info, o.harmless = true, HarmlessCheckAndSet
	}
	if ix.dedup != "" && !(ix.dedupedIn(st.Client, st.Key, st.Start, st.End) &&
		ix.dedupedIn(o.fresh.Client, o.fresh.Key, o.fresh.Start, o.fresh.End)) {
		o.info, o.harmless = true, HarmlessIdempotent
	}
	if workload.Of(h.Header).Efficiency {
		o.info, o.harmless = true, HarmlessEfficiency
	}
	return o
}

// goneBefore reports whether x's lock was gone from its nodes (expired,
// lost) at or before y's lock stood: the instant y's keys were on as many
// nodes as a grant needs (the quorum of a lock on several nodes, its
// first key of a lock on one), both grants known from their key lives:
// x's grant is the older one, whenever each client's acquire returned and
// whatever tokens they carry. Not y's first key: on a node x's key had
// left, y's SET can land while x still holds its quorum on the others
// (redlock-gc-pause-fenced-token-late seed 10: w2's key on n1 came 1 µs
// before w1's on n3 expired, the third of its five; w2 stood on n1–n3
// 0.6 ms later).
func goneBefore(acc *account.Account, x, y Hold) bool {
	gx, okx := acc.GrantOf(x.Acquire)
	gy, oky := acc.GrantOf(y.Acquire)
	if !okx || !oky || len(gx.Lives) == 0 || len(gy.Lives) == 0 || gx.Ended.Kind == account.EndHeld {
		return false
	}
	starts := make([]int64, 0, len(gy.Lives))
	for _, k := range gy.Lives {
		starts = append(starts, k.Start)
	}
	slices.Sort(starts)
	need := 1
	if slices.Contains(acc.H.Header.Traits, history.TraitMultiNode) {
		need = acc.Quorum()
	}
	stood := starts[0] // fewer lives than a grant needs: its first key
	if len(starts) >= need {
		stood = starts[need-1]
	}
	return gx.End <= stood
}

// fenceable are the history indices of stale's writes the resource
// accepted after it had accepted a write of fresh in fresh's hold: each
// invoked after the completion of fresh's first accepted write. A
// resource that refuses any write with a token lower than one it has seen
// would have refused them, even without a claim first (lock-theory §7.2).
func fenceable(ix *writeIndex, stale, fresh Hold) []int {
	first := int64(-1)
	for _, i := range ix.acceptedIn(fresh.Client, fresh.Key, fresh.Start, fresh.End) {
		if op := &ix.h.Ops[i]; op.Invoke >= fresh.Start && (first < 0 || op.Complete < first) {
			first = op.Complete
		}
	}
	if first < 0 {
		return nil
	}
	var out []int
	for _, i := range ix.acceptedIn(stale.Client, stale.Key, stale.Start, stale.End) {
		if op := &ix.h.Ops[i]; op.Invoke > first && op.Invoke >= stale.Start {
			out = append(out, op.Index)
		}
	}
	return out
}

// acceptedBeforeTouch reports whether every write at history positions
// writes completed before fresh first touched the resource: its first
// read or write of the key (a claim, a read, a charge; whatever its
// outcome) invoked at or after its hold began. A fenced resource then accepted those writes while the
// stale holder's token was still the highest it had seen, and the fresh
// holder's first use — its claim raises the token, its read sees the
// stale writes — came after them: the resource saw the holders serially,
// in token order (lock-theory §7.2, S03). A fresh holder that never
// touched the resource in its hold saw nothing of them either.
func acceptedBeforeTouch(h history.History, writes []int, fresh Hold) bool {
	touch := int64(-1)
	for i := range h.Ops {
		op := &h.Ops[i]
		if op.Client != fresh.Client || op.Key != fresh.Key || (op.F != history.Read && op.F != history.Write) ||
			op.Invoke < fresh.Start || !isClientOp(*op) {
			continue
		}
		if touch < 0 || op.Invoke < touch {
			touch = op.Invoke
		}
	}
	for _, w := range writes {
		if touch >= 0 && h.Ops[w].Complete >= touch {
			return false
		}
	}
	return true
}

func overlapAnomaly(a *account.Account, o overlap) Anomaly {
	h := a.H
	stale, fresh, start, end := o.stale, o.fresh, o.start, o.end
	c := overlapCause(a, stale, fresh)
	lateToken(h, stale, fresh, c)
	explain := fmt.Sprintf("%s and %s both believed they held %s from %s to %s: %s",
		stale.Client, fresh.Client, stale.Key, at(h, start), at(h, end), causeText(h, c, stale.Client, fresh.Client))
	switch o.harmless {
	case HarmlessEfficiency:
		explain += "; " + h.Header.Workload + " uses an efficiency lock, so this costs duplicate work, not correctness (informational)"
	case HarmlessIdempotent:
		explain += "; the idempotency key let only one of them charge, so this is informational"
	case HarmlessFenced:
		explain += fmt.Sprintf("; the resource's fence accepted no write from %s in that window, so this is informational", stale.Client)
	case HarmlessNoWrite:
		explain += fmt.Sprintf("; the resource accepted no write from %s in that window and its fence refused none: the fence was never tested, so this is informational", stale.Client)
	case HarmlessFencedOrder:
		explain += fmt.Sprintf("; the resource accepted %s's writes with token %d before %s (token %d) first used it, so it saw the holders one at a time in token order: this is informational",
			stale.Client, stale.Fence, fresh.Client, fresh.Fence)
	case HarmlessClaimOrder:
		explain += fmt.Sprintf("; the resource accepted %s's writes while its currlock still held %s's token, before %s first used it, so it saw the holders one at a time in claim order: this is informational",
			stale.Client, stale.Client, fresh.Client)
	case HarmlessCheckAndSet:
		explain += fmt.Sprintf("; the resource's currlock held %s's token, so it accepted no write from %s in that window: this is informational", fresh.Client, stale.Client)
	default:
		if len(o.staleWrites) > 0 {
			w := h.Ops[o.staleWrites[0]]
			explain += fmt.Sprintf(", and the resource accepted %s's %s at %s", stale.Client, actionName(w), at(h, w.Complete))
		}
		if stale.Fence > 0 && fresh.Fence > 0 && stale.Fence > fresh.Fence {
			explain += fmt.Sprintf("; %s's token %d is higher than %s's %d though its lock was the older one (it was gone before %s's was set): the token was taken after the grant, so the resource took the stale holder for the newer one",
				stale.Client, stale.Fence, fresh.Client, fresh.Fence, fresh.Client)
		}
	}
	var accepted []int
	if !o.info {
		for _, i := range o.staleWrites {
			accepted = append(accepted, h.Ops[i].Index)
		}
	}
	ops := []int{stale.Acquire, fresh.Acquire}
	for _, i := range o.staleWrites {
		ops = append(ops, h.Ops[i].Index)
	}
	an := newAnomaly(h, KindMutexOverlap, stale.Key, []string{stale.Client, fresh.Client}, start, end, explain, ops...)
	an.Stale, an.Current, an.Cause = stale.Client, fresh.Client, c
	an.Fenceable, an.Accepted = o.fenceable, accepted
	an.Informational, an.Harmless = o.info, o.harmless
	return an
}

// appliedFaults returns the fault ops of h that took effect (not those
// whose apply failed), in index order.
func appliedFaults(h history.History) []history.Op {
	var fs []history.Op
	for _, op := range h.Faults() {
		if op.Type != history.Fail {
			fs = append(fs, op)
		}
	}
	return fs
}

// writeIndex finds accepted writes per client and key, sorted by Invoke,
// and (built on first use) the accepted writes of the action the resource
// deduplicates by an idempotency key (dedup, "" for none). Each list carries the running maximum of its ops' Complete, so a
// window query skips, by binary search, every op that ended before it.
type writeIndex struct {
	h       history.History
	by      map[[2]string]spanList
	dedup   string
	deduped map[[2]string][]int
	refused map[[2]string][]int
}

// spanList is positions of h.Ops sorted by Invoke, with maxComplete[j] the
// largest Complete among the first j+1.
type spanList struct {
	idx         []int
	maxComplete []int64
}

func newSpanLists(h history.History, by map[[2]string][]int) map[[2]string]spanList {
	out := make(map[[2]string]spanList, len(by))
	for k, v := range by {
		sortIdx(h, v, invokeOf)
		mc := make([]int64, len(v))
		for j, i := range v {
			mc[j] = h.Ops[i].Complete
			if j > 0 {
				mc[j] = max(mc[j], mc[j-1])
			}
		}
		out[k] = spanList{idx: v, maxComplete: mc}
	}
	return out
}

// window returns the part of l whose ops may meet [from, to]: every op
// outside it was invoked after to or completed before from.
func (l spanList) window(h history.History, from, to int64) []int {
	n := sort.Search(len(l.idx), func(j int) bool { return h.Ops[l.idx[j]].Invoke > to })
	lo := sort.Search(n, func(j int) bool { return l.maxComplete[j] >= from })
	return l.idx[lo:n]
}

func newWriteIndex(h history.History) *writeIndex {
	by := map[[2]string][]int{}
	for i := range h.Ops {
		if op := &h.Ops[i]; op.F == history.Write && op.Type == history.OK && op.Complete >= 0 {
			k := [2]string{op.Client, op.Key}
			by[k] = append(by[k], i)
		}
	}
	return &writeIndex{h: h, by: newSpanLists(h, by), dedup: workload.Of(h.Header).Dedup(h.Header.Params)}
}

// acceptedIn returns the positions of client's accepted writes on key whose
// [Invoke, Complete] meets [from, to].
func (ix *writeIndex) acceptedIn(client, key string, from, to int64) []int {
	var out []int
	for _, i := range ix.by[[2]string{client, key}].window(ix.h, from, to) {
		if ix.h.Ops[i].Complete >= from {
			out = append(out, i)
		}
	}
	return out
}

// dedupedIn reports whether one of client's writes of the deduplicated
// action (a charge) on key was accepted with [Invoke, Complete] meeting
// [from, to].
func (ix *writeIndex) dedupedIn(client, key string, from, to int64) bool {
	if ix.deduped == nil {
		ix.deduped = map[[2]string][]int{}
		for i := range ix.h.Ops {
			if op := &ix.h.Ops[i]; op.F == history.Write && op.Value.Action == ix.dedup && op.Type == history.OK && !op.Open() {
				k := [2]string{op.Client, op.Key}
				ix.deduped[k] = append(ix.deduped[k], i)
			}
		}
	}
	// A client charges one key a few times at most: a scan will do.
	for _, i := range ix.deduped[[2]string{client, key}] {
		op := &ix.h.Ops[i]
		if op.Invoke <= to && op.Complete >= from {
			return true
		}
	}
	return false
}

// fenceRefusedIn reports whether one of client's writes on key was
// refused for a stale fencing token or epoch with [Invoke, Complete]
// meeting [from, to].
func (ix *writeIndex) fenceRefusedIn(client, key string, from, to int64) bool {
	if ix.refused == nil {
		ix.refused = map[[2]string][]int{}
		for i := range ix.h.Ops {
			if op := &ix.h.Ops[i]; op.F == history.Write && op.Type == history.Fail && fenceRefusal(*op) {
				k := [2]string{op.Client, op.Key}
				ix.refused[k] = append(ix.refused[k], i)
			}
		}
	}
	for _, i := range ix.refused[[2]string{client, key}] {
		op := &ix.h.Ops[i]
		if op.Invoke <= to && op.Complete >= from {
			return true
		}
	}
	return false
}

// semaphoreOverlap reports more than permits clients believing they hold a
// permit of one semaphore key at once: cur plus the distinct other clients
// of active whose holds overlap cur. The window is [cur.Start, the earliest
// end among them].
func semaphoreOverlap(h history.History, active []Hold, cur Hold, permits int64) (Anomaly, bool) {
	in := semaphoreHolders(active, cur)
	if int64(len(in)) <= permits {
		return Anomaly{}, false
	}
	var clients []string
	var ops []int
	end := cur.End
	for _, a := range in {
		clients = append(clients, a.Client)
		ops = append(ops, a.Acquire)
		end = min(end, a.End)
	}
	end = max(end, cur.Start)
	sort.Strings(clients)
	explain := fmt.Sprintf("%d clients (%s) believed they held one of the %d permits of %s at once from %s to %s",
		len(clients), strings.Join(clients, ", "), permits, cur.Key, at(h, cur.Start), at(h, end))
	return newAnomaly(h, KindMutexOverlap, cur.Key, clients, cur.Start, end, explain, ops...), true
}

// semaphoreHolders are the holds of distinct clients in at cur's start:
// cur first, then each active hold of another client that overlaps it
// (the first of each client's).
func semaphoreHolders(active []Hold, cur Hold) []Hold {
	seen := map[string]bool{cur.Client: true}
	in := []Hold{cur}
	for _, a := range active {
		if seen[a.Client] || !holdsOverlap(a, cur) {
			continue
		}
		seen[a.Client] = true
		in = append(in, a)
	}
	return in
}

// semaphoreSummary is the mutex summary's first part for a semaphore of
// permits: how many held at once at most (peak), against its permits,
// and the overruns (overlaps, dropped of them not listed). Overlapping
// holds are what a semaphore is for (reader 6: "no overlapping holds" of
// a 2-permit run with two holders at once).
func semaphoreSummary(holds, overlaps, dropped, peak int, permits int64) string {
	among := plural(holds, "believed hold", "believed holds")
	switch {
	case holds == 0:
		return "no believed holds"
	case overlaps == 0:
		return fmt.Sprintf("never more holders at once than the semaphore's %d permits (at most %s) among %s", permits, plural(peak, "holder", "holders"), among)
	}
	s := fmt.Sprintf("%s over the semaphore's %d permits: up to %s at once", plural(overlaps, "admission", "admissions"), permits, plural(peak, "holder", "holders"))
	if dropped > 0 {
		s += fmt.Sprintf(" (%d not listed)", dropped)
	}
	return s + " among " + among
}

// whyInformational is the mutex summary's reason its informational
// overlaps (informational of them; ordered: how many were harmless for
// each reason, by Harmless*) did no harm, " (…)", or "" for none.
func whyInformational(h history.History, ix *writeIndex, kind workload.Kind, informational int, ordered map[string]int) string {
	switch {
	case informational > 0 && ordered[HarmlessFencedOrder]+ordered[HarmlessClaimOrder] == informational:
		// Nothing was refused: the resource took the stale holder's
		// writes before the newer holder first used it (a fifth
		// reader: "check-and-set … refused the stale holder" of a
		// run whose resource accepted w1's charge).
		order := "token order"
		if ordered[HarmlessClaimOrder] > 0 {
			order = "claim order"
		}
		return fmt.Sprintf(" (%d informational: the resource took the stale holder's writes before the newer holder first used it, one holder at a time, in %s)", informational, order)
	case informational > 0 && kind.Efficiency:
		return fmt.Sprintf(" (%d informational: an efficiency lock, duplicate work is waste)", informational)
	case informational > 0 && ix.dedup != "" && h.Header.FencingEnforced:
		return fmt.Sprintf(" (%d informational: the fencing token or the idempotency key kept the second holder's effect out)", informational)
	case informational > 0 && ix.dedup != "":
		return fmt.Sprintf(" (%d informational: the idempotency key let only one charge through)", informational)
	case informational > 0 && h.Header.CheckAndSet:
		return fmt.Sprintf(" (%d informational: the resource's check-and-set of the lock's token refused the stale holder)", informational)
	case informational > 0 && ordered[HarmlessNoWrite] == informational:
		// Nothing was refused either: the stale holder wrote nothing
		// while both held (teacher 7, F26).
		return fmt.Sprintf(" (%d informational: the stale holder had no write accepted while both held, and the fence refused none)", informational)
	case informational > 0 && ordered[HarmlessNoWrite] > 0:
		return fmt.Sprintf(" (%d informational: the fenced resource refused the stale holder or accepted none of its writes)", informational)
	case informational > 0:
		return fmt.Sprintf(" (%d informational: fenced resource refused the stale holder)", informational)
	}
	return ""
}
