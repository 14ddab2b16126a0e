package verify_test

import (
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/why"
)

// TestAnExperimentsFiredStepIsCheckedAgainstItsHistory: a fix's
// experiment claim says how each step it changed fired in its run (when,
// and whether its client was inside its acquire or held the lock: a crash
// after the acquire returned is another experiment than the run's crash
// inside it, reader 2's finding 3). What package why reads from the
// experiment's history holds; each changed variant is refused.
func TestAnExperimentsFiredStepIsCheckedAgainstItsHistory(t *testing.T) {
	ex := corpus("c30a-crash-after-unanswered-set")(t) // w1 killed inside its acquire
	st := ex.Header.Plan[0]
	changed := []claim.StepChange{{Step: 7, To: st}}
	fired := why.FiredIn(ex, changed)
	if len(fired) != 1 || fired[0].State != claim.Acquiring || fired[0].Client != "w1" {
		t.Fatalf("the crash fired as %+v, want once, inside w1's acquire", fired)
	}
	c := claim.Claim{Kind: claim.Experiment, What: "fixed-by-own", Changed: changed, Fired: fired}
	if why := verify.ExperimentFired(c, ex); why != "" {
		t.Fatalf("the claim as package why makes it is refused: %s", why)
	}
	for _, tc := range []struct {
		name   string
		mutate func(*claim.Fired)
	}{
		{"a crash inside the acquire is not told as one after it returned", func(f *claim.Fired) { f.State = claim.Holding }},
		{"a crash inside the acquire is not told as one while the client was idle", func(f *claim.Fired) { f.State = "" }},
		{"the crash is not told at another instant", func(f *claim.Fired) { f.At += 5e6 }},
		{"the crash's scenario time is that run's", func(f *claim.Fired) { f.AtS *= 2 }},
		{"a step the fix did not change is not told as fired", func(f *claim.Fired) { f.Step = 8 }},
		{"the crash is not told of another client", func(f *claim.Fired) { f.Client = "w2" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := c
			bad.Fired = slices.Clone(fired)
			tc.mutate(&bad.Fired[0])
			why := verify.ExperimentFired(bad, ex)
			if why == "" {
				t.Fatalf("the false claim %+v is not refused", bad.Fired[0])
			}
			t.Logf("refused: %s", why)
		})
	}
}

// TestANodeCrashFiredWhenItsNodeDied: a crash of nodes fired, in the
// experiment's run, when its node died (the step's dead_from, the instant
// that run's own report tells its crash at), not when the nemesis began
// the step: the parent said "n3's node crash came at t=1.1s" of an
// experiment whose own page said "t=1.2s n3 crashed" (a sixth reader,
// A14).
func TestANodeCrashFiredWhenItsNodeDied(t *testing.T) {
	ex := corpus("c37b-delayed-restart-held-in-practice")(t)
	i := slices.IndexFunc(ex.Ops, func(op history.Op) bool { return op.Value.Fault != nil && op.Value.Fault.Kind == "crash" })
	op := ex.Ops[i]
	if op.Value.DeadFrom <= op.Invoke {
		t.Fatalf("the crash step recorded no death after its start: %+v", op.Value)
	}
	changed := []claim.StepChange{{Step: 3, To: *op.Value.Fault}}
	fired := why.FiredIn(ex, changed)
	if len(fired) != 1 || fired[0].At != op.Value.DeadFrom {
		t.Fatalf("the crash fired as %+v, want at n3's death, %d (the step began at %d)", fired, op.Value.DeadFrom, op.Invoke)
	}
	c := claim.Claim{Kind: claim.Experiment, What: "fixed-by-own", Changed: changed, Fired: fired}
	if why := verify.ExperimentFired(c, ex); why != "" {
		t.Fatalf("the claim as package why makes it is refused: %s", why)
	}
	bad := c
	bad.Fired = []claim.Fired{{Step: 3, At: op.Invoke, AtS: ex.Header.ScenarioSeconds(op.Invoke)}}
	if why := verify.ExperimentFired(bad, ex); why == "" {
		t.Fatalf("a crash told at the step's start (%d), not at its node's death, is not refused", op.Invoke)
	}
}
