package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// adviceRun reads a stored run (testdata/advice/<name>.jsonl: real
// redis-server runs of the scenario file beside it, see its README; or
// testdata/accuracy/<name>.jsonl) and checks it, as a report's Input.
func adviceRun(t *testing.T, name string) Input {
	t.Helper()
	f := filepath.Join("testdata", "advice", name+".jsonl")
	if _, err := os.Stat(f); err != nil {
		f = filepath.Join("testdata", "accuracy", name+".jsonl")
	}
	h, err := history.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	rep := checker.Check(context.Background(), h, checker.Options{})
	return Input{History: h, Account: rep.Account, Verdict: rep.Verdict, Results: rep.Results}
}

// TestARemedyIsOfferedOnlyWhereItsPremisesHold runs, for each remedy with
// a premise beyond its anomaly, a run where the premise holds and one
// where it fails: the remedy is offered in the first, resting on the
// claims that state its premise, and not in the second.
func TestARemedyIsOfferedOnlyWhereItsPremisesHold(t *testing.T) {
	for _, tc := range []struct {
		name, run string
		offered   []string
		not       []string
		// rests are the kinds (and What) of claims the first offered
		// remedy must carry beside its anomaly's.
		rests []string
	}{
		{"fencing is offered plainly where no crash lost the counter's node's writes", "c01-naive-del-foreign-unlock",
			[]string{"fix.fencing"}, []string{"fix.fencing.counter"}, []string{"absent/crash-loss"}},
		{"fencing is not offered plainly where the counter's node loses its last second in a power loss (false statement 8)", "power-loss-everysec",
			[]string{"fix.fencing.counter"}, []string{"fix.fencing"}, []string{"fault/crash"}},
		{"the paused holder's story is told where a paused holder's permit was purged", "c05-semaphore-over-admission",
			[]string{"fix.semaphore"}, []string{"fix.semaphore.clock", "fix.semaphore.rank"}, []string{"permit/", "fault/pause"}},
		{"the paused holder's story is not told where no pause happened (false statement 2)", "semaphore-clock-ahead-purge",
			[]string{"fix.semaphore.clock"}, []string{"fix.semaphore", "fix.semaphore.rank", "fix.semaphore.slow"}, []string{"permit/", "clock-offset/", "absent/pause"}},
		{"the purging clock's story is not told where no clock was moved", "semaphore-slow-job-purge",
			[]string{"fix.semaphore.slow"}, []string{"fix.semaphore.clock", "fix.semaphore", "fix.semaphore.rank"}, []string{"permit/", "absent/pause"}},
		{"the purging clock's story is not told where the purger's clock was ahead by less than the holder's overstay", "semaphore-slow-job-nudged-clock",
			[]string{"fix.semaphore.slow"}, []string{"fix.semaphore.clock", "fix.semaphore", "fix.semaphore.rank"}, []string{"permit/", "absent/pause"}},
		{"the basic semaphore's clock ranking is told only where no permit was purged", "semaphore-basic-clock-skew",
			[]string{"fix.semaphore.rank"}, []string{"fix.semaphore", "fix.semaphore.clock"}, []string{"absent/purge"}},
		{"a token that only grows is not offered for a semaphore of two permits, whose legitimate holders it would refuse", "semaphore-basic-clock-skew",
			nil, []string{"fix.fencing", "fix.fencing.counter"}, nil},
		{"one lock per fire time is advised where the run had one lock per job", "c06-cron-duplicate-run",
			[]string{"fix.cron"}, []string{"fix.cron.skew"}, nil},
		{"one lock per fire time is not advised where the run already had it (false statement 10)", "cron-lock-per-fire-short-ttl",
			[]string{"fix.cron.skew"}, []string{"fix.cron"}, []string{"clock-offset/", "hold/"}},
		{"a dead waiter at the head of a fair lock's queue is named as what blocked the free lock (a fresh reader, F3)", "c27b-dead-waiter-heads-the-queue",
			[]string{"fix.unavailable.queue"}, []string{"fix.unavailable", "fix.unavailable.key"}, []string{"queue-head/"}},
		{"a single node's outage is not told as a lost quorum", "c27a-crashed-holder-outage-from-first-refusal",
			[]string{"fix.unavailable.key"}, []string{"fix.unavailable", "fix.unavailable.queue", "fix.unavailable.kept"}, nil},
		{"an outage whose key another client's extends kept is not told as lasting until its TTL (reader 7, F10)", "c19f-orphan-kept-by-another-heartbeat",
			[]string{"fix.unavailable.kept"}, []string{"fix.unavailable.key", "fix.unavailable"}, []string{"extend/moved"}},
		{"an outage its client's own process caused, no key standing, is not told as an orphaned key's TTL (reader 15)", "c57a-local-refusal-not-by-key",
			[]string{"fix.unavailable.local"}, []string{"fix.unavailable.key", "fix.unavailable", "fix.unavailable.kept"}, []string{"refusal/local"}},
		{"WAIT 1 is advised where the holder lost in the failover did not WAIT", "c19m-lock-lost-in-failover-advice",
			[]string{"fix.wait.lock"}, []string{"fix.wait.all"}, []string{"hold/"}},
		{"WAIT 1 is not advised where the holder already WAITed for 1 of 2 replicas: wait for all, with WAIT's limits", "failover-wait-two-replicas",
			[]string{"fix.wait.all"}, []string{"fix.wait.lock"}, []string{"hold/", "fault/failover"}},
		{"plain fencing is offered for a counter where the stale holder wrote after the newer holder's write", "counter-gc-pause",
			[]string{"fix.incr", "fix.fencing"}, []string{"fix.incr.atomic"}, []string{"anomaly/mutex-overlap"}},
		{"plain fencing is not offered for a counter where the older holder wrote before the newer holder's first write", "naive-del-foreign-unlock",
			[]string{"fix.safe", "fix.fencing", "fix.incr.atomic"}, []string{"fix.incr"}, nil},
		{"Redlock's crash-recovery rule, not clocks and timing, is offered where a node restarted empty under the lock (a fresh reader, A1)", "redlock-restart",
			[]string{"fix.redlock.restart", "fix.fencing"}, []string{"fix.redlock", "fix.redlock.claim"}, []string{"key-life/"}},
		{"Redlock's crash-recovery rule is not offered where no node lost a key in a crash", "redlock-clock-jump",
			nil, []string{"fix.redlock.restart", "fix.redlock.nocheck"}, nil},
		{"a Redlock client that used a lease its acquire had outlasted is told it skipped the validity check, not that Redlock's timing failed (teacher 7, F21)", "redlock-pause-in-flight-nocheck",
			[]string{"fix.redlock.nocheck"}, []string{"fix.redlock", "fix.redlock.claim"}, []string{"acquire/"}},
		{"Redlock's plain fencing is not offered where the older holder wrote before the newer holder's first write", "redlock-clock-jump",
			[]string{"fix.redlock.claim", "fix.fencing"}, []string{"fix.redlock"}, nil},
		{"an owner-checked extend, and not a shorter TTL, is advised where another client's extends kept the orphan past its TTL", "c19f-orphan-kept-by-another-heartbeat",
			[]string{"fix.extend.owner"}, []string{"fix.orphan"}, nil},
		{"a payment run is not told to drop the lock for one atomic Redis command: the gateway is outside Redis", "watchdog-starved",
			[]string{"fix.fencing"}, []string{"fix.atomic"}, nil},
		{"an owner-checked extend is not advised where no one extended the orphan", "c14-crashed-client-stops-believing",
			nil, []string{"fix.extend.owner"}, nil},
		{"an unchecked failure record is told to be checked by the lock's token, first, resting on its accepted write (reader2 #10)", "stalled-job-failed-reason",
			[]string{"fix.record.token", "fix.fencing"}, nil, []string{"op/write"}},
		{"an idempotency key is not advised where the run had one and it refused the duplicate charge (reader2 #10)", "stalled-job-failed-reason",
			nil, []string{"fix.idempotency", "fix.idempotency.charge"}, nil},
		{"an idempotency key is told as refusing a second charge where one was sent", "redlock-clock-jump",
			[]string{"fix.idempotency"}, []string{"fix.idempotency.overlap"}, nil},
		{"an idempotency key does not read as if a second charge happened where none was sent: it says none was, and what it would have done in the overlap (reader 11)", "c46a-idempotency-advice-no-second-charge",
			[]string{"fix.idempotency.overlap"}, []string{"fix.idempotency"}, []string{"anomaly/mutex-overlap", "op/write"}},
		{"check-and-set's advice for a stale write before the newer holder's claim is not given where the stale holder's late claim came after it (issue 34)", "redlock-gc-pause-cas-stale-claim",
			[]string{"fix.cas.stale-claim"}, []string{"fix.cas.claim"}, []string{"anomaly/mutex-overlap"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := adviceRun(t, tc.run)
			cs := runClaims(in, newModel(in.History, in.Account))
			got, _ := adviceOf(in, cs)
			keys := make([]string, len(got))
			for i, a := range got {
				keys[i] = a.Key
			}
			for _, k := range tc.offered {
				if !slices.Contains(keys, k) {
					t.Errorf("%s is not offered; offered: %v", k, keys)
				}
			}
			for _, k := range tc.not {
				if slices.Contains(keys, k) {
					t.Errorf("%s is offered, though its premise fails; offered: %v", k, keys)
				}
			}
			if len(tc.offered) == 0 || len(tc.rests) == 0 {
				return
			}
			a := got[slices.Index(keys, tc.offered[0])]
			byID := map[string]claim.Claim{}
			for _, c := range cs {
				byID[c.ID] = c
			}
			var rests []string
			for _, id := range a.Claims {
				c := byID[id]
				rests = append(rests, string(c.Kind)+"/"+c.What)
			}
			if len(rests) == 0 || !strings.HasPrefix(rests[0], "anomaly/") {
				t.Errorf("%s rests on %v, not first on its anomaly's claim", a.Key, rests)
			}
			for _, w := range tc.rests {
				if !slices.ContainsFunc(rests, func(r string) bool { return strings.HasPrefix(r, w) }) {
					t.Errorf("%s rests on %v, none of them %s", a.Key, rests, w)
				}
			}
		})
	}
}

