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

// Issue 27 (a fresh reader, inventory-oversell seed 21): "An update of
// item-1 was lost between t=13.8s and t=27.0s (w1 and w3)" where w1's
// write wiped out two sales, w2's and w3's; the sentence says how many
// and whose, from the checker's Lost.
func TestALostUpdateIsToldWithHowManyAndWhoseUpdatesWereLost(t *testing.T) {
	const s = int64(1e9)
	num := func(v int64) *int64 { return &v }
	sell := func(i int, client string, inv float64, v int64) history.Op {
		return history.Op{Index: i, Process: i, Client: client, F: history.Write, Key: "item-1", Type: history.OK,
			Value: history.Value{Action: "sell", Num: num(v)}, Invoke: int64(inv * float64(s)), Complete: int64(inv*float64(s)) + s/10}
	}
	h := history.History{Header: history.Header{Format: history.Format, Version: history.Version, TimeScale: 1, Algorithm: "safe", Workload: "inventory",
		Clients: []string{"w1", "w2", "w3"}, Nodes: []string{"n1"}},
		Ops: []history.Op{sell(0, "w2", 12.3, 1), sell(1, "w3", 13.8, 0), sell(2, "w1", 27.0, 1)}}
	m := newModel(h, account.New(h))
	a := checker.Anomaly{Kind: checker.KindLostUpdate, Key: "item-1", Clients: []string{"w3", "w1"}, Ops: []int{1, 2}, Violating: []int{2}, Lost: []int{0, 1},
		Start: 13*s + 9*s/10, End: 27*s + s/10, StartS: 13.9, EndS: 27.1}
	tests := []struct {
		name string
		lang Lang
		want string
	}{
		{"in English it names both sales w1 wiped out", English, "w1's write of item-1 at t=27.0s wiped out 2 earlier updates: w2's at t=12.3s and w3's at t=13.8s."},
		{"in Vietnamese it names both sales w1 wiped out", Vietnamese, "Lần ghi item-1 của w1 lúc t=27,0s đã xoá mất 2 lần cập nhật trước đó: của w2 lúc t=12,3s và của w3 lúc t=13,8s."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := m.describeAnomaly(tt.lang, a); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// Issue 27 (a fresh reader, inventory-oversell seed 21): "w1 tried to
// release item-1 but its key was gone (…; w2 had already taken and
// released the lock)" left out w3, which took and released it too.
func TestAReleaseOfAGoneKeyNamesEveryClientThatTookAndReleasedIt(t *testing.T) {
	const s = int64(1e9)
	tests := []struct {
		name string
		lang Lang
		want string
	}{
		{"in English both w2 and w3 are named", English, "w2 and w3 had already taken and released the lock"},
		{"in Vietnamese both w2 and w3 are named", Vietnamese, "w2 và w3 đã lấy lock và nhả lock xong rồi"},
	}
	op := func(i int, client string, f history.Func, inv, comp float64, v history.Value) history.Op {
		return history.Op{Index: i, Process: map[string]int{"w1": 0, "w2": 1, "w3": 2}[client], Client: client, F: f, Key: "item-1", Type: history.OK,
			Value: v, Invoke: int64(inv * float64(s)), Complete: int64(comp * float64(s))}
	}
	h := history.History{Header: history.Header{Format: history.Format, Version: history.Version, TimeScale: 1, Algorithm: "safe",
		Clients: []string{"w1", "w2", "w3"}, Nodes: []string{"n1"}},
		Ops: []history.Op{
			op(0, "w1", history.Acquire, 0.8, 0.9, history.Value{Token: "t1", TTL: 10 * s}),
			op(1, "w2", history.Acquire, 11.2, 11.3, history.Value{Token: "t2", TTL: 10 * s}),
			op(2, "w2", history.Release, 12.4, 12.5, history.Value{Token: "t2", Removed: true}),
			op(3, "w3", history.Acquire, 12.6, 12.7, history.Value{Token: "t3", TTL: 10 * s}),
			op(4, "w3", history.Release, 13.8, 13.9, history.Value{Token: "t3", Removed: true}),
			op(5, "w1", history.Release, 27.0, 27.1, history.Value{Token: "t1"}),
		}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var all []string
			for _, st := range Narrative(Input{History: h, Account: account.New(h), Lang: tt.lang}) {
				all = append(all, st.Text)
			}
			if got := strings.Join(all, "\n"); !strings.Contains(got, tt.want) {
				t.Errorf("the story lacks %q:\n%s", tt.want, got)
			}
		})
	}
}

// Issue 27 (a fresh reader, failover-fence-regression seed 25): the red
// band began at t=0.3s, w1's first grant of token 1, though nothing was
// wrong until w2 was granted token 1 again at t=28.3s; a violation made of
// events is banded from the event that made it one (its At).
func TestAViolationBandStartsWhenTheViolationBecameTrue(t *testing.T) {
	an := func(kind string, s, at, e float64) checker.Anomaly {
		return checker.Anomaly{Kind: kind, StartS: s, AtS: at, EndS: e}
	}
	tests := []struct {
		name string
		in   []checker.Anomaly
		want []band
	}{
		{"a token granted twice is banded from its second grant, not its first",
			[]checker.Anomaly{an(checker.KindTokenRegression, 0.3, 28.3, 28.3), an(checker.KindMutexOverlap, 28.3, 28.3, 33.4)},
			[]band{{28.3, 33.4, []string{checker.KindTokenRegression, checker.KindMutexOverlap}}}},
		{"a double charge is banded from its second charge",
			[]checker.Anomaly{an(checker.KindMutexOverlap, 28.3, 28.3, 33.4), an(checker.KindDoubleEffect, 33.4, 50.4, 50.4)},
			[]band{{28.3, 33.4, []string{checker.KindMutexOverlap}}, {50.4, 50.4, []string{checker.KindDoubleEffect}}}},
		{"two holders at once are banded over their whole window",
			[]checker.Anomaly{an(checker.KindMutexOverlap, 11.2, 11.2, 12.4)},
			[]band{{11.2, 12.4, []string{checker.KindMutexOverlap}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mergeBands(tt.in, 0.01)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d bands %+v, want %+v", len(got), got, tt.want)
			}
			for i := range got {
				if got[i].s != tt.want[i].s || got[i].e < tt.want[i].e || strings.Join(got[i].kinds, ",") != strings.Join(tt.want[i].kinds, ",") {
					t.Errorf("band %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// The timeline of the same fault: its master's lane says whose stream
// stopped, never "cut from".
func TestAReplicationLagStopIsLabelledAsAStoppedStreamOnTheTimeline(t *testing.T) {
	const s = int64(1e9)
	st := history.FaultStep{ID: 1, Kind: "replication-lag", Effect: history.EffectCutLinks,
		Links: []history.Link{{Client: "n1r1", Node: "n1"}}, Mode: "drop", Direction: "both", Duration: 4 * s}
	h := history.History{Header: history.Header{Format: history.Format, Version: history.Version, TimeScale: 1, Algorithm: "safe",
		Clients: []string{"w1"}, Nodes: []string{"n1"}}, Ops: []history.Op{{Index: 0, Process: history.NemesisProcess, Client: history.NemesisClient,
		F: history.Fault, Type: history.OK, Value: history.Value{Fault: &st}, Invoke: s, Complete: 5 * s}}}
	d := drawingOf(t, Input{History: h, Account: account.New(h), Lang: English})
	var texts []string
	for _, l := range d.Labels {
		texts = append(texts, l.Text)
	}
	all := strings.Join(texts, " | ")
	if !strings.Contains(all, "stream to n1r1 stopped") || strings.Contains(all, "cut from") {
		t.Errorf("labels %q: want \"stream to n1r1 stopped\" and no \"cut from\"", all)
	}
}
