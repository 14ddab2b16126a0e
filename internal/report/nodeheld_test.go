package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// TestAGrantTheNodesContradictIsToldFromTheNodesRecord: an overlap whose
// cause is the node's own record (checker.CauseNodeHeldAnother: w2 was
// told it was granted while n1 still held w1's key) is told so in every
// language — the node, both clients, the grant's time — and not as two
// beliefs.
func TestAGrantTheNodesContradictIsToldFromTheNodesRecord(t *testing.T) {
	h := history.History{Header: history.Header{Version: history.Version, Scenario: "node-held", Clients: []string{"w1", "w2"}, Nodes: []string{"n1"}}}
	m := newModel(h, account.New(h))
	a := checker.Anomaly{Kind: checker.KindMutexOverlap, Key: "invoice-1", Clients: []string{"w1", "w2"}, Stale: "w1", Current: "w2",
		StartS: 12.5, EndS: 14, Cause: &checker.Cause{Kind: checker.CauseNodeHeldAnother, Client: "w1", Nodes: []string{"n1"}, Observed: true}}
	for _, lang := range []Lang{"en", "vi"} {
		t.Run(string(lang)+" names the node, both owners and the grant's time", func(t *testing.T) {
			got := m.describeAnomaly(lang, a)
			for _, want := range []string{"w1", "w2", "n1", "invoice-1", instantIn(lang, 12.5)} {
				if !strings.Contains(got, want) {
					t.Errorf("%q lacks %q", got, want)
				}
			}
			if held := tr(lang, "c.held", "w1", "w2"); strings.Contains(got, held) {
				t.Errorf("%q tells two beliefs (%q), not the node's record", got, held)
			}
		})
	}
}