// TestTheRemediesPremisesWords: a remedy that names facts of the run
// names those its claims state, in both languages.
func TestTheRemediesPremisesWords(t *testing.T) {
	for _, tc := range []struct {
		name, run string
		says      map[Lang]string
	}{
		{"the fencing caveat names the counter's node and how its crash lost writes", "power-loss-everysec",
			map[Lang]string{English: "a fence counter kept on n1 would have gone back in this run's crash (appendfsync everysec can lose the writes of its last second of real time, not of scenario time, in a power loss)",
				Vietnamese: "một bộ đếm fencing đặt trên n1 sẽ bị lùi lại trong lần crash của lần chạy này (appendfsync everysec có thể mất các lần ghi của giây cuối cùng theo wall time, không phải thời gian kịch bản, khi mất điện)"}},
		{"the wait-for-all advice gives what the holder waited for, and WAIT's limit", "failover-wait-two-replicas",
			map[Lang]string{English: "w1's acquire waited for 1 of n1's 2 replicas (WAIT 1), and Sentinel can promote a replica that did not acknowledge. WAIT for all of them (WAIT 2) before acting narrows the window, but WAIT does not make Redis strongly consistent",
				Vietnamese: "lần lấy lock của w1 chỉ chờ 1 trong 2 bản sao của n1 (WAIT 1)"}},
		{"fencing a Redlock says where its token comes from", "redlock-clock-jump",
			map[Lang]string{English: "Redlock's grants carry no such number: take it from a separate counter that only grows",
				Vietnamese: "Các lần cấp lock của Redlock không kèm số nào như vậy: hãy lấy nó từ một bộ đếm riêng chỉ tăng"}},
		{"fencing an unchecked failure record names the job store, not the payment gateway (reader2 #10)", "stalled-job-failed-reason",
			map[Lang]string{English: "the resource (here the job store) refuses any write",
				Vietnamese: "tài nguyên (ở đây là kho lưu job) từ chối"}},
		{"the cron skew advice gives the TTL and the clocks' spread", "cron-lock-per-fire-short-ttl",
			map[Lang]string{English: "its TTL (15s) was shorter than the spread of the schedulers' clocks (20s)",
				Vietnamese: "TTL của nó (15 s) ngắn hơn độ lệch giữa đồng hồ các scheduler (20 s)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := adviceRun(t, tc.run)
			for lang, want := range tc.says {
				r := buildRemedy(in, lang)
				if r == nil || !slices.ContainsFunc(r.Texts(), func(s string) bool { return strings.Contains(s, want) }) {
					t.Errorf("%s advice lacks %q: %v", lang, want, r)
				}
			}
		})
	}
}

