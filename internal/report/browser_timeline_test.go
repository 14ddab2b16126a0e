package report

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/report/chart"
)

// timelineProbe runs in the page once it has loaded (after timeline.js
// laid the SVG out) and writes what it found into the DOM as JSON, for
// --dump-dom: the lanes' names, the message arrows (kind and the lane they
// point to), what the tip says after hovering a lock bar and a write, and
// every resource the page loaded.
const timelineProbe = `<script>
window.addEventListener('load', function () {
  var out = {ready: document.documentElement.getAttribute('data-lsm-ready') === '1', lanes: [], arrows: [], overlaps: [], labels: 0, tips: {}, loaded: [], errors: []};
  window.addEventListener('error', function (e) { out.errors.push(String(e.message || e)); }, true);
  try {
    var fig = document.querySelector('figure.lsm-tl');
    fig.querySelectorAll('.lanes text.lane-name').forEach(function (t) { out.lanes.push(t.textContent); });
    fig.querySelectorAll('svg.lsm-svg .s-msg').forEach(function (a) {
      var k = ['m-cmd', 'm-reply', 'm-lost', 'm-norep'].filter(function (c) { return a.classList.contains(c); })[0] || '';
      var l = +a.getAttribute('data-l'), l2 = a.hasAttribute('data-l2') ? +a.getAttribute('data-l2') : l;
      var lane = fig.querySelector('.lanes rect.lane-bg[data-l="' + l + '"]').getBoundingClientRect(), r = a.querySelector('path:last-child').getBoundingClientRect();
      out.arrows.push({kind: k, from: l, to: l2, drawn: (a.querySelector('path:last-child').getAttribute('d') || '').length > 0,
        inLane: r.top >= lane.top - 1 && r.bottom <= lane.bottom + 1});
    });
    var boxes = [];
    fig.querySelectorAll('svg.plot text[data-x]').forEach(function (t) {
      if (t.getAttribute('visibility') === 'hidden') { return; }
      var r = t.getBoundingClientRect();
      boxes.forEach(function (b) {
        if (r.left < b.r.right - 1 && b.r.left < r.right - 1 && r.top < b.r.bottom - 1 && b.r.top < r.bottom - 1) {
          out.overlaps.push(JSON.stringify(t.textContent) + ' over ' + JSON.stringify(b.text));
        }
      });
      boxes.push({r: r, text: t.textContent});
    });
    out.labels = boxes.length;
    var tip = fig.querySelector('.lsm-tip');
    ['.s-hold', '.s-key', '.m.s-w-ok', '.s-msg.m-lost'].forEach(function (sel) {
      var el = fig.querySelector('svg.lsm-svg ' + sel);
      if (!el) { return; }
      var r = el.getBoundingClientRect();
      el.dispatchEvent(new PointerEvent('pointerover', {bubbles: true, clientX: r.left + 1, clientY: r.top + 1}));
      out.tips[sel] = {shown: !tip.hidden, text: tip.textContent, want: el.getAttribute('data-tip')};
      el.dispatchEvent(new PointerEvent('pointerout', {bubbles: true}));
    });
    var range = fig.querySelector('.lsm-range');
    out.zoom = {before: range.textContent};
    fig.querySelector('button[data-z="in"]').click();
    out.zoom.in = range.textContent;
    fig.querySelector('button[data-z="right"]').click();
    out.zoom.panned = range.textContent;
    fig.querySelector('button[data-z="reset"]').click();
    out.zoom.reset = range.textContent;
    // A two-finger pinch: the fingers 100 px apart move to 300 px apart
    // about the plot's middle.
    var svg = fig.querySelector('svg.lsm-svg'), sr = svg.getBoundingClientRect(), mx = sr.left + 150 + (sr.width - 162) / 2, my = sr.top + 60;
    function touch(type, id, x) { (type === 'pointerdown' ? svg : window).dispatchEvent(new PointerEvent(type, {bubbles: true, pointerId: id, pointerType: 'touch', isPrimary: id === 1, clientX: x, clientY: my, button: 0})); }
    touch('pointerdown', 1, mx - 50); touch('pointerdown', 2, mx + 50);
    touch('pointermove', 1, mx - 150); touch('pointermove', 2, mx + 150);
    out.zoom.pinched = range.textContent;
    touch('pointerup', 1, mx - 150); touch('pointerup', 2, mx + 150);
    fig.querySelector('button[data-z="reset"]').click();
  } catch (e) { out.errors.push(String(e)); }
  performance.getEntriesByType('resource').forEach(function (e) { out.loaded.push(e.name); });
  var d = document.createElement('pre');
  d.id = 'locksim-timeline-probe';
  d.textContent = JSON.stringify(out);
  document.body.appendChild(d);
});
</script>`

