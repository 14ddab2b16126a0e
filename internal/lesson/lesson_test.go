package lesson

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/scenario"
)

// TestEveryLessonHasEveryFieldInBothLanguages: lessons 42–51 each have a
// file with a goal, requirements, takeaways and caveats, every text in
// English and Vietnamese (issue 34).
func TestEveryLessonHasEveryFieldInBothLanguages(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for n := scenario.FirstLesson; n <= scenario.LastLesson; n++ {
		t.Run(fmt.Sprintf("lesson %d", n), func(t *testing.T) {
			l := all[n]
			if l == nil {
				t.Fatalf("no file scenarios/lessons/%d.yaml", n)
			}
			if filepath.Base(l.File) != fmt.Sprintf("%d.yaml", n) {
				t.Errorf("lesson %d is in %s", n, l.File)
			}
			texts := append([]Text{l.Goal}, l.Takeaways...)
			texts = append(texts, l.Caveats...)
			for _, p := range l.Pairs {
				texts = append(texts, p.Question)
			}
			for i, tx := range texts {
				for _, lang := range Languages {
					if strings.TrimSpace(tx.In(lang)) == "" {
						t.Errorf("text %d has no %s", i, lang)
					}
				}
			}
			if len(l.Requirements) == 0 || len(l.Takeaways) == 0 || len(l.Caveats) == 0 {
				t.Errorf("requirements %v, %d takeaways, %d caveats", l.Requirements, len(l.Takeaways), len(l.Caveats))
			}
		})
	}
}

// TestEveryPairOfALessonHasItsQuestionAndEveryQuestionItsPair: a scenario
// of lesson n with a fixed_by is a pair its lesson page shows, so lesson
// n's file asks its question; a question names such a scenario.
func TestEveryPairOfALessonHasItsQuestionAndEveryQuestionItsPair(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	pairs := map[int][]string{} // lesson → broken files
	for _, dir := range []string{"scenarios", "scenarios/field"} {
		files, _ := filepath.Glob(filepath.Join("..", "..", dir, "*.yaml"))
		for _, f := range files {
			sc, err := scenario.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			if sc.FixedBy == "" {
				continue
			}
			for _, n := range sc.Lessons {
				pairs[n] = append(pairs[n], filepath.Base(f))
			}
		}
	}
	for n := scenario.FirstLesson; n <= scenario.LastLesson; n++ {
		l := all[n]
		if l == nil {
			continue // TestEveryLessonHasEveryFieldInBothLanguages says so
		}
		for _, b := range pairs[n] {
			t.Run(fmt.Sprintf("lesson %d asks a question of its pair %s", n, b), func(t *testing.T) {
				if _, ok := l.Question(b); !ok {
					t.Errorf("scenarios/lessons/%d.yaml has no pair with broken: %s", n, b)
				}
			})
		}
		for _, p := range l.Pairs {
			if p.Contrast != "" {
				t.Run(fmt.Sprintf("lesson %d's contrast of %s and %s names two shipped scenarios", n, p.Broken, p.Contrast), func(t *testing.T) {
					for _, f := range []string{p.Broken, p.Contrast} {
						if _, err := loadShipped(f); err != nil {
							t.Errorf("%s is no file of scenarios/ or scenarios/field/: %v", f, err)
						}
					}
				})
				continue
			}
			if p.Fix != "" {
				t.Run(fmt.Sprintf("lesson %d's fix %s of %s differs in the fix alone", n, p.Fix, p.Broken), func(t *testing.T) {
					b, err := loadShipped(p.Broken)
					if err != nil {
						t.Fatal(err)
					}
					f, err := loadShipped(p.Fix)
					if err != nil {
						t.Fatal(err)
					}
					beyond, err := scenario.BeyondFix(b, f)
					if err != nil {
						t.Fatal(err)
					}
					if len(beyond) > 0 {
						t.Errorf("differs beyond its fix in %v", beyond)
					}
				})
				continue
			}
			t.Run(fmt.Sprintf("lesson %d's question of %s has its pair", n, p.Broken), func(t *testing.T) {
				if !slices.Contains(pairs[n], p.Broken) {
					t.Errorf("%s is no scenario of lesson %d with a fixed_by", p.Broken, n)
				}
			})
		}
	}
}

