package chart

import (
	"fmt"
	"image/color"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/history"
)

// One table of how every shape and label of a drawing looks, read by the
// SVG renderer (as CSS), the PNG renderer and the contrast test. Meaning
// never rests on colour alone: accepted, violating and refused writes
// differ by shape (circle, diamond, cross), violation windows and beliefs
// that outlived their lock by a dashed edge; every label is drawn over a
// white halo, so its contrast is its colour's against white (≥ 4.5:1,
// TestTimelineContrast), whatever it crosses.

// shapeStyle is how one shape kind is painted; widths in px.
type shapeStyle struct {
	Fill, Stroke color.NRGBA
	Width        float64
	Dash         []float64
}

// Colours.
var (
	Ink         = color.NRGBA{17, 17, 17, 255}
	White       = color.NRGBA{255, 255, 255, 255}
	colOKMark   = color.NRGBA{26, 127, 60, 255}   // accepted effect (circle)
	colBadMark  = color.NRGBA{198, 40, 40, 255}   // the violating write (diamond)
	colRefMark  = color.NRGBA{34, 34, 34, 255}    // refused write (cross)
	colOthMark  = color.NRGBA{110, 110, 110, 255} // another write (square)
	colTryMark  = color.NRGBA{68, 68, 68, 255}    // refused acquire (plus)
	colBandFill = color.NRGBA{214, 40, 40, 40}
	colBandEdge = color.NRGBA{179, 38, 30, 255}
	colBelFill  = color.NRGBA{255, 214, 214, 255}
	colMsg      = color.NRGBA{112, 112, 112, 255}
	colMsgCut   = color.NRGBA{179, 38, 30, 255}
	colClock    = color.NRGBA{148, 0, 211, 70}
	colSeen     = color.NRGBA{60, 60, 60, 255}
)

// Label colours, by label style: each has at least 4.5:1 against white.
var LabelColors = map[string]color.NRGBA{
	LbPlain: Ink,
	LbBad:   {165, 14, 14, 255},
	LbOK:    {20, 107, 50, 255},
	LbFault: {74, 26, 107, 255},
	LbSmall: Ink,
	LbOn:    White,
}

// pauseFill is a frozen client's band, dark enough for white words.
var PauseFill = color.NRGBA{45, 45, 45, 225}

// styleOf is the style of a shape kind (with its sub-kind and a client's
// palette index where the kind takes one).
func StyleOf(kind, sub string, c int) shapeStyle {
	switch kind {
	case ShBand:
		return shapeStyle{Fill: colBandFill, Stroke: colBandEdge, Width: 2, Dash: []float64{7, 4}}
	case ShWaste:
		return shapeStyle{Fill: colWaste, Stroke: colWasteEdge, Width: 2, Dash: []float64{2, 4}}
	case ShShade, ShStrip:
		return shapeStyle{Fill: FaultColor(history.FaultStep{Effect: sub}), Stroke: color.NRGBA{}, Width: 0}
	case ShPause:
		return shapeStyle{Fill: PauseFill, Stroke: Ink, Width: 1.5, Dash: []float64{5, 3}}
	case ShHold:
		return shapeStyle{Fill: clientColor(c), Stroke: Ink, Width: 1}
	case ShBelieved:
		return shapeStyle{Fill: colBelFill, Stroke: colBandEdge, Width: 2, Dash: []float64{6, 4}}
	case ShKey, ShPermit:
		col := clientColor(c)
		if sub == "inferred" {
			// Inferred from the clients' outcomes: a dashed outline.
			return shapeStyle{Fill: Lighter(Lighter(col)), Stroke: darker(col), Width: 2, Dash: []float64{6, 4}}
		}
		return shapeStyle{Fill: Lighter(col), Stroke: col, Width: 1.5}
	case ShOp:
		col := clientColor(c)
		if sub == OpOut {
			return shapeStyle{Fill: White, Stroke: colBandEdge, Width: 2.5, Dash: []float64{6, 3}}
		}
		return shapeStyle{Fill: Lighter(col), Stroke: darker(col), Width: 1.5}
	case ShEnd:
		return shapeStyle{Stroke: Ink, Width: 3}
	case ShClock:
		return shapeStyle{Fill: colClock}
	case ShTry:
		return shapeStyle{Stroke: colTryMark, Width: 2}
	case ShWriteOK:
		return shapeStyle{Fill: colOKMark, Stroke: Ink, Width: 1.5}
	case ShWriteBad:
		return shapeStyle{Fill: colBadMark, Stroke: Ink, Width: 2}
	case ShWriteRef:
		return shapeStyle{Stroke: colRefMark, Width: 4}
	case ShWriteOth:
		return shapeStyle{Fill: colOthMark, Stroke: Ink, Width: 1}
	case ShWriteUnk:
		// Hollow and dashed: it may or may not have happened.
		return shapeStyle{Fill: White, Stroke: colOKMark, Width: 2, Dash: []float64{3, 2}}
	case ShSeen:
		return shapeStyle{Stroke: colSeen, Width: 1.5, Dash: []float64{3, 3}}
	case ShMsg:
		switch sub {
		case MsgLost, MsgNoRep:
			return shapeStyle{Stroke: colMsgCut, Width: 2}
		}
		return shapeStyle{Stroke: colMsg, Width: 1}
	}
	return shapeStyle{Fill: color.NRGBA{200, 200, 200, 255}}
}

