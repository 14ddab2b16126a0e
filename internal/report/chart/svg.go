package chart

import (
	_ "embed"
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"
)

// The SVG timeline: a drawing (drawing.go) as an inline SVG. Every shape
// carries its place in scenario seconds and lanes (data-x0, data-l, …)
// and its tip (data-tip); the Go side writes it laid out for a width of
// svgW px, so the SVG reads on its own (timeline.svg, a page without
// scripts), and timeline.js lays it out again at the width it is shown,
// zoomed and panned in scenario seconds, placing the labels so none
// overprints another.

//go:embed timeline.js
var TimelineJS string

// SVG geometry, px.
const (
	svgW      = 1400.0 // the width it is written for
	svgLaneW  = 150.0  // the lane names' column
	svgTop    = 30.0   // the violation labels' row
	svgLaneH  = 52.0   // one lane
	svgAxisH  = 44.0   // the x axis under the lanes
	svgPadR   = 12.0   // right margin of the plot
	svgFontPx = 15.0   // labels
	svgSlant  = 5.0    // how far a message arrow leans, px
	// cutStop is where a cut message stops: this many lane heights
	// before the centre of the lane it was meant for (just outside it).
	cutStop = 0.62
	// sameLaneFrom is where an arrow that stays on one lane starts: this
	// many lane heights above its centre (it ends at the bar's top).
	sameLaneFrom = 0.46
	// svgPad widens the range shown by this share of the run on each
	// side, so marks at its first and last instants are whole.
	SvgPad = 0.015
)

// svgHeight is the SVG's height for n lanes.
func svgHeight(n int) float64 { return svgTop + svgLaneH*float64(n) + svgAxisH }

// geom maps a drawing onto a w px wide canvas with lanes laneH high.
type geom struct {
	w, laneH, a, z float64
}

func (g geom) plotW() float64 { return g.w - svgLaneW - svgPadR }

// x is scenario second s in plot px (the plot's own x origin).
func (g geom) x(s float64) float64 {
	if g.z <= g.a {
		return 0
	}
	return (s - g.a) / (g.z - g.a) * g.plotW()
}

// yc is the centre of lane i (lane -1: the violations' row).
func (g geom) yc(i int) float64 {
	if i < 0 {
		return svgTop / 2
	}
	return svgTop + (float64(i)+0.5)*g.laneH
}

// Where an arrow kept on one lane (a refused attempt's, msgLanes in
// package report) runs, in lane heights from the lane's centre: a command
// from the lane's top down to its bar; a command that never arrived stops
// with its cross above the bar; a reply that never arrived leaves the bar
// upwards and stops with its cross below the lane's top. Neither leaves
// the lane (issue 31).
const (
	sameLaneBar     = 0.22 // the top of a key bar
	sameLaneLostEnd = 0.32 // a cut command's cross
	sameLaneNoRep   = 0.40 // a cut reply's cross
)

// arrowOffsets are where a message arrow starts and ends, in lane heights
// below the centres of its lanes (Lane, then Lane2), and whether it is cut
// (stops short, with a cross): what the SVG, timeline.png and timeline.js
// all draw.
func arrowOffsets(s Shape) (d0, d1 float64, cut bool) {
	cut = s.Sub == MsgLost || s.Sub == MsgNoRep
	if s.Lane == s.Lane2 {
		switch s.Sub {
		case MsgLost:
			return -sameLaneFrom, -sameLaneLostEnd, true
		case MsgNoRep:
			return -sameLaneBar, -sameLaneNoRep, true
		}
		return -sameLaneFrom, -sameLaneBar, false
	}
	dir := 1.0
	if s.Lane2 < s.Lane {
		dir = -1
	}
	if cut {
		// Stopped just outside the lane it was meant for.
		return dir * 0.22, -dir * cutStop, true
	}
	return dir * 0.22, -dir * 0.22, false
}

