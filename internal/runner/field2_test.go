package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/scenario"
)

// fieldScenarios2 are the field reports of scenarios/field/ from part 2 of
// issue 19 (BR-23 to BR-35): each failing mechanism and its fix.
var fieldScenarios2 = []struct {
	name string
	file string
}{
	{"a blocked worker's unrenewed job lock lets a second worker run the job and both charge (BR-23)", "stalled-job-run-twice"},
	{"an idempotent charge survives the job running twice (BR-23)", "stalled-job-idempotent"},
	{"a refused completion's unchecked failure record overwrites the finished run's record (BR-23, bull #1416)", "stalled-job-failed-reason"},
	{"a token-checked failure record and a keyed charge leave the finished run's record alone (BR-23)", "stalled-job-failed-reason-checked"},
	{"a PID owner value and a plain EXPIRE heartbeat let two schedulers lead for good (BR-25)", "scheduler-pid-heartbeat"},
	{"an owner-checked heartbeat with a lease longer than the work keeps one leader (BR-25)", "scheduler-checked-heartbeat"},
	{"a heartbeat over every configured queue keeps a dead scheduler's queue lock for good (BR-25, rq #1707)", "scheduler-heartbeat-foreign-queue"},
	{"a heartbeat of its own locks lets the dead scheduler's queue lock expire (BR-25)", "scheduler-heartbeat-own-queue"},
	{"a stop that deletes every configured queue's lock lets a third scheduler take a running queue (BR-25, rq PR #1914)", "scheduler-stop-releases-foreign-queue"},
	{"a stop that releases its own locks leaves a running queue to its scheduler (BR-25)", "scheduler-stop-releases-own-queue"},
	{"two threads of one process sharing the owner token both hold the lock (BR-26)", "shared-owner-token"},
	{"a token per acquire keeps the threads of one process apart (BR-26)", "shared-owner-token-per-holder"},
	{"a janitor deletes a running job's lock and the invoice is charged twice (BR-27)", "janitor-deletes-lock"},
	{"a restarted worker re-queues a live worker's job on start and it is charged twice (BR-27, kombu #905)", "restart-restores-live-leases"},
	{"a restarted worker that restores nothing leaves live leases alone (BR-27)", "restart-restores-nothing"},
	{"the fence counter survives the janitor and the gateway refuses the older token (BR-27)", "janitor-deletes-lock-fenced"},
	{"an unlock without an owner check deletes the next scheduler's lock (BR-28)", "unlock-deletes-next-lock"},
	{"an owner-checked unlock with a lockAtMostFor longer than the run runs one at a time (BR-28)", "unlock-checks-owner"},
	{"a node restarted from a snapshot older than the grant forgets the lock (BR-31)", "snapshot-lost-lock"},
	{"appendfsync always keeps the lock through the same restart (BR-31)", "snapshot-lost-lock-aof"},
	{"each host deriving its own lock key runs the task on every host (BR-33)", "lock-key-per-host"},
	{"one shared lock name runs each fire once (BR-33)", "lock-key-shared-name"},
	{"a dead waiter heading a fair lock's queue keeps the free lock from the live one (BR-29)", "fair-lock-dead-waiter"},
	{"a plain lock leaves nothing behind a dead contender (BR-29)", "fair-lock-plain"},
	{"a waiter killed and restarted queues behind its own dead entry and the free lock is refused to it (BR-29, #4595)", "fair-lock-restarted-waiter"},
	{"a plain lock lets the restarted waiter in once the holder releases (BR-29)", "fair-lock-restarted-waiter-plain"},
	{"a failed unlock leaves the local lock held and the process's other thread starves (BR-35)", "local-lock-left-held"},
	{"a local lock released in a finally block lets the other thread in (BR-35)", "local-lock-finally"},
}

