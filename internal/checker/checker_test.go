package checker

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

const inv1 = "invoice-1"

// sequential: w1 holds, charges, marks paid, releases; w2 then sees paid.
func sequentialHistory() history.History {
	b := newHB(false)
	b.acquire("w1", inv1, 0, 0.01, 0)
	b.read("w1", inv1, 0.1, 0.11, "unpaid")
	b.acquireFail("w2", inv1, 0.5, 0.51)
	b.write("w1", inv1, workload.ActionCharge, 1, 1.1, 0)
	b.write("w1", inv1, workload.ActionMarkPaid, 1.2, 1.3, 0)
	b.release("w1", inv1, 2, 2.01, true)
	b.acquire("w2", inv1, 2.5, 2.51, 0)
	b.read("w2", inv1, 2.6, 2.61, "paid")
	b.release("w2", inv1, 3, 3.01, true)
	return b.h
}

// kleppmann1 is Kleppmann's timeline 1 / lock-theory S01: w1 is paused
// past its 30 s TTL, w2 acquires at 30 s and charges; w1 wakes and charges
// too. fenced adds fencing tokens, a claim-first step and a resource that
// refuses w1's stale charge (S03).
func kleppmann1(fenced bool) history.History {
	b := newHB(fenced)
	f1, f2 := int64(0), int64(0)
	if fenced {
		f1, f2 = 1, 2
	}
	b.acquire("w1", inv1, 0, 0.01, f1)
	if fenced {
		b.write("w1", inv1, workload.ActionClaim, 0.05, 0.06, f1)
	}
	b.read("w1", inv1, 0.1, 0.11, "unpaid")
	b.fault("pause", []string{"w1"}, 5, 35)
	b.acquireFail("w2", inv1, 1, 1.01)
	b.acquire("w2", inv1, 29.99, 30, f2)
	if fenced {
		b.write("w2", inv1, workload.ActionClaim, 30.05, 30.06, f2)
	}
	b.read("w2", inv1, 30.1, 30.11, "unpaid")
	b.write("w2", inv1, workload.ActionCharge, 30.8, 31, f2)
	b.write("w2", inv1, workload.ActionMarkPaid, 31.1, 31.2, f2)
	if fenced {
		b.refused("w1", inv1, workload.ActionCharge, 35.5, 35.6, f1, history.RefusalStaleFence, 2)
	} else {
		b.write("w1", inv1, workload.ActionCharge, 35.5, 35.6, f1)
		b.write("w1", inv1, workload.ActionMarkPaid, 35.7, 35.8, f1)
	}
	b.release("w1", inv1, 36, 36.01, false)
	b.release("w2", inv1, 40, 40.01, true)
	return b.h
}

// touching: w1's release is invoked at the instant w2's acquire returns.
func touchingHistory() history.History {
	b := newHB(false)
	b.acquire("w1", inv1, 0, 1, 0)
	b.write("w1", inv1, workload.ActionCharge, 2, 3, 0)
	b.write("w1", inv1, workload.ActionMarkPaid, 3.5, 4, 0)
	b.acquire("w2", inv1, 9, 10, 0)
	b.release("w1", inv1, 10, 10.5, true)
	b.read("w2", inv1, 11, 11.1, "paid")
	b.release("w2", inv1, 12, 12.1, true)
	return b.h
}

// infoAcquire: w1's acquire never returns (maybe granted); w2 then holds,
// charges and releases; w1 continues under a new process and sees paid.
func infoAcquireHistory() history.History {
	b := newHB(false)
	b.acquireInfo("w1", inv1, 0)
	b.acquire("w2", inv1, 1, 1.1, 0)
	b.write("w2", inv1, workload.ActionCharge, 2, 2.1, 0)
	b.write("w2", inv1, workload.ActionMarkPaid, 2.2, 2.3, 0)
	b.release("w2", inv1, 3, 3.1, true)
	b.acquire("w1", inv1, 4, 4.1, 0)
	b.read("w1", inv1, 4.2, 4.3, "paid")
	b.release("w1", inv1, 5, 5.1, true)
	return b.h
}

