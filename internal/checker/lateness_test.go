package checker

import (
	"context"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// lag appends a harness timer lag: a timer due at from fired at to.
func (b *hb) lag(from, to float64) {
	b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, F: history.TimerLag,
		Invoke: ns(from), Complete: ns(to), Type: history.OK})
}

// nearMiss is Kleppmann's timeline 1 by a hair: w1 (TTL 30 s from 0.01 s)
// is paused from 5 s until wake, as planned, wakes, charges 10 ms later
// and releases 30 ms after waking; w2, retrying, is granted at 30.02 s,
// charges and releases. With wake 30.05 s the overlap of beliefs is 60 ms
// ([30.02, 30.08]) and w1's charge comes 50 ms after its key ran out.
func nearMiss(wake float64) *hb {
	b := newHB(false)
	b.acquire("w1", inv1, 0, 0.01, 0)
	b.read("w1", inv1, 0.1, 0.11, "unpaid")
	f := b.fault("pause", []string{"w1"}, 5, wake)
	b.h.Ops[f].Value.Fault.Duration = ns(wake) - ns(5)
	b.acquireFail("w2", inv1, 1, 1.01)
	b.acquire("w2", inv1, 30.015, 30.02, 0)
	b.read("w2", inv1, 30.021, 30.022, "unpaid")
	b.write("w1", inv1, workload.ActionCharge, wake+0.01, wake+0.011, 0)
	b.write("w2", inv1, workload.ActionCharge, wake+0.012, wake+0.013, 0)
	b.release("w1", inv1, wake+0.03, wake+0.031, false)
	b.release("w2", inv1, 31, 31.01, true)
	return b
}

func TestAViolationWithinTheHarnessLatenessAroundItIsUnknown(t *testing.T) {
	tests := []struct {
		name    string
		h       func() *hb
		want    Verdict
		mention string
	}{
		{"a 60 ms overlap with no lag recorded stands", func() *hb { return nearMiss(30.05) }, Invalid, ""},
		{"a 60 ms overlap beside an 80 ms timer lag during the hold is unknown",
			func() *hb { b := nearMiss(30.05); b.lag(20, 20.08); return b }, Unknown, "within the harness's own lateness of 90ms"},
		{"a 30 ms timer lag is less than the 50 ms charge's margin: it stands",
			func() *hb { b := nearMiss(30.05); b.lag(20, 20.03); return b }, Invalid, ""},
		{"a lag before the stale holder's grant is not around the violation",
			func() *hb {
				b := nearMiss(30.05)
				b.h.Ops = append([]history.Op(nil), b.h.Ops...)
				b.lag(-1, -0.5)
				return b
			}, Invalid, ""},
		{"a pause that healed 50 ms late is the lateness: unknown",
			func() *hb {
				b := nearMiss(30.05)
				b.h.Ops[2].Value.Fault.Duration = ns(24.95) // lasted 25.05 s
				return b
			}, Unknown, "faults late 100ms"},
		{"a two-second overlap is far past any lag: it stands",
			func() *hb { b := nearMiss(32); b.lag(20, 20.2); return b }, Invalid, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Check(context.Background(), tt.h().h, Options{})
			if rep.Verdict != tt.want {
				t.Fatalf("verdict %s, want %s: %+v", rep.Verdict, tt.want, rep.Results)
			}
			cov := rep.Results[len(rep.Results)-1]
			switch {
			case tt.want == Unknown:
				if len(cov.Marginal) == 0 || !strings.Contains(cov.Summary, tt.mention) {
					t.Errorf("coverage %q (marginal %+v), want it to mention %q", cov.Summary, cov.Marginal, tt.mention)
				}
				if c, why := Spoiled(rep.Verdict, rep.Results); c != SpoiledMargin || why == "" || strings.Contains(why, "--parallel") {
					t.Errorf("spoiled %q %q, want margin with a reason and no advice", c, why)
				}
			case len(cov.Marginal) > 0:
				t.Errorf("coverage says marginal %+v of a run that stands", cov.Marginal)
			}
		})
	}
	t.Run("a structural violation beside a marginal one keeps the run invalid", func(t *testing.T) {
		b := nearMiss(30.05)
		b.lag(20, 20.08)
		// w3 is granted while w2's key is still there (a lock that does
		// not exclude): an overlap no lateness makes.
		b.acquire("w3", inv1, 30.5, 30.51, 0)
		b.release("w3", inv1, 30.6, 30.61, true)
		rep := Check(context.Background(), b.h, Options{})
		if rep.Verdict != Invalid {
			for _, a := range rep.Anomalies() {
				t.Logf("%s %v: %s", a.Kind, a.Informational, a.Explain)
			}
			t.Errorf("verdict %s, want invalid", rep.Verdict)
		}
	})
	// A kind that follows from an overlap (a double charge with no late
	// charge among its charges) is excused with the overlap only when it
	// was made in the overlap's window (issue 33's metamorphic test).
	doubled := []struct {
		name string
		add  func(b *hb)
		want Verdict
	}{
		{"a charge accepted twice far from the untrusted overlap, under its client's own lease, keeps the run invalid",
			func(b *hb) {
				const inv2 = "invoice-2"
				b.acquire("w2", inv2, 40, 40.01, 0)
				b.write("w2", inv2, workload.ActionCharge, 40.1, 40.11, 0)
				b.write("w2", inv2, workload.ActionCharge, 40.2, 40.21, 0)
				b.release("w2", inv2, 40.3, 40.31, true)
			}, Invalid},
		{"the fresh holder's charge accepted twice inside the untrusted overlap stays unknown with it",
			func(b *hb) { b.write("w2", inv1, workload.ActionCharge, 30.064, 30.065, 0) }, Unknown},
	}
	for _, tt := range doubled {
		t.Run(tt.name, func(t *testing.T) {
			b := nearMiss(30.05)
			b.lag(20, 20.08)
			tt.add(b)
			rep := Check(context.Background(), b.h, Options{})
			found := false
			for _, a := range rep.Anomalies() {
				found = found || (a.Kind == KindDoubleEffect && !a.Informational)
			}
			if rep.Verdict != tt.want || !found {
				t.Errorf("verdict %s (double-effect found: %v), want %s with a double-effect", rep.Verdict, found, tt.want)
			}
		})
	}
}

