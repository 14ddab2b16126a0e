package report

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/proctest"
)

// probeScript records, into the DOM, every window error, console.error and
// failed resource load, and after load every <img> whose naturalWidth is 0,
// so --dump-dom can read them back. Lazy images are made eager first.
const probeScript = `<script>
(function () {
  var errs = [];
  window.addEventListener('error', function (e) {
    var t = e.target;
    if (t && t !== window && (t.src || t.href)) { errs.push('failed to load ' + (t.src || t.href)); }
    else { errs.push('error: ' + (e.message || e)); }
  }, true);
  var ce = console.error;
  console.error = function () { errs.push('console.error: ' + Array.prototype.join.call(arguments, ' ')); ce.apply(console, arguments); };
  // Lazy-loaded thumbnails below the fold would never load in a headless
  // render: make every image eager, so load waits for all of them.
  document.addEventListener('DOMContentLoaded', function () {
    for (var i = 0; i < document.images.length; i++) { document.images[i].loading = 'eager'; }
  });
  window.addEventListener('load', function () {
    var imgs = document.images;
    for (var i = 0; i < imgs.length; i++) {
      if (!imgs[i].complete || imgs[i].naturalWidth === 0) { errs.push('missing image ' + imgs[i].getAttribute('src')); }
    }
    var d = document.createElement('pre');
    d.id = 'locksim-probe';
    d.textContent = 'IMAGES=' + imgs.length + '\n' + errs.join('\n');
    document.body.appendChild(d);
  });
})();
</script>`

// chromium returns the headless browser's path; without one the test is
// skipped, except in CI (CI=true), where it fails.
func chromium(t *testing.T) string { return proctest.Chromium(t) }

func chromiumArgs(profile string, extra ...string) []string {
	return append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
		"--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000"}, extra...)
}

