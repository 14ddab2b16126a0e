package chart

import (
	"math"
	"sort"
	"strings"
)

// Label placement, one rule for the SVG (svg.go), timeline.png
// (timeline.go) and timeline.js (placeLabels, the same steps): a label
// that would overprint another is moved, never hidden (a mark a reader
// cannot see is a missing mark, issue 27). Labels are placed by priority,
// then left to right; each tries its own place, then rows of its height
// above and below it inside its lane, then slides along those rows past
// the labels in its way, by at most its own width. Words that do not fit
// the bar they name (Label.Width) are set beside the bar instead, under
// it. A label is not drawn only outside the range of seconds drawn (a
// window of a busy run) or when there is no room near its mark (a busy
// run's words outnumber the room: the page's zoom gives them room; a
// label far from its mark would name the wrong one), or when, set beside
// a short bar, it would lie over another key or hold bar of its lane on
// either side of its bar (it would name that bar: reader9, a probe's key
// named across another client's key). Words beside a short bar start at
// its start, under it, or are not drawn: set left of it or slid along
// their row they read as a key held over the stretch they cover (reader
// 11); and a lane whose words of one style cannot all be set beside
// their bars shows none of them, so that no key looks like no one's. A
// label never covers a point mark but its own (labelRoom.marks).

// labelRoom is how a renderer measures and places a drawing's labels:
// px, y downwards.
type labelRoom struct {
	x           func(s float64) float64 // scenario s → px
	yc          func(lane int) float64  // a lane's centre; lane -1: the violations' row
	laneH       float64
	left, right float64 // the plot's x range
	pad         float64 // how far past right a label may end
	top, bottom float64 // the y range a label may take
	width       func(Label) float64
	height      float64
	// bars are a lane's key and hold bars (scenario s), which words set
	// beside a short bar must not lie over: they would read as that
	// bar's (reader9: a probe's key named across another client's key);
	// nil: none known.
	bars func(lane int) [][2]float64
	// marks are a lane's point marks (writes): a label never covers one
	// but its own, the mark at its X (reader 11: a refused write's words
	// over another client's accepted charge); nil: none known.
	marks func(lane int) []markAt
}

// markAt is a point mark where a label may not lie: at x (scenario s),
// dy lane heights below its lane's centre, r px about it.
type markAt struct{ x, dy, r float64 }

// markBox is the room mark m of lane takes.
func (r labelRoom) markBox(lane int, m markAt) placement {
	x, y := r.x(m.x), r.yc(lane)+m.dy*r.laneH
	return placement{x - m.r, y - m.r, x + m.r, y + m.r}
}

// overBar reports whether box, the words of l set beside its bar, lies
// over a bar of l's lane other than l's own.
func (r labelRoom) overBar(l Label, box placement) bool {
	if r.bars == nil || l.Width <= 0 {
		return false
	}
	own0 := l.X
	if l.Mid {
		own0 = l.X - l.Width/2
	}
	for _, b := range r.bars(l.Lane) {
		if math.Abs(b[0]-own0) < 1e-9 && math.Abs(b[1]-(own0+l.Width)) < 1e-9 {
			continue
		}
		if x0, x1 := r.x(b[0]), r.x(b[1]); box.x0 < x1 && x0 < box.x1 {
			return true
		}
	}
	return false
}

// placedLabel is a label where a renderer draws it.
type placedLabel struct {
	x, y  float64 // the text's left edge (its centre when mid) and centre line, px
	mid   bool
	out   bool // moved out of the bar it did not fit in
	box   placement
	shown bool // false only outside the range drawn
	// barred: not drawn because beside its short bar each place lay over
	// another bar of its lane (labelRoom.bars), past the plot, over another
	// label, or as one of a lane whose words beside their bars were not all
	// drawn (besideAlike).
	barred bool
	// inRange: inside the range drawn (a label not shown there found no
	// room).
	inRange bool
}

// layLabels places ls in r. Words set beside their bar (out) name it
// only from its start, under it; when a lane's words of one style cannot
// all be set so, none of them are (besideAlike).
func layLabels(ls []Label, r labelRoom) []placedLabel {
	var drop map[int]bool
	for {
		out := layLabelsOnce(ls, r, drop)
		more := besideAlike(ls, out, drop)
		if len(more) == 0 {
			return out
		}
		if drop == nil {
			drop = map[int]bool{}
		}
		for i := range more {
			drop[i] = true
		}
	}
}

