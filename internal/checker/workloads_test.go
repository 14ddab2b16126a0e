package checker

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// Hand-written histories of the workloads of issue 4 (design §6), in the
// runner's conventions: resource ops are read/write with Value.Action, ok =
// accepted, fail = refused with a Reason, Value.Num the number read or
// written, Header.Workload and Header.Params set.

func num(n int64) *int64 { return &n }

func (b *hb) workload(w, algorithm string, params map[string]int64) *hb {
	b.h.Header.Workload, b.h.Header.Algorithm, b.h.Header.Params = w, algorithm, params
	return b
}

func (b *hb) numRead(c, key string, inv, comp float64, action string, n int64) int {
	return b.op(c, history.Read, key, inv, comp, history.OK, history.Value{Action: action, Num: num(n)})
}

func (b *hb) numWrite(c, key, action string, inv, comp float64, fence, n int64) int {
	return b.op(c, history.Write, key, inv, comp, history.OK, history.Value{Action: action, Fence: fence, Num: num(n)})
}

func (b *hb) acquireTTL(c, key string, inv, comp float64, fence int64, ttl float64) int {
	return b.op(c, history.Acquire, key, inv, comp, history.OK, history.Value{Token: c + "-tok", Fence: fence, TTL: ns(ttl)})
}

func (b *hb) done(c, key string, t float64) int {
	return b.op(c, history.Done, key, t, t, history.OK, history.Value{})
}

func (b *hb) probe(key string, inv, comp float64, t history.Type) int {
	return b.op("probe", history.Probe, key, inv, comp, t, history.Value{})
}

// workloadCase is one hand-written history with what Check must say: the
// merged verdict, the violation kinds and the informational kinds (as in
// the corpus). corpus marks the cases stored in testdata/histories.
type workloadCase struct {
	name, source string
	h            history.History
	corpus       expectation
	stored       bool
}