type timelineReport struct {
	Ready  bool     `json:"ready"`
	Lanes  []string `json:"lanes"`
	Arrows []struct {
		Kind     string `json:"kind"`
		From, To int
		Drawn    bool `json:"drawn"`
		// InLane: the arrow's path lies within its first lane.
		InLane bool `json:"inLane"`
	} `json:"arrows"`
	Tips map[string]struct {
		Shown bool   `json:"shown"`
		Text  string `json:"text"`
		Want  string `json:"want"`
	} `json:"tips"`
	Loaded   []string `json:"loaded"`
	Errors   []string `json:"errors"`
	Overlaps []string `json:"overlaps"`
	Labels   int      `json:"labels"`
	// Zoom is the range the toolbar shows before and after zooming in,
	// panning right and going back to the whole run.
	Zoom struct {
		Before string `json:"before"`
		In     string `json:"in"`
		Panned string `json:"panned"`
		Reset  string `json:"reset"`
		// Pinched is the range after a two-finger pinch that spreads
		// the fingers three times apart.
		Pinched string `json:"pinched"`
	} `json:"zoom"`
}

// probeTimeline loads page in headless Chromium with timelineProbe and
// returns its findings.
func probeTimeline(t *testing.T, bin, page string) timelineReport {
	t.Helper()
	var r timelineReport
	js := runProbe(t, bin, page, timelineProbe, "locksim-timeline-probe")
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatalf("probe output: %v\n%s", err, js)
	}
	return r
}