// infoAcquireActed: w1's acquire never returns, yet w1 writes as holder
// while w2 definitely holds.
func infoAcquireActedHistory() history.History {
	b := newHB(false)
	b.acquireInfo("w1", inv1, 0)
	b.acquire("w2", inv1, 1, 1.1, 0)
	b.write("w1", inv1, workload.ActionClaim, 2, 2.1, 0)
	b.release("w1", inv1, 3, 3.1, false)
	b.release("w2", inv1, 4, 4.1, true)
	return b.h
}

// tokenRegression: w2 gets token 5 after w1 had token 34 (S06b).
func tokenRegressionHistory() history.History {
	b := newHB(false)
	b.acquire("w1", inv1, 0, 0.1, 34)
	b.write("w1", inv1, workload.ActionClaim, 0.2, 0.3, 34)
	b.release("w1", inv1, 5, 5.1, true)
	b.acquire("w2", inv1, 10, 10.1, 5)
	b.release("w2", inv1, 11, 11.1, true)
	return b.h
}

// staleWrite: Kleppmann's 33/34 with a storage that ignores tokens (S06
// variant): w1's token-33 write is accepted after w2's token-34 write.
func staleWriteHistory() history.History {
	b := newHB(false)
	b.acquire("w1", inv1, 0, 0.1, 33)
	b.fault("pause", []string{"w1"}, 1, 15)
	b.acquire("w2", inv1, 10, 10.1, 34)
	b.write("w2", inv1, workload.ActionClaim, 10.5, 10.6, 34)
	b.write("w1", inv1, workload.ActionClaim, 15, 15.1, 33)
	b.release("w1", inv1, 16, 16.1, false)
	b.release("w2", inv1, 17, 17.1, true)
	return b.h
}

// naiveDel is S04: A pauses before its DEL, its lease expires, B acquires,
// A's DEL removes B's key, C acquires while B still works.
func naiveDelHistory() history.History {
	b := newHB(false)
	b.acquire("A", inv1, 0, 0.1, 0)
	b.read("A", inv1, 1, 1.1, "unpaid")
	b.write("A", inv1, workload.ActionCharge, 7.9, 8, 0)
	b.write("A", inv1, workload.ActionMarkPaid, 8, 8.05, 0)
	b.fault("pause", []string{"A"}, 8.1, 13)
	b.acquire("B", inv1, 10, 10.1, 0)
	b.read("B", inv1, 10.2, 10.3, "paid")
	b.release("A", inv1, 13, 13.1, true)
	b.acquire("C", inv1, 13.2, 13.3, 0)
	b.read("C", inv1, 13.4, 13.5, "paid")
	b.release("B", inv1, 18, 18.1, true)
	b.release("C", inv1, 21, 21.1, false)
	return b.h
}

func result(t *testing.T, rep Report, name string) Result {
	t.Helper()
	for _, r := range rep.Results {
		if r.Checker == name {
			return r
		}
	}
	t.Fatalf("no %s result in %+v", name, rep.Results)
	return Result{}
}

func find(as []Anomaly, kind string, clients ...string) *Anomaly {
	for i, a := range as {
		if a.Kind == kind && (clients == nil || slices.Equal(a.Clients, clients)) {
			return &as[i]
		}
	}
	return nil
}

