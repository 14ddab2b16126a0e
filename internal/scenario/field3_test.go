package scenario

import (
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/workload"
)

func TestTheTwoWriteJobIsReadFromCompletionAndFailureRecord(t *testing.T) {
	const head = "clients: 2\nalgorithm: safe\nttl: 30s\n"
	tests := []struct {
		name, workload     string
		completion, record string
	}{
		{"a payment without completion keeps mark-paid", "{kind: payment}", "", ""},
		{"completion token defaults the failure record to unchecked", "{kind: payment, completion: token}", "token", "unchecked"},
		{"a token-checked failure record is kept", "{kind: payment, completion: token, failure_record: token}", "token", "token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse("t.yaml", []byte(head+"workload: "+tt.workload+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			// The payment workload's own fields, as a normalised scenario
			// writes them.
			out, err := Normalize(s)
			if err != nil {
				t.Fatal(err)
			}
			for field, want := range map[string]string{"completion": tt.completion, "failure_record": tt.record} {
				line := "\n  " + field + ": " + want + "\n"
				if got := strings.Contains(string(out), "\n  "+field+":"); got != (want != "") || (want != "" && !strings.Contains(string(out), line)) {
					t.Errorf("%s: want %q in\n%s", field, want, out)
				}
			}
			checkRoundTrip(t, s)
		})
	}
}

func TestABadTwoWriteJobIsRefusedWhereItIsWritten(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"an unknown completion suggests the valid one",
			"clients: 2\nalgorithm: safe\nttl: 30s\nworkload: {completion: tokn}\n",
			`t.yaml:4:24: workload.completion: unknown completion "tokn" (did you mean "token"?); valid: token`},
		{"an unknown failure record suggests the nearest",
			"clients: 2\nalgorithm: safe\nttl: 30s\nworkload: {completion: token, failure_record: uncheked}\n",
			`t.yaml:4:47: workload.failure_record: unknown failure record "uncheked" (did you mean "unchecked"?)`},
		{"a failure record needs the token-checked completion",
			"clients: 2\nalgorithm: safe\nttl: 30s\nworkload: {failure_record: token}\n",
			`t.yaml:4:28: workload.failure_record: needs completion: token`},
		{"a completion belongs to the payment workload only",
			"clients: 2\nalgorithm: safe\nttl: 30s\nworkload: {kind: counter, completion: token}\n",
			`t.yaml:4:27: workload.completion: does not apply to the counter workload (only to payment)`},
		{"a lock-free algorithm has no lock key to check",
			"clients: 2\nalgorithm: idempotency-key\nttl: 30s\nworkload: {idempotency: true, completion: token}\n",
			`t.yaml:4:43: workload.completion: needs an algorithm that takes a lock (got idempotency-key)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("parsed; want %s", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got\n%v\nwant …%s…", err, tt.want)
			}
		})
	}
}

func TestALeaderWorkloadTakesPerClientKeySets(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"each scheduler may name the queues it is configured for", "clients: {w1: {keys: [1]}, w2: {keys: [1, 2]}}\nalgorithm: checked-heartbeat\nttl: 10s\nworkload: {kind: leader, keys: 2, heartbeat: true}\n", ""},
		{"a queue beyond workload.keys is refused where it is written", "clients: {w1: {keys: [3]}}\nalgorithm: safe\nttl: 10s\nworkload: {kind: leader, keys: 2}\n",
			`t.yaml:1:23: clients.w1.keys[0]: no object 3: workload.keys is 2`},
		{"a cron workload still has no objects to split", "clients: {w1: {keys: [1]}}\nalgorithm: safe\nttl: 10s\nworkload: {kind: cron, interval: 60s}\n",
			"clients: per-client keys need a workload of numbered objects (" + strings.Join(keyedWorkloads(), ", ") + "; got cron)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse("t.yaml", []byte(tt.src))
			switch {
			case tt.want == "" && err != nil:
				t.Fatal(err)
			case tt.want == "":
				if got := s.PerClient["w2"].Keys; len(got) != 2 {
					t.Fatalf("w2's keys %v, want [1 2]", got)
				}
				checkRoundTrip(t, s)
			case err == nil:
				t.Fatalf("parsed; want %s", tt.want)
			case !strings.Contains(err.Error(), tt.want):
				t.Fatalf("got\n%v\nwant …%s…", err, tt.want)
			}
		})
	}
}

func TestARestartClientFaultIsReadWithItsRestoreMode(t *testing.T) {
	const head = "clients: 2\nalgorithm: safe\nttl: 30s\nfaults:\n"
	tests := []struct {
		name, fault, want string
	}{
		{"a restart with restore all is accepted", "  - {kind: restart-client, client: w1, at: 5s, restart_after: 3s, restore: all}\n", ""},
		{"restore defaults to none", "  - {kind: restart-client, client: w1, at: 5s, restart_after: 3s}\n", ""},
		{"a restart needs its down time", "  - {kind: restart-client, client: w1, at: 5s}\n",
			`faults[0].restart_after: missing required field`},
		{"an unknown restore mode suggests the nearest", "  - {kind: restart-client, client: w1, at: 5s, restart_after: 3s, restore: al}\n",
			`faults[0].restore: unknown restore-on-start mode "al" (did you mean "all"?)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parsesOrRefuses(t, head+tt.fault, tt.want)
		})
	}
}

