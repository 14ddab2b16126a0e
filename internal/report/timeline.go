package report

import (
	"fmt"
	"image/color"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/locksim/locksim/internal/history"
)

// maxMarkerLabels bounds the text labels on write markers; beyond it the
// markers stay and the words go, so a busy run stays readable.
const maxMarkerLabels = 24

// writeTimeline draws timeline.png: x is scenario seconds; one lane per
// client (hold bars, the part held after the key expired, pauses, refused
// acquires, writes) and one per node (when the lock key existed there and
// whose it was); violation windows as red bands across all lanes.
func writeTimeline(path string, in Input) error {
	m := newModel(in.History)
	lang := in.Lang
	nc := len(m.clients)
	lanes := nc + len(m.nodes)
	laneY := func(i int) float64 { return float64(lanes - 1 - i) }
	nodeLane := map[string]int{}
	for i, n := range m.nodes {
		nodeLane[n] = nc + i
	}
	endS := m.sec(m.end)
	if endS <= 0 {
		endS = 1
	}
	multiKey := len(m.keys) > 1

	title := in.History.Header.Scenario + " — " + tr(lang, "verdict."+string(in.Verdict))
	if emulated(in.History.Header) {
		title += " — " + tr(lang, "emulated")
	}
	title += "\n" + Headline(in)
	p := newPlot(title)
	p.X.Label.Text = tr(lang, "p.x")
	p.X.Min, p.X.Max = 0, endS*1.1
	p.Y.Min, p.Y.Max = -0.6, float64(lanes)-0.4+0.45
	var ticks []plot.Tick
	for i, c := range m.clients {
		ticks = append(ticks, plot.Tick{Value: laneY(i), Label: c})
	}
	for i, n := range m.nodes {
		ticks = append(ticks, plot.Tick{Value: laneY(nc + i), Label: tr(lang, "p.node", n)})
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Tick.Marker = plot.TickerFunc(niceTicks)
	p.Y.Tick.Label.Font.Size = vg.Points(fontSize + 2)
	p.Y.Tick.Label.Font.Weight = 700
	grid := plotter.NewGrid()
	grid.Horizontal.Width = 0
	grid.Vertical.Color = color.Gray{Y: 225}
	p.Add(grid)
	// Separator between client lanes and node lanes.
	if len(m.nodes) > 0 && nc > 0 {
		sep := laneY(nc-1) - 0.5
		ln, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: sep}, {X: p.X.Max, Y: sep}})
		ln.LineStyle = draw.LineStyle{Color: color.Gray{Y: 120}, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(6), vg.Points(4)}}
		p.Add(ln)
	}

	var legend []legendEntry
	var lblXY plotter.XYs
	var lblText []string
	var lblStyle []text.Style
	label := func(x, y float64, s string, sty text.Style) {
		lblXY = append(lblXY, plotter.XY{X: x, Y: y})
		lblText = append(lblText, s)
		lblStyle = append(lblStyle, sty)
	}
	minLabelW := endS * 0.06 // a bar narrower than this gets its label outside

	// Violation bands (behind everything), merged when they overlap.
	type band struct {
		s, e  float64
		kinds []string
	}
	var bands []band
	for _, a := range allAnomalies(in.Results) {
		if a.Informational {
			continue
		}
		s, e := a.StartS, a.EndS
		if e-s < endS*0.004 {
			e = s + endS*0.004
		}
		merged := false
		for i := range bands {
			if s <= bands[i].e && e >= bands[i].s {
				bands[i].s, bands[i].e = min(bands[i].s, s), max(bands[i].e, e)
				if !containsStr(bands[i].kinds, a.Kind) {
					bands[i].kinds = append(bands[i].kinds, a.Kind)
				}
				merged = true
				break
			}
		}
		if !merged {
			bands = append(bands, band{s, e, []string{a.Kind}})
		}
	}
	for _, b := range bands {
		r := rect(b.s, b.e, -0.5, float64(lanes)-0.5+0.4, colViolation, draw.LineStyle{Color: colRefused, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}})
		p.Add(r)
		sty := boldStyle(fontSize, colRefused)
		sty.XAlign = draw.XCenter
		label((b.s+b.e)/2, float64(lanes)-0.5+0.2, tr(lang, "p.violation")+": "+strings.Join(b.kinds, ", "), sty)
	}
	if len(bands) > 0 {
		legend = append(legend, legendEntry{rect(0, 1, 0, 1, colViolation, draw.LineStyle{Color: colRefused, Width: vg.Points(1.5)}), tr(lang, "p.violation")})
	}

	// Faults: pauses shaded over the paused client's lane; others over
	// their targets' lanes (or every lane when the target is not a lane).
	seenFault := map[string]bool{}
	for _, w := range m.faults {
		s, e := m.sec(w.Start), m.sec(w.End)
		col, key := colFault, tr(lang, "p.fault", w.Fault)
		if w.Fault == "pause" {
			col, key = colPause, tr(lang, "p.pause")
		}
		var ys []int
		for _, t := range w.Targets {
			if i := m.laneOf(t); i >= 0 {
				ys = append(ys, i)
			} else if i, ok := nodeLane[t]; ok {
				ys = append(ys, i)
			}
		}
		pg := rect(0, 1, 0, 1, col, draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(1)})
		if len(ys) == 0 {
			p.Add(rect(s, e, -0.5, float64(lanes)-0.5, col, noLine()))
		}
		for _, i := range ys {
			y := laneY(i)
			p.Add(rect(s, e, y-0.45, y+0.45, col, draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(1)}))
			word := w.Fault
			if w.Fault == "pause" {
				word = tr(lang, "p.pause.word")
			}
			sty := boldStyle(fontSize+1, color.White)
			sty.XAlign = draw.XCenter
			label((s+e)/2, y, tr(lang, "p.paused", strings.Join(w.Targets, ", "), word, fmtDur(e-s)), sty)
		}
		if !seenFault[key] {
			seenFault[key] = true
			legend = append(legend, legendEntry{pg, key})
		}
	}

	// Lock holds on client lanes and key lifetimes on node lanes.
	seenClient := map[string]bool{}
	hasBelieved := false
	expiredXY := map[int]plotter.XYs{}
	for _, l := range m.leases {
		ci := m.laneOf(l.Client)
		if ci < 0 {
			continue
		}
		col := clientColor(ci)
		y := laneY(ci)
		s, held := m.sec(l.Start), m.sec(min(l.KeyEnd, l.BelievedEnd))
		if held <= s {
			held = s + endS*0.002
		}
		name := tokenLabel(l)
		if multiKey {
			name = l.Key + " " + name
		}
		bar := rect(s, held, y-0.3, y+0.3, col, draw.LineStyle{Color: color.Black, Width: vg.Points(1)})
		p.Add(bar)
		if !seenClient[l.Client] {
			seenClient[l.Client] = true
			legend = append(legend, legendEntry{bar, tr(lang, "p.hold", l.Client)})
		}
		white := boldStyle(fontSize, color.White)
		if held-s >= minLabelW {
			label(s+endS*0.006, y, name, white)
		} else {
			label(s+endS*0.004, y+0.42, name, boldStyle(fontSize-2, color.Black))
		}
		if be := m.sec(l.BelievedEnd); l.BelievedEnd > l.KeyEnd && be > held {
			hasBelieved = true
			p.Add(rect(held, be, y-0.3, y+0.3, colBelieved, draw.LineStyle{Color: colRefused, Width: vg.Points(2), Dashes: []vg.Length{vg.Points(6), vg.Points(4)}}))
		}
		// Node lanes: the key existed from the grant until KeyEnd.
		for _, n := range l.Nodes {
			ni, ok := nodeLane[n]
			if !ok {
				continue
			}
			ny := laneY(ni)
			ke := m.sec(l.KeyEnd)
			if l.KeyEnd > m.end {
				ke = endS
			}
			p.Add(rect(s, ke, ny-0.25, ny+0.25, lighter(col), draw.LineStyle{Color: col, Width: vg.Points(1.5)}))
			if ke-s >= minLabelW {
				label(s+endS*0.006, ny, "key = "+l.Client+" "+name, boldStyle(fontSize-1, color.Black))
			}
			if l.Expired {
				expiredXY[ni] = append(expiredXY[ni], plotter.XY{X: ke, Y: ny})
			}
		}
		if l.Expired {
			expiredXY[ci] = append(expiredXY[ci], plotter.XY{X: m.sec(l.KeyEnd), Y: y})
		}
	}
	if hasBelieved {
		legend = append(legend, legendEntry{rect(0, 1, 0, 1, colBelieved, draw.LineStyle{Color: colRefused, Width: vg.Points(2), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}), tr(lang, "p.believed")})
	}
	// Expiry: a thick vertical tick and the word.
	expSty := draw.LineStyle{Color: color.Black, Width: vg.Points(3)}
	lanesWithExp := make([]int, 0, len(expiredXY))
	for li := range expiredXY {
		lanesWithExp = append(lanesWithExp, li)
	}
	sort.Ints(lanesWithExp)
	for _, li := range lanesWithExp {
		for _, xy := range expiredXY[li] {
			ln, _ := plotter.NewLine(plotter.XYs{{X: xy.X, Y: xy.Y - 0.4}, {X: xy.X, Y: xy.Y + 0.4}})
			ln.LineStyle = expSty
			p.Add(ln)
			sty := boldStyle(fontSize-1, color.Black)
			sty.XAlign = draw.XRight
			label(xy.X-endS*0.003, xy.Y-0.4, tr(lang, "p.expired"), sty)
		}
	}
	if len(expiredXY) > 0 {
		legend = append(legend, legendEntry{lineThumb{expSty}, tr(lang, "p.expired") + " (TTL)"})
	}

	// Refused acquire attempts: small grey marks at the bottom of the lane.
	var tries plotter.XYs
	for _, o := range in.History.Ops {
		if o.F == history.Acquire && o.Type == history.Fail {
			if i := m.laneOf(o.Client); i >= 0 {
				tries = append(tries, plotter.XY{X: m.sec(o.Invoke), Y: laneY(i) - 0.38})
			}
		}
	}
	if len(tries) > 0 {
		sc := scatter(tries, draw.GlyphStyle{Color: colTryFail, Radius: vg.Points(4), Shape: thickPlus{vg.Points(1.5)}})
		p.Add(sc)
		legend = append(legend, legendEntry{sc, tr(lang, "p.acquire.fail")})
	}

	// Writes: accepted (green filled) and refused (red X).
	var okXY, badXY, otherXY plotter.XYs
	var okW, badW []history.Op
	for _, o := range in.History.Ops {
		if o.F != history.Write {
			continue
		}
		i := m.laneOf(o.Client)
		if i < 0 {
			continue
		}
		xy := plotter.XY{X: m.sec(o.Invoke), Y: laneY(i)}
		switch o.Type {
		case history.OK:
			if o.Value.Action != "charge" && o.Value.Action != "" {
				otherXY = append(otherXY, xy)
				continue
			}
			okXY, okW = append(okXY, xy), append(okW, o)
		case history.Fail:
			badXY, badW = append(badXY, xy), append(badW, o)
		}
	}
	if len(otherXY) > 0 {
		sc := scatter(otherXY, draw.GlyphStyle{Color: colAccepted, Radius: vg.Points(5), Shape: draw.BoxGlyph{}})
		p.Add(sc)
		legend = append(legend, legendEntry{sc, tr(lang, "p.other.ok")})
	}
	if len(okXY) > 0 {
		sc := scatter(okXY, draw.GlyphStyle{Color: colAccepted, Radius: vg.Points(8), Shape: outlinedCircle{}})
		p.Add(sc)
		legend = append(legend, legendEntry{sc, tr(lang, "p.charge.ok")})
	}
	if len(badXY) > 0 {
		sc := scatter(badXY, draw.GlyphStyle{Color: colRefused, Radius: vg.Points(10), Shape: thickCross{vg.Points(4)}})
		p.Add(sc)
		legend = append(legend, legendEntry{sc, tr(lang, "p.write.refused")})
	}
	if len(okW)+len(badW) <= maxMarkerLabels {
		for i, o := range okW {
			sty := boldStyle(fontSize, colAccepted)
			label(okXY[i].X+endS*0.01, okXY[i].Y-0.2, tr(lang, "p.charged")+fenceSuffix(m, o), sty)
		}
		for i, o := range badW {
			sty := boldStyle(fontSize, colRefused)
			label(badXY[i].X+endS*0.01, badXY[i].Y-0.2, tr(lang, "p.refused")+fenceSuffix(m, o), sty)
		}
	}

	if len(lblXY) > 0 {
		p.Add(labels(lblXY, lblText, lblStyle))
	}
	return savePNG(path, p, legend, timelineW, timelineBase+laneHeight*float64(lanes))
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// fenceSuffix is ", token N" for a write made under fencing token N.
func fenceSuffix(m *model, o history.Op) string {
	f := o.Value.Fence
	if f <= 0 {
		if l, ok := m.leaseAt(o.Client, o.Key, o.Invoke); ok {
			f = l.Fence
		}
	}
	if f <= 0 {
		return ""
	}
	return fmt.Sprintf(" (token %d)", f)
}