// TestABadLessonFileIsRefusedAtItsLineAndColumn: every problem of a lesson
// file is located as file:line:col and field path.
func TestABadLessonFileIsRefusedAtItsLineAndColumn(t *testing.T) {
	const good = "lesson: 50\ngoal: {en: g, vi: g}\nrequirements: [safety]\npairs: []\ntakeaways: [{en: t, vi: t}]\ncaveats: [{en: c, vi: c}]\n"
	if _, err := Parse("50.yaml", []byte(good)); err != nil {
		t.Fatalf("the good file is refused: %v", err)
	}
	for _, c := range []struct{ name, src, want string }{
		{"a lesson outside 42–51", strings.Replace(good, "lesson: 50", "lesson: 60", 1), "50.yaml:1:9: lesson: must be between 42 and 51"},
		{"a text without its Vietnamese", strings.Replace(good, "goal: {en: g, vi: g}", "goal: {en: g}", 1), "50.yaml:2:7: goal.vi: is missing"},
		{"an empty English text", strings.Replace(good, "takeaways: [{en: t, vi: t}]", "takeaways: [{en: '', vi: t}]", 1), "50.yaml:5:18: takeaways[0].en: must be a non-empty text"},
		{"a requirement the course does not name", strings.Replace(good, "[safety]", "[speed]", 1), "50.yaml:3:16: requirements[0]: must be one of"},
		{"an unknown field", good + "notes: x\n", "50.yaml:7:1: notes: unknown field"},
		{"a missing field", strings.Replace(good, "caveats: [{en: c, vi: c}]\n", "", 1), "50.yaml:1:1: caveats: is missing"},
		{"a text's run that is a path", strings.Replace(good, "caveats: [{en: c, vi: c}]", "caveats: [{en: c, vi: c, runs: [field/x.yaml]}]", 1), "50.yaml:6:33: caveats[0].runs[0]: must be a scenario's file name"},
		{"a text's run named twice", strings.Replace(good, "caveats: [{en: c, vi: c}]", "caveats: [{en: c, vi: c, runs: [x.yaml, x.yaml]}]", 1), "caveats[0].runs[1]: x.yaml is named twice"},
		{"a goal with runs", strings.Replace(good, "goal: {en: g, vi: g}", "goal: {en: g, vi: g, runs: [x.yaml]}", 1), "goal.runs: unknown field"},
		{"a pair whose broken is a path", strings.Replace(good, "pairs: []", "pairs: [{broken: field/x.yaml, question: {en: q, vi: q}}]", 1), "50.yaml:4:18: pairs[0].broken: must be a broken scenario's file name"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("50.yaml", []byte(c.src))
			var el *scenario.ErrorList
			if !errors.As(err, &el) {
				t.Fatalf("err = %v, want a *scenario.ErrorList", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %q, want it to contain %q", err, c.want)
			}
		})
	}
}

// loadShipped loads the shipped scenario file name from scenarios/ or, if
// it is not there, from scenarios/field/ (a lesson names files by their
// base name).
func loadShipped(name string) (scenario.Scenario, error) {
	sc, err := scenario.Load(filepath.Join("..", "..", "scenarios", name))
	if errors.Is(err, fs.ErrNotExist) {
		return scenario.Load(filepath.Join("..", "..", "scenarios", "field", name))
	}
	return sc, err
}

