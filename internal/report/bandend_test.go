package report

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// A violation band ends where its window ends (reader 15 and reader 16,
// F8: longer-ttl-pause seed 77 drew its band to t=71.46s, data-x1, for a
// window its tip and the table gave as "t=60.5s – t=70.4s": an instant
// anomaly at 70.4 s was widened by a hundredth of the axis to be seen).
// The renderers keep a band at least 2 px wide; its data never runs past
// its window.
func TestAViolationBandEndsWhereItsWindowEnds(t *testing.T) {
	an := func(kind string, at, e float64) checker.Anomaly {
		return checker.Anomaly{Kind: kind, StartS: at, AtS: at, EndS: e}
	}
	for _, tt := range []struct {
		name string
		in   []checker.Anomaly
		s, e float64
	}{
		{"an instant at a window's end", []checker.Anomaly{an(checker.KindMutexOverlap, 60.49, 70.40), an(checker.KindDoubleEffect, 70.40, 70.40)}, 60.49, 70.40},
		{"an instant alone", []checker.Anomaly{an(checker.KindDoubleEffect, 40.2, 40.2)}, 40.2, 40.2},
		{"two instants close together are one band, from the first to the second", []checker.Anomaly{an("a", 40.2, 40.2), an("b", 40.5, 40.5)}, 40.2, 40.5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bs := mergeBands(tt.in, 1.06)
			if len(bs) != 1 || bs[0].s != tt.s || bs[0].e != tt.e {
				t.Errorf("bands %+v, want one from %.2f to %.2f", bs, tt.s, tt.e)
			}
		})
	}
	t.Run("the drawn band's end is its tip's", func(t *testing.T) {
		h, err := history.ReadFile(filepath.Join("testdata", "accuracy", "c19m-lock-lost-in-failover-advice.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		d := drawingOf(t, Input{History: h}.checked())
		n := 0
		for _, s := range d.Shapes {
			if s.Kind != chart.ShBand {
				continue
			}
			n++
			var t0, t1 float64
			line, _, _ := strings.Cut(s.Tip, "\n")
			if _, err := fmt.Sscanf(strings.ReplaceAll(line, "–", "-"), "Violation window t=%fs - t=%fs:", &t0, &t1); err != nil {
				t.Fatalf("band tip %q: %v", line, err)
			}
			if chart.Tenths(s.X1) != chart.Tenths(t1) {
				t.Errorf("band drawn to t=%.3f; its tip says it ends at t=%.1fs", s.X1, t1)
			}
		}
		if n == 0 {
			t.Fatal("no band drawn")
		}
	})
}
