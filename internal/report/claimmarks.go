package report

import (
	"fmt"
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/report/chart"
)

// A mark's Ref (chart.Shape.Ref, chart.Label.Ref) names the claims it
// draws as the builder knows them: space-separated, each "kind#record@who"
// (the claim of that kind resting first on that history record, about that
// node or client; @ alone: any), or "anomaly@n" (the run's n-th anomaly,
// in allAnomalies' order: the checkers' own) or "violating#record" (the
// first anomaly naming that write as its violation); a term of
// alternatives, "a|b", names the first the run makes. markClaims turns
// them into the claims' ids.

// ref names the claim of kind k resting first on record rec, about who
// ("": any).
func ref(k claim.Kind, rec int, who string) string { return fmt.Sprintf("%s#%d@%s", k, rec, who) }

// either is a term naming the first of refs the run makes.
func either(refs ...string) string { return strings.Join(refs, "|") }

// anomalyRef names the n-th anomaly of the run.
func anomalyRef(n int) string { return fmt.Sprintf("anomaly@%d", n) }

// markClaims gives each mark and label of d the ids of the claims its
// Ref names (rendered as data-claim, issue 27). cs are the run's numbered
// claims (Results.Claims).
func markClaims(d *chart.Drawing, cs []claim.Claim) {
	ids := map[string]string{}
	put := func(k, id string) {
		if _, ok := ids[k]; !ok {
			ids[k] = id
		}
	}
	n := 0
	for _, c := range cs {
		if c.Kind == claim.Anomaly {
			put(anomalyRef(n), c.ID)
			n++
		}
		for _, w := range c.Violating {
			put(fmt.Sprintf("violating#%d", w), c.ID)
		}
		if len(c.Records) == 0 {
			continue
		}
		put(ref(c.Kind, c.Records[0], ""), c.ID)
		if c.Node != "" {
			put(ref(c.Kind, c.Records[0], c.Node), c.ID)
		}
		if c.Client != "" {
			put(ref(c.Kind, c.Records[0], c.Client), c.ID)
		}
	}
	resolve := func(r string) string {
		var out []string
		for _, term := range strings.Fields(r) {
			for _, alt := range strings.Split(term, "|") {
				if id, ok := ids[alt]; ok {
					if !strings.Contains(" "+strings.Join(out, " ")+" ", " "+id+" ") {
						out = append(out, id)
					}
					break
				}
			}
		}
		return strings.Join(out, " ")
	}
	for i := range d.Shapes {
		d.Shapes[i].Claim = resolve(d.Shapes[i].Ref)
	}
	for i := range d.Labels {
		d.Labels[i].Claim = resolve(d.Labels[i].Ref)
	}
}
