package chart

import (
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// writeTimeline draws timeline.png from the run's drawing (drawing.go):
// the same lanes, shapes, words and legend as index.html's SVG, at
// timelineW px wide for slides and CI archives, x in scenario seconds.
func WriteTimeline(path string, d *Drawing) error {
	p, legend := timelinePlot(d, nil)
	return SavePNG(path, p, legend, TimelineW, TimelineHeight(len(d.Lanes)))
}

// timelinePlot is timeline.png's plot of d and its legend; laid, when
// set, receives where the labels went once the plot is drawn.
func timelinePlot(d *Drawing, laid *[]placedLabel) (*plot.Plot, []LegendEntry) {
	lanes := len(d.Lanes)
	laneY := func(i int) float64 { return float64(lanes - 1 - i) }
	title := d.Title + "\n" + wrapText(d.Headline, 120)
	p := NewPlot(title)
	p.X.Label.Text = d.Say("p.x")
	width := d.End - d.Start
	if width <= 0 {
		width = 1
	}
	p.X.Min, p.X.Max = d.Start, d.Start+width*1.1
	if d.Start > 0 {
		p.X.Max = d.End
	}
	p.Y.Min, p.Y.Max = -0.55, float64(lanes)-0.5+0.6
	var ticks []plot.Tick
	for i, l := range d.Lanes {
		lbl := l.Label
		if l.Sub != "" {
			lbl += "\n" + l.Sub
		}
		ticks = append(ticks, plot.Tick{Value: laneY(i), Label: lbl})
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Tick.Marker = Ticks(d.Comma)
	p.Y.Tick.Label.Font.Size = vg.Points(fontSize + 2)
	p.Y.Tick.Label.Font.Weight = 700
	grid := plotter.NewGrid()
	grid.Horizontal.Width = 0
	grid.Vertical.Color = color.Gray{Y: 225}
	p.Add(grid)
	// Separators between the kinds of lanes.
	for i := 1; i < lanes; i++ {
		if d.Lanes[i].Kind != d.Lanes[i-1].Kind {
			sep := laneY(i-1) - 0.5
			ln, _ := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: sep}, {X: p.X.Max, Y: sep}})
			ln.LineStyle = draw.LineStyle{Color: color.Gray{Y: 120}, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(6), vg.Points(4)}}
			p.Add(ln)
		}
	}
	perPx := (p.X.Max - p.X.Min) / float64(TimelineW-190)
	cols := newColumns(p.X.Max, perPx)
	// Bars of a busy run are painted per pixel column (dense.go).
	bars := 0
	for _, s := range d.Shapes {
		if s.Kind == ShHold || s.Kind == ShKey || s.Kind == ShBelieved {
			bars++
		}
	}
	dense := bars > MaxTimelineBars
	type group struct {
		kind, sub string
		lane      int
	}
	spans := map[group][]Span{}
	var groups []group
	marks := map[string]plotter.XYs{}
	var markKinds []string
	var ticksXY []plotter.XY
	var arrows []Shape
	var seenXY []plotter.XY
	for _, s := range d.Shapes {
		st := StyleOf(s.Kind, s.Sub, s.Color)
		y := laneY(s.Lane)
		switch {
		case isMark(s.Kind):
			if _, ok := marks[s.Kind]; !ok {
				markKinds = append(markKinds, s.Kind)
			}
			marks[s.Kind] = append(marks[s.Kind], plotter.XY{X: s.X0, Y: y - s.Y0})
		case s.Kind == ShMsg:
			arrows = append(arrows, s)
		case s.Kind == ShEnd:
			ticksXY = append(ticksXY, plotter.XY{X: s.X0, Y: y - s.Y0}, plotter.XY{X: s.X0, Y: y - s.Y1})
		case s.Kind == ShSeen:
			// One dashed line: a busy run's thousands of steps at the
			// same height are one stroke, not one plotter each.
			yy := y - s.Y0
			if n := len(seenXY); n >= 2 && seenXY[n-1].Y == yy && s.X0 <= seenXY[n-1].X+perPx {
				seenXY[n-1].X = max(seenXY[n-1].X, s.X1)
			} else {
				seenXY = append(seenXY, plotter.XY{X: s.X0, Y: yy}, plotter.XY{X: s.X1, Y: yy})
			}
		case dense && (s.Kind == ShHold || s.Kind == ShKey || s.Kind == ShBelieved):
			g := group{s.Kind, s.Sub, s.Lane}
			if _, ok := spans[g]; !ok {
				groups = append(groups, g)
			}
			spans[g] = append(spans[g], Span{s.X0, s.X1, s.Color})
		default:
			y0, y1 := y-s.Y1, laneY(s.Lane2)-s.Y0
			if s.Lane2 != s.Lane {
				y0 = laneY(s.Lane2) - s.Y1
				y1 = y - s.Y0
			}
			x1 := max(s.X1, s.X0+perPx*2)
			p.Add(Rect(s.X0, x1, y0, y1, st.Fill, pngLine(st)))
		}
	}
	for _, g := range groups {
		y := laneY(g.lane)
		for _, r := range cols.paint(spans[g]) {
			st := StyleOf(g.kind, g.sub, r.owner)
			p.Add(Rect(r.s, r.e, y-0.2, y+0.2, st.Fill, pngLine(st)))
		}
	}
	if len(ticksXY) > 0 {
		if len(ticksXY) > 2*maxTimelineMarks {
			seen := map[[2]int]bool{}
			var kept []plotter.XY
			for i := 0; i+1 < len(ticksXY); i += 2 {
				k := [2]int{int(ticksXY[i].Y * 4), cols.col(ticksXY[i].X)}
				if !seen[k] {
					seen[k] = true
					kept = append(kept, ticksXY[i], ticksXY[i+1])
				}
			}
			ticksXY = kept
		}
		p.Add(segments{xys: ticksXY, sty: pngLine(StyleOf(ShEnd, "", -1))})
	}
	if len(seenXY) > 0 {
		p.Add(segments{xys: seenXY, sty: pngLine(StyleOf(ShSeen, "", -1))})
	}
	if len(arrows) > 0 {
		p.Add(arrowLayer{shapes: arrows, laneY: laneY})
	}
	for _, k := range markKinds {
		p.Add(Scatter(ThinXY(marks[k], perPx, 0.02), draw.GlyphStyle{Color: StyleOf(k, "", -1).Fill, Radius: vg.Points(markSize(k) * 0.75), Shape: markGlyph{k}}))
	}
	p.Add(labelLayer{labels: d.Labels, laneY: laneY, top: float64(lanes) - 0.5 + 0.3, laid: laid, bars: laneBars(d),
		marks: laneMarks(d, func(k string) float64 { return float64(Px(markSize(k))) })})
	var legend []LegendEntry
	for _, e := range d.Legend {
		legend = append(legend, LegendEntry{swatch{e}, e.Text})
	}
	return p, legend
}

