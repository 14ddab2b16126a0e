// Package finding holds what a checker finds — verdicts, anomalies and
// their causes as data — and the helpers the checkers and the workloads'
// effects rules share to find them. It sits below both (design §11:
// history ← account ← finding ← workload ← checker), so a workload judges
// its own effects without importing the checker.
package finding

import "github.com/locksim/locksim/internal/history"

// Verdict of a checker or a whole run.
type Verdict string

// Verdicts, merged invalid > unknown > valid.
const (
	Valid   Verdict = "valid"
	Invalid Verdict = "invalid"
	Unknown Verdict = "unknown"
)

// Anomaly is one finding. Start and End are true time (wall ns since the
// run's start); StartS and EndS are the same instants in scenario seconds.
type Anomaly struct {
	Kind    string   `json:"kind"`
	Clients []string `json:"clients"`
	// The clients by what they did, where the kind has roles: Stale is the
	// holder (or leader, or writer) whose lease was superseded and Current
	// the one that superseded it (mutex-overlap, split-brain,
	// stale-write-accepted, token-regression); Deleter removed Owner's key
	// (foreign-unlock); Owner also holds a stuck or orphaned lease.
	Stale   string `json:"stale,omitempty"`
	Current string `json:"current,omitempty"`
	// Fenceable (mutex-overlap) are the history indices of Stale's writes
	// the resource accepted after it had accepted a write of Current in
	// Current's hold (each invoked after that write completed): the writes
	// a resource refusing any token lower than one it has seen would have
	// refused, with no claim first. Empty: the stale holder's writes all
	// came before (or with) the newer holder's first write.
	Fenceable []int `json:"fenceable,omitempty"`
	// Accepted (a mutex-overlap that is not informational) are the history
	// indices of Stale's writes the resource accepted in the overlap's
	// window, in invoke order: the harm the overlap did, as Explain's "and
	// the resource accepted …" tells it. Empty when it accepted none (two
	// holders at once, no stale write let through).
	Accepted []int `json:"accepted,omitempty"`
	// Later (an informational anomaly with a Stale holder) is the history
	// index of Stale's first write to Key the resource accepted after the
	// anomaly's End, before Stale's next granted acquire of Key
	// (account.LaterWrite); -1 when there is none, nil when not looked
	// for.
	Later   *int    `json:"later,omitempty"`
	Deleter string  `json:"deleter,omitempty"`
	Owner   string  `json:"owner,omitempty"`
	Key     string  `json:"key"`
	Start   int64   `json:"start_ns"`
	End     int64   `json:"end_ns"`
	StartS  float64 `json:"start_s"`
	EndS    float64 `json:"end_s"`
	// Since is, for a stuck lock, when its holder took the lock (its ok
	// acquire's completion; for an acquire of unknown outcome, when the
	// node set its key), true ns. Start is then when the holder stopped
	// using the lock, as Quit says (Since itself when it never did).
	Since int64 `json:"since_ns,omitempty"`
	// Quit is, for a stuck lock, how its holder stopped using the lock at
	// Start (Quit* below); "" when it never did (it still believed it held
	// the lock when the run ended).
	Quit string `json:"quit,omitempty"`
	// Cause is why it happened, as data (see Cause); nil when the kind
	// needs none.
	Cause *Cause `json:"cause,omitempty"`
	// Explain is one plain English sentence, in scenario time, rendered
	// from the fields above.
	Explain string `json:"explain"`
	// Ops are the history indices the anomaly is about.
	Ops []int `json:"ops,omitempty"`
	// At is the instant the anomaly became true (true ns; AtS in scenario
	// seconds): the event that completes it — the second hold's start of
	// an overlap, the entry past the permits; the last of the writes that
	// are the violation (Violating); else End (a liveness finding is
	// known when its window closes).
	At  int64   `json:"at_ns"`
	AtS float64 `json:"at_s"`
	// Violating are the history indices of the accepted writes that are
	// the violation itself — the second charge, the stale leader's write,
	// the sale past the stock — as a timeline marks them; empty for kinds
	// about holds, not writes.
	Violating []int `json:"violating,omitempty"`
	// Lost are the history indices of the accepted writes a lost update
	// wiped out (its later write undid them), in invoke order.
	Lost []int `json:"lost,omitempty"`
	// Repeated: a token regression whose later grant carried the same
	// token as the earlier one (repeated, not lower).
	Repeated bool `json:"repeated,omitempty"`
	// Informational anomalies are reported but do not make the verdict
	// invalid (e.g. a believed-hold overlap whose stale holder the fenced
	// resource refused every time).
	Informational bool `json:"informational,omitempty"`
	// Harmless says why an informational anomaly did no harm (Harmless*).
	Harmless string `json:"harmless,omitempty"`
}