// TestEveryAdviceRowCarriesItsClaims writes the reports of runs with
// advice and checks that results.json's advice names only claims of the
// run, that every one of them holds by the independent verifier, and that
// the page's advice rows carry the same ids.
func TestEveryAdviceRowCarriesItsClaims(t *testing.T) {
	for _, run := range []string{"power-loss-everysec", "semaphore-clock-ahead-purge", "semaphore-basic-clock-skew", "semaphore-slow-job-purge",
		"cron-lock-per-fire-short-ttl", "c05-semaphore-over-admission", "c19f-orphan-kept-by-another-heartbeat", "stalled-job-failed-reason"} {
		t.Run(run+" offers advice resting on true claims", func(t *testing.T) {
			in := adviceRun(t, run)
			in.SkipCharts = true
			dir, res := writeReport(t, in)
			if len(res.Advice) == 0 {
				t.Fatal("results.json offers no advice")
			}
			byID := map[string]claim.Claim{}
			for _, c := range res.Claims {
				byID[c.ID] = c
			}
			page, err := os.ReadFile(filepath.Join(dir, IndexFile))
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range res.Advice {
				var rest []claim.Claim
				for _, id := range a.Claims {
					c, ok := byID[id]
					if !ok {
						t.Errorf("%s rests on %s, which is not a claim of the run", a.Key, id)
					}
					rest = append(rest, c)
				}
				if r := verify.Verify(in.History, rest); len(r.Failures) > 0 {
					t.Errorf("%s rests on false claims: %+v", a.Key, r.Failures)
				}
				if attr := `data-claim="` + strings.Join(a.Claims, " ") + `"`; !bytes.Contains(page, []byte(attr)) {
					t.Errorf("the page has no advice row with %s", attr)
				}
			}
			b, _ := os.ReadFile(filepath.Join(dir, "results.json"))
			var raw struct {
				Advice []Advice `json:"advice"`
			}
			if err := json.Unmarshal(b, &raw); err != nil || len(raw.Advice) != len(res.Advice) {
				t.Errorf("results.json's advice %+v (%v), want %+v", raw.Advice, err, res.Advice)
			}
		})
	}
}

