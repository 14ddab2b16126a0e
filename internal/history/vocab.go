package history

// The vocabulary of a history, in one place: refusal reasons, client pause
// points, the header's parameter names and algorithm traits. The scenario
// parser, the runner, the checkers and the report all use these constants;
// none spells the words again. Workload kinds and their resource actions
// are each workload's own (package workload).

import "slices"

// Refusal reasons of the resource (Value.Refusal of a Write of type Fail).
const (
	// RefusalStaleFence: the write's fencing token (or leader epoch) is
	// lower than the highest the resource has seen for the object
	// (Value.SeenFence); Kleppmann 2016, lock-theory §7.2.
	RefusalStaleFence = "stale-fence"
	// RefusalDuplicateKey: the charge's idempotency key was already used
	// (lock-theory S19).
	RefusalDuplicateKey = "duplicate-key"
	// RefusalLockChanged: the resource checks the lock's unique token
	// (workload check_and_set, lock-theory §7.3): the write's token is not
	// the one the resource last stored as currlock — another client
	// claimed since: a newer holder, or a stale one whose claim came late
	// (redlock-gc-pause-cas-stale-claim).
	RefusalLockChanged = "lock-changed"
	// RefusalLockMismatch: a token-checked job-record write (Bull's
	// "Missing lock" / "Lock mismatch") found the lock key on the node
	// gone or holding another owner token.
	RefusalLockMismatch = "lock-mismatch"
	// RefusalOutOfStock: the atomic sale found no stock left.
	RefusalOutOfStock = "out-of-stock"
)

// Refusal reasons of a lock (Value.Refusal of an Acquire of type Fail):
// why the lock said no when the nodes alone would have said yes.
const (
	// RefusalNotReplicated: the node set the key, but WAIT got fewer
	// replica acknowledgements than the algorithm asks for, so the
	// client gave the key back and refused (safe-wait, issue 17): the
	// replication guard, not the key of another holder, refused it.
	RefusalNotReplicated = "not-replicated"
	// RefusalValidity: a quorum of the nodes set the key, but the acquire
	// took so long that the lease's validity (its TTL less the time taken
	// and the clock drift allowance) had run out (Redlock, redis.io
	// distlock): the client gave the lock up.
	RefusalValidity = "validity"
	// RefusalLoading: the node answered -LOADING: it was still loading
	// its dataset (AOF or RDB) after a restart and ran nothing, a
	// definite refusal, not an unknown outcome.
	RefusalLoading = "loading"
)

// Pause points of a client (design §5): where a point-triggered fault step
// fires inside the client's work.
const (
	PointAfterAcquire  = "after-acquire"
	PointBeforeWrite   = "before-write"
	PointBeforeRelease = "before-release"
	// PointInAcquire is inside a multi-node acquire, after the SET replies
	// arrived and before the elapsed time is measured (Redlock, S09).
	PointInAcquire = "in-acquire"
	// PointInRenew is before each renewal of a lease renewer (watchdog).
	PointInRenew = "in-renew"
	// PointBeforeToken is inside the acquire of a lock that takes its
	// fencing token in a step of its own after the grant (redlock-fenced:
	// INCR after the quorum and the validity check): a pause there lets
	// the lease expire before the holder has its token, so the next holder
	// may get a lower token than the stale one (Kleppmann 2016; issue 34).
	PointBeforeToken = "before-token"
)

// WorkPoints are the points every workload passes through while it holds a
// lease (a random point is drawn from these).
func WorkPoints() []string {
	return []string{PointAfterAcquire, PointBeforeWrite, PointBeforeRelease}
}