// How a stuck lock's holder stopped using it (Anomaly.Quit). The
// release ones name the holder's release of the lock (the anomaly's
// last op), invoked at the anomaly's Start: it got no answer (lost on
// the way, or its reply lost: its outcome unknown), it was answered
// fail (the node refused it), or answered ok though the key stayed.
const (
	QuitReleaseLost   = "release-lost"
	QuitReleaseFailed = "release-failed"
	QuitReleaseKept   = "release-kept"
	// QuitCrashed: a crash-client fault killed the holder at Start.
	QuitCrashed = "crashed"
	// QuitDone and QuitLost: the holder left its critical section (done)
	// or gave the lease up as lost at Start, its op the anomaly's last,
	// and sent no release of it.
	QuitDone = "done"
	QuitLost = "lost"
)

// Why an informational anomaly did no harm (Anomaly.Harmless).
const (
	// HarmlessFenced: the resource refused the stale holder's writes by
	// their fencing token or epoch.
	HarmlessFenced = "fenced"
	// HarmlessNoWrite: under an enforcing fence, the stale holder (the
	// lower token) wrote nothing to the resource while both held, and the
	// resource refused none of its writes: the fence was never tested,
	// so it is credited with nothing (teacher 7, F26: host-sleep-fenced,
	// whose w1 stopped on its failed renewal before any write).
	HarmlessNoWrite = "no-write"
	// HarmlessFencedOrder: the resource accepted the stale holder's writes,
	// all before the fresh holder (with the higher fencing token) first
	// read or wrote it: it saw the holders serially, in token order
	// (lock-theory §7.2, S03).
	HarmlessFencedOrder = "fenced-order"
	// HarmlessClaimOrder: the check-and-set twin of HarmlessFencedOrder:
	// the resource accepted the stale holder's writes while its currlock
	// still held the stale holder's token, all before the fresh holder
	// first read or wrote it (its claim stores the fresh token): it saw
	// the holders serially, in claim order (antirez 2016, lock-theory
	// §7.3). Neither scheme can refuse a write that lands before the new
	// holder's first use, so both count it alike.
	HarmlessClaimOrder = "claim-order"
	// HarmlessCheckAndSet: the resource refused the stale holder's writes
	// because its currlock held the newer holder's token (check_and_set,
	// lock-theory §7.3).
	HarmlessCheckAndSet = "check-and-set"
	// HarmlessIdempotent: the idempotency key let only one charge through.
	HarmlessIdempotent = "idempotent"
	// HarmlessEfficiency: an efficiency lock; the overlap is wasted work.
	HarmlessEfficiency = "efficiency"
	// HarmlessLiveness: a liveness finding the scenario does not hold the
	// run to (no expect_live).
	HarmlessLiveness = "liveness"
	// HarmlessBounded: an orphaned lease of a scenario that expects
	// liveness, ended within one TTL of its holder's belief: the lock came
	// free by itself, as its TTL promises, which liveness allows.
	HarmlessBounded = "bounded"
	// HarmlessMinHold: an orphaned lease whose key its owner's own
	// release kept for the lock's minimum hold (Cause.MinHold), by design.
	HarmlessMinHold = "min-hold"
	// HarmlessBusy: a liveness finding of a run whose machine was too busy
	// to keep its compressed time (coverage TimingLost): its bounds were
	// the machine's, not the lock's.
	HarmlessBusy = "busy"
	// HarmlessUncontended: a hidden lapse during which no other client was
	// granted the lock, so no one else acted under it.
	HarmlessUncontended = "uncontended"
)

