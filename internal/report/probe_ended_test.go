package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// A fresh reader (client-clock-skew seed 16): "t=12.3s Final probe: probe
// acquired the lock" of a five-node probe that had its quorum at t=11.9s
// and had released the lock by t=12.3s. A probe whose line is told when it
// returned, not at its grant, says it had acquired the lock by then; one
// told at its own SET (a probe on one node) says it acquired it then.
func TestAFinalProbeToldWhenItReturnedSaysItHadAcquiredTheLock(t *testing.T) {
	for _, tt := range []struct {
		name string
		run  string
		lang Lang
		want string
	}{
		{"a five-node probe is told when it ended", "redlock-gc-pause-fenced", English, "Final probe ended: probe had acquired the lock on invoice-1"},
		{"and so in Vietnamese", "redlock-gc-pause-fenced", Vietnamese, "Lần thử cuối (final probe) kết thúc: probe đã lấy được lock trên invoice-1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := adviceRun(t, tt.run)
			in.Lang = tt.lang
			var probe *history.Op
			for i, op := range in.History.Ops {
				if op.F == history.Probe && op.Type == history.OK {
					probe = &in.History.Ops[i]
				}
			}
			if probe == nil || len(probe.Value.Nodes) < 2 {
				t.Fatalf("the stored run has no ok probe on several nodes: %+v", probe)
			}
			var got []string
			for _, s := range Narrative(in) {
				if strings.Contains(s.Text, "probe") {
					got = append(got, s.Text)
					if strings.HasPrefix(s.Text, tt.want) {
						return
					}
				}
			}
			t.Errorf("story's probe lines %q, want one beginning %q", got, tt.want)
		})
	}
}
