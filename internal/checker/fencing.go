package checker

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// Fencing is the fencing checker (design §8; Kleppmann 2016, fencing tokens;
// lock-theory §7, §9 S06, S06b). Per key:
//
//   - token-regression: every ok acquire's fencing token must be above the
//     token of every ok acquire that completed before it was invoked, and no
//     token may be granted twice. (Real-time order, not Complete order:
//     two concurrent acquires may linearize either way, so only a grant that
//     certainly came later must carry the higher token.)
//   - stale-write-accepted: an accepted write must not carry a token lower
//     than a write accepted (completed) before it was invoked. Equal tokens
//     are fine: one holder writes several times.
//
// Acquires and writes with Fence 0 carry no token and are skipped; when no
// op has Fence > 0 nothing was checked: the result is Valid with
// NotChecked set, "not checked: no operation carried a fencing token".
func Fencing(ctx context.Context, h history.History) Result {
	acq := map[string][]int{}
	wr := map[string][]int{}
	var keys []string
	any := false
	for i := range h.Ops {
		op := &h.Ops[i]
		if op.Value.Fence > 0 {
			any = true
		}
		if op.Value.Fence <= 0 || !isClientOp(*op) || op.Complete < 0 {
			continue
		}
		switch {
		case op.F == history.Acquire && op.Type == history.OK:
		case accepted(*op):
		default:
			continue
		}
		if _, ok := acq[op.Key]; !ok {
			if _, ok := wr[op.Key]; !ok {
				keys = append(keys, op.Key)
			}
		}
		if op.F == history.Acquire {
			acq[op.Key] = append(acq[op.Key], i)
		} else {
			wr[op.Key] = append(wr[op.Key], i)
		}
	}
	if !any {
		return Result{Checker: CheckerFencing, Verdict: Valid, NotChecked: true, Summary: "not checked: no operation carried a fencing token"}
	}
	sort.Strings(keys)
	var anomalies []Anomaly
	regressions, stale := 0, 0
	// The number the writes carry: the lock's fencing token, or the
	// workload's own epoch when the lock issues none.
	word, words, whose := "fencing token", "fencing tokens", ""
	if !h.Header.LockFences() {
		word, words, whose = "epoch", "epochs", " (the epoch is the workload's own number: the lock issues no fencing token)"
	}
	for _, k := range keys {
		if err := ctx.Err(); err != nil {
			return Result{Checker: CheckerFencing, Verdict: Unknown, Summary: "not checked: " + err.Error()}
		}
		for _, p := range fenceSweep(h, acq[k], true) {
			prev, cur := h.Ops[p[0]], h.Ops[p[1]]
			explain := fmt.Sprintf("%s was granted fencing token %d for %s at %s, not above token %d granted to %s at %s; a lock service's tokens must strictly increase",
				cur.Client, cur.Value.Fence, k, at(h, cur.Complete), prev.Value.Fence, prev.Client, at(h, prev.Complete))
			an := newAnomaly(h, KindTokenRegression, k, []string{prev.Client, cur.Client},
				min(prev.Complete, cur.Complete), max(prev.Complete, cur.Complete), explain, prev.Index, cur.Index)
			an.Stale, an.Current = cur.Client, prev.Client // the later grant repeats or undercuts the earlier one
			an.Repeated = cur.Value.Fence == prev.Value.Fence
			anomalies = append(anomalies, an)
			regressions++
		}
		for _, p := range fenceSweep(h, wr[k], false) {
			prev, cur := h.Ops[p[0]], h.Ops[p[1]]
			explain := fmt.Sprintf("the resource accepted %s's %s on %s with %s %d at %s after it had accepted %s %d from %s at %s; a stale one must be refused%s",
				cur.Client, actionName(cur), k, word, cur.Value.Fence, at(h, cur.Complete), word, prev.Value.Fence, prev.Client, at(h, prev.Complete), whose)
			an := newAnomaly(h, KindStaleWriteAccepted, k, []string{prev.Client, cur.Client},
				prev.Complete, cur.Complete, explain, prev.Index, cur.Index)
			an.Stale, an.Current = cur.Client, prev.Client
			anomalies = append(anomalies, an)
			stale++
		}
	}
	if len(anomalies) == 0 {
		return Result{Checker: CheckerFencing, Verdict: Valid,
			Summary: fmt.Sprintf("%s increase on %s", words, plural(len(keys), "key", "keys")),
			Counts:  map[string]int{claim.FencedKeys: len(keys)}}
	}
	var parts []string
	if regressions > 0 {
		parts = append(parts, plural(regressions, "token regression", "token regressions"))
	}
	if stale > 0 {
		parts = append(parts, plural(stale, "stale write accepted", "stale writes accepted"))
	}
	return Result{Checker: CheckerFencing, Verdict: Invalid, Summary: strings.Join(parts, ", "), Anomalies: anomalies}
}

// fenceSweep returns pairs (earlier, later) of positions where later was
// invoked after earlier completed but carries a token below earlier's
// (strict: also equal, for grants). For grants it also reports a token
// granted twice to concurrent acquires.
func fenceSweep(h history.History, idx []int, strict bool) [][2]int {
	if len(idx) < 2 {
		return nil
	}
	byInv := append([]int(nil), idx...)
	sortIdx(h, byInv, invokeOf)
	byComp := append([]int(nil), idx...)
	sortIdx(h, byComp, completeOf)
	var out [][2]int
	reported := map[[2]int]bool{}
	best, j := -1, 0
	for _, x := range byInv {
		for j < len(byComp) && h.Ops[byComp[j]].Complete < h.Ops[x].Invoke {
			if best < 0 || h.Ops[byComp[j]].Value.Fence > h.Ops[best].Value.Fence {
				best = byComp[j]
			}
			j++
		}
		if best < 0 {
			continue
		}
		f, bf := h.Ops[x].Value.Fence, h.Ops[best].Value.Fence
		if f < bf || (strict && f == bf) {
			out = append(out, [2]int{best, x})
			reported[[2]int{best, x}] = true
		}
	}
	if strict {
		seen := map[int64]int{}
		for _, x := range byComp {
			f := h.Ops[x].Value.Fence
			if p, ok := seen[f]; ok {
				if !reported[[2]int{p, x}] {
					out = append(out, [2]int{p, x})
				}
				continue
			}
			seen[f] = x
		}
	}
	return out
}

// issuerCauses gives each token regression of r the account's reason the
// counter went back between the two grants (Account.IssuerLoss): a
// failover to a replica that lacked the counter's last INCR, or a crash of
// its node. A regression with neither keeps no cause.
func issuerCauses(a *account.Account, r Result) Result {
	for i := range r.Anomalies {
		an := &r.Anomalies[i]
		if an.Kind != KindTokenRegression || len(an.Ops) < 2 {
			continue
		}
		prev, cur := a.H.Ops[an.Ops[0]], a.H.Ops[an.Ops[1]]
		if l, ok := a.IssuerLoss(prev.Invoke, cur.Complete); ok {
			an.Cause = &Cause{Kind: l.Kind, Step: l.Step, Nodes: l.Nodes, At: l.At, Client: an.Current}
		}
	}
	return r
}
