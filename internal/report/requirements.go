package report

import (
	"slices"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/why"
	"github.com/locksim/locksim/internal/workload"
)

// requirementsLesson is the lesson that names the five requirements
// below; its own page calls them its own, not "from lesson 42".
const requirementsLesson = 42

// The five requirements of a distributed lock that lesson 42 names, in the
// course's order.
const (
	ReqMutualExclusion = "mutual"
	ReqDeadlockFree    = "deadlock"
	ReqFaultTolerance  = "fault"
	ReqSafety          = "safety"
	ReqLiveness        = "liveness"
)

// Requirements lists the five requirements in the course's order.
func Requirements() []string {
	return []string{ReqMutualExclusion, ReqDeadlockFree, ReqFaultTolerance, ReqSafety, ReqLiveness}
}

// Showing is what one run shows of one requirement.
type Showing int

// What a run shows of a requirement: nothing (it did not test it, or
// proves nothing), that it was kept, that it was broken, or (safety only)
// that it was broken by the course's definition — two clients believed
// they held the lock — while no harm was done (Spared: the resource
// refused the stale write, or the lock was an efficiency lock). Spared is
// marked ✘ with its note (Mark.Note) on the lesson pages and on
// requirements.html alike (issue 34).
const (
	NotShown Showing = iota
	Kept
	Broken
	Spared
)

// Why a mark needs words beside it (Mark.Note).
const (
	// NoteRefused: safety spared; the resource refused the stale
	// holder's write (an Op claim of the stale client with a refusal).
	NoteRefused = "refused"
	// NoteWaste: safety spared; an efficiency lock, whose overlap only
	// duplicated work.
	NoteWaste = "waste"
	// NoteInOrder: safety spared; the resource saw the holders' writes
	// one at a time, in token order (fencing) or claim order
	// (check-and-set).
	NoteInOrder = "in-order"
	// NoteNoHarm: safety spared; no write of the stale holder was
	// accepted in the overlap, though none was refused either.
	NoteNoHarm = "no-harm"
	// NoteHarmOneHolder: safety broken by harm alone: the resource was
	// harmed (a duplicate run), though no two clients ever believed they
	// held the lock at once — the course's definition held, and locksim
	// counts the harm under safety too (teacher 4, #16: cron-duplicate-run).
	NoteHarmOneHolder = "harm-one-holder"
	// NoteSinglePoint: fault tolerance kept by a lock on one node (or a
	// master with replicas): correct across the node's failure, but no
	// lock while it was down — a single point of failure (lesson 42 §3).
	NoteSinglePoint = "single-point"
	// NoteLinksOnly: fault tolerance kept by a lock on one node whose
	// run's faults on the node side only cut links (a partition): no node
	// failed, so the run shows nothing of the lock through a node's
	// failure (reader 6: watchdog-unlock-lost was credited with "the
	// node's failure" of a partition w1↔n1 alone).
	NoteLinksOnly = "links-only"
	// NoteGranted: mutual exclusion broken; the lock itself let a second
	// client in while the first's key should still have stood
	// (exclusionEnds).
	NoteGranted = "granted"
	// NoteNoLock: mutual exclusion broken because there is no lock at all
	// (the no-lock control grants every acquire): no key stood, none
	// should have.
	NoteNoLock = "no-lock"
	// NoteExpired: mutual exclusion kept, though two clients believed they
	// held the lock: the second was granted it only after the first's key
	// had expired by its TTL (safety's concern, not the lock's).
	NoteExpired = "expired"
	// NoteBounded: deadlock-freedom or liveness kept; a lease outlived its
	// holder and its TTL ended it (orphanBound).
	NoteBounded = "bounded"
	// NoteGaveUp: deadlock-freedom kept by a lock that gave a lease up
	// while its holder was still inside (a capped watchdog): the mark
	// tells when the renewals stopped and how the lease ended, from the
	// run's claims about the hold (Mark.Hold).
	NoteGaveUp = "gave-up"
	// NoteKeptByOthers: deadlock-freedom broken; a lease outlived its
	// holder by more than its TTL because another client's extends kept
	// its key (rq #1707): the lock did not come free by itself (reader 7,
	// F3: scheduler-heartbeat-foreign-queue was marked "✔ kept").
	NoteKeptByOthers = "kept-by-others"
	// NoteInformational: liveness broken by the column's rule (a lease
	// its TTL ended that its holder was not bounded by), though the
	// liveness checker counts every such finding of the run as
	// information, not a violation (teacher11 G4:
	// fencing-random-nemesis seed 1009, valid, "✘ broken" bare).
	NoteInformational = "informational"
	// NoteNodeSpared: fault tolerance broken, the node's fault having
	// let a second client in while the first still believed it held the
	// lock, though no harm was done (the finding is informational: a
	// refused stale write, writes in order, none at all, or waste): the
	// mark says what the node did and what spared the resource
	// (teacher12 N-2: server-clock-step-fenced, a valid run, bare
	// "✘ broken").
	NoteNodeSpared = "node-spared"
	// NoteTakesNoLock: not shown, and cannot be; the run takes no lock
	// (lock-free: none at all; no-lock: an acquire that takes nothing),
	// so it neither keeps nor breaks what a lock promises (teacher 3,
	// F13: the no-lock control was marked deadlock-free "✔ kept").
	NoteTakesNoLock = "takes-no-lock"
)

