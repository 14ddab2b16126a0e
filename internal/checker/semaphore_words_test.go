package checker

import (
	"context"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// Reader 6 (A7): semaphore-fair-clock-skew's mutex cell said "no
// overlapping holds among 3 believed holds" while w1 and w2 held two
// permits at once, as a 2-permit semaphore lets them. A semaphore's cell
// tells the most holders at once against its permits.
func TestASemaphoresMutexSummaryCountsHoldersAgainstPermits(t *testing.T) {
	sem := func(over bool) history.History {
		b := newHB(false).workload(workload.Semaphore, "zset-semaphore", map[string]int64{history.ParamPermits: 2})
		for i, c := range []string{"S1", "S2"} {
			t := float64(i)
			b.acquireTTL(c, "sem-1", t, t+0.1, 0, 10)
			b.write(c, "sem-1", workload.ActionEnter, t+0.2, t+0.3, 0)
		}
		if !over {
			b.write("S1", "sem-1", workload.ActionExit, 2.5, 2.6, 0)
			b.release("S1", "sem-1", 2.7, 2.8, true)
		}
		b.acquireTTL("S3", "sem-1", 3, 3.1, 0, 10)
		b.write("S3", "sem-1", workload.ActionEnter, 3.2, 3.3, 0)
		b.write("S3", "sem-1", workload.ActionExit, 8, 8.1, 0)
		b.release("S3", "sem-1", 8.2, 8.3, true)
		b.write("S2", "sem-1", workload.ActionExit, 9, 9.1, 0)
		b.release("S2", "sem-1", 9.2, 9.3, true)
		if over {
			b.write("S1", "sem-1", workload.ActionExit, 9.5, 9.6, 0)
			b.release("S1", "sem-1", 9.7, 9.8, true)
		}
		return b.h
	}
	tests := []struct {
		name       string
		over       bool
		want, lack string
	}{
		{"two holders of a 2-permit semaphore are told as within its permits, not as no overlap", false,
			"never more holders at once than the semaphore's 2 permits (at most 2 holders) among 3 believed holds", "no overlapping holds"},
		{"a third holder is told as an admission over the permits", true,
			"1 admission over the semaphore's 2 permits: up to 3 holders at once among 3 believed holds", "believed-hold overlap"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Mutex(context.Background(), sem(tt.over))
			if !strings.Contains(r.Summary, tt.want) || strings.Contains(r.Summary, tt.lack) {
				t.Errorf("summary %q: want %q, and no %q", r.Summary, tt.want, tt.lack)
			}
		})
	}
}
