package report

import (
	"testing"

	"github.com/locksim/locksim/internal/checker"
)

// TestACountOfOneFindingIsToldInTheSingular: a checker row's summary of
// one finding says "1 finding", not "all" of one (a fresh reader, issue
// 27: "1 phát hiện, tất cả chỉ mang tính thông tin").
func TestACountOfOneFindingIsToldInTheSingular(t *testing.T) {
	stuck := checker.Anomaly{Kind: checker.KindStuckLock, Informational: true}
	overlap := checker.Anomaly{Kind: checker.KindMutexOverlap}
	tests := []struct {
		name      string
		anomalies []checker.Anomaly
		want      string
	}{
		{"one informational finding is not all of them", []checker.Anomaly{stuck}, "1 phát hiện, chỉ mang tính thông tin: lock bị kẹt"},
		{"two informational findings are all of them", []checker.Anomaly{stuck, stuck}, "2 phát hiện, tất cả chỉ mang tính thông tin: lock bị kẹt"},
		{"one finding that is a violation", []checker.Anomaly{overlap}, "1 phát hiện: " + kindWord(Vietnamese, checker.KindMutexOverlap)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := checker.Result{Checker: checker.CheckerLiveness, Verdict: checker.Valid, Anomalies: tt.anomalies}
			if got := (&model{}).dataSummary(Vietnamese, r); got != tt.want {
				t.Errorf("summary %q, want %q", got, tt.want)
			}
		})
	}
	for _, n := range []int{1, 2} {
		r := checker.Result{Checker: checker.CheckerLiveness, Verdict: checker.Valid, Anomalies: make([]checker.Anomaly, n)}
		for i := range r.Anomalies {
			r.Anomalies[i] = stuck
		}
		if got := (&model{}).dataSummary(English, r); (n == 1) != (got == "1 finding, informational: lock stuck") {
			t.Errorf("English summary of %d findings: %q", n, got)
		}
	}
}
