package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/why"
)

// A mark whose column would mislead alone carries its reason (teacher11
// G4, G8): a liveness "✘ broken" of a valid run whose only liveness
// findings are informational orphaned leases its TTL ended
// (fencing-random-nemesis seed 1009), and a fault tolerance "✔ kept"
// beside an invalid run whose node fault the same seed did not need
// (host-sleep: without n1's pause it was still invalid).
func TestAMarkThatWouldMisleadAloneSaysWhy(t *testing.T) {
	orphan := checker.Anomaly{Kind: checker.KindOrphanedLease, Owner: "w3", Key: "invoice-6", StartS: 7.638, EndS: 10.650,
		Informational: true, Harmless: "liveness",
		Cause: &checker.Cause{Kind: "expired", Client: "w3", TTL: 60000000, Unbelieved: true}}
	valid := Results{Verdict: checker.Valid, TimeScale: 50, Checkers: map[string]checker.Verdict{checker.CheckerLiveness: checker.Valid},
		Anomalies: []checker.Anomaly{orphan}}
	sleep := []history.FaultStep{
		{ID: 1, Kind: "pause", Effect: history.EffectFreezeNode, Nodes: []string{"n1"}, Duration: 14e9},
		{ID: 2, Kind: "host-sleep", Effect: history.EffectFreezeClient, Clients: []string{"w1"}, Duration: 20e9},
	}
	invalid := Results{Verdict: checker.Invalid, TimeScale: 1, Plan: sleep,
		Anomalies: []checker.Anomaly{{Kind: checker.KindDoubleEffect}},
		Counterfactuals: []why.Counterfactual{
			{Change: why.Without, Step: 1, Verdict: checker.Invalid},
			{Change: why.Without, Step: 2, Verdict: checker.Invalid},
		}}
	needed := invalid
	needed.Counterfactuals = []why.Counterfactual{{Change: why.Without, Step: 1, Verdict: checker.Valid}}
	for _, lang := range []Lang{English, Vietnamese} {
		for _, tt := range []struct {
			name      string
			r         Results
			req       string
			want, not string
		}{
			{"an informational orphan under liveness", valid, ReqLiveness,
				map[Lang]string{English: "✘ broken, though the liveness checker counts it as information, not a violation: w3's key invoice-6 stayed 3.012s on its node though w3 never believed it held it",
					Vietnamese: "✘ bị phá vỡ, dù bộ kiểm tra liveness chỉ coi đây là thông tin, không phải vi phạm: key invoice-6 của w3 còn lại 3,012 s trên node dù w3 chưa bao giờ tin mình giữ nó"}[lang], ""},
			{"a node fault the harm did not need", invalid, ReqFaultTolerance,
				map[Lang]string{English: "the node's fault did not cause the harm: the same seed without it was still invalid",
					Vietnamese: "lỗi của node không gây ra tác hại: cùng seed đó khi không có lỗi này vẫn vi phạm"}[lang], ""},
			{"a node fault the harm needed says nothing of the kind", needed, ReqFaultTolerance, "",
				map[Lang]string{English: "did not cause the harm", Vietnamese: "không gây ra tác hại"}[lang]},
		} {
			t.Run(string(lang)+": "+tt.name, func(t *testing.T) {
				got := markText(lang, tt.r, MarkOf(tt.r, tt.req))
				if tt.want != "" && !strings.Contains(got, tt.want) {
					t.Errorf("mark %q lacks %q", got, tt.want)
				}
				if tt.not != "" && strings.Contains(got, tt.not) {
					t.Errorf("mark %q says %q", got, tt.not)
				}
			})
		}
	}
}

// A fault tolerance "✘ broken" beside a valid run says why (teacher12
// N-2: server-clock-step-fenced, bare "✘ broken" on requirements.html
// and lesson 47's strip): the node's fault broke the lock's safety, and
// the fencing token refused the stale write, so no harm was done.
func TestANodeFaultWhoseHarmWasPreventedSaysSo(t *testing.T) {
	r := Results{Verdict: checker.Valid, TimeScale: 25, Traits: []string{history.TraitMultiNode},
		Plan: []history.FaultStep{{ID: 1, Kind: "clock-jump", Effect: history.EffectNodeClock, Nodes: []string{"n1"}}},
		Anomalies: []checker.Anomaly{{Kind: checker.KindMutexOverlap, Stale: "w1", Current: "w2", Key: "invoice-1",
			Informational: true, Harmless: checker.HarmlessFenced,
			Cause: &checker.Cause{Kind: "clock", Client: "w1", Nodes: []string{"n1"}}}},
		Claims: []claim.Claim{{Kind: claim.Op, Client: "w1", What: string(history.Write), Refusal: history.RefusalStaleFence}}}
	for lang, want := range map[Lang]string{
		English:    "✘ broken, harm prevented: n1's clock jumped and w1's key there expired early, so the lock let w2 in while w1 still believed it held it (the node's fault broke the lock's safety); the resource refused w1's stale write (its fencing token was older than one the resource had seen)",
		Vietnamese: "✘ bị phá vỡ, tác hại được ngăn lại: đồng hồ của n1 nhảy và key của w1 ở đó hết hạn sớm, nên lock cho w2 vào khi w1 vẫn tin mình giữ nó (lỗi của node đã phá vỡ an toàn của lock); tài nguyên đã từ chối lần ghi cũ của w1 (fencing token của nó cũ hơn một token tài nguyên đã thấy)",
	} {
		if got := markText(lang, r, MarkOf(r, ReqFaultTolerance)); got != want {
			t.Errorf("%s:\n got %q\nwant %q", lang, got, want)
		}
	}
}

// A bounded orphan whose owner never believed it held the key (its
// acquire got no answer) is not told "after its holder stopped", and a
// stay that rounds to its TTL's own figure is written to the millisecond
// (teacher12 N-3: "stayed 3s after its holder stopped, and its TTL (3s)
// ended it" for 2.969 s and an acquire that got no answer).
func TestABoundedOrphanItsOwnerNeverHeldSaysSo(t *testing.T) {
	orphan := checker.Anomaly{Kind: checker.KindOrphanedLease, Owner: "w3", Key: "invoice-7", StartS: 7.000, EndS: 9.969,
		Informational: true, Harmless: checker.HarmlessBounded,
		Cause: &checker.Cause{Kind: "expired", Client: "w3", TTL: 60000000, Unbelieved: true, Bounded: true}}
	r := Results{Verdict: checker.Valid, TimeScale: 50, Checkers: map[string]checker.Verdict{checker.CheckerLiveness: checker.Valid},
		Anomalies: []checker.Anomaly{orphan}}
	for lang, want := range map[Lang]string{
		English:    "✔ kept: w3's key invoice-7 stayed 2.969s on its node though w3 never believed it held it (its acquire got no answer), and its TTL (3s) ended it: the lock came free by itself",
		Vietnamese: "✔ được giữ: key invoice-7 của w3 còn lại 2,969 s trên node dù w3 chưa bao giờ tin mình giữ nó (lần lấy lock của nó không nhận được trả lời), rồi hết hạn theo TTL (3 s): lock tự được giải phóng",
	} {
		if got := markText(lang, r, MarkOf(r, ReqLiveness)); got != want {
			t.Errorf("%s:\n got %q\nwant %q", lang, got, want)
		}
	}
}
