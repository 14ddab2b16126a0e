package report

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// band is a violation window on the timeline: overlapping anomalies are
// merged into one band with one label listing their kinds.
type band struct {
	s, e  float64 // scenario s
	kinds []string
}

// mergeBands merges the non-informational anomalies' windows that overlap
// or touch (come within minW of each other: one title for windows a
// reader sees as one) into bands, ordered by start; minW also widens
// instants so they stay visible.
func mergeBands(as []checker.Anomaly, minW float64) []band {
	var bs []band
	for _, a := range as {
		if a.Informational {
			continue
		}
		s, e := a.StartS, a.EndS
		if e-s < minW {
			e = s + minW
		}
		bs = append(bs, band{s, e, []string{a.Kind}})
	}
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].s < bs[j].s })
	var out []band
	for _, b := range bs {
		if n := len(out); n > 0 && b.s <= out[n-1].e+minW {
			last := &out[n-1]
			last.e = max(last.e, b.e)
			for _, k := range b.kinds {
				if !containsStr(last.kinds, k) {
					last.kinds = append(last.kinds, k)
				}
			}
			continue
		}
		out = append(out, b)
	}
	return out
}

// faultColor is the shade of one fault step (its legend entry too), by
// what it does: a new fault kind with a known effect gets its colour.
func faultColor(st history.FaultStep) color.NRGBA {
	switch st.Effect {
	case history.EffectFreezeClient:
		return color.NRGBA{30, 30, 30, 120}
	case history.EffectFreezeNode:
		return color.NRGBA{90, 90, 90, 110}
	case history.EffectCutLinks:
		return color.NRGBA{240, 190, 0, 120}
	case history.EffectSlowLinks:
		return color.NRGBA{0, 158, 115, 90}
	case history.EffectResetLinks:
		return color.NRGBA{140, 140, 0, 110}
	case history.EffectCrashNode, history.EffectCrashClient, history.EffectRestartClient:
		return color.NRGBA{0, 0, 0, 150}
	case history.EffectNodeClock, history.EffectClientClock:
		if st.Rate != 0 {
			return color.NRGBA{255, 105, 180, 110}
		}
		return color.NRGBA{148, 0, 211, 150}
	case history.EffectDeleteKey:
		return color.NRGBA{213, 94, 0, 150}
	}
	return color.NRGBA{120, 60, 160, 70}
}

// faultLegendWord names a fault step's kind in the legend.
func faultLegendWord(lang Lang, st history.FaultStep) string {
	if st.Effect == history.EffectFreezeClient {
		return tr(lang, causeKey("p.pause", st))
	}
	return faultWord(lang, st)
}

