package history

import (
	"testing"
	"time"
)

// TestANodesWallClockMapsOntoTheRunsClockAtTheMeasuredRate: Redis counts
// TTLs and stamps MONITOR lines on the host's wall clock, which a host
// slewing its clock runs faster or slower than the run's monotonic one.
func TestANodesWallClockMapsOntoTheRunsClockAtTheMeasuredRate(t *testing.T) {
	started := time.Date(2026, 12, 3, 17, 0, 0, 0, time.UTC)
	tests := []struct {
		name       string
		mono, wall time.Duration
		rate       float64
		ttl, want  int64 // a 10 s TTL on the node's clock, and on the run's
		unixAt     int64 // a PXAT 5 s after the start, on the run's clock
	}{
		{"a wall clock slewed 0.5 % fast gives a 10 s TTL 9.950 s of the run's clock",
			time.Second, 1005 * time.Millisecond, 1.005, 10e9, 9_950_248_756, 4_975_124_378},
		{"a wall clock slewed 0.5 % slow gives it 10.050 s",
			time.Second, 995 * time.Millisecond, 0.995, 10e9, 10_050_251_256, 5_025_125_628},
		{"clocks that agree to within 1e-6 record no rate",
			time.Second, time.Second + 500*time.Nanosecond, 0, 10e9, 10e9, 5e9},
		{"a run with no length records no rate",
			0, 0, 0, 10e9, 10e9, 5e9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rate := WallRateOf(tt.mono, tt.wall)
			if rate != tt.rate {
				t.Fatalf("WallRateOf(%v, %v) = %v, want %v", tt.mono, tt.wall, rate, tt.rate)
			}
			h := Header{Started: started, WallRate: rate}
			if got := h.NodeDuration(tt.ttl); got != tt.want {
				t.Errorf("NodeDuration(%d) = %d, want %d", tt.ttl, got, tt.want)
			}
			at, ok := h.NodeInstant(started.UnixNano() + 5e9)
			if !ok || at != tt.unixAt {
				t.Errorf("NodeInstant(start+5s) = %d, %v; want %d", at, ok, tt.unixAt)
			}
		})
	}
	t.Run("an implausible recorded rate reads as 1", func(t *testing.T) {
		if got := (Header{WallRate: 7}).NodeDuration(10e9); got != 10e9 {
			t.Errorf("got %d", got)
		}
	})
	t.Run("a history that does not say when it started maps no instant", func(t *testing.T) {
		if _, ok := (Header{WallRate: 1.005}).NodeInstant(5e9); ok {
			t.Error("mapped an instant without a start")
		}
	})
}
