package report

import (
	"image/color"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// newPerfPlot starts one of Jepsen's perf plots (latency.png, rate.png):
// title (marked when the Redis is emulated), scenario-time x axis from 0 to
// the end of the run, y from 0 to top, the fault windows shaded light
// (chart.PerfShade) under a light grid. It returns the plot and the fault legend entries.
func newPerfPlot(in Input, m *model, lang Lang, titleKey, xKey, yKey string, top float64) (*plot.Plot, []chart.LegendEntry) {
	title := tr(lang, titleKey, in.History.Header.Scenario)
	if emulated(in.History.Header) {
		title += " — " + tr(lang, "emulated")
	}
	p := chart.NewPlot(title)
	p.X.Label.Text = tr(lang, xKey) // which instant of an attempt its x is
	p.Y.Label.Text = tr(lang, yKey)
	p.X.Min, p.X.Max = 0, max(m.sec(m.end), 1e-9)*1.03
	p.Y.Min, p.Y.Max = 0, top
	p.X.Tick.Marker = chart.Ticks(commaIn(lang))
	p.Y.Tick.Marker = chart.DecimalSign(plot.DefaultTicks{}, commaIn(lang))
	legend := shadeFaults(p, m, lang, top)
	// The grid over the (opaque) shades.
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = color.Gray{Y: 225}, color.Gray{Y: 225}
	p.Add(grid)
	return p, legend
}

// Mark colours of the perf plots; each stays visible on every fault's
// shade (chart.PerfShade; TestPerfMarksStayVisibleOnShades).
var (
	perfFailGlyph = color.Gray{Y: 100} // a refused acquire (latency.png's ring)
	perfFailLine  = color.Gray{Y: 110} // refused acquires per second (rate.png)
)

// perfAcquires is the one selection both perf plots draw: the workers'
// acquire attempts, in history order. The final probe (history.Probe) is
// left out of both, as their titles say: it is the harness's check after
// the faults, not the workload's traffic.
func perfAcquires(h history.History) []history.Op {
	var out []history.Op
	for _, o := range h.Ops {
		if o.F == history.Acquire && o.Process != history.NodeProcess {
			out = append(out, o)
		}
	}
	return out
}
