package report

import (
	"html"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/history/historytest"
	"github.com/locksim/locksim/internal/why"
)

// experiments of the gc-pause history's one step (#1, the pause), with the
// verdicts given.
func experiments(without, half, fixed checker.Verdict) []why.Counterfactual {
	return []why.Counterfactual{
		{Change: why.Without, Step: 1, Name: "gc-pause-without-1", File: "why/gc-pause-without-1.yaml", Verdict: without,
			Reproduce: "locksim run why/gc-pause-without-1.yaml --seed 42"},
		{Change: why.Half, Step: 1, ValueNS: at(17.5), Name: "gc-pause-half-1", File: "why/gc-pause-half-1.yaml", Verdict: half,
			Reproduce: "locksim run why/gc-pause-half-1.yaml --seed 42"},
		{Change: why.FixedBy, Name: "gc-pause-fencing", File: "why/gc-pause-fencing.yaml", Verdict: fixed,
			Reproduce: "locksim run why/gc-pause-fencing.yaml --seed 42"},
	}
}

// pauseStart is when the history's pause fired, scenario seconds, read
// from its nemesis operation (not from the report's model).
func pauseStart(t *testing.T, h history.History) float64 {
	t.Helper()
	for _, o := range h.Ops {
		if o.Client == history.NemesisClient && o.Value.Fault != nil && o.Value.Fault.ID == 1 {
			return float64(o.Invoke) * h.Header.TimeScale / 1e9
		}
	}
	t.Fatal("no pause in the history")
	return 0
}

