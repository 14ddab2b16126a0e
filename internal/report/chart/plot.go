package chart

import (
	"image/color"
	"math"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Image geometry. PNGs are rendered at pngDPI, so a size in pixels is
// px × 72 / pngDPI points (vg units).
const (
	pngDPI       = 96
	TimelineW    = 1600 // px
	TimelineBase = 330  // px, plus laneHeight per lane
	LaneHeight   = 100  // px
	LatencyW     = 1600 // px
	LatencyH     = 600  // px
	LegendH      = 120  // px, strip under the plot
	fontSize     = 17   // pt; ≥ 14 so it reads projected
)

func Px(n float64) vg.Length { return vg.Length(n * 72 / pngDPI) }

// Colours: Okabe–Ito, distinguishable for colour-blind readers and on a
// projector; none is the red of violations or the green of accepted writes.
var ClientPalette = []color.NRGBA{
	{0, 114, 178, 255},   // blue
	{230, 159, 0, 255},   // orange
	{204, 121, 167, 255}, // purple
	{86, 180, 233, 255},  // sky
	{120, 94, 60, 255},   // brown
	{90, 90, 90, 255},    // grey
}

var (
	ColRefused   = color.NRGBA{200, 0, 0, 255}
	colWaste     = color.NRGBA{255, 176, 0, 70}  // informational wasted work (duplicate-work)
	colWasteEdge = color.NRGBA{200, 120, 0, 255} //
)

func clientColor(i int) color.NRGBA {
	if i < 0 {
		return ClientPalette[len(ClientPalette)-1]
	}
	return ClientPalette[i%len(ClientPalette)]
}

func Lighter(c color.NRGBA) color.NRGBA {
	return color.NRGBA{uint8(255 - (255-int(c.R))*55/100), uint8(255 - (255-int(c.G))*55/100), uint8(255 - (255-int(c.B))*55/100), 255}
}

// sans is the plots' typeface: a sans serif reads better projected.
var Sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

func textStyle(size float64, c color.Color) text.Style {
	return text.Style{Color: c, Font: font.From(Sans, vg.Points(size)), Handler: plot.DefaultTextHandler,
		XAlign: draw.XLeft, YAlign: draw.YCenter}
}

func boldStyle(size float64, c color.Color) text.Style {
	s := textStyle(size, c)
	s.Font.Weight = 700 // font.Weight is x/image/font.Weight; 700 ≈ bold
	return s
}

// newPlot returns a plot with large fonts.
func NewPlot(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(Sans, vg.Points(fontSize+4))
	p.Title.Padding = vg.Points(8)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(Sans, vg.Points(fontSize))
		a.Tick.Label.Font = font.From(Sans, vg.Points(fontSize))
		a.Padding = vg.Points(4)
	}
	return p
}

// rect is a filled rectangle in data coordinates.
func Rect(x0, x1, y0, y1 float64, fill color.Color, line draw.LineStyle) *plotter.Polygon {
	pg, _ := plotter.NewPolygon(plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	pg.Color = fill
	pg.LineStyle = line
	return pg
}

func NoLine() draw.LineStyle { return draw.LineStyle{} }

// labels builds a Labels plotter; each label has its own style.
func Labels(xys plotter.XYs, strs []string, styles []text.Style) *plotter.Labels {
	l, _ := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: strs})
	copy(l.TextStyle, styles)
	return l
}

// thickCross is a red X glyph thicker than draw.CrossGlyph's 0.5 pt.
type thickCross struct{ width vg.Length }

func (g thickCross) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: g.width})
	r := sty.Radius * 0.8
	var p vg.Path
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y + r})
	c.Stroke(p)
	p = p[:0]
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y - r})
	c.Stroke(p)
}

// outlinedCircle is a filled circle with a dark edge.
type outlinedCircle struct{}

func (outlinedCircle) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	draw.CircleGlyph{}.DrawGlyph(c, sty, pt)
	draw.RingGlyph{}.DrawGlyph(c, draw.GlyphStyle{Color: color.Black, Radius: sty.Radius, Shape: draw.RingGlyph{}}, pt)
}

func Scatter(xys plotter.XYs, g draw.GlyphStyle) *plotter.Scatter {
	s, _ := plotter.NewScatter(xys)
	s.GlyphStyle = g
	return s
}

// LegendEntry is one entry of a PNG's legend: a thumbnail and its words.
type LegendEntry struct {
	Thumb plot.Thumbnailer
	Text  string
}

// StackThumb is the legend thumbnail of fault shades at once on a perf
// plot: a's band over b's, each half the height.
func StackThumb(a, b color.Color) plot.Thumbnailer { return stackThumb{a, b} }

type stackThumb struct{ a, b color.Color }

func (s stackThumb) Thumbnail(c *draw.Canvas) {
	mid := (c.Min.Y + c.Max.Y) / 2
	box := func(y0, y1 vg.Length, col color.Color) {
		c.FillPolygon(col, []vg.Point{{X: c.Min.X, Y: y0}, {X: c.Max.X, Y: y0}, {X: c.Max.X, Y: y1}, {X: c.Min.X, Y: y1}})
	}
	box(mid, c.Max.Y, s.a)
	box(c.Min.Y, mid, s.b)
}