func workloadCases() []workloadCase {
	var cs []workloadCase
	add := func(stored bool, name, source string, b *hb, want expectation) {
		cs = append(cs, workloadCase{name: name, source: source, h: b.h, corpus: want, stored: stored})
	}
	unknown := func() expectation { return expectation{verdict: Unknown} }

	// ---- counter ----
	{
		b := newHB(false).workload(workload.Counter, "single", nil)
		b.acquire("w1", "counter-1", 0, 0.1, 0)
		b.numRead("w1", "counter-1", 0.2, 0.3, workload.ActionReadCounter, 0)
		b.numWrite("w1", "counter-1", workload.ActionSetCounter, 0.4, 0.5, 0, 1)
		b.release("w1", "counter-1", 0.6, 0.7, true)
		b.fault("pause", []string{"w1"}, 0.2, 0.3)
		b.acquire("w2", "counter-1", 1, 1.1, 0)
		b.numRead("w2", "counter-1", 1.2, 1.3, workload.ActionReadCounter, 1)
		b.numWrite("w2", "counter-1", workload.ActionSetCounter, 1.4, 1.5, 0, 2)
		b.release("w2", "counter-1", 1.6, 1.7, true)
		add(true, "valid-counter-increments", "counter workload: two increments under the lock, 0 → 1 → 2", b, valid())
	}
	{
		b := newHB(false).workload(workload.Counter, "single", nil)
		b.acquire("w1", "counter-1", 0, 0.1, 0)
		b.numRead("w1", "counter-1", 0.2, 0.3, workload.ActionReadCounter, 0)
		b.fault("pause", []string{"w1"}, 1, 35)
		b.acquire("w2", "counter-1", 30, 30.1, 0)
		b.numRead("w2", "counter-1", 30.2, 30.3, workload.ActionReadCounter, 0)
		b.numWrite("w2", "counter-1", workload.ActionSetCounter, 30.4, 30.5, 0, 1)
		b.release("w2", "counter-1", 30.6, 30.7, true)
		b.numWrite("w1", "counter-1", workload.ActionSetCounter, 35.1, 35.2, 0, 1)
		b.release("w1", "counter-1", 35.3, 35.4, false)
		add(true, "invalid-counter-lost-update", "Kleppmann timeline 1 on a counter (Jepsen lock-set idea): w1 reads 0, pauses past its TTL, writes 1 over w2's 1",
			b, invalid(KindLostUpdate, KindMutexOverlap, KindNotLinearizable))
	}
	{
		b := newHB(false).workload(workload.Counter, "single", nil)
		b.acquire("w1", "counter-1", 0, 0.1, 0)
		b.numWrite("w1", "counter-1", workload.ActionSetCounter, 0.4, 0.5, 0, 0)
		b.numWrite("w1", "counter-1", workload.ActionSetCounter, 0.6, 0.7, 0, 1)
		b.release("w1", "counter-1", 0.8, 0.9, true)
		add(false, "a counter ending below the number of accepted writes lost an update", "", b,
			expectation{verdict: Invalid, kinds: []string{KindLostUpdate}})
	}

	// ---- inventory ----
	{
		b := newHB(false).workload(workload.Inventory, "single", map[string]int64{history.ParamStock: 1})
		b.acquireTTL("b1", "item-1", 0, 0.1, 0, 2)
		b.numRead("b1", "item-1", 0.2, 0.3, workload.ActionReadStock, 1)
		b.fault("pause", []string{"b1"}, 0.4, 3.4)
		b.acquireTTL("b2", "item-1", 2.1, 2.2, 0, 2)
		b.numRead("b2", "item-1", 2.3, 2.4, workload.ActionReadStock, 1)
		b.numWrite("b2", "item-1", workload.ActionSell, 2.5, 2.6, 0, 0)
		b.release("b2", "item-1", 2.7, 2.8, true)
		b.numWrite("b1", "item-1", workload.ActionSell, 3.5, 3.6, 0, 0)
		b.release("b1", "item-1", 3.7, 3.8, false)
		add(true, "invalid-oversell-s18", "lock-theory S18 run A: b1 reads stock 1, pauses 3 s past its 2 s TTL, sells after b2 sold the last item",
			b, invalid(KindOversell, KindLostUpdate, KindMutexOverlap, KindNotLinearizable))
	}
	{
		b := newHB(false).workload(workload.Inventory, "atomic-lua", map[string]int64{history.ParamStock: 2})
		b.numWrite("b1", "item-1", workload.ActionSell, 0, 0.1, 0, 1)
		b.fault("pause", []string{"b2"}, 0.5, 3.5)
		b.numWrite("b2", "item-1", workload.ActionSell, 0.4, 3.6, 0, 0)
		b.op("b3", history.Write, "item-1", 1, 1.1, history.Fail, history.Value{Action: workload.ActionSell, Refusal: history.RefusalOutOfStock})
		b.numRead("b3", "item-1", 4, 4.1, workload.ActionReadStock, 0)
		add(true, "valid-atomic-lua-s18", "lock-theory S18 run B: lock-free Lua check-and-decrement; the pause only delays b2's sale; b3 is refused out of stock",
			b, valid())
	}
	{
		b := newHB(false).workload(workload.Inventory, "atomic-lua", map[string]int64{history.ParamStock: 0})
		b.numWrite("b1", "item-1", workload.ActionSell, 0, 0.1, 0, -1)
		add(false, "an atomic sale with no stock left is an oversell and not linearizable", "", b,
			expectation{verdict: Invalid, kinds: []string{KindOversell, KindNotLinearizable}})
	}

	// ---- cron ----
	{
		b := newHB(false).workload(workload.Cron, "single", nil)
		b.acquire("s2", "lock:J", 59.2, 59.3, 0)
		b.write("s2", "job@3", workload.ActionRunJob, 59.4, 59.7, 0)
		b.release("s2", "lock:J", 59.8, 59.9, true)
		b.fault("clock-jump", []string{"s1"}, 59, 61)
		b.acquire("s1", "lock:J", 60, 60.1, 0)
		b.write("s1", "job@3", workload.ActionRunJob, 60.2, 60.5, 0)
		b.release("s1", "lock:J", 60.6, 60.7, true)
		add(true, "invalid-duplicate-run-s22", "lock-theory S22 run A: lock + DEL, skewed clocks; s1 fires after s2 released and runs job@3 again",
			b, invalid(KindDuplicateRun))
	}
	{
		b := newHB(false).workload(workload.Cron, "per-fire-key", map[string]int64{history.ParamLockPerFire: 1})
		b.acquire("s2", "job@3", 59.2, 59.3, 0)
		b.write("s2", "job@3", workload.ActionRunJob, 59.4, 59.7, 0)
		b.fault("clock-jump", []string{"s1"}, 59, 61)
		b.acquireFail("s1", "job@3", 60, 60.1)
		b.acquire("s1", "job@4", 120, 120.1, 0)
		b.write("s1", "job@4", workload.ActionRunJob, 120.2, 120.5, 0)
		add(false, "a per-fire-time key lets each fire time run once", "", b, valid())
	}

	// ---- leader ----
	leader := func(fenced bool) *hb {
		b := newHB(fenced).workload(workload.Leader, "lease", nil)
		b.acquireTTL("L1", "leader", 0, 0.1, 1, 5)
		b.write("L1", "leader", workload.ActionLead, 1, 1.1, 1)
		b.fault("pause", []string{"L1"}, 10, 18)
		b.acquireTTL("L2", "leader", 15, 15.1, 2, 5)
		b.write("L2", "leader", workload.ActionLead, 15.5, 15.6, 2)
		if fenced {
			b.refused("L1", "leader", workload.ActionLead, 18, 18.1, 1, history.RefusalStaleFence, 2)
		} else {
			b.write("L1", "leader", workload.ActionLead, 18, 18.1, 1)
		}
		b.lost("L1", "leader", 18.5)
		return b
	}
	add(true, "invalid-split-brain-s20", "lock-theory S20 without epoch check: L1's queued lead write (epoch 1) is accepted after L2 was elected (epoch 2)",
		leader(false), invalid(KindSplitBrain, KindMutexOverlap, KindNotLinearizable, KindStaleWriteAccepted))
	add(true, "valid-leader-epoch-s20", "lock-theory S20 with the resource rejecting epoch < max: L1's late write refused",
		leader(true), valid(KindMutexOverlap))

	// ---- semaphore ----
	sem := func(over bool) *hb {
		b := newHB(false).workload(workload.Semaphore, "zset-semaphore", map[string]int64{history.ParamPermits: 2})
		for i, c := range []string{"S1", "S2"} {
			t := float64(i)
			b.acquireTTL(c, "sem-1", t, t+0.1, 0, 10)
			b.write(c, "sem-1", workload.ActionEnter, t+0.2, t+0.3, 0)
		}
		b.fault("clock-jump", []string{"S3"}, 2, 4)
		start := 3.0
		if !over {
			b.write("S1", "sem-1", workload.ActionExit, 2.5, 2.6, 0)
			b.release("S1", "sem-1", 2.7, 2.8, true)
		}
		b.acquireTTL("S3", "sem-1", start, start+0.1, 0, 10)
		b.write("S3", "sem-1", workload.ActionEnter, start+0.2, start+0.3, 0)
		b.write("S3", "sem-1", workload.ActionExit, 8, 8.1, 0)
		b.release("S3", "sem-1", 8.2, 8.3, true)
		b.write("S2", "sem-1", workload.ActionExit, 9, 9.1, 0)
		b.release("S2", "sem-1", 9.2, 9.3, true)
		if over {
			b.write("S1", "sem-1", workload.ActionExit, 9.5, 9.6, 0)
			b.release("S1", "sem-1", 9.7, 9.8, true)
		}
		return b
	}
	add(true, "invalid-over-admission-s21", "lock-theory S21 run A: S3's fast clock purges the holders' entries; a third client enters a 2-permit semaphore",
		sem(true), invalid(KindOverAdmission, KindMutexOverlap))
	add(true, "valid-semaphore-two-permits", "a 2-permit semaphore: two holders at once are allowed; S3 enters after S1 left",
		sem(false), valid())

	// ---- cache-rebuild ----
	{
		b := newHB(false).workload(workload.CacheRebuild, "single", nil)
		b.acquireTTL("w1", "cache-1", 0, 0.1, 0, 5)
		b.fault("pause", []string{"w1"}, 1, 7)
		b.write("w1", "cache-1", workload.ActionRebuild, 0.5, 8, 0)
		b.acquireTTL("w2", "cache-1", 5.1, 5.2, 0, 5)
		b.write("w2", "cache-1", workload.ActionRebuild, 5.3, 7.5, 0)
		b.release("w2", "cache-1", 7.6, 7.7, true)
		b.release("w1", "cache-1", 8.1, 8.2, false)
		add(true, "valid-cache-rebuild-duplicate-work", "Kleppmann 2016 efficiency vs correctness: w1's lease expires mid-rebuild, w2 rebuilds too; waste, not corruption",
			b, valid(KindDuplicateWork, KindMutexOverlap))
	}

	// ---- payment with an idempotency key, lock-free ----
	{
		b := newHB(false).workload(workload.Payment, "idempotency-key", nil)
		b.fault("reset", []string{"w1→n1"}, 0.5, 0.6)
		b.op("w1", history.Write, inv1, 0, -1, history.Info, history.Value{Action: workload.ActionCharge})
		b.write("w1", inv1, workload.ActionCharge, 2, 2.1, 0)
		b.refused("w2", inv1, workload.ActionCharge, 3, 3.1, 0, history.RefusalDuplicateKey, 0)
		b.write("w2", inv1, workload.ActionMarkPaid, 3.2, 3.3, 0)
		add(true, "valid-idempotency-key-s19", "lock-theory S19 run B: the first charge's reply is lost, the retry and w2's charge are answered from the idempotency key",
			b, valid())
	}

	// ---- done (lock-theory S05) ----
	{
		b := newHB(false)
		b.acquireTTL("A", inv1, 0, 0.01, 0, 10)
		b.write("A", inv1, workload.ActionClaim, 1, 1.1, 0)
		b.done("A", inv1, 8)
		b.fault("pause", []string{"A"}, 8, 13)
		b.acquireFail("B", inv1, 5, 5.01)
		b.acquireTTL("B", inv1, 9.99, 10, 0, 10)
		b.write("B", inv1, workload.ActionClaim, 10.5, 10.6, 0)
		b.release("A", inv1, 13, 13.01, false)
		b.acquireFail("C", inv1, 13.02, 13.03)
		b.release("B", inv1, 18, 18.01, true)
		b.acquireTTL("C", inv1, 18.1, 18.11, 0, 10)
		b.release("C", inv1, 26, 26.01, true)
		add(true, "valid-safe-unlock-done-s05", "lock-theory S05: A's work ends at 8 s (done), it pauses 5 s before its compare-and-delete release, which finds B's key and removes nothing",
			b, valid())
	}

	// ---- liveness ----
	stuck := func(expect bool) *hb {
		b := newHB(false)
		if expect {
			b.workload(workload.Payment, "setnx-expire", map[string]int64{history.ParamExpectLive: 1})
		}
		b.acquireTTL("C1", inv1, 0, 0.1, 0, 0) // SETNX, killed before PEXPIRE: no TTL
		b.fault("crash-client", []string{"C1"}, 0.2, 0.3)
		b.acquireFail("C2", inv1, 1, 1.1)
		b.acquireFail("C2", inv1, 20, 20.1)
		b.probe(inv1, 40, 50, history.Fail)
		return b
	}
	add(true, "unknown-stuck-lock-s24-informational", "lock-theory S24 (no expect_live): SETNX then crash before EXPIRE; the probe fails: liveness, not safety; one grant is too few for coverage",
		stuck(false), expectation{verdict: Unknown, informational: []string{KindOrphanedLease, KindStuckLock}})
	add(true, "invalid-stuck-lock-s24-expect-live", "lock-theory S24 with expect_live = 1: the stuck key is a violation of what the scenario asked for",
		stuck(true), expectation{verdict: Invalid, kinds: []string{KindOrphanedLease, KindStuckLock}})
	{
		b := newHB(false).workload(workload.Payment, "redlock", map[string]int64{history.ParamExpectLive: 1})
		b.acquireTTL("C1", inv1, 0, 0.1, 0, 10)
		b.release("C1", inv1, 1, 1.1, true)
		b.fault("partition", []string{"C2→n1", "C2→n2", "C2→n3"}, 2, 40)
		for t := 3.0; t < 40; t += 3 {
			b.acquireFail("C2", inv1, t, t+0.05)
		}
		b.acquireTTL("C2", inv1, 41, 41.1, 0, 10)
		b.release("C2", inv1, 42, 42.1, true)
		b.probe(inv1, 43, 43.1, history.OK)
		add(true, "invalid-unavailable-majority-partition-s14", "lock-theory S14 with expect_live = 1: no grant for 38 s with no holder (bound = TTL 10 s)",
			b, expectation{verdict: Invalid, kinds: []string{KindUnavailable}})
	}

	// ---- issue 14: misjudgements found by crafting histories ----
	{
		// Class 11: a leader's writes carry its epoch (the grants carry no
		// fence: safe + epoch check); the resource refused the deposed
		// leader's write by its epoch, so the overlap did no harm.
		b := newHB(true).workload(workload.Leader, "safe", map[string]int64{history.ParamEpochCheck: 1})
		b.acquireTTL("L1", "leader", 0, 0.1, 0, 5)
		b.write("L1", "leader", workload.ActionLead, 1, 1.1, 1)
		b.fault("pause", []string{"L1"}, 2, 12)
		b.acquireTTL("L2", "leader", 7.5, 7.6, 0, 5)
		b.write("L2", "leader", workload.ActionLead, 8, 8.1, 2)
		b.refused("L1", "leader", workload.ActionLead, 12, 12.1, 1, history.RefusalStaleFence, 2)
		b.release("L1", "leader", 12.2, 12.3, false)
		b.release("L2", "leader", 13, 13.1, true)
		add(true, "valid-epoch-refusal-without-grant-fences", "issue 14 class 11: the epoch on the deposed leader's write was refused though the grants carry no fence",
			b, valid(KindMutexOverlap))
	}
	{
		// Class 12: a leader's acquire with an unknown outcome took
		// effect (its write carries epoch 3, above the current leader's
		// 2): no split brain.
		b := newHB(true).workload(workload.Leader, "fenced", map[string]int64{history.ParamEpochCheck: 1})
		b.acquireTTL("L1", "leader", 0, 0.1, 1, 5)
		b.write("L1", "leader", workload.ActionLead, 0.5, 0.6, 1)
		b.release("L1", "leader", 0.8, 0.9, true)
		b.acquireTTL("L2", "leader", 1, 1.1, 2, 5)
		b.write("L2", "leader", workload.ActionLead, 2, 2.1, 2)
		b.release("L2", "leader", 2.5, 2.6, true)
		b.acquireInfo("L1", "leader", 3)
		b.write("L1", "leader", workload.ActionLead, 4, 4.1, 3)
		add(true, "valid-leader-info-acquire-took-effect", "issue 14 class 12: a term from an acquire of unknown outcome, proved by the write's own epoch",
			b, valid())
	}
	{
		// Class 13: an extend of unknown outcome renewed the lease, and
		// the holder's later removing release proves the key existed:
		// the refusals meanwhile are no unavailability.
		b := newHB(false).workload(workload.Payment, "watchdog", map[string]int64{history.ParamExpectLive: 1})
		b.acquireTTL("w1", inv1, 0, 0.1, 0, 10)
		b.op("w1", history.Extend, inv1, 8, -1, history.Info, history.Value{Token: "w1-tok", TTL: ns(10)})
		for t := 12.0; t < 22; t += 3 {
			b.acquireFail("w2", inv1, t, t+0.05)
		}
		b.release("w1", inv1, 22, 22.1, true)
		b.acquireTTL("w2", inv1, 23, 23.1, 0, 10)
		b.release("w2", inv1, 24, 24.1, true)
		b.probe(inv1, 25, 25.1, history.OK)
		add(true, "valid-extend-of-unknown-outcome-renewed", "issue 14 class 13: an info extend and a later removing release keep the lease live; no unavailable stretch",
			b, valid())
	}
	{
		// Class 14: a crashed client stops believing at its crash (a
		// recorded crash-client with a window, as a hand-made history may
		// have it).
		b := newHB(false)
		b.acquireTTL("w1", inv1, 0, 0.01, 0, 10)
		b.fault("crash-client", []string{"w1"}, 1, 30)
		b.acquireFail("w2", inv1, 2, 2.01)
		b.acquireTTL("w2", inv1, 10.5, 10.51, 0, 10)
		b.write("w2", inv1, workload.ActionCharge, 11, 11.1, 0)
		b.release("w2", inv1, 12, 12.1, true)
		add(true, "valid-crashed-client-stops-believing", "issue 14 class 14: crash-client ends the crashed client's belief at the crash, not at the fault window's end; its key is orphaned until its TTL",
			b, valid(KindOrphanedLease))
	}
	{
		// Class 15: an operation that never completed does not keep a
		// crashed client believing to the end of the history.
		b := newHB(false)
		b.acquireTTL("w1", inv1, 0, 0.01, 0, 10)
		b.op("w1", history.Write, inv1, 0.5, -1, history.Info, history.Value{Action: workload.ActionCharge})
		b.fault("crash-client", []string{"w1"}, 1, 1)
		b.acquireTTL("w2", inv1, 11, 11.01, 0, 10)
		b.read("w2", inv1, 11.1, 11.2, "unpaid")
		b.write("w2", inv1, workload.ActionCharge, 12, 12.1, 0)
		b.release("w2", inv1, 13, 13.1, true)
		add(true, "valid-crash-ends-an-open-operation", "issue 14 class 15: after a recorded crash the client believes nothing, even with an operation that never completed",
			b, valid())
	}
	{
		// Class 3: the token was granted twice (the counter regressed); a
		// fenced resource accepts the equal token twice: the overlap is
		// harm, not informational.
		b := newHB(true)
		b.acquireTTL("w1", inv1, 0, 0.1, 1, 10)
		b.fault("pause", []string{"w1"}, 1, 15)
		b.acquireTTL("w2", inv1, 10.5, 10.6, 1, 10)
		b.write("w2", inv1, workload.ActionCharge, 11, 11.1, 1)
		b.release("w2", inv1, 12, 12.1, true)
		b.write("w1", inv1, workload.ActionCharge, 15.1, 15.2, 1)
		b.release("w1", inv1, 16, 16.1, false)
		add(true, "invalid-equal-token-accepted-twice", "issue 14 class 3: an equal fencing token accepted twice is a double charge; the overlap is not informational",
			b, invalid(KindDoubleEffect, KindMutexOverlap, KindNotLinearizable, KindTokenRegression))
	}

	// ---- coverage ----
	{
		b := newHB(false)
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.release("w1", inv1, 1, 1.1, true)
		b.acquire("w2", inv1, 2, 2.1, 0)
		b.release("w2", inv1, 3, 3.1, true)
		b.fault("pause", []string{"w1"}, 10, 20)
		add(true, "unknown-fault-missed-every-hold", "design §8 coverage: the pause came after every hold ended; the run proves nothing",
			b, unknown())
	}
	{
		b := newHB(false)
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.fault("pause", []string{"w1"}, 0.5, 1)
		b.release("w1", inv1, 2, 2.1, true)
		add(false, "one ok acquire under a fault is too few to prove anything", "", b, unknown())
	}
	{
		b := newHB(false)
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.release("w1", inv1, 2, 2.1, true)
		b.acquire("w2", inv1, 3, 3.1, 0)
		b.release("w2", inv1, 4, 4.1, true)
		add(false, "a run with no faults is not penalised by coverage", "", b, valid())
	}
	{
		b := newHB(false)
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.release("w1", inv1, 2, 2.1, true)
		add(false, "one ok acquire without faults is too few to prove anything", "", b, unknown())
	}
	{
		b := newHB(false).workload(workload.Payment, "safe", map[string]int64{history.ParamMinAcquires: 1})
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.release("w1", inv1, 2, 2.1, true)
		add(false, "a scenario's own minimum of one grant is met by one", "", b, valid())
	}
	{
		add(false, "a header with no operations proves nothing, faults or none", "", newHB(false), unknown())
	}
	// ---- payment with a two-write job (completion: token; BR-23) ----
	twoWrite := func(checked, idem int64) *hb {
		return newHB(false).workload(workload.Payment, "watchdog-unobserved", map[string]int64{
			history.ParamIdempotency: idem, history.ParamCompletionToken: 1, history.ParamFailureRecordToken: checked})
	}
	// stalled runs w1's job (its event loop blocked 5..40 s, the key
	// expired at 30 s) and w2's job after it; w1 then charges and tries to
	// complete. finish writes w1's failure record, accepted or refused.
	stalled := func(b *hb, w1Charge bool, finish func(b *hb)) *hb {
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.read("w1", inv1, 0.2, 0.3, "unpaid")
		b.fault("pause", []string{"w1"}, 5, 40)
		b.acquire("w2", inv1, 31, 31.1, 0)
		b.read("w2", inv1, 31.2, 31.3, "unpaid")
		b.write("w2", inv1, workload.ActionCharge, 36.3, 36.4, 0)
		b.write("w2", inv1, workload.ActionComplete, 36.4, 36.5, 0)
		b.release("w2", inv1, 36.5, 36.6, true)
		if w1Charge {
			b.write("w1", inv1, workload.ActionCharge, 40.1, 40.2, 0)
		} else {
			b.refused("w1", inv1, workload.ActionCharge, 40.1, 40.2, 0, history.RefusalDuplicateKey, 0)
		}
		b.refused("w1", inv1, workload.ActionComplete, 40.2, 40.3, 0, history.RefusalLockMismatch, 0)
		finish(b)
		b.release("w1", inv1, 40.5, 40.6, false)
		return b
	}
	{
		b := stalled(twoWrite(0, 0), true, func(b *hb) {
			b.write("w1", inv1, workload.ActionRecordFailure, 40.3, 40.4, 0)
		})
		add(true, "invalid-stalled-job-failed-reason", "bull #1416 (BR-23): the stalled worker's completion is refused, and its unchecked failedReason write overwrites the record of w2's finished run",
			b, invalid(KindDoubleEffect, KindMutexOverlap, KindNotLinearizable, KindStaleWriteAccepted))
	}
	{
		// The scenario's own settings: the gateway keys charges, so w1's
		// second charge is refused; the unchecked failure record is not
		// keyed, so it is still the holder's to write (reader 18: the
		// key made every write exempt from the holder rule, and porcupine
		// took w1's stale failedReason write for linearizable).
		b := stalled(twoWrite(0, 1), false, func(b *hb) {
			b.write("w1", inv1, workload.ActionRecordFailure, 40.3, 40.4, 0)
		})
		add(false, "an idempotency key exempts only the keyed charge, not the unchecked failure record, from the holder rule", "",
			b, expectation{verdict: Invalid, kinds: []string{KindNotLinearizable, KindStaleWriteAccepted}, informational: []string{KindMutexOverlap}})
	}
	{
		b := stalled(twoWrite(1, 1), false, func(b *hb) {
			b.refused("w1", inv1, workload.ActionRecordFailure, 40.3, 40.4, 0, history.RefusalLockMismatch, 0)
		})
		add(true, "valid-stalled-job-failure-record-checked", "BR-23's fix: the charge keyed by the job, and the failure record checked by token like the completion; w2's record stands",
			b, valid(KindMutexOverlap))
	}
	{
		// w1's job runs out its lease before w2's; its failure record is
		// accepted before w2 completes, so w2's completion overwrites it:
		// no finished record was overwritten. w1 wrote after its lease
		// ended while nobody tried the lock: an exposure no contender
		// tested, so the run is unknown (issue 32), with no finding.
		b := twoWrite(0, 1)
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.refused("w1", inv1, workload.ActionComplete, 31, 31.1, 0, history.RefusalLockMismatch, 0)
		b.write("w1", inv1, workload.ActionRecordFailure, 31.1, 31.2, 0)
		b.release("w1", inv1, 31.2, 31.3, false)
		b.acquire("w2", inv1, 31.5, 31.6, 0)
		b.write("w2", inv1, workload.ActionComplete, 32, 32.1, 0)
		b.release("w2", inv1, 32.1, 32.2, true)
		add(false, "a failure record written before the newer run completes overwrites nothing", "", b, expectation{verdict: Unknown})
	}
	{
		// The one worker completes, then records a failure of its own
		// run: no other run's record is touched (one grant is the case).
		b := twoWrite(0, 0)
		b.h.Header.Params[history.ParamMinAcquires] = 1
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.write("w1", inv1, workload.ActionComplete, 1, 1.1, 0)
		b.write("w1", inv1, workload.ActionRecordFailure, 1.1, 1.2, 0)
		b.release("w1", inv1, 1.2, 1.3, true)
		add(false, "a worker's failure record over its own completion is no stale write", "", b, valid())
	}
	return cs
}