func TestTheHeadlineNamesTheFaultsTheExperimentsFoundNecessary(t *testing.T) {
	tests := []struct {
		name         string
		fenced       bool
		lang         Lang
		cfs          []why.Counterfactual
		want, reject []string // with %s for the pause's start
	}{
		{"without the pause the seed is valid: the pause is named, with its reproduce line and its half", false, English,
			experiments(checker.Valid, checker.Invalid, checker.Valid),
			[]string{"Without w1's GC pause at t=%ss (locksim run why/gc-pause-without-1.yaml --seed 42), the same seed is valid.",
				"With it 17.5s long instead of 35s, the same seed is invalid (locksim run why/gc-pause-half-1.yaml --seed 42)."},
			[]string{"no single fault"}},
		{"the same in Vietnamese, course terms kept", false, Vietnamese,
			experiments(checker.Valid, checker.Valid, checker.Valid),
			[]string{"Nếu không có GC pause của w1 lúc t=%ss (locksim run why/gc-pause-without-1.yaml --seed 42), thì cùng seed đó cho kết quả hợp lệ.",
				"chỉ kéo dài 17,5 s thay vì 35 s, cùng seed đó cho kết quả hợp lệ"},
			nil},
		// Teacher 3, F11: an experiment the machine spoiled tells nothing
		// of the cause; the table shows it with its reason, the headline
		// leaves it out.
		{"a half experiment that proves nothing is left out of the headline", false, English,
			experiments(checker.Valid, checker.Unknown, checker.Valid),
			[]string{"Without w1's GC pause at t=%ss (locksim run why/gc-pause-without-1.yaml --seed 42), the same seed is valid."},
			[]string{"17.5s", "unknown", "proves nothing"}},
		{"the same in Vietnamese", false, Vietnamese,
			experiments(checker.Valid, checker.Unknown, checker.Valid),
			[]string{"Nếu không có GC pause của w1 lúc t=%ss (locksim run why/gc-pause-without-1.yaml --seed 42), thì cùng seed đó cho kết quả hợp lệ."},
			[]string{"17,5 s", "chưa kết luận", "không chứng minh được gì"}},
		{"still invalid without its only fault: no fault is named necessary", false, English,
			experiments(checker.Invalid, checker.Invalid, checker.Valid),
			[]string{"no single fault alone was necessary"},
			[]string{"Without w1's", "the same seed is valid"}},
		{"an experiment that proves nothing names nothing", false, English,
			experiments(checker.Unknown, checker.Valid, checker.Valid),
			nil,
			[]string{"Without w1's", "no single fault", "17.5s"}},
		{"a valid run tells no cause, whatever it is given", true, English,
			experiments(checker.Valid, checker.Valid, checker.Valid),
			nil,
			[]string{"Without", "no single fault"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := gcPauseInput("local", tt.fenced)
			in.Lang, in.Counterfactuals = tt.lang, tt.cfs
			dir, res := writeReport(t, in)
			start := pauseStart(t, in.History)
			for _, w := range tt.want {
				if w = strings.ReplaceAll(w, "%s", instantIn(tt.lang, start)); !strings.Contains(res.Headline, w) {
					t.Errorf("headline %q\nlacks %q", res.Headline, w)
				}
			}
			for _, r := range tt.reject {
				if strings.Contains(res.Headline, r) {
					t.Errorf("headline %q\nsays %q", res.Headline, r)
				}
			}
			// Issue 34 (a fresh teacher): a lesson or suite card's headline
			// carried each experiment's command with its machine path; the
			// card tells the causes without them (its run's page has them).
			if strings.Contains(res.HeadlineShort, "locksim run") {
				t.Errorf("the cards' headline %q carries a command", res.HeadlineShort)
			}
			if len(tt.want) > 0 {
				cause := strings.ReplaceAll(strings.SplitN(tt.want[0], " (", 2)[0], "%s", instantIn(tt.lang, start))
				if !strings.Contains(res.HeadlineShort, cause) {
					t.Errorf("the cards' headline %q lacks the cause %q", res.HeadlineShort, cause)
				}
				card := newSuiteRuns(tt.lang, t.TempDir(), []Results{res})[0].Card
				if strings.Contains(card.Headline, "locksim run") || !strings.Contains(card.Headline, cause) {
					t.Errorf("the card says %q: want the cause %q without its command", card.Headline, cause)
				}
			}
			if len(res.Counterfactuals) != len(tt.cfs) {
				t.Errorf("results.json has %d counterfactuals, want %d", len(res.Counterfactuals), len(tt.cfs))
			}
			page, err := os.ReadFile(filepath.Join(dir, IndexFile))
			if err != nil {
				t.Fatal(err)
			}
			if len(tt.want) > 0 {
				// The timeline's title (timeline.png's, and the SVG's <title>)
				// tells the causes without the experiments' long commands.
				title := regexp.MustCompile(`<svg class="lsm-svg"[^>]*>\s*<title>([^<]*)</title>`).FindSubmatch(page)
				if title == nil {
					t.Fatal("no timeline title on the page")
				}
				if tl := html.UnescapeString(string(title[1])); strings.Contains(tl, "locksim run") || !strings.Contains(tl, strings.ReplaceAll(strings.SplitN(tt.want[0], " (", 2)[0], "%s", instantIn(tt.lang, start))) {
					t.Errorf("the timeline's title %q should tell the cause without its command", tl)
				}
			}
			rows := regexp.MustCompile(`(?s)<table id="why">(.*?)</table>`).FindSubmatch(page)
			if rows == nil || len(regexp.MustCompile(`<tr[ >]`).FindAll(rows[1], -1)) != len(tt.cfs)+1 {
				t.Fatalf("the page's experiments table is %q, want a row per experiment", rows)
			}
			if tt.lang == Vietnamese {
				// What a reader sees, the commands (<code>) left out.
				text := regexp.MustCompile(`(?s)<code>.*?</code>|<[^>]+>`).ReplaceAllString(string(rows[1]), " ")
				head := regexp.MustCompile(`\(locksim run [^)]*\)`).ReplaceAllString(res.Headline, "")
				if bad := EnglishFieldWords(head + " " + html.UnescapeString(text)); len(bad) > 0 {
					t.Errorf("the Vietnamese headline and experiments show English field words: %v", bad)
				}
			}
		})
	}
}

