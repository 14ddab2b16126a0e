package checker

import (
	"context"
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// Effects is the effects checker (design §8, lock-theory §8.1): it judges
// what the protected resource accepted, by every registered workload's
// effects rules (workload.Kind.Effects), in the registry's order, from the
// resource's own decisions (writes typed ok = accepted). Writes with an
// unknown outcome (info) are not counted: they may not have happened. Each
// rule looks only at its own actions, so a history of any workload runs
// them all: a double charge, a lost update, an oversell, a duplicate run,
// split brain, a stale job record, over-admission, duplicate work (always
// informational) — each workload's file says what it judges.
func Effects(ctx context.Context, h history.History) Result { return effects(ctx, account.New(h)) }

func effects(ctx context.Context, a *account.Account) Result {
	ix := workload.NewIndex(a.H)
	var anomalies []Anomaly
	var parts []string
	unknown := false
	for _, k := range workload.Kinds() {
		for _, r := range k.Effects {
			if err := ctx.Err(); err != nil {
				return Result{Checker: CheckerEffects, Verdict: Unknown, Summary: "not checked: " + err.Error()}
			}
			f := r(a, ix)
			anomalies = append(anomalies, f.Anomalies...)
			if f.Summary != "" {
				parts = append(parts, f.Summary)
			}
			unknown = unknown || f.Unknown
		}
	}
	if len(parts) == 0 {
		return Result{Checker: CheckerEffects, Verdict: Valid, Summary: "no accepted charges or other effects to judge"}
	}
	v := verdictOf(anomalies)
	if unknown && v == Valid {
		v = Unknown
	}
	return Result{Checker: CheckerEffects, Verdict: v, Summary: strings.Join(parts, "; "), Anomalies: anomalies}
}
