package suite

import (
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
)

// notable decides which runs of a sweep get charts (timeline.png,
// latency.png, rate.png): drawing them is most of a short run's CPU, and a
// sweep of 1000 runs needs pictures only of what differs. A run is notable
// when its scenario runs only once in this invocation, when it has its
// scenario's first seed, when it missed its expectation (verdict or
// kinds), or, for a scenario that declares none, when it is not valid. The
// choice depends on the seeds and the checkers' findings alone, not on
// which run finishes first.
type notable struct {
	runs  map[string]int   // runs planned per scenario file
	first map[string]int64 // first seed per scenario file
}

func newNotable(jobs []Job) *notable {
	n := &notable{runs: map[string]int{}, first: map[string]int64{}}
	for _, j := range jobs {
		if n.runs[j.Scenario.File] == 0 {
			n.first[j.Scenario.File] = j.Seed
		}
		n.runs[j.Scenario.File]++
	}
	return n
}

// charts reports whether the run of sc with this seed, judged as in, gets
// charts.
func (n *notable) charts(sc scenario.Scenario, seed int64, in report.Input) bool {
	if n == nil {
		return true
	}
	switch {
	case n.runs[sc.File] <= 1, seed == n.first[sc.File]:
		return true
	case in.Aborted || in.Cut:
		return true
	case sc.Expect.Verdict != "":
		var anomalies []checker.Anomaly
		for _, r := range in.Results {
			anomalies = append(anomalies, r.Anomalies...)
		}
		return !report.Judge(sc.Expect.Verdict, sc.Expect.Kinds, in.Verdict, anomalies, len(in.History.Header.Observed) > 0).Met
	default:
		return in.Verdict != checker.Valid
	}
}
