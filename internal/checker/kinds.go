package checker

import (
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// KindAbout is one anomaly kind as `locksim list` shows it: its name, what
// kind of promise it is a finding about (ClassSafety, ClassLiveness,
// ClassEfficiency) and one line on what it means.
type KindAbout struct {
	Name, Class, About string
}

// What an anomaly kind is a finding about (KindAbout.Class).
const (
	// ClassSafety: something that must never happen did (a violation
	// whatever the scenario).
	ClassSafety = "safety"
	// ClassLiveness: something that must eventually happen did not (a
	// violation only with expect_live, informational otherwise).
	ClassLiveness = "liveness"
	// ClassEfficiency: work was wasted, nothing was corrupted (always
	// informational).
	ClassEfficiency = "efficiency"
)

// kindAbout is one line per anomaly kind (history.AnomalyKinds).
var kindAbout = map[string]string{
	KindMutexOverlap:       "two clients believed they held one lock at the same time (a semaphore: more holders than permits)",
	KindDoubleEffect:       "an invoice was charged more than once",
	KindStaleWriteAccepted: "the resource accepted a write of a holder whose lease a newer holder had superseded",
	KindForeignUnlock:      "a client's command removed a lock key that another client held",
	KindLostUpdate:         "a read-modify-write under the lock silently overwrote another client's update",
	KindOversell:           "more items were sold than the stock held",
	KindOverAdmission:      "more clients than permits were inside the semaphore at once",
	KindSplitBrain:         "writes of two leaders were accepted after a newer term began",
	KindDuplicateRun:       "a scheduled job ran more than once for one fire time (harmless only if it is idempotent)",
	KindTokenRegression:    "fencing tokens did not strictly increase, so the resource cannot tell a stale holder",
	KindUnavailable:        "a live client could not get a lock that was free, or no one could for too long",
	KindStuckLock:          "after every fault healed, the final probe could not acquire the lock",
	KindOrphanedLease:      "a key no live client believed it held kept the others out",
	KindNotLinearizable:    "no order of the lock and resource operations fits one holder at a time (porcupine)",
	KindDuplicateWork:      "two clients did the same work under an efficiency lock: waste, not corruption",
	KindResurrectedLease:   "a holder's owner token was set again on a lock key that had ended, after another client was granted it",
	KindHiddenLapse:        "a lease ended while its holder held it, the lock then said it was still the holder's, and the holder acted untold",
}

// Kinds lists every anomaly kind a checker can report, in the order of
// history.AnomalyKinds and then the workloads' own (workload.AnomalyKinds,
// each a safety finding), each with its class and one line.
func Kinds() []KindAbout {
	var out []KindAbout
	for _, k := range history.AnomalyKinds() {
		c := ClassSafety
		switch {
		case history.AlwaysInformational(k):
			c = ClassEfficiency
		case history.LivenessKind(k):
			c = ClassLiveness
		}
		out = append(out, KindAbout{Name: k, Class: c, About: kindAbout[k]})
	}
	for _, k := range workload.AnomalyKinds() {
		a, _ := workload.AnomalyOf(k)
		out = append(out, KindAbout{Name: k, Class: ClassSafety, About: a.About})
	}
	return out
}
