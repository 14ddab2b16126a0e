package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// Reader 6 (A16): watchdog-unlock-lost's headline said "No checker found
// a problem" above an informational orphaned lease of 27 s that refused
// w2 and w3 48 times. A valid run's headline names its informational
// liveness findings, in each language.
func TestAValidRunsHeadlineNamesItsInformationalLivenessFindings(t *testing.T) {
	for _, c := range []struct {
		name   string
		lang   Lang
		orphan bool
		want   string
	}{
		{"an informational orphaned lease is named", English, true,
			"No checker found a violation: the lock kept its promise in this run; informational findings: " + tr(English, "kind.orphaned-lease")},
		{"a Vietnamese headline names it too", Vietnamese, true,
			"các phát hiện chỉ mang tính thông tin: " + tr(Vietnamese, "kind.orphaned-lease")},
		{"without one the headline is as before", English, false, tr(English, "say.valid")},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := gcPauseInput("local", true)
			h := in.History
			h.Ops = slices.Clone(h.Ops)
			for i, o := range h.Ops {
				if o.F == history.Write && o.Type == history.Fail {
					o.Value.Refusal = history.RefusalOutOfStock // refuses nothing the headline credits
					h.Ops[i] = o
				}
			}
			in.History, in.Account, in.Lang = h, nil, c.lang
			if c.orphan {
				in.Results = slices.Clone(in.Results)
				r := in.Results[0]
				r.Anomalies = append(slices.Clone(r.Anomalies), checker.Anomaly{Kind: checker.KindOrphanedLease, Informational: true, Key: "invoice-1", Owner: "w1"})
				in.Results[0] = r
			}
			if got := Headline(in); !strings.Contains(got, c.want) {
				t.Errorf("Headline = %q, want %q", got, c.want)
			}
		})
	}
}