// TestNoLessonPromisesWhatWaitDoesNot: WAIT makes a promoted replica that
// has the write more likely, not certain ("WAIT does not make Redis a
// strongly consistent store", redis.io; lesson 47's
// failover-wait-two-replicas loses a WAIT 1 grant). A sentence of a lesson
// that names WAIT never says it guarantees, ensures or survives a failover
// (lesson 46's takeaway said the counter "survives failover (WAIT …)").
func TestNoLessonPromisesWhatWaitDoesNot(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	promises := map[string][]string{
		"en": {"guarantee", "ensure", "survive failover", "survives failover", "survive a failover", "survives a failover"},
		"vi": {"bảo đảm", "đảm bảo", "sống sót qua failover", "chắc chắn có"},
	}
	for n, l := range all {
		texts := append([]Text{l.Goal}, l.Takeaways...)
		texts = append(texts, l.Caveats...)
		for _, p := range l.Pairs {
			texts = append(texts, p.Question)
		}
		t.Run(fmt.Sprintf("lesson %d promises nothing of WAIT", n), func(t *testing.T) {
			for _, tx := range texts {
				for lang, words := range promises {
					for _, sentence := range strings.Split(tx.In(lang), ". ") {
						if !strings.Contains(sentence, "WAIT") {
							continue
						}
						for _, w := range words {
							if strings.Contains(strings.ToLower(sentence), w) {
								t.Errorf("%s: %q promises %q of WAIT", lang, sentence, w)
							}
						}
					}
				}
			}
		})
	}
}

// TestNoTwoLessonsShowOnePair: a broken scenario and its fix are one
// lesson's pair; a second lesson showing the same two runs repeats it
// verbatim (issue 34: lesson 45 repeated lesson 43's naive DEL beside
// compare-and-delete). A page shows a fixed_by pair on every lesson its
// broken scenario names, and a lesson file's own fix or contrast on its
// lesson.
func TestNoTwoLessonsShowOnePair(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string][]int{} // "broken → right side" → lessons
	for _, dir := range []string{"scenarios", "scenarios/field"} {
		files, _ := filepath.Glob(filepath.Join("..", "..", dir, "*.yaml"))
		for _, f := range files {
			sc, err := scenario.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			if sc.FixedBy == "" {
				continue
			}
			k := filepath.Base(f) + " → " + sc.FixedBy
			shown[k] = append(shown[k], sc.Lessons...)
		}
	}
	for n, l := range all {
		for _, p := range l.Pairs {
			if p.Fix+p.Contrast != "" {
				k := p.Broken + " → " + p.Fix + p.Contrast
				shown[k] = append(shown[k], n)
			}
		}
	}
	for k, ls := range shown {
		t.Run(k+" is one lesson's pair", func(t *testing.T) {
			slices.Sort(ls)
			if len(slices.Compact(ls)) > 1 {
				t.Errorf("shown on lessons %v", ls)
			}
		})
	}
}

// TestALessonListsSafetyWhenItsBrokenRunsAreMeantToBreakIt: a pair whose
// broken scenario expects a violation of safety (a double charge, a lost
// update, …) shows safety in its lesson's requirements table, or the
// table shows no ✘ for a run that charged twice (issue 34: lesson 43's
// shared-owner-token).
func TestALessonListsSafetyWhenItsBrokenRunsAreMeantToBreakIt(t *testing.T) {
	// The kinds that break safety (report's safetyKinds; this package
	// cannot import report).
	safety := []string{"double-effect", "lost-update", "oversell", "split-brain", "duplicate-run",
		"stale-write-accepted", "token-regression", "over-admission", "not-linearizable"}
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for n := scenario.FirstLesson; n <= scenario.LastLesson; n++ {
		l := all[n]
		if l == nil {
			continue
		}
		for _, p := range l.Pairs {
			t.Run(fmt.Sprintf("lesson %d lists safety if %s breaks it", n, p.Broken), func(t *testing.T) {
				b, err := loadShipped(p.Broken)
				if err != nil {
					t.Fatal(err)
				}
				i := slices.IndexFunc(b.Expect.Kinds, func(k string) bool { return slices.Contains(safety, k) })
				if i >= 0 && !slices.Contains(l.Requirements, "safety") {
					t.Errorf("%s expects %s, but lesson %d's requirements %v leave out safety", p.Broken, b.Expect.Kinds[i], n, l.Requirements)
				}
			})
		}
	}
}