// markSize is the radius in px of a point shape.
func markSize(kind string) float64 {
	switch kind {
	case ShWriteBad:
		return 10
	case ShWriteRef:
		return 8
	case ShWriteOK:
		return 7
	case ShWriteOth:
		return 5
	case ShWriteUnk:
		return 8
	case ShTry:
		return 5
	}
	return 6
}

// isMark reports whether a shape kind is a point mark (drawn at X0 with a
// fixed size), not an interval.
func isMark(kind string) bool {
	switch kind {
	case ShWriteOK, ShWriteBad, ShWriteRef, ShWriteOth, ShWriteUnk, ShTry:
		return true
	}
	return false
}

// markPath is a mark's outline as SVG path data around (0,0), px.
func MarkPath(kind string) string {
	r := markSize(kind)
	f := func(v float64) string { return trimFloat(v) }
	switch kind {
	case ShWriteOK:
		return fmt.Sprintf("M%s,0A%s,%s 0 1,0 %s,0A%s,%s 0 1,0 %s,0Z", f(-r), f(r), f(r), f(r), f(r), f(r), f(-r))
	case ShWriteBad:
		return fmt.Sprintf("M0,%sL%s,0L0,%sL%s,0Z", f(-r), f(r), f(r), f(-r))
	case ShWriteRef:
		return fmt.Sprintf("M%s,%sL%s,%sM%s,%sL%s,%s", f(-r), f(-r), f(r), f(r), f(-r), f(r), f(r), f(-r))
	case ShWriteOth:
		return fmt.Sprintf("M%s,%sH%sV%sH%sZ", f(-r), f(-r), f(r), f(r), f(-r))
	case ShWriteUnk:
		// A triangle, point up (y grows downwards).
		return fmt.Sprintf("M0,%sL%s,%sL%s,%sZ", f(-r), f(r), f(r*0.8), f(-r), f(r*0.8))
	case ShTry:
		return fmt.Sprintf("M%s,0H%sM0,%sV%s", f(-r), f(r), f(-r), f(r))
	}
	return ""
}

func trimFloat(v float64) string {
	s := fmt.Sprintf("%.1f", v)
	s = strings.TrimSuffix(s, ".0")
	if s == "-0" {
		s = "0"
	}
	return s
}

// darker is c at two thirds of its brightness.
func darker(c color.NRGBA) color.NRGBA {
	return color.NRGBA{uint8(int(c.R) * 2 / 3), uint8(int(c.G) * 2 / 3), uint8(int(c.B) * 2 / 3), 255}
}

// css is a colour as CSS.
func CSS(c color.NRGBA) string {
	if c.A == 0 {
		return "none"
	}
	if c.A == 255 {
		return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
	}
	return fmt.Sprintf("rgba(%d,%d,%d,%.3g)", c.R, c.G, c.B, float64(c.A)/255)
}

// relLuminance is WCAG 2's relative luminance of an opaque colour.
func relLuminance(c color.NRGBA) float64 {
	ch := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
}

// contrast is WCAG 2's contrast ratio of two opaque colours (1 to 21).
func Contrast(a, b color.NRGBA) float64 {
	la, lb := relLuminance(a), relLuminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// over blends c over an opaque background.
func Over(c, bg color.NRGBA) color.NRGBA {
	a := float64(c.A) / 255
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*a + float64(y)*(1-a))) }
	return color.NRGBA{mix(c.R, bg.R), mix(c.G, bg.G), mix(c.B, bg.B), 255}
}