// Mark is what a run shows of a requirement (Showing), with the reason
// when the mark needs one beside it (Note*) and the finding it rests on
// (Anomaly, for Note), or the hold (Hold, a Hold claim: NoteGaveUp).
type Mark struct {
	Showing Showing
	Note    string
	Anomaly checker.Anomaly
	Hold    claim.Claim
	// NodeNotNeeded: fault tolerance kept by an invalid run that the
	// same seed without each of its node faults left invalid (its
	// experiments): the harm did not come from the node (teacher11 G8).
	NodeNotNeeded bool
}

// Node-side ends of a key (account End kinds): the lock was lost because a
// part of the system failed, not because its TTL ran out.
var nodeEnds = []string{account.EndCrashed, account.EndClock, account.EndFailover, account.EndFlushed}

// Ends of the first holder's key under which the lock itself let a second
// client in: its key was removed by someone else or lost on its node, or
// it never excluded the second client. An expiry by the TTL is not one:
// the lock gave the key to one client at a time; that the first went on
// acting is safety's concern (lesson 42, requirement 4).
// A key taken (account.EndTaken: another client was granted it while the
// first holder's key, by its TTL, still stood, and no event of the
// history removed it; a lock with no key at all, as no-lock) did not
// exclude the second client either.
// A re-entered key (checker.CauseReentered: the fresh holder was granted
// the stale holder's own key, under the same owner token), a key its
// sharer released (CauseSharerReleased), two keys for one resource
// (CauseOtherKey) and nodes that held the other owner's key
// (CauseNodeHeldAnother) are grants of a lock that did not exclude.
var exclusionEnds = append([]string{account.EndDeleted, account.EndRestored, account.EndJanitor, account.EndOverwritten, account.EndPurged,
	account.EndTaken, checker.CauseHeld, checker.CauseReentered, checker.CauseSharerReleased, checker.CauseOtherKey,
	checker.CauseNodeHeldAnother}, nodeEnds...)

// Effects of fault steps that stop, cut off or crash a holder (what
// deadlock-freedom is tested by) and that strike a node or the links to
// it (fault tolerance).
var (
	holderEffects = []string{history.EffectFreezeClient, history.EffectCrashClient, history.EffectRestartClient, history.EffectCutLinks, history.EffectStarveRenewer}
	nodeEffects   = []string{history.EffectCrashNode, history.EffectFreezeNode, history.EffectNodeClock, history.EffectFailover, history.EffectCutLinks}
)

// safetyKinds are the violations that break safety when not informational.
var safetyKinds = []string{checker.KindMutexOverlap, checker.KindDoubleEffect, checker.KindLostUpdate, checker.KindOversell,
	checker.KindSplitBrain, checker.KindDuplicateRun, checker.KindStaleWriteAccepted, checker.KindTokenRegression,
	checker.KindOverAdmission, checker.KindNotLinearizable, checker.KindForeignUnlock}

// safetyKind reports whether kind breaks safety: one of safetyKinds, or a
// workload's own kind (a violation of its resource's rules).
func safetyKind(kind string) bool {
	_, own := workload.AnomalyOf(kind)
	return own || slices.Contains(safetyKinds, kind)
}

// header is what run r's results keep of its history's header that its
// algorithm's traits are read from.
func header(r Results) history.Header {
	return history.Header{Algorithm: r.Algorithm, Traits: r.Traits}
}

// lockFree reports whether the run's algorithm takes no lock (its trait).
func lockFree(r Results) bool { return slices.Contains(r.Traits, history.TraitLockFree) }

// Judged reports whether a run counts on the requirements page: it has a
// verdict that proves something (valid or invalid) over a whole history.
func Judged(r Results) bool {
	return r.Error == "" && !r.Aborted && !r.Cut && (r.Verdict == checker.Valid || r.Verdict == checker.Invalid)
}

