package chart

import (
	"math"
	"testing"
)

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
		// Reader 11: words set left of a bar, ending at its start, read
		// as a key held over the stretch they cover ("probe owner
		// 1701d658" over 8.6–10.3 s): not drawn there either.
		{"no room right, its left clear: not drawn", [][2]float64{{2.1, 8}, {10.3, 10.31}}, false, false},
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

// Reader 11: a key's words set beside its short bar were drawn where no
// key stood: left of the bar, ending at its start ("cron:report w2 owner
// 77c1a1fc" over 3–20 s, its bar at 20.05–22.14 s), or slid along their
// row. Beside its bar a key's words start at the bar's start, under it,
// or are not drawn; and when one key's words of a lane cannot be drawn
// so, no other key's of that lane are (inventory-oversell: w3's key
// named, w2's beside it not, as if it were no one's).
func TestWordsBesideABarStartAtItOrAreNotDrawn(t *testing.T) {
	room := labelRoom{
		x:     func(s float64) float64 { return 10 * s },
		yc:    func(int) float64 { return 50 },
		laneH: 20, left: 0, right: 800, pad: 0, top: 0, bottom: 100,
		width:  func(Label) float64 { return 160 },
		height: 12,
	}
	bars := [][2]float64{{20.05, 22.14}, {30.1, 32.2}, {40.1, 42.2}}
	room.bars = func(int) [][2]float64 { return bars }
	key := func(b [2]float64) Label {
		return Label{Lane: 0, X: b[0], Text: "cron:report owner 77c1a1fc", Width: b[1] - b[0], Prio: PrKey, Style: LbSmall}
	}
	t.Run("never left of its bar, never slid", func(t *testing.T) {
		for _, p := range layLabels([]Label{key(bars[0]), key(bars[1]), key(bars[2])}, room) {
			if p.shown {
				t.Errorf("words at %.0f–%.0f px drawn; each lies over another key or past the plot", p.box.x0, p.box.x1)
			}
		}
	})
	t.Run("one key's words that cannot be drawn hide the lane's others", func(t *testing.T) {
		r := room
		r.right = 2000
		two := [][2]float64{{10.26, 11.45}, {11.7, 12.8}}
		r.bars = func(int) [][2]float64 { return two }
		ps := layLabels([]Label{key(two[0]), key(two[1])}, r)
		if ps[0].shown != ps[1].shown {
			t.Errorf("w2's key words shown %v, w3's %v: one lane's keys must be named alike", ps[0].shown, ps[1].shown)
		}
	})
	t.Run("room right of its bar: drawn from its start", func(t *testing.T) {
		r := room
		r.right = 2000
		r.bars = func(int) [][2]float64 { return bars[2:] }
		p := layLabels([]Label{key(bars[2])}, r)[0]
		if !p.shown || math.Abs(p.x-(r.x(bars[2][0])+2)) > 1e-9 {
			t.Errorf("shown %v at %.0f px; want from its bar's start (%.0f px)", p.shown, p.x, r.x(bars[2][0])+2)
		}
	})
}

// Reader 11: a label never covers another mark: w1's "refused · token 1"
// lay over w2's accepted charge on gc-pause-fencing's gateway row, and
// scheduler-heartbeat-foreign-queue's "led · epoch N" over the next
// leader actions' dots.
func TestALabelNeverCoversAnotherMark(t *testing.T) {
	room := labelRoom{
		x:     func(s float64) float64 { return 10 * s },
		yc:    func(int) float64 { return 50 },
		laneH: 40, left: 0, right: 2000, pad: 0, top: 0, bottom: 100,
		width:  func(Label) float64 { return 120 },
		height: 12,
	}
	room.marks = func(int) []markAt {
		return []markAt{{x: 35.55, dy: 0, r: 7}, {x: 40.32, dy: 0, r: 8}}
	}
	ls := []Label{
		{Lane: 0, X: 40.32, Dy: 0, Text: "w1 refused · token 1", Prio: PrViolWrite},
		{Lane: 0, X: 35.55, Dy: 0, Text: "w2 charged · token 2", Prio: PrWrite},
	}
	for i, p := range layLabels(ls, room) {
		if !p.shown {
			continue
		}
		for _, m := range room.marks(0) {
			if m.x == ls[i].X {
				continue
			}
			mb := room.markBox(0, m)
			if p.box.overlaps(mb) {
				t.Errorf("%q at %.0f–%.0f px covers the mark at %.2f s", ls[i].Text, p.box.x0, p.box.x1, m.x)
			}
		}
	}
}

// Reader 11, scheduler-heartbeat-foreign-queue: a leader's "led · epoch
// 2" every second, each moved to another row or slid along one, packed
// the lane into a band of words no one could read. Words the lane already
// shows take their own place or none.
func TestRepeatedWordsTakeTheirOwnPlaceOrNone(t *testing.T) {
	room := labelRoom{
		x:     func(s float64) float64 { return 30 * s },
		yc:    func(int) float64 { return 50 },
		laneH: 60, left: 0, right: 2000, pad: 0, top: 0, bottom: 200,
		width:  func(Label) float64 { return 90 },
		height: 12,
	}
	var ls []Label
	for x := 3.0; x < 30; x += 2 {
		ls = append(ls, Label{Lane: 0, X: x, Dy: 0.3, Text: "led · epoch 2", Prio: PrWrite})
	}
	for i, p := range layLabels(ls, room) {
		if p.shown && (math.Abs(p.x-(room.x(ls[i].X)+2)) > 1e-9 || math.Abs(p.y-(50+0.3*60)) > 1e-9) {
			t.Errorf("words of %.0f s at (%.0f, %.0f) px, not at their own place (%.0f, %.0f)", ls[i].X, p.x, p.y, room.x(ls[i].X)+2, 50+0.3*60)
		}
	}
}

// Each violation band keeps its words, though the band beside it says the
// same (inventory-oversell: two "two holders at once" bands 0.3 s apart).
func TestEachViolationBandKeepsItsWords(t *testing.T) {
	room := labelRoom{
		x:     func(s float64) float64 { return 50 * s },
		yc:    func(lane int) float64 { return 100 + 40*float64(lane) },
		laneH: 40, left: 0, right: 2000, pad: 0, top: 0, bottom: 300,
		width:  func(Label) float64 { return 200 },
		height: 12,
	}
	ls := []Label{
		{Lane: -1, X: 10.26, Text: "violation: two holders at once", Prio: PrBand, Style: LbBand},
		{Lane: -1, X: 11.7, Text: "violation: two holders at once", Prio: PrBand, Style: LbBand},
	}
	for i, p := range layLabels(ls, room) {
		if !p.shown {
			t.Errorf("the band at %.2f s has no words", ls[i].X)
		}
	}
}