// besideAlike are the labels, not yet in drop, of a lane and style whose
// words set beside their bar one or more could not be drawn (reader 11,
// inventory-oversell: w3's key named on the node's row, w2's beside it
// not, as if it were no one's). Pinned labels (history.html's operations)
// keep their own rule.
func besideAlike(ls []Label, ps []placedLabel, drop map[int]bool) map[int]bool {
	type group struct {
		lane  int
		style string
	}
	failed := map[group]bool{}
	for i, p := range ps {
		if p.out && !p.shown && !drop[i] && !ls[i].Pin && (p.barred || p.inRange) {
			failed[group{ls[i].Lane, ls[i].Style}] = true
		}
	}
	more := map[int]bool{}
	for i, p := range ps {
		if p.out && !drop[i] && !ls[i].Pin && failed[group{ls[i].Lane, ls[i].Style}] {
			more[i] = true
		}
	}
	return more
}

// layLabelsOnce places ls in r but those in drop, which are not drawn.
func layLabelsOnce(ls []Label, r labelRoom, drop map[int]bool) []placedLabel {
	order := make([]int, len(ls))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		if ls[order[a]].Prio != ls[order[b]].Prio {
			return ls[order[a]].Prio > ls[order[b]].Prio
		}
		return ls[order[a]].X < ls[order[b]].X
	})
	out := make([]placedLabel, len(ls))
	kept := newBoxIndex(r.left, r.right)
	type said struct {
		lane int
		text string
	}
	saids := map[said]bool{}
	for _, i := range order {
		p, ok := r.start(ls[i])
		if !ok || drop[i] {
			p.shown, p.inRange = false, ok
			p.barred = p.barred || (ok && drop[i])
			out[i] = p
			continue
		}
		p.inRange = true
		k := said{ls[i].Lane, ls[i].Text}
		p, p.shown = r.free(p, ls[i], kept, saids[k] && ls[i].Lane >= 0) // each violation band keeps its words
		if p.shown {
			kept.add(p.box)
			saids[k] = true
		} else if p.out && !ls[i].Pin {
			p.barred = true // beside its bar another label lies: none
		}
		out[i] = p
	}
	return out
}

// start is l's own place, before any other label is looked at; ok false
// when it lies outside the range drawn.
func (r labelRoom) start(l Label) (placedLabel, bool) {
	w := r.width(l)
	p := placedLabel{x: r.x(l.X), y: r.yc(l.Lane) + l.Dy*r.laneH, mid: l.Mid}
	if l.Width > 0 && r.x(l.X+l.Width)-r.x(l.X) < w+8 {
		// Beside its bar, under it: from the bar's start.
		p.out, p.mid = true, false
		if l.Mid {
			p.x = r.x(l.X - l.Width/2)
		}
		p.y = r.yc(l.Lane) + 0.36*r.laneH
	}
	if !p.mid {
		p.x += 2
	}
	switch {
	case l.Lane < 0 && p.x+w+4 > r.right:
		p.x = math.Max(r.left, r.right-w-4) // a violation's words end at the plot's edge
	case !p.mid && l.Width == 0 && p.x+w+4 > r.right+r.pad:
		p.x -= w + 8 // words of a mark at the right edge go to its left
	}
	p.box = r.boxAt(p, w)
	if p.out && (r.overBar(l, p.box) || p.box.x1 > r.right+r.pad+2) {
		// Beside its bar the words would lie over another bar, or past
		// the plot: not drawn. Set left of the bar, ending at its start,
		// they read as a key held over the stretch they cover (reader 11:
		// "probe owner 1701d658" over 8.6–10.3 s, the probe's key set at
		// 10.31 s).
		p.barred = true
		return p, false
	}
	return p, p.box.x1 >= r.left && p.box.x0 <= r.right
}

// boxAt is the room p's words of width w take.
func (r labelRoom) boxAt(p placedLabel, w float64) placement {
	x0 := p.x
	if p.mid {
		x0 -= w / 2
	}
	return placement{x0 - 2, p.y - r.height/2, x0 + w + 2, p.y + r.height/2}
}

