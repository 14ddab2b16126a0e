package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// Issue 27, class 16 (a fresh reader, failover-fence-regression seed 25):
// a replication-lag stop was told "Network partition: n1r1 cannot reach
// n1" and "Network partition healed"; it holds back the replica's
// replication stream, and no client is cut off.
func TestAReplicationLagStopIsToldAsReplicationNotAPartition(t *testing.T) {
	const s = int64(1e9)
	tests := []struct {
		name       string
		lang       Lang
		want, lack []string
	}{
		{"in English the replica receives nothing of the stream", English,
			[]string{"Replication stopped: n1r1 receives nothing of n1's replication stream", "n1r1 can receive n1's stream again"},
			[]string{"partition", "cannot reach"}},
		{"in Vietnamese the replica receives nothing of the stream", Vietnamese,
			[]string{"Sao chép bị dừng: n1r1 không nhận được gì từ luồng sao chép của n1", "n1r1 lại nhận được luồng của n1"},
			[]string{"Chia cắt mạng", "không kết nối được"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := history.FaultStep{ID: 1, Kind: "replication-lag", Effect: history.EffectCutLinks,
				Links: []history.Link{{Client: "n1r1", Node: "n1"}}, Mode: "drop", Direction: "both", Duration: 4 * s}
			ops := []history.Op{{Index: 0, Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault, Type: history.OK,
				Value: history.Value{Fault: &st}, Invoke: s, Complete: 5 * s}}
			h := history.History{Header: history.Header{Format: history.Format, Version: history.Version, TimeScale: 1, Algorithm: "safe",
				Clients: []string{"w1"}, Nodes: []string{"n1"}}, Ops: ops}
			var all []string
			for _, st := range Narrative(Input{History: h, Account: account.New(h), Lang: tt.lang}) {
				all = append(all, st.Text)
			}
			got := strings.Join(all, "\n")
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("the story lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.lack {
				if strings.Contains(got, w) {
					t.Errorf("the story says %q:\n%s", w, got)
				}
			}
		})
	}
}

// Issue 27 (a fresh reader, failover-fence-regression seed 25): the label
// "fencing token went backwards" stood over two grants of the same token
// 1; a repeated token is told as repeated, in the table, the story and
// the band alike.
func TestATokenRegressionIsLabelledRepeatedWhenTheTokensWereEqual(t *testing.T) {
	tests := []struct {
		name     string
		repeated bool
		lang     Lang
		want     string
	}{
		{"an equal token is repeated, in English", true, English, "fencing token repeated"},
		{"an equal token is repeated, in Vietnamese", true, Vietnamese, "fencing token bị cấp lặp lại"},
		{"a lower token went backwards, in English", false, English, "fencing token went backwards"},
		{"a lower token went backwards, in Vietnamese", false, Vietnamese, "fencing token đi lùi"},
	}
	h := history.History{Header: history.Header{Format: history.Format, Version: history.Version, TimeScale: 1, Algorithm: "fenced",
		Clients: []string{"w1", "w2"}, Nodes: []string{"n1"}}}
	m := newModel(h, account.New(h))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := checker.Anomaly{Kind: checker.KindTokenRegression, Key: "k", Clients: []string{"w1", "w2"}, StartS: 1, EndS: 5, Repeated: tt.repeated}
			if got := m.anomalyWord(tt.lang, a); got != tt.want {
				t.Errorf("anomalyWord = %q, want %q", got, tt.want)
			}
			bs := mergeBands([]checker.Anomaly{a}, 0.1)
			if len(bs) != 1 || len(bs[0].kinds) != 1 || m.kindWord(tt.lang, bs[0].kinds[0]) != tt.want {
				t.Errorf("band words %+v, want %q", bs, tt.want)
			}
		})
	}
}