// Shows says what run r shows of requirement req (MarkOf's Showing).
func Shows(r Results, req string) Showing { return MarkOf(r, req).Showing }

// MarkOf says what run r shows of requirement req, from its checkers'
// findings (their kinds, informational or not, and causes), its claims
// and its fault plan's effects — never from prose: the one rule of the
// lesson pages' strips and requirements.html. A run that is not Judged
// shows nothing; nor does a lock-free run: no two clients can believe
// they hold a lock none takes (an oversell is the effects checker's
// finding). A no-lock run shows no deadlock-freedom or liveness either:
// no lock of its can be stuck or come free (its mutual exclusion is
// broken: every acquire succeeds). Those are NoteTakesNoLock. Mutual
// exclusion and safety are kept only by a run that tested them: a fault,
// or a job that outlived its TTL.
func MarkOf(r Results, req string) Mark {
	if !Judged(r) {
		return Mark{}
	}
	if lockFree(r) || header(r).NoLock() && (req == ReqDeadlockFree || req == ReqLiveness) {
		return Mark{Note: NoteTakesNoLock}
	}
	tested := len(r.Plan) > 0 || outlivedTTL(r)
	planHas := func(effects []string) bool {
		for _, st := range r.Plan {
			if slices.Contains(effects, st.Effect) {
				return true
			}
		}
		return false
	}
	has := func(ok func(a checker.Anomaly) bool) bool {
		return slices.ContainsFunc(r.Anomalies, ok)
	}
	causeIn := func(a checker.Anomaly, kinds []string) bool {
		return a.Cause != nil && slices.Contains(kinds, a.Cause.Kind)
	}
	liveness := func(a checker.Anomaly) bool {
		return (a.Kind == checker.KindUnavailable || a.Kind == checker.KindStuckLock || a.Kind == checker.KindOrphanedLease) &&
			a.Harmless != checker.HarmlessBusy && !boundedOrphan(a)
	}
	first := func(ok func(a checker.Anomaly) bool) (checker.Anomaly, bool) {
		i := slices.IndexFunc(r.Anomalies, ok)
		if i < 0 {
			return checker.Anomaly{}, false
		}
		return r.Anomalies[i], true
	}
	switch req {
	case ReqMutualExclusion:
		if a, ok := first(func(a checker.Anomaly) bool { return a.Kind == checker.KindMutexOverlap && causeIn(a, exclusionEnds) }); ok {
			if header(r).NoLock() {
				return Mark{Showing: Broken, Note: NoteNoLock, Anomaly: a}
			}
			return Mark{Showing: Broken, Note: NoteGranted, Anomaly: a}
		}
		if has(func(a checker.Anomaly) bool {
			return a.Kind == checker.KindForeignUnlock || a.Kind == checker.KindOverAdmission
		}) {
			return Mark{Showing: Broken}
		}
		// Kept when every overlap (if any) is of a key its TTL ended:
		// one of unknown cause neither keeps nor breaks it. A client the
		// lock refused while another's key stood tested it too (lesson
		// 43's shared-owner-token-per-holder: no fault, but w2 and w3
		// were kept out while w1 held the key).
		if (tested || contended(r)) && !has(func(a checker.Anomaly) bool {
			return a.Kind == checker.KindMutexOverlap && (a.Cause == nil || a.Cause.Kind != account.EndExpired)
		}) {
			if a, ok := first(func(a checker.Anomaly) bool { return a.Kind == checker.KindMutexOverlap }); ok {
				return Mark{Showing: Kept, Note: NoteExpired, Anomaly: a}
			}
			return Mark{Showing: Kept}
		}
	case ReqDeadlockFree:
		if has(func(a checker.Anomaly) bool {
			return a.Kind == checker.KindStuckLock && a.Harmless != checker.HarmlessBusy
		}) {
			return Mark{Showing: Broken}
		}
		if a, ok := first(func(a checker.Anomaly) bool {
			return a.Kind == checker.KindOrphanedLease && !a.Informational && a.Cause != nil && a.Cause.ExtendedBy != "" && !a.Cause.Bounded
		}); ok {
			return Mark{Showing: Broken, Note: NoteKeptByOthers, Anomaly: a}
		}
		// An in-process mutex comes free only when its holder releases
		// it: a struck holder that woke and released shows no lock
		// freeing itself (a fresh teacher: control-mutex was marked
		// deadlock-free kept because its paused holder came back).
		if struckHolder(r) && !header(r).InProcess() {
			return bounded(r)
		}
		// A holder whose job outlived its TTL and whose lock gave it
		// up (a capped watchdog): the lock came free though the job
		// never ended.
		if h, ok := gaveUp(r); ok {
			return Mark{Showing: Kept, Note: NoteGaveUp, Hold: h}
		}
	case ReqFaultTolerance:
		if !planHas(nodeEffects) {
			return Mark{}
		}
		if a, ok := first(func(a checker.Anomaly) bool { return causeIn(a, nodeEnds) }); ok {
			if a.Kind == checker.KindMutexOverlap && !has(func(a checker.Anomaly) bool { return causeIn(a, nodeEnds) && !a.Informational }) {
				return Mark{Showing: Broken, Note: NoteNodeSpared, Anomaly: a}
			}
			return Mark{Showing: Broken}
		}
		if !slices.Contains(r.Traits, history.TraitMultiNode) {
			// Correct across the failure is half of the course's fault
			// tolerance: a single node takes no lock while it is down
			// (lesson 42 §3; teacher 4, #19).
			if !planHas(slices.DeleteFunc(slices.Clone(nodeEffects), func(e string) bool { return e == history.EffectCutLinks })) {
				return Mark{Showing: Kept, Note: NoteLinksOnly}
			}
			return Mark{Showing: Kept, Note: NoteSinglePoint, NodeNotNeeded: nodeNotNeeded(r)}
		}
		return Mark{Showing: Kept, NodeNotNeeded: nodeNotNeeded(r)}
	case ReqSafety:
		if a, ok := first(func(a checker.Anomaly) bool { return !a.Informational && safetyKind(a.Kind) }); ok {
			if !has(func(a checker.Anomaly) bool { return a.Kind == checker.KindMutexOverlap }) {
				return Mark{Showing: Broken, Note: NoteHarmOneHolder, Anomaly: a}
			}
			return Mark{Showing: Broken}
		}
		// Two clients believed they held the lock (the course's safety
		// broken), but the checkers found no harm done.
		if a, ok := first(func(a checker.Anomaly) bool { return a.Informational && a.Kind == checker.KindMutexOverlap }); ok {
			return Mark{Showing: Spared, Note: sparedNote(r, a), Anomaly: a}
		}
		if tested && r.Verdict == checker.Valid {
			return Mark{Showing: Kept}
		}
	case ReqLiveness:
		if a, ok := first(liveness); ok {
			if !has(func(a checker.Anomaly) bool { return liveness(a) && !expiredInfo(a) }) {
				return Mark{Showing: Broken, Note: NoteInformational, Anomaly: a}
			}
			return Mark{Showing: Broken}
		}
		if _, ran := r.Checkers[checker.CheckerLiveness]; ran {
			return bounded(r)
		}
	}
	return Mark{}
}