func TestWorkloadHistories(t *testing.T) {
	for _, c := range workloadCases() {
		name := c.name
		if c.stored {
			name = "stored case " + c.name + " is judged as its table row says"
		}
		t.Run(name, func(t *testing.T) {
			rep := Check(context.Background(), named(c.h, c.name), Options{})
			kinds, info := kindsOf(rep)
			want := c.corpus
			slices.Sort(want.kinds)
			slices.Sort(want.informational)
			if rep.Verdict != want.verdict || !slices.Equal(kinds, want.kinds) || !slices.Equal(info, want.informational) {
				var b strings.Builder
				for _, r := range rep.Results {
					b.WriteString("\n  " + r.Checker + " " + string(r.Verdict) + ": " + r.Summary)
				}
				for _, a := range rep.Anomalies() {
					b.WriteString("\n  " + a.Kind + ": " + a.Explain)
				}
				t.Errorf("got %s %v %v, want %s %v %v%s", rep.Verdict, kinds, info, want.verdict, want.kinds, want.informational, b.String())
			}
		})
	}
}

// TestStuckLockIsExplainedByWhatTheNodeHeld: a setnx-expire client asked
// for a 10 s TTL, but its EXPIRE never ran: the node's key had none. The
// stuck-lock finding must say so, not that "its TTL of 10 s had long passed".
func TestStuckLockIsExplainedByWhatTheNodeHeld(t *testing.T) {
	b := newHB(false).workload(workload.Payment, "setnx-expire", map[string]int64{history.ParamExpectLive: 1})
	b.h.Header.Observed = []string{"n1"}
	b.acquireTTL("C1", inv1, 0, 0.1, 0, 10)
	b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, Client: "C1", F: history.NodeCmd,
		Key: inv1, Type: history.OK, Value: history.Value{Node: "n1", Cmd: []string{"SETNX", inv1, "C1-tok"}},
		Invoke: ns(0.05), Complete: ns(0.05)})
	b.fault("crash-client", []string{"C1"}, 0.2, 0.3)
	b.acquireFail("C2", inv1, 1, 1.1)
	b.probe(inv1, 40, 50, history.Fail)
	var found bool
	for _, r := range Check(context.Background(), b.h, Options{}).Results {
		if r.Checker == CheckerLiveness && strings.Contains(r.Summary, "stretch") {
			t.Errorf("liveness summary counts a stretch unavailable that it did not find: %s", r.Summary)
		}
		for _, an := range r.Anomalies {
			if an.Kind != KindStuckLock {
				continue
			}
			found = true
			if strings.Contains(an.Explain, "had long passed") || !strings.Contains(an.Explain, "no TTL") {
				t.Fatalf("stuck-lock explained from the client's request, not the node's key: %s", an.Explain)
			}
		}
	}
	if !found {
		t.Fatal("no stuck-lock finding")
	}
}

