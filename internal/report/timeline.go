package report

import (
	"fmt"
	"image/color"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// maxMarkerLabels bounds the text labels on write markers and hold bars;
// beyond it the markers stay and the words go, so a busy run stays
// readable.
const maxMarkerLabels = 24

// band is a violation window on the timeline: overlapping anomalies are
// merged into one band with one label listing their kinds.
type band struct {
	s, e  float64 // scenario s
	kinds []string
}

// mergeBands merges the non-informational anomalies' windows that overlap
// (or touch) into bands, ordered by start; minW widens instants so they
// stay visible.
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
		if n := len(out); n > 0 && b.s <= out[n-1].e {
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
	case history.EffectCrashNode, history.EffectCrashClient:
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
		return tr(lang, "p.pause")
	}
	return faultWord(lang, st.Kind)
}

// mark is an end-of-key marker on the timeline: where, its word, and the
// client lane it sits on (-1 on a node lane).
type mark struct {
	x, y   float64
	word   string
	client int
}

// drawPermits draws a semaphore's permits (the account's sorted-set
// members) on their node's lane, one thin row per permit slot, each in its
// owner's colour from the ZADD to its end, and returns the markers of the
// permits a purge removed.
func (m *model) drawPermits(p *plot.Plot, nodeLane map[string]int, laneY func(int) float64, endS float64, lang Lang) []mark {
	lockKeys := map[string]bool{}
	for _, k := range m.keys {
		lockKeys[k] = true
	}
	// The permits that backed a grant, on the lock's own key (a fair
	// semaphore's owner set is its twin; a refused attempt's member lives
	// for an instant and backs nothing).
	var ms []account.MemberLife
	for _, ml := range m.a.Members() {
		if lockKeys[ml.Key] && ml.Grant >= 0 {
			ms = append(ms, ml)
		}
	}
	if len(ms) == 0 {
		return nil
	}
	// Rows per node: a permit takes the first row free at its start.
	rows := map[string][]int64{} // node → end of the last permit in each row
	var out []mark
	slot := make([]int, len(ms))
	for i, ml := range ms {
		r := rows[ml.Node]
		j := 0
		for j < len(r) && r[j] > ml.Start {
			j++
		}
		if j == len(r) {
			r = append(r, 0)
		}
		r[j] = ml.End
		rows[ml.Node] = r
		slot[i] = j
	}
	for i, ml := range ms {
		ni, ok := nodeLane[ml.Node]
		if !ok {
			continue
		}
		n := max(len(rows[ml.Node]), 1)
		h := 0.8 / float64(n)
		y0 := laneY(ni) - 0.4 + float64(slot[i])*h
		ci := m.laneOf(ml.Owner)
		col := clientColor(max(ci, 0))
		s, e := m.sec(ml.Start), m.sec(ml.End)
		if ml.End > m.end {
			e = endS
		}
		if e <= s {
			e = s + endS*0.003
		}
		p.Add(rect(s, e, y0+h*0.1, y0+h*0.9, lighter(col), draw.LineStyle{Color: col, Width: vg.Points(1)}))
		if ml.Ended.Kind == account.EndPurged && ml.End <= m.end {
			out = append(out, mark{e, y0 + h/2, endWord(lang, ml.Ended), -1})
		}
	}
	return out
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
	case account.EndReleased:
		return tr(lang, "p.released")
	case account.EndPurged:
		return tr(lang, "p.purged")
	case account.EndClock:
		return tr(lang, "p.clock")
	case account.EndHeld:
		return tr(lang, "p.held")
	}
	return tr(lang, "p.expired")
}

// darkShade reports whether a fault shade is dark enough (over white) that
// its label wants white text: the crash and node-pause greys.
func darkShade(c color.NRGBA) bool {
	// Luminance of c blended over white by its alpha.
	a := float64(c.A) / 255
	lum := (0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)) / 255
	return a*lum+(1-a) < 0.55
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

