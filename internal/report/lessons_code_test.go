package report

// What to change on the pairs whose fix is another acquire or another
// release of a library, and what a pair's scenario diff leaves out
// (issue 34, teacher review 2 items 4 and 15).

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/report/page"
	"github.com/locksim/locksim/internal/scenario"
)

// lessonPageOf writes a suite of a broken run and its fix in lang and
// returns lesson n's page, unescaped.
func lessonPageOf(t *testing.T, lang Lang, n int, broken, fixed lessonRun) string {
	t.Helper()
	out := t.TempDir()
	return writtenLesson(t, out, suiteOf(t, out, []lessonRun{broken, fixed}), lang, n)
}

// writtenLesson writes the suite of runs (suiteOf's, under out) in lang
// and returns lesson n's page, unescaped.
func writtenLesson(t *testing.T, out string, runs []Results, lang Lang, n int) string {
	t.Helper()
	if err := WriteSuite(out, runs, lang); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, LessonFile(n)))
	if err != nil {
		t.Fatal(err)
	}
	return html.UnescapeString(string(b))
}

// TestAFixOfAnotherAcquireOrReleaseSaysWhatChanges: the five pairs whose
// "What to change" was an empty heading now say, in one line from the
// message tables, what the fix changes, with its code from the algorithm's
// registration or the library's sources (clients.ReleaseChanges).
func TestAFixOfAnotherAcquireOrReleaseSaysWhatChanges(t *testing.T) {
	ok := true
	bad := Results{Verdict: checker.Invalid, Workload: "payment", Seed: 1, ExpectationMet: &ok,
		Anomalies: []checker.Anomaly{{Kind: checker.KindDoubleEffect}}}
	good := Results{Verdict: checker.Valid, Workload: "payment", Seed: 1, ExpectationMet: &ok}
	with := func(r Results, algorithm, workload string) Results {
		r.Algorithm = algorithm
		if workload != "" {
			r.Workload = workload
		}
		return r
	}
	for _, c := range []struct {
		name           string
		lesson         int
		broken, fixed  lessonRun
		note, codeLine string
	}{
		{"a per-holder token replaces the process's re-entrant one", 43,
			lessonRun{"field/shared-owner-token.yaml", with(bad, "reentrant-shared-token", ""), []int{43}},
			lessonRun{"field/shared-owner-token-per-holder.yaml", with(good, "safe", ""), []int{43}},
			"diff.pertoken", "+ SET lock-key owner NX PX ttl"},
		{"redis-semaphore 4.1.0 calls onLockLost", 44,
			lessonRun{"field/redis-semaphore-3-host-sleep.yaml", with(bad, "process", ""), []int{44}},
			lessonRun{"field/redis-semaphore-4-host-sleep.yaml", with(good, "process", ""), []int{44}},
			"lib.semaphore.onlocklost", "+     this._onLockLost(new LostLockError("},
		{"redis-semaphore 5.3.1 no longer sets a missing key", 44,
			lessonRun{"field/redis-semaphore-530-stale-refresh.yaml", with(bad, "process", ""), []int{44}},
			lessonRun{"field/redis-semaphore-531-stale-refresh.yaml", with(good, "process", ""), []int{44}},
			"lib.semaphore.noreset", "− elseif value == false then"},
		{"node-redlock 4.2.0 checks the clock after the quorum", 47,
			lessonRun{"field/node-redlock-5-pause-in-flight.yaml", with(bad, "process", ""), []int{47}},
			lessonRun{"field/node-redlock-4-pause-in-flight.yaml", with(good, "process", ""), []int{47}},
			"lib.redlock.validity", "+ if (votes >= quorum && lock.expiration > Date.now())"},
		// teacher9 F5, F11: three fixed pairs showed only their scenario
		// files' algorithm line.
		{"the deadline fix of an extend that re-sets a missing key shows both changes", 44,
			lessonRun{"field/extend-after-expiry.yaml", with(bad, "extend-reacquire", ""), []int{44}},
			lessonRun{"field/extend-after-expiry-deadline.yaml", with(good, "watchdog-deadline", ""), []int{44}},
			"diff.extendowned", "if v == ARGV[1] or not v then"},
		{"the extend fix comes with the local deadline", 44,
			lessonRun{"field/extend-after-expiry.yaml", with(bad, "extend-reacquire", ""), []int{44}},
			lessonRun{"field/extend-after-expiry-deadline.yaml", with(good, "watchdog-deadline", ""), []int{44}},
			"diff.deadline", "deadline := validUntil - ttl/10"},
		{"the watchdog keeps a local lease deadline", 44,
			lessonRun{"field/extend-after-expiry-owned.yaml", with(bad, "watchdog", ""), []int{44}},
			lessonRun{"field/extend-after-expiry-deadline.yaml", with(good, "watchdog-deadline", ""), []int{44}},
			"diff.deadline", "if validUntil-ttl/10 <= deadline { job.Stop(); break }"},
		{"Redlock measures its validity on a monotonic clock", 47,
			lessonRun{"field/client-clock-step-back.yaml", with(bad, "redlock", ""), []int{47}},
			lessonRun{"field/client-clock-step-back-monotonic.yaml", with(good, "redlock-monotonic", ""), []int{47}},
			"diff.monotonic", "+ now := monotonicClock"},
		{"the fair semaphore's acquire is shown as its own script", 50,
			lessonRun{"semaphore-basic-clock-skew.yaml", with(bad, "semaphore", "semaphore"), []int{50}},
			lessonRun{"semaphore-fair-clock-skew.yaml", with(good, "fair-semaphore", "semaphore"), []int{50}},
			"diff.fairsem", "+       local place = redis.call('INCR', KEYS[3])"},
	} {
		for _, lang := range []Lang{English, Vietnamese} {
			t.Run(c.name+" in "+string(lang), func(t *testing.T) {
				page := lessonPageOf(t, lang, c.lesson, c.broken, c.fixed)
				for _, want := range []string{"<h3>" + tr(lang, "lesson.change") + "</h3>", "<p>" + tr(lang, c.note) + "</p>", c.codeLine} {
					if !strings.Contains(page, want) {
						t.Errorf("lesson %d lacks %q", c.lesson, want)
					}
				}
			})
		}
	}
}