func TestTheRemedySaysHowItsFixedByFileDidWithTheSameFaults(t *testing.T) {
	for _, v := range []checker.Verdict{checker.Valid, checker.Invalid} {
		t.Run("the fix came out "+string(v), func(t *testing.T) {
			in := gcPauseInput("local", false)
			in.FixedBy = &Fixed{Name: "gc-pause-fencing", File: "scenarios/gc-pause-fencing.yaml"}
			in.Counterfactuals = experiments(checker.Valid, checker.Valid, v)
			dir, res := writeReport(t, in)
			page, _ := os.ReadFile(filepath.Join(dir, IndexFile))
			m := regexp.MustCompile(`<p id="fixed-run" data-claim="([^"]*)">([^<]*)</p>`).FindSubmatch(page)
			if m == nil {
				t.Fatal("no sentence on the fix's run with the same faults, with its claim")
			}
			want := map[checker.Verdict]string{checker.Valid: "with the same faults and seed is valid",
				checker.Invalid: "with the same faults and seed is still invalid"}[v]
			if !strings.Contains(string(m[2]), want) || !strings.Contains(string(m[2]), "locksim run why/gc-pause-fencing.yaml --seed 42") {
				t.Errorf("fix sentence %q, want %q and its reproduce line", m[2], want)
			}
			c, ok := claim.Find(res.Claims, func(c claim.Claim) bool { return c.ID == string(m[1]) })
			if !ok || c.Kind != claim.Experiment || c.What != string(why.FixedBy) || c.How != string(v) {
				t.Errorf("the sentence rests on claim %s = %+v, want the fixed_by experiment's, verdict %s", m[1], c, v)
			}
		})
	}
}

// TestAFixWithFaultsOfItsOwnIsToldAsSuchNeverAsTheSameFault: a fixed_by
// file whose faults differ from the run's (redlock-no-clock-jump has no
// clock jump) was run with its own faults; the remedy says which, and
// says "the same fault, made harmless" only of a fix with the same faults.
func TestAFixWithFaultsOfItsOwnIsToldAsSuchNeverAsTheSameFault(t *testing.T) {
	own := func(lacks []int) []why.Counterfactual {
		cs := experiments(checker.Valid, checker.Invalid, checker.Valid)
		cs[2] = why.Counterfactual{Change: why.FixedByOwn, Lacks: lacks, Name: "gc-pause-fixed", File: "why/gc-pause-fixed.yaml",
			Verdict: checker.Valid, Reproduce: "locksim run why/gc-pause-fixed.yaml --seed 42"}
		return cs
	}
	tests := []struct {
		name         string
		lang         Lang
		faults       string // Fixed.Faults
		cfs          []why.Counterfactual
		want, reject []string // %s: the pause's start
	}{
		{"a fix that lacks the run's pause says it ran without it", English, FaultsOwn, own([]int{1}),
			[]string{"Tried: gc-pause-fixed, with this run's faults without w1's GC pause at t=%ss, is valid with the same seed (locksim run why/gc-pause-fixed.yaml --seed 42).",
				"The scenario named as its fix, with this run's faults without w1's GC pause at t=%ss: gc-pause-fixed.",
				"gc-pause-fixed, with this run's faults without w1's GC pause at t=%ss"},
			[]string{"made harmless", "with the same faults"}},
		{"the same in Vietnamese", Vietnamese, FaultsOwn, own([]int{1}),
			[]string{"Đã thử: gc-pause-fixed, với các lỗi của lần chạy này nhưng không có GC pause của w1 lúc t=%ss, cho kết quả hợp lệ với cùng seed",
				"Kịch bản được nêu là cách sửa, với các lỗi của lần chạy này nhưng không có GC pause của w1"},
			[]string{"vô hại", "với cùng các lỗi"}},
		{"a fix whose faults are other than the run's says they are its own", English, FaultsOwn, own(nil),
			[]string{"Tried: gc-pause-fixed, with faults of its own, not this run's, is valid with the same seed"},
			[]string{"made harmless", "with the same faults"}},
		{"a fix with the same faults is the same fault made harmless", English, FaultsOwn, experiments(checker.Valid, checker.Invalid, checker.Valid),
			[]string{"The same fault, made harmless: scenario gc-pause-fencing.", "with the same faults and seed is valid"},
			[]string{"faults of its own"}},
		{"without experiments a fix known to have its own faults is not the same fault", English, FaultsOwn, nil,
			[]string{"with faults of its own, not this run's: gc-pause-fencing."}, []string{"made harmless"}},
		{"without experiments a fix not known either way is only named", English, "", nil,
			[]string{"The scenario named as its fix: gc-pause-fencing."}, []string{"made harmless"}},
	}
	// A fix whose pause is a seventh of the run's: the run's step 1 in
	// another form (false statement: "with faults of its own", not naming
	// the change).
	h := gcPauseInput("local", false).History
	var pause history.FaultStep
	for _, o := range h.Ops {
		if o.Value.Fault != nil && o.Value.Fault.ID == 1 {
			pause = *o.Value.Fault
		}
	}
	shorter := pause
	shorter.Duration = pause.Duration / 7
	changed := own(nil)
	changed[2].Changed = []claim.StepChange{{Step: 1, To: shorter}}
	dur := func(ns int64) string { return span(float64(ns) * h.Header.TimeScale / 1e9).in(English) }
	durVI := func(ns int64) string { return span(float64(ns) * h.Header.TimeScale / 1e9).in(Vietnamese) }
	tests = append(tests, []struct {
		name         string
		lang         Lang
		faults       string
		cfs          []why.Counterfactual
		want, reject []string
	}{
		{"a fix that shortens the run's pause names the change", English, FaultsOwn, changed,
			[]string{"Tried: gc-pause-fixed, with this run's faults but w1's GC pause at t=%ss lasting " + dur(shorter.Duration) + " instead of " + dur(pause.Duration) + ", is valid with the same seed",
				"The scenario named as its fix, with this run's faults but w1's GC pause at t=%ss lasting " + dur(shorter.Duration) + " instead of " + dur(pause.Duration) + ": gc-pause-fixed."},
			[]string{"faults of its own"}},
		{"the same in Vietnamese", Vietnamese, FaultsOwn, changed,
			[]string{"với các lỗi của lần chạy này nhưng GC pause của w1 lúc t=%ss kéo dài " + durVI(shorter.Duration) + " thay vì " + durVI(pause.Duration)},
			[]string{"các lỗi của riêng nó, không phải của lần chạy này, cho kết quả"}},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := gcPauseInput("local", false)
			in.Lang = tt.lang
			in.FixedBy = &Fixed{Name: "gc-pause-fencing", File: "scenarios/gc-pause-fencing.yaml", Faults: tt.faults}
			if len(tt.cfs) == 3 && tt.cfs[2].Change == why.FixedByOwn {
				in.FixedBy = &Fixed{Name: "gc-pause-fixed", File: "scenarios/gc-pause-fixed.yaml", Faults: tt.faults}
			}
			in.Counterfactuals = tt.cfs
			dir, _ := writeReport(t, in)
			b, _ := os.ReadFile(filepath.Join(dir, IndexFile))
			page := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(string(b), ""))
			start := pauseStart(t, in.History)
			for _, w := range tt.want {
				if w = strings.ReplaceAll(w, "%s", instantIn(tt.lang, start)); !strings.Contains(page, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			for _, r := range tt.reject {
				if strings.Contains(page, r) {
					t.Errorf("page says %q", r)
				}
			}
		})
	}
}

