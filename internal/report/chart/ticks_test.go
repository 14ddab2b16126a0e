package chart

import (
	"regexp"
	"strings"
	"testing"
)

// TestTheAxisWritesTheDrawingsDecimalSign: the axis numbers of the SVG
// (and so of timeline.js, told by data-comma) and of the PNG's ticker use
// the decimal sign of the drawing's language.
func TestTheAxisWritesTheDrawingsDecimalSign(t *testing.T) {
	tick := regexp.MustCompile(`<g class="tick">.*?<text[^>]*>([^<]*)</text>`)
	for _, tt := range []struct {
		comma     bool
		want, not string
		commaAttr bool
	}{{false, ".", ",", false}, {true, ",", ".", true}} {
		name := "a point"
		if tt.comma {
			name = "a comma"
		}
		t.Run("a drawing whose language writes "+name+" has "+name+" on its axis", func(t *testing.T) {
			d := &Drawing{Say: func(k string, _ ...any) string { return k }, Comma: tt.comma, Start: 0, End: 2.4,
				Lanes: []Lane{{Kind: LaneClient, Name: "w1", Label: "w1"}}}
			svg := RenderSVG(d, SVGOptions{})
			var labels []string
			for _, m := range tick.FindAllStringSubmatch(svg, -1) {
				labels = append(labels, m[1])
			}
			if !strings.Contains(strings.Join(labels, " "), tt.want) || strings.Contains(strings.Join(labels, " "), tt.not) {
				t.Errorf("tick labels %q: want %q, not %q", labels, tt.want, tt.not)
			}
			if got := strings.Contains(svg, `data-comma="1"`); got != tt.commaAttr {
				t.Errorf("data-comma on the figure: %v, want %v", got, tt.commaAttr)
			}
			var png []string
			for _, tk := range Ticks(tt.comma).Ticks(0, 2.4) {
				png = append(png, tk.Label)
			}
			if !strings.Contains(strings.Join(png, " "), tt.want) || strings.Contains(strings.Join(png, " "), tt.not) {
				t.Errorf("PNG tick labels %q: want %q, not %q", png, tt.want, tt.not)
			}
		})
	}
}