func TestAFaultThatStartedLateMakesAValidRunUnknown(t *testing.T) {
	for _, tt := range []struct {
		name  string
		start float64
		want  Verdict
	}{
		{"a pause planned at 5 s that came at 5.05 s is on time", 5.05, Valid},
		{"a pause planned at 5 s that came at 8 s did not hit as planned", 8, Unknown},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := newHB(false)
			b.acquire("w1", inv1, 0, 0.01, 0)
			f := b.fault("pause", []string{"w1"}, tt.start, tt.start+1)
			st := b.h.Ops[f].Value.Fault
			st.Trigger, st.Duration = history.Trigger{Kind: history.TriggerAt, At: ns(5)}, ns(1)
			b.write("w1", inv1, workload.ActionCharge, 10, 10.01, 0)
			b.release("w1", inv1, 11, 11.01, true)
			b.acquire("w2", inv1, 12, 12.01, 0)
			b.release("w2", inv1, 13, 13.01, true)
			rep := Check(context.Background(), b.h, Options{})
			if rep.Verdict != tt.want {
				t.Fatalf("verdict %s, want %s: %+v", rep.Verdict, tt.want, rep.Results)
			}
			if cov := rep.Results[len(rep.Results)-1]; tt.want == Unknown && !strings.Contains(cov.Summary, "started 3s of scenario time after its planned start") {
				t.Errorf("coverage says %q", cov.Summary)
			}
		})
	}
}

// exposed is w1 charging after its 30 s lease ran out (it was paused from
// 5 s to 31 s) while w2 tries the lock at the times given (scenario s;
// each attempt 10 ms long, refused before 30.01 s, granted after).
func exposed(tries ...float64) *hb {
	b := newHB(false)
	b.acquire("w1", inv1, 0, 0.01, 0)
	b.fault("pause", []string{"w1"}, 5, 31)
	for _, at := range tries {
		if at < 30 {
			b.acquireFail("w2", inv1, at, at+0.01)
			continue
		}
		b.acquire("w2", inv1, at, at+0.01, 0)
		b.release("w2", inv1, at+0.02, at+0.03, true)
	}
	b.write("w1", inv1, workload.ActionCharge, 31, 31.01, 0)
	b.write("w1", inv1, workload.ActionMarkPaid, 31.02, 31.03, 0)
	b.release("w1", inv1, 31.05, 31.06, false)
	return b
}

