package faults

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/scenario"
)

var (
	fiveNodes  = []string{"n1", "n2", "n3", "n4", "n5"}
	fiveClient = []string{"w1", "w2", "w3", "w4", "w5"}
)

func nemesisScenario() scenario.Scenario {
	d := func(s string) scenario.Duration { x, _ := time.ParseDuration(s); return scenario.Duration(x) }
	return scenario.Scenario{
		Name: "nemesis", TimeScale: 10, Duration: d("2m"), Nodes: 5, Clients: 5, Algorithm: "redlock", TTL: d("10s"),
		Faults: []scenario.Fault{
			{Kind: scenario.KindPartition, Nodes: []string{"minority"}, Clients: []string{"one"}, Duration: d("5s")},
			{Kind: scenario.KindPause, Client: "w2", Point: scenario.PointRandom, Occurrence: 1, Duration: d("3s")},
		},
		Nemesis: &scenario.Nemesis{Interval: d("5s"), Duration: d("2s"),
			Faults: []string{scenario.KindPartition, scenario.KindPauseNode, scenario.KindClockJump, scenario.KindCrash, scenario.KindLatency, scenario.KindPause}},
	}
}

func TestPlanDependsOnTheSeedAlone(t *testing.T) {
	sc := nemesisScenario()
	plan := func(seed int64) Plan {
		t.Helper()
		p, err := NewPlan(sc, seed, fiveNodes, fiveClient)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Run("the same seed gives an identical plan", func(t *testing.T) {
		a, b := plan(42), plan(42)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("plans differ:\n%v\n%v", a.Lines(), b.Lines())
		}
		if !slices.Equal(a.Lines(), b.Lines()) {
			t.Fatal("plan lines differ")
		}
	})
	t.Run("a different seed gives a different random nemesis", func(t *testing.T) {
		a, b := plan(42), plan(43)
		if slices.Equal(a.Lines(), b.Lines()) {
			t.Fatalf("seeds 42 and 43 gave the same plan:\n%v", a.Lines())
		}
	})
	t.Run("the random nemesis fills the run at its interval", func(t *testing.T) {
		p := plan(42)
		var random int
		for _, s := range p.Steps {
			if s.Random {
				random++
				if s.At%(5*time.Second) != 0 || s.At+s.Duration >= sc.Duration.D() && s.Duration > 0 {
					t.Errorf("step %v at %v: not on the 5s grid inside the run", s, s.At)
				}
			}
		}
		// 5s, 10s, …, 115s: 23 slots end before 2m.
		if random != 23 {
			t.Errorf("got %d random steps, want 23", random)
		}
	})
	t.Run("a random pause point resolves to a named point", func(t *testing.T) {
		for seed := int64(0); seed < 20; seed++ {
			for _, s := range plan(seed).Steps {
				if s.Kind == scenario.KindPause && !slices.Contains(workPoints, s.Point) {
					t.Fatalf("seed %d: pause point %q", seed, s.Point)
				}
			}
		}
	})
}

func TestSelectors(t *testing.T) {
	cases := []struct {
		name string
		sel  []string
		pool []string
		want int
	}{
		{"one picks a single node of five", []string{"one"}, fiveNodes, 1},
		{"minority picks two of five", []string{"minority"}, fiveNodes, 2},
		{"majority picks three of five", []string{"majority"}, fiveNodes, 3},
		{"all picks every node", []string{"all"}, fiveNodes, 5},
		{"minority of two clients is one", []string{"minority"}, []string{"w1", "w2"}, 1},
		{"majority of two clients is both", []string{"majority"}, []string{"w1", "w2"}, 2},
		{"names are kept as given", []string{"n4", "n2"}, fiveNodes, 2},
		{"no selector gives the default", nil, fiveNodes, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			seen := map[string]bool{}
			for seed := uint64(0); seed < 50; seed++ {
				got, err := Select(rand.New(rand.NewPCG(seed, 1)), c.sel, c.pool, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != c.want {
					t.Fatalf("seed %d: got %v, want %d targets", seed, got, c.want)
				}
				for _, g := range got {
					if !slices.Contains(c.pool, g) {
						t.Fatalf("seed %d: %q is not in %v", seed, g, c.pool)
					}
					seen[g] = true
				}
				if len(c.sel) > 1 && !slices.Equal(got, c.sel) {
					t.Fatalf("names changed: %v", got)
				}
			}
			if c.sel != nil && c.sel[0] == "one" && len(seen) < 2 {
				t.Errorf("50 seeds always chose %v: the choice does not depend on the seed", seen)
			}
		})
	}
	t.Run("an unknown name is an error", func(t *testing.T) {
		if _, err := Select(rand.New(rand.NewPCG(1, 1)), []string{"n9"}, fiveNodes, nil); err == nil {
			t.Fatal("Select accepted n9 among n1..n5")
		}
	})
}