// TestAValidFixWhoseRunAcceptedNoProtectedWriteSaysSo: a fixed_by run that
// is valid because nothing was charged in it (extend-after-expiry-deadline:
// its holder was still inside its job when the run ended) shows no harm
// done, not that the fix made a charge safe; the remedy says so (fresh
// reader, stop 41), and its experiment claim carries the count.
func TestAValidFixWhoseRunAcceptedNoProtectedWriteSaysSo(t *testing.T) {
	with := func(n int) []why.Counterfactual {
		cs := experiments(checker.Valid, checker.Invalid, checker.Valid)
		cs[2].Effects, cs[2].EffectActions = &n, []string{"charge"}
		return cs
	}
	tests := []struct {
		name    string
		lang    Lang
		effects int
		says    bool
		text    string
	}{
		{"a fix whose run charged nothing says it shows no harm done", English, 0, true, "But no charge was accepted in that run: it shows no harm done, not that the fix made one safe."},
		{"the same in Vietnamese", Vietnamese, 0, true, "Nhưng trong lần chạy đó không có lần trừ tiền nào được chấp nhận"},
		{"a fix whose run charged once says nothing of the kind", English, 1, false, "But no charge was accepted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := gcPauseInput("local", false)
			in.Lang = tt.lang
			in.FixedBy = &Fixed{Name: "gc-pause-fencing", File: "scenarios/gc-pause-fencing.yaml"}
			in.Counterfactuals = with(tt.effects)
			dir, res := writeReport(t, in)
			b, _ := os.ReadFile(filepath.Join(dir, IndexFile))
			page := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(string(b), ""))
			if strings.Contains(page, tt.text) != tt.says {
				t.Errorf("page says %q: %v, want %v", tt.text, !tt.says, tt.says)
			}
			c, ok := claim.Find(res.Claims, func(c claim.Claim) bool { return c.Kind == claim.Experiment && c.What == string(why.FixedBy) })
			if !ok || c.Num == nil || *c.Num != int64(tt.effects) || !slices.Equal(c.Actions, []string{"charge"}) {
				t.Errorf("the fix's experiment claim does not carry its %d accepted charges: %+v", tt.effects, c)
			}
		})
	}
}