// pngLine is a style's outline as a gonum line style.
func pngLine(st shapeStyle) draw.LineStyle {
	if st.Width == 0 || st.Stroke.A == 0 {
		return draw.LineStyle{}
	}
	ls := draw.LineStyle{Color: st.Stroke, Width: Px(st.Width)}
	for _, d := range st.Dash {
		ls.Dashes = append(ls.Dashes, Px(d))
	}
	return ls
}

// markGlyph draws a point mark as the SVG does (markPath): circle,
// diamond, cross, square or plus, over a white halo.
type markGlyph struct{ kind string }

func (g markGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	st := StyleOf(g.kind, "", -1)
	r := Px(markSize(g.kind))
	var path vg.Path
	switch g.kind {
	case ShWriteOK:
		path.Move(vg.Point{X: pt.X + r, Y: pt.Y})
		path.Arc(pt, r, 0, 2*math.Pi)
		path.Close()
	case ShWriteBad:
		path.Move(vg.Point{X: pt.X, Y: pt.Y + r})
		path.Line(vg.Point{X: pt.X + r, Y: pt.Y})
		path.Line(vg.Point{X: pt.X, Y: pt.Y - r})
		path.Line(vg.Point{X: pt.X - r, Y: pt.Y})
		path.Close()
	case ShWriteOth:
		path.Move(vg.Point{X: pt.X - r, Y: pt.Y - r})
		path.Line(vg.Point{X: pt.X + r, Y: pt.Y - r})
		path.Line(vg.Point{X: pt.X + r, Y: pt.Y + r})
		path.Line(vg.Point{X: pt.X - r, Y: pt.Y + r})
		path.Close()
	case ShWriteUnk:
		// As markPath's triangle, point up (the PNG's y grows upwards).
		path.Move(vg.Point{X: pt.X, Y: pt.Y + r})
		path.Line(vg.Point{X: pt.X + r, Y: pt.Y - r*0.8})
		path.Line(vg.Point{X: pt.X - r, Y: pt.Y - r*0.8})
		path.Close()
	case ShWriteRef:
		path.Move(vg.Point{X: pt.X - r, Y: pt.Y - r})
		path.Line(vg.Point{X: pt.X + r, Y: pt.Y + r})
		path.Move(vg.Point{X: pt.X - r, Y: pt.Y + r})
		path.Line(vg.Point{X: pt.X + r, Y: pt.Y - r})
	case ShTry:
		path.Move(vg.Point{X: pt.X - r, Y: pt.Y})
		path.Line(vg.Point{X: pt.X + r, Y: pt.Y})
		path.Move(vg.Point{X: pt.X, Y: pt.Y - r})
		path.Line(vg.Point{X: pt.X, Y: pt.Y + r})
	}
	c.SetLineStyle(draw.LineStyle{Color: White, Width: Px(st.Width + 4)})
	c.Stroke(path)
	if st.Fill.A > 0 {
		c.SetColor(st.Fill)
		c.Fill(path)
	}
	ls := draw.LineStyle{Color: st.Stroke, Width: Px(st.Width)}
	for _, d := range st.Dash {
		ls.Dashes = append(ls.Dashes, Px(d))
	}
	c.SetLineStyle(ls)
	c.Stroke(path)
}