// bounded is a kept deadlock-freedom or liveness, with the lease its TTL
// ended after its holder stopped, if any (NoteBounded).
func bounded(r Results) Mark {
	if a, ok := orphanBound(r); ok {
		return Mark{Showing: Kept, Note: NoteBounded, Anomaly: a}
	}
	return Mark{Showing: Kept}
}

// expiredInfo reports whether a is an orphaned lease its TTL ended that
// the liveness checker counts as information, not a violation.
func expiredInfo(a checker.Anomaly) bool {
	return a.Kind == checker.KindOrphanedLease && a.Informational && a.Cause != nil && a.Cause.Kind == account.EndExpired
}

// nodeNotNeeded reports whether invalid run r was still invalid, by its
// experiments (why.Without), without each of its node faults
// (nodeEffects): the harm did not need the node's failure.
func nodeNotNeeded(r Results) bool {
	if r.Verdict != checker.Invalid {
		return false
	}
	found := false
	for _, st := range r.Plan {
		if !slices.Contains(nodeEffects, st.Effect) {
			continue
		}
		if !slices.ContainsFunc(r.Counterfactuals, func(c why.Counterfactual) bool {
			return c.Change == why.Without && c.Step == st.ID && c.Verdict == checker.Invalid
		}) {
			return false
		}
		found = true
	}
	return found
}

