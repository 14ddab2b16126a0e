package report

import (
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// latencyPoints are latency.png's points, from perfAcquires: each
// attempt at (start, scenario s; latency, wall ms), by outcome (an open
// one at y 0, placed at the top by writeLatency), and the largest latency.
func latencyPoints(in Input, m *model) (okXY, failXY, infoXY plotter.XYs, maxMS float64) {
	for _, o := range perfAcquires(in.History) {
		if o.Open() {
			infoXY = append(infoXY, plotter.XY{X: m.sec(o.Invoke)})
			continue
		}
		ms := float64(o.Complete-o.Invoke) / 1e6
		maxMS = max(maxMS, ms)
		xy := plotter.XY{X: m.sec(o.Invoke), Y: ms}
		switch o.Type {
		case history.OK:
			okXY = append(okXY, xy)
		case history.Fail:
			failXY = append(failXY, xy)
		default:
			infoXY = append(infoXY, xy)
		}
	}
	return okXY, failXY, infoXY, maxMS
}

// writeLatency draws latency.png: for every workers' acquire
// (perfAcquires: the final probe left out), its latency in wall
// milliseconds (Complete − Invoke, true time) against its start in
// scenario seconds; granted, refused and unknown-outcome attempts with
// different glyphs; fault windows shaded. Unknown outcomes are drawn at
// the top.
func writeLatency(path string, in Input, m *model) error {
	lang := normLang(in.Lang)
	okXY, failXY, infoXY, maxMS := latencyPoints(in, m)
	top := maxMS * 1.15
	if top <= 0 {
		top = 1
	}
	for i := range infoXY {
		if infoXY[i].Y == 0 {
			infoXY[i].Y = top * 0.97
		}
	}
	p, legend := newPerfPlot(in, m, lang, "p.latency.title", "p.x.invoked", "p.latency.y", top)
	// Data units per pixel, for thinning the markers of a busy run.
	perX, perY := p.X.Max/float64(chart.LatencyW-150), top/float64(chart.LatencyH-chart.LegendH-120)
	add := func(xys plotter.XYs, g draw.GlyphStyle, key string) {
		if len(xys) == 0 {
			return
		}
		s := chart.Scatter(chart.ThinXY(xys, perX, perY), g)
		p.Add(s)
		legend = append(legend, chart.LegendEntry{Thumb: s, Text: tr(lang, key)})
	}
	add(failXY, draw.GlyphStyle{Color: perfFailGlyph, Radius: vg.Points(5), Shape: draw.RingGlyph{}}, "p.fail")
	add(okXY, draw.GlyphStyle{Color: chart.ClientPalette[0], Radius: vg.Points(7), Shape: draw.CircleGlyph{}}, "p.ok")
	add(infoXY, draw.GlyphStyle{Color: chart.ColRefused, Radius: vg.Points(8), Shape: draw.TriangleGlyph{}}, "p.info")
	return chart.SavePNG(path, p, legend, chart.LatencyW, chart.LatencyH)
}
