package verify_test

import (
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// semaphore is a one-node history of sorted-set commands on "sem" (times
// in ms): a permit w1 added, then what else ran.
func semaphore(ops ...history.Op) history.History {
	base := []history.Op{nodeCmd("w1", "sem", 10, "zadd", "sem", "1000", "p1")}
	return small(append(base, ops...)...)
}

func failoverOp(at int64, p history.Promotion) history.Op {
	st := &history.FaultStep{ID: 1, Kind: "failover", Effect: history.EffectFailover, Nodes: []string{"n1"}, FailoverMode: "crash",
		Promotions: []history.Promotion{p}}
	return history.Op{Process: history.NemesisProcess, Client: "nemesis", F: history.Fault, Value: history.Value{Fault: st},
		Invoke: at, Complete: at + 100, Type: history.OK}
}

// TestVerifierRefusesAnAbsenceAnotherRecordBelies crafts, for each absence a
// remedy rests on, a run whose records show the fact by another command or
// fault than the one the verifier first looked for, and checks it is
// refused; the runs without the fact keep the claim.
func TestVerifierRefusesAnAbsenceAnotherRecordBelies(t *testing.T) {
	noPurge := claim.Claim{Kind: claim.Absent, What: claim.NoPurge, Node: "n1", Key: "sem"}
	noLoss := claim.Claim{Kind: claim.Absent, What: claim.NoCrashLoss, Node: "n1", Persistence: "aof-always"}
	always := func(h history.History) history.History {
		h.Header.Persistence = map[string]string{"n1": "aof-always"}
		return h
	}
	for _, tc := range []struct {
		name  string
		h     history.History
		c     claim.Claim
		holds bool
	}{
		{"no purge is refused where another client's ZREM removed a holder's permit",
			semaphore(nodeCmd("w2", "sem", 20, "zrem", "sem", "p1")), noPurge, false},
		{"no purge is refused where a ZREMRANGEBYRANK removed a holder's permit",
			semaphore(nodeCmd("w2", "sem", 20, "zremrangebyrank", "sem", "0", "0")), noPurge, false},
		{"no purge is refused where a ZPOPMIN took a holder's permit",
			semaphore(nodeCmd("w2", "sem", 20, "zpopmin", "sem")), noPurge, false},
		{"no purge is refused where a ZREMRANGEBYSCORE covered a holder's score",
			semaphore(nodeCmd("w2", "sem", 20, "zremrangebyscore", "sem", "-inf", "1500")), noPurge, false},
		{"no purge is refused where another client's DEL emptied the set of a holder's permit",
			semaphore(nodeCmd(history.AdminClient, "sem", 20, "del", "sem")), noPurge, false},
		{"no purge holds where the holder deleted the set holding its permit alone",
			semaphore(nodeCmd("w1", "sem", 20, "del", "sem")), noPurge, true},
		{"no purge holds where the holder removed its own permit",
			semaphore(nodeCmd("w1", "sem", 20, "zrem", "sem", "p1")), noPurge, true},
		{"no purge holds where a ZREMRANGEBYSCORE's range held no member",
			semaphore(nodeCmd("w2", "sem", 20, "zremrangebyscore", "sem", "-inf", "(1000")), noPurge, true},
		{"no lost writes are refused of an aof-always master whose failover promoted a replica behind it",
			always(small(failoverOp(50, history.Promotion{Group: "n1", Old: "n1", Promoted: "r1", MasterOffset: 900, PromotedOffset: 700}))), noLoss, false},
		{"no lost writes are refused of an aof-always master whose failover promoted no replica",
			always(small(failoverOp(50, history.Promotion{Group: "n1", Old: "n1", MasterOffset: 900}))), noLoss, false},
		{"no lost writes hold of an aof-always master whose failover promoted a replica that had everything",
			always(small(failoverOp(50, history.Promotion{Group: "n1", Old: "n1", Promoted: "r1", MasterOffset: 900, PromotedOffset: 900}))), noLoss, true},
		{"no lost writes are refused of an aof-everysec node that lost power",
			func() history.History {
				h := small(history.Op{Process: history.NemesisProcess, Client: "nemesis", F: history.Fault, Invoke: 50, Complete: 60, Type: history.OK,
					Value: history.Value{Fault: &history.FaultStep{ID: 1, Kind: "crash", Effect: history.EffectCrashNode, Nodes: []string{"n1"}, PowerLoss: true}}})
				h.Header.Persistence = map[string]string{"n1": "aof-everysec"}
				return h
			}(), claim.Claim{Kind: claim.Absent, What: claim.NoCrashLoss, Node: "n1", Persistence: "aof-everysec"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := verify.Verify(tc.h, []claim.Claim{tc.c})
			if tc.holds && r.Held != 1 {
				t.Errorf("the true claim %+v is not accepted: %+v", tc.c, r)
			}
			if !tc.holds && len(r.Failures) != 1 {
				t.Errorf("the false claim %+v is not refused: %+v", tc.c, r)
			}
		})
	}
}

// TestTheAccountClaimsNoPurgeOnlyWhereNoOneElseRemovedAPermit: the
// account's no-purge claim (what "no permit was purged" advice rests on)
// is made of a set only its holders' own ZREMs emptied, and not of one
// another client's ZREM or DEL removed a permit from.
func TestTheAccountClaimsNoPurgeOnlyWhereNoOneElseRemovedAPermit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		h     history.History
		claim bool
	}{
		{"a set whose holder removed its own permit is claimed unpurged", semaphore(nodeCmd("w1", "sem", 20, "zrem", "sem", "p1")), true},
		{"a set another client's ZREM took a permit from is not", semaphore(nodeCmd("w2", "sem", 20, "zrem", "sem", "p1")), false},
		{"a set an operator's DEL emptied is not", semaphore(nodeCmd(history.AdminClient, "sem", 20, "del", "sem")), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := claimsOf(tc.h)
			c, ok := claim.Find(cs, func(c claim.Claim) bool { return c.Kind == claim.Absent && c.What == claim.NoPurge })
			if ok != tc.claim {
				t.Fatalf("no-purge claimed: %v, want %v (%+v)", ok, tc.claim, cs)
			}
			if r := verify.Verify(tc.h, cs); len(r.Failures) > 0 {
				t.Errorf("false claims: %+v (claim %+v)", r.Failures, c)
			}
		})
	}
}

