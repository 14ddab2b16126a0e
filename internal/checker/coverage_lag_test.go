package checker

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/history"
)

func TestARunThatLostItsTimingProvesNothing(t *testing.T) {
	tests := []struct {
		name    string
		h       func() history.History
		lag     time.Duration
		scale   float64
		want    Verdict
		mention string
	}{
		{"a quiet machine leaves a valid run valid", sequentialHistory, 20 * time.Millisecond, 50, Valid, ""},
		{"a 150 ms stall at time_scale 50 makes a valid run unknown", sequentialHistory, 150 * time.Millisecond, 50, Unknown, "too busy"},
		{"the same stall in real time is a small part of the TTL", sequentialHistory, 150 * time.Millisecond, 1, Valid, ""},
		{"a violation found under a stall still happened", func() history.History { return kleppmann1(false) }, 150 * time.Millisecond, 50, Invalid, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.h()
			h.Header.MaxTimerLagNS, h.Header.TimeScale = int64(tt.lag), tt.scale
			rep := Check(context.Background(), h, Options{})
			if rep.Verdict != tt.want {
				t.Fatalf("verdict %s, want %s: %+v", rep.Verdict, tt.want, rep.Results)
			}
			if tt.mention != "" {
				for _, r := range rep.Results {
					if r.Checker == CheckerCoverage && !strings.Contains(r.Summary, tt.mention) {
						t.Errorf("coverage says %q, want it to mention %q", r.Summary, tt.mention)
					}
				}
			}
		})
	}
}