func TestCheckAndSetNamesTheWorkloadsThatTakeIt(t *testing.T) {
	takers := guarded(workload.GuardCheckAndSet)
	t.Run("payment and counter take check_and_set", func(t *testing.T) {
		for _, w := range []string{"payment", "counter"} {
			if !slices.Contains(takers, w) {
				t.Errorf("%s is not among %v", w, takers)
			}
		}
	})
	t.Run("a workload that does not take it is told which do", func(t *testing.T) {
		_, err := Parse("t.yaml", []byte("clients: 2\nalgorithm: safe\nttl: 30s\nworkload: {kind: cron, interval: 60s, check_and_set: true}\n"))
		want := "workload.check_and_set: works with the " + andList(takers) + " workloads only (got cron)"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want …%s…", err, want)
		}
	})
}

func TestASingletonCronWorkerTakesNoLockPerFire(t *testing.T) {
	_, err := Parse("t.yaml", []byte("clients: 2\nalgorithm: watchdog\nttl: 30s\nworkload: {kind: cron, interval: 60s, singleton: true, lock_per_fire: true}\n"))
	if err == nil || !strings.Contains(err.Error(), "t.yaml:4:") || !strings.Contains(err.Error(), "singleton") {
		t.Fatalf("err %v, want the singleton field located in t.yaml line 4", err)
	}
	if _, err := Parse("t.yaml", []byte("clients: 2\nalgorithm: watchdog\nttl: 30s\nworkload: {kind: cron, interval: 60s, singleton: true}\n")); err != nil {
		t.Fatalf("a singleton cron worker refused: %v", err)
	}
}

func TestABeforeTokenPauseNeedsALockThatTakesItsTokenAfterTheGrant(t *testing.T) {
	const fault = "faults:\n  - {kind: pause, client: w1, point: before-token, duration: 15s}\n"
	tests := []struct {
		name, head, want string
	}{
		{"redlock-fenced takes it", "clients: 2\nnodes: 5\nalgorithm: redlock-fenced\nttl: 10s\nworkload: {kind: payment, fencing: true}\n", ""},
		{"redlock, with no token, is told the point is never reached", "clients: 2\nnodes: 5\nalgorithm: redlock\nttl: 10s\n",
			"t.yaml:6:5: faults[0].point: before-token is the gap between a grant and a fencing token taken after it, which only redlock-fenced has; redlock takes no fencing token"},
		{"fenced, whose script sets the key and the token at once, is told so", "clients: 2\nalgorithm: fenced\nttl: 10s\nworkload: {kind: payment, fencing: true}\n",
			"fenced takes its fencing token in the same step as the grant, so the point is never reached"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parsesOrRefuses(t, tt.head+fault, tt.want)
		})
	}
}

// parsesOrRefuses parses doc: with want "", it must parse and round-trip;
// otherwise it must be refused with an error containing want.
func parsesOrRefuses(t *testing.T, doc, want string) {
	t.Helper()
	s, err := Parse("t.yaml", []byte(doc))
	switch {
	case want == "" && err != nil:
		t.Fatal(err)
	case want == "":
		checkRoundTrip(t, s)
	case err == nil:
		t.Fatalf("parsed; want %s", want)
	case !strings.Contains(err.Error(), want):
		t.Fatalf("got\n%v\nwant …%s…", err, want)
	}
}