func TestExposureWithoutATestIsNotAPass(t *testing.T) {
	t.Run("no contender tried while w1 charged after its lease: unknown, with the window and the tries around it", func(t *testing.T) {
		rep := Check(context.Background(), exposed(1, 29.9, 40).h, Options{})
		if rep.Verdict != Unknown {
			t.Fatalf("verdict %s, want unknown: %+v", rep.Verdict, rep.Results)
		}
		e := rep.Results[len(rep.Results)-1].Exposure
		if e == nil {
			t.Fatal("coverage names no exposure")
		}
		if e.Client != "w1" || e.Action != workload.ActionCharge || e.From != ns(30.01) || e.To != ns(31.03) || e.Tried {
			t.Errorf("exposure %+v, want w1's charge from 30.01 s to 31.03 s, untried", e)
		}
		if e.LastTry == nil || e.LastTry.Client != "w2" || e.LastTry.At != ns(29.91) || e.NextTry == nil || e.NextTry.At != ns(40) {
			t.Errorf("tries around it %+v, %+v; want w2's ending at 29.91 s and w2's at 40 s", e.LastTry, e.NextTry)
		}
		if c, _ := Spoiled(rep.Verdict, rep.Results); c != SpoiledExposure {
			t.Errorf("spoiled %q, want exposure", c)
		}
	})
	t.Run("a contender granted inside the window tested it: the double charge stands", func(t *testing.T) {
		b := exposed(1, 30.5)
		b.write("w2", inv1, workload.ActionCharge, 30.515, 30.518, 0)
		rep := Check(context.Background(), b.h, Options{})
		if rep.Verdict != Invalid {
			t.Errorf("verdict %s, want invalid", rep.Verdict)
		}
	})
	t.Run("an attempt in flight across the window whose command reached the node before it is no test", func(t *testing.T) {
		b := exposed(1)
		b.h.Header.Nodes, b.h.Header.Observed = []string{"n1"}, []string{"n1"}
		// w2's acquire from 29.9 s to 31.5 s: its SET NX ran on n1 at
		// 29.905 s, before w1's key ran out; the reply came late.
		b.op("w2", history.Acquire, inv1, 29.9, 31.5, history.Fail, history.Value{})
		b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, Client: "w2", F: history.NodeCmd,
			Key: inv1, Value: history.Value{Node: "n1", Cmd: []string{"SET", inv1, "w2-tok", "NX", "PX", "30000"}},
			Invoke: ns(29.905), Complete: ns(29.905), Type: history.OK})
		rep := Check(context.Background(), b.h, Options{})
		e := rep.Results[len(rep.Results)-1].Exposure
		if rep.Verdict != Unknown || e == nil || e.Tried {
			t.Errorf("verdict %s, exposure %+v; want unknown, untried", rep.Verdict, e)
		}
	})
	t.Run("a refused Redlock's unlocks inside the window and a grant answered after it are no test", func(t *testing.T) {
		b := exposed(1)
		b.h.Header.Nodes, b.h.Header.Observed = []string{"n1"}, []string{"n1"}
		cmd := func(c string, at float64, args ...string) {
			b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, Client: c, F: history.NodeCmd,
				Key: inv1, Value: history.Value{Node: "n1", Cmd: args}, Invoke: ns(at), Complete: ns(at), Type: history.OK})
		}
		// Refused: its SET NX ran at 29.95 s, w1's key still there; its
		// unlock ran at 30.5 s, inside the window, and asked the lock
		// nothing.
		b.op("w2", history.Acquire, inv1, 29.9, 30.6, history.Fail, history.Value{})
		cmd("w2", 29.95, "SET", inv1, "w2-a", "NX", "PX", "30000")
		cmd("w2", 30.5, "EVALSHA", "unlock", "1", inv1, "w2-a")
		// Granted at 31.5 s: its SET NX ran at 30.9 s, but w2 could act
		// only after w1's last write (31.03 s).
		b.op("w2", history.Acquire, inv1, 30.8, 31.5, history.OK, history.Value{Token: "w2-b"})
		cmd("w2", 30.9, "SET", inv1, "w2-b", "NX", "PX", "30000")
		rep := Check(context.Background(), b.h, Options{})
		e := rep.Results[len(rep.Results)-1].Exposure
		if rep.Verdict != Unknown || e == nil || e.Tried {
			t.Fatalf("verdict %s, exposure %+v; want unknown, untried", rep.Verdict, e)
		}
		if e.Short == nil || e.Short.Client != "w2" || e.Short.Granted != ns(31.5) || e.NextTry != nil {
			t.Errorf("short try %+v, next %+v; want w2's try in flight in the window, granted at 31.5 s, and no next", e.Short, e.NextTry)
		}
	})
	for _, tt := range []struct {
		name string
		typ  history.Type
		v    history.Value
	}{
		{"an attempt that got no answer is no test: the contender could not have acted", history.Info, history.Value{}},
		{"an attempt its own WAIT refused is no test: the node let it in", history.Fail, history.Value{Refusal: history.RefusalNotReplicated}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := exposed(1)
			b.op("w2", history.Acquire, inv1, 30.2, 30.8, tt.typ, tt.v)
			rep := Check(context.Background(), b.h, Options{})
			if e := rep.Results[len(rep.Results)-1].Exposure; rep.Verdict != Unknown || e == nil || e.Tried {
				t.Errorf("verdict %s, exposure %+v; want unknown, untried", rep.Verdict, e)
			}
		})
	}
	t.Run("an attempt the holder's key refused tested it", func(t *testing.T) {
		b := exposed(1)
		b.acquireFail("w2", inv1, 30.2, 30.8)
		// (One grant is too few for coverage: unknown for that, not for
		// the exposure.)
		if rep := Check(context.Background(), b.h, Options{}); rep.Results[len(rep.Results)-1].Exposure != nil {
			t.Errorf("coverage names an untested exposure: %+v", rep.Results[len(rep.Results)-1])
		}
	})
	t.Run("a contender whose acquire purged the holder's permit, then admitted it, tested the window", func(t *testing.T) {
		// semaphore-over-admission seed 50 (reader, issue 27): w3's acquire
		// (rec 546, 10.245–10.260 s) sent its script at 10.250 s; the
		// script's ZREMRANGEBYSCORE (rec 548, 10.251 s) purged w1's permit
		// and admitted w3. Its first command came 64 µs before the lease's
		// end, yet it is the very try that ended the lease.
		h, err := history.ReadFile("testdata/exposure/purged-by-the-contenders-acquire.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		es := exposures(account.New(h))
		if len(es) == 0 || es[0].Client != "w1" || es[0].Ended != account.EndPurged {
			t.Fatalf("exposures %+v, want w1's after its permit was purged", es)
		}
		if !es[0].Tried {
			t.Errorf("exposure %+v untried, want tried by w3's acquire", es[0])
		}
		rep := Check(context.Background(), h, Options{})
		if e := rep.Results[len(rep.Results)-1].Exposure; e != nil {
			t.Errorf("coverage names an untested exposure: %+v (%s)", e, rep.Results[len(rep.Results)-1].Summary)
		}
	})
	t.Run("an efficiency lock has no exposure: its overlaps are waste", func(t *testing.T) {
		b := exposed(1)
		b.h.Header.Workload = workload.CacheRebuild
		if es := exposures(account.New(b.h)); len(es) != 0 {
			t.Errorf("exposures %+v, want none", es)
		}
	})
}