// TestAFixsRunThatStillViolatesIsNeverCalledHarmless: the run report of
// redis-semaphore-530-stale-refresh said "The same fault, made harmless:
// scenario redis-semaphore-531-stale-refresh", then "Tried: … is still
// invalid" (fresh reader F1): 5.3.1 ended the double charge, not the
// overlap. The remedy names a fix whose run still violates by what its
// run showed: a partial fix, with the kinds it no longer showed and those
// it still showed (its experiment claim's kinds), or a fix that did not
// make the fault harmless.
func TestAFixsRunThatStillViolatesIsNeverCalledHarmless(t *testing.T) {
	with := func(kinds ...string) []why.Counterfactual {
		cs := experiments(checker.Valid, checker.Invalid, checker.Invalid)
		cs[2].Kinds = kinds
		return cs
	}
	in := gcPauseInput("local", false)
	runKinds := ViolationKinds(allAnomalies(in.Results))
	if !slices.Contains(runKinds, checker.KindMutexOverlap) || len(runKinds) < 2 {
		t.Fatalf("the gc-pause run shows %v: the test needs two holders and another kind", runKinds)
	}
	var gone []string
	for _, k := range runKinds {
		if k != checker.KindMutexOverlap {
			gone = append(gone, k)
		}
	}
	words := func(lang Lang, kinds []string) string {
		ws := make([]string, len(kinds))
		for i, k := range kinds {
			ws[i] = kindWord(lang, k)
		}
		return joinAnd(lang, ws)
	}
	for _, lang := range []Lang{English, Vietnamese} {
		tests := []struct {
			name         string
			cfs          []why.Counterfactual
			want, reject []string
		}{
			{"a fix whose run still lets two holders overlap but charges once is a partial fix, told by what is gone and what is left",
				with(checker.KindMutexOverlap),
				[]string{tr(lang, "fix.fixed.partial", "gc-pause-fencing"),
					tr(lang, "why.fix.partial", "gc-pause-fencing", tr(lang, "why.fixfaults.same"), words(lang, gone), words(lang, []string{checker.KindMutexOverlap}),
						"locksim run why/gc-pause-fencing.yaml --seed 42")},
				[]string{tr(lang, "fix.fixed", "gc-pause-fencing")}},
			{"a fix whose run shows every kind of the run is no fix of them",
				with(runKinds...),
				[]string{tr(lang, "fix.fixed.invalid", "gc-pause-fencing"),
					tr(lang, "why.fix.invalid.kinds", "gc-pause-fencing", tr(lang, "why.fixfaults.same"), words(lang, runKinds), "locksim run why/gc-pause-fencing.yaml --seed 42")},
				[]string{tr(lang, "fix.fixed", "gc-pause-fencing"), tr(lang, "fix.fixed.partial", "gc-pause-fencing")}},
		}
		for _, tt := range tests {
			t.Run(string(lang)+": "+tt.name, func(t *testing.T) {
				in := gcPauseInput("local", false)
				in.Lang = lang
				in.FixedBy = &Fixed{Name: "gc-pause-fencing", File: "scenarios/gc-pause-fencing.yaml", Faults: FaultsSame}
				in.Counterfactuals = tt.cfs
				dir, res := writeReport(t, in)
				b, _ := os.ReadFile(filepath.Join(dir, IndexFile))
				page := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(string(b), ""))
				for _, w := range tt.want {
					if !strings.Contains(page, w) {
						t.Errorf("page lacks %q", w)
					}
				}
				for _, r := range tt.reject {
					if strings.Contains(page, r) {
						t.Errorf("page says %q", r)
					}
				}
				c, ok := claim.Find(res.Claims, func(c claim.Claim) bool { return c.Kind == claim.Experiment && c.What == string(why.FixedBy) })
				if !ok || !slices.Equal(c.Kinds, tt.cfs[2].Kinds) {
					t.Errorf("the fix's experiment claim does not carry its kinds %v: %+v", tt.cfs[2].Kinds, c)
				}
			})
		}
	}
}

