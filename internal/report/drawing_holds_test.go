package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// Reader 19 (scheduler-heartbeat-own-queue seed 25): w2 held leader-2
// (t=1.0–30.0) and leader-1 (t=19.1–30.0) at once, and both bars were
// drawn on w2's row at one height: the leader-1 bar covered the leader-2
// one, the row read as one lock that changed owner at t=19.1, and w2's
// leader-2 actions after it were hidden under its leader-1 ones.
func TestAClientsHoldsAtOnceEachStayVisible(t *testing.T) {
	in := recorded(t, "scheduler-heartbeat-own-queue")
	d := drawingOf(t, in)
	w2 := laneNamed(d, "w2")
	holds := shapesOn(d, w2, chart.ShHold)
	keyOf := func(s chart.Shape) string { return in.History.Ops[s.Op-1].Key }
	t.Run("two holds of w2 at once are drawn at different heights", func(t *testing.T) {
		overlapping := 0
		for i, a := range holds {
			for _, b := range holds[:i] {
				if a.X0 >= b.X1 || b.X0 >= a.X1 {
					continue
				}
				overlapping++
				if a.Y0 < b.Y1 && b.Y0 < a.Y1 {
					t.Errorf("the %s hold %.1f–%.1f s (y %.2f–%.2f) covers the %s hold %.1f–%.1f s (y %.2f–%.2f)",
						keyOf(a), a.X0, a.X1, a.Y0, a.Y1, keyOf(b), b.X0, b.X1, b.Y0, b.Y1)
				}
			}
		}
		if overlapping == 0 {
			t.Error("the case has no two holds of w2 at once")
		}
	})
	t.Run("each hold at once carries its own words beside its own bar", func(t *testing.T) {
		for _, h := range holds {
			found := false
			for _, l := range d.Labels {
				if l.Lane != w2 || l.Ref != h.Ref || !strings.HasPrefix(l.Text, keyOf(h)+" ") {
					continue
				}
				// Above the top bar, under the bottom one: never on the
				// other's side.
				for _, o := range holds {
					if o.Ref != h.Ref && o.X0 < h.X1 && h.X0 < o.X1 && (o.Y0 < h.Y0) == (l.Dy < h.Y0) {
						t.Errorf("the words %q (dy %.2f) of the %s hold (y %.2f–%.2f) are on the side of the %s hold (y %.2f–%.2f)", l.Text, l.Dy, keyOf(h), h.Y0, h.Y1, keyOf(o), o.Y0, o.Y1)
					}
				}
				found = true
			}
			if !found {
				t.Errorf("the %s hold at %.1f s has no words of its own", keyOf(h), h.X0)
			}
		}
	})
	t.Run("each write of w2 sits on its own lock's bar", func(t *testing.T) {
		n := 0
		for _, s := range d.Shapes {
			if s.Lane != w2 || s.Op == 0 || in.History.Ops[s.Op-1].F != history.Write {
				continue
			}
			o := in.History.Ops[s.Op-1]
			for _, h := range holds {
				if keyOf(h) == o.Key && s.X0 >= h.X0 && s.X0 <= h.X1 {
					n++
					if s.Y0 < h.Y0 || s.Y0 > h.Y1 {
						t.Errorf("w2's %s write at %.1f s is drawn at y %.2f, off its lock's bar (y %.2f–%.2f)", o.Key, s.X0, s.Y0, h.Y0, h.Y1)
					}
				}
			}
		}
		if n == 0 {
			t.Error("w2 made no write under a hold")
		}
	})
	t.Run("w2's writes under its two locks at one instant are both visible", func(t *testing.T) {
		var writes []chart.Shape
		for _, s := range d.Shapes {
			if s.Lane == w2 && s.Op > 0 && in.History.Ops[s.Op-1].F == history.Write {
				writes = append(writes, s)
			}
		}
		pairs := 0
		for i, a := range writes {
			for _, b := range writes[:i] {
				if ka, kb := in.History.Ops[a.Op-1].Key, in.History.Ops[b.Op-1].Key; ka != kb && a.X0-b.X0 < 0.1 && b.X0-a.X0 < 0.1 {
					pairs++
					if a.Y0 == b.Y0 {
						t.Errorf("w2's %s write at %.2f s and its %s write at %.2f s are drawn at one height (y %.2f)", ka, a.X0, kb, b.X0, a.Y0)
					}
				}
			}
		}
		if pairs == 0 {
			t.Error("w2 made no two writes under its two locks at one instant")
		}
	})
}

// A client that only ever held one key is drawn as before the holds at
// once had rows: every hold the lane's middle, its words above it.
func TestAClientsOneKeyHoldsKeepTheirHeight(t *testing.T) {
	for _, name := range []string{"leader-split-brain", "extend-after-expiry", "redlock-majority-partition"} {
		t.Run(name+": every hold bar is at the lane's middle", func(t *testing.T) {
			d := drawingOf(t, recorded(t, name))
			for _, s := range d.Shapes {
				if s.Kind == chart.ShHold && (s.Y0 != -0.2 || s.Y1 != 0.2) {
					t.Errorf("a hold on lane %d at %.1f s is drawn at y %.2f–%.2f, want -0.20–0.20", s.Lane, s.X0, s.Y0, s.Y1)
				}
			}
		})
	}
}
