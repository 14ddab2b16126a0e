package report

import (
	"image/color"
	"testing"

	"github.com/locksim/locksim/internal/report/chart"
)

func TestTimelineContrast(t *testing.T) {
	// Every label is drawn over a white halo, so its contrast is its
	// colour's against white; the words on a pause are white on the pause.
	for style, c := range chart.LabelColors {
		bg, what := chart.White, "white"
		if style == chart.LbOn {
			bg, what = chart.Over(chart.PauseFill, chart.White), "a pause"
		}
		t.Run("label style "+style+" reads at 4.5:1 or more on "+what, func(t *testing.T) {
			if r := chart.Contrast(c, bg); r < 4.5 {
				t.Errorf("contrast %.2f:1", r)
			}
		})
	}
	for name, c := range map[string]color.NRGBA{"lane names": {17, 17, 17, 255}, "a node's clock offset": {74, 26, 107, 255}, "axis ticks": {34, 34, 34, 255}} {
		t.Run(name+" read at 4.5:1 or more on the lightest lane", func(t *testing.T) {
			if r := chart.Contrast(c, chart.White); r < 4.5 {
				t.Errorf("contrast %.2f:1", r)
			}
		})
	}
}

func TestMarksDifferByShapeNotOnlyColour(t *testing.T) {
	kinds := []string{chart.ShWriteOK, chart.ShWriteBad, chart.ShWriteRef, chart.ShWriteOth, chart.ShWriteUnk, chart.ShTry}
	seen := map[string]string{}
	for _, k := range kinds {
		t.Run("the "+k+" mark has a shape of its own", func(t *testing.T) {
			p := chart.MarkPath(k)
			if p == "" {
				t.Fatal("no shape")
			}
			if prev, ok := seen[p]; ok {
				t.Errorf("same shape as %s", prev)
			}
			seen[p] = k
		})
	}
	t.Run("an inferred key differs from an observed one by its dashed outline", func(t *testing.T) {
		if len(chart.StyleOf(chart.ShKey, "inferred", 0).Dash) == 0 || len(chart.StyleOf(chart.ShKey, "", 0).Dash) != 0 {
			t.Errorf("inferred %+v, observed %+v", chart.StyleOf(chart.ShKey, "inferred", 0), chart.StyleOf(chart.ShKey, "", 0))
		}
	})
}