// free moves p to the first place where it overprints no label kept
// (false when there is none): its own, rows above and below it inside its
// lane, then, unless pinned (Label.Pin), slides along them by at most its
// own width. A label never
// leaves its lane nor strays further, so that it stays beside its mark;
// violations' words (row) keep to their row and the rows under it, down
// to the first lane's centre.
//
// Words a label kept in the lane already says (a leader's "led · epoch 2"
// every second) take their own place or none: moved, they packed a row
// end to end into a band no one could read, each beside another's mark
// (reader 11, scheduler-heartbeat-foreign-queue).
func (r labelRoom) free(p placedLabel, l Label, kept *boxIndex, repeat bool) (placedLabel, bool) {
	lane, pin := l.Lane, l.Pin || p.out || repeat // words beside their bar start at it (reader 11)
	w := p.box.x1 - p.box.x0 - 4
	step := r.height + 1
	lo, hi := r.yc(lane)-r.laneH/2-r.height/4, r.yc(lane)+r.laneH/2+r.height/4
	if lane < 0 {
		lo, hi = r.top, r.yc(0)
	}
	rows := []float64{0}
	for k := 1; !repeat && float64(k)*step <= hi-lo; k++ {
		for _, d := range []float64{float64(k) * step, -float64(k) * step} {
			if p.box.y0+d >= lo && p.box.y1+d <= hi {
				rows = append(rows, d)
			}
		}
	}
	at := func(dy float64, slide bool) (placedLabel, bool) {
		q := p
		q.y += dy
		q.box = r.boxAt(q, w)
		if !slide {
			_, hit := r.first(l, q.box, kept)
			return q, !hit && !(q.out && r.overBar(l, q.box))
		}
		for _, dir := range []float64{1, -1} {
			s := q
			for {
				b, hit := r.first(l, s.box, kept)
				if !hit {
					if s.out && r.overBar(l, s.box) {
						break // slid beside another bar
					}
					return s, true
				}
				if dir > 0 {
					s.x += b.x1 - s.box.x0 + 1
				} else {
					s.x -= s.box.x1 - b.x0 + 1
				}
				s.box = r.boxAt(s, w)
				if math.Abs(s.x-q.x) > w+8 || s.box.x1 > r.right+r.pad || s.box.x0 < r.left {
					break
				}
			}
		}
		return q, false
	}
	for _, slide := range []bool{false, true} {
		if slide && pin {
			break
		}
		for _, dy := range rows {
			if q, ok := at(dy, slide); ok {
				return q, true
			}
		}
	}
	return p, false // no room near its mark
}

// first is a label kept, or a mark not l's own, that box overlaps.
func (r labelRoom) first(l Label, box placement, kept *boxIndex) (placement, bool) {
	if b, hit := kept.first(box); hit {
		return b, true
	}
	if r.marks == nil || l.Lane < 0 {
		return placement{}, false
	}
	for _, m := range r.marks(l.Lane) {
		if math.Abs(m.x-l.X) < 1e-9 {
			continue // its own
		}
		if b := r.markBox(l.Lane, m); box.overlaps(b) {
			return b, true
		}
	}
	return placement{}, false
}

// boxIndex holds the boxes kept, by columns of x, so that a busy run's
// thousands of labels are each checked against their neighbours only.
type boxIndex struct {
	left float64
	cols map[int][]placement
}

const boxCol = 64.0 // px

func newBoxIndex(left, _ float64) *boxIndex {
	return &boxIndex{left: left, cols: map[int][]placement{}}
}

func (ix *boxIndex) span(b placement) (int, int) {
	return int(math.Floor((b.x0 - ix.left) / boxCol)), int(math.Floor((b.x1 - ix.left) / boxCol))
}

func (ix *boxIndex) add(b placement) {
	c0, c1 := ix.span(b)
	for c := c0; c <= c1; c++ {
		ix.cols[c] = append(ix.cols[c], b)
	}
}

// first is a kept box b overlaps, if any.
func (ix *boxIndex) first(b placement) (placement, bool) {
	c0, c1 := ix.span(b)
	for c := c0; c <= c1; c++ {
		for _, k := range ix.cols[c] {
			if b.overlaps(k) {
				return k, true
			}
		}
	}
	return placement{}, false
}

func (ix *boxIndex) clear(b placement) bool {
	_, hit := ix.first(b)
	return !hit
}

