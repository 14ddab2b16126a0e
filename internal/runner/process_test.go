package runner

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
)

// needAdapter skips the test when the shipped adapter cannot run here
// (failing instead under CI=true, where nothing is skipped).
func needAdapter(t *testing.T, name string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range clients.Adapters() {
		if a.Name != name {
			continue
		}
		if err := a.Ready(root); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%v (CI=true: adapter tests are not skipped)", err)
			}
			t.Skipf("skipped: %v", err)
		}
		return
	}
	t.Fatalf("no adapter %s", name)
}

// checked runs the shipped scenario file with its own seed and checks its
// history; runScenario runs again what the machine spoiled.
func checked(t *testing.T, file string) (scenario.Scenario, checker.Report) {
	t.Helper()
	sc, err := scenario.Load(filepath.Join("..", "..", "scenarios", file+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	res := runScenario(t, sc, Options{Seed: *sc.Seed})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return sc, checker.Check(ctx, res.History, checker.Options{})
}

func TestEveryAdapterScenarioGivesTheVerdictOfLocksimsOwnAlgorithm(t *testing.T) {
	tests := []struct {
		name, adapter, file, builtin string
	}{
		{"node-redlock doubles the charge of a GC pause as the safe lock does", "node-redlock", "node-redlock-gc-pause", "gc-pause"},
		{"node-redlock on five nodes breaks under Kleppmann's clock jump as redlock does", "node-redlock", "node-redlock-clock-jump", "redlock-clock-jump"},
		{"node-redlock stopped with its replies in flight hands out no expired lease, as redlock", "node-redlock", "node-redlock-pause-in-flight", "redlock-pause-in-flight"},
		{"redis-semaphore's refresh frozen by a pause doubles the charge as the watchdog's does", "redis-semaphore", "redis-semaphore-gc-pause", "watchdog-gc-pause"},
		{"redis-semaphore's refresh keeps a slow job's lease as the watchdog does", "redis-semaphore", "redis-semaphore-slow-job", "watchdog-slow-job"},
		{"redis-py's Lock doubles the charge of a GC pause as the safe lock does", "redis-py", "redis-py-gc-pause", "gc-pause"},
		{"redis-py's compare-and-delete release leaves the next holder's lock as the safe lock's does", "redis-py", "redis-py-stale-release", "safe-unlock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			needAdapter(t, tt.adapter)
			// The two runs side by side: they are independent, and
			// redlock-clock-jump plays at lesson 47's time scale 0.5
			// (about 20 s of wall time, mostly asleep).
			var sc scenario.Scenario
			var got, want checker.Report
			t.Run("both runs", func(t *testing.T) {
				t.Run("the adapter's run meets its expectation", func(t *testing.T) {
					t.Parallel()
					sc, got = checked(t, tt.file)
					expectMet(t, sc, got)
				})
				t.Run("locksim's own algorithm runs the same scenario", func(t *testing.T) {
					t.Parallel()
					_, want = checked(t, tt.builtin)
				})
			})
			if t.Failed() {
				return
			}
			gk, wk := report.ViolationKinds(got.Anomalies()), report.ViolationKinds(want.Anomalies())
			if got.Verdict != want.Verdict || !slices.Equal(gk, wk) {
				t.Errorf("%s: %s %v; %s: %s %v", tt.file, got.Verdict, gk, tt.builtin, want.Verdict, wk)
			}
		})
	}
}

func TestAValidatorThatSaysTheLeaseIsGoneStopsTheClientBeforeItActs(t *testing.T) {
	needAdapter(t, "redis-py")
	sc, rep := checked(t, "redis-py-gc-pause-owned")
	expectMet(t, sc, rep)
	for _, a := range rep.Anomalies() {
		if a.Kind == "double-effect" {
			t.Fatalf("the invoice was charged twice although owned() said no: %s", a.Explain)
		}
	}
}

func TestALockClientProcessThatBreaksTheProtocolLeavesNoVerdict(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3 for the fake adapter")
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	src := `name: broken-adapter
time_scale: 50
duration: 20s
clients: 2
algorithm: process
process: {command: [/usr/bin/python3, internal/clients/testdata/fake_adapter.py, exit], dir: ` + root + `}
ttl: 5s
retry_delay: 250ms
`
	sc, err := scenario.Parse("broken.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = Run(ctx, sc, Options{Seed: 1, Backend: testBackend(t)})
	if err == nil || !strings.Contains(err.Error(), "fake adapter: giving up on acquire") {
		t.Fatalf("run error = %v, want the process's stderr tail", err)
	}
}

func TestPerClientJobsStartsAndKeysAreEachClientsOwn(t *testing.T) {
	src := `name: per-client
time_scale: 20
duration: 30s
clients:
  w1: {job: 4s, keys: [1]}
  w2: {start: 0s, keys: [2, 3]}
algorithm: safe
ttl: 10s
retry_delay: 250ms
workload: {kind: payment, keys: 3, job: 100ms, rounds: 2}
`
	sc, err := scenario.Parse("per-client.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res := runScenario(t, sc, Options{Seed: 1})
	keys := map[string][]string{}
	var w1Hold time.Duration
	var granted time.Duration
	for _, op := range res.History.Ops {
		if op.F == history.Acquire && op.Type == history.OK {
			keys[op.Client] = append(keys[op.Client], op.Key)
			if op.Client == "w1" && granted == 0 {
				granted = time.Duration(op.Complete)
			}
		}
		if op.F == history.Release && op.Client == "w1" && w1Hold == 0 && granted > 0 {
			w1Hold = time.Duration(op.Invoke) - granted
		}
	}
	if want := []string{"invoice-1", "invoice-1"}; !slices.Equal(keys["w1"], want) {
		t.Errorf("w1 locked %v, want %v (its one key, in each of two rounds)", keys["w1"], want)
	}
	if want := []string{"invoice-2", "invoice-3", "invoice-2", "invoice-3"}; !slices.Equal(keys["w2"], want) {
		t.Errorf("w2 locked %v, want %v", keys["w2"], want)
	}
	// w1's own 4 s job (200 ms of wall time) keeps it well past the
	// workload's 100 ms one (5 ms).
	if w1Hold < 150*time.Millisecond {
		t.Errorf("w1 held its first lease %v of wall time, want its own 4 s job (200 ms)", w1Hold)
	}
}

// TestALibrarysOwnRefreshIsARenewalAndAnInRenewPauseFiresOnIt runs
// redis-semaphore's Mutex, whose refresh timer renews every 0.8 × ttl
// inside the Node process, over protocol version 2: each refresh comes
// back as a renewed event, recorded as an extend with renewal: true on the
// library's own key, and a pause planned in-renew fires right after one.
func TestALibrarysOwnRefreshIsARenewalAndAnInRenewPauseFiresOnIt(t *testing.T) {
	needAdapter(t, "redis-semaphore")
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	sc := parse(t, `name: renewed-event
time_scale: 10
duration: 60s
clients: 1
algorithm: process
process: {command: [node, adapters/node/semaphore.js], dir: `+root+`, traits: [single-node]}
ttl: 10s
workload: {kind: payment, read: 100ms, job: 20s}
faults:
  - {kind: pause, client: w1, point: in-renew, duration: 3s}
`)
	res := runScenario(t, sc, Options{Seed: 1})
	h := res.History
	var acquire *history.Op
	var renewals []history.Op
	var pause *history.Op
	for i, o := range h.Ops {
		switch {
		case o.F == history.Acquire && o.Type == history.OK && acquire == nil:
			acquire = &h.Ops[i]
		case o.F == history.Extend && o.Value.Renewal && o.Client == "w1":
			renewals = append(renewals, o)
		case o.F == history.Fault && o.Value.Fault != nil && o.Value.Fault.Kind == "pause":
			pause = &h.Ops[i]
		}
	}
	if acquire == nil || acquire.Value.LockKey != "mutex:invoice-1" {
		t.Fatalf("the grant does not name the library's own key mutex:invoice-1: %+v", acquire)
	}
	if len(renewals) == 0 {
		t.Fatal("no renewal in the history: the library's refreshes were not recorded")
	}
	first := renewals[0]
	if first.Type != history.OK || first.Value.LockKey != "mutex:invoice-1" || first.Value.Token != acquire.Value.Token {
		t.Errorf("the first renewal is %s on %q with token %q; want ok on mutex:invoice-1 with the grant's token", first.Type, first.Value.LockKey, first.Value.Token)
	}
	if pause == nil {
		t.Fatal("the pause planned in-renew never fired")
	}
	// It fires on the renewed event, after the renewal completed and
	// before the library's next one (0.8 × ttl later).
	if after := h.Header.ScenarioSeconds(pause.Invoke - first.Complete); after < 0 || after > 4 {
		t.Errorf("the pause began %.2f s (scenario time) after the first renewal; want right after it", after)
	}
	for _, r := range renewals[1:] {
		if r.Invoke > pause.Invoke && r.Invoke < pause.Complete {
			t.Errorf("a renewal at %.2f s while the process was paused (%.2f–%.2f s)", h.Header.ScenarioSeconds(r.Invoke),
				h.Header.ScenarioSeconds(pause.Invoke), h.Header.ScenarioSeconds(pause.Complete))
		}
	}
}