// Cause is why an anomaly happened, as data: the fact of the run's account
// that made it possible. The report renders it in its languages and the
// checker's Explain in English; neither works a cause out of its own.
type Cause struct {
	// Kind is how the stale holder's key (or permit) left its node — an
	// account End kind: expired, deleted, janitor, crashed, clock, taken,
	// flushed, overwritten, purged — or one of the Cause* kinds below.
	Kind string `json:"kind"`
	// Client is whose key (or permit) it was.
	Client string `json:"client,omitempty"`
	// Nodes are where it ended (the node that let the other client in).
	Nodes []string `json:"nodes,omitempty"`
	// At is when it ended, true ns.
	At int64 `json:"at_ns"`
	// By is the client whose command removed it (deleted, restored, purged).
	By string `json:"by,omitempty"`
	// Step is the fault step that ended it (janitor, crashed, clock,
	// restored), or During's step.
	Step int `json:"step,omitempty"`
	// TTL is the lease's TTL (wall ns).
	TTL int64 `json:"ttl_ns,omitempty"`
	// Paused: the client was frozen (a stop-the-world pause) when its key
	// ended. PauseUsed: a pause that ended before then used up part of
	// the lease.
	Paused    bool `json:"paused,omitempty"`
	PauseUsed bool `json:"pause_used,omitempty"`
	// During is the fault step (other than a pause) that bore on the
	// client when its key ended: a partition that cut it off, a clock
	// fault on its own clock.
	During int `json:"during,omitempty"`
	// Observed: the node events show it (else the account inferred it
	// from the clients' outcomes).
	Observed bool `json:"observed,omitempty"`
	// Write is the history index of the write the stale holder made on the
	// lost lock (double-effect); 0 with no such write.
	Write int `json:"write,omitempty"`
	// Keys are the Redis keys the stale and the fresh holder locked, for
	// CauseOtherKey.
	Keys []string `json:"keys,omitempty"`
	// Reset is when the stale holder's own command (an extend that sets a
	// missing key: redlock-rb #36, BR-08) created its key again with its
	// token after the key had gone and before its late write (true ns);
	// 0 when it did not. The gap stayed hidden from the holder.
	Reset int64 `json:"reset_ns,omitempty"`
	// StaleFence and FreshFence are, for an overlap of fenced holders, the
	// stale holder's fencing token and the fresh holder's when the
	// stale one's was the higher though its lock was the older: its
	// acquire returned its token after the fresh holder's acquire had
	// returned its own (a token taken after the grant, as redlock-fenced's
	// INCR after the quorum), so the resource took the stale holder for
	// the newer one. 0 otherwise.
	StaleFence int64 `json:"stale_fence,omitempty"`
	FreshFence int64 `json:"fresh_fence,omitempty"`
	// Renewed is, for a stuck lock or an orphaned lease, the completion of
	// the holder's last renewal (an ok extend, true ns) when its renewals
	// kept the key past its TTL — while no one used it (BR-21, S15b);
	// 0 when none did.
	Renewed int64 `json:"renewed_ns,omitempty"`
	// ExtendedBy is, for an orphaned lease, another client whose commands
	// moved the key's deadline after its owner stopped believing it held
	// it (an extend that does not check the owner, over a key it never
	// held: rq #1707, BR-25), as the node showed them; Extended is the
	// last such move (true ns). "" and 0 when none did.
	ExtendedBy string `json:"extended_by,omitempty"`
	// Unbelieved is, for an orphaned lease, that its owner never believed
	// it held the key: the acquire whose SET made it got no answer.
	Unbelieved bool  `json:"unbelieved,omitempty"`
	Extended   int64 `json:"extended_ns,omitempty"`
	// MinHold is, for an orphaned lease, that its key expired at the end
	// its owner's own release set (the release kept it for the lock's
	// minimum hold, ShedLock's lockAtLeastFor: a PEXPIRE, or a SET … XX,
	// instead of a delete): kept on purpose, not orphaned. Kept is when
	// that release's command set it (true ns).
	MinHold bool  `json:"min_hold,omitempty"`
	Kept    int64 `json:"kept_ns,omitempty"`
	// Bounded is, for an orphaned lease, that its key's TTL ended it
	// (Kind expired) no later than one TTL after its owner stopped
	// believing it held it: the lock came free by itself (lesson 42's
	// deadlock-free), only late.
	Bounded bool `json:"bounded,omitempty"`
	// LeaseEnd is, for CauseKeptByOthers, when the owner's own lease on
	// the key ran out (true ns).
	LeaseEnd int64 `json:"lease_end_ns,omitempty"`
}