// arrowLayer draws message arrows as the SVG does (arrowPath), in px.
type arrowLayer struct {
	shapes []Shape
	laneY  func(int) float64
}

func (a arrowLayer) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	laneH := trY(a.laneY(0)) - trY(a.laneY(1))
	if len(plt.Y.Tick.Marker.Ticks(plt.Y.Min, plt.Y.Max)) < 2 {
		laneH = trY(1) - trY(0)
	}
	for _, s := range a.shapes {
		st := StyleOf(ShMsg, s.Sub, -1)
		ya, yb := trY(a.laneY(s.Lane)), trY(a.laneY(s.Lane2))
		// arrowOffsets' lane heights are downwards; vg's y grows upwards.
		d0, d1, cut := arrowOffsets(s)
		y0, y1 := ya-vg.Length(d0)*laneH, yb-vg.Length(d1)*laneH
		x0, x1 := trX(s.X0), trX(s.X1)
		switch {
		case cut:
			x1 = x0 + Px(svgSlant)
		case s.Sub == MsgCmd && s.X0 == s.X1:
			x0 -= Px(svgSlant)
		case s.Sub == MsgReply && s.X0 == s.X1:
			x1 += Px(svgSlant)
		}
		ls := pngLine(st)
		c.StrokeLine2(ls, x0, y0, x1, y1)
		if cut {
			r := Px(5)
			c.StrokeLine2(ls, x1-r, y1-r, x1+r, y1+r)
			c.StrokeLine2(ls, x1-r, y1+r, x1+r, y1-r)
			continue
		}
		ang := math.Atan2(float64(y1-y0), float64(x1-x0))
		hl := float64(Px(8))
		for _, da := range []float64{-0.45, 0.45} {
			c.StrokeLine2(ls, x1-vg.Length(hl*math.Cos(ang+da)), y1-vg.Length(hl*math.Sin(ang+da)), x1, y1)
		}
	}
}

// labelLayer places (layLabels, the SVG's rule with the PNG's own font
// metrics) and draws the drawing's labels over white halos. laid, when
// set, receives where each went (tests).
type labelLayer struct {
	labels []Label
	bars   func(int) [][2]float64 // the lanes' key and hold bars (labelRoom.bars)
	marks  func(int) []markAt     // the lanes' point marks (labelRoom.marks)
	laneY  func(int) float64
	top    float64 // y of the violations' row (lane -1)
	laid   *[]placedLabel
}

// labelStyle is the PNG's text style of a label (out: moved out of the bar
// it names, in the fault words' colour).
func labelStyle(lb Label, out bool) draw.TextStyle {
	size := fontSize - 1.0
	if lb.Style == LbSmall {
		size = fontSize - 3
	}
	col := LabelColors[lb.Style]
	if out && lb.Style == LbOn {
		col = LabelColors[LbFault]
	}
	return boldStyle(size, col)
}