// TestALessonCitesARunByItsScenariosName: a name a lesson gives in
// parentheses as its example, "(gc-pause-fencing; lesson 46)", is a run
// on the suite's pages, so it is a shipped scenario's name: lesson 44
// cited "(watchdog-unobserved)", an algorithm no run is named after
// (teacher review, issue 34). The course's terms written the same way
// (check-and-set) are not names.
func TestALessonCitesARunByItsScenariosName(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	terms := []string{"check-and-set"}
	cited := regexp.MustCompile(`\(([a-z0-9]+(?:-[a-z0-9]+)+)[;,): ]`)
	for n, l := range all {
		texts := append([]Text{l.Goal}, l.Takeaways...)
		texts = append(texts, l.Caveats...)
		for _, p := range l.Pairs {
			texts = append(texts, p.Question)
		}
		t.Run(fmt.Sprintf("lesson %d cites only shipped scenarios", n), func(t *testing.T) {
			for _, tx := range texts {
				for _, lang := range Languages {
					for _, m := range cited.FindAllStringSubmatch(tx.In(lang), -1) {
						if slices.Contains(terms, m[1]) {
							continue
						}
						if _, err := loadShipped(m[1] + ".yaml"); err != nil {
							t.Errorf("%s: %q cites %s, no scenario of scenarios/ or scenarios/field/", lang, m[0], m[1])
						}
					}
				}
			}
		})
	}
}