func wantWindow(t *testing.T, a *Anomaly, from, to float64) {
	t.Helper()
	if a.Start != ns(from) || a.End != ns(to) || a.StartS != from || a.EndS != to {
		t.Errorf("%s window = [%d, %d] ns ([%g, %g] s), want [%g, %g] s", a.Kind, a.Start, a.End, a.StartS, a.EndS, from, to)
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name    string
		h       history.History
		verdict Verdict
		check   func(t *testing.T, rep Report)
	}{
		{
			name: "sequential holds with one charge are valid in every checker", h: sequentialHistory(), verdict: Valid,
			check: func(t *testing.T, rep Report) {
				for _, r := range rep.Results {
					if r.Verdict != Valid || len(r.Anomalies) > 0 {
						t.Errorf("%s: %s %q %+v", r.Checker, r.Verdict, r.Summary, r.Anomalies)
					}
				}
				if got := result(t, rep, CheckerFencing); got.Summary != "not checked: no operation carried a fencing token" || !got.NotChecked {
					t.Errorf("fencing summary = %q, not checked %t: a run without tokens is not checked, not found sound", got.Summary, got.NotChecked)
				}
			},
		},
		{
			name: "Kleppmann's timeline 1 double charge is invalid with overlap, double effect and no linearization", h: kleppmann1(false), verdict: Invalid,
			check: func(t *testing.T, rep Report) {
				m := find(rep.Anomalies(), KindMutexOverlap, "w1", "w2")
				if m == nil || m.Informational {
					t.Fatalf("want a violating w1/w2 mutex-overlap, got %+v", rep.Anomalies())
				}
				wantWindow(t, m, 30, 36)
				if !strings.Contains(m.Explain, "w1 and w2 both believed they held invoice-1 from t=30.0s to t=36.0s: w1's lease expired while it was paused and w2 acquired it") {
					t.Errorf("explain = %q", m.Explain)
				}
				d := find(rep.Anomalies(), KindDoubleEffect, "w1", "w2")
				if d == nil {
					t.Fatalf("want double-effect, got %+v", rep.Anomalies())
				}
				wantWindow(t, d, 31, 35.6)
				if want := "invoice-1 was charged 2 times (each when it began: w2 at t=30.8s, w1 at t=35.5s); a payment must happen once"; d.Explain != want {
					t.Errorf("explain = %q, want %q", d.Explain, want)
				}
				l := find(rep.Anomalies(), KindNotLinearizable)
				if l == nil {
					t.Fatalf("want not-linearizable, got %+v", rep.Anomalies())
				}
				if l.Key != inv1 || !strings.Contains(l.Explain, "w1's charge") || !strings.Contains(l.Explain, "w2 holding") {
					t.Errorf("not-linearizable should name w1's charge under w2's lease: %+v", l)
				}
				if result(t, rep, CheckerLinearizable).Verdict != Invalid || result(t, rep, CheckerEffects).Verdict != Invalid {
					t.Errorf("results: %+v", rep.Results)
				}
			},
		},
		{
			name: "the same pause with a fence refusing w1's stale charge is valid and the overlap only informational", h: kleppmann1(true), verdict: Valid,
			check: func(t *testing.T, rep Report) {
				m := find(rep.Anomalies(), KindMutexOverlap, "w1", "w2")
				if m == nil || !m.Informational {
					t.Fatalf("want an informational mutex-overlap, got %+v", rep.Anomalies())
				}
				wantWindow(t, m, 30, 36)
				for _, r := range rep.Results {
					if r.Verdict != Valid {
						t.Errorf("%s: %s %q", r.Checker, r.Verdict, r.Summary)
					}
				}
				if len(rep.Anomalies()) != 1 {
					t.Errorf("want only the overlap, got %+v", rep.Anomalies())
				}
			},
		},
		{
			name: "holds that touch at one instant do not overlap", h: touchingHistory(), verdict: Valid,
			check: func(t *testing.T, rep Report) {
				if len(rep.Anomalies()) > 0 {
					t.Errorf("anomalies: %+v", rep.Anomalies())
				}
			},
		},
		{
			name: "an info acquire that may have been applied before another client's acquire is not invalid", h: infoAcquireHistory(), verdict: Valid,
			check: func(t *testing.T, rep Report) {
				if len(rep.Anomalies()) > 0 {
					t.Errorf("anomalies: %+v", rep.Anomalies())
				}
			},
		},
		{
			name: "an info acquire the client then acts on counts as a hold from its first accepted write", h: infoAcquireActedHistory(), verdict: Invalid,
			check: func(t *testing.T, rep Report) {
				m := find(rep.Anomalies(), KindMutexOverlap, "w1", "w2")
				if m == nil || m.Informational {
					t.Fatalf("want a violating overlap, got %+v", rep.Anomalies())
				}
				wantWindow(t, m, 2, 3)
			},
		},
		{
			name: "a fencing token below an earlier grant's is a token regression", h: tokenRegressionHistory(), verdict: Invalid,
			check: func(t *testing.T, rep Report) {
				a := find(rep.Anomalies(), KindTokenRegression, "w1", "w2")
				if a == nil {
					t.Fatalf("want token-regression, got %+v", rep.Anomalies())
				}
				wantWindow(t, a, 0.1, 10.1)
				if result(t, rep, CheckerFencing).Verdict != Invalid {
					t.Error("fencing should be invalid")
				}
			},
		},
		{
			name: "a write accepted with token 33 after token 34 is a stale write accepted", h: staleWriteHistory(), verdict: Invalid,
			check: func(t *testing.T, rep Report) {
				a := find(rep.Anomalies(), KindStaleWriteAccepted, "w1", "w2")
				if a == nil {
					t.Fatalf("want stale-write-accepted, got %+v", rep.Anomalies())
				}
				wantWindow(t, a, 10.6, 15.1)
				if find(rep.Anomalies(), KindTokenRegression) != nil {
					t.Error("tokens 33 then 34 are no regression")
				}
			},
		},
		{
			name: "a naive DEL after the lease expired is a foreign unlock of the next holder's key", h: naiveDelHistory(), verdict: Invalid,
			check: func(t *testing.T, rep Report) {
				a := find(rep.Anomalies(), KindForeignUnlock, "A", "B")
				if a == nil {
					t.Fatalf("want A/B foreign-unlock, got %+v", rep.Anomalies())
				}
				wantWindow(t, a, 13, 13.1)
				if o := find(rep.Anomalies(), KindMutexOverlap, "B", "C"); o == nil {
					t.Errorf("want B/C overlap, got %+v", rep.Anomalies())
				} else {
					wantWindow(t, o, 13.3, 18)
				}
				if find(rep.Anomalies(), KindNotLinearizable) == nil {
					t.Error("A's removal under B's lease must not linearize")
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := Check(context.Background(), tc.h, Options{})
			if rep.Verdict != tc.verdict {
				t.Errorf("verdict = %s, want %s; results %+v", rep.Verdict, tc.verdict, rep.Results)
			}
			var names []string
			for _, r := range rep.Results {
				names = append(names, r.Checker)
			}
			if want := []string{CheckerMutex, CheckerLinearizable, CheckerFencing, CheckerEffects, CheckerLiveness, CheckerCoverage}; !slices.Equal(names, want) {
				t.Errorf("results order %v, want %v", names, want)
			}
			if rep.Linearization == nil || len(rep.Linearization.Ops) == 0 {
				t.Error("report should carry the porcupine operations")
			}
			tc.check(t, rep)
		})
	}
}

func TestCheckerThatPanicsIsUnknown(t *testing.T) {
	saved := checkers[2].run
	t.Cleanup(func() { checkers[2].run = saved })
	checkers[2].run = func(context.Context, *account.Account, Options, *Report) Result { panic("boom") }
	rep := Check(context.Background(), sequentialHistory(), Options{})
	r := result(t, rep, checkers[2].name)
	if r.Verdict != Unknown || !strings.Contains(r.Summary, "boom") {
		t.Errorf("panicking checker gave %+v", r)
	}
	if rep.Verdict != Unknown {
		t.Errorf("a valid history with a panicking checker must be unknown, got %s", rep.Verdict)
	}
}

// ambiguous: n clients all acquire and claim concurrently, and one read
// says "paid" although nobody marked the invoice paid. Porcupine has to try
// every interleaving before it can call that illegal.
func ambiguousHistory(n int) history.History {
	b := newHB(false)
	for i := range n {
		c := string(rune('a'+i%26)) + string(rune('a'+i/26))
		b.acquire(c, inv1, 0, 100, 0)
		b.write(c, inv1, workload.ActionClaim, 0, 100, 0)
	}
	b.read("reader", inv1, 0, 100, "paid")
	return b.h
}

func TestPorcupineTimeout(t *testing.T) {
	t.Run("a tiny timeout on a big ambiguous history gives unknown", func(t *testing.T) {
		start := time.Now()
		rep := Check(context.Background(), ambiguousHistory(40), Options{Timeout: 50 * time.Millisecond})
		r := result(t, rep, CheckerLinearizable)
		if r.Verdict != Unknown || !strings.HasPrefix(r.Summary, "porcupine timed out after 50ms") {
			t.Errorf("got %+v", r)
		}
		if rep.Verdict != Unknown {
			t.Errorf("report verdict %s, want unknown", rep.Verdict)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("took %s", d)
		}
	})
	t.Run("porcupine answering unknown gives unknown", func(t *testing.T) {
		saved := porcupineCheck
		t.Cleanup(func() { porcupineCheck = saved })
		porcupineCheck = func(porcupine.Model, []porcupine.Operation, time.Duration) (porcupine.CheckResult, porcupine.LinearizationInfo) {
			return porcupine.Unknown, porcupine.LinearizationInfo{}
		}
		r, _ := Linearizable(context.Background(), sequentialHistory(), Options{Timeout: time.Second})
		if r.Verdict != Unknown || r.Summary != "porcupine timed out after 1s on 9 operations" {
			t.Errorf("got %+v", r)
		}
	})
	t.Run("a cancelled context gives unknown", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		rep := Check(ctx, sequentialHistory(), Options{})
		for _, r := range rep.Results {
			if r.Verdict != Unknown {
				t.Errorf("%s: %s", r.Checker, r.Verdict)
			}
		}
	})
}

