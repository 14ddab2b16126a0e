package checker

import (
	"context"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// Reader 21 (fair-lock-plain seed 29): "1 of 1 fault overlapped a believed
// lock hold or an in-flight lock operation" was said of a crash of w2
// between its tries, when w2 held nothing and had nothing in flight; the
// only hold then was w1's, a client the crash did not touch. Such a kill
// still counts (it tests what a dead contender leaves behind), but the
// summary says what it met; a kill of a client inside its hold or an
// acquire overlapped it.
func TestCoverageSaysWhatAKillBetweenTriesMet(t *testing.T) {
	tests := []struct {
		name       string
		crashAt    float64
		want, lack string
		idle       int
	}{
		{"a crash of w2 between its tries is told as a kill that met no hold", 6,
			"1 of 1 fault counted as a test: w2 was killed at t=6.0s, after its acquire was refused at t=5.260s, holding nothing and with no lock operation in flight: the kill tested what a dead contender leaves behind, not a hold; 2 ok acquires",
			"overlapped", 1},
		{"a crash of w2 inside its acquire overlapped it", 5.25,
			"1 of 1 fault overlapped a believed lock hold or an in-flight lock operation; 2 ok acquires", "killed", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newHB(false)
			b.h.Header.Clients = []string{"w1", "w2", "w3"}
			b.h.Header.Nodes = []string{"n1"}
			b.acquire("w1", "k", 0, 0.1, 0)
			b.acquireFail("w2", "k", 1, 1.1)
			b.acquireFail("w2", "k", 5.24, 5.26)
			b.fault("crash-client", []string{"w2"}, tt.crashAt, tt.crashAt+0.001)
			b.release("w1", "k", 10, 10.2, true)
			b.acquire("w3", "k", 10.4, 10.5, 0)
			b.release("w3", "k", 11, 11.1, true)
			got := Coverage(context.Background(), b.h)
			if got.Verdict != Valid || got.Summary != tt.want || strings.Contains(got.Summary, tt.lack) {
				t.Errorf("coverage %s %q\nwant valid %q (no %q)", got.Verdict, got.Summary, tt.want, tt.lack)
			}
			if len(got.IdleKills) != tt.idle {
				t.Errorf("IdleKills = %+v, want %d", got.IdleKills, tt.idle)
			}
		})
	}
}

// A kill of a client that had not tried the lock yet leaves nothing
// behind: with no other fault the run tested nothing.
func TestCoverageAKillBeforeAnyTryTestsNothing(t *testing.T) {
	b := newHB(false)
	b.h.Header.Clients = []string{"w1", "w2"}
	b.h.Header.Nodes = []string{"n1"}
	b.acquire("w1", "k", 0, 0.1, 0)
	b.fault("crash-client", []string{"w2"}, 2, 2.001)
	b.release("w1", "k", 5, 5.1, true)
	b.acquire("w1", "k", 6, 6.1, 0)
	b.release("w1", "k", 7, 7.1, true)
	if got := Coverage(context.Background(), b.h); got.Verdict != Unknown || got.Untested != 1 {
		t.Errorf("coverage %s %q (untested %d), want unknown with 1 untested", got.Verdict, got.Summary, got.Untested)
	}
}

// A pause of w1 after it left its critical section and before its release
// met no hold of w1 (its hold ended with its work) but held back the
// release it invoked as it thawed (redis-py-stale-release): it counts, and
// the summary says so; a pause of w2 that held back nothing of w2's
// tested nothing, whoever held the lock meanwhile.
func TestCoverageCountsAPauseThatHeldBackItsClientsRelease(t *testing.T) {
	tests := []struct {
		name      string
		client    string
		releaseAt float64
		want      Verdict
		summary   string
	}{
		{"a pause before w1's release held it back", "w1", 4.0001, Valid,
			"1 of 1 fault counted as a test: 1 pause held back the lock operation its client invoked as it thawed (meeting no hold or lock operation in flight of that client); 2 ok acquires"},
		{"a pause of w2 held back nothing of w2's", "w2", 4.0001, Unknown, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newHB(false)
			b.h.Header.Clients = []string{"w1", "w2"}
			b.h.Header.Nodes = []string{"n1"}
			b.acquire("w1", "k", 0, 0.1, 0)
			b.op("w1", history.Done, "k", 1, 1, history.OK, history.Value{})
			b.fault("pause", []string{tt.client}, 1.001, 4)
			b.release("w1", "k", tt.releaseAt, 4.1, true)
			b.acquire("w2", "k", 10, 10.1, 0)
			b.release("w2", "k", 11, 11.1, true)
			got := Coverage(context.Background(), b.h)
			if got.Verdict != tt.want || tt.summary != "" && got.Summary != tt.summary {
				t.Errorf("coverage %s %q, want %s %q", got.Verdict, got.Summary, tt.want, tt.summary)
			}
		})
	}
}
