package suite

import (
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
)

// notable decides which runs of a suite get charts (timeline.png,
// latency.png, rate.png): drawing them is most of a short run's CPU, and a
// suite of many runs needs pictures only of what differs. A run is notable
// when it is the only run of its invocation, when it has the first seed of
// a sweep of one scenario, when it missed its expectation (verdict or
// kinds), or, for a scenario that declares none, when it is not valid. A
// catalogue of many scenarios (`locksim run scenarios/`) draws the charts
// of its misses only: its runs' pages keep their inline timelines, and
// `locksim check DIR` draws the rest (issue 32: the charts were half of
// the catalogue's CPU). The choice depends on the seeds and the checkers'
// findings alone, not on which run finishes first, nor on the shard.
type notable struct {
	runs  map[string]int   // runs planned per scenario file
	first map[string]int64 // first seed per scenario file
	files int              // scenario files of the whole plan
}

func newNotable(jobs []Job) *notable {
	n := &notable{runs: map[string]int{}, first: map[string]int64{}}
	planned := map[string]bool{}
	for _, j := range jobs {
		f := j.Scenario.File
		if j.planned > 0 {
			// Plan knows the whole suite, of which jobs may be one shard.
			planned[f] = true
			n.runs[f], n.first[f], n.files = j.planned, j.firstSeed, j.planFiles
			continue
		}
		if planned[f] {
			continue
		}
		if n.runs[f] == 0 {
			n.first[f] = j.Seed
		}
		n.runs[f]++
	}
	if n.files == 0 {
		n.files = len(n.runs)
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
	case n.files <= 1 && (n.runs[sc.File] <= 1 || seed == n.first[sc.File]):
		return true
	case in.Aborted || in.Cut:
		return true
	case sc.Expect.Verdict != "":
		var anomalies []checker.Anomaly
		for _, r := range in.Results {
			anomalies = append(anomalies, r.Anomalies...)
		}
		return !report.Judge(sc.Expect.Verdict, sc.Expect.Kinds, in.Verdict, anomalies, len(in.History.Header.Observed) > 0, report.UndecidedKinds(in.Results)...).Met
	default:
		return in.Verdict != checker.Valid
	}
}

// explains reports whether the run of sc with this seed, judged as in, is
// one whose experiments a suite runs (Options.Why): a notable run as it
// was before a catalogue drew only its misses — also each scenario's first
// seed — so a suite of several scenarios still explains their invalid
// runs.
func (n *notable) explains(sc scenario.Scenario, seed int64, in report.Input) bool {
	if n == nil || n.runs[sc.File] <= 1 || seed == n.first[sc.File] {
		return true
	}
	return n.charts(sc, seed, in)
}
