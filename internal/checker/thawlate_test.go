package checker

import (
	"context"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// thawed is a valid run whose lock client process w1 was paused from 5 s
// for its planned 1 s, sent SIGCONT on time at 6 s, and first heard from
// again silent seconds after it (history Value.ThawHeard; 0: not
// measured), with a round trip of rtt seconds once it ran.
func thawed(silent, rtt float64) *hb {
	b := newHB(false)
	b.acquire("w1", inv1, 0, 0.01, 0)
	f := b.fault("pause", []string{"w1"}, 5, 6)
	op := &b.h.Ops[f]
	op.Value.Fault.Trigger, op.Value.Fault.Duration = history.Trigger{Kind: history.TriggerAt, At: ns(5)}, ns(1)
	if silent > 0 {
		op.Value.ThawHeard, op.Value.ThawRTT = ns(6+silent), ns(rtt)
	}
	b.write("w1", inv1, workload.ActionCharge, 10, 10.01, 0)
	b.release("w1", inv1, 11, 11.01, true)
	b.acquire("w2", inv1, 12, 12.01, 0)
	b.release("w2", inv1, 13, 13.01, true)
	return b
}

// Issue 32: redis-semaphore-4-host-sleep came out valid beside CPU hogs
// although its pause steps ended on time: the SIGCONT was sent on time,
// but the thawed Node process ran late. A process heard from again only
// long after its SIGCONT stretched its pause: a valid run is unknown, and
// says whose process and how long it said nothing.
func TestAProcessHeardFromLongAfterItsThawMakesAValidRunUnknown(t *testing.T) {
	tests := []struct {
		name    string
		silent  float64 // s after the SIGCONT; 0: not measured
		rtt     float64
		want    Verdict
		mention string
	}{
		{"a process whose thaw was not measured keeps the run valid", 0, 0, Valid, ""},
		{"a process heard from within its round trip keeps the run valid", 0.0005, 0.0004, Valid, ""},
		{"a process heard from 5 s after its SIGCONT makes the run unknown", 5, 0.001, Unknown,
			"step #2 (pause) lasted 5.999s of scenario time for w1's process instead of its planned 1s: the process said nothing for 5s (wall) after its SIGCONT, against a round trip of 1ms once it ran"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Check(context.Background(), thawed(tt.silent, tt.rtt).h, Options{})
			if rep.Verdict != tt.want {
				t.Fatalf("verdict %s, want %s: %+v", rep.Verdict, tt.want, rep.Results)
			}
			cov := rep.Results[len(rep.Results)-1]
			if tt.want != Unknown {
				if cov.Late != nil {
					t.Errorf("coverage names a late step %+v of a run on time", *cov.Late)
				}
				return
			}
			if !cov.TimingLost || !strings.Contains(cov.Summary, tt.mention) {
				t.Errorf("coverage %q (timing lost %v), want it to say %q", cov.Summary, cov.TimingLost, tt.mention)
			}
			if l := cov.Late; l == nil || l.Client != "w1" || l.SilentNS != ns(tt.silent) || l.ThawLateNS != ns(tt.silent)-ns(tt.rtt) || l.StretchNS != l.ThawLateNS {
				t.Errorf("coverage's late step %+v, want w1's, silent %v s", l, tt.silent)
			}
			if c, why := Spoiled(rep.Verdict, rep.Results); c != SpoiledBusy || why == "" {
				t.Errorf("spoiled %q %q, want busy with a reason", c, why)
			}
		})
	}
}

// The stale holder's process heard from late lengthens the overlap by
// that much: a violation within it is unknown, past it stands.
func TestAStaleHoldersProcessHeardFromLateIsLatenessAroundTheViolation(t *testing.T) {
	tests := []struct {
		name   string
		silent float64
		want   Verdict
	}{
		{"w1's process said nothing 80 ms after its thaw: the 60 ms overlap is within it", 0.08, Unknown},
		{"w1's process answered at once: the 60 ms overlap stands", 0.0003, Invalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := nearMiss(30.05)
			b.h.Ops[2].Value.ThawHeard, b.h.Ops[2].Value.ThawRTT = ns(30.05+tt.silent), ns(0.0002)
			rep := Check(context.Background(), b.h, Options{})
			if rep.Verdict != tt.want {
				t.Fatalf("verdict %s, want %s: %+v", rep.Verdict, tt.want, rep.Results)
			}
			if cov := rep.Results[len(rep.Results)-1]; tt.want == Unknown && !strings.Contains(cov.Summary, "faults late 80ms") {
				t.Errorf("coverage says %q", cov.Summary)
			}
		})
	}
}