// lineThumb draws a short vertical line as a legend thumbnail.
type lineThumb struct{ sty draw.LineStyle }

func (l lineThumb) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(l.sty, x, c.Min.Y, x, c.Max.Y)
}

// drawLegend lays entries out left to right, wrapping, inside c.
func drawLegend(c draw.Canvas, entries []LegendEntry) {
	legendLayout(c, entries, true)
}

// legendRows is how many rows the legend takes across w px.
func legendRows(entries []LegendEntry, wPx float64) int {
	c := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: Px(wPx), Y: Px(LegendH)}}}
	return legendLayout(c, entries, false)
}

// legendLayout places the entries in rows from the top of c, drawing them
// when draw is set, and returns the number of rows.
func legendLayout(c draw.Canvas, entries []LegendEntry, paint bool) int {
	sty := textStyle(fontSize, color.Black)
	thumbW, thumbH := Px(36), Px(24)
	gap, rowH := Px(28), Px(38)
	x, y := c.Min.X+Px(20), c.Max.Y-Px(12)-thumbH/2
	rows := 1
	for _, e := range entries {
		w := thumbW + Px(8) + sty.Width(e.Text)
		if x+w > c.Max.X-Px(10) && x > c.Min.X+Px(20) {
			x, y = c.Min.X+Px(20), y-rowH
			rows++
		}
		if !paint {
			x += w + gap
			continue
		}
		tc := draw.Crop(c, 0, 0, 0, 0)
		tc.Rectangle = vg.Rectangle{Min: vg.Point{X: x, Y: y - thumbH/2}, Max: vg.Point{X: x + thumbW, Y: y + thumbH/2}}
		e.Thumb.Thumbnail(&tc)
		c.FillText(sty, vg.Point{X: x + thumbW + Px(8), Y: y}, e.Text)
		x += w + gap
	}
	return rows
}

// savePNG draws p over the top of a wPx×hPx image, the legend in a strip
// under it, and writes the PNG to path.
func SavePNG(path string, p *plot.Plot, entries []LegendEntry, wPx, hPx float64) error {
	img := drawPNG(p, entries, wPx, hPx)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := EncodePNG(f, img.Image()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// drawPNG draws p over the top of a wPx×hPx image, the legend in a strip
// under it.
func drawPNG(p *plot.Plot, entries []LegendEntry, wPx, hPx float64) *vgimg.Canvas {
	img := vgimg.NewWith(vgimg.UseWH(Px(wPx), Px(hPx)), vgimg.UseDPI(pngDPI), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(img)
	// Every legend row is drawn: more than fit the strip take room from
	// the plot, not from the legend.
	lh := Px(max(LegendH, 38*float64(legendRows(entries, wPx))+30))
	if len(entries) == 0 {
		lh = 0
	}
	p.Draw(draw.Crop(dc, Px(10), -Px(20), lh, -Px(6)))
	if len(entries) > 0 {
		lc := dc
		lc.Max.Y = lc.Min.Y + lh
		drawLegend(lc, entries)
	}
	return img
}

// NiceTicks puts a labelled tick every 1, 2 or 5 × 10^k scenario seconds
// so there are about ten, and an unlabelled one halfway; its labels have
// a decimal point ("2.5").
func NiceTicks(lo, hi float64) []plot.Tick { return niceTicks(lo, hi, false) }

// Ticks is NiceTicks with the labels written as a language writes
// numbers: with a decimal comma ("2,5") when comma is true.
func Ticks(comma bool) plot.TickerFunc {
	return func(lo, hi float64) []plot.Tick { return niceTicks(lo, hi, comma) }
}

// Decimal writes v with as few decimals as it needs, with a decimal comma
// when comma is true: a number of an axis.
func Decimal(v float64, comma bool) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if comma {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// DecimalSign is t with its labels' decimal points made commas when comma
// is true: an axis whose ticks gonum writes (a perf plot's y axis).
func DecimalSign(t plot.Ticker, comma bool) plot.Ticker {
	if !comma {
		return t
	}
	return plot.TickerFunc(func(lo, hi float64) []plot.Tick {
		ts := t.Ticks(lo, hi)
		for i := range ts {
			ts[i].Label = strings.Replace(ts[i].Label, ".", ",", 1)
		}
		return ts
	})
}

func niceTicks(lo, hi float64, comma bool) []plot.Tick {
	span := hi - lo
	if span <= 0 {
		return nil
	}
	step := math.Pow(10, math.Floor(math.Log10(span/10)))
	for _, f := range []float64{1, 2, 5, 10} {
		if span/(step*f) <= 12 {
			step *= f
			break
		}
	}
	var ts []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		ts = append(ts, plot.Tick{Value: v, Label: Decimal(v, comma)})
		if v+step/2 <= hi {
			ts = append(ts, plot.Tick{Value: v + step/2})
		}
	}
	return ts
}