// pngLabelRoom is where timeline.png places its labels on canvas c: vg
// units, y turned downwards (layLabels' way).
func (l labelLayer) room(c draw.Canvas, plt *plot.Plot) labelRoom {
	trX, trY := plt.Transforms(&c)
	h := 0.0
	for _, lb := range l.labels {
		h = max(h, float64(labelStyle(lb, false).Height(lb.Text)))
	}
	return labelRoom{
		x: func(s float64) float64 { return float64(trX(s)) },
		yc: func(lane int) float64 {
			if lane < 0 {
				return -float64(trY(l.top))
			}
			return -float64(trY(l.laneY(lane)))
		},
		laneH: float64(trY(0) - trY(-1)), left: float64(c.Min.X), right: float64(c.Max.X), pad: 0,
		top: -float64(c.Max.Y), bottom: -float64(c.Min.Y),
		width:  func(lb Label) float64 { return float64(labelStyle(lb, false).Width(lb.Text)) },
		height: h, bars: l.bars, marks: l.marks,
	}
}

func (l labelLayer) Plot(c draw.Canvas, plt *plot.Plot) {
	laid := layLabels(l.labels, l.room(c, plt))
	if l.laid != nil {
		*l.laid = laid
	}
	for i, lb := range l.labels {
		p := laid[i]
		if !p.shown {
			continue
		}
		sty := labelStyle(lb, p.out)
		x := p.x
		if p.mid {
			x -= float64(sty.Width(lb.Text)) / 2
		}
		pt := vg.Point{X: vg.Length(x), Y: vg.Length(-p.y)}
		if lb.Style != LbOn || p.out {
			halo := sty
			halo.Color = White
			for _, o := range [][2]float64{{-1.5, 0}, {1.5, 0}, {0, -1.5}, {0, 1.5}, {-1, -1}, {1, 1}, {-1, 1}, {1, -1}} {
				c.FillText(halo, vg.Point{X: pt.X + vg.Length(o[0]), Y: pt.Y + vg.Length(o[1])}, lb.Text)
			}
		}
		c.FillText(sty, pt, lb.Text)
	}
}

// swatch is a legend entry's thumbnail, drawn like its shape.
type swatch struct{ e Legend }

func (s swatch) Thumbnail(c *draw.Canvas) {
	e := s.e
	st := StyleOf(e.Kind, e.Sub, e.Color)
	mid := vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2}
	switch {
	case isMark(e.Kind):
		markGlyph{e.Kind}.DrawGlyph(c, draw.GlyphStyle{}, mid)
	case e.Kind == ShEnd:
		c.StrokeLine2(pngLine(st), mid.X, c.Min.Y, mid.X, c.Max.Y)
	case e.Kind == ShSeen:
		c.StrokeLine2(pngLine(st), c.Min.X, mid.Y, c.Max.X, mid.Y)
	case e.Kind == ShMsg:
		ls := pngLine(st)
		if e.Sub == MsgLost || e.Sub == MsgNoRep {
			c.StrokeLine2(ls, c.Min.X, c.Max.Y, mid.X, mid.Y)
			r := Px(5)
			c.StrokeLine2(ls, mid.X-r, mid.Y-r, mid.X+r, mid.Y+r)
			c.StrokeLine2(ls, mid.X-r, mid.Y+r, mid.X+r, mid.Y-r)
			return
		}
		c.StrokeLine2(ls, c.Min.X, c.Max.Y, c.Max.X, c.Min.Y)
	default:
		var path vg.Path
		path.Move(vg.Point{X: c.Min.X, Y: c.Min.Y})
		path.Line(vg.Point{X: c.Max.X, Y: c.Min.Y})
		path.Line(vg.Point{X: c.Max.X, Y: c.Max.Y})
		path.Line(vg.Point{X: c.Min.X, Y: c.Max.Y})
		path.Close()
		if st.Fill.A > 0 {
			c.SetColor(st.Fill)
			c.Fill(path)
		}
		if ls := pngLine(st); ls.Width > 0 {
			c.SetLineStyle(ls)
			c.Stroke(path)
		}
	}
}

// wrapText breaks s into lines of at most n runes at spaces.
func wrapText(s string, n int) string {
	var lines []string
	var cur []rune
	for _, w := range strings.Fields(s) {
		r := []rune(w)
		if len(cur) > 0 && len(cur)+1+len(r) > n {
			lines = append(lines, string(cur))
			cur = cur[:0]
		}
		if len(cur) > 0 {
			cur = append(cur, ' ')
		}
		cur = append(cur, r...)
	}
	if len(cur) > 0 {
		lines = append(lines, string(cur))
	}
	return strings.Join(lines, "\n")
}

// TimelineHeight is timeline.png's height in pixels for a number of lanes.
func TimelineHeight(lanes int) float64 { return TimelineBase + LaneHeight*float64(lanes) }
