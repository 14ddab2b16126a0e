package report

import (
	"html"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// pageWords is what run in's page says in words: its story's sentences
// and the hover tips of its timeline.
func pageWords(t *testing.T, in Input) string {
	t.Helper()
	m := newModel(in.History, in.Account)
	var ss []string
	for _, s := range narrative(in, m) {
		ss = append(ss, s.Text)
	}
	for _, s := range drawingOf(t, in).Shapes {
		ss = append(ss, s.TipText())
	}
	return strings.Join(ss, "\n")
}

// withTraits is in's history recorded under another algorithm name with
// traits, checked again: the traits, not the name, must carry the fact.
func withTraits(in Input, traits ...string) Input {
	h := in.History
	h.Header.Algorithm, h.Header.Traits = "my-control", traits
	return Input{History: h, Lang: in.Lang}.checked()
}

// Issue 27 (a fresh reader, F14; a teacher, #1 and #25): the controls keep
// no key in Redis (their histories have no node command), yet
// control-positive's in-process mutex was told as "w1's lock on counter-1
// expired in Redis (TTL 10s) while w1 was paused", "released counter-1
// (key deleted)", drawn as a key on n1 that expired, with w1 "believing it
// held the lock for 18.2s after it was lost" — while w2 and w3 were
// refused until w1 released at 28.163 s. control-negative (no lock) said
// "w3 was granted the lock on n1", "w1's lock … was gone", "w3's lock …
// expired in Redis". A lock that keeps no key yields no key facts: the
// mutex is held until released, the no-lock control holds nothing.
func TestTheControlsAreToldWithoutRedisKeys(t *testing.T) {
	tests := []struct {
		run    string
		lang   Lang
		traits []string
		want   []string
		lack   []string
	}{
		{"control-positive-seed5", English, []string{history.TraitInProcess},
			[]string{"w1 acquired the in-process mutex on counter-1", "It has no TTL and no key in Redis",
				"was refused every time: another client held the in-process mutex", "w1 released counter-1: the in-process mutex is free again",
				"An in-process mutex: no key in Redis and no TTL"},
			[]string{"expired", "key deleted", "no node held anyone's key", "after it was lost", "left Redis", "TTL 10s", "on n1"}},
		{"control-positive-seed5", Vietnamese, []string{history.TraitInProcess},
			[]string{"w1 lấy được mutex trong process trên counter-1", "một client khác đang giữ mutex trong process",
				"w1 nhả lock counter-1: mutex trong process lại rảnh"},
			[]string{"expire", "key đã bị xoá", "không node nào giữ key", "TTL 10 s", "trên n1"}},
		{"control-negative-seed5", English, []string{history.TraitNoLock},
			[]string{"w3 was let in to counter-1 by the no-lock control", "w2's release of counter-1 freed nothing",
				"The no-lock control took no lock"},
			[]string{"expired", "was gone", "key was gone", "on n1", "now belonged to", "w1's key", "TTL 10s"}},
		{"control-negative-seed5", Vietnamese, []string{history.TraitNoLock},
			[]string{"w3 được đối chứng không-lock cho vào counter-1", "Lệnh nhả lock counter-1 của w2 không giải phóng gì"},
			[]string{"expire", "đã không còn", "trên n1", "giờ thuộc về"}},
	}
	for _, tt := range tests {
		in, _ := readerRun(t, tt.run, tt.lang)
		for _, recorded := range []string{"its algorithm's name (a history written before the traits)", "its traits"} {
			t.Run("the "+string(tt.lang)+" page of "+tt.run+" known by "+recorded+" tells no Redis key", func(t *testing.T) {
				in := in
				if recorded == "its traits" {
					in = withTraits(in, tt.traits...)
				}
				for _, c := range in.Account.Claims() {
					if c.Kind == claim.KeyLife || c.Kind == claim.Release {
						t.Errorf("the account claims a lock key's life of a lock that keeps none: %+v", c)
					}
				}
				got := pageWords(t, in)
				for _, w := range tt.want {
					if !strings.Contains(got, w) {
						t.Errorf("the page lacks %q", w)
					}
				}
				for _, w := range tt.lack {
					if strings.Contains(got, w) {
						t.Errorf("the page says %q:\n%s", w, got)
					}
				}
			})
		}
	}
}

// A fresh teacher (#1, #25): requirements.html gave control-mutex
// "Deadlock-free ✔ kept", though its mutex came free only when its paused
// holder woke and released it; and control-negative "the lock itself let
// w2 in while w1's key should still have stood", with no key at all.
func TestTheControlsRequirementMarksRestOnWhatHappened(t *testing.T) {
	pos, _ := readerRun(t, "control-positive-seed5", English)
	neg, _ := readerRun(t, "control-negative-seed5", English)
	results := func(in Input) Results {
		in.SkipCharts = true
		_, r := writeReport(t, in)
		return r
	}
	for _, tt := range []struct {
		name       string
		r          Results
		req        string
		want, lack string
	}{
		{"the in-process mutex does not show deadlock-freedom", results(pos), ReqDeadlockFree, "– ", "✔"},
		{"the in-process mutex keeps mutual exclusion", results(pos), ReqMutualExclusion, "✔", "✘"},
		{"no lock breaks mutual exclusion with no key to stand", results(neg), ReqMutualExclusion, "there is no lock: every acquire succeeds", "key"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := stripCell(English, tt.r, tt.req)
			if !strings.Contains(got, tt.want) || strings.Contains(got, tt.lack) {
				t.Errorf("the cell says %q; want %q and no %q", got, tt.want, tt.lack)
			}
		})
	}
}

