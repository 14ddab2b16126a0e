package shrink

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/clients/clientstest"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/suite"
)

func TestACandidatesRunTheMachineSpoiledIsRunAgain(t *testing.T) {
	// gc-pause with w1 alone: its charge after its lease ended is an
	// exposure no other client can test, on every try (coverage unknown,
	// spoiled "exposure"), so the run is tried once and twice again.
	sc, err := scenario.Load(filepath.Join("..", "..", "scenarios", "gc-pause.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sc.Clients = 1
	pool := suite.NewPool(suite.Options{Parallel: 1, Backend: clientstest.Backend(t), Charts: suite.ChartsNone})
	defer pool.Close()
	e := &PoolEval{Pool: pool, Dir: t.TempDir()}
	runs, _, err := e.Eval(context.Background(), sc, []int64{*sc.Seed})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Verdict != checker.Unknown {
		t.Fatalf("runs %+v, want one unknown", runs)
	}
	b, err := os.ReadFile(filepath.Join(runs[0].ReportDir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r report.Results
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Retried) != Reruns {
		t.Errorf("the run's results list %d earlier tries (%v), want %d", len(r.Retried), r.Retried, Reruns)
	}
}
