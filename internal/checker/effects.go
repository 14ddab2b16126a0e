package checker

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/locksim/locksim/internal/history"
)

// Effects is the effects checker for the payment workload (design §8,
// lock-theory §8.1 DOUBLE_EFFECT, §9 S01, S03): per invoice key, count the
// charges the payment gateway accepted (write, Action "charge", type ok).
// More than one is a double-effect anomaly; the window runs from the first
// accepted charge's Complete to the second's (true ns). Charges with an
// unknown outcome (info) are not counted: they may not have happened.
func Effects(ctx context.Context, h history.History) Result {
	charges := map[string][]int{}
	var keys []string
	for i := range h.Ops {
		op := &h.Ops[i]
		if !accepted(*op) || op.Value.Action != ActionCharge || !isClientOp(*op) {
			continue
		}
		if _, ok := charges[op.Key]; !ok {
			keys = append(keys, op.Key)
		}
		charges[op.Key] = append(charges[op.Key], i)
	}
	if err := ctx.Err(); err != nil {
		return Result{Checker: CheckerEffects, Verdict: Unknown, Summary: "not checked: " + err.Error()}
	}
	sort.Strings(keys)
	var anomalies []Anomaly
	total := 0
	for _, k := range keys {
		cs := charges[k]
		total += len(cs)
		if len(cs) < 2 {
			continue
		}
		sortIdx(h, cs, completeOf)
		var who, clients []string
		var ops []int
		for _, i := range cs {
			op := h.Ops[i]
			who = append(who, fmt.Sprintf("%s at %s", op.Client, at(h, op.Complete)))
			clients = append(clients, op.Client)
			ops = append(ops, op.Index)
		}
		explain := fmt.Sprintf("%s was charged %d times (%s); a payment must happen once", k, len(cs), strings.Join(who, ", "))
		anomalies = append(anomalies, newAnomaly(h, KindDoubleEffect, k, clients,
			h.Ops[cs[0]].Complete, h.Ops[cs[1]].Complete, explain, ops...))
	}
	if total == 0 {
		return Result{Checker: CheckerEffects, Verdict: Valid, Summary: "no accepted charges"}
	}
	if len(anomalies) == 0 {
		return Result{Checker: CheckerEffects, Verdict: Valid,
			Summary: fmt.Sprintf("%s on %s, none twice", plural(total, "accepted charge", "accepted charges"), plural(len(keys), "invoice", "invoices"))}
	}
	return Result{Checker: CheckerEffects, Verdict: Invalid,
		Summary: fmt.Sprintf("%s charged more than once", plural(len(anomalies), "invoice", "invoices")), Anomalies: anomalies}
}