// TestALessonSaysNothingItsRunsContradict: sentences the teacher's review
// found false for the runs they sit beside (issue 34), kept from coming
// back: a count of uses no run checks (lesson 46: "used only once", used
// zero times in the en run), the fencing lesson cited as 42 (it is 46),
// the idempotency key credited to a token-checked failure record (lesson
// 44), and a GET/DEL race no run shows offered as shown (lesson 45).
func TestALessonSaysNothingItsRunsContradict(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		lesson int
		why    string
		not    map[string]string // language → the false words
	}{
		{46, "the token handed out twice is said to be used once, a count no run checks",
			map[string]string{"en": "used only once", "vi": "chỉ được dùng một lần"}},
		{47, "the fencing token is lesson 46's, not lesson 42's",
			map[string]string{"en": "the resource checks (lesson 42)", "vi": "tài nguyên kiểm tra (bài 42)"}},
		{44, "stalled-job-failed-reason-checked's fix is a token-checked failure record, not an idempotency key",
			map[string]string{"en": "idempotency key\n(stalled-job-failed-reason-checked", "vi": "idempotency key\n(stalled-job-failed-reason-checked"}},
		{47, "the late claim is invalid because the resource accepted the stale charge: redlock-gc-pause-cas, valid, has two holders too",
			map[string]string{"en": "redlock-gc-pause-cas-late-claim is invalid: two holders at once", "vi": "redlock-gc-pause-cas-late-claim vi phạm: hai client cùng giữ lock"}},
		{47, "the fenced late-claim twin is on the page (redlock-gc-pause-fenced-late-claim)",
			map[string]string{"en": "no run on this page shows the fenced twin", "vi": "không lần chạy nào trên trang này cho thấy bản tương ứng có fencing"}},
		{44, "check-and-set checks the token in the same step as the write, not before it (teacher7 F19)",
			map[string]string{"en": "unique token before writing", "vi": "token duy nhất của lock trước khi ghi"}},
		{42, "the course's fault tolerance includes the lock's availability (teacher7 F6)",
			map[string]string{"en": "not that clients could not get the lock", "vi": "chứ không phải client không lấy được lock"}},
		{42, "a fair lock's need is not what its dead entry gets here (teacher7 F22)",
			map[string]string{"en": "(a waiter that stops polling is removed soon after", "vi": "(client chờ nào ngừng hỏi lại thì bị loại"}},
		{46, "token 1 accepted twice is failover-fence-regression's, not the caveat before it (teacher7 F7)",
			map[string]string{"en": "That is why token 1 is accepted twice", "vi": "Vì thế token 1 được chấp nhận hai lần"}},
		{50, "the permits are over-admitted during the pause, not after it (teacher7 F10, reader7 F14)",
			map[string]string{"en": "after a 20 s pause", "vi": "sau một lần pause 20 s"}},
		{47, "antirez's linearizability point is about the resource (teacher7 F15)",
			map[string]string{"en": "could itself serve as the lock", "vi": "tự nó cũng làm lock được"}},
		{48, "dropping the lock has limits: durability, duplicate work (teacher7 F9)",
			map[string]string{"en": "you can drop the lock", "vi": "có thể bỏ lock"}},
		{47, "a suite may run the contrasts at many seeds; the page counts them (teacher7 F5, F24)",
			map[string]string{"en": "contrasts are one seed each", "vi": "mỗi bản chỉ là một seed"}},
		{47, "the token-after-grant gap is this client's: it checks its validity before the INCR; a token source that is not the grant's own step is not impossible to fence with (teacher7 F17)",
			map[string]string{"en": "A fencing token must be issued by the lock service in the same step as the grant", "vi": "Fencing token phải được dịch vụ lock cấp trong cùng một bước với lần cấp lock"}},
		{49, "the scheduler heartbeat pair is lesson 49's; lesson 45's scheduler pair is the stop that releases every queue (reader7 F6)",
			map[string]string{"en": "lesson 45's scheduler pair", "vi": "cặp scheduler của bài 45"}},
		{47, "the delayed-restart pair runs under a 5 s TTL, not the 10 s one (teacher7 F16)",
			map[string]string{"en": "of the clock-jump, node clock-rate and delayed-restart pairs", "vi": "các cặp nhảy đồng hồ, tốc độ đồng hồ của node và trì hoãn khởi động lại"}},
		{47, "the broken run's 6 s experiment runs without the check, so it is no evidence of what the check does (teacher7 F20)",
			map[string]string{"en": "(the broken run's 6 s experiment)", "vi": "(thí nghiệm pause 6 s của lần chạy lỗi)"}},
		{47, "the check measures an in-flight pause; what fails after it is the work past the validity (teacher7 F14)",
			map[string]string{"en": "the check does not fix in-flight pauses in general", "vi": "phép kiểm tra không sửa được mọi lần pause"}},
		{47, "Kleppmann's post gives the in-flight pause as numbered steps, not in prose",
			map[string]string{"en": "his post tells it in prose", "vi": "bài viết của ông kể nó bằng lời"}},
		{47, "failover-wait-all's client waits only for the replicas the master counts, so one replica down stops no grant (teacher #15)",
			map[string]string{"en": "with one replica down, WAIT returns fewer than all of them and no lock is granted", "vi": "khi một replica ngừng chạy, WAIT trả về ít hơn số replica và không lock nào được cấp"}},
		{47, "the course's answer is a check at the resource, a fencing token or a check-and-set on the lock's unique token (teacher8 N4)",
			map[string]string{"en": "the course's answer is a fencing token", "vi": "câu trả lời của môn học là một fencing token"}},
		{47, "a conditional write is the resource checking something, so it is no answer where the resource can check nothing (teacher8 N4)",
			map[string]string{"en": "the write itself must be idempotent or conditional", "vi": "chính lần ghi phải idempotent hoặc có điều kiện"}},
		{44, "the bounded watchdog's give-up and w2's grant fall at 40.4–41.9 s and 41.2–43.4 s by seed: no run shows 40.3 and 40.7 s (teacher 9, F4)",
			map[string]string{"en": "gives the lock up at about 40.3 s", "vi": "trả lock vào khoảng 40,3 s"}},
		{47, "in node-clock-rate-drift-safe n3 sets w1's key 0–9 ms after the acquire began, so the allowance is what keeps the key past the charge (teacher 9, F9)",
			map[string]string{"en": "That run does not show the allowance at work", "vi": "Lần chạy đó không cho thấy phần dự phòng đang làm việc"}},
		{47, "n3's SET comes 0.3 to 52 ms after the acquire's start by seed (seed 47 of lessons12: 22.5 ms, margin 53 ms, no allowance needed): no seed-bound head, margin or count (teacher11 G3)",
			map[string]string{"en": "n3 sets it within a few ms of the acquire's start", "vi": "n3 đặt nó chỉ vài ms sau khi w1 bắt đầu lấy lock"}},
		{47, "the margin is 25 to 82 ms by seed, not 30–40 ms (teacher11 G3)",
			map[string]string{"en": "by about 30–40 ms of the run", "vi": "khoảng 30–40 ms của lần chạy"}},
		{47, "the 16 runs were of earlier suites, not the page's (teacher11 G3)",
			map[string]string{"en": "in the 16 runs checked", "vi": "16 lần chạy đã kiểm tra"}},
		{47, "the 6 s variant of redlock-pause-in-flight ships no file: its outcome is told with the runs of a copy that back it (teacher 9, F13)",
			map[string]string{"en": "with its pause set to 6 s comes out invalid for that reason.", "vi": "với lần pause đặt thành 6 s vi phạm vì lý do này."}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("lesson %d: %s", tt.lesson, tt.why), func(t *testing.T) {
			l := all[tt.lesson]
			if l == nil {
				t.Fatalf("no lesson %d", tt.lesson)
			}
			texts := append(slices.Clone(l.Takeaways), l.Caveats...)
			for lang, not := range tt.not {
				for _, tx := range texts {
					// Folded lines read as one: compare with single spaces.
					got := strings.Join(strings.Fields(tx.In(lang)), " ")
					if strings.Contains(got, strings.Join(strings.Fields(not), " ")) {
						t.Errorf("%s: %q", lang, got)
					}
				}
			}
		})
	}
	t.Run("lesson 47: the drift pair says some runs do not need the allowance and most do (teacher11 G3)", func(t *testing.T) {
		l := all[47]
		if l == nil {
			t.Fatal("no lesson 47")
		}
		want := map[string][]string{
			"en": {"the key would have outlived the charge even without the allowance", "most runs"},
			"vi": {"key vẫn sẽ sống lâu hơn lần trừ tiền dù không có phần dự phòng", "phần lớn các lần chạy"},
		}
		for _, lang := range Languages {
			var all []string
			for _, tx := range l.Takeaways {
				all = append(all, strings.Join(strings.Fields(tx.In(lang)), " "))
			}
			text := strings.Join(all, "\n")
			for _, w := range want[lang] {
				if !strings.Contains(text, w) {
					t.Errorf("%s: no takeaway says %q", lang, w)
				}
			}
		}
	})
	t.Run("lesson 45: the GET/DEL race is said to be shown by no run of the lesson", func(t *testing.T) {
		l := all[45]
		if l == nil {
			t.Fatal("no lesson 45")
		}
		for _, lang := range Languages {
			for _, tx := range l.Takeaways {
				s := tx.In(lang)
				if strings.Contains(s, "GET") && strings.Contains(s, "DEL") && !strings.Contains(s, map[string]string{"en": "No run of this lesson shows that race", "vi": "Không lần chạy nào của bài này cho thấy race đó"}[lang]) {
					t.Errorf("%s: %q offers the race as shown", lang, s)
				}
			}
		}
	})
}

