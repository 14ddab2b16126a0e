package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// An exposure no contender tested, told by the try that came closest: one
// that found too few nodes free of the lock's key (w1's, or a third
// client's keys it met), or one its own guard gave up though the nodes
// let it in. Every language says which, with the history's numbers, and
// no sentence says the try met w1's key alone.
func TestAShortTryIsToldByWhatStoppedItInEveryLanguage(t *testing.T) {
	h := history.History{Header: history.Header{TimeScale: 1}, Ops: []history.Op{
		{Index: 0, Client: "w1", F: history.Write, Key: "invoice-1", Value: history.Value{Action: workload.ActionCharge}, Invoke: 31e9, Complete: 31.01e9, Type: history.OK},
	}}
	m := &model{h: h, scale: 1}
	for _, tt := range []struct {
		name  string
		short checker.ShortTry
		want  map[Lang][]string
	}{
		{"a try short of the quorum is told by the nodes it found free of any key of the lock",
			checker.ShortTry{Client: "w2", At: 30.1e9, Met: 1, Need: 3},
			map[Lang][]string{
				English:    {"a grant needs 3 nodes free of the lock's key, w1's or any other client's, and the try w2 began at t=30.1s found 1"},
				Vietnamese: {"cần 3 node không còn key nào của lock, dù của w1 hay của client khác", "lần thử w2 bắt đầu lúc t=30,1s chỉ gặp 1 node"},
			}},
		{"a try on a lock of one node that met its own client's earlier key is told by that key",
			checker.ShortTry{Client: "w2", At: 30.1e9, Met: 0, Need: 1, KeyOwner: "w2"},
			map[Lang][]string{
				English:    {"when the commands of the try w2 began at t=30.1s reached the node, a key of the lock was there, left by an earlier acquire of w2's own"},
				Vietnamese: {"lần thử w2 bắt đầu lúc t=30,1s tới node", "do một lần lấy lock trước đó của chính w2 để lại"},
			}},
		{"a try on a lock of one node whose script found the node free and was refused says the lock refused it for a reason of its own",
			checker.ShortTry{Client: "w3", At: 30.2e9, Met: 0, Need: 1, ScriptRefused: true},
			map[Lang][]string{
				English:    {"when the script of the try w3 began at t=30.2s reached the node, the node's record shows no key of the lock there, but the lock refused it all the same"},
				Vietnamese: {"khi script của lần thử w3 bắt đầu lúc t=30,2s tới node", "lock vẫn từ chối nó (vì một lý do riêng của lock"},
			}},
		{"a try on a lock of one node that met a third client's key names its owner",
			checker.ShortTry{Client: "w2", At: 30.1e9, Met: 0, Need: 1, KeyOwner: "w3"},
			map[Lang][]string{
				English:    {"a key of the lock was there, w3's"},
				Vietnamese: {"vẫn còn một key của lock, của w3"},
			}},
		{"a try that outran its lease's validity is told as given up",
			checker.ShortTry{Client: "w2", At: 30.1e9, GaveUp: history.RefusalValidity},
			map[Lang][]string{
				English:    {"no other client could act on the lock in that window: the try w2 began at t=30.1s ran past its lease's validity"},
				Vietnamese: {"lần thử w2 bắt đầu lúc t=30,1s đã vượt quá thời hạn hiệu lực của lease"},
			}},
		{"a try its WAIT refused is told as given up for its replicas",
			checker.ShortTry{Client: "w2", At: 30.1e9, GaveUp: history.RefusalNotReplicated},
			map[Lang][]string{
				English:    {"the try w2 began at t=30.1s had its key set, but too few replicas acknowledged it"},
				Vietnamese: {"quá ít replica xác nhận"},
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.short
			e := &checker.Exposure{Client: "w1", Key: "invoice-1", LeaseEnd: 30e9, First: 0, Last: 0, Action: workload.ActionCharge, From: 30e9, To: 31.01e9, Short: &s}
			in := Input{History: h, Verdict: checker.Unknown, Results: []checker.Result{{Checker: checker.CheckerCoverage, Verdict: checker.Unknown, Exposure: e}}}
			for _, lang := range []Lang{English, Vietnamese} {
				got, ok := m.busyHeadline(lang, in)
				if !ok || strings.Contains(got, "%!") {
					t.Fatalf("%s: %q (%v)", lang, got, ok)
				}
				for _, w := range tt.want[lang] {
					if !strings.Contains(got, w) {
						t.Errorf("%s: %q lacks %q", lang, got, w)
					}
				}
			}
		})
	}
}
