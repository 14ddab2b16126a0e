package checker

import (
	"compress/gzip"
	"context"
	"os"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// loadedHistory reads a real history of a run on a loaded machine
// (testdata/loaded/README.md).
func loadedHistory(t *testing.T, name string) history.History {
	t.Helper()
	f, err := os.Open("testdata/loaded/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	h, err := history.Decode(z)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// marginOf is the margin set beside the first violation of kind in rep's
// coverage result (nil when none is).
func marginOf(rep Report, kind string) *Margin {
	for _, r := range rep.Results {
		for i := range r.Marginal {
			if r.Marginal[i].Kind == kind {
				return &r.Marginal[i]
			}
		}
	}
	return nil
}

// Issue 32: a suite on a loaded machine judged each of these runs by a
// violation the harness's own lateness made; each must be unknown (the
// machine spoiled it, so a suite reruns it).
func TestTheLoadedSchedulerRunsAreNotJudgedByTheirLateness(t *testing.T) {
	for _, tt := range []struct {
		file, kind string
	}{
		// w1's crash fired 9.1 ms (wall) after its planned 2 s, 0.2 ms
		// after w1 sent its renewal; the renewal landed after the crash
		// and the orphaned key outlived w1's belief by its 2 s TTL plus
		// 1.2 ms: an unbounded orphan by less than the crash was late.
		{"scheduler-heartbeat-own-queue-seed31.jsonl.gz", KindOrphanedLease},
		// w1's first job ended 121 ms late (a timer lag), which shifted
		// its renewals so that w2's kept the shared key alive until w1's
		// release deleted it: the foreign unlock's window is w1's hold.
		{"scheduler-pid-heartbeat-seed25.jsonl.gz", KindForeignUnlock},
	} {
		t.Run(tt.file, func(t *testing.T) {
			rep := Check(context.Background(), loadedHistory(t, tt.file), Options{})
			if c, _ := Spoiled(rep.Verdict, rep.Results); rep.Verdict != Unknown || c != SpoiledMargin {
				t.Errorf("verdict %s, spoiled %q; want unknown, spoiled %q", rep.Verdict, c, SpoiledMargin)
			}
			if m := marginOf(rep, tt.kind); m == nil || !m.Untrusted() {
				t.Errorf("the %s is not set beside the lateness as untrusted: %+v", tt.kind, m)
			}
		})
	}
}