// TestAFixWithNoCodeChangeHasNoWhatToChangeHeading: a heading with
// nothing under it but the scenario diff is not shown; the diff keeps its
// own line.
func TestAFixWithNoCodeChangeHasNoWhatToChangeHeading(t *testing.T) {
	p := pairView{Side: "fixed", YAML: []diffLine{{Op: "-", Text: "ttl: 10s"}, {Op: "+", Text: "ttl: 30s"}}}
	for _, lang := range []Lang{English, Vietnamese} {
		t.Run("in "+string(lang), func(t *testing.T) {
			tm, err := page.Parse("lesson", suiteCSS+lessonTemplate, pageFuncs(lang))
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := tm.Execute(&b, lessonPage{Lang: lang, Pairs: []pairView{p}}); err != nil {
				t.Fatal(err)
			}
			page := html.UnescapeString(b.String())
			if strings.Contains(page, tr(lang, "lesson.change")+"</h3>") {
				t.Errorf("the page heads an empty change:\n%s", page)
			}
			if !strings.Contains(page, tr(lang, "lesson.change.yaml")) {
				t.Errorf("the scenario diff lost its line:\n%s", page)
			}
		})
	}
}

// TestAPairsScenarioDiffLeavesOutMachinePathsAndHarnessFields: a process
// pair's diff showed "dir: /work/main", and the harness's min_acquires
// read as part of the fix (teacher review 2 items 4 and 15).
func TestAPairsScenarioDiffLeavesOutMachinePathsAndHarnessFields(t *testing.T) {
	ok := true
	for _, c := range []struct {
		name          string
		lesson        int
		broken, fixed string
		want          string // a line the diff still shows
	}{
		{"a library pair shows no working directory", 44, "field/redis-semaphore-530-stale-refresh.yaml", "field/redis-semaphore-531-stale-refresh.yaml",
			"+   command: [node, adapters/node/semaphore.js, 5.3.1]"},
		{"the setnx pair shows no min_acquires", 43, "setnx-expire-crash.yaml", "safe-client-crash.yaml", "+ algorithm: safe"},
	} {
		t.Run(c.name, func(t *testing.T) {
			page := lessonPageOf(t, English, c.lesson,
				lessonRun{c.broken, Results{Verdict: checker.Invalid, Algorithm: "process", Seed: 1, ExpectationMet: &ok}, []int{c.lesson}},
				lessonRun{c.fixed, Results{Verdict: checker.Valid, Algorithm: "process", Seed: 1, ExpectationMet: &ok}, []int{c.lesson}})
			_, diff, found := strings.Cut(page, tr(English, "lesson.change.yaml"))
			if !found {
				t.Fatal("the page has no scenario diff")
			}
			diff, _, _ = strings.Cut(diff, "</pre>")
			if !strings.Contains(diff, c.want) {
				t.Errorf("the diff lacks %q:\n%s", c.want, diff)
			}
			for _, not := range []string{"dir:", "min_acquires", "expect:", "verdict:", "probe:"} {
				if strings.Contains(diff, not) {
					t.Errorf("the diff shows %q:\n%s", not, diff)
				}
			}
		})
	}
}

