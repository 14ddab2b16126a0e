package report

import (
	"html"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/why"
)

// TestALessonTextSaysWhereEachRunItNamesIs: lesson 47 said "This page
// links one run of each (seed 47)" and credited runs "under "More runs of
// this lesson"" that the suite had not made, and every cat7 page said a
// fix "was not run in this suite" that the suite had run as an experiment
// of its broken run (teacher7 F1, F2; reader7 F1, F5, F15). Beside each
// takeaway and caveat the page now says where each run it names is: in
// the suite (with its verdicts), run only as an experiment of a suite's
// run (with its verdict and a link), or not run at all (with its file).
func TestALessonTextSaysWhereEachRunItNamesIs(t *testing.T) {
	ok := true
	bad := func(seed int64, fixedBy string) Results {
		r := Results{Verdict: checker.Invalid, Algorithm: "redlock", Workload: "payment", Seed: seed, ExpectationMet: &ok,
			Anomalies: []checker.Anomaly{{Kind: checker.KindDoubleEffect}}}
		if fixedBy != "" {
			r.Counterfactuals = []why.Counterfactual{{Change: why.FixedBy, Name: fixedBy, File: "why/" + fixedBy + ".yaml", Verdict: checker.Valid,
				Reproduce: "locksim run why/" + fixedBy + ".yaml --seed 8"}}
		}
		return r
	}
	for _, lang := range []Lang{English, Vietnamese} {
		out := t.TempDir()
		runs := suiteOf(t, out, []lessonRun{
			{"redlock-clock-jump.yaml", bad(8, ""), []int{47}},
			{"node-clock-rate.yaml", bad(8, "node-clock-rate-safe"), []int{47}},
			{"power-loss-everysec.yaml", bad(32, "power-loss-always"), []int{47}},
		})
		runs[2].Counterfactuals[0].Report = filepath.Join(out, "power-loss-everysec", "run1", "why", "power-loss-always", "run1")
		page := writtenLesson(t, out, runs, lang, 47)
		for _, c := range []struct{ name, want string }{
			{"a run of the suite is told with its verdicts and seed", tr(lang, "lesson.note.suite", "1 "+tr(lang, "verdict.invalid"), tr(lang, "lesson.seeds.one", 8))},
			{"a run made only as another run's experiment is told so, with its verdict",
				tr(lang, "lesson.note.why", "node-clock-rate", 8, tr(lang, "verdict.valid"))},
			{"a run the suite did not make is told not run", strings.Split(tr(lang, "lesson.note.none", "\x00"), "\x00")[0]},
			{"a run the suite did not make is told by its file", "scenarios/field/redlock-gc-pause-cas-late-claim.yaml"},
			{"a fix run as an experiment is not told as not run", tr(lang, "lesson.missing.fixed.why", "power-loss-everysec", runs[2].FixedBy, 32, tr(lang, "verdict.valid"))},
			{"the experiment's report is linked", `href="power-loss-everysec/run1/why/power-loss-always/run1/index.html"`},
		} {
			t.Run(c.name+" in "+string(lang), func(t *testing.T) {
				if !strings.Contains(page, c.want) {
					t.Errorf("lesson 47 lacks %q", c.want)
				}
			})
		}
		t.Run("no fix run as an experiment is told as not run in "+string(lang), func(t *testing.T) {
			if no := tr(lang, "lesson.missing.fixed", "power-loss-everysec", runs[2].FixedBy); strings.Contains(page, no) {
				t.Errorf("lesson 47 says %q", no)
			}
		})
	}
}

// TestALessonPageSaysWhichOfAPairsFilesItRan: "slow-job.yaml and
// cache-rebuild-waste.yaml were not both run in this suite" was said when
// neither was, and when one was, students looked for the other (teacher7
// F25).
func TestALessonPageSaysWhichOfAPairsFilesItRan(t *testing.T) {
	ok := true
	valid := Results{Verdict: checker.Valid, Algorithm: "safe", Workload: "cache-rebuild", Seed: 3, ExpectationMet: &ok}
	for _, lang := range []Lang{English, Vietnamese} {
		out := t.TempDir()
		runs := suiteOf(t, out, []lessonRun{{"cache-rebuild-waste.yaml", valid, []int{42}}})
		page := writtenLesson(t, out, runs, lang, 42)
		for _, c := range []struct{ name, want, not string }{
			{"the contrast run alone is named as run, its broken file as not",
				tr(lang, "lesson.missing.lessonpair.one", "cache-rebuild-waste.yaml", "slow-job.yaml"),
				tr(lang, "lesson.missing.lessonpair", "slow-job.yaml", "cache-rebuild-waste.yaml")},
			{"a pair neither of whose files ran says neither",
				tr(lang, "lesson.missing.lessonpair.none", "fair-lock-restarted-waiter.yaml", "fair-lock-restarted-waiter-plain.yaml"),
				tr(lang, "lesson.missing.lessonpair", "fair-lock-restarted-waiter.yaml", "fair-lock-restarted-waiter-plain.yaml")},
		} {
			t.Run(c.name+" in "+string(lang), func(t *testing.T) {
				if !strings.Contains(page, c.want) || strings.Contains(page, c.not) {
					t.Errorf("lesson 42: want %q and no %q", c.want, c.not)
				}
			})
		}
	}
}

