package verify

import (
	"maps"
	"slices"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// CheckUnchecked is the reason a Check claim that states no count is not
// checkable: its verdict is its checker's judgement, which this package
// does not repeat.
const CheckUnchecked = "check: a verdict with no count to recount"

// checkCounts recounts each count of a Check claim in the raw history, as
// package claim defines it; a count it does not define is refused.
func (v *verifier) checkCounts(c claim.Claim) outcome {
	if len(c.Counts) == 0 {
		return skip(CheckUnchecked)
	}
	for _, k := range slices.Sorted(maps.Keys(c.Counts)) {
		n, recs, ok := v.count(k)
		if !ok {
			return refuse(nil, "%s's count %q is not a count a check claim states", c.What, k)
		}
		if n != c.Counts[k] {
			return refuse(recs, "%s says %d %s; the history has %d", c.What, c.Counts[k], k, n)
		}
	}
	return held
}

// count is the count named k of the history (claim.Check's definitions)
// and the records counted.
func (v *verifier) count(k string) (int, []int, bool) {
	var match func(op history.Op) bool
	client := func(op history.Op) bool {
		return op.Process != history.NodeProcess && op.Process != history.NemesisProcess && op.Key != ""
	}
	switch k {
	case claim.FinalProbes:
		match = func(op history.Op) bool { return op.F == history.Probe && op.Key != "" }
	case claim.FailedProbes:
		match = func(op history.Op) bool {
			return op.F == history.Probe && op.Key != "" && (op.Type != history.OK || op.Complete < 0)
		}
	case claim.OKAcquires:
		match = func(op history.Op) bool {
			return client(op) && op.F == history.Acquire && op.Type == history.OK && op.Complete >= 0
		}
	case claim.RefusedAcquires:
		match = func(op history.Op) bool {
			return client(op) && op.F == history.Acquire && op.Type == history.Fail
		}
	case claim.AcceptedWrites:
		match = func(op history.Op) bool {
			return client(op) && op.F == history.Write && op.Type == history.OK && op.Complete >= 0
		}
	case claim.Faults:
		match = func(op history.Op) bool {
			return op.F == history.Fault && op.Value.Fault != nil && op.Type != history.Fail
		}
	case claim.FencedKeys:
		keys := map[string]bool{}
		var recs []int
		for _, op := range v.h.Ops {
			if client(op) && op.Value.Fence > 0 && op.Complete >= 0 && op.Type == history.OK &&
				(op.F == history.Acquire || op.F == history.Write) {
				if !keys[op.Key] {
					recs = append(recs, op.Index)
				}
				keys[op.Key] = true
			}
		}
		return len(keys), recs, true
	default:
		return 0, nil, false
	}
	var recs []int
	for _, op := range v.h.Ops {
		if match(op) {
			recs = append(recs, op.Index)
		}
	}
	return len(recs), recs, true
}
