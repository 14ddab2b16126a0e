package serve

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/locksim/locksim/internal/proctest"
	"github.com/locksim/locksim/internal/report"
)

// problemsScript runs in every page and frame before the page's own
// scripts: it keeps every Content-Security-Policy violation and script
// error, for the test to read.
const problemsScript = `window.__lsmProblems = [];
document.addEventListener('securitypolicyviolation', function (e) { window.__lsmProblems.push('CSP ' + e.violatedDirective + ' blocked ' + e.blockedURI + ' in ' + e.documentURI); });
window.addEventListener('error', function (e) { window.__lsmProblems.push('error: ' + (e.message || e.type) + ' in ' + location.pathname); }, true);`

// browser starts a headless Chromium of its own (a fresh profile, the
// flags the issue names) with a window w×h px, and returns a context whose
// tab is open on about:blank. It stops with the test.
func browser(t *testing.T, w, h int) context.Context {
	t.Helper()
	bin := proctest.Chromium(t)
	profile := t.TempDir()
	// Chromium's TMPDIR, short (its SingletonSocket path must fit a Unix
	// socket's 108 bytes): the org.chromium.Chromium.* files a Chromium
	// stopped with the test leaves go with the test, not into /tmp.
	tmp, err := os.MkdirTemp("", "lsm-chr-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(tmp) })
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile), chromedp.WindowSize(w, h), chromedp.Env("TMPDIR="+tmp))
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), onNewDocument(problemsScript)); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return ctx
}

// onNewDocument runs script in every page and frame the tab opens from
// now on, before the page's own scripts.
func onNewDocument(script string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return err
	})
}

// do runs browser steps with a bound of its own (a loaded machine: long).
func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	if err := chromedp.Do(c, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a script in the page and decodes its value.
func eval[T any](t *testing.T, ctx context.Context, script string) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	v, err := chromedp.Run(c, chromedp.Evaluate[T](script))
	if err != nil {
		t.Fatalf("evaluate %.60q…: %v", script, err)
	}
	return v
}

// waitFor polls a predicate in the page (every 20 ms) for up to limit.
func waitFor(t *testing.T, ctx context.Context, what, predicate string, limit time.Duration) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, limit+10*time.Second)
	defer cancel()
	if _, err := chromedp.Run(c, chromedp.Poll[bool](predicate, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(limit))); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// shot saves a screenshot of the page into $LOCKSIM_SCREENSHOTS, when set
// (what the README's picture and the page reviews are made from).
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("LOCKSIM_SCREENSHOTS")
	if dir == "" {
		return
	}
	b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), b, 0o644); err != nil {
		t.Logf("screenshot %s: %v", name, err)
	}
}

// layoutProbe finds, in the document doc, the text a reader cannot read
// whole at the width shown: a timeline's text cut by the edge of its plot
// or its figure (the violation label's row, the lane names, the tools),
// and a table header whose word the browser broke across two lines.
const layoutProbe = `(function (doc) {
  var out = [];
  doc.querySelectorAll('figure.lsm-tl').forEach(function (fig) {
    var svg = fig.querySelector('svg.lsm-svg'), plot = svg.querySelector('svg.plot');
    var pr = plot.getBoundingClientRect(), sr = svg.getBoundingClientRect(), fr = fig.getBoundingClientRect();
    svg.querySelectorAll('text').forEach(function (t) {
      if (t.getAttribute('visibility') === 'hidden' || !t.textContent.trim()) { return; }
      var r = t.getBoundingClientRect();
      var box = plot.contains(t) ? pr : sr, where = plot.contains(t) ? 'plot' : 'timeline';
      if (r.top < box.top - 0.5) { out.push(where + ' text cut at the top: ' + t.textContent); }
      if (r.bottom > box.bottom + 0.5) { out.push(where + ' text cut at the bottom: ' + t.textContent); }
      if (r.left < box.left - 0.5) { out.push(where + ' text cut at the left: ' + t.textContent); }
      if (r.right > box.right + 0.5) { out.push(where + ' text cut at the right: ' + t.textContent); }
    });
    fig.querySelectorAll('.lsm-tools > *').forEach(function (e) {
      var r = e.getBoundingClientRect();
      if (r.right > fr.right + 0.5 || e.scrollWidth > e.clientWidth + 1) { out.push('timeline tools cut: ' + e.textContent); }
    });
  });
  doc.querySelectorAll('th').forEach(function (th) {
    var walk = doc.createTreeWalker(th, NodeFilter.SHOW_TEXT), n;
    while ((n = walk.nextNode())) {
      var re = /\S+/g, m;
      while ((m = re.exec(n.data))) {
        var rg = doc.createRange();
        rg.setStart(n, m.index); rg.setEnd(n, m.index + m[0].length);
        var tops = {}, rs = rg.getClientRects();
        for (var i = 0; i < rs.length; i++) { tops[Math.round(rs[i].top)] = true; }
        if (Object.keys(tops).length > 1) { out.push('table header word broken across lines: ' + m[0]); }
      }
    }
  });
  return out;
})`

// layoutProblems runs layoutProbe on the page, or on the document of the
// frame with this id.
func layoutProblems(t *testing.T, ctx context.Context, frame string) []string {
	t.Helper()
	doc := "document"
	if frame != "" {
		doc = "document.getElementById(" + jsString(frame) + ").contentDocument"
	}
	return eval[[]string](t, ctx, layoutProbe+"("+doc+")")
}

// pageProblems are the CSP violations and script errors the page (and the
// frame with this id, when given) met.
func pageProblems(t *testing.T, ctx context.Context, frame string) []string {
	t.Helper()
	ps := eval[[]string](t, ctx, `window.__lsmProblems || ['the problems script did not run']`)
	if frame != "" {
		ps = append(ps, eval[[]string](t, ctx, `(document.getElementById(`+jsString(frame)+`).contentWindow.__lsmProblems || ['the problems script did not run in the frame'])`)...)
	}
	return ps
}

func jsString(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

// testServer starts the application on the shipped catalogue, writing
// into a report root of its own, on an httptest listener (127.0.0.1).
func testServer(t *testing.T) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(Options{Catalogue: filepath.Join("..", "..", "scenarios"), Out: t.TempDir(), Lang: report.English, MaxRuns: 2, Version: "test", Logger: slog.New(slog.NewTextHandler(os.Stderr, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		hs.Close()
		s.Close(context.Background())
	})
	return s, hs
}
