package history

// Anomaly kinds: the names the checkers give what they find (design §8),
// and the words a scenario's `expect: {verdict: invalid, kinds: […]}` is
// written in. They live here, in the shared vocabulary, so that the
// scenario parser can validate them without importing the checker; the
// checker's Kind* constants are these values.
const (
	AnomalyMutexOverlap       = "mutex-overlap"
	AnomalyDoubleEffect       = "double-effect"
	AnomalyStaleWriteAccepted = "stale-write-accepted"
	AnomalyForeignUnlock      = "foreign-unlock"
	AnomalyLostUpdate         = "lost-update"
	AnomalyOversell           = "oversell"
	AnomalyOverAdmission      = "over-admission"
	AnomalySplitBrain         = "split-brain"
	AnomalyDuplicateRun       = "duplicate-run"
	AnomalyTokenRegression    = "token-regression"
	AnomalyUnavailable        = "unavailable"
	AnomalyStuckLock          = "stuck-lock"
	// AnomalyOrphanedLease: a key held on a node by a token that no live
	// client believes it holds, while contenders are refused.
	AnomalyOrphanedLease   = "orphaned-lease"
	AnomalyNotLinearizable = "not-linearizable"
	// AnomalyDuplicateWork is waste, not corruption (an efficiency lock);
	// it is always informational.
	AnomalyDuplicateWork = "duplicate-work"
	// AnomalyResurrectedLease: a holder's owner token was set again on a
	// lock key that had ended (expired or removed) and that another client
	// was granted in between (a refresh or extend that re-creates a
	// missing key: redis-semaphore #175, redlock-rb #36).
	AnomalyResurrectedLease = "resurrected-lease"
	// AnomalyHiddenLapse: a holder's lease ended while it held it, its lock
	// then said the lease was still its own (a renewal or extend that
	// succeeded, a release that said it removed the key), and the holder
	// was never told otherwise before it acted again or released.
	AnomalyHiddenLapse = "hidden-lapse"
)

// AnomalyKinds returns every anomaly kind, in the order of the constants
// above. The slice is the caller's: each call returns a new one.
func AnomalyKinds() []string {
	return []string{
		AnomalyMutexOverlap, AnomalyDoubleEffect, AnomalyStaleWriteAccepted, AnomalyForeignUnlock,
		AnomalyLostUpdate, AnomalyOversell, AnomalyOverAdmission, AnomalySplitBrain, AnomalyDuplicateRun,
		AnomalyTokenRegression, AnomalyUnavailable, AnomalyStuckLock, AnomalyOrphanedLease, AnomalyNotLinearizable, AnomalyDuplicateWork,
		AnomalyResurrectedLease, AnomalyHiddenLapse,
	}
}

// AlwaysInformational reports whether anomalies of kind never make a run
// invalid, whatever the scenario (wasted work under an efficiency lock).
func AlwaysInformational(kind string) bool { return kind == AnomalyDuplicateWork }

// LivenessKind reports whether kind is a liveness finding (a stuck lock, a
// client that could not get in), informational unless the scenario sets
// expect_live: true.
func LivenessKind(kind string) bool {
	return kind == AnomalyStuckLock || kind == AnomalyUnavailable || kind == AnomalyOrphanedLease
}

// NeedsNodeEvents reports whether finding kind can require the nodes'
// own record of what they executed: an orphaned lease granted by an
// acquire whose outcome its client never learned exists only on the node;
// a key set again with a lost lease's token, and the end of a lease its
// lock then vouched for, are judged on the nodes' record alone.
// A run without node events (the embedded backend, observe: false) cannot
// be held to show such a kind.
func NeedsNodeEvents(kind string) bool {
	return kind == AnomalyOrphanedLease || kind == AnomalyResurrectedLease || kind == AnomalyHiddenLapse
}
