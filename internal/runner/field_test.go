package runner

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/scenario"
)

// fieldScenarios are the field reports of scenarios/field/ (issue 19):
// each failing mechanism and its fix, with what each run must show.
var fieldScenarios = []struct {
	name string
	file string
}{
	{"a server clock step expires a held lock and the invoice is charged twice (BR-06)", "server-clock-step"},
	{"a fence counter without a TTL survives the server clock step (BR-06)", "server-clock-step-fenced"},
	{"a watchdog hears of the server clock step only after the next holder got in (BR-06)", "server-clock-step-watchdog"},
	{"a scheduler killed mid-job leaves a 24 h mutex that skips every later fire (BR-34)", "scheduler-mutex-24h"},
	{"a mutex TTL sized to the job lets the task run again once it expires (BR-34)", "scheduler-mutex-90s"},
	{"a plain PEXPIRE extend after a cut extends the next leader's key and both lead (BR-10)", "beat-pexpire-extend"},
	{"an owner-checked extend stops the cut leader before its key expires (BR-10)", "beat-owner-extend"},
	{"an EXISTS check passes on the next holder's key and a forced DEL removes it (BR-14)", "writer-exists-check"},
	{"an owner-checked watchdog stops the cut writer before its key expires (BR-14)", "writer-token-check"},
	{"a watchdog cancelled only on the unlock's reply renews a released lock for ever (BR-21)", "watchdog-orphan-unlock-lost"},
	{"a watchdog stopped before the unlock lets a lost unlock expire (BR-21)", "watchdog-unlock-lost"},
	{"a watchdog renews a hung worker's lock for the rest of the run (S15b)", "watchdog-hung-worker"},
	{"a renewal cap gives a hung worker's lease up (S15b)", "watchdog-bounded-hung-worker"},
	{"an extend that sets a missing key hides the lapse and the invoice is charged twice (BR-08)", "extend-after-expiry"},
	{"an owner-checked extend tells the holder too late to prevent the overlap (BR-08)", "extend-after-expiry-owned"},
	{"a local lease deadline stops the holder before its key expires (BR-08)", "extend-after-expiry-deadline"},
	{"a host sleep expires the lock and a watchdog nobody hears lets both charge (BR-07)", "host-sleep"},
	{"a fenced watchdog lock stops the stale holder on its failed renewal after a host sleep, before any write reaches the fence (BR-07)", "host-sleep-fenced"},
	{"a client wall-clock step back makes a Redlock holder overstay its lease (S16b)", "client-clock-step-back"},
	{"a monotonic clock keeps the lease's end where it was (S16b)", "client-clock-step-back-monotonic"},
	{"a resource's check-and-set of the lock's token refuses the stale Redlock holder (lock-theory §7.3)", "redlock-gc-pause-cas"},
	{"a stale write that lands before the new holder's claim gets past check-and-set, in claim order (lock-theory §7.3)", "redlock-gc-pause-cas-late-claim"},
	{"a stale write that lands before the new holder's claim gets past a fencing token too, in token order (lock-theory §7.2)", "redlock-gc-pause-fenced-late-claim"},
	{"a stale holder that claims after the new holder puts its token back in currlock and check-and-set serves it (lock-theory §7.3)", "redlock-gc-pause-cas-stale-claim"},
}

// fieldLibraryScenarios run a field report on the real library at its
// affected release and at its fixed (or last good) one, each client a
// process of the named shipped adapter (clients.Adapters).
var fieldLibraryScenarios = []struct {
	name, file, adapter string
}{
	{"redis-semaphore 3.2.1's unobservable lost lock lets both charge after a host sleep (BR-07)", "redis-semaphore-3-host-sleep", "redis-semaphore 3.2.1"},
	{"redis-semaphore 4.1.0's onLockLost stops the holder before its charge, after the overlap began (BR-07)", "redis-semaphore-4-host-sleep", "redis-semaphore 4.1.0"},
	{"node-redlock 5.0.0-beta.2 hands out a lease that ran out with its replies in flight (BR-17)", "node-redlock-5-pause-in-flight", "node-redlock 5.0.0-beta.2"},
	{"node-redlock 4.2.0's validity check refuses the lease that ran out in flight (BR-17)", "node-redlock-4-pause-in-flight", "node-redlock"},
	{"redis-semaphore 5.3.0's refresh sets the expired key again after another's grant and hides the lapse (#175)", "redis-semaphore-530-stale-refresh", "redis-semaphore 5.3.0"},
	{"redis-semaphore 5.3.1's refresh finds the key gone and tells the holder before its charge (#175)", "redis-semaphore-531-stale-refresh", "redis-semaphore 5.3.1"},
}

// allFieldScenarios is part 1's table, part 2's (field2_test.go) and the
// real libraries'.
func allFieldScenarios() []struct{ name, file string } {
	all := append(slices.Clone(fieldScenarios), fieldScenarios2...)
	for _, tt := range fieldLibraryScenarios {
		all = append(all, struct{ name, file string }{tt.name, tt.file})
	}
	return all
}

// TestFieldLibraryScenarios runs each real-library field scenario once and
// holds it to its expect, skipped (failing under CI=true) when its
// adapter is not installed.
func TestFieldLibraryScenarios(t *testing.T) {
	for _, tt := range fieldLibraryScenarios {
		t.Run(tt.name, func(t *testing.T) {
			needAdapter(t, tt.adapter)
			t.Parallel()
			holdFileToItsExpect(t, "field/"+tt.file)
		})
	}
}

// TestFieldScenarios runs each field scenario once on real Redis and holds
// it to the file's own expect: its verdict and exactly its anomaly kinds.
func TestFieldScenarios(t *testing.T) {
	for _, tt := range allFieldScenarios() {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			holdFileToItsExpect(t, "field/"+tt.file)
		})
	}
}

// holdFileToItsExpect runs scenarios/<file>.yaml once from its own seed
// on real Redis and holds it to its expect: its verdict and exactly its
// anomaly kinds.
func holdFileToItsExpect(t *testing.T, file string) {
	t.Helper()
	sc, err := scenario.Load(filepath.Join("..", "..", "scenarios", file+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	res := runScenario(t, sc, Options{Seed: *sc.Seed})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	expectMet(t, sc, checker.Check(ctx, res.History, checker.Options{}))
}

// TestEveryFieldScenarioIsTested keeps the table above complete: a file
// added to scenarios/field/ without a row would never be held to its
// expect by go test.
func TestEveryFieldScenarioIsTested(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "scenarios", "field", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no field scenarios found (%v)", err)
	}
	var listed []string
	for _, tt := range allFieldScenarios() {
		listed = append(listed, tt.file)
	}
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".yaml"); !slices.Contains(listed, name) {
			t.Errorf("%s has no row in fieldScenarios, fieldScenarios2 or fieldLibraryScenarios", f)
		}
	}
}
