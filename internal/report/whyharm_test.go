package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// Teacher 4, #21: every fenced, check-and-set and idempotent run's
// informational overlap was labelled "Efficiency only", lesson 42's word
// for a lock that only saves work, while the lesson pages call the same
// runs "harm prevented" of a correctness lock.
func TestAnOverlapTheResourcesCheckMadeHarmlessIsHarmPreventedNotEfficiency(t *testing.T) {
	m := &model{h: history.History{Header: history.Header{Workload: "payment"}}}
	for _, tt := range []struct {
		name, harmless string
		lang           Lang
		want           string
	}{
		{"a fencing token's refusal prevented the harm", checker.HarmlessFenced, English, "Harm prevented: the lock was broken, but the resource's check (a fencing token or an epoch)"},
		{"check-and-set's refusal prevented the harm", checker.HarmlessCheckAndSet, English, "Harm prevented: the lock was broken, but the resource's check-and-set"},
		{"the idempotency key prevented the harm", checker.HarmlessIdempotent, English, "Harm prevented: the lock was broken, but the idempotency key"},
		{"the same in Vietnamese", checker.HarmlessFenced, Vietnamese, "Đã ngăn được tác hại:"},
		{"an informational overlap with no named reason claims no refusal", "", English, "Informational: the lock was broken, but the checkers found no harm"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := m.whyAnomaly(tt.lang, checker.Anomaly{Kind: checker.KindMutexOverlap, Informational: true, Harmless: tt.harmless})
			if len(got) < len(tt.want) || got[:len(tt.want)] != tt.want {
				t.Errorf("why = %q, want it to begin %q", got, tt.want)
			}
		})
	}
}

// Teacher 4, #18: control-negative's headline told the first lost update
// ("w3's write … wiped out 1 earlier update"), while the run lost two
// increments of three. Issue 27 (a reader of the same run): it then said
// w1's last write "wiped out 2 earlier updates: w2's and w3's", though
// w3's write had already wiped out w2's. The headline tells one write
// and how many updates were wiped out in all, each counted once.
func TestALostUpdateHeadlineCountsEveryUpdateWipedOutOnce(t *testing.T) {
	for _, tt := range []struct {
		name      string
		lang      Lang
		want, not string
	}{
		{"in English", English, "In all, 2 updates of counter-1 were wiped out, by w3's write at t=5.2s and w1's write at t=28.2s.", "wiped out 2 earlier updates"},
		{"in Vietnamese", Vietnamese, "Tổng cộng 2 lần cập nhật counter-1 đã bị xoá mất, bởi lần ghi của w3 lúc t=5,2s và lần ghi của w1 lúc t=28,2s.", "xoá mất 2 lần cập nhật trước đó"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := adviceRun(t, "c34d-lost-update-headline-most-wiped")
			in.Lang = tt.lang
			got := Headline(in)
			if !strings.Contains(got, tt.want) || strings.Contains(got, tt.not) {
				t.Errorf("headline %q: want %q, not %q", got, tt.want, tt.not)
			}
		})
	}
}

// Teacher 4, #11: "w1's write from an older term was accepted at t=12.2s,
// after w3 was elected at t=12.2s" — two instants alike to a tenth are
// told to the millisecond.
func TestASplitBrainsTwoInstantsThatReadAlikeAreToldToTheMillisecond(t *testing.T) {
	m := &model{h: history.History{Header: history.Header{TimeScale: 1, Workload: "leader"}}}
	for _, tt := range []struct {
		name          string
		stale, leader float64
		want          string
	}{
		{"12.195 s after 12.161 s", 12.195, 12.161, "accepted at t=12.195s, after w3 was elected at t=12.161s"},
		{"29.1 s after 10.1 s", 29.07, 10.14, "accepted at t=29.1s, after w3 was elected at t=10.1s"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := m.describeAnomaly(English, checker.Anomaly{Kind: checker.KindSplitBrain, Stale: "w1", Current: "w3", Key: "leader", AtS: tt.stale, StartS: tt.leader})
			if !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