func TestTooFewGrantsIsTheMachinesDoingOnlyWhenItRanLate(t *testing.T) {
	one := func(lag int64) history.History {
		b := newHB(false)
		b.h.Header.MaxTimerLagNS = lag
		b.acquire("w1", inv1, 0, 0.01, 0)
		b.fault("pause", []string{"w1"}, 1, 2)
		b.write("w1", inv1, workload.ActionCharge, 3, 3.01, 0)
		b.release("w1", inv1, 4, 4.01, true)
		b.acquireFail("w2", inv1, 5, 5.01)
		return b.h
	}
	spoiledOnlyWhenLate(t, one, []lateCase{
		{"one grant on a quiet machine is the scenario's unknown", 2e6, ""},
		{"one grant while the harness's timers lagged may be the machine's", 30e6, SpoiledFewGrants},
	})
}

func TestFaultsThatMissedEveryHoldAreTheMachinesDoingOnlyWhenItRanLate(t *testing.T) {
	// fencing-random-nemesis seed 1859 beside two CPU hogs (timer lag
	// 12 ms): its faults overlapped no hold and the run was unknown with
	// no cause a rerun could settle; on a quiet machine it is valid.
	missed := func(lag int64) history.History {
		b := newHB(false)
		b.h.Header.MaxTimerLagNS = lag
		b.acquire("w1", inv1, 0, 0.01, 0)
		b.write("w1", inv1, workload.ActionCharge, 0.5, 0.51, 0)
		b.release("w1", inv1, 1, 1.01, true)
		b.fault("pause", []string{"w1"}, 2, 3)
		b.acquire("w2", "invoice-2", 4, 4.01, 0)
		b.write("w2", "invoice-2", workload.ActionCharge, 4.5, 4.51, 0)
		b.release("w2", "invoice-2", 5, 5.01, true)
		return b.h
	}
	spoiledOnlyWhenLate(t, missed, []lateCase{
		{"faults between the holds on a quiet machine are the scenario's unknown", 2e6, ""},
		{"faults between the holds while the harness's timers lagged may be the machine's", 12e6, SpoiledUntested},
	})
}

