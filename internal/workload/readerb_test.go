package workload

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// Issue 27 (a fresh reader, cron-duplicate-run seed 51): the report told
// "job@1 ran 3 times: w2 at t=20.1s, …" (when each run began) beside the
// checker's words "w2 at t=22.174s, …" (when each finished). One run, one
// instant: the finding names each run by when it began, and says so.
func TestADuplicateRunNamesEachRunByWhenItBegan(t *testing.T) {
	run := func(client string, proc int, inv, comp float64) history.Op {
		return history.Op{Client: client, Process: proc, F: history.Write, Key: "job@1", Type: history.OK,
			Value: history.Value{Action: ActionRunJob}, Invoke: int64(inv * 1e9), Complete: int64(comp * 1e9)}
	}
	tests := []struct {
		name       string
		ops        []history.Op
		want, lack string
	}{
		{"two two-second runs are named at their starts", []history.Op{run("w2", 1, 20.1, 22.2), run("w1", 0, 30.1, 32.1)},
			"job@1 ran 2 times (each when it began: w2 at t=20.1s, w1 at t=30.1s)", "22.2"},
		{"three runs are named at their starts", []history.Op{run("w2", 1, 20.1, 22.2), run("w1", 0, 30.1, 32.1), run("w3", 2, 40.3, 42.3)},
			"job@1 ran 3 times (each when it began: w2 at t=20.1s, w1 at t=30.1s, w3 at t=40.3s)", "42.3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := history.History{Header: history.Header{Format: history.Format, Version: history.Version, TimeScale: 1,
				Workload: Cron, Clients: []string{"w1", "w2", "w3"}}}
			for i, op := range tt.ops {
				op.Index = i
				h.Ops = append(h.Ops, op)
			}
			f := duplicateRuns(account.New(h), NewIndex(h))
			if len(f.Anomalies) != 1 {
				t.Fatalf("want one duplicate run, got %+v", f.Anomalies)
			}
			if got := f.Anomalies[0].Explain; !strings.Contains(got, tt.want) || strings.Contains(got, tt.lack) {
				t.Errorf("explain = %q, want %q and no %q", got, tt.want, tt.lack)
			}
		})
	}
}