// TestEveryFieldScenarioOfPart2Exists keeps both tables honest: a row
// whose file was renamed would test nothing.
func TestEveryFieldScenarioOfPart2Exists(t *testing.T) {
	for _, tt := range allFieldScenarios() {
		if _, err := os.Stat(filepath.Join("..", "..", "scenarios", "field", tt.file+".yaml")); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// TestClientsOfOneProcessShareItsHost checks the process grouping of
// clients: clients naming one process share its Host, every other client
// has one of its own, and the owner identities come from the run's seed.
func TestClientsOfOneProcessShareItsHost(t *testing.T) {
	sc, err := scenario.Parse("hosts.yaml", []byte(`
clients:
  w1: {process: p1}
  w2: {process: p1}
  w3: {}
algorithm: reentrant-shared-token
ttl: 30s
`))
	if err != nil {
		t.Fatal(err)
	}
	hostsOf := func(seed int64) map[string]string {
		r := &run{sc: sc, seed: seed, names: []string{"w1", "w2", "w3"}}
		out := map[string]string{}
		for c, h := range r.hosts() {
			out[c] = h.Name + "/" + h.ID
		}
		return out
	}
	a, again, other := hostsOf(7), hostsOf(7), hostsOf(8)
	t.Run("the two threads of p1 share one host and its id", func(t *testing.T) {
		if a["w1"] != a["w2"] || a["w1"][:3] != "p1/" {
			t.Errorf("w1 %q, w2 %q; want one host p1", a["w1"], a["w2"])
		}
	})
	t.Run("a client naming no process is a process of its own", func(t *testing.T) {
		if a["w3"] == a["w1"] || a["w3"][:3] != "w3/" {
			t.Errorf("w3 %q; want a host of its own named w3", a["w3"])
		}
	})
	t.Run("the ids are the seed's: the same seed gives the same, another seed others", func(t *testing.T) {
		if a["w1"] != again["w1"] || a["w3"] != again["w3"] {
			t.Errorf("seed 7 twice: %v then %v", a, again)
		}
		if a["w1"] == other["w1"] {
			t.Errorf("seeds 7 and 8 gave p1 the same id %q", a["w1"])
		}
	})
}

// TestACommandCutByTheRunsEndIsNoStall checks cutByRunEnd: only a command
// whose deadline was the run's own, with the run over, is cut by it.
func TestACommandCutByTheRunsEndIsNoStall(t *testing.T) {
	over, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	<-over.Done()
	inherited, c1 := context.WithTimeout(over, time.Hour) // the run's deadline is the earlier
	defer c1()
	own, c2 := context.WithTimeout(context.WithoutCancel(over), time.Nanosecond)
	defer c2()
	<-own.Done()
	running, c3 := context.WithTimeout(context.Background(), time.Hour)
	defer c3()
	child, c4 := context.WithTimeout(running, time.Hour)
	defer c4()
	// A run context whose deadline passed but whose timer has not fired
	// yet (Err still nil), and a command that inherited that deadline.
	racingRun := pendingDeadline{Context: context.Background(), at: time.Now().Add(-time.Millisecond)}
	racing, c5 := context.WithDeadline(context.Background(), racingRun.at)
	defer c5()
	tests := []struct {
		name     string
		cmd, run context.Context
		cut      bool
	}{
		{"a command that inherited the deadline of a run that is over was cut by its end", inherited, over, true},
		{"a command bounded by its own timeout was not, though the run is over", own, over, false},
		{"nothing is cut while the run goes on", child, running, false},
		{"nothing is cut before the run started", inherited, nil, false},
		{"a run whose deadline passed is over though its context has not said so yet", racing, racingRun, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cutByRunEnd(tt.cmd, tt.run); got != tt.cut {
				t.Errorf("cutByRunEnd = %v, want %v", got, tt.cut)
			}
		})
	}
}

// pendingDeadline is a context whose deadline is at but which never ends
// by itself: a deadline timer that has not fired yet.
type pendingDeadline struct {
	context.Context
	at time.Time
}

func (p pendingDeadline) Deadline() (time.Time, bool) { return p.at, true }
