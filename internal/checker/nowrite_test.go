package checker

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// A fenced run whose stale holder wrote nothing while both held credits
// the fence with no refusal in its summary (teacher 7, F26:
// host-sleep-fenced's "fenced resource refused the stale holder", with no
// refusal in the history).
func TestMutexSummaryCreditsNoRefusalThatNeverHappened(t *testing.T) {
	h := history.History{Header: history.Header{FencingEnforced: true}}
	ix := &writeIndex{h: h}
	for _, c := range []struct {
		name    string
		ordered map[string]int
		want    string
		not     string
	}{
		{"an overlap whose stale holder wrote nothing says so", map[string]int{HarmlessNoWrite: 1},
			"no write accepted while both held, and the fence refused none", "refused the stale holder"},
		{"an overlap whose stale holder the fence refused says refused", map[string]int{HarmlessFenced: 1},
			"fenced resource refused the stale holder", "no write accepted"},
		{"a mix of both says either", map[string]int{HarmlessFenced: 1, HarmlessNoWrite: 1},
			"refused the stale holder or accepted none of its writes", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := 0
			for _, v := range c.ordered {
				n += v
			}
			got := whyInformational(h, ix, workload.Kind{}, n, c.ordered)
			if !strings.Contains(got, c.want) || c.not != "" && strings.Contains(got, c.not) {
				t.Errorf("summary %q, want %q and not %q", got, c.want, c.not)
			}
		})
	}
}
