package verify_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

const ms = int64(1e6)

// handHistory is a small history written by hand for the classes the
// accuracy corpus has no run of: an acquire whose reply was lost leaves
// w1's key (tokA) an orphan that then refuses w1 itself (classes 4, 6);
// w2's release's DEL runs 280 ms after its invoke (12); a latency step on
// the requests only (11); a node clock jump removes w1's key (7); a crash
// with power loss of an aof-everysec node takes w2's key (8, 9).
func handHistory() history.History {
	latency := history.FaultStep{ID: 1, Kind: "latency", Effect: history.EffectSlowLinks, Stream: "upstream", Latency: 50 * ms,
		Links: []history.Link{{Client: "w1", Node: "n1"}}, Trigger: history.Trigger{Kind: history.TriggerAt, At: 1600 * ms}, Duration: 100 * ms}
	clock := history.FaultStep{ID: 2, Kind: "clock-jump", Effect: history.EffectNodeClock, Nodes: []string{"n1"}, Delta: 10000 * ms,
		Trigger: history.Trigger{Kind: history.TriggerAt, At: 2000 * ms}}
	crash := history.FaultStep{ID: 3, Kind: "crash", Effect: history.EffectCrashNode, Nodes: []string{"n1"}, PowerLoss: true,
		Trigger: history.Trigger{Kind: history.TriggerAt, At: 2200 * ms}, Duration: 100 * ms}
	cmd, op := kCmd, kOp
	fault := func(st history.FaultStep, from, to int64) history.Op {
		return history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault,
			Value: history.Value{Fault: &st}, Invoke: from * ms, Complete: to * ms, Type: history.OK}
	}
	ttl := func(t int64) history.Value { return history.Value{TTL: t * ms} }
	ops := []history.Op{
		op(0, "w1", history.Acquire, history.Info, 10, 300, ttl(1000)),
		cmd("w1", 20, false, "set", "k", "tokA", "px", "1000", "nx"),
		op(2, "w1", history.Acquire, history.Fail, 400, 410, ttl(1000)),
		cmd("w1", 405, false, "set", "k", "tokB", "px", "1000", "nx"),
		op(1, "w2", history.Acquire, history.OK, 1100, 1110, history.Value{Token: "tokC", TTL: 5000 * ms, Nodes: []string{"n1"}}),
		cmd("w2", 1105, false, "set", "k", "tokC", "px", "5000", "nx"),
		op(1, "w2", history.Release, history.OK, 1200, 1500, history.Value{Token: "tokC", Removed: true, Nodes: []string{"n1"}}),
		cmd("w2", 1480, false, "del", "k"),
		fault(latency, 1600, 1700),
		op(2, "w1", history.Acquire, history.OK, 1800, 1810, history.Value{Token: "tokD", TTL: 5000 * ms, Nodes: []string{"n1"}}),
		cmd("w1", 1805, false, "set", "k", "tokD", "px", "5000", "nx"),
		fault(clock, 2000, 2000),
		cmd(history.AdminClient, 2001, false, "eval", "shift", "0", "10000"),
		cmd(history.AdminClient, 2001, true, "KEYS", "*"),
		cmd(history.AdminClient, 2001, true, "PTTL", "k"),
		cmd(history.AdminClient, 2001, true, "DEL", "k"),
		op(2, "w1", history.Release, history.OK, 2050, 2060, history.Value{Token: "tokD", Nodes: []string{"n1"}}),
		op(1, "w2", history.Acquire, history.OK, 2100, 2110, history.Value{Token: "tokE", TTL: 5000 * ms, Nodes: []string{"n1"}}),
		cmd("w2", 2105, false, "set", "k", "tokE", "px", "5000", "nx"),
		fault(crash, 2200, 2300),
		{Process: history.NodeProcess, F: history.NodeHeld, Value: history.Value{Node: "n1"}, Invoke: 2350 * ms, Complete: 2350 * ms, Type: history.OK},
		op(1, "w2", history.Release, history.OK, 2400, 2410, history.Value{Token: "tokE", Nodes: []string{"n1"}}),
	}
	for i := range ops {
		ops[i].Index = i
	}
	return history.History{Header: history.Header{Format: history.Format, Version: history.Version, Scenario: "hand", TimeScale: 1,
		Backend: "local", Algorithm: "safe", Workload: "payment", Clients: []string{"w1", "w2"}, Nodes: []string{"n1"},
		Persistence: map[string]string{"n1": "aof-everysec"}, Observed: []string{"n1"}, Plan: []history.FaultStep{latency, clock, crash}}, Ops: ops}
}