// TestASuitesPagesSayWhichRunsTheyWereMadeFrom: the English and the
// Vietnamese pages come from separate runs of the same files and seeds,
// and no page said so (teacher review 2 item 11). A suite whose runs are
// all in the page's language says when they began; one with a run
// rendered in another language says nothing.
func TestASuitesPagesSayWhichRunsTheyWereMadeFrom(t *testing.T) {
	ok := true
	begun := time.Date(2026, 12, 3, 8, 44, 14, 0, time.UTC)
	for _, lang := range []Lang{English, Vietnamese} {
		for _, c := range []struct {
			name  string
			other bool // one run rendered in another language
		}{{"a suite run in " + string(lang) + " says so", false}, {"a suite with a run in another language than " + string(lang) + " says nothing", true}} {
			t.Run(c.name, func(t *testing.T) {
				out := t.TempDir()
				runs := suiteOf(t, out, []lessonRun{
					{"semaphore-basic-clock-skew.yaml", Results{Verdict: checker.Invalid, Algorithm: "semaphore", Seed: 1, ExpectationMet: &ok}, []int{50}},
					{"semaphore-fair-clock-skew.yaml", Results{Verdict: checker.Valid, Algorithm: "fair-semaphore", Seed: 1, ExpectationMet: &ok}, []int{50}},
				})
				for i := range runs {
					runs[i].Lang, runs[i].Started = lang, begun.Add(time.Duration(i)*time.Minute)
				}
				if c.other {
					runs[1].Lang = English
					if lang == English {
						runs[1].Lang = Vietnamese
					}
				}
				if err := WriteSuite(out, runs, lang); err != nil {
					t.Fatal(err)
				}
				want := tr(lang, "suite.madefrom", 2, "2026-12-03 08:44:14")
				for _, name := range []string{IndexFile, LessonFile(50)} {
					b, err := os.ReadFile(filepath.Join(out, name))
					if err != nil {
						t.Fatal(err)
					}
					if got := strings.Contains(html.UnescapeString(string(b)), want); got == c.other {
						t.Errorf("%s: says which runs it was made from: %v, want %v", name, got, !c.other)
					}
				}
			})
		}
	}
}

// TestASuitesFooterClaimsNoPagesInTheOtherLanguage: a suite run in one
// language knows of no run in the other, so its footer must not say the
// other language's pages were made, nor that their counts differ as if
// they existed; it says where they come from, and that they can differ
// where they exist (teach5, task 4).
func TestASuitesFooterClaimsNoPagesInTheOtherLanguage(t *testing.T) {
	ok := true
	for _, tt := range []struct {
		lang      Lang
		want, not string
	}{
		{English, "Vietnamese pages come only from a run of their own (--lang vi) of the same scenario files and seeds; where such pages exist, their times and counts can differ",
			"makes the Vietnamese pages from runs of its own"},
		{Vietnamese, "Trang tiếng Anh chỉ được tạo từ một lần chạy riêng của chúng (--lang en) với cùng các file kịch bản và seed; nếu có các trang đó",
			"tạo các trang tiếng Anh từ các lần chạy riêng của nó"},
	} {
		t.Run("a suite run only in "+string(tt.lang)+" words the other language's pages conditionally", func(t *testing.T) {
			out := t.TempDir()
			runs := suiteOf(t, out, []lessonRun{
				{"semaphore-basic-clock-skew.yaml", Results{Verdict: checker.Invalid, Algorithm: "semaphore", Seed: 1, ExpectationMet: &ok}, []int{50}},
			})
			runs[0].Lang, runs[0].Started = tt.lang, time.Date(2026, 12, 3, 8, 44, 14, 0, time.UTC)
			if err := WriteSuite(out, runs, tt.lang); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{IndexFile, LessonFile(50)} {
				b, err := os.ReadFile(filepath.Join(out, name))
				if err != nil {
					t.Fatal(err)
				}
				page := html.UnescapeString(string(b))
				if !strings.Contains(page, tt.want) || strings.Contains(page, tt.not) {
					t.Errorf("%s's footer: want %q, not %q", name, tt.want, tt.not)
				}
			}
		})
	}
}

// TestAPairsScenarioDiffNamesEveryHarnessFieldItLeavesOut: the line over a
// pair's scenario diff names each harness field the diff leaves out;
// lesson 42's fair-lock pair differs in probe_timeout, which the line did
// not name (teacher9 F16).
func TestAPairsScenarioDiffNamesEveryHarnessFieldItLeavesOut(t *testing.T) {
	for _, lang := range []Lang{English, Vietnamese} {
		for _, key := range []string{"lesson.change.yaml", "lesson.change.none"} {
			for _, f := range scenario.HarnessFields {
				if !regexp.MustCompile(`\b` + f + `\b`).MatchString(tr(lang, key)) {
					t.Errorf("%s in %s does not name %s: %s", key, lang, f, tr(lang, key))
				}
			}
		}
	}
}

func TestTwoPathsAreTheSameScenarioFileExactlyWhenTheyNameOneFile(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	parent := filepath.Base(wd)
	for _, tt := range []struct {
		name string
		a, b string
		same bool
	}{
		{"one path written twice names one file", "scenarios/gc-pause.yaml", "scenarios/gc-pause.yaml", true},
		{"paths that clean alike name one file", "scenarios/./gc-pause.yaml", "scenarios//gc-pause.yaml", true},
		{"a relative path and its absolute one name one file", "scenarios/gc-pause.yaml", filepath.Join(wd, "scenarios", "gc-pause.yaml"), true},
		{"a path that climbs out and back names the same file", filepath.Join("..", parent, "scenarios", "gc-pause.yaml"), "scenarios/gc-pause.yaml", true},
		{"two files are two", "scenarios/gc-pause.yaml", "scenarios/gc-pause-fencing.yaml", false},
		{"an empty path names no file", "", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameFile(tt.a, tt.b); got != tt.same {
				t.Errorf("sameFile(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.same)
			}
		})
	}
}
