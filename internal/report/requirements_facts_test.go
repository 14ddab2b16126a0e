package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// Reader 6 (A5, A10): requirements.html credited watchdog-unlock-lost
// with fault tolerance "kept correct across the node's failure … takes no
// one while that node is down" though its only fault was a partition
// w1↔n1 and no node failed; and it said of janitor-deletes-lock-fenced
// that "the lock itself let w2 in" though a janitor deleted w1's key.
// Each cell's reason follows the run's facts: the plan's faults, the
// cause of the overlap.
func TestARequirementsCellsReasonFollowsTheRunsFacts(t *testing.T) {
	judged := map[string]checker.Verdict{checker.CheckerLiveness: checker.Valid}
	partition := []history.FaultStep{{ID: 1, Kind: "partition", Effect: history.EffectCutLinks, Links: []history.Link{{Client: "w1", Node: "n1"}}}}
	crash := append([]history.FaultStep{{ID: 2, Kind: "crash", Effect: history.EffectCrashNode, Nodes: []string{"n1"}}}, partition...)
	janitor := []history.FaultStep{{ID: 1, Kind: "delete-key", Effect: history.EffectDeleteKey, Key: "invoice-1"}}
	overlap := func(cause string) []checker.Anomaly {
		return []checker.Anomaly{{Kind: checker.KindMutexOverlap, Stale: "w1", Current: "w2", Informational: true, Cause: &checker.Cause{Kind: cause, Client: "w1"}}}
	}
	for _, tt := range []struct {
		name       string
		lang       Lang
		req        string
		plan       []history.FaultStep
		anomalies  []checker.Anomaly
		want, lack string
	}{
		{"a partition alone is not told as a node's failure", English, ReqFaultTolerance, partition, nil,
			"✔ kept: the faults on the nodes' side only cut links (w1↔n1), and no finding had a node's failure as its cause; no node failed in this run", "across the node's failure"},
		{"a Vietnamese cell says no node failed", Vietnamese, ReqFaultTolerance, partition, nil,
			"không node nào bị hỏng trong lần chạy này", "vẫn đúng qua lần node bị hỏng"},
		{"a crash beside the partition is still told as the node's failure", English, ReqFaultTolerance, crash, nil,
			tr(English, "lesson.strip.singlepoint"), "only cut links"},
		{"a janitor's deletion is not told as the lock letting w2 in", English, ReqMutualExclusion, janitor, overlap(account.EndJanitor),
			"✘ broken: a janitor deleted w1's key by name, and the lock then let w2 in while w1 still believed it held the lock", "the lock itself"},
		{"a Vietnamese cell names the janitor too", Vietnamese, ReqMutualExclusion, janitor, overlap(account.EndJanitor),
			"một janitor đã xoá key của w1 theo tên, rồi lock cho w2 vào trong khi w1 vẫn tin mình đang giữ lock", "chính lock"},
		{"a key lost in a crash still says the lock let w2 in", English, ReqMutualExclusion, crash, overlap(account.EndCrashed),
			"the lock itself let w2 in", "janitor"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Results{Verdict: checker.Valid, Plan: tt.plan, Checkers: judged, Anomalies: tt.anomalies}
			rows := strip(tt.lang, r, r, []string{tt.req})
			if len(rows) != 1 || !strings.Contains(rows[0].Broken, tt.want) || strings.Contains(rows[0].Broken, tt.lack) {
				t.Errorf("rows %+v, want %q and no %q", rows, tt.want, tt.lack)
			}
		})
	}
}
