package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/report/chart"
)

// Reader 11 (failover-fence-regression seed 6): rate.png's replication
// lag shade (n1r1, 0.1–4.1 s) stopped at t≈2 s, where the failover's
// shade began over it: the perf plots' shades are opaque, the later one
// hid the earlier. Fault windows at once share the plot's height, each
// in its own band over its whole window, and the legend says so.
func TestOverlappingFaultShadesStayVisible(t *testing.T) {
	for _, lang := range []Lang{English, Vietnamese} {
		_, m := readerRun(t, "failover-fence-regression-seed6", lang)
		bands := faultShades(m)
		if len(bands) < 2 {
			t.Fatalf("%d fault shades, want the lag's and the failover's", len(bands))
		}
		for i, a := range bands {
			for j, b := range bands {
				if j <= i || a.s >= b.e || b.s >= a.e {
					continue
				}
				if a.y0 < b.y1 && b.y0 < a.y1 {
					t.Errorf("%s: shades %d (%.1f–%.1f s, height %.2f–%.2f) and %d (%.1f–%.1f s, %.2f–%.2f) overlap: the later hides the earlier",
						lang, i, a.s, a.e, a.y0, a.y1, j, b.s, b.e, b.y0, b.y1)
				}
			}
		}
		var texts []string
		for _, e := range shadeFaults(chart.NewPlot(""), m, lang, 10) {
			texts = append(texts, e.Text)
		}
		if want := tr(lang, "p.shade.stacked"); !strings.Contains(strings.Join(texts, "\n"), want) {
			t.Errorf("%s: legend %q does not say shades at once share the height (%q)", lang, texts, want)
		}
	}
}