// TestTheCounterWaitAdviceRestsOnTheGrantsWait: a fence counter that went
// backwards in a failover is told to WAIT 1 only where the grant whose
// INCR the promoted replica lacked sent no WAIT (its Hold claim, Wait 0);
// one that waited for fewer replicas than its master had is told to wait
// for all, with WAIT's limits; one that waited for every replica is told
// no WAIT at all. The run's claims are changed as a run of each kind
// would state them.
func TestTheCounterWaitAdviceRestsOnTheGrantsWait(t *testing.T) {
	in := adviceRun(t, "failover-fence-regression")
	grant := func(cs []claim.Claim) int {
		for _, a := range allAnomalies(in.Results) {
			if a.Kind == checker.KindTokenRegression {
				return slices.IndexFunc(cs, func(c claim.Claim) bool {
					return c.Kind == claim.Hold && c.Client == a.Current && c.Key == a.Key && c.Start == a.Start
				})
			}
		}
		return -1
	}
	for _, tc := range []struct {
		name     string
		wait     int
		replicas int // the failover's group's replicas (0: as the run had them)
		offered  string
		not      []string
		says     string
	}{
		{"a grant that sent no WAIT is told to WAIT 1", 0, 0, "fix.wait.counter", []string{"fix.wait.counter.all"},
			"WAIT 1 before the token is used"},
		{"a grant that waited for 1 of 2 replicas is told to wait for all, and WAIT's limits", 1, 2, "fix.wait.counter.all", []string{"fix.wait.counter"},
			"w1's grant waited for 1 of n1's 2 replicas (WAIT 1)"},
		{"a grant that waited for its only replica is told no WAIT", 1, 0, "", []string{"fix.wait.counter", "fix.wait.counter.all"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := runClaims(in, newModel(in.History, in.Account))
			g := grant(cs)
			if g < 0 {
				t.Fatal("the run has no hold of the grant whose token went backwards")
			}
			cs[g].Wait = tc.wait
			if tc.replicas > 0 {
				for i, c := range cs {
					if c.Kind == claim.Fault && c.Fault != nil && len(c.Fault.Promotions) > 0 {
						st := *c.Fault
						p := st.Promotions[0]
						p.ReplicaOffsets = map[string]int64{}
						for r := range tc.replicas {
							p.ReplicaOffsets[fmt.Sprintf("n1r%d", r+1)] = 0
						}
						st.Promotions = []history.Promotion{p}
						cs[i].Fault = &st
					}
				}
			}
			got, _ := adviceOf(in, cs)
			var keys []string
			for _, a := range got {
				keys = append(keys, a.Key)
				if a.Key == tc.offered {
					if ids := strings.Join(a.Claims, " "); !strings.Contains(" "+ids+" ", " "+cs[g].ID+" ") {
						t.Errorf("%s rests on %s, not on the grant's hold %s", a.Key, ids, cs[g].ID)
					}
					if text := adviceText(English, a, in.History.Header); !strings.Contains(text, tc.says) {
						t.Errorf("%s says %q, not %q", a.Key, text, tc.says)
					}
				}
			}
			if tc.offered != "" && !slices.Contains(keys, tc.offered) {
				t.Errorf("%s is not offered; offered: %v", tc.offered, keys)
			}
			for _, k := range tc.not {
				if slices.Contains(keys, k) {
					t.Errorf("%s is offered, though its premise fails; offered: %v", k, keys)
				}
			}
		})
	}
}

