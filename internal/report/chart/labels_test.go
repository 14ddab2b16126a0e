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