// TestAFixedByThatIsNoFixIsNamedAsWhatItIs: redlock-clock-jump's report
// called redlock-no-clock-jump "the scenario named as its fix" (fresh
// reader F12): it is the run without its clock jump, a contrast; and
// control-negative's named control-positive, a harness control, "the same
// fault, made harmless". The remedy names them as the lesson pages do
// (Fixed.Side, by FixSide's rule).
func TestAFixedByThatIsNoFixIsNamedAsWhatItIs(t *testing.T) {
	lacks := experiments(checker.Valid, checker.Invalid, checker.Valid)
	lacks[2] = why.Counterfactual{Change: why.FixedByOwn, Lacks: []int{1}, Name: "gc-pause-fixed", File: "why/gc-pause-fixed.yaml",
		Verdict: checker.Valid, Reproduce: "locksim run why/gc-pause-fixed.yaml --seed 42"}
	for _, lang := range []Lang{English, Vietnamese} {
		tests := []struct {
			name, side string
			cfs        []why.Counterfactual
			want       func(start string) string
		}{
			{"the run without its clock fault is a contrast, with the faults it ran with", "contrast.clock", lacks, func(start string) string {
				step := map[Lang]string{English: "w1's GC pause at t=" + start + "s", Vietnamese: "GC pause của w1 lúc t=" + start + "s"}[lang]
				faults := tr(lang, "why.fixfaults.lacks", step)
				return tr(lang, "fix.contrast.clock.as", "gc-pause-fixed", faults)
			}},
			{"a harness control with the same faults is a control", "control", experiments(checker.Valid, checker.Invalid, checker.Valid), func(string) string {
				return tr(lang, "fix.control", "gc-pause-fixed")
			}},
			{"a crashed node kept down is a contrast", "contrast.restart", nil, func(string) string {
				return tr(lang, "fix.contrast.restart", "gc-pause-fixed")
			}},
		}
		for _, tt := range tests {
			t.Run(string(lang)+": "+tt.name, func(t *testing.T) {
				in := gcPauseInput("local", false)
				in.Lang = lang
				in.FixedBy = &Fixed{Name: "gc-pause-fixed", File: "scenarios/gc-pause-fixed.yaml", Faults: FaultsOwn, Side: tt.side}
				in.Counterfactuals = tt.cfs
				if len(tt.cfs) == 3 && tt.cfs[2].Change == why.FixedBy {
					in.Counterfactuals[2].Name = "gc-pause-fixed"
				}
				dir, _ := writeReport(t, in)
				b, _ := os.ReadFile(filepath.Join(dir, IndexFile))
				page := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(string(b), ""))
				if w := tt.want(instantIn(lang, pauseStart(t, in.History))); !strings.Contains(page, w) {
					t.Errorf("page lacks %q", w)
				}
				for _, key := range []string{"fix.fixed", "fix.fixed.own", "fix.fixed.named"} {
					if r := tr(lang, key, "gc-pause-fixed"); strings.Contains(page, r) {
						t.Errorf("page says %q", r)
					}
				}
				if r := strings.SplitN(tr(lang, "fix.fixed.own.as", "gc-pause-fixed", "X"), ",", 2)[0]; strings.Contains(page, r+",") {
					t.Errorf("page calls it %q", r)
				}
			})
		}
	}
}