// arrowEnds are a message arrow's end points and whether it is cut
// (stops half-way, with a cross).
func (g geom) arrowEnds(s Shape) (x0, y0, x1, y1 float64, cut bool) {
	d0, d1, cut := arrowOffsets(s)
	y0, y1 = g.yc(s.Lane)+d0*g.laneH, g.yc(s.Lane2)+d1*g.laneH
	x0, x1 = g.x(s.X0), g.x(s.X1)
	switch {
	case cut:
		x1 = x0 + svgSlant
	case s.Sub == MsgCmd && s.X0 == s.X1:
		x0 -= svgSlant
	case s.Sub == MsgReply && s.X0 == s.X1:
		x1 += svgSlant
	}
	return x0, y0, x1, y1, cut
}

// arrowPath is a message arrow as SVG path data: the shaft and an open
// head, or a cross where a cut message stopped.
func arrowPath(x0, y0, x1, y1 float64, cut bool) string {
	f := trimFloat
	d := "M" + f(x0) + "," + f(y0) + "L" + f(x1) + "," + f(y1)
	ang := math.Atan2(y1-y0, x1-x0)
	if cut {
		const r = 5
		return d + fmt.Sprintf("M%s,%sL%s,%sM%s,%sL%s,%s", f(x1-r), f(y1-r), f(x1+r), f(y1+r), f(x1-r), f(y1+r), f(x1+r), f(y1-r))
	}
	const hl = 8
	ax, ay := x1-hl*math.Cos(ang-0.45), y1-hl*math.Sin(ang-0.45)
	bx, by := x1-hl*math.Cos(ang+0.45), y1-hl*math.Sin(ang+0.45)
	return d + "M" + f(ax) + "," + f(ay) + "L" + f(x1) + "," + f(y1) + "L" + f(bx) + "," + f(by)
}

// textWidthPx is the width of s in bold Liberation Sans of size px: as a
// browser draws it in Arial or Helvetica, whose metrics Liberation Sans
// shares.
func textWidthPx(s string, size float64) float64 {
	return float64(boldStyle(size*72/96, Ink).Width(s)) * 96 / 72
}

// placement is a label's box on a canvas, px.
type placement struct {
	x0, y0, x1, y1 float64
}

func (p placement) overlaps(q placement) bool {
	return p.x0 < q.x1 && q.x0 < p.x1 && p.y0 < q.y1 && q.y0 < p.y1
}

// svgLabelRoom is where the SVG places a drawing of n lanes' labels
// (layLabels) in g.
func svgLabelRoom(g geom, n int) labelRoom {
	return labelRoom{x: g.x, yc: g.yc, laneH: g.laneH, left: 0, right: g.plotW(), pad: svgPadR, top: 0, bottom: svgTop + g.laneH*float64(n),
		width: func(l Label) float64 { return textWidthPx(l.Text, labelSize(l.Style)) }, height: svgFontPx + 4}
}

// svgOptions choose how a drawing is written.
type SVGOptions struct {
	// Standalone writes a complete SVG file (its own stylesheet and XML
	// namespace) instead of an element for a page.
	Standalone bool
	// Sync names a group of timelines that share one time axis (a lesson
	// page's broken and fixed runs); Start and End then override the
	// drawing's range.
	Sync       string
	Start, End float64
}