// crashedLeader is a leader history on one recorded node n1: w1 takes key
// (TTL 10 s) at 0 s and crashes at 5 s; cmd records a command of client
// on n1 at scenario time t (seconds).
func crashedLeader(key string) (*hb, func(client string, t float64, args ...string)) {
	b := newHB(false).workload(workload.Leader, "pid-expire-heartbeat", map[string]int64{history.ParamExpectLive: 1})
	b.h.Header.Observed = []string{"n1"}
	cmd := func(client string, t float64, args ...string) {
		b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, Client: client, F: history.NodeCmd,
			Key: key, Type: history.OK, Value: history.Value{Node: "n1", Cmd: args}, Invoke: ns(t), Complete: ns(t)})
	}
	b.op("w1", history.Acquire, key, 0, 0.1, history.OK, history.Value{Token: "1", TTL: ns(10), Nodes: []string{"n1"}})
	cmd("w1", 0.05, "SET", key, "1", "NX", "PX", "10000")
	b.fault("crash-client", []string{"w1"}, 5, 5)
	return b, cmd
}

// TestAnOrphanKeptAliveByAnotherClientsExtendsNamesTheExtender: rq #1707
// (BR-25 scenario B). w1 holds leader-1 and crashes; w2, configured for
// leader-1 too but refused it, extends it with a plain PEXPIRE at every
// heartbeat. The orphaned lease must name w2 as the extender, from the
// node's commands, and a lease nobody else touched must name none.
func TestAnOrphanKeptAliveByAnotherClientsExtendsNamesTheExtender(t *testing.T) {
	const key = "leader-1"
	build := func(extender string) history.History {
		b, cmd := crashedLeader(key)
		end := 15.0 // the key's own TTL, with no one extending it
		for t := 6.0; t < 40; t += 2 {
			b.acquireFail("w2", key, t, t+0.01)
			if extender != "" {
				cmd(extender, t+0.02, "PEXPIRE", key, "10000")
				end = t + 10.02
			}
		}
		cmd("", end, "DEL", key) // stands for the expiry the run ends with
		return b.h
	}
	tests := []struct {
		name, extender string
	}{
		{"another client's PEXPIREs of the dead holder's key are named as what kept it", "w2"},
		{"a key nobody extended after its holder died names no extender", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, r := range Check(context.Background(), build(tt.extender), Options{}).Results {
				for _, an := range r.Anomalies {
					if an.Kind == KindOrphanedLease && an.Cause != nil {
						got = append(got, an.Cause.ExtendedBy)
					}
				}
			}
			if len(got) == 0 {
				t.Fatal("no orphaned lease: w1's key outlived its crash")
			}
			if tt.extender == "" {
				for _, g := range got {
					if g != "" {
						t.Fatalf("orphan names extender %q; nobody extended the key", g)
					}
				}
				return
			}
			if len(got) == 0 || got[0] != tt.extender {
				t.Fatalf("orphaned leases name extenders %q, want %q", got, tt.extender)
			}
		})
	}
}