// TestTheSemaphoreAdviceIsTrueOfSeveralPermits: a purged permit's advice,
// in each of its wordings (a paused holder, a clock ahead, a slow job),
// offered for a semaphore of 2 permits, does not tell the resource to
// check a fencing token that only grows — which would refuse the
// legitimate holders below the highest token — but to check that the
// holder's own permit entry is still in the semaphore, in both languages.
func TestTheSemaphoreAdviceIsTrueOfSeveralPermits(t *testing.T) {
	says := map[Lang]string{English: "that the holder's own permit is still in the semaphore", Vietnamese: "permit của chính client giữ vẫn còn trong semaphore"}
	not := map[Lang]string{English: "a token per permit at the resource (fencing)", Vietnamese: "kiểm tra token của từng permit tại tài nguyên (fencing)"}
	for _, tc := range []struct{ run, key string }{
		{"c05-semaphore-over-admission", "fix.semaphore"},
		{"semaphore-clock-ahead-purge", "fix.semaphore.clock"},
		{"semaphore-slow-job-purge", "fix.semaphore.slow"},
	} {
		in := adviceRun(t, tc.run)
		if n := in.History.Header.Params[history.ParamPermits]; n < 2 {
			t.Fatalf("%s has %d permits", tc.run, n)
		}
		for _, lang := range []Lang{English, Vietnamese} {
			t.Run("the "+string(lang)+" "+tc.key+" of "+tc.run+" speaks of the holder's own permit", func(t *testing.T) {
				r := buildRemedy(in, lang)
				if r == nil {
					t.Fatal("no advice")
				}
				want := tr(lang, tc.key)
				if !slices.Contains(r.Texts(), want) {
					t.Fatalf("%s is not offered: %v", tc.key, r.Texts())
				}
				if !strings.Contains(want, says[lang]) {
					t.Errorf("%s does not say %q: %s", tc.key, says[lang], want)
				}
				if strings.Contains(want, not[lang]) {
					t.Errorf("%s still says %q: %s", tc.key, not[lang], want)
				}
			})
		}
	}
}
