package suite

import (
	"context"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/clients/clientstest"
	"github.com/locksim/locksim/internal/runner"
	"github.com/locksim/locksim/internal/scenario"
)

func TestOnlyHalfTheCPUsWorthOfRunsSetUpAtOnce(t *testing.T) {
	backend := clientstest.Backend(t)
	sc, err := scenario.Load(filepath.Join("..", "..", "scenarios", "gc-pause.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	limit := max(1, runtime.NumCPU()/2)
	// Twice the limit and more go at once: without the bound, their
	// set-ups (each held open 30 ms by the hook below) overlap past it.
	parallel := 2*limit + 2
	var mu sync.Mutex
	setting, most := 0, 0
	hook := func(_ string, ro *runner.Options) {
		// The hook runs inside the set-up: after the pool let the run set
		// up, before its nodes are reset and its clients start.
		mu.Lock()
		setting++
		most = max(most, setting)
		mu.Unlock()
		time.Sleep(30 * time.Millisecond)
		done := ro.SetUpDone
		ro.SetUpDone = func() {
			mu.Lock()
			setting--
			mu.Unlock()
			if done != nil {
				done()
			}
		}
	}
	opts := Options{Out: t.TempDir(), Parallel: parallel, Backend: backend, Reuse: true, Charts: ChartsNone,
		Count: parallel, Hook: hook}
	outs := Run(context.Background(), Plan([]scenario.Scenario{sc}, opts), opts)
	if len(outs) != parallel {
		t.Fatalf("%d outcomes, want %d", len(outs), parallel)
	}
	for _, o := range outs {
		if o.Err != "" {
			t.Fatalf("run failed: %s", o.Err)
		}
	}
	t.Run("no more runs set up at once than half the CPUs", func(t *testing.T) {
		if most > limit {
			t.Errorf("%d runs set up at once, want at most %d (%d CPUs)", most, limit, runtime.NumCPU())
		}
	})
	t.Run("every set-up said it was over", func(t *testing.T) {
		if setting != 0 {
			t.Errorf("%d set-ups never ended", setting)
		}
	})
}