// TestAnOrphanEndedByItsTTLWithinOneTTLIsBounded: w1 holds leader-1 (TTL
// 10 s) and crashes at 5 s; w2 is refused while the key stays. A key its
// TTL ended within one TTL of the crash is bounded (the lock came free by
// itself: deadlock-free, lesson 42); one a foreign PEXPIRE kept for 30 s
// is not.
func TestAnOrphanEndedByItsTTLWithinOneTTLIsBounded(t *testing.T) {
	const key = "leader-1"
	build := func(extended bool) history.History {
		b, cmd := crashedLeader(key)
		end := 10.05 // the key's own TTL
		for t := 6.0; t < 40; t += 2 {
			if t > end {
				break
			}
			b.acquireFail("w2", key, t, t+0.01)
			if extended && t < 30 {
				cmd("w2", t+0.02, "PEXPIRE", key, "10000")
				end = t + 10.02
			}
		}
		cmd("", end, "DEL", key) // stands for the expiry
		return b.h
	}
	for _, tt := range []struct {
		name     string
		extended bool
		want     bool
	}{
		{"a key its TTL ended 5 s after its holder crashed is bounded", false, true},
		{"a key another client's PEXPIREs kept 30 s past the crash is not", true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var found bool
			for _, r := range Check(context.Background(), build(tt.extended), Options{}).Results {
				for _, an := range r.Anomalies {
					if an.Kind != KindOrphanedLease || an.Cause == nil {
						continue
					}
					found = true
					if an.Cause.Bounded != tt.want {
						t.Errorf("orphaned lease (%s, %s) bounded %v, want %v", an.Cause.Kind, an.Explain, an.Cause.Bounded, tt.want)
					}
				}
			}
			if !found {
				t.Fatal("no orphaned lease: w1's key outlived its crash")
			}
		})
	}
}

