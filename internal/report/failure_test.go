package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// TestUnknownOutcomeWording: an acquire recorded as unknown is told by how
// it failed; only a timeout "got no answer" (a refused connection got one).
func TestUnknownOutcomeWording(t *testing.T) {
	cases := []struct {
		name    string
		failure history.Failure
		want    string
		wantNot string
	}{
		{"a timed-out acquire got no answer", history.FailTimeout, "got no answer", "connect"},
		{"a refused connection is told as refused, not as no answer", history.FailRefused, "could not connect", "no answer"},
		{"a connection lost mid-reply is told as lost", history.FailReset, "lost its connection", "no answer"},
		{"an unclassified error claims no more than an error", "", "no definite answer", "got no answer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := history.History{Header: history.Header{Format: history.Format, Version: history.Version, Scenario: "t",
				TimeScale: 1, Algorithm: "safe", Workload: "payment", Clients: []string{"w1"}, Nodes: []string{"n1"}}}
			h.Ops = []history.Op{{Index: 0, Client: "w1", F: history.Acquire, Key: "invoice-1", Invoke: 1e8, Complete: 2e8,
				Type: history.Info, Error: "some error", Failure: c.failure}}
			var text []string
			for _, s := range Narrative(Input{History: h, Lang: "en"}) {
				text = append(text, s.Text)
			}
			all := strings.Join(text, "\n")
			if !strings.Contains(all, c.want) || strings.Contains(all, c.wantNot) {
				t.Fatalf("story should contain %q and not %q:\n%s", c.want, c.wantNot, all)
			}
		})
	}
}
