package report

import (
	"strings"
	"testing"
)

// The scheduler whose dead owner's key another's heartbeat kept alive
// (c19f): its requirements cells say the lock did not come free by
// itself, not "Deadlock-free ✔ kept", and its safety cell says why a run
// that had a fault keeps nothing, not to run one "with any fault"
// (reader 7, F3, F13).
func TestRequirementsOfAKeyKeptAliveByAnothersHeartbeat(t *testing.T) {
	for _, tt := range []struct {
		name      string
		lang      Lang
		want, not []string
	}{
		{"in English", English, []string{
			"✘ broken: w1's key leader-1 stayed 59.3s after its holder stopped, kept past its TTL by w2's extends (the last at t=59.3s)",
			"scheduler-heartbeat-foreign-queue tested it (a fault, or a job longer than the TTL) and broke no safety, but is invalid by its other findings",
		}, []string{tr(English, "req.need.any")}},
		{"in Vietnamese", Vietnamese, []string{
			"bị phá vỡ: key leader-1 của w1 còn lại 59,3 s sau khi client giữ nó dừng, được các lệnh gia hạn của w2 giữ quá TTL (lần cuối lúc t=59,3s)",
			"scheduler-heartbeat-foreign-queue có kiểm tra điều này",
		}, []string{tr(Vietnamese, "req.need.any")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := adviceRun(t, "c19f-orphan-kept-by-another-heartbeat")
			in.Lang, in.SkipCharts = tt.lang, true
			_, r := writeReport(t, in)
			page := requirementsPageOf(t, tt.lang, r)
			for _, w := range tt.want {
				if !strings.Contains(page, w) {
					t.Errorf("requirements.html lacks %q", w)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(page, w) {
					t.Errorf("requirements.html says %q", w)
				}
			}
		})
	}
}