// TestNoVietnameseLessonUsesAWordTheGlossaryReplaced: the teacher's
// review (teacher2 #12) replaced words that mislead a Vietnamese class:
// "khởi động lại chậm" (slow restart) for the delayed restart, "hiệu
// năng" (performance) for an efficiency lock, "Bản sửa đổi hai thứ"
// (readable as "the revision: two things").
func TestNoVietnameseLessonUsesAWordTheGlossaryReplaced(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	replaced := map[string]string{
		"khởi động lại chậm":  "trì hoãn khởi động lại",
		"hiệu năng":           "hiệu quả",
		"Bản sửa đổi hai thứ": "Bản sửa thay đổi hai điều",
		// A clock stepped ahead is not a fast clock (teacher7 F12).
		"đồng hồ chạy nhanh nhất": "đồng hồ đi trước xa nhất",
	}
	for n, l := range all {
		texts := append([]Text{l.Goal}, l.Takeaways...)
		texts = append(texts, l.Caveats...)
		for _, p := range l.Pairs {
			texts = append(texts, p.Question)
		}
		t.Run(fmt.Sprintf("lesson %d's Vietnamese uses the glossary's words", n), func(t *testing.T) {
			for _, tx := range texts {
				for old, want := range replaced {
					if strings.Contains(strings.Join(strings.Fields(tx.In("vi")), " "), old) {
						t.Errorf("%q says %q; write %q", tx.In("vi"), old, want)
					}
				}
			}
		})
	}
}

