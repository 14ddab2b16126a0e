package verify_test

import (
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// exposureRun is a one-node run whose holder acted after its lease ended
// with no contender trying in between: w1's key (tokA, 1000 ms) expires
// on n1 at 1105 ms; w1 charges at 1500 ms and marks paid at 1520 ms; w2
// tried at 500 ms (its SET NX met w1's key) and next at 2000 ms (granted).
// extra ops are appended after the run's own, indexed after them.
func exposureRun(extra ...history.Op) history.History {
	cmd, op := kCmdPlain, kOp
	ops := []history.Op{
		op(0, "w1", history.Acquire, history.OK, 100, 110, history.Value{Token: "tokA", TTL: 1000 * ms, Nodes: []string{"n1"}}),
		cmd("w1", 105, "set", "k", "tokA", "px", "1000", "nx"),
		op(1, "w2", history.Acquire, history.Fail, 500, 510, history.Value{TTL: 1000 * ms}),
		cmd("w2", 505, "set", "k", "tokB", "px", "1000", "nx"),
		op(0, "w1", history.Write, history.OK, 1500, 1510, history.Value{Action: "charge"}),
		op(0, "w1", history.Write, history.OK, 1520, 1530, history.Value{Action: "mark-paid"}),
		op(0, "w1", history.Release, history.OK, 1600, 1610, history.Value{Token: "tokA", Nodes: []string{"n1"}}),
		op(1, "w2", history.Acquire, history.OK, 2000, 2010, history.Value{Token: "tokC", TTL: 1000 * ms, Nodes: []string{"n1"}}),
		cmd("w2", 2005, "set", "k", "tokC", "px", "1000", "nx"),
		op(1, "w2", history.Release, history.OK, 2200, 2210, history.Value{Token: "tokC", Removed: true, Nodes: []string{"n1"}}),
		cmd("w2", 2205, "del", "k"),
	}
	return handRun(append(ops, extra...))
}

func exposureOf(t *testing.T, h history.History) claim.Claim {
	t.Helper()
	c, ok := claim.Find(claimsOf(h), kind(claim.Exposure, nil))
	if !ok {
		t.Fatal("the run makes no exposure claim")
	}
	return c
}

func TestAnExposureClaimStatesTheRunsWindowAndTries(t *testing.T) {
	h := exposureRun()
	c := exposureOf(t, h)
	want := claim.Claim{Kind: claim.Exposure, Client: "w1", Key: "k", Action: "charge", Start: 1105 * ms, At: 1500 * ms, End: 1530 * ms,
		LastTry: &claim.Try{Client: "w2", At: 505 * ms, Op: 2}, NextTry: &claim.Try{Client: "w2", At: 2000 * ms, Op: 7}}
	if c.Client != want.Client || c.Key != want.Key || c.Action != want.Action || c.Start != want.Start || c.At != want.At || c.End != want.End ||
		c.LastTry == nil || *c.LastTry != *want.LastTry || c.NextTry == nil || *c.NextTry != *want.NextTry || c.Short != nil ||
		!slices.Equal(c.Records, []int{4, 2, 7}) {
		t.Fatalf("claim %+v (last %+v, next %+v), want %+v (last %+v, next %+v), records [4 2 7]", c, c.LastTry, c.NextTry, want, want.LastTry, want.NextTry)
	}
	if r := verify.Verify(h, []claim.Claim{c}); r.Held != 1 {
		t.Fatalf("the true claim is not accepted: %+v", r)
	}
}

// TestTheVerifierRefusesAFalseExposure changes a true exposure claim
// (what the stored run's headline tells: "w1's charge came 1.0 s after
// its lease ended; no other client tried …") into a false one.
func TestTheVerifierRefusesAFalseExposure(t *testing.T) {
	hand := func(*testing.T) history.History { return exposureRun() }
	stored := checkerCase("unknown-exposure-no-contender-tried")
	exposure := kind(claim.Exposure, nil)
	cases := []mutation{
		{"the first write is told at its invoke, not later", hand, exposure, func(c *claim.Claim) { c.At += ms }},
		{"the first write is not told with another action", hand, exposure, func(c *claim.Claim) { c.Action = "refund" }},
		{"a later write is not told as the first after the lease's end", hand, exposure, func(c *claim.Claim) {
			c.Records[0], c.At, c.Action = 5, 1520*ms, "mark-paid"
		}},
		{"the lease does not end before its key left the node", hand, exposure, func(c *claim.Claim) { c.Start = 800 * ms }},
		{"the lease does not end well after its key left the node", hand, exposure, func(c *claim.Claim) { c.Start = 1300 * ms }},
		{"the window ends with the holder's last write, not before", hand, exposure, func(c *claim.Claim) { c.End = 1525 * ms }},
		{"the last try is told at an instant of its acquire", hand, exposure, func(c *claim.Claim) { c.LastTry.At = 700 * ms }},
		{"the holder's own acquire is not told as a contender's try", hand, exposure, func(c *claim.Claim) {
			c.LastTry = &claim.Try{Client: "w1", At: 110 * ms, Op: 0}
			c.Records[1] = 0
		}},
		{"a try before the window is not told as the next after it", hand, exposure, func(c *claim.Claim) {
			c.NextTry = &claim.Try{Client: "w2", At: 505 * ms, Op: 2}
			c.Records[2] = 2
		}},
		{"a try after the window is not left out for a later one", hand, exposure, func(c *claim.Claim) {
			c.NextTry = nil
			c.Records = c.Records[:2]
		}},
		{"an inferred lease does not end before its TTL from the acquire ran out", stored, exposure, func(c *claim.Claim) { c.Start -= 1500 * ms }},
		{"an inferred lease does not end after its TTL from the acquire's return ran out", stored, exposure, func(c *claim.Claim) { c.Start += 500 * ms }},
		{"the charge of the stored run is told at its invoke", stored, exposure, func(c *claim.Claim) { c.At -= 50 * ms }},
		{"the stored run's last try is not one earlier than the last", stored, exposure, func(c *claim.Claim) {
			c.LastTry.Op, c.Records[1] = 20, 20 // w2's acquire at 9.5 s, before the one at 10.0 s
			c.LastTry.At = 9510 * ms
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.try(t) })
	}
}

// TestTheVerifierRefusesAnExposureATryRefutes verifies a true exposure
// claim against the run with a contender's try inside the window added:
// the claim that no other client tried is then false.
func TestTheVerifierRefusesAnExposureATryRefutes(t *testing.T) {
	for _, tt := range []struct {
		name string
		hist func(extra ...history.Op) history.History
		try  []history.Op
	}{
		{"a refused acquire invoked inside the window refutes it", exposureRun,
			[]history.Op{kOp(1, "w2", history.Acquire, history.Fail, 1200, 1210, history.Value{TTL: 1000 * ms})}},
		{"an acquire granted inside the window refutes it", exposureRun,
			[]history.Op{kOp(2, "w3", history.Acquire, history.OK, 1000, 1200, history.Value{Token: "tokD", TTL: 1000 * ms, Nodes: []string{"n1"}})}},
		{"another client's command on the key that reached the node in the window refutes it", exposureRun,
			[]history.Op{kCmdPlain("w2", 1205, "set", "k", "tokD", "px", "1000", "nx")}},
		{"a contender's acquire moved into the stored run's window refutes it", storedExposureRun,
			[]history.Op{{Process: 1, Client: "w2", F: history.Acquire, Key: "invoice-1", Invoke: 10500 * ms, Complete: 10510 * ms, Type: history.Fail}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := exposureOf(t, tt.hist())
			if r := verify.Verify(tt.hist(), []claim.Claim{c}); r.Held != 1 {
				t.Fatalf("the true claim is not accepted: %+v", r)
			}
			r := verify.Verify(tt.hist(tt.try...), []claim.Claim{c})
			if len(r.Failures) != 1 {
				t.Fatalf("the claim %+v is not refused with the try added: %+v", c, r)
			}
			t.Logf("refused: %s (records %v)", r.Failures[0].Reason, r.Failures[0].Records)
		})
	}
}

// storedExposureRun is the checker corpus's untested exposure (no node
// recorded), with extra ops appended, indexed after the run's own.
func storedExposureRun(extra ...history.Op) history.History {
	h, err := history.ReadFile("../../checker/testdata/histories/unknown-exposure-no-contender-tried.jsonl")
	if err != nil {
		panic(err)
	}
	for _, op := range extra {
		op.Index = len(h.Ops)
		h.Ops = append(h.Ops, op)
	}
	return h
}

// TestAnExposureWithAShortTryIsChecked: the stored runs whose only tries
// inside the window could not have been granted make an exposure claim
// with a short try; the verifier reads each try's commands against the
// nodes' keys, and refuses the claim with its lease's end moved earlier,
// or its short try told as finding another count of free nodes, needing
// another count, or meeting another client's key.
func TestAnExposureWithAShortTryIsChecked(t *testing.T) {
	stored := func(t *testing.T) history.History {
		h, err := history.ReadFile("testdata/exposure-key-recreated-by-refresh.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	own := checkerCase("unknown-exposure-own-earlier-key-redis-semaphore-3-s707")
	quorum := checkerCase("unknown-exposure-short-of-quorum-client-clock-skew-s16")
	late := checkerCase("unknown-exposure-try-granted-after-client-clock-skew-s33")
	short := kind(claim.Exposure, func(c claim.Claim) bool { return c.Short != nil })
	cases := []mutation{
		{"a lease's end is not put before its key's (a try met w2's own earlier key)", own, short, func(c *claim.Claim) { c.Start -= 200 * ms }},
		{"a try that met its own client's earlier key is not told as meeting a third client's", own, short, func(c *claim.Claim) { c.Short.KeyOwner = "w3" }},
		{"a try on a lock of one node does not need more nodes", own, short, func(c *claim.Claim) { c.Short.Need = 3 }},
		{"a lease's end is not put before its key's (a quorum's try)", quorum, short, func(c *claim.Claim) { c.Start -= 200 * ms }},
		{"a try short of a quorum is told with the nodes it found free", quorum, short, func(c *claim.Claim) { c.Short.Met = 2 }},
		{"a try short of a quorum is not told as given up by its own guard", quorum, short, func(c *claim.Claim) {
			c.Short.GaveUp, c.Short.Met, c.Short.Need = history.RefusalValidity, 0, 0
		}},
		{"a short try is the acquire invoked at its instant", quorum, short, func(c *claim.Claim) { c.Short.At += ms }},
		// w1's key expired while n1 was frozen; its refresh set it again
		// 3 ms after n1 resumed: no continuation of the lease.
		{"a lease its refresh set again is not told as ending earlier", stored, short, func(c *claim.Claim) { c.Start -= 200 * ms }},
		// w2's acquire, in flight in the window, was granted 26 ms after
		// w1's charge (client-clock-skew seed 33 beside two CPU hogs).
		{"a try granted after the window is told with its grant", late, short, func(c *claim.Claim) { c.Short.Granted += ms }},
		{"a try granted after the window is not told as granted inside it", late, short, func(c *claim.Claim) { c.Short.Granted = c.End - ms }},
		{"a try granted after the window is not told as short of a quorum", late, short, func(c *claim.Claim) {
			c.Short.Granted, c.Short.Met, c.Short.Need = 0, 2, 3
		}},
		{"a try short of a quorum is not told as granted after the window", quorum, short, func(c *claim.Claim) {
			c.Short.Granted, c.Short.Met, c.Short.Need = c.End+ms, 0, 0
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.try(t) })
	}
}