// LabelBox is where a picture put a label: whether it is drawn and the
// room its words take (px of that picture; y downwards).
type LabelBox struct {
	Shown          bool
	X0, Y0, X1, Y1 float64
	// Inside: the words lie within the picture's width.
	Inside bool
	// Barred: words that do not fit their bar not drawn beside it: there
	// they would lie over another bar of the lane, where they would name
	// that bar (reader9), or past the plot, or over another label, or
	// another of the lane's words beside their bars is not drawn
	// (reader 11: left of the bar, or slid, they read as a key held
	// where none was).
	Barred bool
}

// Overlaps reports whether b and c share any room.
func (b LabelBox) Overlaps(c LabelBox) bool {
	return placement{b.X0, b.Y0, b.X1, b.Y1}.overlaps(placement{c.X0, c.Y0, c.X1, c.Y1})
}

// laneBars are d's key and hold bars by lane (labelRoom.bars).
func laneBars(d *Drawing) func(int) [][2]float64 {
	by := map[int][][2]float64{}
	for _, s := range d.Shapes {
		if s.Kind == ShHold || s.Kind == ShKey || s.Kind == ShBelieved {
			by[s.Lane] = append(by[s.Lane], [2]float64{s.X0, s.X1})
		}
	}
	return func(lane int) [][2]float64 { return by[lane] }
}

// laneMarks are d's point marks (writes) by lane (labelRoom.marks), each
// r(kind) px about its place. A refused acquire's plus is not among them:
// a hold's words may lie over a run of them.
func laneMarks(d *Drawing, r func(kind string) float64) func(int) []markAt {
	by := map[int][]markAt{}
	for _, s := range d.Shapes {
		if isMark(s.Kind) && s.Kind != ShTry {
			by[s.Lane] = append(by[s.Lane], markAt{x: s.X0, dy: s.Y0, r: r(s.Kind)})
		}
	}
	return func(lane int) []markAt { return by[lane] }
}

// LaidLabels are where index.html's SVG (as written, svgW px wide) and
// timeline.png put each of d's labels.
func LaidLabels(d *Drawing) (svg, png []LabelBox) {
	a, z := d.Start, d.End
	pad := (z - a) * SvgPad
	g := geom{w: svgW, laneH: svgLaneH, a: a - pad, z: z + pad}
	var laid []placedLabel
	p, legend := timelinePlot(d, &laid)
	drawPNG(p, legend, TimelineW, TimelineHeight(len(d.Lanes)))
	// The pictures' x ranges in their labels' units: the SVG's from its
	// lane names' column to its right margin (labels are placed in plot
	// px), the PNG's its canvas (vg units).
	box := func(ps []placedLabel, x0, x1 float64) []LabelBox {
		out := make([]LabelBox, len(ps))
		for i, q := range ps {
			out[i] = LabelBox{Shown: q.shown, X0: q.box.x0, Y0: q.box.y0, X1: q.box.x1, Y1: q.box.y1,
				Inside: q.box.x0 >= x0 && q.box.x1 <= x1, Barred: q.barred}
		}
		return out
	}
	room := svgLabelRoom(g, len(d.Lanes))
	room.bars, room.marks = laneBars(d), laneMarks(d, markSize)
	return box(layLabels(d.Labels, room), -svgLaneW, g.plotW()+svgPadR), box(laid, 0, float64(Px(TimelineW)))
}

// BandWords are a violation band's words: head, then as many of words,
// joined by ", ", as fit the plot of the narrowest picture (timeline.png's
// and the SVG's, with room for the lane names), the rest counted by more
// (issue 27, a fresh reader: five kinds' words ran past timeline.png's
// edge, "charged more than onc"). The band's tip and the anomalies table
// give every kind.
func BandWords(head string, words []string, more func(n int) string) string {
	fits := func(s string) bool {
		l := Label{Text: s, Style: LbBand}
		return textWidthPx(s, labelSize(LbBand)) <= 0.8*(svgW-svgLaneW-svgPadR) &&
			float64(labelStyle(l, false).Width(s)) <= 0.7*float64(Px(TimelineW))
	}
	text := head + strings.Join(words, ", ")
	for n := len(words) - 1; n >= 1 && !fits(text); n-- {
		text = head + strings.Join(words[:n], ", ") + " " + more(len(words)-n)
	}
	return text
}