// chromiumCmd is Chromium on a fresh profile in a test's temporary
// directory, with a TMPDIR of the test's own: the org.chromium.Chromium.*
// files a Chromium leaves behind go with the test, not into /tmp. The
// TMPDIR is short (its SingletonSocket path must fit a Unix socket's 108
// bytes, which a test's TempDir named after a long subtest does not).
func chromiumCmd(ctx context.Context, t *testing.T, bin string, extra ...string) *exec.Cmd {
	t.Helper()
	tmp, err := os.MkdirTemp("", "lsm-chr-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(tmp) })
	cmd := exec.CommandContext(ctx, bin, chromiumArgs(t.TempDir(), extra...)...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	return cmd
}

var consoleErrRE = regexp.MustCompile(`(?m)^.*(CONSOLE|console).*(Uncaught|Error|error).*$`)

// render loads page (with the probe injected into a copy next to it) and
// returns the probe's findings and the browser's console error lines.
func render(t *testing.T, bin, page string) (images int, problems []string) {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	i := strings.Index(html, "<head>")
	if i < 0 {
		t.Fatalf("%s has no <head>", page)
	}
	probe := filepath.Join(filepath.Dir(page), ".probe-"+filepath.Base(page))
	if err := os.WriteFile(probe, []byte(html[:i+6]+probeScript+html[i+6:]), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(probe)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := chromiumCmd(ctx, t, bin, "--dump-dom", "file://"+probe)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	dom := string(out)
	j := strings.Index(dom, `id="locksim-probe">`)
	if j < 0 {
		t.Fatalf("the probe never ran (page did not finish loading?):\n%s", stderr.String())
	}
	rep := dom[j+len(`id="locksim-probe">`):]
	rep = rep[:strings.Index(rep, "</pre>")]
	lines := strings.Split(strings.TrimSpace(rep), "\n")
	if n, ok := strings.CutPrefix(lines[0], "IMAGES="); ok {
		for _, c := range n {
			images = images*10 + int(c-'0')
		}
	}
	for _, l := range lines[1:] {
		if l = strings.TrimSpace(l); l != "" {
			problems = append(problems, l)
		}
	}
	for _, l := range consoleErrRE.FindAllString(stderr.String(), -1) {
		problems = append(problems, "console: "+l)
	}
	return images, problems
}

// TestBrowser renders the report pages in headless Chromium and fails on
// console errors, failed loads and images that do not display.
func TestBrowser(t *testing.T) {
	bin := chromium(t)
	out := t.TempDir()
	if d := os.Getenv("LOCKSIM_REPORT_KEEP"); d != "" {
		out = d
	}
	var runs []Results
	type page struct {
		name, path string
		images     int
	}
	var pages []page
	// Each render starts a Chromium: the three course stories in every
	// language, one history.html and the suite page keep the test under a
	// minute; the workload stories are covered by the golden and PNG tests.
	for i, c := range shipped() {
		if i >= 3 {
			break
		}
		for _, l := range Languages() {
			lang := string(l)
			in := c.in
			in.Lang = l
			in.Lessons = []int{44}
			in.KeepDrawing = true
			in.Porcupine = porcupineView(in.History)
			dir := filepath.Join(out, c.name+"-"+lang)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			res, err := Write(dir, in)
			if err != nil {
				t.Fatal(err)
			}
			if lang == "en" {
				// gc-pause is fixed by gc-pause-fencing: the lesson page
				// draws the two on one time axis.
				res.File = c.name + ".yaml"
				if c.name == "gc-pause" {
					res.FixedBy = "gc-pause-fencing.yaml"
				}
				runs = append(runs, res)
			}
			pages = append(pages, page{c.name + " (" + lang + ") index.html", filepath.Join(dir, IndexFile), 2})
			if i == 0 && lang == "en" {
				pages = append(pages, page{c.name + " (" + lang + ") history.html", filepath.Join(dir, HistoryFile), 0})
			}
		}
	}
	if err := WriteSuite(out, runs, "en"); err != nil {
		t.Fatal(err)
	}
	pages = append(pages, page{"the suite page", filepath.Join(out, IndexFile), len(runs)},
		// The lesson page draws the pair as SVG timelines: only the third
		// run keeps its thumbnail.
		page{"the suite's lesson page", filepath.Join(out, LessonFile(44)), len(runs) - 2},
		page{"the suite's requirements page", filepath.Join(out, RequirementsFile), 0})
	for _, p := range pages {
		t.Run(p.name+" renders without errors and shows every image", func(t *testing.T) {
			n, problems := render(t, bin, p.path)
			for _, pr := range problems {
				t.Error(pr)
			}
			if n < p.images {
				t.Errorf("%d images on the page, want at least %d", n, p.images)
			}
		})
	}
	t.Run("the lesson page's broken and fixed timelines share one time axis as they zoom and pan", func(t *testing.T) {
		js := runProbe(t, bin, filepath.Join(out, LessonFile(44)), syncProbe, "sync-probe")
		var r struct {
			Groups []string   `json:"groups"`
			Steps  [][]string `json:"steps"`
			Errors []string   `json:"errors"`
		}
		if err := json.Unmarshal([]byte(js), &r); err != nil {
			t.Fatalf("probe output: %v\n%s", err, js)
		}
		if len(r.Errors) > 0 {
			t.Fatalf("script errors: %v", r.Errors)
		}
		if len(r.Groups) != 2 || r.Groups[0] == "" || r.Groups[0] != r.Groups[1] {
			t.Fatalf("timelines in sync groups %q, want the pair's two in one", r.Groups)
		}
		var seen []string
		for i, st := range r.Steps {
			if len(st) != 2 || st[0] == "" || st[0] != st[1] {
				t.Errorf("after step %d the two timelines show %q, want one range", i, st)
			}
			if len(st) > 0 {
				seen = append(seen, st[0])
			}
		}
		if len(seen) != 3 || seen[0] == seen[1] || seen[1] == seen[2] {
			t.Errorf("ranges %q: zooming the broken run and panning the fixed one should each change the shared range", seen)
		}
	})
	t.Run("a missing image is detected", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "p.html"), []byte(`<!DOCTYPE html><html><head><title>x</title></head><body><img src="nope.png"></body></html>`), 0o644)
		_, problems := render(t, bin, filepath.Join(dir, "p.html"))
		if !strings.Contains(strings.Join(problems, "\n"), "nope.png") {
			t.Errorf("probe did not report the missing image: %v", problems)
		}
	})
	t.Run("a script error is detected", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "p.html"), []byte(`<!DOCTYPE html><html><head><title>x</title></head><body><script>undefinedFn()</script></body></html>`), 0o644)
		_, problems := render(t, bin, filepath.Join(dir, "p.html"))
		if len(problems) == 0 {
			t.Errorf("probe did not report the script error")
		}
	})
}