// lateCase is a run built at a worst timer lag (wall ns) and the spoiled
// cause its unknown must have ("" for the scenario's own unknown).
type lateCase struct {
	name string
	lag  int64
	want string
}

// spoiledOnlyWhenLate checks that build's run is unknown at each case's
// lag, spoiled by the machine only as the case says.
func spoiledOnlyWhenLate(t *testing.T, build func(lag int64) history.History, cases []lateCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			rep := Check(context.Background(), build(tt.lag), Options{})
			if rep.Verdict != Unknown {
				t.Fatalf("verdict %s, want unknown", rep.Verdict)
			}
			if c, _ := Spoiled(rep.Verdict, rep.Results); c != tt.want {
				t.Errorf("spoiled %q, want %q", c, tt.want)
			}
		})
	}
}

func TestAStepTheHarnessFailedToApplyIsTheMachinesDoing(t *testing.T) {
	// failover-fence-regression seed 29 in a loaded suite: Sentinel
	// promoted no replica within the harness's 10 s, the failover step
	// failed to apply, and the run was unknown with no cause a rerun
	// could settle, so it was never run again.
	run := func(failed bool) history.History {
		b := newHB(false)
		b.acquire("w1", inv1, 0, 0.01, 0)
		b.fault("pause", []string{"w1"}, 1, 2)
		b.write("w1", inv1, workload.ActionCharge, 3, 3.01, 0)
		b.release("w1", inv1, 4, 4.01, true)
		b.acquire("w2", inv1, 5, 5.01, 0)
		b.release("w2", inv1, 6, 6.01, true)
		b.h.Header.Plan = []history.FaultStep{*b.h.Ops[1].Value.Fault}
		failover := history.FaultStep{ID: 9, Kind: "failover", Effect: history.EffectFailover, Nodes: []string{"n1"}}
		b.h.Header.Plan = append(b.h.Header.Plan, failover)
		if failed {
			b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NemesisProcess, Client: history.NemesisClient,
				F: history.Fault, Value: history.Value{Fault: &failover}, Invoke: ns(1), Complete: ns(7), Type: history.Fail,
				Error: "failover of n1: no replica promoted within 10s"})
		}
		return b.h
	}
	for _, tt := range []struct {
		name   string
		failed bool
		want   string
	}{
		{"a step that failed to apply is spoiled by the machine", true, SpoiledFault},
		{"a step that never fired is the scenario's unknown", false, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := Check(context.Background(), run(tt.failed), Options{})
			if rep.Verdict != Unknown {
				t.Fatalf("verdict %s, want unknown", rep.Verdict)
			}
			c, why := Spoiled(rep.Verdict, rep.Results)
			if c != tt.want {
				t.Errorf("spoiled %q, want %q", c, tt.want)
			}
			if c != "" && !strings.Contains(why, "no replica promoted") {
				t.Errorf("spoiled why %q does not say why the step failed", why)
			}
		})
	}
}

