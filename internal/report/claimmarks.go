package report

import (
	"fmt"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// markClaims gives each mark of d that draws a fact a claim states the id
// of that claim (rendered as data-claim, issue 27): a fault's shade, strip,
// pause or clock offset (its Fault claim), a hold bar (Hold), a refused
// attempt (Refusal), a violating write (the Anomaly naming it) and a key's
// bar and end tick on a node (KeyLife). It matches by the history record a
// mark draws (chart.Shape.Op) and the record a claim rests on first; a mark with
// no such claim keeps none. cs are the run's numbered claims
// (Results.Claims).
func markClaims(d *chart.Drawing, cs []claim.Claim, m *model) {
	first := map[string]string{}
	put := func(k, id string) {
		if _, ok := first[k]; !ok {
			first[k] = id
		}
	}
	for _, c := range cs {
		if len(c.Records) > 0 {
			put(fmt.Sprintf("%s#%d", c.Kind, c.Records[0]), c.ID)
		}
		for _, w := range c.Violating {
			put(fmt.Sprintf("violating#%d", w), c.ID)
		}
	}
	of := func(k claim.Kind, rec int) string { return first[fmt.Sprintf("%s#%d", k, rec)] }
	for i := range d.Shapes {
		s := &d.Shapes[i]
		if s.Op <= 0 || s.Op > len(m.h.Ops) {
			continue
		}
		rec := s.Op - 1
		switch s.Kind {
		case chart.ShShade, chart.ShStrip, chart.ShPause, chart.ShClock:
			s.Claim = of(claim.Fault, rec)
		case chart.ShHold, chart.ShBelieved:
			s.Claim = of(claim.Hold, rec)
		case chart.ShTry:
			s.Claim = of(claim.Refusal, rec)
		case chart.ShWriteBad:
			s.Claim = first[fmt.Sprintf("violating#%d", rec)]
		case chart.ShKey, chart.ShEnd:
			if s.Lane < 0 || s.Lane >= len(d.Lanes) || d.Lanes[s.Lane].Kind != chart.LaneNode {
				continue
			}
			if m.h.Ops[rec].F == history.NodeCmd {
				s.Claim = of(claim.KeyLife, rec)
				continue
			}
			// A key drawn from its grant: the life the grant had on this
			// lane's node.
			for _, k := range m.a.GrantedBy(rec) {
				if k.Node == d.Lanes[s.Lane].Name {
					s.Claim = of(claim.KeyLife, k.Set)
				}
			}
		}
	}
}
