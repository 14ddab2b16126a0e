package report

import (
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// RateFile is the throughput plot of a report directory.
const RateFile = "rate.png"

// rateBin is the bin width (scenario s) for a run of span seconds: one
// second, widened so there are at most 150 bins.
func rateBin(span float64) float64 {
	b := 1.0
	for span/b > 150 {
		b *= 2
	}
	return b
}

// rateCounts are rate.png's counts, from perfAcquires: the attempts
// granted, refused and of unknown outcome (an error, no reply: latency.png's
// triangles; reader9) that completed in each bin of bin scenario seconds
// (an open attempt has no answer and is in none). An attempt counts
// when its answer came, as in Jepsen's rate graph (issue 27, a fresh
// reader: a grant counted at its invoke in the second before a partition
// healed, though it was granted after the heal).
func rateCounts(in Input, m *model, bin float64) (ok, fail, info []float64) {
	n := int(math.Ceil(max(m.sec(m.end), 1e-9)/bin)) + 1
	ok, fail, info = make([]float64, n), make([]float64, n), make([]float64, n)
	for _, o := range perfAcquires(in.History) {
		if o.Open() {
			continue
		}
		i := min(int(m.sec(o.Complete)/bin), n-1)
		switch o.Type {
		case history.OK:
			ok[i]++
		case history.Fail:
			fail[i]++
		case history.Info:
			info[i]++
		}
	}
	return ok, fail, info
}

// writeRate draws rate.png: the workers' acquires (perfAcquires: the
// final probe left out) granted, refused and, when the run had any, of
// unknown outcome per second of scenario time, each in the second it
// completed (Jepsen's rate plot), fault windows shaded per kind.
func writeRate(path string, in Input, m *model) error {
	lang := normLang(in.Lang)
	endS := max(m.sec(m.end), 1e-9)
	bin := rateBin(endS)
	ok, fail, info := rateCounts(in, m, bin)
	n := len(ok)
	top := 1.0
	series := func(c []float64) plotter.XYs {
		xys := make(plotter.XYs, 0, 2*n)
		for i, v := range c {
			r := v / bin
			top = max(top, r)
			// Cut at the axis' end (newPerfPlot's, latency.png's too):
			// the last bin would stretch the x axis past it.
			xys = append(xys, plotter.XY{X: min(float64(i)*bin, endS*1.03), Y: r}, plotter.XY{X: min(float64(i+1)*bin, endS*1.03), Y: r})
		}
		return xys
	}
	type line struct {
		xys  plotter.XYs
		col  color.Color
		w    float64
		dash []vg.Length
		key  string
	}
	lines := []line{{series(fail), perfFailLine, 3, nil, "p.fail"}, {series(ok), chart.ClientPalette[0], 4, nil, "p.ok"}}
	if slices.ContainsFunc(info, func(v float64) bool { return v > 0 }) {
		// Dashed, in latency.png's colour of its triangles.
		lines = append(lines, line{series(info), chart.ColRefused, 3, []vg.Length{vg.Points(9), vg.Points(5)}, "p.info"})
	}
	top *= 1.15
	p, legend := newPerfPlot(in, m, lang, "p.rate.title", "p.x.completed", "p.rate.y", top)
	for _, s := range lines {
		l, err := plotter.NewLine(s.xys)
		if err != nil {
			return err
		}
		l.LineStyle = draw.LineStyle{Color: s.col, Width: vg.Points(s.w), Dashes: s.dash}
		p.Add(l)
		legend = append(legend, chart.LegendEntry{Thumb: l, Text: tr(lang, s.key)})
	}
	return chart.SavePNG(path, p, legend, chart.LatencyW, chart.LatencyH)
}

// faultShade is one fault window's shade on a perf plot: s–e scenario s,
// y0–y1 its share of the plot's height (0 bottom, 1 top).
type faultShade struct {
	w       window
	s, e    float64
	y0, y1  float64
	stacked bool // it shares the height with windows at once
}

// faultShades are the perf plots' fault shades: a window overlapping no
// other over the whole height; windows at once (directly or through
// others) each in its own band of the height over its whole window
// (chart.Rows), for the shades are opaque: drawn over the whole height,
// the later hid the earlier (reader 11, failover-fence-regression: the
// replication lag's shade stopped at t≈2 s where the failover's began,
// though the lag lasted to 4.1 s).
func faultShades(m *model) []faultShade {
	endS := max(m.sec(m.end), 1e-9)
	out := make([]faultShade, 0, len(m.faults))
	spans := make([][2]float64, 0, len(m.faults))
	for _, w := range m.faults {
		from, to := w.Active()
		s, e := m.sec(from), m.sec(to)
		if e-s < endS*0.004 {
			e = s + endS*0.004
		}
		out = append(out, faultShade{w: w, s: s, e: e})
		spans = append(spans, [2]float64{s, e})
	}
	row, rows := chart.Rows(spans)
	for i := range out {
		n := float64(rows[i])
		out[i].y0, out[i].y1 = 1-float64(row[i]+1)/n, 1-float64(row[i])/n
		out[i].stacked = rows[i] > 1
	}
	return out
}

// shadeFaults shades every fault window over the whole height (0..top) of
// a perf plot, one colour and legend entry per kind.
func shadeFaults(p *plot.Plot, m *model, lang Lang, top float64) []chart.LegendEntry {
	var legend []chart.LegendEntry
	seen := map[string]bool{}
	var stacked []color.Color
	for _, f := range faultShades(m) {
		r := chart.Rect(f.s, f.e, f.y0*top, f.y1*top, chart.PerfShade(f.w.Step), chart.NoLine())
		p.Add(r)
		if f.stacked && len(stacked) < 2 {
			stacked = append(stacked, chart.PerfShade(f.w.Step))
		}
		// The shade spans every client's points: the legend says whose
		// fault it is (issue 27: w1's GC pause read as everyone's).
		text := faultLegendWord(lang, f.w.Step)
		if ts := targetsOf(f.w.Step); len(ts) > 0 {
			text = tr(lang, "p.fault.of", text, joinAnd(lang, ts))
		}
		if !seen[text] {
			seen[text] = true
			legend = append(legend, chart.LegendEntry{Thumb: chart.Rect(0, 1, 0, 1, chart.PerfShade(f.w.Step), chart.NoLine()), Text: text})
		}
	}
	if len(stacked) == 2 {
		legend = append(legend, chart.LegendEntry{Thumb: chart.StackThumb(stacked[0], stacked[1]), Text: tr(lang, "p.shade.stacked")})
	}
	return legend
}