func TestTheLoadedFailoverWaitRunIsNotJudgedInvalid(t *testing.T) {
	// The real history (testdata/loaded/README.md): w1's key, set where no
	// observer watched, ran out 60 s after its SET, which its WAIT kept
	// 10.5 s before its acquire returned; w2 was granted 16 ms (wall)
	// before w1's charge. The old account called the key taken "for a
	// reason the history does not show", a structural violation no
	// lateness could excuse, and the run was invalid.
	h := loadedHistory(t, "failover-wait-seed32.jsonl.gz")
	rep := Check(context.Background(), h, Options{})
	if c, _ := Spoiled(rep.Verdict, rep.Results); rep.Verdict != Unknown || c != SpoiledMargin {
		t.Errorf("verdict %s, spoiled %q; want unknown, spoiled %q", rep.Verdict, c, SpoiledMargin)
	}
}

// A fifth reader: the late-claim run's mutex summary said check-and-set
// "refused the stale holder" while the resource had accepted w1's charge
// before w2's claim (claim order); the fenced twin said the same of its
// fence.
func TestAnOverlapHarmlessInOrderIsNotToldAsARefusal(t *testing.T) {
	for _, c := range corpusCases() {
		want, ok := map[string]string{
			"valid-fenced-stale-charge-before-new-claim": "in token order",
			"valid-cas-stale-charge-before-new-claim":    "in claim order",
		}[c.name]
		if !ok {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			rep := Check(context.Background(), c.h, Options{})
			for _, r := range rep.Results {
				if r.Checker != CheckerMutex {
					continue
				}
				if !strings.Contains(r.Summary, want) || strings.Contains(r.Summary, "refused") {
					t.Errorf("mutex summary %q: want %q and no refusal", r.Summary, want)
				}
			}
		})
	}
}

// quorumExposed is quorumRun on three nodes (quorum 2), w1 on all three,
// and w2 trying once from 29.9 s to 30.6 s (refused), its SET NX
// reaching each node of sets at the instant given (a missing node: its
// command never reached it). (A node kept down counts as free when its
// key went with it: the stored redlock-delayed-restart case.)
func quorumExposed(at map[string]float64) *hb {
	var cmds []qcmd
	for _, n := range three {
		if x, ok := at[n]; ok {
			cmds = append(cmds, qcmd{node: n, at: x})
		}
	}
	return quorumRun(three, three, qtry{client: "w2", from: 29.9, to: 30.6, typ: history.Fail, cmds: cmds})
}

func TestATryInsideTheExposureThatCouldNotReachAQuorumIsNoTest(t *testing.T) {
	for _, tt := range []struct {
		name  string
		sets  map[string]float64
		tried bool
		met   int
	}{
		{"a try whose SETs met w1's keys on two nodes and a free third is short of the quorum",
			map[string]float64{"n1": 29.95, "n2": 29.96, "n3": 30.1}, false, 1},
		{"a try that found two of the three nodes free tested the window",
			map[string]float64{"n1": 29.95, "n2": 30.05, "n3": 30.1}, true, 0},
		{"a try that reached one free node and no other is short of the quorum",
			map[string]float64{"n3": 30.1}, false, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			es := exposures(account.New(quorumExposed(tt.sets).h))
			if len(es) == 0 {
				t.Fatal("no exposure")
			}
			e := es[0]
			if e.Tried != tt.tried {
				t.Fatalf("tried %v, want %v: %+v", e.Tried, tt.tried, e)
			}
			if tt.tried {
				if e.Short != nil {
					t.Errorf("short %+v on a tested window", e.Short)
				}
				return
			}
			if e.Short == nil || e.Short.Client != "w2" || e.Short.At != ns(29.9) || e.Short.Met != tt.met || e.Short.Need != 2 {
				t.Errorf("short %+v, want w2's try from 29.9 s, %d of 2", e.Short, tt.met)
			}
			if e.LastTry != nil {
				t.Errorf("last try %+v: the try inside the window is not one before it", e.LastTry)
			}
		})
	}
}
