package checker

import (
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
)

// The helpers package finding shares with the workloads' effects rules,
// under the names the checkers here use.
var (
	open       = finding.Open
	isClientOp = finding.ClientOp
	accepted   = finding.Accepted
	secs       = finding.Secs
	at         = finding.At
	newAnomaly = finding.New
	plural     = finding.Plural
	actionName = finding.ActionName
	sortIdx    = finding.SortIdx
	invokeOf   = finding.InvokeOf
	completeOf = finding.CompleteOf
	bearing    = finding.Bearing
)

// fenceRefusal reports whether a refused write was refused because of its
// lease: a stale fencing token (or epoch, lock-theory §7.2) or, under
// check-and-set, an owner token that is no longer the resource's currlock
// (§7.3) — the resource's own reason codes. A refusal for any other
// reason is no evidence about who held the lock.
func fenceRefusal(op history.Op) bool {
	return op.Value.Refusal == history.RefusalStaleFence || op.Value.Refusal == history.RefusalLockChanged
}