// Issue 27 (a fresh reader, F2): fair-lock-dead-waiter said "w2 crashed:
// it stops for good and never releases its lock", though w2 never held
// the lock (its four acquires were refused; it was a waiter in the
// queue). The crash says whether the client held a lock then; a crashed
// holder still never releases it.
func TestACrashSaysWhetherTheClientHeldTheLock(t *testing.T) {
	tests := []struct {
		name, run  string
		lang       Lang
		want, lack string
	}{
		{"a crashed waiter is told as waiting, in English", "fair-lock-dead-waiter-seed29", English,
			"w2 crashed while waiting for the lock, holding none (its last acquire had been refused): it stops for good.", "never releases its lock"},
		{"a crashed waiter is told as waiting, in Vietnamese", "fair-lock-dead-waiter-seed29", Vietnamese,
			"w2 bị crash khi đang chờ lock, lúc đó không giữ lock nào", "không bao giờ nhả lock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, m := readerRun(t, tt.run, tt.lang)
			var crash string
			for _, s := range narrative(in, m) {
				if s.Kind == StepFault && strings.Contains(s.Text, "crash") {
					crash = s.Text
				}
			}
			if !strings.Contains(crash, tt.want) || strings.Contains(crash, tt.lack) {
				t.Errorf("the crash step says %q; want %q and no %q", crash, tt.want, tt.lack)
			}
		})
	}
	t.Run("a crashed holder still never releases its lock", func(t *testing.T) {
		in, m := readerRun(t, "fair-lock-dead-waiter-seed29", English)
		if got, _ := m.crashKey([]string{"w1"}, in.History.Ops[8].Invoke); got != "n.crash.client" {
			t.Errorf("w1, holding invoice-1, crashing is told by %q", got)
		}
	})
}

// Issue 27 (a fresh reader, F15): restart-restores-nothing said w1 was
// "refused … by its own key: an earlier acquire of it had set the key,
// though it never got the reply", while that acquire had its ok reply
// (t=0.007 s) and what refused the restarted w1 was the lease its killed
// predecessor held. An orphan is claimed only of a key whose acquire got no
// ok reply; the restart is told as what it was.
func TestARestartedClientRefusedByItsPredecessorsLeaseIsNotToldAsAnOrphan(t *testing.T) {
	tests := []struct {
		lang       Lang
		want, lack string
	}{
		{English, "w1 tried to acquire invoice-1 83 times between t=8.0s and t=29.6s and was refused every time by the lease of its previous process, which its restart had killed: that key still stood on n1.",
			"though it never got the reply"},
		{Vietnamese, "lần nào cũng bị từ chối bởi lease của process trước của nó, process đã bị kill khi nó khởi động lại: key đó vẫn còn trên n1.",
			"dù nó không bao giờ nhận được phản hồi"},
	}
	for _, tt := range tests {
		t.Run("the "+string(tt.lang)+" story tells the predecessor's lease", func(t *testing.T) {
			in, m := readerRun(t, "restart-restores-nothing-seed27", tt.lang)
			var ss []string
			for _, s := range narrative(in, m) {
				ss = append(ss, s.Text)
			}
			got := strings.Join(ss, "\n")
			if !strings.Contains(got, tt.want) || strings.Contains(got, tt.lack) {
				t.Errorf("the story lacks %q or says %q:\n%s", tt.want, tt.lack, got)
			}
		})
	}
	t.Run("no refusal claims an orphan of the key an ok acquire set", func(t *testing.T) {
		in, _ := readerRun(t, "restart-restores-nothing-seed27", English)
		for _, c := range in.Account.Claims() {
			if c.Kind == claim.Refusal && c.Own {
				t.Errorf("refusal %+v claims an orphan", c)
			}
		}
	})
}

