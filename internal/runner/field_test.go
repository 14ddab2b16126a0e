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
}

// TestFieldScenarios runs each field scenario once on real Redis and holds
// it to the file's own expect: its verdict and exactly its anomaly kinds.
func TestFieldScenarios(t *testing.T) {
	for _, tt := range fieldScenarios {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sc, err := scenario.Load(filepath.Join("..", "..", "scenarios", "field", tt.file+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			res := runScenario(t, sc, Options{Seed: *sc.Seed})
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			expectMet(t, sc, checker.Check(ctx, res.History, checker.Options{}))
		})
	}
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
	for _, tt := range fieldScenarios {
		listed = append(listed, tt.file)
	}
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".yaml"); !slices.Contains(listed, name) {
			t.Errorf("%s has no row in fieldScenarios", f)
		}
	}
}