// renderSVG writes d as an SVG timeline inside its figure (or, with
// Standalone, as an SVG document).
func RenderSVG(d *Drawing, o SVGOptions) string {
	a, z := d.Start, d.End
	if o.End > o.Start {
		a, z = o.Start, o.End
	}
	pad := (z - a) * SvgPad
	a, z = a-pad, z+pad
	g := geom{w: svgW, laneH: svgLaneH, a: a, z: z}
	h := svgHeight(len(d.Lanes))
	var b strings.Builder
	b.Grow(512 + 300*len(d.Shapes))
	esc := template.HTMLEscapeString
	f := trimFloat
	if o.Standalone {
		fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="lsm-svg lsm-tl" viewBox="0 0 %s %s" width="%s" height="%s" role="img" aria-label="%s">`,
			f(svgW), f(h), f(svgW), f(h), esc(d.Headline))
		fmt.Fprintf(&b, "<style>%s.lsm-tl{background:#fff}</style>", TimelineCSS())
	} else {
		fmt.Fprintf(&b, `<figure class="lsm-tl" data-start="%s" data-end="%s" data-lanes="%d"`, FmtS(a), FmtS(z), len(d.Lanes))
		if o.Sync != "" {
			fmt.Fprintf(&b, ` data-sync="%s"`, esc(o.Sync))
		}
		if d.Comma {
			// timeline.js writes the axis and the range shown so too.
			b.WriteString(` data-comma="1"`)
		}
		b.WriteString(">\n")
		fmt.Fprintf(&b, `<div class="lsm-tools"><button type="button" data-z="in" aria-label="%s">+</button><button type="button" data-z="out" aria-label="%s">−</button><button type="button" data-z="left" aria-label="%s">◀</button><button type="button" data-z="right" aria-label="%s">▶</button><button type="button" data-z="reset">%s</button><span class="lsm-range"></span><span class="lsm-hint">%s</span></div>`+"\n",
			esc(d.Say("tl.zoom.in")), esc(d.Say("tl.zoom.out")), esc(d.Say("tl.pan.left")), esc(d.Say("tl.pan.right")), esc(d.Say("tl.reset")), esc(d.Say("tl.hint")))
		fmt.Fprintf(&b, `<svg class="lsm-svg" viewBox="0 0 %s %s" role="img" aria-label="%s" tabindex="0">`, f(svgW), f(h), esc(d.Headline))
	}
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(d.Title+": "+d.Headline))
	// Lanes and their names.
	b.WriteString(`<g class="lanes">`)
	for i, l := range d.Lanes {
		subClass := "lane-sub"
		if l.Sub == "" && textWidthPx(l.Label, 18) > svgLaneW-14 {
			l.Label, l.Sub = splitLabel(l.Label, 18, svgLaneW-14)
			subClass = "lane-name2"
		}
		y := svgTop + float64(i)*svgLaneH
		fmt.Fprintf(&b, `<rect class="lane-bg %s" data-l="%d" x="%s" y="%s" width="%s" height="%s"/>`, l.Kind, i, f(svgLaneW), f(y), f(svgW-svgLaneW-svgPadR), f(svgLaneH))
		if l.Sub != "" {
			fmt.Fprintf(&b, `<text class="lane-name" data-l="%d" data-dy="-0.15" x="8" y="%s">%s</text><text class="%s" data-l="%d" data-dy="0.25" x="8" y="%s">%s</text>`,
				i, f(g.yc(i)-0.15*svgLaneH+6), esc(l.Label), subClass, i, f(g.yc(i)+0.25*svgLaneH+5), esc(l.Sub))
		} else {
			fmt.Fprintf(&b, `<text class="lane-name" data-l="%d" data-dy="0" x="8" y="%s">%s</text>`, i, f(g.yc(i)+6), esc(l.Label))
		}
	}
	b.WriteString("</g>\n")
	// The plot: a nested viewport clips what a zoom pushes out.
	fmt.Fprintf(&b, `<svg class="plot" x="%s" y="0" width="%s" height="%s" overflow="hidden">`, f(svgLaneW), f(g.plotW()+svgPadR), f(h))
	b.WriteString(`<g class="ticks">`)
	for _, t := range niceTicks(a, z, d.Comma) {
		if t.Label == "" || t.Value < -1e-9 {
			continue // a half step, or the padding before t=0
		}
		if t.Label == "-0" {
			t.Label = "0"
		}
		x := g.x(t.Value)
		fmt.Fprintf(&b, `<g class="tick"><line x1="%s" x2="%s" y1="%s" y2="%s"/><text x="%s" y="%s" text-anchor="middle">%s</text></g>`,
			f(x), f(x), f(svgTop), f(h-svgAxisH), f(x), f(h-svgAxisH+20), t.Label)
	}
	b.WriteString("</g>\n")
	for _, s := range d.Shapes {
		writeShape(&b, g, s)
	}
	room := svgLabelRoom(g, len(d.Lanes))
	room.bars, room.marks = laneBars(d), laneMarks(d, markSize)
	laid := layLabels(d.Labels, room)
	for i, l := range d.Labels {
		p := laid[i]
		anchor := ""
		if l.Mid {
			anchor = ` data-mid="1"`
		}
		if p.mid {
			anchor += ` text-anchor="middle"`
		}
		vis := ""
		if !p.shown {
			vis = ` visibility="hidden"`
		}
		fit := ""
		if l.Width > 0 {
			fit = ` data-fit="` + FmtS(l.Width) + `"`
		}
		if l.Claim != "" {
			fit += ` data-claim="` + esc(l.Claim) + `"`
		}
		if l.Pin {
			fit += ` data-pin="1"` // timeline.js slides it along no row either
		}
		class := l.Style
		if p.out {
			class += " out"
		}
		fmt.Fprintf(&b, `<text class="%s" data-l="%d" data-x="%s" data-dy="%s" data-prio="%d"%s%s%s x="%s" y="%s" dy="0.35em">%s</text>`,
			class, l.Lane, FmtS(l.X), f2(l.Dy), l.Prio, fit, anchor, vis, f(p.x), f(p.y), esc(l.Text))
	}
	b.WriteString("\n")
	b.WriteString("</svg>\n")
	fmt.Fprintf(&b, `<text class="axis-name" x="%s" y="%s" text-anchor="middle">%s</text>`, f(svgLaneW+g.plotW()/2), f(h-6), esc(d.Say("p.x")))
	b.WriteString("</svg>\n")
	if o.Standalone {
		return b.String()
	}
	fmt.Fprintf(&b, `<div class="lsm-tip" role="tooltip" hidden></div>`+"\n")
	b.WriteString(`<ul class="lsm-legend">`)
	for _, e := range d.Legend {
		fmt.Fprintf(&b, `<li>%s<span>%s</span></li>`, legendSwatch(e), esc(e.Text))
	}
	b.WriteString("</ul>\n")
	if d.Note != "" {
		fmt.Fprintf(&b, `<p class="lsm-note">%s</p>`, esc(d.Note))
	}
	b.WriteString("</figure>\n")
	return b.String()
}

// splitLabel breaks a lane's name that is wider than w px at size px
// into two lines at the last space that lets the first fit.
func splitLabel(s string, size, w float64) (string, string) {
	for i := len(s) - 1; i > 0; i-- {
		if s[i] == ' ' && textWidthPx(s[:i], size) <= w {
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

func labelSize(style string) float64 {
	if style == LbSmall {
		return 13
	}
	return svgFontPx
}

// fmtS writes scenario seconds for a data attribute (µs precision).
func FmtS(s float64) string { return strconv.FormatFloat(math.Round(s*1e6)/1e6, 'f', -1, 64) }

func f2(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// shapeClass is the CSS class list of a shape (or of its legend swatch):
// its kind, and its message kind or fault effect.
func shapeClass(kind, sub string) string {
	cls := "s s-" + kind
	switch {
	case sub != "" && kind == ShMsg:
		cls += " m-" + sub
	case sub != "":
		cls += " e-" + sub
	case kind == ShShade || kind == ShStrip:
		cls += " e-other"
	}
	return cls
}

// writeShape writes one shape with its layout attributes.
func writeShape(b *strings.Builder, g geom, s Shape) {
	esc := template.HTMLEscapeString
	f := trimFloat
	cls := shapeClass(s.Kind, s.Sub)
	if s.Color >= 0 {
		cls += fmt.Sprintf(" c%d", s.Color%len(ClientPalette))
	}
	attrs := fmt.Sprintf(`data-l="%d" data-x0="%s"`, s.Lane, FmtS(s.X0))
	if s.X1 != s.X0 {
		attrs += fmt.Sprintf(` data-x1="%s"`, FmtS(s.X1))
	}
	if s.Lane2 != s.Lane {
		attrs += fmt.Sprintf(` data-l2="%d"`, s.Lane2)
	}
	if tip := s.TipText(); tip != "" {
		attrs += ` data-tip="` + esc(tip) + `"`
	}
	if s.Op > 0 {
		attrs += fmt.Sprintf(` data-op="%d"`, s.Op-1)
	}
	if s.Claim != "" {
		attrs += ` data-claim="` + esc(s.Claim) + `"`
	}
	switch {
	case isMark(s.Kind):
		x, y := g.x(s.X0), g.yc(s.Lane)+s.Y0*g.laneH
		p := MarkPath(s.Kind)
		fmt.Fprintf(b, `<g class="m %s" %s data-y0="%s" transform="translate(%s,%s)"><path class="halo" d="%s"/><path d="%s"/></g>`+"\n", cls, attrs, f2(s.Y0), f(x), f(y), p, p)
	case s.Kind == ShMsg:
		x0, y0, x1, y1, cut := g.arrowEnds(s)
		p := arrowPath(x0, y0, x1, y1, cut)
		fmt.Fprintf(b, `<g class="%s" %s><path class="halo" d="%s"/><path d="%s"/></g>`+"\n", cls, attrs, p, p)
	case s.Kind == ShEnd:
		x := g.x(s.X0)
		fmt.Fprintf(b, `<line class="%s" %s data-y0="%s" data-y1="%s" x1="%s" x2="%s" y1="%s" y2="%s"/>`+"\n", cls, attrs, f2(s.Y0), f2(s.Y1),
			f(x), f(x), f(g.yc(s.Lane)+s.Y0*g.laneH), f(g.yc(s.Lane)+s.Y1*g.laneH))
	case s.Kind == ShSeen:
		fmt.Fprintf(b, `<line class="%s" %s data-y0="%s" x1="%s" x2="%s" y1="%s" y2="%s"/>`+"\n", cls, attrs, f2(s.Y0),
			f(g.x(s.X0)), f(g.x(s.X1)), f(g.yc(s.Lane)+s.Y0*g.laneH), f(g.yc(s.Lane)+s.Y0*g.laneH))
	default:
		y0 := g.yc(s.Lane) + s.Y0*g.laneH
		y1 := g.yc(s.Lane2) + s.Y1*g.laneH
		x0, x1 := g.x(s.X0), g.x(s.X1)
		if x1-x0 < 2 {
			x1 = x0 + 2
		}
		fmt.Fprintf(b, `<rect class="%s" %s data-y0="%s" data-y1="%s" x="%s" y="%s" width="%s" height="%s"/>`+"\n", cls, attrs, f2(s.Y0), f2(s.Y1),
			f(x0), f(y0), f(x1-x0), f(y1-y0))
	}
}

// legendSwatch is a legend entry's small picture, drawn like the shape.
func legendSwatch(e Legend) string {
	cls := shapeClass(e.Kind, e.Sub)
	if e.Color >= 0 {
		cls += fmt.Sprintf(" c%d", e.Color%len(ClientPalette))
	}
	var in string
	switch {
	case isMark(e.Kind):
		p := MarkPath(e.Kind)
		in = fmt.Sprintf(`<g class="m %s" transform="translate(17,11)"><path class="halo" d="%s"/><path d="%s"/></g>`, cls, p, p)
	case e.Kind == ShMsg:
		cut := e.Sub == MsgLost || e.Sub == MsgNoRep
		x1, y1 := 28.0, 18.0
		if cut {
			x1, y1 = 20, 12
		}
		in = fmt.Sprintf(`<g class="%s"><path d="%s"/></g>`, cls, arrowPath(6, 3, x1, y1, cut))
	case e.Kind == ShEnd:
		in = fmt.Sprintf(`<line class="%s" x1="17" x2="17" y1="2" y2="20"/>`, cls)
	case e.Kind == ShSeen:
		in = fmt.Sprintf(`<line class="%s" x1="2" x2="32" y1="11" y2="11"/>`, cls)
	default:
		in = fmt.Sprintf(`<rect class="%s" x="2" y="4" width="30" height="14"/>`, cls)
	}
	return `<svg class="lsm-tl" viewBox="0 0 34 22" aria-hidden="true">` + in + `</svg>`
}