// Issue 27 (a fresh reader): a job that ran three times for one fire time
// had its violation placed at the third run; it became one at the second,
// the duplicate, which is the first of the runs the checker names as the
// violation.
func TestADuplicateRunBecomesTrueAtItsSecondRun(t *testing.T) {
	tests := []struct {
		name   string
		runs   []string
		second float64 // the second run's invoke
	}{
		{"a job run twice is a duplicate at its second run", []string{"s2", "s1"}, 30.2},
		{"a job run three times is a duplicate at its second run, not its third", []string{"s2", "s1", "s3"}, 30.2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newHB(false).workload(workload.Cron, "single", nil)
			for i, c := range tt.runs {
				at := 20 + 10*float64(i)
				b.acquire(c, "lock:J", at, at+0.1, 0)
				b.write(c, "job@1", workload.ActionRunJob, at+0.2, at+0.5, 0)
				b.release(c, "lock:J", at+0.6, at+0.7, true)
			}
			rep := Check(context.Background(), b.h, Options{})
			a := find(rep.Anomalies(), KindDuplicateRun)
			if a == nil {
				t.Fatalf("no duplicate-run in %+v", rep.Anomalies())
			}
			if a.At != ns(tt.second) || len(a.Violating) != len(tt.runs)-1 || b.h.Ops[a.Violating[0]].Invoke != a.At {
				t.Errorf("duplicate run placed at %d (violating %v), want its second run's invoke %d", a.At, a.Violating, ns(tt.second))
			}
		})
	}
}
