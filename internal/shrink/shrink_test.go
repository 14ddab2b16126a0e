package shrink

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/scenario"
)

// fake judges a candidate by a rule instead of running it: every seed
// gets the verdict rule gives the scenario.
type fake struct {
	rule func(scenario.Scenario, int64) checker.Verdict
	// kinds are a run's violation kinds (nil: double-effect).
	kinds func(scenario.Scenario) []string
	calls int
	seen  []scenario.Scenario
}

func (f *fake) Eval(_ context.Context, sc scenario.Scenario, seeds []int64) ([]Run, string, error) {
	f.calls++
	f.seen = append(f.seen, sc)
	var runs []Run
	for _, s := range seeds {
		kinds := []string{checker.KindDoubleEffect}
		if f.kinds != nil {
			kinds = f.kinds(sc)
		}
		runs = append(runs, Run{Seed: s, Verdict: f.rule(sc, s), Kinds: kinds})
	}
	return runs, "", nil
}

const tenFaults = `
name: ten
time_scale: 50
duration: 44s
clients: 3
algorithm: fenced
ttl: 3s
workload: {kind: payment, keys: 20, job: 500ms}
faults:
  - {kind: partition, at: 4s, duration: 3500ms, nodes: [n1], clients: [w1, w2, w3]}
  - {kind: latency, at: 8s, duration: 3500ms, nodes: [n1], latency: 150ms, jitter: 75ms}
  - {kind: pause, client: w2, at: 12s, duration: 3500ms}
  - {kind: reset, at: 16s, duration: 3500ms, nodes: [n1]}
  - {kind: pause-node, at: 20s, duration: 3500ms, nodes: [n1]}
  - {kind: clock-jump, at: 24s, nodes: [n1], delta: -1500ms}
  - {kind: pause, client: w3, at: 28s, duration: 3500ms}
  - {kind: partition, at: 32s, duration: 3500ms, nodes: [n1], clients: [w2]}
  - {kind: clock-jump, at: 36s, nodes: [n1], delta: 1500ms}
  - {kind: pause, client: w1, at: 40.3s, duration: 3500ms, optional: true}
`

func parse(t *testing.T, src string) scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse("ten.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// pauses are the pause faults of sc: client → duration.
func pauses(sc scenario.Scenario) map[string]time.Duration {
	out := map[string]time.Duration{}
	b, _ := scenario.Normalize(sc)
	d, _ := scenario.ParseDoc("x.yaml", b)
	for i := range sc.Faults {
		if sc.Faults[i].Kind != "pause" {
			continue
		}
		c, _ := d.Value(fmt.Sprintf("faults[%d].client", i))
		v, _ := d.Value(fmt.Sprintf("faults[%d].duration", i))
		dur, _ := time.ParseDuration(v)
		out[c] = dur
	}
	return out
}

// breaksWhen: invalid when w1 is paused ≥ 3 s after 30 s with at least
// 2 clients and 4 keys, valid otherwise.
func breaksWhen(sc scenario.Scenario, _ int64) checker.Verdict {
	if sc.Clients < 2 || sc.Workload.Keys < 4 {
		return checker.Valid
	}
	if d, ok := pauses(sc)["w1"]; ok && d >= 3*time.Second {
		return checker.Invalid
	}
	return checker.Valid
}

func TestShrinkingKeepsOnlyWhatTheFailureNeeds(t *testing.T) {
	f := &fake{rule: breaksWhen}
	res, err := Shrink(context.Background(), parse(t, tenFaults), Options{K: 3, Seed: 100, Eval: f})
	if err != nil {
		t.Fatal(err)
	}
	min := res.Minimal.Scenario
	t.Run("one fault is left, the pause the failure needs", func(t *testing.T) {
		if len(min.Faults) != 1 || min.Faults[0].Kind != "pause" {
			t.Fatalf("minimal faults %+v", min.Faults)
		}
	})
	t.Run("its duration is the shortest round value that still fails", func(t *testing.T) {
		if d := pauses(min)["w1"]; d != 3*time.Second {
			t.Errorf("pause of %s, want 3s", d)
		}
	})
	t.Run("clients and keys are lowered to what the failure needs", func(t *testing.T) {
		if min.Clients != 2 || min.Workload.Keys != 4 {
			t.Errorf("clients %d keys %d, want 2 and 4", min.Clients, min.Workload.Keys)
		}
	})
	t.Run("a fault drawn as optional is made required when the failure stands", func(t *testing.T) {
		if min.Faults[0].Optional {
			t.Error("the pause is still optional")
		}
	})
	t.Run("its time moved to a round value", func(t *testing.T) {
		b, _ := scenario.Normalize(min)
		if !strings.Contains(string(b), "at: 40s") {
			t.Errorf("the pause at 40.3s was not rounded:\n%s", b)
		}
	})
	t.Run("every kept schedule failed in every seed and the minimal one is the last kept", func(t *testing.T) {
		var last Step
		for _, st := range res.Steps {
			if st.Failing {
				last = st
				if len(st.Runs) != 3 {
					t.Errorf("step %d kept with %d runs", st.N, len(st.Runs))
				}
			}
		}
		if last.Faults != len(min.Faults) {
			t.Errorf("last kept step has %d faults, minimal %d", last.Faults, len(min.Faults))
		}
	})
	t.Run("the same candidate is never run twice", func(t *testing.T) {
		seen := map[string]bool{}
		for _, sc := range f.seen {
			b, _ := scenario.Normalize(sc)
			if seen[string(b)] {
				t.Fatalf("ran twice:\n%s", b)
			}
			seen[string(b)] = true
		}
	})
	t.Run("the search ended by itself, not by its budget", func(t *testing.T) {
		if res.Exhausted || res.Runs != 3*f.calls {
			t.Errorf("exhausted %v, %d runs for %d candidates", res.Exhausted, res.Runs, f.calls)
		}
	})
}

func TestACandidateThatIsNotInvalidInEverySeedIsDropped(t *testing.T) {
	tests := []struct {
		name string
		// other is the verdict of the seed 101 of a candidate with fewer
		// than ten faults.
		other checker.Verdict
	}{
		{"an unknown seed does not count as failing", checker.Unknown},
		{"a valid seed does not count as failing", checker.Valid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rule := func(sc scenario.Scenario, seed int64) checker.Verdict {
				if len(sc.Faults) < 10 && seed == 101 {
					return tt.other
				}
				return checker.Invalid
			}
			res, err := Shrink(context.Background(), parse(t, tenFaults), Options{K: 3, Seed: 100, Eval: &fake{rule: rule}})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(res.Minimal.Scenario.Faults); n != 10 {
				t.Errorf("minimal has %d faults; every smaller schedule had seed 101 %s", n, tt.other)
			}
		})
	}
}