// TestARunShownAloneSaysWhatItIsAndOverHowManySeeds: a fix whose broken
// file the suite did not run was a bare ✔ (janitor-deletes-lock-fenced,
// watchdog-slow-job), and a --count 10 page showed one card of seed 10
// and no count (teacher7 F5, F24).
func TestARunShownAloneSaysWhatItIsAndOverHowManySeeds(t *testing.T) {
	ok := true
	valid := func(seed int64) Results {
		return Results{Verdict: checker.Valid, Algorithm: "watchdog", Workload: "payment", Seed: seed, ExpectationMet: &ok}
	}
	for _, lang := range []Lang{English, Vietnamese} {
		t.Run("a fix alone is called the fix of its broken file, with its count and the few-seeds warning in "+string(lang), func(t *testing.T) {
			out := t.TempDir()
			runs := suiteOf(t, out, []lessonRun{{"watchdog-slow-job.yaml", valid(3), []int{44}}})
			page := writtenLesson(t, out, runs, lang, 44)
			for _, want := range []string{
				tr(lang, "lesson.card.alone.fixed", "slow-job.yaml"),
				tr(lang, "lesson.evidence.fixed", 1, 1, tr(lang, "lesson.seeds.one", 3)),
				tr(lang, "lesson.evidence.few", MinEvidenceSeeds, "scenarios/slow-job.yaml", runs[0].File, MinEvidenceSeeds),
			} {
				if !strings.Contains(page, want) {
					t.Errorf("lesson 44 lacks %q", want)
				}
			}
		})
		t.Run("a file run at ten seeds says so on its one card in "+string(lang), func(t *testing.T) {
			out := t.TempDir()
			var rs []lessonRun
			for s := int64(10); s < 20; s++ {
				rs = append(rs, lessonRun{"field/redlock-gc-pause-cas-late-claim.yaml", valid(s), []int{47}})
			}
			runs := suiteOf(t, out, rs)
			page := writtenLesson(t, out, runs, lang, 47)
			want := tr(lang, "lesson.card.count", 10, tr(lang, "lesson.seeds.range", 10, 19), "10 "+tr(lang, "verdict.valid"), 10)
			if !strings.Contains(page, want) {
				t.Errorf("lesson 47 lacks %q", want)
			}
		})
	}
}

// TestTheRequirementsPageSaysWhatALessonPageMarks: requirements.html said
// "The lesson pages mark each run by this same rule"; a lesson page marks
// only its pairs, in each pair's strip, and a run it shows alone carries
// no mark (reader7 F12).
func TestTheRequirementsPageSaysWhatALessonPageMarks(t *testing.T) {
	for _, c := range []struct {
		lang      Lang
		not, want string
	}{
		{English, "The lesson pages mark each run by this same rule.", "a run a lesson page shows alone carries no mark"},
		{Vietnamese, "Các trang bài học đánh dấu từng lần chạy theo đúng quy tắc này.", "lần chạy được hiện riêng lẻ trên trang bài học thì không có dấu"},
	} {
		t.Run("the safety rule says only pairs are marked in "+string(c.lang), func(t *testing.T) {
			rule := tr(c.lang, "req.safety.rule")
			if strings.Contains(rule, c.not) || !strings.Contains(rule, c.want) {
				t.Errorf("%q: want %q, not %q", rule, c.want, c.not)
			}
		})
	}
}

// TestTheFencedRedlockChangeSaysItIsNoRecommendedTokenSource: "What to
// change" showed a single node's INCR after the quorum as the change to
// make, while the lesson's caveat disowns it as a token source (teacher7
// F27).
func TestTheFencedRedlockChangeSaysItIsNoRecommendedTokenSource(t *testing.T) {
	for _, c := range []struct {
		lang Lang
		want string
	}{
		{English, "not a recommended token source"},
		{Vietnamese, "không phải một nguồn token nên dùng"},
	} {
		t.Run("the note under the INCR says so in "+string(c.lang), func(t *testing.T) {
			if got := tr(c.lang, "diff.fence.grant.quorum"); !strings.Contains(got, c.want) {
				t.Errorf("%q lacks %q", got, c.want)
			}
		})
	}
}