// sparedNote is why an informational overlap a did no harm: the resource
// refused a write of its stale holder (an Op claim of that client with a
// refusal, in the overlap's run), an efficiency lock, writes accepted in
// token order, or no write accepted at all.
func sparedNote(r Results, a checker.Anomaly) string {
	switch {
	case a.Harmless == checker.HarmlessEfficiency:
		return NoteWaste
	case slices.ContainsFunc(r.Claims, func(c claim.Claim) bool {
		return c.Kind == claim.Op && c.Refusal != "" && c.What == string(history.Write) && (a.Stale == "" || c.Client == a.Stale)
	}):
		return NoteRefused
	case a.Harmless == checker.HarmlessFencedOrder || a.Harmless == checker.HarmlessClaimOrder:
		return NoteInOrder
	}
	return NoteNoHarm
}

// contended reports whether the lock of run r refused a client's acquire
// while another client's key stood on a node (a Refusal claim whose key
// was set by someone else): the lock had a contender to exclude.
func contended(r Results) bool {
	return slices.ContainsFunc(r.Claims, func(c claim.Claim) bool {
		return c.Kind == claim.Refusal && !c.Own && c.By != "" && c.By != c.Client
	})
}

// outlivedTTL reports whether a client of run r believed it held a lock
// for longer than the TTL it was granted with (the run's Hold claims): a
// job longer than the lease threatens safety as a fault does, so a valid
// run that had one kept safety though it planned no fault (a watchdog
// that renewed the lease through a 45 s job under a 30 s TTL).
func outlivedTTL(r Results) bool {
	return slices.ContainsFunc(r.Claims, func(c claim.Claim) bool {
		return c.Kind == claim.Hold && c.Believed && c.TTL > 0 && c.End-c.Start > c.TTL
	})
}

// gaveUp is the first hold of run r whose client believed it held a lock
// for longer than its TTL and whose belief ended because the lock told it
// the lease was lost (a Hold claim ended account.HoldLost), if any: a
// renewer that gave a still-running job's lock up (watchdog-bounded's
// cap), so the lock came free without the job's end.
func gaveUp(r Results) (claim.Claim, bool) {
	i := slices.IndexFunc(r.Claims, func(c claim.Claim) bool {
		return c.Kind == claim.Hold && c.Believed && c.TTL > 0 && c.End-c.Start > c.TTL && c.How == account.HoldLost
	})
	if i < 0 {
		return claim.Claim{}, false
	}
	return r.Claims[i], true
}

// boundedOrphan reports whether a is an informational orphaned lease its
// TTL ended within one TTL of its holder's end (the checker's
// Cause.Bounded): the lock came free by itself, late; lesson 42's
// deadlock-free and liveness ask no more.
func boundedOrphan(a checker.Anomaly) bool {
	return a.Kind == checker.KindOrphanedLease && a.Informational && a.Cause != nil && a.Cause.Bounded
}

// orphanBound is run r's first bounded orphaned lease (boundedOrphan).
func orphanBound(r Results) (checker.Anomaly, bool) {
	i := slices.IndexFunc(r.Anomalies, boundedOrphan)
	if i < 0 {
		return checker.Anomaly{}, false
	}
	return r.Anomalies[i], true
}

// struckHolder reports whether a fault that stops, cuts off or crashes a
// client (holderEffects) struck one while it held a lock: when the fault
// fired, a key or a permit of that client lived on a node, or the client
// believed it held one (the run's claims: the account's facts). A fault
// on a waiter, or on no client, can strand no lock, so it does not test
// deadlock-freedom.
func struckHolder(r Results) bool {
	for _, f := range r.Claims {
		if f.Kind != claim.Fault || f.Fault == nil || !slices.Contains(holderEffects, f.Fault.Effect) {
			continue
		}
		targets := slices.Clone(f.Fault.Clients)
		for _, l := range f.Fault.Links {
			targets = append(targets, l.Client)
		}
		if slices.ContainsFunc(r.Claims, func(c claim.Claim) bool {
			return (c.Kind == claim.KeyLife || c.Kind == claim.Hold || c.Kind == claim.Permit) &&
				slices.Contains(targets, c.Client) && c.Start <= f.Start && f.Start <= c.End
		}) {
			return true
		}
	}
	return false
}

// stripCell tells what run r showed of req (MarkOf, the same rule as
// requirements.html): kept, broken, spared (safety broken by the course's
// definition, no harm done), not applying (the run takes no lock) or not
// shown, with the mark's note.
func stripCell(lang Lang, r Results, req string) (text, class string) {
	m := MarkOf(r, req)
	switch m.Showing {
	case Kept, Broken, Spared:
		return markText(lang, r, m), markClass(m.Showing)
	}
	if m.Note == NoteTakesNoLock {
		return "– " + tr(lang, "req.na", algorithmLabel(r)), ""
	}
	return "– " + tr(lang, "lesson.strip.notshown"), ""
}
