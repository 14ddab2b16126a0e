package report

import (
	"fmt"
	"html"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/report/chart"
)

// svgMark is one mark (a shape or a label in the plot) of a rendered SVG
// timeline, read back from its attributes.
type svgMark struct {
	kind   string // the shape's kind (s-<kind>), or "label:<style>"
	x0, x1 float64
	claims []string
	text   string
}

var (
	svgShapeRe = regexp.MustCompile(`<(?:g|rect|line) class="(?:m )?s s-([a-z-]+)[^"]*" ([^>]*)>`)
	svgLabelRe = regexp.MustCompile(`<text class="(lb[a-z-]*)" ([^>]*)>([^<]*)</text>`)
	svgAttrRe  = regexp.MustCompile(`([a-z0-9-]+)="([^"]*)"`)
)

// svgMarks reads every mark of a rendered SVG timeline: its shapes and the
// words placed in its plot (not the lanes' names, the ticks or the legend).
func svgMarks(svg string) []svgMark {
	attrs := func(s string) map[string]string {
		out := map[string]string{}
		for _, m := range svgAttrRe.FindAllStringSubmatch(s, -1) {
			out[m[1]] = html.UnescapeString(m[2])
		}
		return out
	}
	read := func(kind string, a map[string]string, xk string) svgMark {
		x0, _ := strconv.ParseFloat(a[xk], 64)
		x1 := x0
		if v, ok := a["data-x1"]; ok {
			x1, _ = strconv.ParseFloat(v, 64)
		}
		return svgMark{kind: kind, x0: x0, x1: x1, claims: strings.Fields(a["data-claim"])}
	}
	var out []svgMark
	for _, m := range svgShapeRe.FindAllStringSubmatch(svg, -1) {
		if a := attrs(m[2]); a["data-x0"] != "" { // not a legend's swatch
			out = append(out, read(m[1], a, "data-x0"))
		}
	}
	for _, m := range svgLabelRe.FindAllStringSubmatch(svg, -1) {
		mk := read("label:"+m[1], attrs(m[2]), "data-x")
		mk.text = html.UnescapeString(m[3])
		out = append(out, mk)
	}
	return out
}

// TestEveryTimelineMarkNamesATrueClaimOfItsSpan renders the page's SVG
// timeline of every run of the accuracy corpus, as index.html has it, and
// reads back each mark (shape or words in the plot): each must carry a
// data-claim naming claims the run makes (results.json's claims), and
// the mark's time span must lie within the span of the claims it names
// (less the room a renderer gives a mark too short to see).
func TestEveryTimelineMarkNamesATrueClaimOfItsSpan(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "accuracy", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	total, named := map[string]int{}, map[string]int{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		t.Run(name+": every mark names a claim of its span", func(t *testing.T) {
			in, m, _, d, byID := markedRun(t, f)
			d = d.Windowed(chart.MaxSVGShapes, focusOf(in, m))
			// A mark too short to see is drawn wider (a band by 1% of
			// the run, the others by under 0.5%); data attributes keep
			// µs.
			runEnd := m.sec(m.end)
			var bad []string
			for _, mk := range svgMarks(chart.RenderSVG(d, chart.SVGOptions{})) {
				total[mk.kind]++
				if len(mk.claims) == 0 {
					bad = append(bad, fmt.Sprintf("a %s mark at %.3f s %q names no claim", mk.kind, mk.x0, mk.text))
					continue
				}
				lo, hi := 1e18, -1e18
				known := true
				for _, id := range mk.claims {
					c, ok := byID[id]
					if !ok {
						bad = append(bad, fmt.Sprintf("a %s mark at %.3f s names %q, a claim the run does not make", mk.kind, mk.x0, id))
						known = false
						continue
					}
					lo, hi = min(lo, m.sec(c.Start)), max(hi, m.sec(c.End))
				}
				if !known {
					continue
				}
				named[mk.kind]++
				slack := runEnd*0.006 + 1e-5
				if mk.kind == chart.ShBand {
					slack = runEnd*0.011 + 1e-5
				}
				if mk.x0 < lo-slack || mk.x1 > hi+slack {
					bad = append(bad, fmt.Sprintf("a %s mark %q over [%.4f, %.4f] s names %v, over [%.4f, %.4f] s", mk.kind, mk.text, mk.x0, mk.x1, mk.claims, lo, hi))
				}
			}
			for i, b := range bad {
				if i == 20 {
					t.Errorf("… and %d more", len(bad)-20)
					break
				}
				t.Error(b)
			}
		})
	}
	var kinds []string
	for k := range total {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		t.Logf("%-12s %d of %d marks name a claim", k, named[k], total[k])
	}
}
