package report

import (
	"testing"

	"github.com/locksim/locksim/internal/report/chart"
)

// Reader 11 (cron-duplicate-run, in the browser): a hold's words slid
// along their row to 12 s after their bar ("cron:report owner 77c1a1fc"
// over 32–47 s, w2's hold at 20.05–22.14 s), as if held there. A hold's
// words name the bar at their X: they may take another row of their lane,
// never slide along one (Label.Pin).
func TestAHoldsWordsNeverSlideAwayFromItsBar(t *testing.T) {
	d := drawingOf(t, recorded(t, "scheduler-heartbeat-foreign-queue"))
	n := 0
	for _, l := range d.Labels {
		if l.Prio == chart.PrHold {
			n++
			if !l.Pin {
				t.Errorf("hold words %q at %.2f s are not pinned to their bar", l.Text, l.X)
			}
		}
	}
	if n == 0 {
		t.Fatal("no hold words")
	}
}
