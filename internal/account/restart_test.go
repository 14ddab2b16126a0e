package account_test

import (
	"strconv"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/history/historytest"
)

// restartW1 is a restart-client fault on w1: killed at inv ms, its next
// incarnation started at comp ms.
func (r *run) restartW1(inv, comp float64) {
	st := historytest.Step("restart-client", "w1")
	st.ID, st.Duration = 1, ms(comp-inv)
	r.add(history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault,
		Value: historytest.Value(st), Invoke: ms(inv), Complete: ms(comp), Type: history.OK})
}

func TestARestartedClientsBeliefsEndAtTheKillAndItsNewIncarnationHoldsAfresh(t *testing.T) {
	tests := []struct {
		name  string
		build func(r *run)
		want  []string // w1's holds: "start–end ended"
	}{
		{"the killed incarnation's hold ends at the kill, not at the new incarnation's acquire", func(r *run) {
			r.acquire("w1", "t1", 0, 1, "n1")
			r.restartW1(100, 200)
			r.acquire("w1", "t2", 300, 301, "n1")
			r.release("w1", "t2", 400, 401, true, "n1")
		}, []string{"1–100 crashed", "301–400 released"}},
		{"a hold open when the client was killed ends there though the new incarnation never records again", func(r *run) {
			r.acquire("w1", "t1", 0, 1, "n1")
			r.restartW1(100, 200)
		}, []string{"1–100 crashed"}},
		{"a hold released before the kill keeps its own end", func(r *run) {
			r.acquire("w1", "t1", 0, 1, "n1")
			r.release("w1", "t1", 50, 51, true, "n1")
			r.restartW1(100, 200)
			r.acquire("w1", "t2", 300, 301, "n1")
			r.release("w1", "t2", 400, 401, true, "n1")
		}, []string{"1–50 released", "301–400 released"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun("safe")
			r.h.Header.Observed = nil
			tt.build(r)
			var got []string
			for _, hd := range account.New(r.h).Holds {
				if hd.Client == "w1" {
					got = append(got, fmtHold(hd))
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("w1's holds %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("w1's holds %q, want %q", got, tt.want)
				}
			}
		})
	}
}

func fmtHold(h account.Hold) string {
	return ftoa(float64(h.Start)/1e6) + "–" + ftoa(float64(h.End)/1e6) + " " + h.Ended
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
