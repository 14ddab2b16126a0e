package verify_test

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// adviceRun reads a stored run of the report's advice tests
// (report/testdata/advice: real redis-server runs).
func adviceRun(name string) func(*testing.T) history.History {
	return func(t *testing.T) history.History {
		h, err := history.ReadFile(filepath.Join("..", "..", "report", "testdata", "advice", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
}

// TestVerifierRefusesAMutatedPremise takes, for each remedy premise of
// the report's advice table, a claim it rests on in a run where it holds,
// and checks that the verifier accepts it and refuses it changed into a
// premise the run did not have.
func TestVerifierRefusesAMutatedPremise(t *testing.T) {
	cases := []mutation{
		{"class 8: the crash the fencing caveat rests on is not told as a kill that kept the writes", adviceRun("power-loss-everysec"),
			fault(history.EffectCrashNode), func(c *claim.Claim) { c.Fault.PowerLoss = false }},
		{"class 8: a node that kept its writes through its crash is not told under weaker persistence", adviceRun("power-loss-always"),
			kind(claim.Absent, func(c claim.Claim) bool { return c.What == claim.NoCrashLoss }), func(c *claim.Claim) { c.Persistence = "aof-everysec" }},
		{"class 2: the pause a paused holder's story rests on is not told of another client", corpus("c05-semaphore-over-admission"),
			fault(history.EffectFreezeClient), func(c *claim.Claim) { c.Fault.Clients = []string{"w9"} }},
		{"class 2: the purged permit a purge story rests on is not told as purged by its own holder", adviceRun("semaphore-clock-ahead-purge"),
			kind(claim.Permit, func(c claim.Claim) bool { return c.How == "purged" }), func(c *claim.Claim) { c.By = c.Client }},
		{"class 10: a scheduler's clock offset the cron advice rests on is not told larger", adviceRun("cron-lock-per-fire-short-ttl"),
			kind(claim.ClockOffset, func(c claim.Claim) bool { return c.Client != "" }), func(c *claim.Claim) { c.Offset *= 2 }},
		{"class 10: the TTL the cron advice rests on is the acquire's", adviceRun("cron-lock-per-fire-short-ttl"),
			kind(claim.Hold, nil), func(c *claim.Claim) { c.TTL *= 2 }},
		{"the WAIT the wait-for-all advice rests on is not told as asking for every replica", adviceRun("failover-wait-two-replicas"),
			kind(claim.Hold, func(c claim.Claim) bool { return c.Wait == 1 }), func(c *claim.Claim) { c.Wait = 2 }},
		{"a holder that WAITed is not told as one that did not", adviceRun("failover-wait-two-replicas"),
			kind(claim.Hold, func(c claim.Claim) bool { return c.Wait == 1 }), func(c *claim.Claim) { c.Wait = 0 }},
		{"a stale write a token check would have refused is not told of the newer holder", adviceRun("counter-gc-pause"),
			kind(claim.Anomaly, func(c claim.Claim) bool { return len(c.Fenceable) > 0 }), func(c *claim.Claim) { c.Client, c.By = c.By, c.Client }},
		{"a stale write a token check would have refused is not told of a write before the newer holder's", adviceRun("counter-gc-pause"),
			kind(claim.Anomaly, func(c claim.Claim) bool { return len(c.Fenceable) > 0 }), func(c *claim.Claim) { c.Fenceable = []int{2} }},
		{"the older holder's write before the newer holder's first is not told as one after it", adviceRun("redlock-clock-jump"),
			kind(claim.Anomaly, func(c claim.Claim) bool { return c.What == "mutex-overlap" }), func(c *claim.Claim) {
				c.By, c.Fenceable = "w2", append([]int{}, c.Records[2:]...)
			}},
		{"a holder that did not WAIT is not told as one that did", corpus("c19m-lock-lost-in-failover-advice"),
			kind(claim.Hold, nil), func(c *claim.Claim) { c.Wait = 1 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.try(t) })
	}
}

// TestVerifierRefusesAnAbsenceTheRunHad claims, of a run, the absence a
// remedy rests on that another run states truly, and checks that the
// verifier accepts it of the run without the fact and refuses it of the
// run with it.
func TestVerifierRefusesAnAbsenceTheRunHad(t *testing.T) {
	for _, tc := range []struct {
		name          string
		what          string
		without, with func(*testing.T) history.History
	}{
		{"no pause is not claimed of a run whose holder was paused (class 2)", claim.NoPause,
			adviceRun("semaphore-clock-ahead-purge"), corpus("c05-semaphore-over-admission")},
		{"no purge is not claimed of a run whose permits were purged (class 2)", claim.NoPurge,
			adviceRun("semaphore-basic-clock-skew"), adviceRun("semaphore-clock-ahead-purge")},
		{"no lost writes are not claimed of a node that lost its last second in a power loss (class 8)", claim.NoCrashLoss,
			adviceRun("power-loss-always"), adviceRun("power-loss-everysec")},
		{"no lost writes are not claimed of a master whose failover promoted a replica that lacked its counter (fooler)", claim.NoCrashLoss,
			adviceRun("power-loss-always"), adviceRun("failover-fence-regression")},
		{"an untested fencing token is not claimed of a run whose resource refused a stale token (teacher14 T14-1)", claim.NoFenceRefusal,
			corpus("c53a-fenced-valid-token-untested"), corpus("c37a-janitor-delete-at-the-nodes-del")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.without(t)
			c, ok := claim.Find(claimsOf(h), func(c claim.Claim) bool { return c.Kind == claim.Absent && c.What == tc.what })
			if !ok {
				t.Fatalf("the run without it claims no absence %q", tc.what)
			}
			if r := verify.Verify(h, []claim.Claim{c}); r.Held != 1 {
				t.Fatalf("the true claim %+v is not accepted: %+v", c, r)
			}
			other := tc.with(t)
			if slices.ContainsFunc(claimsOf(other), func(o claim.Claim) bool { return o.Kind == claim.Absent && o.What == tc.what }) {
				t.Errorf("the account claims the absence %q of the run that had it", tc.what)
			}
			c.Persistence = other.Header.Persistence[c.Node] // the same node, as that run has it
			r := verify.Verify(other, []claim.Claim{c})
			if len(r.Failures) != 1 {
				t.Fatalf("the false claim %+v is not refused: %+v", c, r)
			}
			t.Logf("refused: %s (records %v)", r.Failures[0].Reason, r.Failures[0].Records)
		})
	}
}

// TestVerifierChecksAnExperimentAgainstThePlan: an experiment claim
// (what a headline's cause and the remedy's fixed_by sentence rest on)
// names a change of this run's plan, else it is refused; its verdict,
// another run's, is left to that run's results (not checkable here).
func TestVerifierChecksAnExperimentAgainstThePlan(t *testing.T) {
	h := corpus("c05-semaphore-over-admission")(t)
	pause := h.Header.Plan[0]
	if pause.Effect != history.EffectFreezeClient {
		t.Fatalf("step 1 of the run is %s, not a pause", pause.Effect)
	}
	shorter := pause
	shorter.Duration /= 2
	jump := pause
	jump.Kind, jump.Effect, jump.Duration, jump.Delta = "clock-jump", history.EffectClientClock, 0, 5e9
	for _, tc := range []struct {
		name string
		c    claim.Claim
		ok   bool
	}{
		{"the run without its pause is an experiment of the run", claim.Claim{Kind: claim.Experiment, What: "without", Step: pause.ID, How: "valid"}, true},
		{"the run with its pause halved is an experiment of the run", claim.Claim{Kind: claim.Experiment, What: "half", Step: pause.ID, How: "invalid"}, true},
		{"the fixed_by file's run is an experiment of the run", claim.Claim{Kind: claim.Experiment, What: "fixed-by", How: "valid"}, true},
		{"a step the plan does not have is refused", claim.Claim{Kind: claim.Experiment, What: "without", Step: 99, How: "valid"}, false},
		{"a fixed_by run that names a step is refused", claim.Claim{Kind: claim.Experiment, What: "fixed-by", Step: pause.ID, How: "valid"}, false},
		{"the fixed_by file's run with its own faults, lacking the pause, is an experiment of the run", claim.Claim{Kind: claim.Experiment, What: "fixed-by-own", Steps: []int{pause.ID}, How: "valid"}, true},
		{"a fix with its own faults that lacks a step the plan does not have is refused", claim.Claim{Kind: claim.Experiment, What: "fixed-by-own", Steps: []int{99}, How: "valid"}, false},
		{"a change no experiment makes is refused", claim.Claim{Kind: claim.Experiment, What: "double", Step: pause.ID, How: "valid"}, false},
		{"the fixed_by file's run with the pause shortened is an experiment of the run", claim.Claim{Kind: claim.Experiment, What: "fixed-by-own",
			Changed: []claim.StepChange{{Step: pause.ID, To: shorter}}, How: "valid"}, true},
		{"a fix that changes a step the plan does not have is refused", claim.Claim{Kind: claim.Experiment, What: "fixed-by-own",
			Changed: []claim.StepChange{{Step: 99, To: shorter}}, How: "valid"}, false},
		{"a fix said to change the pause into the same pause is refused", claim.Claim{Kind: claim.Experiment, What: "fixed-by-own",
			Changed: []claim.StepChange{{Step: pause.ID, To: pause}}, How: "valid"}, false},
		{"a fix said to change the pause into another kind of fault is refused", claim.Claim{Kind: claim.Experiment, What: "fixed-by-own",
			Changed: []claim.StepChange{{Step: pause.ID, To: jump}}, How: "valid"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := verify.Verify(h, []claim.Claim{tc.c})
			if refused := len(r.Failures) == 1; refused == tc.ok || (tc.ok && r.Unchecked[verify.ExperimentUnchecked] != 1) {
				t.Errorf("claim %+v: %+v", tc.c, r)
			}
		})
	}
}

// TestAnExperimentsCountOfAcceptedProtectedWritesIsCheckedAgainstItsHistory:
// an experiment claim that counts the writes of the protected actions its
// run's resource accepted holds only with the count its history shows.
func TestAnExperimentsCountOfAcceptedProtectedWritesIsCheckedAgainstItsHistory(t *testing.T) {
	ex := history.History{Ops: []history.Op{
		{F: history.Write, Type: history.OK, Complete: 5, Value: history.Value{Action: "charge"}},
		{F: history.Write, Type: history.Fail, Complete: 6, Value: history.Value{Action: "charge"}},
		{F: history.Write, Type: history.OK, Complete: 7, Value: history.Value{Action: "mark-paid"}},
	}}
	n := func(v int64) *int64 { return &v }
	tests := []struct {
		name string
		c    claim.Claim
		hold bool
	}{
		{"one accepted charge, counted as one, holds", claim.Claim{Kind: claim.Experiment, Num: n(1), Actions: []string{"charge"}}, true},
		{"the same run counted as charging nothing is refused", claim.Claim{Kind: claim.Experiment, Num: n(0), Actions: []string{"charge"}}, false},
		{"a refused charge or another action is not counted", claim.Claim{Kind: claim.Experiment, Num: n(2), Actions: []string{"charge"}}, false},
		{"a claim that counts nothing is not checked", claim.Claim{Kind: claim.Experiment}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if why := verify.ExperimentEffects(tt.c, ex); (why == "") != tt.hold {
				t.Errorf("holds %v (%s), want %v", why == "", why, tt.hold)
			}
		})
	}
}

// TestAnExperimentsKindsAreCheckedAgainstItsResults: the remedy tells
// which of the run's anomalies a partial fix's experiment no longer
// showed from its claim's kinds (redis-semaphore 5.3.1: no double charge,
// still two holders), so the claim holds only with the kinds its
// results.json records.
func TestAnExperimentsKindsAreCheckedAgainstItsResults(t *testing.T) {
	tests := []struct {
		name     string
		kinds    []string
		recorded []string
		hold     bool
	}{
		{"the recorded kinds, in another order, hold", []string{"mutex-overlap", "double-effect"}, []string{"double-effect", "mutex-overlap"}, true},
		{"a kind the experiment did not show is refused", []string{"mutex-overlap", "double-effect"}, []string{"mutex-overlap"}, false},
		{"a kind left out is refused", []string{"mutex-overlap"}, []string{"mutex-overlap", "double-effect"}, false},
		{"a claim that names no kinds is not checked", nil, []string{"mutex-overlap"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := claim.Claim{Kind: claim.Experiment, How: "invalid", Kinds: tt.kinds}
			if why := verify.ExperimentKinds(c, tt.recorded); (why == "") != tt.hold {
				t.Errorf("holds %v (%s), want %v", why == "", why, tt.hold)
			}
		})
	}
}

// TestVerifierChecksACheckersCounts: a checker's row on the page is its
// Check claim, whose counts (final probes, fenced keys, ok acquires,
// faults) the verifier counts in the raw history again: the checkers'
// own claims of stored runs hold, and each count one off is refused, as
// is a count the claim kind does not define.
func TestVerifierChecksACheckersCounts(t *testing.T) {
	for _, name := range []string{"safe-unlock-s4", "gc-pause-s42", "cache-rebuild-waste-s8", "leader-split-brain-s20"} {
		h, err := history.ReadFile(filepath.Join("..", "..", "report", "testdata", "pages", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		var checks []claim.Claim
		for _, c := range claimsOf(h) {
			if c.Kind == claim.Check {
				checks = append(checks, c)
			}
		}
		if len(checks) == 0 {
			t.Fatalf("%s: the checkers made no check claim", name)
		}
		t.Run("the checkers' counts of "+name+" hold", func(t *testing.T) {
			if r := verify.Verify(h, checks); len(r.Failures) > 0 || r.Held+r.Unchecked[verify.CheckUnchecked] != len(checks) || r.Held == 0 {
				t.Errorf("%+v%s", r, describe(r))
			}
		})
		for _, c := range checks {
			for k := range c.Counts {
				t.Run(fmt.Sprintf("%s's %s of %s one more than it is is refused", c.What, k, name), func(t *testing.T) {
					m := c
					m.Counts = maps.Clone(c.Counts)
					m.Counts[k]++
					if r := verify.Verify(h, []claim.Claim{m}); len(r.Failures) != 1 {
						t.Errorf("the false count %v is not refused: %+v", m.Counts, r)
					}
				})
			}
		}
	}
	t.Run("a count the kind does not define is refused", func(t *testing.T) {
		h := corpus("c05-semaphore-over-admission")(t)
		c := claim.Claim{Kind: claim.Check, What: "mutex", How: "valid", Counts: map[string]int{"happy-clients": 3}}
		if r := verify.Verify(h, []claim.Claim{c}); len(r.Failures) != 1 {
			t.Errorf("%+v", r)
		}
	})
}