// timelineCSS is the stylesheet of every SVG timeline, generated from
// the style table above so the PNG and the SVG cannot disagree.
func TimelineCSS() string {
	var b strings.Builder
	b.WriteString(timelineBaseCSS)
	rule := func(sel string, st shapeStyle) {
		fmt.Fprintf(&b, "%s{fill:%s;stroke:%s;stroke-width:%spx", sel, CSS(st.Fill), CSS(st.Stroke), trimFloat(st.Width))
		if len(st.Dash) > 0 {
			var ds []string
			for _, d := range st.Dash {
				ds = append(ds, trimFloat(d))
			}
			fmt.Fprintf(&b, ";stroke-dasharray:%s", strings.Join(ds, " "))
		}
		b.WriteString("}\n")
	}
	for _, k := range []string{ShBand, ShWaste, ShPause, ShBelieved, ShEnd, ShClock, ShTry, ShWriteOK, ShWriteBad, ShWriteRef, ShWriteOth, ShWriteUnk, ShSeen} {
		rule(".lsm-tl .s-"+k, StyleOf(k, "", -1))
	}
	for _, e := range []string{history.EffectFreezeNode, history.EffectCutLinks, history.EffectSlowLinks, history.EffectResetLinks,
		history.EffectCrashNode, history.EffectCrashClient, history.EffectRestartClient, history.EffectNodeClock, history.EffectClientClock, history.EffectDeleteKey,
		history.EffectFailover, history.EffectStarveRenewer, ""} {
		sub := e
		if sub == "" {
			sub = "other"
		}
		rule(".lsm-tl .s-shade.e-"+sub+",.lsm-tl .s-strip.e-"+sub, StyleOf(ShShade, e, -1))
	}
	for i := range ClientPalette {
		rule(fmt.Sprintf(".lsm-tl .s-hold.c%d", i), StyleOf(ShHold, "", i))
		rule(fmt.Sprintf(".lsm-tl .s-key.c%d,.lsm-tl .s-permit.c%d", i, i), StyleOf(ShKey, "", i))
		rule(fmt.Sprintf(".lsm-tl .s-key.e-inferred.c%d", i), StyleOf(ShKey, "inferred", i))
		rule(fmt.Sprintf(".lsm-tl .s-op.e-in.c%d", i), StyleOf(ShOp, OpIn, i))
		rule(fmt.Sprintf(".lsm-tl .s-op.e-out.c%d", i), StyleOf(ShOp, OpOut, i))
	}
	rule(".lsm-tl .s-msg", StyleOf(ShMsg, MsgCmd, -1))
	rule(".lsm-tl .s-msg.m-lost,.lsm-tl .s-msg.m-norep", StyleOf(ShMsg, MsgLost, -1))
	for _, st := range slices.Sorted(maps.Keys(LabelColors)) { // the same page for the same run
		fmt.Fprintf(&b, ".lsm-tl text.%s{fill:%s}\n", st, CSS(LabelColors[st]))
	}
	// Words moved out of the dark bar they name take the fault words' colour.
	fmt.Fprintf(&b, ".lsm-tl text.%s.out{fill:%s}\n", LbOn, CSS(LabelColors[LbFault]))
	return b.String()
}

// timelineBaseCSS is the part of the timeline's stylesheet not made from
// the style table: lanes, axis, labels (with their white halo), the tip.
const timelineBaseCSS = `.lsm-tl{margin:12px 0;position:relative}
.lsm-tl svg.lsm-svg{display:block;width:100%;height:auto;font-family:"Liberation Sans",Arial,Helvetica,sans-serif;touch-action:pan-y;user-select:none}
.lsm-tl .lane-bg{fill:#fff;stroke:#d0d0d0;stroke-width:1px}
.lsm-tl .lane-bg.node{fill:#f7f7f7}
.lsm-tl .lane-bg.resource{fill:#f4f8ff}
.lsm-tl .lane-name{font-size:18px;font-weight:700;fill:#111}
.lsm-tl .lane-sub{font-size:14px;font-weight:700;fill:#4a1a6b}
.lsm-tl .lane-name2{font-size:16px;font-weight:700;fill:#111}
.lsm-tl .tick line{stroke:#bbb;stroke-width:1px}
.lsm-tl .tick text,.lsm-tl .axis-name{font-size:15px;fill:#222}
.lsm-tl text.lb,.lsm-tl text.lb-bad,.lsm-tl text.lb-ok,.lsm-tl text.lb-f,.lsm-tl text.lb-s{font-size:15px;font-weight:700;paint-order:stroke;stroke:#fff;stroke-width:4px;stroke-linejoin:round}
.lsm-tl text.lb-s{font-size:13px}
.lsm-tl text.lb-on{font-size:15px;font-weight:700}
.lsm-tl text.lb-on.out{paint-order:stroke;stroke:#fff;stroke-width:4px;stroke-linejoin:round}
.lsm-tl .m path,.lsm-tl .s-end,.lsm-tl .s-msg{paint-order:stroke}
.lsm-tl .m .halo{fill:none;stroke:#fff;stroke-width:6px}
.lsm-tl .s-msg .halo{fill:none;stroke:#fff;stroke-width:4px;opacity:.8}
.lsm-tl .s-msg.m-reply{stroke-dasharray:3 2}
.lsm-tl [data-tip]{cursor:help}
.lsm-tl .hl,.lsm-tl .hl path{stroke:#000!important;stroke-width:3px!important}
.lsm-tip{position:absolute;z-index:10;max-width:560px;background:#fff;color:#111;border:2px solid #333;border-radius:6px;padding:8px 12px;font-size:16px;line-height:1.35;white-space:pre-line;box-shadow:0 4px 14px rgba(0,0,0,.25);pointer-events:none}
.lsm-tools{display:flex;gap:8px;align-items:center;flex-wrap:wrap;font-size:16px;margin:4px 0}
.lsm-tools button{font-size:18px;min-width:40px;padding:4px 10px;border:2px solid #333;background:#fff;border-radius:6px;cursor:pointer}
.lsm-tools .lsm-range{font-family:"Liberation Mono",Menlo,monospace;font-weight:700}
ul.lsm-legend{list-style:none;padding:0;margin:6px 0 0;display:flex;flex-wrap:wrap;gap:6px 22px;font-size:16px}
ul.lsm-legend li{display:flex;align-items:center;gap:6px}
ul.lsm-legend svg{width:34px;height:22px;flex:none}
.lsm-note{font-size:16px;color:#444}
`