func TestTheBudgetStopsTheSearchWithTheBestScheduleSoFar(t *testing.T) {
	f := &fake{rule: breaksWhen}
	res, err := Shrink(context.Background(), parse(t, tenFaults), Options{K: 2, Seed: 1, BudgetRuns: 8, Eval: f})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Exhausted || res.Runs > 8 || f.calls != 4 {
		t.Errorf("exhausted %v after %d runs in %d candidates, want the budget of 8 runs (4 candidates) spent", res.Exhausted, res.Runs, f.calls)
	}
	if !res.Minimal.Failing() || len(res.Minimal.Scenario.Faults) >= 10 {
		t.Errorf("best so far has %d faults, failing %v", len(res.Minimal.Scenario.Faults), res.Minimal.Failing())
	}
}

func TestAnOriginalThatDoesNotFailHasNothingToShrink(t *testing.T) {
	f := &fake{rule: func(scenario.Scenario, int64) checker.Verdict { return checker.Valid }}
	res, err := Shrink(context.Background(), parse(t, tenFaults), Options{K: 5, Seed: 1, Eval: f})
	if !errors.Is(err, ErrNotFailing) {
		t.Fatalf("err %v, want ErrNotFailing", err)
	}
	if f.calls != 1 || len(res.Original.Runs) != 5 {
		t.Errorf("%d candidates run, original has %d runs; want only the original, with 5", f.calls, len(res.Original.Runs))
	}
}

func TestACandidateTheParserRefusesIsNotRun(t *testing.T) {
	// Lowering clients to 1 leaves a fault on w2: the parser refuses it.
	src := `
clients: 3
algorithm: fenced
ttl: 3s
duration: 20s
faults:
  - {kind: pause, client: w2, at: 5s, duration: 3500ms}
`
	f := &fake{rule: func(sc scenario.Scenario, _ int64) checker.Verdict {
		if len(sc.Faults) == 0 {
			return checker.Valid
		}
		return checker.Invalid
	}}
	res, err := Shrink(context.Background(), parse(t, src), Options{K: 1, Seed: 1, Eval: f})
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range f.seen {
		if sc.Clients < 2 {
			t.Errorf("a scenario with %d client and a fault on w2 was run", sc.Clients)
		}
	}
	var skipped bool
	for _, st := range res.Steps {
		skipped = skipped || strings.Contains(st.Skipped, `no client "w2"`)
	}
	if !skipped {
		t.Error("no step says the one-client candidate was refused")
	}
}

