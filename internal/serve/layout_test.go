package serve

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// noOverflow is a page wider than the window: a reader would scroll
// sideways.
const noOverflow = `document.documentElement.scrollWidth <= window.innerWidth + 1`

// TestThePagesAt1024px opens every kind of page in a 1024 px wide window —
// the catalogue, a live run while its timeline grows, predict-then-reveal,
// the past runs, and the static report in English and in Vietnamese,
// opened from its file as a CI archive holds it — and fails on text cut
// off in a timeline, a table header broken mid-word, a page wider than
// the window, a Content-Security-Policy violation or a script error.
func TestThePagesAt1024px(t *testing.T) {
	needRedis(t)
	s, hs := testServer(t)
	ctx := browser(t, 1024, 900)
	check := func(t *testing.T, what, frame string) {
		t.Helper()
		if ps := layoutProblems(t, ctx, frame); len(ps) > 0 {
			t.Errorf("%s: %q", what, ps)
		}
		if !eval[bool](t, ctx, noOverflow) {
			t.Errorf("%s: the page is wider than the window (%d px)", what, eval[int](t, ctx, `document.documentElement.scrollWidth`))
		}
	}
	t.Run("the catalogue", func(t *testing.T) {
		do(t, ctx, "open", chromedp.Navigate(hs.URL+"/?lang=en"), chromedp.WaitVisible(chromedp.CSS("article.scn")))
		shot(t, ctx, "catalogue-1024")
		check(t, "catalogue", "")
	})
	t.Run("a live run's page while its timeline grows, then stopped", func(t *testing.T) {
		do(t, ctx, "start gc-pause in real time",
			chromedp.SetValue(chromedp.CSS(`article[data-scenario="catalogue/gc-pause.yaml"] select[name=pace]`), "1"),
			chromedp.Click(chromedp.CSS(`article[data-scenario="catalogue/gc-pause.yaml"] button.go`)),
			chromedp.WaitReady(chromedp.ID("story")))
		waitFor(t, ctx, "a timeline with w2 refused at least once", `(function () {
			var fig = document.querySelector('#timeline figure.lsm-tl');
			return !!fig && fig.querySelectorAll('.s-try').length > 0 && document.querySelectorAll('#story li').length >= 3;
		})()`, 2*time.Minute)
		time.Sleep(300 * time.Millisecond)
		shot(t, ctx, "live-1024")
		check(t, "live page", "")
		do(t, ctx, "stop", chromedp.Click(chromedp.ID("stop")))
		waitFor(t, ctx, "the run to end", `['done', 'failed'].indexOf(document.getElementById('run').dataset.state) >= 0`, 2*time.Minute)
	})
	t.Run("predict, then reveal: the class's hands stay in the page beside the run's answer", func(t *testing.T) {
		do(t, ctx, "ask the class first",
			chromedp.Navigate(hs.URL+"/"),
			chromedp.WaitVisible(chromedp.CSS(`article[data-scenario="catalogue/gc-pause.yaml"] button.go`)),
			chromedp.Click(chromedp.CSS(`article[data-scenario="catalogue/gc-pause.yaml"] input[name=predict]`)),
			chromedp.Click(chromedp.CSS(`article[data-scenario="catalogue/gc-pause.yaml"] button.go`)),
			chromedp.WaitVisible(chromedp.ID("question")))
		if q := eval[string](t, ctx, `document.getElementById('question').textContent`); q != "Will the invoice be charged twice?" {
			t.Errorf("question %q", q)
		}
		if st := eval[string](t, ctx, `document.getElementById('run').dataset.state`); st != stWaiting {
			t.Fatalf("state %s before the reveal; want waiting (nothing started)", st)
		}
		do(t, ctx, "count the hands", chromedp.SendKeys(chromedp.ID("hands-yes"), "12"), chromedp.SendKeys(chromedp.ID("hands-no"), "5"),
			chromedp.SendKeys(chromedp.ID("hands-depends"), "3"))
		shot(t, ctx, "predict-1024")
		check(t, "predict page", "")
		do(t, ctx, "reveal", chromedp.Click(chromedp.ID("reveal")))
		waitFor(t, ctx, "the answer", `!document.getElementById('verdict-answer').hidden`, 2*time.Minute)
		said := eval[string](t, ctx, `document.getElementById('class-said').textContent`)
		answer := eval[string](t, ctx, `document.getElementById('answer').textContent`)
		if said != "The class said: yes 12, no 5, it depends 3." || answer != "This run (seed 42) answers: yes." {
			t.Errorf("class %q, answer %q", said, answer)
		}
		waitFor(t, ctx, "the report", `(function () { var d = document.getElementById('report').contentDocument; return !!d && !!d.documentElement && d.documentElement.getAttribute('data-lsm-ready') === '1'; })()`, time.Minute)
		shot(t, ctx, "reveal-1024")
		check(t, "revealed report", "report")
		if ps := pageProblems(t, ctx, "report"); len(ps) > 0 {
			t.Errorf("problems: %q", ps)
		}
	})
	past := s.pastRuns(true)
	t.Run("the past runs, filtered by lesson", func(t *testing.T) {
		do(t, ctx, "open", chromedp.Navigate(hs.URL+"/past?lesson=44&verdict=invalid"), chromedp.WaitVisible(chromedp.ID("past-runs")))
		rows := eval[int](t, ctx, `document.querySelectorAll('#past-runs tbody tr').length`)
		want := 0
		for _, p := range past {
			if p.Verdict == "invalid" {
				want++
			}
		}
		if rows != want || want == 0 {
			t.Errorf("%d rows, want the %d invalid runs of lesson 44", rows, want)
		}
		shot(t, ctx, "past-1024")
		check(t, "past runs", "")
	})
	for _, lang := range []string{"en", "vi"} {
		t.Run("the static report in "+lang+", opened from its file", func(t *testing.T) {
			var dir string
			for _, p := range past {
				if p.Verdict == "invalid" {
					dir = p.Dir
				}
			}
			if dir == "" {
				t.Fatal("no invalid run's report")
			}
			if lang != "en" {
				p, _ := s.report(s.relOf(dir))
				var err error
				if dir, err = s.rendered(t.Context(), p, "vi"); err != nil {
					t.Fatal(err)
				}
			}
			do(t, ctx, "open the file", chromedp.Navigate("file://"+filepath.Join(dir, "index.html")),
				chromedp.WaitReady(chromedp.CSS("html[data-lsm-ready]")))
			time.Sleep(200 * time.Millisecond)
			shot(t, ctx, "static-"+lang+"-1024")
			check(t, "static report ("+lang+")", "")
			if lang == "vi" && !strings.Contains(eval[string](t, ctx, `document.documentElement.lang`), "vi") {
				t.Error("the Vietnamese report is not in Vietnamese")
			}
		})
	}
}
