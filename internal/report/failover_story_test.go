package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// Issue 27 (a fresh reader): a failover's sentence gave the step's took_ns
// ("Sentinel promoted the replica after 11.4 s") while the history's
// switch-master record came 16.0 s after the crash; and a replica that
// had received the whole stream was told "whatever it lacked is gone".
func TestAFailoverIsToldAtItsAnnouncementAndWithWhatItLost(t *testing.T) {
	const s = int64(1e9)
	tests := []struct {
		name     string
		offset   int64 // the promoted replica's, of the master's 600
		announce bool
		want     []string
		lack     []string
	}{
		{"a promotion announced is told at its switch-master record", 200, true,
			[]string{"announced it as the new master (switch-master) at t=2.5s, 1.5 s after n1 failed", "200 of the 600 bytes"}, []string{"after 0.9 s"}},
		{"a promotion never announced is told by the harness's ROLE poll, said so", 200, false,
			[]string{"it answered ROLE as a master 0.9 s after n1 failed (no sentinel's switch-master announcement was recorded)"}, []string{"announced"}},
		{"a replica with the whole stream lost nothing", 600, true,
			[]string{"had received all 600 bytes", "the promotion lost none of it"}, []string{"whatever it lacked"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := history.FaultStep{ID: 1, Kind: "failover", Effect: history.EffectFailover, Nodes: []string{"n1"}, FailoverMode: "crash",
				Promotions: []history.Promotion{{Group: "n1", Old: "n1", Promoted: "n1r1", MasterOffset: 600,
					ReplicaOffsets: map[string]int64{"n1r1": tt.offset}, TookNS: 9 * s / 10}}}
			ops := []history.Op{{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault, Type: history.OK,
				Value: history.Value{Fault: &st}, Invoke: s, Complete: 4 * s}}
			if tt.announce {
				ops = append(ops, history.Op{Process: history.NodeProcess, F: history.MasterSwitch, Type: history.OK,
					Value: history.Value{Node: "n1", Cmd: []string{"n1", "n1r1"}}, Invoke: 5 * s / 2, Complete: 5 * s / 2})
			}
			for i := range ops {
				ops[i].Index = i
			}
			h := history.History{Header: history.Header{Format: history.Format, Version: history.Version, TimeScale: 1, Algorithm: "safe",
				Clients: []string{"w1"}, Nodes: []string{"n1"}}, Ops: ops}
			a := account.New(h)
			m := newModel(h, a)
			got := m.faultSentence(English, a.Faults[0], "")
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			for _, w := range tt.lack {
				if strings.Contains(got, w) {
					t.Errorf("%q says %q", got, w)
				}
			}
		})
	}
}