// TestAnExperimentsRunIsTheRunChangedAsClaimed: an experiment's verdict
// counts only when its run is this run changed as the claim says (same
// seed; the plan without the step, with it halved, or kept), so that a
// valid run of something else does not pass for the counterfactual.
func TestAnExperimentsRunIsTheRunChangedAsClaimed(t *testing.T) {
	pause := func(id int, client string, d int64) history.FaultStep {
		return history.FaultStep{ID: id, Kind: "pause", Effect: history.EffectFreezeClient, Clients: []string{client}, Duration: d}
	}
	run := history.Header{Seed: 7, Plan: []history.FaultStep{pause(1, "w1", 4e9), pause(2, "w2", 4e9)}}
	with := func(seed int64, plan ...history.FaultStep) history.Header {
		return history.Header{Seed: seed, Plan: plan}
	}
	for _, tc := range []struct {
		name string
		c    claim.Claim
		ex   history.Header
		ok   bool
	}{
		{"the run without w1's pause is the experiment without step 1", claim.Claim{What: "without", Step: 1}, with(7, pause(1, "w2", 4e9)), true},
		{"the run without w2's pause is not the experiment without step 1", claim.Claim{What: "without", Step: 1}, with(7, pause(1, "w1", 4e9)), false},
		{"the same change under another seed is not the experiment", claim.Claim{What: "without", Step: 1}, with(8, pause(1, "w2", 4e9)), false},
		{"the run with w1's pause halved is the experiment at half step 1", claim.Claim{What: "half", Step: 1}, with(7, pause(1, "w1", 2e9), pause(2, "w2", 4e9)), true},
		{"the run with w2's pause halved is not the experiment at half step 1", claim.Claim{What: "half", Step: 1}, with(7, pause(1, "w1", 4e9), pause(2, "w2", 2e9)), false},
		{"a fix run with the same faults is the fixed_by experiment", claim.Claim{What: "fixed-by"}, with(7, pause(1, "w1", 4e9), pause(2, "w2", 4e9)), true},
		{"a fix run without the faults is not the fixed_by experiment", claim.Claim{What: "fixed-by"}, with(7), false},
		{"a fix with its own faults, the run's without step 2, is the fixed-by-own experiment that lacks step 2", claim.Claim{What: "fixed-by-own", Steps: []int{2}}, with(7, pause(1, "w1", 4e9)), true},
		{"a fix run with the run's faults is not the fixed-by-own experiment that lacks step 2", claim.Claim{What: "fixed-by-own", Steps: []int{2}}, with(7, pause(1, "w1", 4e9), pause(2, "w2", 4e9)), false},
		{"a fix run with the run's own plan is not a fix with faults of its own", claim.Claim{What: "fixed-by-own"}, with(7, pause(1, "w1", 4e9), pause(2, "w2", 4e9)), false},
		{"a fix run with another fault is a fix with faults of its own", claim.Claim{What: "fixed-by-own"}, with(7, pause(1, "w2", 1e9)), true},
		{"a fix run with w1's pause shortened is the fixed-by-own experiment that changed step 1", claim.Claim{What: "fixed-by-own",
			Changed: []claim.StepChange{{Step: 1, To: pause(1, "w1", 1e9)}}}, with(7, pause(1, "w1", 1e9), pause(2, "w2", 4e9)), true},
		{"a fix run with w1's pause kept is not the experiment that changed step 1", claim.Claim{What: "fixed-by-own",
			Changed: []claim.StepChange{{Step: 1, To: pause(1, "w1", 1e9)}}}, with(7, pause(1, "w1", 4e9), pause(2, "w2", 4e9)), false},
		{"a fix run with w2's pause shortened is not the experiment that changed step 1", claim.Claim{What: "fixed-by-own",
			Changed: []claim.StepChange{{Step: 1, To: pause(1, "w1", 1e9)}}}, with(7, pause(1, "w1", 4e9), pause(2, "w2", 1e9)), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			why := verify.ExperimentRun(tc.c, run, tc.ex)
			if (why == "") != tc.ok {
				t.Errorf("ExperimentRun = %q, want it to hold: %v", why, tc.ok)
			}
		})
	}
}
