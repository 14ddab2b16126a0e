package serve

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/suite"
)

// needRedis fails under CI=true when redis-server is missing (the runs
// would fall back to emulated Redis, which CI must not test instead).
func needRedis(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil && os.Getenv("CI") == "true" {
		t.Fatal("redis-server not on PATH, and CI=true requires it")
	}
}

// pressPauseW1 is the teacher pressing "pause w1" (for 10 s of scenario
// time) at the moment the story first tells w1's grant: the page's own
// button, clicked in the page as soon as that line appears. It is armed
// before the run's page loads, so the moment is chosen by what the class
// sees and not by the test's own latency (the run at its own time scale
// lasts under a second of wall time; w1 is granted at about t=1s and
// charges at about t=40s, and a pause of w1 anywhere between leaves the
// double charge standing: freezes add up).
const pressPauseW1 = `if (location.pathname.indexOf('/run/') === 0) {
  document.addEventListener('DOMContentLoaded', function () {
    var ol = document.getElementById('story'), done = false;
    function press() {
      if (done) { return; }
      var lis = Array.prototype.slice.call(ol.querySelectorAll('li.k-acquire'));
      var b = document.getElementById('f-pause-w1');
      if (!lis.some(function (li) { return /\bw1\b/.test(li.textContent); }) || b.disabled) { return; }
      done = true;
      document.getElementById('f-seconds').value = '10';
      b.click();
      window.__pressed = document.getElementById('now').textContent;
    }
    new MutationObserver(press).observe(ol, {childList: true});
  });
}`

// reportFacts reads what the run's report (in the frame) shows.
const reportFacts = `(function () {
  var d = document.getElementById('report').contentDocument, q = function (s) { return Array.prototype.slice.call(d.querySelectorAll(s)); };
  return {
    verdict: d.querySelector('#verdict .word').textContent.trim(),
    pauseTips: q('svg.lsm-svg .s-pause').map(function (e) { return e.getAttribute('data-tip') || ''; }),
    violatingWrites: q('svg.lsm-svg .s-w-bad').length,
    bandLabels: q('svg.lsm-svg text.lb-bad').map(function (e) { return e.textContent; }),
    story: q('#story li').map(function (e) { return e.textContent; })
  };
})()`

type facts struct {
	Verdict         string   `json:"verdict"`
	PauseTips       []string `json:"pauseTips"`
	ViolatingWrites int      `json:"violatingWrites"`
	BandLabels      []string `json:"bandLabels"`
	Story           []string `json:"story"`
}