// Issue 27 (a fresh reader, F5): watchdog-unlock-lost's orphaned lease row
// said "Informational: this scenario does not ask for liveness
// (expect_live)", while its scenario sets expect_live: true and its own
// liveness row says "(the scenario expects liveness)". The lease is
// informational because its TTL bounded it; without expect_live, it is
// informational for that.
func TestAnOrphanedLeaseSaysWhyItIsInformational(t *testing.T) {
	tests := []struct {
		name       string
		lang       Lang
		expectLive bool
		want, lack string
	}{
		{"a scenario that expects liveness is told its lease's TTL bounded it", English, true,
			"Informational: the scenario expects liveness, and this lease ended within one TTL", "does not ask for liveness"},
		{"a scenario that expects liveness is told its lease's TTL bounded it, in Vietnamese", Vietnamese, true,
			"kịch bản yêu cầu tiến triển, và lease này đã kết thúc trong vòng một TTL", "không yêu cầu tiến triển"},
		{"a scenario without expect_live is told so", English, false,
			"this scenario does not ask for liveness (expect_live)", "the scenario expects liveness"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, _ := readerRun(t, "watchdog-unlock-lost-seed2121", tt.lang)
			if !tt.expectLive {
				h := in.History
				h.Header.Params = maps.Clone(h.Header.Params)
				delete(h.Header.Params, history.ParamExpectLive)
				in = Input{History: h, Lang: tt.lang}.checked()
			}
			m := newModel(in.History, in.Account)
			var got []string
			for _, a := range allAnomalies(in.Results) {
				if a.Kind == checker.KindOrphanedLease {
					got = append(got, m.whyAnomaly(tt.lang, a))
				}
			}
			text := strings.Join(got, "\n")
			if len(got) == 0 || !strings.Contains(text, tt.want) || strings.Contains(text, tt.lack) {
				t.Errorf("the orphaned lease's row says %q; want %q and no %q", text, tt.want, tt.lack)
			}
		})
	}
}

// The requirements page's cells of the controls say why a requirement
// cannot be shown, not to run a fault the run had (a fresh teacher, #1):
// the mutex's paused holder came back and released, so no run of it
// shows the lock freeing itself; and a lock with no key on any node has
// no fault tolerance to test.
func TestTheRequirementsPageSaysWhatTheControlsCannotShow(t *testing.T) {
	var rs []Results
	for _, run := range []string{"control-positive-seed5", "control-negative-seed5"} {
		in, _ := readerRun(t, run, English)
		in.SkipCharts = true
		_, r := writeReport(t, in)
		rs = append(rs, r)
	}
	page := requirementsPageOf(t, English, rs...)
	for _, want := range []string{
		"control-mutex's mutex has no TTL and comes free only when its holder releases it",
		"does not apply: control-mutex keeps no key on any node",
		"does not apply: no-lock keeps no key on any node",
		"there is no lock: every acquire succeeds",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("requirements.html lacks %q", want)
		}
	}
	if strings.Contains(page, "run a control-mutex scenario with a fault that stops or crashes a holder") {
		t.Error("requirements.html asks for a control-mutex run with a holder fault, which this run had")
	}
}