func TestModel(t *testing.T) {
	m, _ := Porcupine(history.History{})
	in := func(f history.Func, c, action string) LeaseInput {
		return LeaseInput{F: f, Client: c, Key: inv1, Action: action}
	}
	// States are reached by stepping the model: w2 acquired; w2 acquired
	// and charged.
	step := func(s interface{}, in LeaseInput, out LeaseOutput) interface{} {
		ok, next := m.Step(s, in, out)
		if !ok {
			t.Fatalf("setting up: %+v → %+v is illegal", in, out)
		}
		return next
	}
	held := step(m.Init(), in(history.Acquire, "w2", ""), LeaseOutput{Type: history.OK}).(LeaseState)
	charged := step(held, in(history.Write, "w2", workload.ActionCharge), LeaseOutput{Type: history.OK}).(LeaseState)
	multi := func(c, nodes string) LeaseInput {
		return LeaseInput{F: history.Acquire, Client: c, Key: inv1, MultiNode: true, Nodes: nodes}
	}
	heldOn3 := step(m.Init(), multi("w2", "n1,n2,n3"), LeaseOutput{Type: history.OK}).(LeaseState)
	release := func(c, nodes string) LeaseInput {
		in := multi(c, nodes)
		in.F = history.Release
		return in
	}
	tests := []struct {
		name  string
		state LeaseState
		in    LeaseInput
		out   LeaseOutput
		legal bool
	}{
		{"an acquire is granted even while another client holds the lease", held, in(history.Acquire, "w1", ""), LeaseOutput{Type: history.OK}, true},
		{"a charge by a client that does not hold the lease is illegal", held, in(history.Write, "w1", workload.ActionCharge), LeaseOutput{Type: history.OK}, false},
		{"a second charge by the holder is illegal", charged, in(history.Write, "w2", workload.ActionCharge), LeaseOutput{Type: history.OK}, false},
		{"a fence refusal of a superseded holder is legal", held, in(history.Write, "w1", workload.ActionCharge), LeaseOutput{Type: history.Fail, FenceRefusal: true}, true},
		{"a fence refusal of the current holder is illegal", held, in(history.Write, "w2", workload.ActionCharge), LeaseOutput{Type: history.Fail, FenceRefusal: true}, false},
		{"a refusal for another reason is legal for the holder", held, in(history.Write, "w2", workload.ActionCharge), LeaseOutput{Type: history.Fail}, true},
		{"a release that removes another client's key is illegal", held, in(history.Release, "w1", ""), LeaseOutput{Type: history.OK, Removed: true}, false},
		{"a release that removes nothing is legal", held, in(history.Release, "w1", ""), LeaseOutput{Type: history.OK}, true},
		{"reading paid before anyone marked it paid is illegal", held, in(history.Read, "w1", workload.ActionReadStatus), LeaseOutput{Type: history.OK, Result: "paid"}, false},
		{"an extend by a superseded holder is illegal", held, in(history.Extend, "w1", ""), LeaseOutput{Type: history.OK}, false},
		{"an info write by a non-holder is legal", held, in(history.Write, "w1", workload.ActionCharge), LeaseOutput{Type: history.Info}, true},
		{"a multi-node release that removed only a leftover on a node the holder lacks is legal",
			heldOn3, release("w1", "n4"), LeaseOutput{Type: history.OK, Removed: true}, true},
		{"a multi-node release that removed a key on a node that granted the holder is illegal",
			heldOn3, release("w1", "n3,n4"), LeaseOutput{Type: history.OK, Removed: true}, false},
		{"a multi-node release of a leftover while no one holds is legal",
			m.Init().(LeaseState), release("w1", "n4"), LeaseOutput{Type: history.OK, Removed: true}, true},
		{"a single-node release of another's key while no one holds is still illegal",
			m.Init().(LeaseState), in(history.Release, "w1", ""), LeaseOutput{Type: history.OK, Removed: true}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if ok, _ := m.Step(tc.state, tc.in, tc.out); ok != tc.legal {
				t.Errorf("legal = %v, want %v", ok, tc.legal)
			}
		})
	}
}

