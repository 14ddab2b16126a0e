package workload

import (
	"slices"
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
			h := threeClients(Cron, tt.ops)
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

// Issue 27 (a fresh reader, cron-duplicate-run seed 51): the "What went
// wrong" table gave the window "22.1 – 42.2", from when the first, right
// run ended, while the timeline's band began at the second run (30.1).
// A duplicate run's window opens when the first run that should not have
// happened began and closes when the last run ended.
func TestADuplicateRunsWindowOpensWhenItsSecondRunBegan(t *testing.T) {
	run := func(client string, proc int, inv, comp float64) history.Op {
		return history.Op{Client: client, Process: proc, F: history.Write, Key: "job@1", Type: history.OK,
			Value: history.Value{Action: ActionRunJob}, Invoke: int64(inv * 1e9), Complete: int64(comp * 1e9)}
	}
	tests := []struct {
		name       string
		ops        []history.Op
		start, end float64
	}{
		{"three runs: from the second's start to the third's end", []history.Op{run("w2", 1, 20.044, 22.092), run("w1", 0, 30.104, 32.2), run("w3", 2, 40.113, 42.152)}, 30.104, 42.152},
		{"runs recorded out of order still open at the second to begin", []history.Op{run("w1", 0, 30.104, 32.2), run("w2", 1, 20.044, 22.092)}, 30.104, 32.2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := threeClients(Cron, tt.ops)
			f := duplicateRuns(account.New(h), NewIndex(h))
			if len(f.Anomalies) != 1 {
				t.Fatalf("want one duplicate run, got %+v", f.Anomalies)
			}
			an := f.Anomalies[0]
			if an.Start != int64(tt.start*1e9) || an.End != int64(tt.end*1e9) {
				t.Errorf("window = [%d, %d], want [%d, %d]", an.Start, an.End, int64(tt.start*1e9), int64(tt.end*1e9))
			}
		})
	}
}

// Issue 27 (a fresh reader, inventory-oversell seed 21): w1's write of
// stock 1, computed from its read of 2, wiped out two sales (w2's and
// w3's), yet the finding named only w3 and the report said "an update
// was lost". The finding lists every write the later one wiped out.
func TestALostUpdateListsEveryWriteItWipedOut(t *testing.T) {
	sell := func(client string, proc int, inv, comp float64, num int64) history.Op {
		return history.Op{Client: client, Process: proc, F: history.Write, Key: "item-1", Type: history.OK,
			Value: history.Value{Action: ActionSell, Num: &num}, Invoke: int64(inv * 1e9), Complete: int64(comp * 1e9)}
	}
	tests := []struct {
		name    string
		ops     []history.Op
		lost    []int
		explain string
	}{
		{"a stale write of 1 after sales to 1 and 0 wiped out both", []history.Op{
			sell("w2", 1, 12.3, 12.4, 1), sell("w3", 2, 13.7, 13.8, 0), sell("w1", 0, 27.0, 27.1, 1)},
			[]int{0, 1}, "2 sales were not subtracted (w2's at t=12.3s, w3's at t=13.7s)"},
		{"a write of the same value as the one before wiped out that one", []history.Op{
			sell("w2", 1, 12.3, 12.4, 1), sell("w1", 0, 27.0, 27.1, 1)},
			[]int{0}, "1 sale was not subtracted (w2's at t=12.3s)"},
		{"a sale the stale write did not undo is not listed", []history.Op{
			sell("w2", 1, 12.3, 12.4, 2), sell("w3", 2, 13.7, 13.8, 1), sell("w1", 0, 27.0, 27.1, 1)},
			[]int{1}, "1 sale was not subtracted (w3's at t=13.7s)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := threeClients(Inventory, tt.ops)
			f := saleLostUpdates(account.New(h), NewIndex(h))
			if len(f.Anomalies) != 1 {
				t.Fatalf("want one lost update, got %+v", f.Anomalies)
			}
			an := f.Anomalies[0]
			if !slices.Equal(an.Lost, tt.lost) {
				t.Errorf("Lost = %v, want %v", an.Lost, tt.lost)
			}
			if !strings.Contains(an.Explain, tt.explain) {
				t.Errorf("explain = %q, want %q", an.Explain, tt.explain)
			}
		})
	}
}

// Issue 27 (a reader of control-negative, seed 5): w2 and w3 each set
// the counter to 1 from a read of 0, then w1 did too after its pause. The
// report said w1's write "wiped out 2 earlier updates: w2's and w3's",
// but w3's write had already wiped out w2's: when w1 wrote, the value
// held w3's update alone. A write wipes out only updates still in the
// value when it wrote.
func TestALostUpdateWipesOutOnlyUpdatesStillInTheValue(t *testing.T) {
	set := func(client string, proc int, inv, comp float64, num int64) history.Op {
		return history.Op{Client: client, Process: proc, F: history.Write, Key: "counter-1", Type: history.OK,
			Value: history.Value{Action: ActionSetCounter, Num: &num}, Invoke: int64(inv * 1e9), Complete: int64(comp * 1e9)}
	}
	tests := []struct {
		name string
		ops  []history.Op
		lost [][]int // each lost update's Lost, in order
	}{
		{"three writes of 1: each wipes out the one before it, not one already gone", []history.Op{
			set("w2", 1, 4.3, 4.4, 1), set("w3", 2, 5.2, 5.3, 1), set("w1", 0, 28.2, 28.3, 1)},
			[][]int{{0}, {1}}},
		{"a write of 2 after 1, 2, 3 wipes out the 2 and the 3", []history.Op{
			set("w1", 0, 1, 1.1, 1), set("w2", 1, 2, 2.1, 2), set("w3", 2, 3, 3.1, 3), set("w1", 0, 4, 4.1, 2)},
			[][]int{{1, 2}}},
		{"after that, a write of 2 over a 3 wipes out the 2 and 3 still standing, not the ones already gone", []history.Op{
			set("w1", 0, 1, 1.1, 1), set("w2", 1, 2, 2.1, 2), set("w3", 2, 3, 3.1, 3), set("w1", 0, 4, 4.1, 2),
			set("w2", 1, 5, 5.1, 3), set("w3", 2, 6, 6.1, 2)},
			[][]int{{1, 2}, {3, 4}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := threeClients(Counter, tt.ops)
			f := counterLostUpdates(account.New(h), NewIndex(h))
			var got [][]int
			for _, an := range f.Anomalies {
				got = append(got, an.Lost)
			}
			if !slices.EqualFunc(got, tt.lost, slices.Equal) {
				t.Errorf("Lost = %v, want %v", got, tt.lost)
			}
		})
	}
}

// threeClients is a history of workload wl with clients w1–w3 and ops,
// indexed in order (time scale 1).
func threeClients(wl string, ops []history.Op) history.History {
	h := history.History{Header: history.Header{Format: history.Format, Version: history.Version, TimeScale: 1,
		Workload: wl, Clients: []string{"w1", "w2", "w3"}}}
	for i, op := range ops {
		op.Index = i
		h.Ops = append(h.Ops, op)
	}
	return h
}