// Header.Params names.
const (
	ParamKeys    = "keys"    // protected objects per client
	ParamClients = "clients" // number of lock clients
	// ParamStock is the inventory's initial stock per item key.
	ParamStock = "stock"
	// ParamPermits is the semaphore's size.
	ParamPermits = "permits"
	// ParamIdempotency = 1: the payment gateway deduplicates charges by the
	// invoice as idempotency key (lock-theory S19).
	ParamIdempotency = "idempotency"
	// ParamCompletionToken = 1: the payment job ends with a token-checked
	// completion (ActionComplete) instead of an unchecked mark-paid, and a
	// refused completion is followed by a failure record;
	// ParamFailureRecordToken = 1: that failure record is token-checked
	// too (workload completion, failure_record).
	ParamCompletionToken    = "completion_token"
	ParamFailureRecordToken = "failure_record_token"
	// ParamFires, ParamIntervalNS (wall ns), ParamLockPerFire = 1 and
	// ParamSingleton = 1 describe the cron workload.
	ParamFires       = "fires"
	ParamIntervalNS  = "interval_ns"
	ParamLockPerFire = "lock_per_fire"
	ParamSingleton   = "singleton"
	// ParamTerms and ParamEpochCheck = 1 describe the leader workload.
	ParamTerms      = "terms"
	ParamEpochCheck = "epoch_check"
	// ParamProbeBoundNS is how long the final probe may wait, wall ns.
	ParamProbeBoundNS = "probe_bound_ns"
	// ParamExpectLive = 1 makes liveness findings violations.
	ParamExpectLive = "expect_live"
	// ParamUnavailableNS overrides the liveness checker's unavailable
	// bound, wall ns.
	ParamUnavailableNS = "unavailable_ns"
	// ParamMinAcquires overrides coverage's minimum of ok acquires (or, in
	// a lock-free history, of accepted writes).
	ParamMinAcquires = "min_acquires"
)

// Algorithm traits (Header.Traits), as the algorithm's registration
// declares them.
const (
	// TraitFenced: every grant carries an increasing fencing token.
	TraitFenced = "fenced"
	// TraitMultiNode: Redlock-style, granted by a quorum of independent
	// masters.
	TraitMultiNode = "multi-node"
	// TraitLockFree: no lock at all; the resource makes the operation safe.
	TraitLockFree = "lock-free"
	// TraitDeletesByKey: the release is a plain DEL of the key, whoever
	// holds it (naive; exists-check-force-unlock's forced unlock).
	TraitDeletesByKey = "deletes-by-key"
	// TraitProcess: the lock ran in a lock client process (algorithm
	// process): its library's own renewals are the library's, not a
	// watchdog of locksim's.
	TraitProcess = "process"
	// TraitInProcess: the lock is a mutex in the harness's own memory
	// (control-mutex): it keeps no key on any node and has no TTL, so a
	// grant holds until its owner releases it, however long it pauses.
	TraitInProcess = "in-process"
	// TraitNoLock: the acquire grants at once and takes nothing (no-lock,
	// the negative control): there is no lock to hold, lose or release.
	TraitNoLock = "no-lock"
)

// LockFences reports whether the numbers the history's writes carry
// (Value.Fence) are its lock's fencing tokens: its algorithm has
// TraitFenced. Otherwise they are the workload's own (the leader
// workload's epoch, counted by the workload when the lock issues none).
func (h Header) LockFences() bool { return slices.Contains(h.Traits, TraitFenced) }

// InProcess reports whether the header's algorithm is a mutex in the
// harness's memory (TraitInProcess), or — in a history written before the
// trait was recorded — the algorithm control-mutex.
func (h Header) InProcess() bool {
	return slices.Contains(h.Traits, TraitInProcess) || h.Algorithm == "control-mutex"
}

// NoLock reports whether the header's algorithm takes no lock at all
// (TraitNoLock), or — in a history written before the trait was recorded
// — is the algorithm no-lock.
func (h Header) NoLock() bool {
	return slices.Contains(h.Traits, TraitNoLock) || h.Algorithm == "no-lock"
}

// KeepsNoKey reports whether the header's algorithm keeps no lock key on
// any node (InProcess or NoLock): the nodes hold only the workload's
// resource, and no key life, expiry or removal of a lock key can be
// inferred from the clients' outcomes.
func (h Header) KeepsNoKey() bool { return h.InProcess() || h.NoLock() }

// DeletesByKey reports whether the header's algorithm releases with a
// plain DEL, whatever the key's owner: its trait, or — in a history
// written before the trait was recorded — the algorithm naive.
func (h Header) DeletesByKey() bool {
	return slices.Contains(h.Traits, TraitDeletesByKey) || h.Algorithm == "naive"
}