// propertySeeds: a few fixed favourites plus 1..48, so every combination
// of clients (2–5), keys (1–4), fencing and info ops occurs several times.
var propertySeeds = func() []uint64 {
	s := []uint64{99, 1234, 2024, 31337, 65537}
	for i := uint64(1); i <= 48; i++ {
		s = append(s, i)
	}
	return s
}()

func TestProperty(t *testing.T) {
	for _, seed := range propertySeeds {
		cfg := genConfig{seed: seed, clients: 2 + int(seed%4), keys: 1 + int(seed/4%4), ops: 400,
			fenced: seed%2 == 0, infos: seed%3 != 0}
		t.Run("a correct lock's random history is never invalid/seed="+itoa(seed), func(t *testing.T) {
			g := genHistory(cfg)
			if cfg.infos && !slices.ContainsFunc(g.h.Ops, func(op history.Op) bool { return op.Type == history.Info }) {
				t.Fatal("generator made no info op")
			}
			rep := Check(context.Background(), g.h, Options{})
			if rep.Verdict != Valid {
				t.Errorf("verdict %s: %+v", rep.Verdict, rep.Results)
			}
		})
		t.Run("one injected overlap with an accepted stale write is always invalid/seed="+itoa(seed), func(t *testing.T) {
			cfg := cfg
			cfg.inject = true
			g := genHistory(cfg)
			rep := Check(context.Background(), g.h, Options{})
			if rep.Verdict != Invalid {
				t.Fatalf("verdict %s: %+v", rep.Verdict, rep.Results)
			}
			m := find(result(t, rep, CheckerMutex).Anomalies, KindMutexOverlap)
			if m == nil || m.Informational || m.Key != g.key || m.Start != g.from || m.End != g.to {
				t.Errorf("want overlap of %s/%s on %s over [%d, %d], got %+v", g.stale, g.fresh, g.key, g.from, g.to, m)
			}
			// An earlier acquire of the stale client with unknown outcome
			// may still take effect right before its stale write (Jepsen's
			// info rule), so porcupine may rightly linearize it then.
			excused := slices.ContainsFunc(g.h.Ops, func(op history.Op) bool {
				return op.F == history.Acquire && op.Client == g.stale && op.Key == g.key && open(op)
			})
			if lin := result(t, rep, CheckerLinearizable); lin.Verdict != Invalid && !excused {
				t.Errorf("linearizable: %+v", lin)
			}
		})
	}
}