// shippedNames are the names of every shipped scenario file (scenarios/
// and scenarios/field/, base names without .yaml).
func shippedNames(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, glob := range []string{"*.yaml", "field/*.yaml"} {
		files, err := filepath.Glob(filepath.Join("..", "..", "scenarios", glob))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			out[strings.TrimSuffix(filepath.Base(f), ".yaml")] = true
		}
	}
	return out
}

// namedIn are the shipped scenario names s mentions as words.
var nameWord = regexp.MustCompile(`[a-z0-9]+(?:-[a-z0-9]+)+`)

func namedIn(s string, shipped map[string]bool) []string {
	var out []string
	for _, loc := range nameWord.FindAllStringIndex(s, -1) {
		w := s[loc[0]:loc[1]]
		before, after := byte(' '), byte(' ')
		if loc[0] > 0 {
			before = s[loc[0]-1]
		}
		if loc[1] < len(s) {
			after = s[loc[1]]
		}
		// Part of a longer word or a path (scenarios/x.yaml) is not a
		// name of its own.
		if strings.IndexByte("-_./", before) >= 0 || strings.IndexByte("-_/", after) >= 0 || (after == '.' && strings.HasPrefix(s[loc[1]:], ".yaml")) {
			continue
		}
		if shipped[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
}

// TestALessonTextNamesTheRunsItSpeaksOf: a takeaway or caveat that speaks
// of a scenario's run lists it in its runs field, so the page can say
// beside it where that run is: in the suite, only an experiment of one of
// its runs, or not run at all. Lesson 47's "This page links one run of
// each (seed 47)" and lesson 45's "safe-unlock is valid" were printed on
// pages that had no such run (teacher7 F1, F2; reader7 F5, F7, F15).
func TestALessonTextNamesTheRunsItSpeaksOf(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	shipped := shippedNames(t)
	for n, l := range all {
		for kind, texts := range map[string][]Text{"takeaway": l.Takeaways, "caveat": l.Caveats} {
			runs := l.TakeawayRuns
			if kind == "caveat" {
				runs = l.CaveatRuns
			}
			for i, tx := range texts {
				t.Run(fmt.Sprintf("lesson %d's %s %d lists every scenario it names in both languages", n, kind, i+1), func(t *testing.T) {
					var declared []string
					for _, f := range runs[i] {
						if !shipped[strings.TrimSuffix(f, ".yaml")] {
							t.Errorf("runs names %s, no scenario of scenarios/ or scenarios/field/", f)
						}
						declared = append(declared, strings.TrimSuffix(f, ".yaml"))
					}
					slices.Sort(declared)
					for _, lang := range Languages {
						if got := namedIn(tx.In(lang), shipped); !slices.Equal(got, declared) {
							t.Errorf("%s names %v, runs lists %v", lang, got, declared)
						}
					}
				})
			}
		}
	}
}

// TestALessonTextPointsAtNoPlaceOnAPage: a lesson's words are printed on
// pages of suites that ran any of its scenarios, so they cannot know what
// a page holds: "This page links one run of each", "under "More runs of
// this lesson"", "the diff shown here", "the fixed run" named runs that
// were not there (teacher7 F1, F4; reader7 F1, F7). The page itself says
// where each named run is (its runs field).
func TestALessonTextPointsAtNoPlaceOnAPage(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	deictic := map[string][]string{
		"en": {"this page", "on the page", "shown here", "More runs of this lesson", "the fixed run", "Each fixed run", "its broken runs", "the broken run's"},
		"vi": {"trang này", "Các lần chạy khác của bài này", "đoạn diff ở đây", "lần chạy đã sửa", "các lần chạy lỗi của nó"},
	}
	for n, l := range all {
		texts := append([]Text{l.Goal}, l.Takeaways...)
		texts = append(texts, l.Caveats...)
		t.Run(fmt.Sprintf("lesson %d points at no place on a page", n), func(t *testing.T) {
			for _, tx := range texts {
				for lang, words := range deictic {
					for _, w := range words {
						if strings.Contains(strings.ToLower(tx.In(lang)), strings.ToLower(w)) {
							t.Errorf("%s says %q: %q", lang, w, tx.In(lang))
						}
					}
				}
			}
		})
	}
}

// TestLesson47StatesEachRedlockPairsTTLAndJobFromItsFile: lesson 47 said
// the delayed-restart pair runs "against the 10 s TTL" with a validity of
// "about 9.8 s"; its files set a 5 s TTL and a 4 s job (teacher7 F16). The
// caveat on the Redlock client gives each pair's TTL and w1's job as
// "(files: TTL X s, w1's job Y s)", and they are read here from the
// shipped files, not from a copy.
func TestLesson47StatesEachRedlockPairsTTLAndJobFromItsFile(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	l := all[47]
	if l == nil {
		t.Fatal("no lesson 47")
	}
	form := map[string]*regexp.Regexp{
		"en": regexp.MustCompile(`\(([a-z0-9-]+(?:, [a-z0-9-]+)*): TTL ([0-9.]+) s, w1's job ([0-9.]+) s\)`),
		"vi": regexp.MustCompile(`\(([a-z0-9-]+(?:, [a-z0-9-]+)*): TTL ([0-9,]+) s, job của w1 ([0-9,]+) s\)`),
	}
	secs := func(s string) string { return strings.ReplaceAll(s, ",", ".") }
	for _, must := range []string{"redlock-clock-jump", "node-clock-rate", "redlock-restart", "redlock-delayed-restart"} {
		for _, lang := range Languages {
			t.Run(fmt.Sprintf("%s's TTL and job are its file's in %s", must, lang), func(t *testing.T) {
				found := false
				for _, tx := range l.Caveats {
					for _, m := range form[lang].FindAllStringSubmatch(tx.In(lang), -1) {
						if !slices.Contains(strings.Split(m[1], ", "), must) {
							continue
						}
						found = true
						sc, err := loadShipped(must + ".yaml")
						if err != nil {
							t.Fatal(err)
						}
						ttl := strconv.FormatFloat(time.Duration(sc.TTL).Seconds(), 'f', -1, 64)
						job := strconv.FormatFloat(time.Duration(sc.Job("w1")).Seconds(), 'f', -1, 64)
						if secs(m[2]) != ttl || secs(m[3]) != job {
							t.Errorf("%q: the file has TTL %s s and w1's job %s s", m[0], ttl, job)
						}
					}
				}
				if !found {
					t.Errorf("no caveat gives %s's TTL and job as (…: TTL X s, w1's job Y s)", must)
				}
			})
		}
	}
}

// TestLesson51SaysWhatItsFixesDoNotCover: a key per fire time is only as
// durable as its node, and a renewed lease does not stop a paused leader;
// lesson 51 said neither (teacher7 F8).
func TestLesson51SaysWhatItsFixesDoNotCover(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	l := all[51]
	if l == nil {
		t.Fatal("no lesson 51")
	}
	for _, c := range []struct{ why, run string }{
		{"a lost key lets a fire run twice", "failover-lost-lock.yaml"},
		{"a paused leader may fire after its lease lapsed", "watchdog-gc-pause.yaml"},
	} {
		t.Run("a caveat says "+c.why, func(t *testing.T) {
			if !slices.ContainsFunc(l.CaveatRuns, func(rs []string) bool { return slices.Contains(rs, c.run) }) {
				t.Errorf("no caveat of lesson 51 names %s", c.run)
			}
		})
	}
}