// endWord labels where a key ended: lost in a crash, deleted by a
// janitor, or expired (its TTL, perhaps shortened by a clock jump).
func endWord(lang Lang, e account.End) string {
	switch e.Kind {
	case account.EndCrashed:
		return tr(lang, "p.lost.crash")
	case account.EndJanitor:
		return tr(lang, "p.deleted")
	case account.EndDeleted:
		return tr(lang, "p.removed")
	case account.EndRestored:
		return tr(lang, "p.restored")
	case account.EndReleased:
		return tr(lang, "p.released")
	case account.EndPurged:
		return tr(lang, "p.purged")
	case account.EndClock:
		return tr(lang, "p.clock")
	case account.EndFailover:
		return tr(lang, "p.failover")
	case account.EndHeld:
		return tr(lang, "p.held")
	}
	return tr(lang, "p.expired")
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

// timelineHeight is timeline.png's height in pixels for a number of lanes.
func timelineHeight(lanes int) float64 { return timelineBase + laneHeight*float64(lanes) }

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// fenceOf is the fencing token a write was made under: its own, else the
// token of the lease its client held then; 0 when none.
func (m *model) fenceOf(o history.Op) int64 {
	if o.Value.Fence > 0 {
		return o.Value.Fence
	}
	if l, ok := m.leaseAt(o.Client, o.Key, o.Invoke); ok {
		return l.Fence
	}
	return 0
}

// effectAction reports whether a write action is a workload's effect (the
// thing the lock protects, workload.Action.Effect), drawn as a big marker:
// a charge, a sale, a counter write, a job run, a leader action, a
// semaphore entry, a rebuild. Other writes (claim, mark-paid, exit) are
// small squares.
func effectAction(action string) bool {
	a, ok := workload.ActionOf(action)
	return action == "" || (ok && a.Effect)
}

// actWord labels an accepted effect marker: "charged", "sold", "set 3", …
func actWord(lang Lang, o history.Op) string {
	if _, ok := messages["en"]["p.act."+o.Value.Action]; !ok {
		return tr(lang, "p.charged")
	}
	w := tr(lang, "p.act."+o.Value.Action)
	if a, _ := workload.ActionOf(o.Value.Action); o.Value.Num != nil && a.Num {
		w += fmt.Sprintf(" %d", *o.Value.Num)
	}
	return w
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// writeTimeline draws timeline.png from the run's drawing (drawing.go):
// the same lanes, shapes, words and legend as index.html's SVG, at
// timelineW px wide for slides and CI archives, x in scenario seconds.
func writeTimeline(path string, d *drawing) error {
	lanes := len(d.Lanes)
	laneY := func(i int) float64 { return float64(lanes - 1 - i) }
	title := d.Title + "\n" + wrapText(d.Headline, 120)
	p := newPlot(title)
	p.X.Label.Text = tr(d.Lang, "p.x")
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
	p.X.Tick.Marker = plot.TickerFunc(niceTicks)
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
	perPx := (p.X.Max - p.X.Min) / float64(timelineW-190)
	cols := newColumns(p.X.Max, perPx)
	// Bars of a busy run are painted per pixel column (dense.go).
	bars := 0
	for _, s := range d.Shapes {
		if s.Kind == shHold || s.Kind == shKey || s.Kind == shBelieved {
			bars++
		}
	}
	dense := bars > maxTimelineBars
	type group struct {
		kind, sub string
		lane      int
	}
	spans := map[group][]span{}
	var groups []group
	marks := map[string]plotter.XYs{}
	var markKinds []string
	var ticksXY []plotter.XY
	var arrows []dShape
	var seenXY []plotter.XY
	for _, s := range d.Shapes {
		st := styleOf(s.Kind, s.Sub, s.Color)
		y := laneY(s.Lane)
		switch {
		case isMark(s.Kind):
			if _, ok := marks[s.Kind]; !ok {
				markKinds = append(markKinds, s.Kind)
			}
			marks[s.Kind] = append(marks[s.Kind], plotter.XY{X: s.X0, Y: y - s.Y0})
		case s.Kind == shMsg:
			arrows = append(arrows, s)
		case s.Kind == shEnd:
			ticksXY = append(ticksXY, plotter.XY{X: s.X0, Y: y - s.Y0}, plotter.XY{X: s.X0, Y: y - s.Y1})
		case s.Kind == shSeen:
			// One dashed line: a busy run's thousands of steps at the
			// same height are one stroke, not one plotter each.
			yy := y - s.Y0
			if n := len(seenXY); n >= 2 && seenXY[n-1].Y == yy && s.X0 <= seenXY[n-1].X+perPx {
				seenXY[n-1].X = max(seenXY[n-1].X, s.X1)
			} else {
				seenXY = append(seenXY, plotter.XY{X: s.X0, Y: yy}, plotter.XY{X: s.X1, Y: yy})
			}
		case dense && (s.Kind == shHold || s.Kind == shKey || s.Kind == shBelieved):
			g := group{s.Kind, s.Sub, s.Lane}
			if _, ok := spans[g]; !ok {
				groups = append(groups, g)
			}
			spans[g] = append(spans[g], span{s.X0, s.X1, s.Color})
		default:
			y0, y1 := y-s.Y1, laneY(s.Lane2)-s.Y0
			if s.Lane2 != s.Lane {
				y0 = laneY(s.Lane2) - s.Y1
				y1 = y - s.Y0
			}
			x1 := max(s.X1, s.X0+perPx*2)
			p.Add(rect(s.X0, x1, y0, y1, st.Fill, pngLine(st)))
		}
	}
	for _, g := range groups {
		y := laneY(g.lane)
		for _, r := range cols.paint(spans[g]) {
			st := styleOf(g.kind, g.sub, r.owner)
			p.Add(rect(r.s, r.e, y-0.2, y+0.2, st.Fill, pngLine(st)))
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
		p.Add(segments{xys: ticksXY, sty: pngLine(styleOf(shEnd, "", -1))})
	}
	if len(seenXY) > 0 {
		p.Add(segments{xys: seenXY, sty: pngLine(styleOf(shSeen, "", -1))})
	}
	if len(arrows) > 0 {
		p.Add(arrowLayer{shapes: arrows, laneY: laneY})
	}
	for _, k := range markKinds {
		p.Add(scatter(thinXY(marks[k], perPx, 0.02), draw.GlyphStyle{Color: styleOf(k, "", -1).Fill, Radius: vg.Points(markSize(k) * 0.75), Shape: markGlyph{k}}))
	}
	p.Add(labelLayer{labels: d.Labels, laneY: laneY, top: float64(lanes) - 0.5 + 0.3})
	var legend []legendEntry
	for _, e := range d.Legend {
		legend = append(legend, legendEntry{swatch{e}, e.Text})
	}
	return savePNG(path, p, legend, timelineW, timelineHeight(lanes))
}

// pngLine is a style's outline as a gonum line style.
func pngLine(st shapeStyle) draw.LineStyle {
	if st.Width == 0 || st.Stroke.A == 0 {
		return draw.LineStyle{}
	}
	ls := draw.LineStyle{Color: st.Stroke, Width: px(st.Width)}
	for _, d := range st.Dash {
		ls.Dashes = append(ls.Dashes, px(d))
	}
	return ls
}

// markGlyph draws a point mark as the SVG does (markPath): circle,
// diamond, cross, square or plus, over a white halo.
type markGlyph struct{ kind string }

func (g markGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	st := styleOf(g.kind, "", -1)
	r := px(markSize(g.kind))
	var path vg.Path
	switch g.kind {
	case shWriteOK:
		path.Move(vg.Point{X: pt.X + r, Y: pt.Y})
		path.Arc(pt, r, 0, 2*math.Pi)
		path.Close()
	case shWriteBad:
		path.Move(vg.Point{X: pt.X, Y: pt.Y + r})
		path.Line(vg.Point{X: pt.X + r, Y: pt.Y})
		path.Line(vg.Point{X: pt.X, Y: pt.Y - r})
		path.Line(vg.Point{X: pt.X - r, Y: pt.Y})
		path.Close()
	case shWriteOth:
		path.Move(vg.Point{X: pt.X - r, Y: pt.Y - r})
		path.Line(vg.Point{X: pt.X + r, Y: pt.Y - r})
		path.Line(vg.Point{X: pt.X + r, Y: pt.Y + r})
		path.Line(vg.Point{X: pt.X - r, Y: pt.Y + r})
		path.Close()
	case shWriteRef:
		path.Move(vg.Point{X: pt.X - r, Y: pt.Y - r})
		path.Line(vg.Point{X: pt.X + r, Y: pt.Y + r})
		path.Move(vg.Point{X: pt.X - r, Y: pt.Y + r})
		path.Line(vg.Point{X: pt.X + r, Y: pt.Y - r})
	case shTry:
		path.Move(vg.Point{X: pt.X - r, Y: pt.Y})
		path.Line(vg.Point{X: pt.X + r, Y: pt.Y})
		path.Move(vg.Point{X: pt.X, Y: pt.Y - r})
		path.Line(vg.Point{X: pt.X, Y: pt.Y + r})
	}
	c.SetLineStyle(draw.LineStyle{Color: white, Width: px(st.Width + 4)})
	c.Stroke(path)
	if st.Fill.A > 0 {
		c.SetColor(st.Fill)
		c.Fill(path)
	}
	c.SetLineStyle(draw.LineStyle{Color: st.Stroke, Width: px(st.Width)})
	c.Stroke(path)
}

// arrowLayer draws message arrows as the SVG does (arrowPath), in px.
type arrowLayer struct {
	shapes []dShape
	laneY  func(int) float64
}

func (a arrowLayer) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	laneH := trY(a.laneY(0)) - trY(a.laneY(1))
	if len(plt.Y.Tick.Marker.Ticks(plt.Y.Min, plt.Y.Max)) < 2 {
		laneH = trY(1) - trY(0)
	}
	for _, s := range a.shapes {
		st := styleOf(shMsg, s.Sub, -1)
		ya, yb := trY(a.laneY(s.Lane)), trY(a.laneY(s.Lane2))
		dir := vg.Length(1)
		if yb > ya { // vg's y grows upwards
			dir = -1
		}
		y0, y1 := ya-dir*0.22*laneH, yb+dir*0.22*laneH
		x0, x1 := trX(s.X0), trX(s.X1)
		cut := false
		switch s.Sub {
		case msgCmd:
			if s.X0 == s.X1 {
				x0 -= px(svgSlant)
			}
		case msgReply:
			if s.X0 == s.X1 {
				x1 += px(svgSlant)
			}
		case msgLost, msgNoRep:
			x1, y1, cut = x0+px(svgSlant), yb+dir*vg.Length(cutStop)*laneH, true
		}
		ls := pngLine(st)
		c.StrokeLine2(ls, x0, y0, x1, y1)
		if cut {
			r := px(5)
			c.StrokeLine2(ls, x1-r, y1-r, x1+r, y1+r)
			c.StrokeLine2(ls, x1-r, y1+r, x1+r, y1-r)
			continue
		}
		ang := math.Atan2(float64(y1-y0), float64(x1-x0))
		hl := float64(px(8))
		for _, da := range []float64{-0.45, 0.45} {
			c.StrokeLine2(ls, x1-vg.Length(hl*math.Cos(ang+da)), y1-vg.Length(hl*math.Sin(ang+da)), x1, y1)
		}
	}
}

// labelLayer places and draws the drawing's labels over white halos, so
// that none overprints another (placeLabels' rule, with the PNG's own
// font metrics).
type labelLayer struct {
	labels []dLabel
	laneY  func(int) float64
	top    float64 // y of the violations' row (lane -1)
}

func (l labelLayer) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	laneH := trY(0) - trY(-1)
	order := make([]int, len(l.labels))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		la, lb := l.labels[order[a]], l.labels[order[b]]
		if la.Prio != lb.Prio {
			return la.Prio > lb.Prio
		}
		return la.X < lb.X
	})
	var kept []placement
	for _, i := range order {
		lb := l.labels[i]
		size := fontSize - 1.0
		if lb.Style == lbSmall {
			size = fontSize - 3
		}
		sty := boldStyle(size, labelColors[lb.Style])
		w := float64(sty.Width(lb.Text))
		x := float64(trX(lb.X))
		var y float64
		if lb.Lane < 0 {
			y = float64(trY(l.top))
		} else {
			y = float64(trY(l.laneY(lb.Lane))) - lb.Dy*float64(laneH)
		}
		if lb.Mid {
			x -= w / 2
		} else {
			x += float64(px(2))
		}
		hgt := float64(sty.Height(lb.Text))
		box := placement{x - 2, y - hgt/2, x + w + 4, y + hgt/2}
		if lb.Width > 0 && float64(trX(lb.X+lb.Width)-trX(lb.X)) < w+8 {
			continue
		}
		if box.x0 < float64(c.Min.X) || box.x1 > float64(c.Max.X) {
			continue
		}
		ok := true
		for _, k := range kept {
			if box.overlaps(k) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		kept = append(kept, box)
		pt := vg.Point{X: vg.Length(x), Y: vg.Length(y)}
		if lb.Style != lbOn {
			halo := sty
			halo.Color = white
			for _, o := range [][2]float64{{-1.5, 0}, {1.5, 0}, {0, -1.5}, {0, 1.5}, {-1, -1}, {1, 1}, {-1, 1}, {1, -1}} {
				c.FillText(halo, vg.Point{X: pt.X + vg.Length(o[0]), Y: pt.Y + vg.Length(o[1])}, lb.Text)
			}
		}
		c.FillText(sty, pt, lb.Text)
	}
}

// swatch is a legend entry's thumbnail, drawn like its shape.
type swatch struct{ e dLegend }

func (s swatch) Thumbnail(c *draw.Canvas) {
	e := s.e
	st := styleOf(e.Kind, e.Sub, e.Color)
	mid := vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2}
	switch {
	case isMark(e.Kind):
		markGlyph{e.Kind}.DrawGlyph(c, draw.GlyphStyle{}, mid)
	case e.Kind == shEnd:
		c.StrokeLine2(pngLine(st), mid.X, c.Min.Y, mid.X, c.Max.Y)
	case e.Kind == shSeen:
		c.StrokeLine2(pngLine(st), c.Min.X, mid.Y, c.Max.X, mid.Y)
	case e.Kind == shMsg:
		ls := pngLine(st)
		if e.Sub == msgLost || e.Sub == msgNoRep {
			c.StrokeLine2(ls, c.Min.X, c.Max.Y, mid.X, mid.Y)
			r := px(5)
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