// syncProbe zooms the first timeline of a lesson page, then pans the
// second, and records after each step the range every timeline shows.
const syncProbe = `<script>
window.addEventListener('load', function () {
  var out = {groups: [], steps: [], errors: []};
  try {
    var figs = document.querySelectorAll('figure.lsm-tl');
    figs.forEach(function (f) { out.groups.push(f.getAttribute('data-sync') || ''); });
    function ranges() { var r = []; figs.forEach(function (f) { r.push(f.querySelector('.lsm-range').textContent); }); out.steps.push(r); }
    ranges();
    figs[0].querySelector('button[data-z="in"]').click(); ranges();
    figs[1].querySelector('button[data-z="right"]').click(); ranges();
  } catch (e) { out.errors.push(String(e)); }
  var d = document.createElement('pre');
  d.id = 'sync-probe';
  d.textContent = JSON.stringify(out);
  document.body.appendChild(d);
});
</script>`

// stepProbe drives the classroom step-through from the keyboard and
// records, after each key, how many story steps are shown and the text of
// the last one shown.
const stepProbe = `<script>
window.addEventListener('load', function () {
  var out = [], items = document.querySelectorAll('#story > li:not(.next)');
  function shown() {
    var n = 0, last = '';
    for (var i = 0; i < items.length; i++) {
      if (getComputedStyle(items[i]).display !== 'none') { n++; last = items[i].textContent; }
    }
    return n + '|' + last;
  }
  function key(k) { document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true})); out.push(k + '=' + shown()); }
  out.push('before=' + shown());
  document.getElementById('step-toggle').click();
  out.push('toggle=' + shown());
  key('ArrowRight'); key(' '); key('ArrowLeft'); key('End'); key('Escape');
  var d = document.createElement('pre');
  d.id = 'step-probe';
  d.textContent = out.join('\n');
  document.body.appendChild(d);
});
</script>`

func TestClassroomStepThroughRevealsTheStoryInOrder(t *testing.T) {
	bin := chromium(t)
	in := gcPauseInput("local", false)
	dir, _ := writeReport(t, in)
	page := filepath.Join(dir, IndexFile)
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(dir, ".step-"+IndexFile)
	html := strings.Replace(string(b), "</body>", stepProbe+"</body>", 1)
	if err := os.WriteFile(probe, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := chromiumCmd(ctx, t, bin, "--dump-dom", "file://"+probe).Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	dom := string(out)
	i := strings.Index(dom, `id="step-probe">`)
	if i < 0 {
		t.Fatal("the step probe never ran")
	}
	rep := dom[i+len(`id="step-probe">`):]
	rep = rep[:strings.Index(rep, "</pre>")]
	got := map[string]string{}
	for _, l := range strings.Split(rep, "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			got[k] = v
		}
	}
	steps := Narrative(in)
	count := func(k string) string { n, _, _ := strings.Cut(got[k], "|"); return n }
	last := func(k string) string { _, s, _ := strings.Cut(got[k], "|"); return s }
	all := strconv.Itoa(len(steps))
	for _, tt := range []struct{ name, key, want string }{
		{"the whole story shows before the mode is on", "before", all},
		{"turning the mode on hides every step", "toggle", "0"},
		{"→ reveals the first step", "ArrowRight", "1"},
		{"space reveals the second", " ", "2"},
		{"← hides it again", "ArrowLeft", "1"},
		{"End reveals all", "End", all},
		{"Esc leaves the mode with the story whole", "Escape", all},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if c := count(tt.key); c != tt.want {
				t.Errorf("%s steps shown after %q, want %s (probe: %q)", c, tt.key, tt.want, rep)
			}
		})
	}
	t.Run("the first step revealed is the story's first", func(t *testing.T) {
		if !strings.Contains(last("ArrowRight"), steps[0].Text) {
			t.Errorf("first revealed %q, want the step %q", last("ArrowRight"), steps[0].Text)
		}
	})
}