// Reader9: redlock-clock-jump's page said, under "how to prevent it", "The
// scenario named as the fix, with this run's faults but without n3's clock
// jump: redlock-no-clock-jump … Tried: … valid". A fixed_by that is the run
// without some of its faults (Fixed.Side "control.without", from the two
// files' data: why.FewerFaults) is no remedy: the page tells it as a
// control, "the same run without …", outside the remedy section.
func TestAFixedByThatOnlyLeavesFaultsOutIsAControlNotARemedy(t *testing.T) {
	lacks := experiments(checker.Valid, checker.Invalid, checker.Valid)
	lacks[2] = why.Counterfactual{Change: why.FixedByOwn, Lacks: []int{1}, Name: "gc-pause-fixed", File: "why/gc-pause-fixed.yaml",
		Verdict: checker.Valid, Reproduce: "locksim run why/gc-pause-fixed.yaml --seed 42"}
	for _, lang := range []Lang{English, Vietnamese} {
		t.Run(string(lang), func(t *testing.T) {
			in := gcPauseInput("local", false)
			in.Lang = lang
			in.FixedBy = &Fixed{Name: "gc-pause-fixed", File: "scenarios/gc-pause-fixed.yaml", Faults: FaultsOwn, Side: "control.without"}
			in.Counterfactuals = lacks
			dir, _ := writeReport(t, in)
			b, _ := os.ReadFile(filepath.Join(dir, IndexFile))
			raw := string(b)
			text := func(s string) string {
				return html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(s, ""))
			}
			step := map[Lang]string{English: "w1's GC pause at t=", Vietnamese: "GC pause của w1 lúc t="}[lang] + instantIn(lang, pauseStart(t, in.History)) + "s"
			want := tr(lang, "fix.control.without.as", "gc-pause-fixed", step)
			i := strings.Index(raw, `id="control"`)
			if i < 0 {
				t.Fatalf("the page has no control paragraph")
			}
			control := raw[i:]
			control = control[:strings.Index(control, "</p>")]
			if !strings.Contains(text(control), want) {
				t.Errorf("the control paragraph %q lacks %q", text(control), want)
			}
			if w := tr(lang, "why.control.valid", "gc-pause-fixed", "locksim run why/gc-pause-fixed.yaml --seed 42"); !strings.Contains(text(control), w) {
				t.Errorf("the control paragraph %q lacks %q", text(control), w)
			}
			if f := strings.Index(raw, `<div id="fix">`); f >= 0 {
				fix := raw[f:]
				fix = fix[:strings.Index(fix, "</div>")]
				if strings.Contains(fix, "gc-pause-fixed") {
					t.Errorf("the remedy section names the control: %q", text(fix))
				}
			}
			if f := strings.Index(raw, `<div id="fix">`); f >= 0 && f < i {
				t.Errorf("the control is told under the remedies")
			}
		})
	}
}

// TestTheHalfExperimentNamesItsFaultWhenTheHeadlineNamedSeveral: "With it
// 6s long" after a sentence that named two faults does not say which
// (teacher 3, F11); the fault is named, with its time only when another
// named fault has the same name.
func TestTheHalfExperimentNamesItsFaultWhenTheHeadlineNamedSeveral(t *testing.T) {
	tests := []struct {
		name         string
		lang         Lang
		other        []string // the second fault's clients
		want, reject string
	}{
		{"another client's pause: the first is named by whose and which", English, []string{"w2"},
			"With w1's GC pause 17.5s long instead of 35s, the same seed is invalid (locksim run why/gc-pause-half-1.yaml --seed 42).", "With it"},
		{"the same in Vietnamese", Vietnamese, []string{"w2"},
			"Khi GC pause của w1 chỉ kéo dài 17,5 s thay vì 35 s, cùng seed đó cho kết quả vi phạm", "Khi lỗi đó"},
		{"the same client's second pause: the first is named with its time", English, []string{"w1"},
			"With w1's GC pause at t=%ss 17.5s long instead of 35s, the same seed is invalid", "With it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := gcPauseInput("local", false)
			var second history.FaultStep
			for _, o := range in.History.Ops {
				if o.Client == history.NemesisClient && o.Value.Fault != nil && o.Value.Fault.ID == 1 {
					second = *o.Value.Fault
				}
			}
			second.ID, second.Clients = 2, tt.other
			in.History.Header.Plan = append(in.History.Header.Plan, second)
			in.Lang = tt.lang
			in.Counterfactuals = append(experiments(checker.Valid, checker.Invalid, checker.Valid),
				why.Counterfactual{Change: why.Without, Step: 2, Name: "gc-pause-without-2", File: "why/gc-pause-without-2.yaml",
					Verdict: checker.Valid, Reproduce: "locksim run why/gc-pause-without-2.yaml --seed 42"})
			got := Headline(in)
			if want := strings.ReplaceAll(tt.want, "%s", instantIn(tt.lang, pauseStart(t, in.History))); !strings.Contains(got, want) {
				t.Errorf("headline %q\nlacks %q", got, want)
			}
			if strings.Contains(got, tt.reject) {
				t.Errorf("headline %q\nsays %q", got, tt.reject)
			}
		})
	}
}