// Cause kinds beyond the account's End kinds.
const (
	// CausePossible: one of the holders acted on an acquire whose outcome
	// it never learnt (it may never have been granted).
	CausePossible = "possible"
	// CauseHeld: the lock was granted while the other client's key still
	// existed (a lock that does not exclude: no Redis key, or no NX).
	CauseHeld = "held"
	// CauseUnknown: the history shows no reason.
	CauseUnknown = "unknown"
	// CauseReentered: the fresh holder was granted the stale holder's own
	// key, re-entering it with the same owner token (a token that names
	// the process, not the holder; BR-26).
	CauseReentered = "reentered"
	// CauseSharerReleased: the key the stale holder's re-entered grant
	// rested on was removed by its owner, who shares the token (By), and
	// the fresh holder acquired it.
	CauseSharerReleased = "sharer-released"
	// CauseOtherKey: the two holders locked different Redis keys for one
	// resource (Keys: the stale holder's, then the fresh one's), so
	// neither lock could exclude the other (BR-33).
	CauseOtherKey = "other-key"
	// CauseRenewed: a stuck lock's holder kept renewing it (a watchdog
	// whose job hung or had finished), so its TTL never ran out.
	CauseRenewed = "renewed"
	// CauseNodeHeldAnother: the fresh holder was told it was granted
	// while its granting nodes (Nodes), observed throughout, held the
	// stale owner's key (Client) and set none for it: two owners at once
	// by the nodes' own record, whatever either believed.
	CauseNodeHeldAnother = "node-held-another"
	// CauseKeptByOthers: an unavailable stretch whose lock key stood on a
	// node (Nodes) after its owner's lease ran out (LeaseEnd: the TTL its
	// start gave it and its owner's own extends), kept there by another
	// client's deadline commands (ExtendedBy, the last at Extended) until
	// At (rq #1707, BR-25): the key was live in Redis, no one's lease.
	CauseKeptByOthers = "kept-by-others"
)

// madeOfEvents are the kinds whose window runs from an event that was no
// violation yet (the first grant of a token, the first charge, the write a
// later one wiped out) to the event that made it one (At): the violation
// held from At, not over the window.
var madeOfEvents = map[string]bool{
	history.AnomalyTokenRegression: true, history.AnomalyStaleWriteAccepted: true, history.AnomalyDoubleEffect: true,
	history.AnomalyDuplicateRun: true, history.AnomalyLostUpdate: true, history.AnomalyOversell: true,
}

// HeldFromS is when the violation held from, scenario seconds: At for a
// kind made of events (a token granted twice was no violation at its
// first grant), else the window's start (two holders at once, the lock
// unavailable: the window is the violation). A timeline's band starts
// here.
func (a Anomaly) HeldFromS() float64 {
	if madeOfEvents[a.Kind] && a.AtS >= a.StartS && a.AtS <= a.EndS {
		return a.AtS
	}
	return a.StartS
}