func itoa(u uint64) string {
	if u == 0 {
		return "0"
	}
	var b []byte
	for ; u > 0; u /= 10 {
		b = append([]byte{byte('0' + u%10)}, b...)
	}
	return string(b)
}

func BenchmarkCheck1M(b *testing.B) {
	g := genHistory(genConfig{seed: 1, clients: 16, keys: 1000, ops: 1_000_000, fenced: true})
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		a := account.New(g.h) // derived once per history, as Check does
		rs := []Result{mutex(ctx, a), Fencing(ctx, g.h), effects(ctx, a)}
		for _, r := range rs {
			if r.Verdict != Valid {
				b.Fatalf("%s: %s %s", r.Checker, r.Verdict, r.Summary)
			}
		}
	}
	b.ReportMetric(float64(len(g.h.Ops)), "ops")
}

func BenchmarkLinearizable100k(b *testing.B) {
	g := genHistory(genConfig{seed: 2, clients: 16, keys: 1000, ops: 100_000, fenced: true})
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		r, _ := Linearizable(ctx, g.h, Options{Timeout: time.Minute})
		if r.Verdict != Valid {
			b.Fatalf("%s %s", r.Verdict, r.Summary)
		}
	}
	b.ReportMetric(float64(len(g.h.Ops)), "ops")
}