// TestAValidRunShownAloneIsNotShownAsProof: redis-py-stale-release, a
// library run of safe-unlock's semantics, stood alone on lesson 45 as a
// bare ✔ (teacher7 F5).
func TestAValidRunShownAloneIsNotShownAsProof(t *testing.T) {
	ok := true
	for _, lang := range []Lang{English, Vietnamese} {
		t.Run("its card says one seed is not how often it holds in "+string(lang), func(t *testing.T) {
			out := t.TempDir()
			runs := suiteOf(t, out, []lessonRun{{"redis-py-stale-release.yaml",
				Results{Verdict: checker.Valid, Algorithm: "safe", Workload: "counter", Seed: 4, ExpectationMet: &ok}, []int{45}}})
			page := writtenLesson(t, out, runs, lang, 45)
			want := tr(lang, "lesson.card.few", 1, 1, tr(lang, "lesson.seeds.one", 4), MinEvidenceSeeds, runs[0].File, MinEvidenceSeeds)
			if !strings.Contains(page, want) {
				t.Errorf("lesson 45 lacks %q", want)
			}
		})
	}
}

// TestTheLateTokenAdviceSaysWhereThisClientChecksItsValidity: the
// redlock-fenced run page said "A token fences only when it is issued
// with the grant", while its gap comes from where this client checks its
// validity: before its INCR (clients.redlock's Acquire), so the pause
// between is not measured (teacher7 F17). The advice says so, and says
// that no run shows the other order.
func TestTheLateTokenAdviceSaysWhereThisClientChecksItsValidity(t *testing.T) {
	for _, c := range []struct {
		lang      Lang
		want, not string
	}{
		{English, "checks its validity before it takes its token", "A token fences only when it is issued with the grant"},
		{Vietnamese, "kiểm tra thời gian hiệu lực trước khi lấy token", "Token chỉ bảo vệ được khi được cấp cùng với lock"},
	} {
		t.Run("fix.token.grant in "+string(c.lang), func(t *testing.T) {
			got := tr(c.lang, "fix.token.grant")
			if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
				t.Errorf("%q: want %q, not %q", got, c.want, c.not)
			}
		})
	}
}

// TestTheLuaStockAdvicePointsAtLesson48: the oversell run's advice
// credited the Lua fix to lesson 42, which only names the use case; the
// pair inventory-oversell → inventory-atomic-lua is lesson 48's (teacher7
// F23).
func TestTheLuaStockAdvicePointsAtLesson48(t *testing.T) {
	for lang, want := range map[Lang]string{English: "(lesson 48;", Vietnamese: "(bài 48;"} {
		t.Run("fix.lua.stock in "+string(lang), func(t *testing.T) {
			if got := tr(lang, "fix.lua.stock"); !strings.Contains(got, want) {
				t.Errorf("%q lacks %q", got, want)
			}
		})
	}
}

// TestTheTimeScaleCaveatSpeaksOfTheLessonsOwnRuns: the scale caveat counts
// only the lesson's own runs, so it must not say "every run here" on a
// page that also names other lessons' runs at other scales (reader 8, F5:
// lesson 46 at 25 named failover-wait-two-replicas, at 10).
func TestTheTimeScaleCaveatSpeaksOfTheLessonsOwnRuns(t *testing.T) {
	for _, tc := range []struct {
		lang     Lang
		own, not string
	}{
		{English, "of this lesson", "Every run here"},
		{Vietnamese, "của bài này", "Mọi lần chạy ở đây"},
	} {
		t.Run("the "+string(tc.lang)+" caveats say whose runs they count", func(t *testing.T) {
			for _, text := range []string{
				tr(tc.lang, "lesson.caveat.time.one", fmtScale(25), fmtScale(25), span(30.0/25).in(tc.lang)),
				tr(tc.lang, "lesson.caveat.time", fmtScale(10), fmtScale(25), fmtScale(25), span(30.0/25).in(tc.lang)),
			} {
				if !strings.Contains(text, tc.own) || strings.Contains(text, tc.not) {
					t.Errorf("the caveat does not speak of the lesson's own runs only: %q", text)
				}
			}
		})
	}
}

