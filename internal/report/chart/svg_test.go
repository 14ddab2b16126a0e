package chart

import "testing"

// Issue 31: an arrow kept on a node's lane (a refused attempt's, when
// another lane lies between its client and the node) must not leave that
// lane, cut or not: a cut arrow that stopped "just outside the lane it was
// meant for" reached into the lane above.
func TestArrowsKeptOnOneLaneStayInsideIt(t *testing.T) {
	g := geom{w: svgW, laneH: svgLaneH, a: 0, z: 10}
	for _, sub := range []string{MsgCmd, MsgReply, MsgLost, MsgNoRep} {
		t.Run("a "+sub+" arrow on the node's lane stays between the lane's top and the key bar's top", func(t *testing.T) {
			s := Shape{Kind: ShMsg, Sub: sub, Lane: 3, Lane2: 3, X0: 5, X1: 5}
			_, y0, _, y1, cut := g.arrowEnds(s)
			top, bar := g.yc(3)-0.5*g.laneH, g.yc(3)-0.2*g.laneH
			r := 0.0
			if cut {
				r = 5 // the cross's half size, px
			}
			for _, y := range []float64{y0, y1 - r, y1 + r} {
				if y < top || y > bar {
					t.Errorf("it reaches y=%.1f, outside [%.1f, %.1f] (lane top to bar top)", y, top, bar)
				}
			}
			if cut != (sub == MsgLost || sub == MsgNoRep) {
				t.Errorf("cut is %t", cut)
			}
		})
	}
}