func TestVisualization(t *testing.T) {
	t.Run("the report's linearization renders with the fault annotated", func(t *testing.T) {
		rep := Check(context.Background(), kleppmann1(false), Options{})
		var buf strings.Builder
		if err := rep.Linearization.Visualize(&buf); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "pause w1") || !strings.Contains(buf.String(), "w1 charge") {
			t.Errorf("visualisation lacks the pause annotation or the ops (%d bytes)", buf.Len())
		}
		if rep.Linearization.Result != porcupine.Illegal {
			t.Errorf("porcupine result %q", rep.Linearization.Result)
		}
	})
}

func TestMerge(t *testing.T) {
	tests := []struct {
		name string
		in   []Verdict
		want Verdict
	}{
		{"nothing merges to valid", nil, Valid},
		{"all valid is valid", []Verdict{Valid, Valid}, Valid},
		{"one unknown among valid ones is unknown", []Verdict{Valid, Unknown, Valid}, Unknown},
		{"invalid wins over unknown", []Verdict{Unknown, Invalid}, Invalid},
		{"a verdict outside the three is unknown, never valid", []Verdict{Valid, "", "timeout"}, Unknown},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Merge(tc.in...); got != tc.want {
				t.Errorf("Merge(%v) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestCheckSafe(t *testing.T) {
	tests := []struct {
		name string
		run  checkFunc
		want Verdict
	}{
		{"a checker that returns no verdict is unknown", func(context.Context, *account.Account, Options, *Report) Result {
			return Result{}
		}, Unknown},
		{"a checker that says valid but lists a violation is invalid", func(context.Context, *account.Account, Options, *Report) Result {
			return Result{Verdict: Valid, Anomalies: []Anomaly{{Kind: KindMutexOverlap}}}
		}, Invalid},
		{"a checker that panics with an error value is unknown", func(context.Context, *account.Account, Options, *Report) Result {
			panic(context.DeadlineExceeded)
		}, Unknown},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			saved := checkers[3].run
			t.Cleanup(func() { checkers[3].run = saved })
			checkers[3].run = tc.run
			rep := Check(context.Background(), sequentialHistory(), Options{})
			if r := result(t, rep, CheckerEffects); r.Verdict != tc.want || rep.Verdict != tc.want {
				t.Errorf("effects %s, report %s, want %s (%q)", r.Verdict, rep.Verdict, tc.want, r.Summary)
			}
		})
	}
	t.Run("porcupine panicking in its own goroutine gives unknown, not a crash", func(t *testing.T) {
		saved := porcupineCheck
		t.Cleanup(func() { porcupineCheck = saved })
		porcupineCheck = func(porcupine.Model, []porcupine.Operation, time.Duration) (porcupine.CheckResult, porcupine.LinearizationInfo) {
			panic("model bug")
		}
		rep := Check(context.Background(), sequentialHistory(), Options{})
		if r := result(t, rep, CheckerLinearizable); r.Verdict != Unknown || !strings.Contains(r.Summary, "model bug") || rep.Verdict != Unknown {
			t.Errorf("linearizable %+v, report %s", r, rep.Verdict)
		}
	})
}

// crowd: n clients each acquire one key and keep believing until 100 s, so
// every pair overlaps (n(n-1)/2 overlaps).
func crowd(n int) history.History {
	b := newHB(false)
	for i := range n {
		c := "c" + itoa(uint64(i))
		b.acquire(c, inv1, float64(i)*0.001, float64(i)*0.001+0.0005, 0)
	}
	for i := range n {
		b.read("c"+itoa(uint64(i)), inv1, 100, 100.1, "unpaid")
	}
	return b.h
}

func TestMutexBounds(t *testing.T) {
	t.Run("a quadratic number of overlaps is counted but lists at most the cap", func(t *testing.T) {
		r := Mutex(context.Background(), crowd(60))
		if r.Verdict != Invalid || len(r.Anomalies) != maxOverlapAnomalies || !strings.HasPrefix(r.Summary, "1770 believed-hold overlaps (770 not listed)") {
			t.Errorf("verdict %s, %d anomalies, summary %q", r.Verdict, len(r.Anomalies), r.Summary)
		}
	})
	t.Run("a context that ends during the overlap sweep gives unknown", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		start := time.Now()
		r := Mutex(ctx, crowd(3000))
		if r.Verdict != Unknown || time.Since(start) > 5*time.Second {
			t.Errorf("verdict %s %q after %s", r.Verdict, r.Summary, time.Since(start))
		}
	})
}

