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
		{"the shortest TTL granted decides, not a long one beside it", twoTTLs, 150 * time.Millisecond, 1, Unknown, "over a tenth of the 1s TTL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.h()
			h.Header.MaxTimerLagNS, h.Header.TimeScale = int64(tt.lag), tt.scale
			// The histories speak scenario seconds; at a time scale their
			// TTLs, given to Redis in wall time, shrink by it.
			for i := range h.Ops {
				h.Ops[i].Value.TTL = int64(float64(h.Ops[i].Value.TTL) / tt.scale)
			}
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

func TestTheOverlapSaysWhetherThePauseOutlastedTheLease(t *testing.T) {
	tests := []struct {
		name        string
		pauseEnd    float64
		want, wrong string
	}{
		{"a pause past the expiry is why the lease expired", 70, "expired while it was paused", "used up part"},
		{"a pause that ended long before the expiry only used up part of the lease", 25, "a pause having used up part of it", "while it was paused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newHB(false)
			b.acquireTTL("w1", inv1, 0, 0.1, 0, 60)
			b.read("w1", inv1, 0.2, 0.3, "unpaid")
			b.fault("pause", []string{"w1"}, 0.4, tt.pauseEnd)
			b.acquireTTL("w2", inv1, 60.2, 60.3, 0, 60)
			b.write("w1", inv1, history.ActionCharge, 71, 71.1, 0)
			b.release("w1", inv1, 71.2, 71.3, false)
			b.release("w2", inv1, 72, 72.1, true)
			rep := Check(context.Background(), b.h, Options{})
			for _, a := range rep.Anomalies() {
				if a.Kind != KindMutexOverlap {
					continue
				}
				if !strings.Contains(a.Explain, tt.want) || strings.Contains(a.Explain, tt.wrong) {
					t.Errorf("explanation %q, want %q", a.Explain, tt.want)
				}
				return
			}
			t.Fatal("no mutex-overlap")
		})
	}
}

// twoTTLs: a key with a 1 s lease and one with a 10 min lease in one run.
func twoTTLs() history.History {
	b := newHB(false)
	b.acquireTTL("w1", "k-short", 0, 0.01, 0, 1)
	b.write("w1", "k-short", history.ActionCharge, 0.1, 0.2, 0)
	b.release("w1", "k-short", 0.3, 0.31, true)
	b.acquireTTL("w2", "k-short", 0.5, 0.51, 0, 1)
	b.release("w2", "k-short", 0.6, 0.61, true)
	b.acquireTTL("w3", "k-long", 0, 0.01, 0, 600)
	b.release("w3", "k-long", 0.6, 0.61, true)
	return b.h
}