// writeTimeline draws timeline.png: x is scenario seconds; one lane per
// client (hold bars labelled with tokens, the part held after the lock was
// lost, pauses and link faults, refused acquires, writes) and one per node
// (when the lock key existed there and whose it was, node faults);
// violation windows as red bands across all lanes.
func writeTimeline(path string, in Input, m *model, headline string) error {
	lang := normLang(in.Lang)
	nc := len(m.clients)
	lanes := nc + len(m.nodes)
	laneY := func(i int) float64 { return float64(lanes - 1 - i) }
	nodeLane := map[string]int{}
	for i, n := range m.nodes {
		nodeLane[n] = nc + i
	}
	laneOf := func(name string) int {
		if i := m.laneOf(name); i >= 0 {
			return i
		}
		if i, ok := nodeLane[name]; ok {
			return i
		}
		return -1
	}
	endS := m.sec(m.end)
	if endS <= 0 {
		endS = 1
	}
	multiKey := len(m.keys) > 1
	semaphore := in.History.Header.Workload == history.WorkloadSemaphore
	// Data units per pixel on x (approximate plot area: image minus the
	// y-axis labels), for placing labels so they do not collide.
	perPx := endS * 1.1 / float64(timelineW-190)

	title := in.History.Header.Scenario + " — " + tr(lang, "verdict."+string(in.Verdict))
	if emulated(in.History.Header) {
		title += " — " + tr(lang, "emulated")
	}
	if in.Aborted {
		title += " — " + tr(lang, "aborted")
	}
	title += "\n" + wrapText(headline, 120)
	p := newPlot(title)
	p.X.Label.Text = tr(lang, "p.x")
	p.X.Min, p.X.Max = 0, endS*1.1
	bands := mergeBands(allAnomalies(in.Results), endS*0.004)
	top := float64(lanes) - 0.5 + 0.15
	if len(bands) > 0 {
		top += 0.45
	}
	p.Y.Min, p.Y.Max = -0.55, top
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
	// Labels placed left-aligned on one row of one lane must not overlap:
	// rowEnd remembers where the last one ended (data x).
	rowEnd := map[string]float64{}
	placeLeft := func(row string, x, y float64, s string, sty text.Style) bool {
		w := float64(sty.Width(s)) * 96 / 72 * perPx
		if x < rowEnd[row] {
			return false
		}
		rowEnd[row] = x + w + 8*perPx
		label(x, y, s, sty)
		return true
	}
	minLabelPx := func(s string, sty text.Style) float64 { return (float64(sty.Width(s))*96/72 + 16) * perPx }

	// Violation bands (behind everything), one label each, stacked when
	// two labels would overlap.
	var lastLabelEnd = -1e18
	row := 0
	for _, b := range bands {
		r := rect(b.s, b.e, -0.5, float64(lanes)-0.5+0.15, colViolation, draw.LineStyle{Color: colRefused, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}})
		p.Add(r)
		var words []string
		for _, k := range b.kinds {
			words = append(words, m.kindWord(lang, k))
		}
		s := tr(lang, "p.violation") + ": " + strings.Join(words, ", ")
		sty := boldStyle(fontSize, colRefused)
		w := float64(sty.Width(s)) * 96 / 72 * perPx
		x := b.s
		if x+w > p.X.Max {
			x = max(0, p.X.Max-w)
		}
		if x < lastLabelEnd {
			row++
		} else {
			row = 0
		}
		lastLabelEnd = x + w + 10*perPx
		label(x, float64(lanes)-0.5+0.42-0.0*float64(row), s, sty)
	}
	if len(bands) > 0 {
		legend = append(legend, legendEntry{rect(0, 1, 0, 1, colViolation, draw.LineStyle{Color: colRefused, Width: vg.Points(1.5)}), tr(lang, "p.violation")})
	}
	// Wasted work (informational duplicate-work): an amber band over the
	// lanes of the clients involved, dotted, never red: waste, not harm.
	waste := false
	for _, a := range allAnomalies(in.Results) {
		if a.Kind != checker.KindDuplicateWork {
			continue
		}
		e := max(a.EndS, a.StartS+endS*0.004)
		for _, c := range a.Clients {
			if i := m.laneOf(c); i >= 0 {
				y := laneY(i)
				p.Add(rect(a.StartS, e, y-0.45, y+0.45, colWaste, draw.LineStyle{Color: colWasteEdge, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(2), vg.Points(3)}}))
				waste = true
			}
		}
	}
	if waste {
		legend = append(legend, legendEntry{rect(0, 1, 0, 1, colWaste, draw.LineStyle{Color: colWasteEdge, Width: vg.Points(1.5)}), tr(lang, "p.waste")})
	}

	// Faults. Node faults and link faults shade lanes behind the bars;
	// client pauses are drawn over the hold bars afterwards.
	seenFault := map[string]bool{}
	addFaultLegend := func(st history.FaultStep) {
		if seenFault[st.Kind] {
			return
		}
		seenFault[st.Kind] = true
		legend = append(legend, legendEntry{rect(0, 1, 0, 1, faultColor(st), draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(1)}), tr(lang, "p.fault", faultLegendWord(lang, st))})
	}
	var pauses []window
	faultLabel := boldStyle(fontSize-1, color.NRGBA{60, 0, 90, 255})
	for _, w := range m.faults {
		s, e := m.sec(w.Start), m.sec(w.End)
		if e-s < endS*0.004 {
			e = s + endS*0.004
		}
		st := w.Step
		col := faultColor(st)
		from, to := linkGroups(st.Links)
		rest := append(slices.Clone(st.Clients), st.Nodes...)
		addFaultLegend(st)
		if st.Effect == history.EffectFreezeClient {
			pauses = append(pauses, w)
			continue
		}
		short := faultWord(lang, st.Kind)
		if (st.Effect == history.EffectNodeClock || st.Effect == history.EffectClientClock) && st.Rate == 0 {
			short += " " + signedDur(m.sdur(st.Delta))
		}
		shaded := false
		for _, t := range rest {
			i := laneOf(t)
			if i < 0 {
				continue
			}
			shaded = true
			y := laneY(i)
			p.Add(rect(s, e, y-0.46, y+0.46, col, noLine()))
			lbl := faultLabel
			if darkShade(col) { // purple on a dark shade is unreadable
				lbl = boldStyle(fontSize-1, color.White)
			}
			placeLeft(fmt.Sprintf("fault%d", i), s+4*perPx, y+0.33, short, lbl)
		}
		// A link fault a→b: shade b's lane ("cut from a") and a thin
		// strip at the bottom of a's lane ("cut from b, c"); latency and
		// resets say so instead of "cut".
		linkWord := "p.cut"
		switch st.Effect {
		case history.EffectSlowLinks:
			linkWord = "p.slow"
		case history.EffectResetLinks:
			linkWord = "p.reset"
		}
		for _, a := range from {
			ai := laneOf(a)
			for _, b := range to[a] {
				if bi := laneOf(b); bi >= 0 {
					shaded = true
					y := laneY(bi)
					p.Add(rect(s, e, y-0.46, y+0.46, col, noLine()))
					placeLeft(fmt.Sprintf("fault%d", bi), s+4*perPx, y+0.33, tr(lang, linkWord, a), faultLabel)
				}
			}
			if ai >= 0 {
				shaded = true
				y := laneY(ai)
				p.Add(rect(s, e, y-0.46, y-0.3, col, draw.LineStyle{Color: color.Gray{Y: 90}, Width: vg.Points(1)}))
				placeLeft(fmt.Sprintf("cut%d", ai), s+4*perPx, y-0.38, tr(lang, linkWord, strings.Join(to[a], ", ")), boldStyle(fontSize-3, color.Black))
			}
		}
		if !shaded {
			p.Add(rect(s, e, -0.5, float64(lanes)-0.5, col, noLine()))
		}
	}

	// Lock holds on client lanes and key lifetimes on node lanes.
	seenClient := map[string]bool{}
	hasBelieved := false
	var expiries []mark
	labelAll := len(m.leases) <= maxMarkerLabels
	// A busy run draws its bars per pixel column instead (see dense.go).
	dense := len(m.leases) > maxTimelineBars
	cols := newColumns(p.X.Max, perPx)
	holdSpans, believedSpans, nodeSpans := make([][]span, nc), make([][]span, nc), make([][]span, len(m.nodes))
	holdStyle := boldStyle(fontSize, color.Black)
	for _, l := range m.leases {
		ci := m.laneOf(l.Client)
		if ci < 0 {
			continue
		}
		col := clientColor(ci)
		y := laneY(ci)
		s, held := m.sec(l.Start), m.sec(min(l.KeyEnd, l.BelievedEnd))
		if l.KeyEnd > m.end && l.BelievedEnd >= m.end {
			held = endS
		}
		if held <= s {
			held = s + endS*0.003
		}
		name := m.tokenLabel(lang, l)
		if multiKey {
			name = l.Key + " " + name
		}
		bar := rect(s, held, y-0.2, y+0.2, col, draw.LineStyle{Color: color.Black, Width: vg.Points(1)})
		if dense {
			holdSpans[ci] = append(holdSpans[ci], span{s, held, ci})
		} else {
			p.Add(bar)
		}
		if !seenClient[l.Client] {
			seenClient[l.Client] = true
			legend = append(legend, legendEntry{bar, tr(lang, pick(semaphore, "p.hold.permit", "p.hold"), l.Client)})
		}
		// (A label is at least 16 px wide: narrower bars need no measuring.)
		if labelAll || (held-s >= 16*perPx && held-s >= minLabelPx(name, holdStyle)) {
			placeLeft(fmt.Sprintf("hold%d", ci), s, y+0.41, name, holdStyle)
		}
		if be := m.sec(l.BelievedEnd); l.BelievedEnd > l.KeyEnd && be > held {
			hasBelieved = true
			if dense {
				believedSpans[ci] = append(believedSpans[ci], span{held, be, ci})
			} else {
				p.Add(rect(held, be, y-0.2, y+0.2, colBelieved, draw.LineStyle{Color: colRefused, Width: vg.Points(2), Dashes: []vg.Length{vg.Points(6), vg.Points(4)}}))
			}
		}
		// Node lanes: the key existed on each granting node from its
		// SET to its end, as the account has it.
		for _, k := range l.Lives {
			ni, ok := nodeLane[k.Node]
			if !ok {
				continue
			}
			ny := laneY(ni)
			ks, ke := m.sec(k.Start), m.sec(k.End)
			if k.End > m.end {
				ke = endS
			}
			if ke <= ks {
				ke = ks + endS*0.003
			}
			if dense {
				nodeSpans[ni-nc] = append(nodeSpans[ni-nc], span{ks, ke, ci})
			} else {
				p.Add(rect(ks, ke, ny-0.2, ny+0.2, lighter(col), draw.LineStyle{Color: col, Width: vg.Points(1.5)}))
			}
			kl := l.Client + " " + name
			sty := boldStyle(fontSize-1, color.Black)
			if ke-ks >= 16*perPx && ke-ks >= minLabelPx(kl, sty) {
				label(ks+6*perPx, ny, kl, sty)
			} else if labelAll {
				placeLeft(fmt.Sprintf("key%d", ni), ks, ny-0.33, kl, boldStyle(fontSize-3, color.Black))
			}
			if k.End <= m.end && k.Ended.Gone() {
				expiries = append(expiries, mark{ke, ny, endWord(lang, k.Ended), -1})
			}
		}
		switch {
		case !l.lost() || l.KeyEnd > l.BelievedEnd:
		case len(l.Lives) > 1 && len(m.nodes) > 1:
			expiries = append(expiries, mark{m.sec(l.KeyEnd), y, tr(lang, "p.quorum.lost"), ci})
		case l.Cause.Gone() || l.Cause.Kind == account.EndTaken || l.Cause.Kind == account.EndPurged:
			expiries = append(expiries, mark{m.sec(l.KeyEnd), y, endWord(lang, l.Cause), ci})
		}
	}
	expiries = append(expiries, m.drawPermits(p, nodeLane, laneY, endS, lang)...)
	if dense {
		for ci := range holdSpans {
			y := laneY(ci)
			col := clientColor(ci)
			for _, r := range cols.paint(holdSpans[ci]) {
				p.Add(rect(r.s, r.e, y-0.2, y+0.2, col, draw.LineStyle{Color: color.Black, Width: vg.Points(1)}))
			}
			for _, r := range cols.paint(believedSpans[ci]) {
				p.Add(rect(r.s, r.e, y-0.2, y+0.2, colBelieved, draw.LineStyle{Color: colRefused, Width: vg.Points(2), Dashes: []vg.Length{vg.Points(6), vg.Points(4)}}))
			}
		}
		for i, spans := range nodeSpans {
			ny := laneY(nc + i)
			for _, r := range cols.paint(spans) {
				col := clientColor(r.owner)
				if (r.e-r.s)/perPx >= 4 {
					p.Add(rect(r.s, r.e, ny-0.2, ny+0.2, lighter(col), draw.LineStyle{Color: col, Width: vg.Points(1.5)}))
				} else {
					p.Add(rect(r.s, r.e, ny-0.2, ny+0.2, col, noLine()))
				}
			}
		}
	}
	if hasBelieved {
		legend = append(legend, legendEntry{rect(0, 1, 0, 1, colBelieved, draw.LineStyle{Color: colRefused, Width: vg.Points(2), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}), tr(lang, pick(semaphore, "p.believed.permit", "p.believed"))})
	}

	// Client pauses over the hold bars: dark, with the pause in words.
	for _, w := range pauses {
		s, e := m.sec(w.Start), m.sec(w.End)
		for _, t := range w.Step.Clients {
			i := m.laneOf(t)
			if i < 0 {
				continue
			}
			y := laneY(i)
			p.Add(rect(s, e, y-0.27, y+0.27, faultColor(w.Step), draw.LineStyle{Color: color.Black, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}))
			txt := tr(lang, "p.paused", t, tr(lang, "p.pause.word"), m.faultDur(w))
			sty := boldStyle(fontSize+1, color.White)
			if (e-s)/perPx > float64(sty.Width(txt))*96/72+20 {
				sty.XAlign = draw.XCenter
				label((s+e)/2, y, txt, sty)
			} else {
				label(s, y-0.38, txt, boldStyle(fontSize-2, color.Black))
			}
		}
	}

	// Expiry: a thick vertical tick and the word, left of it.
	expSty := draw.LineStyle{Color: color.Black, Width: vg.Points(3)}
	sort.SliceStable(expiries, func(i, j int) bool { return expiries[i].x < expiries[j].x })
	if len(expiries) > maxTimelineMarks {
		// One tick per lane and pixel column, all in one plotter.
		ticks := segments{sty: expSty}
		seen := map[[2]int]bool{}
		for _, xy := range expiries {
			k := [2]int{int(xy.y), cols.col(xy.x)}
			if !seen[k] {
				seen[k] = true
				ticks.xys = append(ticks.xys, plotter.XY{X: xy.x, Y: xy.y - 0.32}, plotter.XY{X: xy.x, Y: xy.y + 0.32})
			}
		}
		p.Add(ticks)
	} else {
		for _, xy := range expiries {
			ln, _ := plotter.NewLine(plotter.XYs{{X: xy.x, Y: xy.y - 0.32}, {X: xy.x, Y: xy.y + 0.32}})
			ln.LineStyle = expSty
			p.Add(ln)
		}
	}
	// The word goes only on client lanes, right of the tick on the row of
	// the token labels; on node lanes the legend explains the tick.
	if len(expiries) <= maxMarkerLabels {
		for _, xy := range expiries {
			if xy.client < 0 {
				continue
			}
			placeLeft(fmt.Sprintf("hold%d", xy.client), xy.x+5*perPx, xy.y+0.41, xy.word, boldStyle(fontSize-1, color.Black))
		}
	}
	if len(expiries) > 0 {
		var words []string
		for _, e := range expiries {
			if !containsStr(words, e.word) {
				words = append(words, e.word)
			}
		}
		legend = append(legend, legendEntry{lineThumb{expSty}, tr(lang, "p.ended", strings.Join(words, ", "))})
	}

	// Refused acquire attempts: small grey marks at the bottom of the lane.
	var tries plotter.XYs
	for _, o := range in.History.Ops {
		if o.F == history.Acquire && o.Type == history.Fail {
			if i := m.laneOf(o.Client); i >= 0 {
				tries = append(tries, plotter.XY{X: m.sec(o.Invoke), Y: laneY(i) - 0.42})
			}
		}
	}
	if len(tries) > 0 {
		sc := scatter(thinXY(tries, perPx, 0.02), draw.GlyphStyle{Color: colTryFail, Radius: vg.Points(4), Shape: thickPlus{vg.Points(1.5)}})
		p.Add(sc)
		legend = append(legend, legendEntry{sc, tr(lang, "p.acquire.fail")})
	}

	// Writes: accepted (green), accepted without the lock (red, the
	// violating write) and refused (red X).
	var okXY, badXY, staleXY, otherXY plotter.XYs
	effects := false // an accepted effect other than a charge: generic legend words
	var okW, badW, staleW []history.Op
	inViolation := map[int]bool{} // writes a checker named as the violation
	for _, a := range allAnomalies(in.Results) {
		if !a.Informational {
			for _, i := range a.Violating {
				inViolation[i] = true
			}
		}
	}
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
			// Only a write a checker names as the violation is drawn as
			// one (a legitimate first run or charge stays green).
			violating := inViolation[o.Index]
			if !effectAction(o.Value.Action) {
				otherXY = append(otherXY, xy)
				continue
			}
			if o.Value.Action != history.ActionCharge {
				effects = true
			}
			if violating {
				staleXY, staleW = append(staleXY, xy), append(staleW, o)
				continue
			}
			okXY, okW = append(okXY, xy), append(okW, o)
		case history.Fail:
			badXY, badW = append(badXY, xy), append(badW, o)
		}
	}
	if len(otherXY) > 0 {
		sc := scatter(thinXY(otherXY, perPx, 0.02), draw.GlyphStyle{Color: colAccepted, Radius: vg.Points(5), Shape: draw.BoxGlyph{}})
		p.Add(sc)
		legend = append(legend, legendEntry{sc, tr(lang, "p.other.ok")})
	}
	if len(okXY) > 0 {
		sc := scatter(thinXY(okXY, perPx, 0.02), draw.GlyphStyle{Color: colAccepted, Radius: vg.Points(8), Shape: outlinedCircle{}})
		p.Add(sc)
		legend = append(legend, legendEntry{sc, tr(lang, pick(effects, "p.effect.ok", "p.charge.ok"))})
	}
	if len(staleXY) > 0 {
		sc := scatter(thinXY(staleXY, perPx, 0.02), draw.GlyphStyle{Color: colRefused, Radius: vg.Points(10), Shape: outlinedCircle{}})
		p.Add(sc)
		legend = append(legend, legendEntry{sc, tr(lang, pick(effects, "p.effect.bad", "p.charge.bad"))})
	}
	if len(badXY) > 0 {
		sc := scatter(thinXY(badXY, perPx, 0.02), draw.GlyphStyle{Color: colRefused, Radius: vg.Points(10), Shape: thickCross{vg.Points(4)}})
		p.Add(sc)
		legend = append(legend, legendEntry{sc, tr(lang, "p.write.refused")})
	}
	if len(okW)+len(badW)+len(staleW) <= maxMarkerLabels {
		for i, o := range okW {
			placeLeft(fmt.Sprintf("w%d", m.laneOf(o.Client)), okXY[i].X+12*perPx, okXY[i].Y-0.3, actWord(lang, o)+fenceSuffix(m, o), boldStyle(fontSize, colAccepted))
		}
		for i, o := range staleW {
			placeLeft(fmt.Sprintf("w%d", m.laneOf(o.Client)), staleXY[i].X+14*perPx, staleXY[i].Y-0.3, actWord(lang, o)+fenceSuffix(m, o), boldStyle(fontSize, colRefused))
		}
		for i, o := range badW {
			placeLeft(fmt.Sprintf("w%d", m.laneOf(o.Client)), badXY[i].X+14*perPx, badXY[i].Y-0.3, tr(lang, "p.refused")+fenceSuffix(m, o), boldStyle(fontSize, colRefused))
		}
	}

	if len(lblXY) > 0 {
		p.Add(labels(lblXY, lblText, lblStyle))
	}
	return savePNG(path, p, legend, timelineW, timelineHeight(lanes))
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

// fenceSuffix is " (token N)" for a write made under fencing token N.
func fenceSuffix(m *model, o history.Op) string {
	if f := m.fenceOf(o); f > 0 {
		return fmt.Sprintf(" (token %d)", f)
	}
	return ""
}

// effectAction reports whether a write action is a workload's effect (the
// thing the lock protects), drawn as a big marker: a charge, a sale, a
// counter write, a job run, a leader action, a semaphore entry, a rebuild.
// Other writes (claim, mark-paid, exit) are small squares.
func effectAction(action string) bool {
	switch action {
	case "", history.ActionCharge, history.ActionSell, history.ActionSetCounter, history.ActionRunJob,
		history.ActionLead, history.ActionEnter, history.ActionRebuild:
		return true
	}
	return false
}

// actWord labels an accepted effect marker: "charged", "sold", "set 3", …
func actWord(lang Lang, o history.Op) string {
	if _, ok := messages["en"]["p.act."+o.Value.Action]; !ok {
		return tr(lang, "p.charged")
	}
	w := tr(lang, "p.act."+o.Value.Action)
	if o.Value.Num != nil && o.Value.Action == history.ActionSetCounter {
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