func TestFenceRefusal(t *testing.T) {
	tests := []struct {
		refusal string
		want    bool
	}{
		{history.RefusalStaleFence, true},
		{history.RefusalDuplicateKey, false},
		{history.RefusalOutOfStock, false},
		{"card-declined", false},
		{"", false},
	}
	for _, tc := range tests {
		name := "a refusal coded " + strconv.Quote(tc.refusal) + " is "
		if !tc.want {
			name += "not "
		}
		t.Run(name+"a fence refusal", func(t *testing.T) {
			if got := fenceRefusal(history.Op{Value: history.Value{Refusal: tc.refusal}}); got != tc.want {
				t.Errorf("fenceRefusal(%q) = %v", tc.refusal, got)
			}
		})
	}
}

func TestHoldsOverlap(t *testing.T) {
	h := func(s, e float64) Hold { return Hold{Start: ns(s), End: ns(e)} }
	tests := []struct {
		name string
		a, b Hold
		want bool
	}{
		{"holds that share a stretch of time overlap", h(0, 10), h(5, 15), true},
		{"holds that touch at one instant do not overlap", h(0, 10), h(10, 15), false},
		{"a zero-length hold strictly inside another overlaps", h(0, 10), h(5, 5), true},
		{"a zero-length hold at the other's end only touches", h(0, 10), h(10, 10), false},
		{"a zero-length hold at the other's start only touches", h(0, 10), h(0, 0), false},
		{"disjoint holds do not overlap", h(0, 1), h(2, 3), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, back := holdsOverlap(tc.a, tc.b), holdsOverlap(tc.b, tc.a); got != tc.want || back != tc.want {
				t.Errorf("holdsOverlap = %v / %v, want %v", got, back, tc.want)
			}
		})
	}
}
