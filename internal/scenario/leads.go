package scenario

import (
	"fmt"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// LeadFloor is the least wall time a time-triggered fault (faults[i].at)
// may be planned after the latest client start before it (issue 32).
// Coverage counts a run as on time while the harness is less than
// history.MaxTimerLag (100 ms) late, and a client can be that late at its
// start and once more on one command (a loaded machine's false VALID in
// failover-fence-regression: w1 began 41 ms late, its acquire's EVALSHA
// went unanswered 63 ms, and the failover planned 100 ms after w1's start
// came before w1 held anything). A lead under twice that bound can flip
// the plan's order in a run the checkers accept as on time.
const LeadFloor = 2 * history.MaxTimerLag

// Start is client's planned start since the workload's time zero,
// scenario time: its own start in the clients mapping, else client_start,
// else (N−1)×stagger for wN.
func (s Scenario) Start(client string) Duration {
	if c, ok := s.PerClient[client]; ok && c.Start != nil {
		return *c.Start
	}
	if d, ok := s.ClientStart[client]; ok {
		return d
	}
	for i := range s.Clients {
		if ClientName(i) == client {
			return s.Stagger * Duration(i)
		}
	}
	return 0
}

// TightLeads are warnings, one per time-triggered fault planned less than
// LeadFloor of wall time (at time scale scale; the file's own when 0)
// after the latest client start before it. A fault at or before a
// client's start is planned to meet it there and is not a lead.
func (s Scenario) TightLeads(scale float64) []*FieldError {
	if scale <= 0 {
		scale = s.TimeScale
	}
	if scale <= 0 {
		scale = 1
	}
	var out []*FieldError
	for i, f := range s.Faults {
		if f.When.Kind != history.TriggerAt {
			continue
		}
		client, lead := "", time.Duration(-1)
		for c := range s.Clients {
			name := ClientName(c)
			if d := f.When.At - s.Start(name).D(); d > 0 && (lead < 0 || d < lead) {
				client, lead = name, d
			}
		}
		wall := time.Duration(float64(lead) / scale)
		if lead < 0 || wall >= LeadFloor {
			continue
		}
		need := time.Duration(float64(LeadFloor) * scale)
		out = append(out, &FieldError{File: s.File, Line: f.Line, Column: f.Column, Path: fmt.Sprintf("faults[%d].at", i),
			Msg: fmt.Sprintf("the fault starts %v after %s's planned start, %v of wall time at time scale %g: a harness up to %v late at a client's start and again on one command still counts as on time, so the run can play the two in the other order and come out valid without the incident; plan it at least %v (wall) after, %v of scenario time at this scale",
				lead, client, wall.Round(time.Millisecond), scale, history.MaxTimerLag, LeadFloor, need)})
	}
	return out
}
