package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
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
				map[Lang]string{English: "✘ broken, though the liveness checker counts it as information, not a violation: w3's key invoice-6 stayed 3s on its node though w3 never believed it held it",
					Vietnamese: "✘ bị phá vỡ, dù bộ kiểm tra liveness chỉ coi đây là thông tin, không phải vi phạm: key invoice-6 của w3 còn lại 3 s trên node dù w3 chưa bao giờ tin mình giữ nó"}[lang], ""},
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
