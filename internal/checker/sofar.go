package checker

import (
	"context"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// SoFar judges a run that is still going (locksim serve's live view) from
// h, the part of its history streamed so far, in which no client
// operation is left open (the caller drops those: their outcome is not a
// fact yet). It derives the run's account and returns it with the
// findings that stay true whatever the rest of the run does: what the
// resource accepted (the effects checker: a second charge, an oversell, a
// lost update, a second run of a job, a stale leader's write, …), a
// fencing token that went back (fencing), and a key removed by a client
// whose token it was not (foreign-unlock). A mutex overlap is left out:
// whether the stale holder did harm is decided by what it does next (a
// fenced resource refuses its writes); porcupine, liveness and coverage
// judge a whole run only. Each checker runs inside the recover wrapper of
// Check; one that panics or is cancelled contributes nothing. The account
// is nil when it cannot be derived.
func SoFar(ctx context.Context, h history.History) (*account.Account, []Anomaly) {
	a, err := newAccount(h)
	if err != nil {
		return nil, nil
	}
	var out []Anomaly
	for _, c := range checkers {
		if c.name != CheckerMutex && c.name != CheckerFencing && c.name != CheckerEffects {
			continue
		}
		r := safeRun(ctx, c.name, c.run, a, Options{}, &Report{})
		for _, an := range r.Anomalies {
			if an.Kind != KindMutexOverlap {
				out = append(out, an)
			}
		}
	}
	return a, out
}