// A crashed client's fence counter is not its lock: keyOfAt names only
// keys the run's acquires lock (a second reader's finding 1, its fix).
func TestACrashedClientsFenceCounterIsNotTakenForItsLock(t *testing.T) {
	h, err := history.ReadFile("testdata/accuracy/c30c-fence-counter-of-its-own-key.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(h, nil)
	// An instant when w1's fence counters stood but none of its lock keys.
	var counter int64 = -1
	for _, k := range m.a.Keys() {
		if k.Owner != "w1" || strings.HasPrefix(k.Key, "fence:") || k.Ended.Kind == account.EndHeld {
			continue
		}
		t0 := k.End + 1
		if !slices.ContainsFunc(m.a.Keys(), func(l account.KeyLife) bool {
			return l.Owner == "w1" && !strings.HasPrefix(l.Key, "fence:") && l.Start <= t0 && t0 < l.End
		}) {
			counter = t0
			break
		}
	}
	if counter < 0 {
		t.Fatal("w1 always held a lock key")
	}
	if k, ok := m.keyOfAt("w1", counter); ok && strings.HasPrefix(k.Key, "fence:") {
		t.Errorf("w1's key at t=%d is told as %s, a fence counter", counter, k.Key)
	}
}

// A teacher's second review (item 6): lesson 42's controls still drew an
// empty "node n1" lane, though neither keeps anything on a node, and the
// no-lock control's tips said "w1 held the lock when it wrote" and its
// story "Final probe: probe acquired the lock", where nothing was held.
func TestTheControlsDrawNoNodeLaneAndTheNoLockControlHoldsNothing(t *testing.T) {
	for _, tt := range []struct {
		run    string
		traits []string
	}{
		{"control-positive-seed5", []string{history.TraitInProcess}},
		{"control-negative-seed5", []string{history.TraitNoLock}},
	} {
		for _, lang := range []Lang{English, Vietnamese} {
			in, _ := readerRun(t, tt.run, lang)
			for _, recorded := range []string{"its algorithm's name", "its traits"} {
				in := in
				if recorded == "its traits" {
					in = withTraits(in, tt.traits...)
				}
				t.Run("the "+string(lang)+" timeline of "+tt.run+" known by "+recorded+" has no node lane", func(t *testing.T) {
					for _, l := range drawingOf(t, in).Lanes {
						if l.Kind == chart.LaneNode {
							t.Errorf("a lane for node %s", l.Name)
						}
					}
				})
				if !in.History.Header.NoLock() {
					continue
				}
				t.Run("the "+string(lang)+" page of "+tt.run+" known by "+recorded+" says nothing was held", func(t *testing.T) {
					got := pageWords(t, in)
					// The sentence without its last parenthesis, the details (the vi
					// one opens with "Lần thử cuối (final probe):").
					before := func(s string) string {
						if i := strings.LastIndex(s, " ("); i >= 0 {
							return s[:i]
						}
						return s
					}
					for _, w := range []string{tr(lang, "tip.write.nolock", "w1"), before(tr(lang, "n.probe.nolock", "probe", "counter-1", ""))} {
						if !strings.Contains(got, w) {
							t.Errorf("the page lacks %q", w)
						}
					}
					for _, w := range []string{tr(lang, "tip.write.held", "w1"), before(tr(lang, "n.probe", "probe", "counter-1", ""))} {
						if strings.Contains(got, w) {
							t.Errorf("the page says %q", w)
						}
					}
					for _, l := range drawingOf(t, in).Legend {
						if l.Text == tr(lang, "p.hold", "w1") {
							t.Errorf("the legend says %q", l.Text)
						}
					}
				})
			}
		}
	}
}

// The requirements page's "How each cell is decided" gives the rule for a
// run that takes no lock, as it gives the five others: the no-lock
// control's deadlock-freedom and liveness cells read "does not apply",
// and without the rule nothing said why (teach5, task 3).
func TestTheRequirementsRulesSayWhyTheNoLockControlsCellsDoNotApply(t *testing.T) {
	for _, tt := range []struct {
		name string
		lang Lang
		want []string
	}{
		{"in English", English, []string{
			"Does not apply: a run that takes no lock neither keeps nor breaks what a lock promises",
			"The no-lock control calls acquire, but its acquire succeeds at once and takes nothing: deadlock-freedom and liveness do not apply to it",
			"does not apply: no-lock takes no lock",
		}},
		{"in Vietnamese", Vietnamese, []string{
			"Không áp dụng: một lần chạy không lấy lock nào thì không giữ cũng không phá điều mà lock cam kết",
			"Đối chứng no-lock có gọi lấy lock, nhưng lần lấy lock của nó thành công ngay và không giữ gì cả",
			"không áp dụng: no-lock không dùng lock",
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in, _ := readerRun(t, "control-negative-seed5", tt.lang)
			in.SkipCharts = true
			_, r := writeReport(t, in)
			page := requirementsPageOf(t, tt.lang, r)
			for _, want := range tt.want {
				if !strings.Contains(page, want) {
					t.Errorf("requirements.html lacks %q", want)
				}
			}
		})
	}
}

// requirementsPageOf writes the requirements page of a suite of rs in lang
// and returns its text, entities unescaped.
func requirementsPageOf(t *testing.T, lang Lang, rs ...Results) string {
	t.Helper()
	dir := t.TempDir()
	if err := writeRequirements(dir, lang, newSuiteRuns(lang, dir, rs)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, RequirementsFile))
	if err != nil {
		t.Fatal(err)
	}
	return html.UnescapeString(string(b))
}