// TestAFixRunOnlyAsAnExperimentIsToldWhatItsOneRunShows: a fix the suite
// ran only as an experiment of its broken run was a bare "…: VALID", the
// only fix on the page without an N-of-N and a fewer-than-10-seeds line
// (teacher8 N1); a partial fix, expected to stay invalid, was "The fix …
// INVALID" with nothing more, read as a fix that did not work (teacher8
// N2: redis-semaphore-531-stale-refresh on lesson 44).
func TestAFixRunOnlyAsAnExperimentIsToldWhatItsOneRunShows(t *testing.T) {
	ok := true
	bad := func(seed int64, kinds []string, c why.Counterfactual) Results {
		r := Results{Verdict: checker.Invalid, Algorithm: "redlock", Workload: "payment", Seed: seed, ExpectationMet: &ok,
			Counterfactuals: []why.Counterfactual{c}}
		for _, k := range kinds {
			r.Anomalies = append(r.Anomalies, checker.Anomaly{Kind: k})
		}
		return r
	}
	valid := why.Counterfactual{Change: why.FixedBy, Name: "power-loss-always", File: "why/power-loss-always.yaml", Verdict: checker.Valid}
	partial := why.Counterfactual{Change: why.FixedBy, Name: "redis-semaphore-531-stale-refresh", File: "why/redis-semaphore-531-stale-refresh.yaml",
		Verdict: checker.Invalid, Kinds: []string{checker.KindMutexOverlap}}
	for _, lang := range []Lang{English, Vietnamese} {
		out := t.TempDir()
		runs := suiteOf(t, out, []lessonRun{
			{"power-loss-everysec.yaml", bad(32, []string{checker.KindDoubleEffect}, valid), []int{47}},
			{"field/redis-semaphore-530-stale-refresh.yaml", bad(530, []string{checker.KindMutexOverlap, checker.KindDoubleEffect}, partial), []int{44}},
		})
		p47, p44 := writtenLesson(t, out, runs, lang, 47), writtenLesson(t, out, runs, lang, 44)
		fixed := runs[0].FixedBy
		for _, c := range []struct{ name, page, want, not string }{
			{"a valid fix run as an experiment is told valid in 1 of 1 runs", p47,
				tr(lang, "lesson.evidence.fixed", 1, 1, tr(lang, "lesson.seeds.one", 32)), ""},
			{"a valid fix run as an experiment is told that fewer than 10 seeds are no evidence", p47,
				tr(lang, "lesson.evidence.few", MinEvidenceSeeds, runs[0].File, fixed, MinEvidenceSeeds), ""},
			{"a partial fix run as an experiment is told partial and expected to stay invalid", p44,
				tr(lang, "lesson.missing.partial.why", "redis-semaphore-530-stale-refresh", runs[1].FixedBy, kindWord(lang, checker.KindMutexOverlap), 530, tr(lang, "verdict.invalid")),
				tr(lang, "lesson.missing.fixed.why", "redis-semaphore-530-stale-refresh", runs[1].FixedBy, 530, tr(lang, "verdict.invalid"))},
			{"a partial fix run as an experiment is told what it fixes", p44,
				tr(lang, "lesson.missing.partial.gone", kindWord(lang, checker.KindDoubleEffect)), ""},
		} {
			t.Run(c.name+" in "+string(lang), func(t *testing.T) {
				if !strings.Contains(c.page, html.EscapeString(c.want)) {
					t.Errorf("the lesson page lacks %q", c.want)
				}
				if c.not != "" && strings.Contains(c.page, html.EscapeString(c.not)) {
					t.Errorf("the lesson page says %q", c.not)
				}
			})
		}
	}
}

// TestLessonFortyTwoCallsItsRequirementsItsOwn: lesson 42 names the five
// requirements, so its page read "Requirements (from lesson 42) this
// lesson bears on" of itself (verify15); the later lessons keep it.
func TestLessonFortyTwoCallsItsRequirementsItsOwn(t *testing.T) {
	ok := true
	valid := Results{Verdict: checker.Valid, Algorithm: "safe", Workload: "cache-rebuild", Seed: 3, ExpectationMet: &ok}
	for _, lang := range []Lang{English, Vietnamese} {
		t.Run("the "+string(lang)+" page of lesson 42 does not refer to lesson 42 as another", func(t *testing.T) {
			out := t.TempDir()
			runs := suiteOf(t, out, []lessonRun{{"cache-rebuild-waste.yaml", valid, []int{42, 43}}})
			if page := writtenLesson(t, out, runs, lang, 42); !strings.Contains(page, tr(lang, "lesson.requirements.own")) || strings.Contains(page, tr(lang, "lesson.requirements")) {
				t.Errorf("lesson 42 does not call its requirements its own")
			}
			if page := writtenLesson(t, out, runs, lang, 43); !strings.Contains(page, tr(lang, "lesson.requirements")) {
				t.Errorf("lesson 43 does not say its requirements are lesson 42's")
			}
		})
	}
}
