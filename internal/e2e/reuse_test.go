package e2e

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/runner"
	"github.com/locksim/locksim/internal/scenario"
)

// verdicts runs sc once and returns the merged verdict and each checker's.
func verdicts(sc scenario.Scenario, o runner.Options) (map[string]checker.Verdict, error) {
	res, err := runner.Run(context.Background(), sc, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sc.Name, err)
	}
	rep := checker.Check(context.Background(), res.History, checker.Options{})
	v := map[string]checker.Verdict{"merged": rep.Verdict}
	for _, r := range rep.Results {
		v[string(r.Checker)] = r.Verdict
	}
	return v, nil
}

// TestReusedEnvironmentSameVerdicts proves that sweep reuse is sound: a
// scenario run on nodes and proxies that a previous run used (and dirtied
// with its faults: crashes, clock jumps, pauses), after cluster.Reset,
// gives the same verdicts, checker by checker, as on a fresh cluster.
func TestReusedEnvironmentSameVerdicts(t *testing.T) {
	needRedis(t)
	if testing.Short() {
		t.Skip("runs nine scenarios")
	}
	// Each group runs in order on one reused cluster.
	groups := [][]string{
		{"gc-pause", "gc-pause-fencing", "gc-pause"},
		{"redlock-restart", "redlock-clock-jump", "redlock-gc-pause"},
	}
	for _, g := range groups {
		var shared *cluster.Cluster
		for i, name := range g {
			sc, err := scenario.Load("../../scenarios/" + name + ".yaml")
			if err != nil {
				t.Fatal(err)
			}
			seed := *sc.Seed
			co := runner.ClusterOptions(sc, runner.Options{Backend: cluster.BackendLocal})
			if shared == nil {
				if shared, err = cluster.Start(context.Background(), co); err != nil {
					t.Fatal(err)
				}
				defer shared.Close()
			}
			if !shared.Fits(co) {
				t.Fatalf("%s does not fit the group's cluster", name)
			}
			// A loaded machine can make a run miss a step of its plan or lose
			// its compressed time (its coverage is then unknown): such a pair
			// proves nothing about reuse, and is run again, at most four times.
			for attempt := 1; ; attempt++ {
				// Side by side: the fresh cluster is the run's own, and
				// two of these play at time scale 0.5 (20 s of wall time).
				var fresh map[string]checker.Verdict
				var ferr error
				var wg sync.WaitGroup
				wg.Go(func() { fresh, ferr = verdicts(sc, runner.Options{Seed: seed, Backend: cluster.BackendLocal}) })
				reused, rerr := verdicts(sc, runner.Options{Seed: seed, Cluster: shared})
				wg.Wait()
				if err := errors.Join(ferr, rerr); err != nil {
					t.Fatal(err)
				}
				if maps.Equal(fresh, reused) {
					break
				}
				if (fresh["coverage"] == checker.Valid && reused["coverage"] == checker.Valid) || attempt == 5 {
					t.Errorf("%s (run %d on a reused cluster): verdicts %v, fresh cluster %v", name, i+1, reused, fresh)
					break
				}
				t.Logf("%s: a run missed a planned step or its timing (coverage %s fresh, %s reused); running the pair again", name, fresh["coverage"], reused["coverage"])
			}
		}
	}
}