func TestARandomNemesisIsWrittenOutAsExplicitFaults(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "scenarios", "fencing-random-nemesis.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse("fencing-random-nemesis.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	src, err := FromScenario(sc, 1007)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("the nemesis is gone and each drawn step is a fault", func(t *testing.T) {
		if src.Scenario.Nemesis != nil || len(src.Scenario.Faults) != len(src.Steps) || len(src.Steps) != 2 {
			t.Fatalf("nemesis %v, %d faults for %d steps (want 2)", src.Scenario.Nemesis, len(src.Scenario.Faults), len(src.Steps))
		}
	})
	t.Run("the explicit faults stay optional, as drawn steps are", func(t *testing.T) {
		for _, f := range src.Scenario.Faults {
			if !f.Optional {
				t.Errorf("fault %s is required", f.Kind)
			}
		}
	})
	t.Run("the explicit schedule resolves to the drawn steps", func(t *testing.T) {
		steps, err := planOf(src.Scenario)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range steps {
			want := src.Steps[i].Clone()
			want.Random = false
			if s.Kind != want.Kind || s.Trigger != want.Trigger || s.Duration != want.Duration || s.Effect != want.Effect {
				t.Errorf("step %d: %+v, want %+v", i+1, s, want)
			}
		}
	})
	t.Run("the source says where it came from", func(t *testing.T) {
		if src.From != "fencing-random-nemesis.yaml --seed 1007" || src.Seed != 1007 {
			t.Errorf("from %q seed %d", src.From, src.Seed)
		}
	})
}

func TestAStoredRunThatIsNotInvalidIsRefused(t *testing.T) {
	dir := t.TempDir()
	h := history.History{Header: history.Header{Scenario: "x", Seed: 3, TimeScale: 1}}
	if err := history.WriteFile(filepath.Join(dir, "history.jsonl"), h); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(dir, "scenario.yaml"), []byte("clients: 2\nalgorithm: safe\nttl: 30s\n"), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "results.json"), []byte(`{"verdict":"valid"}`), 0o644)
	if _, err := FromReport(dir); !errors.Is(err, ErrNotInvalid) {
		t.Errorf("err %v, want ErrNotInvalid", err)
	}
}

func TestShrinkingWithKindsKeepsTheSameFailure(t *testing.T) {
	// w1's pause of 3 s or more breaks the lock; only one of 3.2 s or
	// more (the original's 3.5 s) also charges twice.
	kinds := func(sc scenario.Scenario) []string {
		if pauses(sc)["w1"] >= 3200*time.Millisecond {
			return []string{checker.KindMutexOverlap, checker.KindDoubleEffect}
		}
		return []string{checker.KindMutexOverlap}
	}
	tests := []struct {
		name  string
		kinds []string
		want  time.Duration
	}{
		{"without kinds, any failure is kept: the pause shrinks to 3s", nil, 3 * time.Second},
		{"with the original's kinds, the double charge must stay: no round value below 3.5s keeps it", []string{checker.KindDoubleEffect, checker.KindMutexOverlap}, 3500 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fake{rule: breaksWhen, kinds: kinds}
			res, err := Shrink(context.Background(), parse(t, tenFaults), Options{K: 2, Seed: 1, Eval: f, Kinds: tt.kinds})
			if err != nil {
				t.Fatal(err)
			}
			if d := pauses(res.Minimal.Scenario)["w1"]; d != tt.want {
				t.Errorf("pause of %s, want %s", d, tt.want)
			}
			if k := res.Minimal.Kinds(); tt.kinds != nil && !slices.Equal(k, slices.Sorted(slices.Values(tt.kinds))) {
				t.Errorf("minimal kinds %v, want %v", k, tt.kinds)
			}
		})
	}
	t.Run("an original without those kinds is not a failure to shrink", func(t *testing.T) {
		f := &fake{rule: breaksWhen, kinds: kinds}
		_, err := Shrink(context.Background(), parse(t, tenFaults), Options{K: 2, Seed: 1, Eval: f, Kinds: []string{checker.KindLostUpdate}})
		if !errors.Is(err, ErrNotFailing) {
			t.Errorf("err %v, want ErrNotFailing", err)
		}
	})
}
