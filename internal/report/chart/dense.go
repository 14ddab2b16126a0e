package chart

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// Busy runs. A timeline of tens of thousands of lock holds cannot show
// each one (a bar is thinner than a pixel), and drawing them one by one
// is what made a large report slow. Beyond maxTimelineBars leases the
// timeline paints its bars per pixel column; beyond maxTimelineMarks
// markers of one kind, markers closer than two pixels are drawn once.
// Smaller runs are drawn exactly as before.
const (
	MaxTimelineBars  = 500
	maxTimelineMarks = 2000
)

// span is an interval on one lane (data x) owned by a client lane.
type Span struct {
	s, e  float64
	owner int
}

// columns maps data x to the pixel columns of a plot.
type Columns struct {
	perPx float64 // data units per pixel
	n     int
}

func newColumns(xmax, perPx float64) Columns {
	if perPx <= 0 {
		perPx = 1
	}
	return Columns{perPx: perPx, n: int(xmax/perPx) + 1}
}

func (c Columns) col(x float64) int {
	i := int(math.Floor(x / c.perPx))
	return min(max(i, 0), c.n-1)
}

// paint lays spans onto the columns in order, a later span covering an
// earlier one as drawing them in order would, and returns the runs of
// neighbouring columns with the same owner, left to right. Each column is
// painted once (the spans are visited last to first, skipping painted
// columns), so the cost is O(spans + columns).
func (c Columns) paint(spans []Span) []Span {
	if len(spans) == 0 {
		return nil
	}
	owner := make([]int, c.n)
	next := make([]int, c.n+1) // next[i]: first unpainted column ≥ i (path-halving)
	for i := range owner {
		owner[i] = -1
		next[i] = i
	}
	next[c.n] = c.n
	find := func(i int) int {
		for next[i] != i {
			next[i] = next[next[i]]
			i = next[i]
		}
		return i
	}
	for k := len(spans) - 1; k >= 0; k-- {
		sp := spans[k]
		c1 := c.col(sp.e)
		for i := find(c.col(sp.s)); i <= c1; i = find(i + 1) {
			owner[i] = sp.owner
			next[i] = i + 1
		}
	}
	var out []Span
	for i := 0; i < c.n; {
		if owner[i] < 0 {
			i++
			continue
		}
		j := i
		for j < c.n && owner[j] == owner[i] {
			j++
		}
		out = append(out, Span{s: float64(i) * c.perPx, e: float64(j) * c.perPx, owner: owner[i]})
		i = j
	}
	return out
}

// segments strokes many line segments (consecutive pairs of points) as
// one plotter.
type segments struct {
	xys []plotter.XY
	sty draw.LineStyle
}

func (s segments) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for i := 0; i+1 < len(s.xys); i += 2 {
		a, b := s.xys[i], s.xys[i+1]
		c.StrokeLine2(s.sty, trX(a.X), trY(a.Y), trX(b.X), trY(b.Y))
	}
}

// thinXY drops markers that would land within two pixels (dx, dy: data
// units per pixel) of one already kept, when there are more than
// maxTimelineMarks; fewer are returned unchanged.
func ThinXY(xys plotter.XYs, dx, dy float64) plotter.XYs {
	if len(xys) <= maxTimelineMarks || dx <= 0 || dy <= 0 {
		return xys
	}
	seen := make(map[[2]int64]bool, maxTimelineMarks)
	out := make(plotter.XYs, 0, maxTimelineMarks)
	for _, xy := range xys {
		k := [2]int64{int64(math.Floor(xy.X / (2 * dx))), int64(math.Floor(xy.Y / (2 * dy)))}
		if !seen[k] {
			seen[k] = true
			out = append(out, xy)
		}
	}
	return out
}
