package chart

import "testing"

// A pinned label (an operation of porcupine's history.html) takes another
// row of its lane or is hidden; it never slides along a row to beside
// another bar, where it would read as that operation's, out of order
// (reader 7, F16: "release ✓" drawn 1.1 s before its bar, left of the
// "charge ✓" it followed). An unpinned one still slides.
func TestAPinnedLabelNeverSlidesAwayFromItsBar(t *testing.T) {
	room := labelRoom{
		x:     func(s float64) float64 { return 100 * s },
		yc:    func(int) float64 { return 50 },
		laneH: 20, left: 0, right: 2000, pad: 0, top: 0, bottom: 100,
		width:  func(Label) float64 { return 80 },
		height: 19,
	}
	for _, tt := range []struct {
		name      string
		pin       bool
		wantShown bool
	}{
		{"a pinned label with no room of its own is hidden", true, false},
		{"an unpinned one slides beside it", false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ls := []Label{
				{Lane: 0, X: 10, Dy: 0, Text: "charge ✓", Prio: PrKey, Pin: tt.pin},
				{Lane: 0, X: 10.2, Dy: 0, Text: "release ✓", Prio: PrKey, Pin: tt.pin},
			}
			ps := layLabels(ls, room)
			if !ps[0].shown {
				t.Fatalf("the first label is hidden")
			}
			if ps[1].shown != tt.wantShown {
				t.Fatalf("second label shown %v, want %v (at x=%.0f, its bar at %.0f)", ps[1].shown, tt.wantShown, ps[1].x, room.x(10.2))
			}
			if tt.pin && ps[1].shown && ps[1].x != room.x(10.2)+2 {
				t.Errorf("pinned label moved along its row to x=%.0f", ps[1].x)
			}
		})
	}
}

// Reader9: the label of the probe's tiny key at the right edge of
// timeline.png went to the bar's left, about 3 s across another client's
// key in the same lane ("probe owner 47f18207" over w2's key on n3–n5 of
// redlock-clock-jump), as if the probe held the key there. A label set
// beside a short bar never lies over another bar of its lane: it goes
// right of its bar, or left when that side is clear, or is not drawn.
func TestALabelBesideItsShortBarNeverOverliesAnotherBar(t *testing.T) {
	room := labelRoom{
		x:     func(s float64) float64 { return 100 * s },
		yc:    func(int) float64 { return 50 },
		laneH: 20, left: 0, right: 1100, pad: 0, top: 0, bottom: 100,
		width:  func(Label) float64 { return 130 },
		height: 12,
	}
	probe := Label{Lane: 0, X: 10.3, Text: "probe owner 47f18207", Width: 0.01, Prio: PrKey}
	for _, tt := range []struct {
		name      string
		bars      [][2]float64
		wantShown bool
		wantRight bool
	}{
		{"no room right, another key under its left: not drawn", [][2]float64{{2.1, 10.3}, {10.3, 10.31}}, false, false},
		{"no room right, its left clear: drawn left", [][2]float64{{2.1, 8}, {10.3, 10.31}}, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := room
			r.bars = func(int) [][2]float64 { return tt.bars }
			p := layLabels([]Label{probe}, r)[0]
			if p.shown != tt.wantShown {
				t.Fatalf("shown %v, want %v (box %.0f–%.0f)", p.shown, tt.wantShown, p.box.x0, p.box.x1)
			}
			if !p.shown {
				return
			}
			for _, b := range tt.bars {
				if b[0] != probe.X && p.box.x0 < r.x(b[1]) && r.x(b[0]) < p.box.x1 {
					t.Errorf("label at %.0f–%.0f px lies over the bar %.1f–%.1f s", p.box.x0, p.box.x1, b[0], b[1])
				}
			}
		})
	}
	t.Run("room right of its bar: drawn there, over no bar", func(t *testing.T) {
		r := room
		r.right = 2000
		r.bars = func(int) [][2]float64 { return [][2]float64{{2.1, 10.3}, {10.3, 10.31}} }
		p := layLabels([]Label{probe}, r)[0]
		if !p.shown || p.box.x0 < r.x(10.3) {
			t.Errorf("shown %v at %.0f px; want right of its bar (%.0f px)", p.shown, p.box.x0, r.x(10.3))
		}
	})
}