// Issue 27 (readers' findings 4 and 11): an experiment whose run had an
// overlap the checker judged harmless (a fence refused the stale writes)
// showed an empty Anomalies cell, as if nothing had happened. The cell
// names the informational finding as such; a row with neither stays
// empty.
func TestAnExperimentsInformationalOverlapIsNotAnEmptyCell(t *testing.T) {
	tests := []struct {
		name      string
		lang      Lang
		kinds     []string
		info      []string
		want, not string
	}{
		{"a valid run with a harmless overlap says so", English, nil, []string{checker.KindMutexOverlap},
			"no violation; informational: two holders at once (not a safety violation)", ""},
		{"the same in Vietnamese", Vietnamese, nil, []string{checker.KindMutexOverlap},
			"không có vi phạm; chỉ để tham khảo: hai client cùng giữ lock (không phải vi phạm an toàn)", ""},
		{"an invalid run lists its violations, then the informational one", English, []string{checker.KindDoubleEffect}, []string{checker.KindMutexOverlap},
			"charged more than once; informational: two holders at once (not a safety violation)", "no violation"},
		{"a run with neither leaves the cell empty", English, nil, nil, "", "informational"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := gcPauseInput("local", false)
			in.Lang = tt.lang
			cfs := experiments(checker.Valid, checker.Invalid, checker.Valid)
			cfs[0].Kinds, cfs[0].InfoKinds = tt.kinds, tt.info
			in.Counterfactuals = cfs
			m := newModel(in.History, in.Account)
			rows := m.whySection(tt.lang, in, "", runClaims(in, m))
			got := rows[0].Kinds
			if got != tt.want || tt.not != "" && strings.Contains(got, tt.not) {
				t.Errorf("Anomalies cell %q, want %q (and no %q)", got, tt.want, tt.not)
			}
		})
	}
}

// TestAVietnameseFaultIsNamedAsANounWithWhoseItIs: "Nếu không có client
// bị crash của w1 lúc t=…" read as "without the crashed client of w1": a
// Vietnamese fault word is a clause, which "của w1" cannot follow. Every
// fault is named by its own noun phrase (teacher9 F1).
func TestAVietnameseFaultIsNamedAsANounWithWhoseItIs(t *testing.T) {
	step := func(kind string) (st history.FaultStep) {
		defer func() {
			if recover() != nil { // a link fault, or one historytest does not build
				st = history.FaultStep{Kind: kind, Links: []history.Link{{Client: "w1", Node: "n1"}}}
			}
		}()
		return historytest.Step(kind, "w1")
	}
	for _, key := range slices.Sorted(maps.Keys(messages[English])) {
		rest, ok := strings.CutPrefix(key, "fault.")
		if !ok {
			continue
		}
		kind, cause, _ := strings.Cut(rest, ".")
		t.Run(rest, func(t *testing.T) {
			if !hasOwn(Vietnamese, "whose."+rest) {
				t.Errorf("no whose.%s in Vietnamese", rest)
			}
			st := step(kind)
			st.Cause = cause
			said := tr(Vietnamese, "why.without", tr(Vietnamese, "why.fault", faultOf(Vietnamese, st), instant(1)))
			for _, fl := range viFlawsIn(said) {
				t.Errorf("%s in %q", fl, said)
			}
		})
	}
	st := historytest.Step("crash-client", "w1")
	for lang, want := range map[Lang]string{
		English:    "Without w1's client crash at t=0.0s, the same seed is valid.",
		Vietnamese: "Nếu không có lần crash của client w1 lúc t=0,0s, thì cùng seed đó cho kết quả hợp lệ.",
	} {
		if got := tr(lang, "why.without", tr(lang, "why.fault", faultOf(lang, st), instant(0))); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}