// TestTheClassroomInARealBrowser drives the application in headless
// Chromium as a teacher would: the catalogue, gc-pause started at its
// own time scale, "pause w1" pressed while it runs, the verdict, the
// timeline showing the pause fired by hand and the double charge, "Save
// as scenario", and the saved file replayed to the same verdict; then the
// pages' layout at 1024 px, the static report's included.
func TestTheClassroomInARealBrowser(t *testing.T) {
	needRedis(t)
	s, hs := testServer(t)
	ctx := browser(t, 1400, 1000)

	do(t, ctx, "arm pause w1 on the run pages", onNewDocument(pressPauseW1))
	var run *liveRun
	var pressed string
	for attempt := 1; ; attempt++ {
		do(t, ctx, "open the catalogue", chromedp.Navigate(hs.URL+"/"),
			chromedp.WaitVisible(chromedp.CSS(`article[data-scenario="catalogue/gc-pause.yaml"] button.go`)))
		shot(t, ctx, "catalogue-1400")
		do(t, ctx, "start gc-pause at its own time scale",
			chromedp.SetValue(chromedp.CSS(`article[data-scenario="catalogue/gc-pause.yaml"] select[name=pace]`), "own"),
			chromedp.Click(chromedp.CSS(`article[data-scenario="catalogue/gc-pause.yaml"] button.go`)),
			chromedp.WaitReady(chromedp.ID("story")))
		waitFor(t, ctx, "the run's verdict and its report", `(function () {
			var f = document.getElementById('report'), d = f && f.contentDocument;
			return document.getElementById('run').dataset.state === 'done' && !!d && !!d.getElementById('verdict') && d.documentElement.getAttribute('data-lsm-ready') === '1';
		})()`, 2*time.Minute)
		pressed = eval[string](t, ctx, `window.__pressed || ''`)
		fired, refused := eval[string](t, ctx, `document.getElementById('fired').textContent`), eval[string](t, ctx, `document.getElementById('fault-msg').textContent`)
		t.Logf("attempt %d: pause w1 pressed at %q of scenario time as the page showed it; fired: %s %s", attempt, pressed, fired, refused)
		run = lastRun(t, s)
		// At its own time scale gc-pause's workload lasts about 0.8 s of
		// wall time: on a machine too busy for the page's press to reach
		// the server within it, the run (rightly) refuses the fault as
		// late; that proves nothing of the application, so the class
		// runs the scenario again. So does a run the machine spoiled
		// (results.json spoiled: a loaded make test's run, its press fired
		// 0.44 s of wall time late, came out unknown, as it should).
		if run.firedByHand() && readResults(t, run.dir).Spoiled == "" || attempt == maxAttempts {
			break
		}
		if run.firedByHand() {
			continue
		}
		if !strings.Contains(refused, "not going") && pressed != "" {
			t.Fatalf("the press was refused for another reason than the run's end: %s", refused)
		}
	}
	shot(t, ctx, "report-1400")
	if r := readResults(t, run.dir); run.firedByHand() && r.Spoiled != "" {
		// Every try was spoiled by the machine, rightly unknown: nothing
		// of the application is shown either way.
		t.Skipf("the machine spoiled all %d runs (the last: %s); run it on a quieter machine", maxAttempts, r.SpoiledWhy)
	}

	var res report.Results
	t.Run("the fault fired by hand is in the history, as a nemesis operation with the trigger manual", func(t *testing.T) {
		if pressed == "" {
			t.Fatal("the page never pressed pause w1 (no grant of w1 told, or the button stayed disabled)")
		}
		h, err := history.ReadFile(filepath.Join(run.dir, "history.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		var manual []history.Op
		for _, op := range h.Faults() {
			if op.Value.Fault.Trigger.Kind == history.TriggerManual {
				manual = append(manual, op)
			}
		}
		if len(manual) != 1 || manual[0].Process != history.NemesisProcess || manual[0].Type != history.OK ||
			manual[0].Value.Fault.Effect != history.EffectFreezeClient || !slices.Equal(manual[0].Value.Fault.Clients, []string{"w1"}) {
			t.Fatalf("manual fault operations %+v; want one ok freeze of w1 by the nemesis", manual)
		}
		if d := time.Duration(float64(manual[0].Value.Fault.Duration) * h.Header.TimeScale); d != 10*time.Second {
			t.Errorf("the pause lasted %v of scenario time as recorded; want the 10s asked for", d)
		}
		if !slices.ContainsFunc(h.Header.Plan, func(st history.FaultStep) bool { return st.Trigger.Kind == history.TriggerManual }) {
			t.Errorf("the header's plan %+v has no step fired by hand", h.Header.Plan)
		}
		res = readResults(t, run.dir)
	})
	t.Run("the report shows the verdict, the pause fired by hand and the double charge", func(t *testing.T) {
		f := eval[facts](t, ctx, reportFacts)
		if f.Verdict != report.VerdictWord(report.English, checker.Invalid) || res.Verdict != checker.Invalid {
			t.Errorf("verdict %q (results %q), want INVALID", f.Verdict, res.Verdict)
		}
		if !slices.ContainsFunc(f.PauseTips, func(tip string) bool { return strings.Contains(tip, "fired by hand") && strings.Contains(tip, "w1") }) {
			t.Errorf("pause marks' tips %q: none tells w1's pause fired by hand", f.PauseTips)
		}
		if len(f.PauseTips) < 2 {
			t.Errorf("%d pause marks, want the scenario's own and the one fired by hand", len(f.PauseTips))
		}
		if f.ViolatingWrites < 1 || !slices.ContainsFunc(f.BandLabels, func(l string) bool { return strings.Contains(l, "charged more than once") }) {
			t.Errorf("violating writes %d, band labels %q: want the second charge marked and the violation band naming the double charge", f.ViolatingWrites, f.BandLabels)
		}
		if !slices.ContainsFunc(res.Anomalies, func(a checker.Anomaly) bool { return a.Kind == checker.KindDoubleEffect && !a.Informational }) {
			t.Errorf("anomalies %+v: want a double-effect", res.Anomalies)
		}
	})
	t.Run("Save as scenario writes a file that replays to the same verdict", func(t *testing.T) {
		do(t, ctx, "save", chromedp.Click(chromedp.ID("save")), chromedp.WaitVisible(chromedp.ID("saved")))
		path := filepath.Join(run.dir, SavedFile)
		if got := eval[string](t, ctx, `document.getElementById('saved').textContent`); !strings.Contains(got, path) {
			t.Errorf("the page says %q; want the path %s", got, path)
		}
		sc, err := scenario.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(sc.Faults, func(f scenario.Fault) bool { return f.Kind == "pause" && f.When.Kind == history.TriggerAt }) {
			t.Errorf("saved faults %+v: want the pause fired by hand as a pause at a time", sc.Faults)
		}
		out := replay(t, sc)
		if out.Results == nil || out.Results.Verdict != res.Verdict || !out.Passed() {
			t.Fatalf("replayed: %+v; want verdict %s with the same kinds (expectation met)", out.Result(), res.Verdict)
		}
	})
	t.Run("no page or frame met a Content-Security-Policy violation or a script error", func(t *testing.T) {
		if ps := pageProblems(t, ctx, "report"); len(ps) > 0 {
			t.Errorf("problems: %q", ps)
		}
	})
	t.Run("at 1024 px the report shows no cut text in its timeline and no table header broken mid-word", func(t *testing.T) {
		do(t, ctx, "narrow the window", chromedp.EmulateViewport(1024, 900))
		waitFor(t, ctx, "the report laid out again", `document.getElementById('report').contentDocument.querySelector('figure.lsm-tl svg.lsm-svg').getBoundingClientRect().width < 1000`, time.Minute)
		time.Sleep(200 * time.Millisecond) // the layout follows a resize on the next frame
		shot(t, ctx, "report-1024")
		if ps := layoutProblems(t, ctx, "report"); len(ps) > 0 {
			t.Errorf("at 1024 px: %q", ps)
		}
	})
}

// maxAttempts bounds the runs TestTheClassroomInARealBrowser starts to
// get a press that lands while the workload goes.
const maxAttempts = 5

// lastRun is the server's newest run.
func lastRun(t *testing.T, s *Server) *liveRun {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.order) == 0 {
		t.Fatal("no run")
	}
	return s.runs[s.order[len(s.order)-1]]
}

// firedByHand reports whether a fault fired by hand took effect in r.
func (r *liveRun) firedByHand() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, f := range r.fired {
		if f.Error == "" {
			return true
		}
	}
	return false
}

func readResults(t *testing.T, dir string) report.Results {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res report.Results
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// replay runs a scenario file once, as `locksim run` would.
func replay(t *testing.T, sc scenario.Scenario) suite.Outcome {
	t.Helper()
	// A replay the machine spoiled runs again, as `locksim run` does by
	// default (a loaded make test's replay came out unknown beside an
	// invalid live run).
	o := suite.Options{Out: t.TempDir(), Version: "test", RetryUnknown: 2}
	outs := suite.Run(context.Background(), suite.Plan([]scenario.Scenario{sc}, o), o)
	if len(outs) != 1 {
		t.Fatalf("%d outcomes", len(outs))
	}
	return outs[0]
}