// runProbe loads page in headless Chromium with script inserted first in
// its head and returns the text of the <pre id=id> the script appends.
func runProbe(t *testing.T, bin, page, script, id string) string {
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
	probe := filepath.Join(filepath.Dir(page), ".probe-"+id+".html")
	if err := os.WriteFile(probe, []byte(html[:i+6]+script+html[i+6:]), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(probe)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := chromiumCmd(ctx, t, bin, "--window-size=1024,2000", "--dump-dom", "file://"+probe)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	m := regexp.MustCompile(`(?s)<pre id="` + regexp.QuoteMeta(id) + `">(.*?)</pre>`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("the probe never ran:\n%s", stderr.String())
	}
	// --dump-dom writes the text as HTML: only &, <, > and " are escaped.
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`).Replace(string(m[1]))
}

// TestTheTimelineInABrowser opens the report of a partitioned Redlock run
// (redlock-majority-partition, recorded against real redis-server nodes)
// in headless Chromium: the SVG has a lane per client and per node and
// the run's message arrows, hovering shows an operation's whole tip, and
// the page loads nothing but itself and its own images.
func TestTheTimelineInABrowser(t *testing.T) {
	bin := chromium(t)
	in := recorded(t, "redlock-majority-partition")
	m := newModel(in.History, in.Account)
	var cmds, cuts int
	cutTo := map[string]bool{}
	d := drawingOf(t, in)
	for _, s := range d.Shapes {
		if s.Kind != chart.ShMsg {
			continue
		}
		switch s.Sub {
		case chart.MsgCmd:
			cmds++
		case chart.MsgLost:
			cuts++
			cutTo[d.Lanes[s.Lane2].Name] = true
		}
	}
	for _, l := range Languages() {
		dir := t.TempDir()
		in.Lang = l
		if _, err := Write(dir, in); err != nil {
			t.Fatal(err)
		}
		r := probeTimeline(t, bin, filepath.Join(dir, IndexFile))
		lang := string(l)
		t.Run("the "+lang+" page lays the timeline out without a script error", func(t *testing.T) {
			if !r.Ready || len(r.Errors) > 0 {
				t.Errorf("ready %v, errors %v", r.Ready, r.Errors)
			}
		})
		t.Run("the "+lang+" SVG has one lane per client and one per node", func(t *testing.T) {
			for _, c := range m.clients {
				if !slices.Contains(r.Lanes, c) {
					t.Errorf("no lane for client %s in %v", c, r.Lanes)
				}
			}
			for _, n := range m.nodes {
				if !slices.Contains(r.Lanes, tr(l, "p.node", n)) {
					t.Errorf("no lane for node %s in %v", n, r.Lanes)
				}
			}
			if len(r.Lanes) != len(d.Lanes) {
				t.Errorf("%d lanes, want %d (clients, nodes, the resource)", len(r.Lanes), len(d.Lanes))
			}
		})
		t.Run("the "+lang+" SVG draws every command and every cut message of the partition", func(t *testing.T) {
			var gotCmds, gotCuts int
			gotTo := map[string]bool{}
			for _, a := range r.Arrows {
				if !a.Drawn {
					t.Errorf("an arrow with no path: %+v", a)
				}
				switch a.Kind {
				case "m-cmd":
					gotCmds++
				case "m-lost":
					gotCuts++
					gotTo[d.Lanes[a.To].Name] = true
				}
			}
			if gotCmds != cmds || gotCuts != cuts || cuts == 0 {
				t.Errorf("%d commands and %d cut messages drawn, want %d and %d (more than none)", gotCmds, gotCuts, cmds, cuts)
			}
			for _, n := range []string{"n3", "n4", "n5"} {
				if !gotTo[n] {
					t.Errorf("no cut message to %s, the partitioned nodes (cut: %v)", n, gotTo)
				}
			}
			for n := range gotTo {
				if !cutTo[n] {
					t.Errorf("a cut message to %s, which the partition did not cut", n)
				}
			}
		})
		t.Run("the "+lang+" SVG keeps each arrow of a node's lane inside it, cut or not (issue 31)", func(t *testing.T) {
			kept := 0
			for _, a := range r.Arrows {
				if a.From != a.To {
					continue
				}
				kept++
				if !a.InLane {
					t.Errorf("a %s arrow kept on lane %s leaves it", a.Kind, d.Lanes[a.From].Name)
				}
			}
			if kept == 0 {
				t.Error("no arrow is kept on a node's lane")
			}
		})
		t.Run("no label of the "+lang+" SVG overprints another", func(t *testing.T) {
			if r.Labels == 0 {
				t.Errorf("no label shown")
			}
			for _, o := range r.Overlaps {
				t.Errorf("overprint: %s", o)
			}
		})
		t.Run("hovering an operation in the "+lang+" SVG shows its whole tip", func(t *testing.T) {
			for _, sel := range []string{".s-hold", ".s-key", ".m.s-w-ok", ".s-msg.m-lost"} {
				tip, ok := r.Tips[sel]
				switch {
				case !ok:
					t.Errorf("no %s on the page to hover", sel)
				case !tip.Shown || tip.Text == "" || tip.Text != tip.Want:
					t.Errorf("hovering %s: shown %v, tip %q, want %q", sel, tip.Shown, tip.Text, tip.Want)
				}
			}
		})
		t.Run("zooming in, panning and going back in the "+lang+" SVG change the seconds shown", func(t *testing.T) {
			a0, z0 := parseRange(t, lang, r.Zoom.Before)
			a1, z1 := parseRange(t, lang, r.Zoom.In)
			a2, z2 := parseRange(t, lang, r.Zoom.Panned)
			a3, z3 := parseRange(t, lang, r.Zoom.Reset)
			if w0, w1 := z0-a0, z1-a1; w1 > w0*0.6 || w1 < w0*0.4 {
				t.Errorf("zoom in: %s, then %s (want half the span)", r.Zoom.Before, r.Zoom.In)
			}
			if a2 <= a1 || z2-a2 < (z1-a1)*0.99 {
				t.Errorf("pan right: %s, then %s", r.Zoom.In, r.Zoom.Panned)
			}
			if a3 != a0 || z3 != z0 {
				t.Errorf("whole run: %s, want %s", r.Zoom.Reset, r.Zoom.Before)
			}
			a4, z4 := parseRange(t, lang, r.Zoom.Pinched)
			if w0, w4 := z0-a0, z4-a4; w4 > w0*0.4 || w4 < w0*0.25 || a4 <= a0 || z4 >= z0 {
				t.Errorf("pinch out three times: %s, then %s (want a third of the span, about the middle)", r.Zoom.Before, r.Zoom.Pinched)
			}
		})
		t.Run("the "+lang+" page loads no external URL", func(t *testing.T) {
			for _, u := range r.Loaded {
				if !strings.HasPrefix(u, "file://"+dir+"/") && !strings.HasPrefix(u, "data:") {
					t.Errorf("the page loaded %s", u)
				}
			}
			b, _ := os.ReadFile(filepath.Join(dir, IndexFile))
			if ext := regexp.MustCompile(`(?i)\bsrc\s*=\s*["']?(https?:)?//|<link[^>]+href\s*=\s*["']?(https?:)?//|url\(\s*["']?(https?:)?//|@import`).FindAll(b, -1); len(ext) > 0 {
				t.Errorf("index.html refers to external resources: %q", ext)
			}
		})
	}
}

// parseRange reads the toolbar's "t=1.5s – t=9s".
// parseRange reads a figure's range as the page writes it in lang: with a
// decimal comma in Vietnamese, a point in English.
func parseRange(t *testing.T, lang, s string) (float64, float64) {
	t.Helper()
	sign, other := ".", ","
	if lang == string(Vietnamese) {
		sign, other = ",", "."
	}
	if strings.Contains(s, other) {
		t.Errorf("range %q: a %q in %s, whose decimal sign is %q", s, other, lang, sign)
	}
	var a, z float64
	if _, err := fmt.Sscanf(strings.NewReplacer("–", "-", sign, ".").Replace(s), "t=%fs - t=%fs", &a, &z); err != nil {
		t.Fatalf("range %q: %v", s, err)
	}
	return a, z
}