// reader is a fresh reader's stored run (report/testdata/reader).
func reader(name string) func(*testing.T) history.History {
	return func(t *testing.T) history.History {
		h, err := history.ReadFile(filepath.Join("..", "..", "report", "testdata", "reader", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
}

func corpus(name string) func(*testing.T) history.History {
	return func(t *testing.T) history.History {
		h, err := history.ReadFile(filepath.Join("..", "..", "report", "testdata", "accuracy", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
}

// checkerCase reads a history of the checker corpus.
func checkerCase(name string) func(*testing.T) history.History {
	return func(t *testing.T) history.History {
		h, err := history.ReadFile(filepath.Join("..", "..", "checker", "testdata", "histories", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
}

func hand(*testing.T) history.History { return handHistory() }

func kind(k claim.Kind, also func(claim.Claim) bool) func(claim.Claim) bool {
	return func(c claim.Claim) bool { return c.Kind == k && (also == nil || also(c)) }
}

func fault(effect string) func(claim.Claim) bool {
	return kind(claim.Fault, func(c claim.Claim) bool { return c.Fault != nil && c.Fault.Effect == effect })
}

func ended(how string) func(claim.Claim) bool {
	return kind(claim.KeyLife, func(c claim.Claim) bool { return c.How == how && c.What != claim.Inferred })
}

// TestVerifierRefusesEachFalseStatementClass takes, for each class of
// false statement issue 27 lists, a true claim a run makes, checks that
// the verifier accepts it, then changes it into the false statement the
// class describes and checks that the verifier refuses it.
func TestVerifierRefusesEachFalseStatementClass(t *testing.T) {
	cases := []mutation{
		{"class 1: a heartbeat whose PEXPIRE found no key is not told as an extension", corpus("c02-extend-recreates-own-key"),
			kind(claim.Extend, func(c claim.Claim) bool { return c.What == claim.Missed }), func(c *claim.Claim) { c.What = claim.Moved }},
		{"class 2: a run with a client clock fault is not told as a pause", corpus("c04-client-clock-jump-back"),
			fault(history.EffectClientClock), func(c *claim.Claim) { c.Fault.Effect = history.EffectFreezeClient }},
		{"class 3: a purge names the client whose script purged the permit", corpus("c05-semaphore-over-admission"),
			kind(claim.Permit, func(c claim.Claim) bool { return c.How == "purged" }), func(c *claim.Claim) {
				c.By = map[bool]string{true: "w2", false: "w1"}[c.By == "w1"]
			}},
		{"class 4: a refusal by the client's own orphaned key is not told as someone else's", hand,
			kind(claim.Refusal, func(c claim.Claim) bool { return c.Own }), func(c *claim.Claim) { c.By, c.Own = "w2", false }},
		{"class 4: a refusal by the lease of the client's process its restart killed is not told as its own orphan", reader("restart-restores-nothing-seed27"),
			kind(claim.Refusal, func(c claim.Claim) bool { return c.How == claim.Restarted }), func(c *claim.Claim) { c.Own, c.How = true, "" }},
		{"class 4: a refusal is not told as a restart's without the restart that killed the client's process", reader("restart-restores-nothing-seed27"),
			kind(claim.Refusal, func(c claim.Claim) bool { return c.How == claim.Restarted }), func(c *claim.Claim) { c.Records = c.Records[:2] }},
		{"class 5: a partition of the replies is not told as one of the requests", corpus("c19c-local-lock-left-held"),
			fault(history.EffectCutLinks), func(c *claim.Claim) { c.Fault.Direction = "both" }},
		{"class 6: an orphaned key's life is measured from its SET, not from when the client gave up", hand,
			kind(claim.Orphan, nil), func(c *claim.Claim) { c.Start = 300 * ms }},
		{"class 6: a client that never got the reply is not told as believing it held its key", hand,
			kind(claim.Orphan, nil), func(c *claim.Claim) { c.Believed = true }},
		{"class 7: a key removed by a node's clock jump is not told as ordinary expiry", hand,
			ended("clock"), func(c *claim.Claim) { c.How = "expired" }},
		{"class 8: the fence counter's node is not told as fsyncing every write when it loses its last second", hand,
			fault(history.EffectCrashNode), func(c *claim.Claim) { c.Persistence = "aof-always" }},
		{"class 9: a crash with power loss is not told as a plain crash", hand,
			ended("crashed"), func(c *claim.Claim) { c.Fault = nil }},
		{"class 9: a power-loss step is not told as a plain kill", hand,
			fault(history.EffectCrashNode), func(c *claim.Claim) { c.Fault.PowerLoss = false }},
		{"class 10: the schedulers' clock spread is told as the step made it", corpus("c06-cron-duplicate-run"),
			fault(history.EffectClientClock), func(c *claim.Claim) { c.Fault.Delta /= 2 }},
		{"class 11: latency on the requests is not told as delayed replies", hand,
			fault(history.EffectSlowLinks), func(c *claim.Claim) { c.Fault.Stream = "downstream" }},
		{"class 12: a release is stamped when its DEL ran, not at its invoke", hand,
			kind(claim.Release, func(c claim.Claim) bool { return c.Client == "w2" }), func(c *claim.Claim) { c.At = c.Start }},
		{"class 13: a foreign delete names the owner of the key removed", corpus("c01-naive-del-foreign-unlock"),
			kind(claim.ForeignDelete, nil), func(c *claim.Claim) { c.Client = c.By }},
		{"class 14: a key the node recorded is not told as inferred", corpus("c01-naive-del-foreign-unlock"),
			ended("deleted"), func(c *claim.Claim) { c.What = claim.Inferred }},
		{"class 15: one key's life is not labelled with another key", corpus("c10-inventory-oversell"),
			ended("released"), func(c *claim.Claim) { c.Key = "item-2" }},
		{"class 16: a key's end is not put before its start", corpus("c01-naive-del-foreign-unlock"),
			ended("expired"), func(c *claim.Claim) { c.End = c.Start - ms }},
		{"class 16: a violation is not placed at an instant no operation had", corpus("c01-naive-del-foreign-unlock"),
			kind(claim.Anomaly, func(c claim.Claim) bool { return len(c.Violating) > 0 }), func(c *claim.Claim) { c.At += 300 * ms }},
		{"class 16: a hold does not end before its acquire returned", corpus("c01-naive-del-foreign-unlock"),
			kind(claim.Hold, nil), func(c *claim.Claim) { c.Start = c.End + ms }},
		{"class 16: a failover is stamped when Sentinel announced the promotion, not at the step's took_ns", corpus("c19m-lock-lost-in-failover-advice"),
			fault(history.EffectFailover), func(c *claim.Claim) { c.At = c.Start + c.Fault.Promotions[0].TookNS }},
		{"class 16: a failover's time to promotion is the one its step recorded", corpus("c19m-lock-lost-in-failover-advice"),
			fault(history.EffectFailover), func(c *claim.Claim) {
				c.Fault.Promotions = slices.Clone(c.Fault.Promotions) // not the run's own step's
				c.Fault.Promotions[0].TookNS *= 2
			}},
		{"a refused write is not told as accepted", corpus("c11-epoch-refusal-without-grant-fences"),
			kind(claim.Op, func(c claim.Claim) bool { return c.What == "write" && c.How == "fail" }), func(c *claim.Claim) { c.How = "ok" }},
		{"a read is not told with another value than it returned", corpus("c19l-stale-write-back-undoes-two-sales"),
			kind(claim.Op, func(c claim.Claim) bool { return c.What == "read" && c.Num != nil }), func(c *claim.Claim) { n := *c.Num + 1; c.Num = &n }},
		{"an acquire of unknown outcome is not stamped at another instant", hand,
			kind(claim.Op, func(c claim.Claim) bool { return c.What == "acquire" && c.How == "info" }), func(c *claim.Claim) { c.Start += ms }},
		{"an acquire that ended in an error is told when it ended, not at its invoke", hand,
			kind(claim.Op, func(c claim.Claim) bool { return c.What == "acquire" && c.How == "info" }), func(c *claim.Claim) { c.At = c.Start }},
		{"a release that removed nothing is told at its invoke, not at another instant", hand,
			kind(claim.Op, func(c claim.Claim) bool { return c.What == "release" && c.How == "ok" }), func(c *claim.Claim) { c.At = c.End }},
		{"a key set with PXAT expires at its absolute deadline, not later", checkerCase("valid-pxat-expiry-on-the-run-clock"),
			ended("expired"), func(c *claim.Claim) { c.End += 300 * ms }},
		{"a key a node's dump showed is released by the client whose token it holds, not another", checkerCase("valid-node-dump-after-restart-wins"),
			kind(claim.Release, func(c claim.Claim) bool { return c.What != claim.Inferred && c.By == "w2" }), func(c *claim.Claim) { c.By = "w1" }},
		{"an outage is told from the first refusal no holder explains, not from the final probe", corpus("c27a-crashed-holder-outage-from-first-refusal"),
			kind(claim.Anomaly, func(c claim.Claim) bool { return c.What == history.AnomalyUnavailable }), func(c *claim.Claim) { c.Start = 2401192669 }}, // the final probe's invoke: w2 was refused from 60.1 s
		{"an outage does not run through a grant", corpus("c19f-orphan-kept-by-another-heartbeat"),
			kind(claim.Anomaly, func(c claim.Claim) bool { return c.What == history.AnomalyUnavailable }), func(c *claim.Claim) { c.End += 60000 * ms }},
		{"a refusal by a fair lock's queue names the waiter whose entry headed it", corpus("c27b-dead-waiter-heads-the-queue"),
			kind(claim.QueueHead, nil), func(c *claim.Claim) {
				c.By, c.Token, c.At, c.Records = "w3", "431dc564b158f58e7886f3f897b50be0", 102247584, []int{c.Records[0], 27} // w3's own RPUSH, behind w2's
			}},
		{"a refusal by a fair lock's queue is not told while the lock's key stood", corpus("c27b-dead-waiter-heads-the-queue"),
			kind(claim.QueueHead, nil), func(c *claim.Claim) { c.Records = []int{18, c.Records[1]}; c.Start, c.End = 101847520, 102334933 }}, // w3's first refusal, while w1 held invoice-1
		{"a renewal is dated when the node ran its PEXPIRE, not when the client called it", corpus("c38b-renewal-at-the-nodes-pexpire"),
			kind(claim.Extend, func(c claim.Claim) bool { return c.What == claim.Moved && c.At != 0 }), func(c *claim.Claim) { c.At = c.Start }},
		{"an acquire of unknown outcome is not told as granted by a node that was down", corpus("c38c-redlock-acquire-failed-on-the-nodes"),
			kind(claim.Ungranted, func(c claim.Claim) bool { return len(c.Down) == 1 }), func(c *claim.Claim) {
				c.Nodes, c.Records, c.Down = append(slices.Clone(c.Nodes), c.Down[0]), append(slices.Clone(c.Records), c.Records[1]), nil
			}},
		{"a node cut off from an acquire of unknown outcome is not told as down", corpus("c38c-redlock-acquire-failed-on-the-nodes"),
			kind(claim.Ungranted, func(c claim.Claim) bool { return len(c.Silent) > 0 }), func(c *claim.Claim) {
				c.Down = append(slices.Clone(c.Down), c.Silent[0].Node)
				c.Silent = c.Silent[1:]
			}},
		{"a node that held another's key is not told as silent to an acquire of unknown outcome", corpus("c38d-redlock-acquire-met-a-key-failed"),
			kind(claim.Ungranted, func(c claim.Claim) bool { return len(c.Holders) == 1 }), func(c *claim.Claim) {
				c.Silent = append(slices.Clone(c.Silent), claim.Silent{Node: c.Holders[0].Node, Cmd: c.Holders[0].Set})
				c.Holders = nil
			}},
		{"a node is not left out of an acquire of unknown outcome", corpus("c38d-redlock-acquire-met-a-key-failed"),
			kind(claim.Ungranted, func(c claim.Claim) bool { return len(c.Holders) == 1 }), func(c *claim.Claim) { c.Holders = nil }},
		{"an acquire of unknown outcome that took no lock is told when it ended", corpus("c38c-redlock-acquire-failed-on-the-nodes"),
			kind(claim.Ungranted, nil), func(c *claim.Claim) { c.At = c.Start }},
		{"an acquire of unknown outcome is not told as having set another token", corpus("c38c-redlock-acquire-failed-on-the-nodes"),
			kind(claim.Ungranted, nil), func(c *claim.Claim) { c.Token = "f60aea52" }},
		{"a freeze inside an acquire is not told as coming after a node that ran its SET later had run it", corpus("c39a-pause-in-flight-before-the-sets-ran"),
			fault(history.EffectFreezeClient), func(c *claim.Claim) {
				c.Nodes, c.Records = append(slices.Clone(c.Nodes), "n3"), append(slices.Clone(c.Records), 11) // n3's SET ran at 9.46 ms, after the freeze at 9.36 ms
			}},
		{"a freeze inside an acquire does not leave out a node that had run its SET", corpus("c39a-pause-in-flight-before-the-sets-ran"),
			fault(history.EffectFreezeClient), func(c *claim.Claim) { c.Nodes, c.Records = nil, c.Records[:2] }}, // n1 ran it at 9.18 ms
		{"a Redlock acquire's validity is its TTL less the time it took and the drift", corpus("c07b-redlock-latency-expiry"),
			kind(claim.Acquire, nil), func(c *claim.Claim) { c.Validity = c.TTL }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.try(t) })
	}
}

// mutation is a true claim of a run (the first of hist's claims that
// pick accepts) and the change that makes it false.
type mutation struct {
	name   string
	hist   func(*testing.T) history.History
	pick   func(claim.Claim) bool
	mutate func(*claim.Claim)
}

// try checks that the verifier accepts the picked claim, then refuses it
// mutated; it returns the claim's kind.
func (tc mutation) try(t *testing.T) claim.Kind {
	t.Helper()
	h := tc.hist(t)
	cs := claimsOf(h)
	c, ok := claim.Find(cs, tc.pick)
	if !ok {
		t.Fatalf("the run makes no claim of this kind; its claims: %+v", cs)
	}
	if r := verify.Verify(h, []claim.Claim{c}); r.Held != 1 {
		t.Fatalf("the true claim %+v is not accepted: %+v", c, r)
	}
	if c.Fault != nil {
		st := *c.Fault // the mutation must not reach the run's own step
		c.Fault = &st
	}
	tc.mutate(&c)
	r := verify.Verify(h, []claim.Claim{c})
	if len(r.Failures) != 1 {
		t.Fatalf("the false claim %+v is not refused: %+v", c, r)
	}
	t.Logf("refused: %s (records %v)", r.Failures[0].Reason, r.Failures[0].Records)
	return c.Kind
}

func TestEveryClaimOfTheHandHistoryHolds(t *testing.T) {
	h := handHistory()
	cs := claimsOf(h)
	r := verify.Verify(h, cs)
	if len(r.Failures) > 0 {
		t.Errorf("%d of %d claims are false:%s", len(r.Failures), len(cs), describe(r))
	}
}
