package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
)

// TestAnOverlapWhoseStaleWriteWasAcceptedLeadsWithTheWrite: "two workers
// believed they held the lock at the same time" is also true of a run a
// check-and-set kept valid; what made redlock-gc-pause-cas-late-claim
// invalid is the stale charge the resource accepted, which the checker's
// finding states and the headline cut off (teacher 3, F2).
func TestAnOverlapWhoseStaleWriteWasAcceptedLeadsWithTheWrite(t *testing.T) {
	tests := []struct {
		name         string
		run          func(t *testing.T) Input
		lang         Lang
		accepted     bool
		want, reject string
	}{
		{"the resource accepted w1's charge while w2 held the lock: the charge is told", accuracyRun, English, true,
			"The resource accepted w1's stale charge on invoice-1 at t=15.1s — w1's lease (TTL 10s) expired while it was still working and w2 acquired it.", "Two workers believed"},
		{"the same in Vietnamese", accuracyRun, Vietnamese, true,
			"Tài nguyên đã chấp nhận lần trừ tiền cũ của w1 trên invoice-1 lúc t=15,1s — lease của w1 (TTL 10 s) hết hạn khi nó vẫn đang làm việc và w2 đã lấy được lock.", "Hai worker cùng tin"},
		{"no stale write in the overlap: the two holders are told", func(*testing.T) Input { return gcPauseInput("local", false) }, English, false,
			"Two workers believed they held the lock at the same time", "The resource accepted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.run(t)
			in.Lang = tt.lang
			m := newModel(in.History, in.Account)
			var told bool
			cs := claim.Number(checker.Claims(in.Results))
			for n, a := range allAnomalies(in.Results) {
				if a.Kind != checker.KindMutexOverlap {
					continue
				}
				c, _ := nthClaimOf(cs, claim.Anomaly, n)
				if !slices.Equal(c.Accepted, a.Accepted) {
					t.Errorf("the overlap's claim says the resource accepted %v, the finding %v", c.Accepted, a.Accepted)
				}
				told = true
				if (len(a.Accepted) > 0) != tt.accepted {
					t.Errorf("the overlap's accepted stale writes are %v (informational %v)", a.Accepted, a.Informational)
				}
				got := m.anomalyHeadline(tt.lang, in, a, c)
				if !strings.Contains(got, tt.want) || strings.Contains(got, tt.reject) {
					t.Errorf("the overlap's headline %q: want %q, not %q", got, tt.want, tt.reject)
				}
			}
			if !told {
				t.Fatal("no mutex overlap in the run")
			}
		})
	}
}

// accuracyRun is the accuracy corpus's c04: w1's lease ran out while it
// worked, w2 acquired the lock, and the resource accepted w1's charge at
// t=15.1s in w2's hold (no double charge: w2 charged nothing before).
func accuracyRun(t *testing.T) Input { return adviceRun(t, "c04-client-clock-jump-back") }

// TestAValidRunWhoseLockBrokeInTokenOrderSaysSo: a fenced run whose
// resource accepted the stale holder's writes before the newer holder
// first used it is valid (the holders seen one at a time, in token order),
// but the lock did not keep its promise: its headline says what happened
// instead (redlock-gc-pause-fenced-late-claim, lesson 47's late-claim
// pair).
func TestAValidRunWhoseLockBrokeInTokenOrderSaysSo(t *testing.T) {
	for _, tt := range []struct {
		name      string
		lang      Lang
		want, not string
	}{
		{"in English the broken lock and the token order are told", English,
			"No harm done, though the lock was broken: w1 and w2 both believed they held invoice-1, but the resource accepted w1's writes before w2 first used it",
			tr(English, "say.valid")},
		{"in Vietnamese too", Vietnamese,
			"Không gây hại, dù lock đã bị phá vỡ: w1 và w2 cùng tin rằng mình giữ invoice-1",
			tr(Vietnamese, "say.valid")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := adviceRun(t, "redlock-gc-pause-fenced-late-claim")
			in.Lang = tt.lang
			if in.Verdict != checker.Valid {
				t.Fatalf("the stored run is %s, not valid", in.Verdict)
			}
			got := Headline(in)
			if !strings.Contains(got, tt.want) || strings.Contains(got, tt.not) {
				t.Errorf("headline %q: want %q, not %q", got, tt.want, tt.not)
			}
		})
	}
}
