package faults_test

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/scenario"
)

var (
	fiveNodes  = []string{"n1", "n2", "n3", "n4", "n5"}
	fiveClient = []string{"w1", "w2", "w3", "w4", "w5"}
)

const nemesisYAML = `
name: nemesis
time_scale: 10
duration: 2m
nodes: 5
clients: 5
algorithm: redlock
ttl: 10s
faults:
  - {kind: partition, nodes: minority, clients: one, duration: 5s}
  - {kind: pause, client: w2, point: random, duration: 3s}
nemesis:
  interval: 5s
  duration: 2s
  faults: [partition, pause-node, clock-jump, crash, latency, pause]
`

func parse(t *testing.T, yaml string) scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse("test.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func topology(sc scenario.Scenario) faults.Topology {
	var nodes, clients []string
	for i := range sc.Nodes {
		nodes = append(nodes, fiveNodes[i])
	}
	for i := range sc.Clients {
		clients = append(clients, scenario.ClientName(i))
	}
	return faults.Topology{Nodes: nodes, Clients: clients, Scale: sc.TimeScale, TTL: sc.TTL.D(), Duration: sc.Duration.D()}
}

func TestPlanDependsOnTheSeedAlone(t *testing.T) {
	sc := parse(t, nemesisYAML)
	plan := func(seed int64) faults.Plan {
		t.Helper()
		p, err := faults.NewPlan(sc.Faults, sc.Nemesis, seed, topology(sc))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Run("the same seed gives an identical plan", func(t *testing.T) {
		a, b := plan(42), plan(42)
		if !reflect.DeepEqual(a.Steps, b.Steps) {
			t.Fatalf("plans differ:\n%v\n%v", a.Lines(10), b.Lines(10))
		}
	})
	t.Run("a different seed gives a different random nemesis", func(t *testing.T) {
		a, b := plan(42), plan(43)
		if reflect.DeepEqual(a.Steps, b.Steps) {
			t.Fatalf("seeds 42 and 43 gave the same plan:\n%v", a.Lines(10))
		}
	})
	t.Run("the random nemesis fills the run at its interval, optional and in wall time", func(t *testing.T) {
		var random int
		for _, s := range plan(42).Steps {
			if !s.Random {
				continue
			}
			random++
			// 5 s of scenario time at scale 10 is 500 ms of wall time.
			if s.Trigger.Kind != history.TriggerAt || s.Trigger.At%int64(500*time.Millisecond) != 0 || !s.Optional {
				t.Errorf("step %s: want an optional step on the 5 s grid (500 ms wall)", faults.Describe(s, 10))
			}
		}
		// 5s, 10s, …, 115s: 23 slots end before 2m.
		if random != 23 {
			t.Errorf("got %d random steps, want 23", random)
		}
	})
	t.Run("a random pause point resolves to a named work point", func(t *testing.T) {
		for seed := int64(0); seed < 20; seed++ {
			for _, s := range plan(seed).Steps {
				if s.Kind == "pause" && !s.Random && !slices.Contains(history.WorkPoints(), s.Trigger.Point) {
					t.Fatalf("seed %d: pause point %q", seed, s.Trigger.Point)
				}
			}
		}
	})
	t.Run("steps are numbered from 1 and carry their effect and wall-time window", func(t *testing.T) {
		p := plan(7)
		for i, s := range p.Steps {
			if s.ID != i+1 || s.Effect == "" {
				t.Fatalf("step %d: id %d effect %q", i, s.ID, s.Effect)
			}
		}
		if pause := p.Steps[1]; pause.Duration != int64(300*time.Millisecond) || pause.Effect != history.EffectFreezeClient {
			t.Errorf("the 3 s pause at scale 10 resolved to %+v, want 300 ms wall freezing w2", pause)
		}
	})
}

// nodes is n1..nN.
func nodes(n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, "n"+strconv.Itoa(i))
	}
	return out
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
		{"minority picks one of three", []string{"minority"}, nodes(3), 1},
		{"majority picks two of three, the quorum", []string{"majority"}, nodes(3), 2},
		{"minority picks three of seven", []string{"minority"}, nodes(7), 3},
		{"majority picks five of nine, the quorum", []string{"majority"}, nodes(9), 5},
		{"minority picks four of nine", []string{"minority"}, nodes(9), 4},
		{"minority of two clients is one", []string{"minority"}, []string{"w1", "w2"}, 1},
		{"majority of two clients is both", []string{"majority"}, []string{"w1", "w2"}, 2},
		{"names are kept as given", []string{"n4", "n2"}, fiveNodes, 2},
		{"no selector gives the default", nil, fiveNodes, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			seen := map[string]bool{}
			for seed := uint64(0); seed < 50; seed++ {
				r := &faults.Resolver{Rand: rand.New(rand.NewPCG(seed, 1))}
				got, err := r.Select(c.sel, c.pool, nil)
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
		r := &faults.Resolver{Rand: rand.New(rand.NewPCG(1, 1))}
		if _, err := r.Select([]string{"n9"}, fiveNodes, nil); err == nil {
			t.Fatal("Select accepted n9 among n1..n5")
		}
	})
}

func TestRegistry(t *testing.T) {
	t.Run("every kind describes itself and accepts at least one trigger", func(t *testing.T) {
		for _, k := range faults.Kinds() {
			if k.About == "" || len(k.Triggers) == 0 || len(k.Fields) == 0 {
				t.Errorf("kind %s: incomplete registration %+v", k.Name, k)
			}
			if k.Accepts(history.TriggerPoint) && k.PointHint == "" {
				t.Errorf("kind %s fires at points but has no hint for a missing point", k.Name)
			}
		}
	})
	t.Run("every kind the nemesis draws resolves to a step with an effect", func(t *testing.T) {
		top := faults.Topology{Nodes: fiveNodes, Clients: fiveClient, Scale: 1, TTL: 10 * time.Second, Duration: time.Minute}
		for _, name := range faults.NemesisNames() {
			p, err := faults.NewPlan(nil, &faults.Nemesis{Interval: 5 * time.Second, Duration: 2 * time.Second, Faults: []string{name}}, 1, top)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(p.Steps) == 0 || p.Steps[0].Effect == "" || p.Steps[0].Kind != name {
				t.Fatalf("%s: steps %+v", name, p.Steps)
			}
		}
	})
	t.Run("a normalised fault parses back to the same step", func(t *testing.T) {
		sc := parse(t, `
clients: 2
nodes: 5
algorithm: redlock
ttl: 10s
duration: 1m
faults:
  - {kind: partition, at: 1s, duration: 5s, clients: [w1], nodes: [n4, n5], mode: refuse}
  - {kind: clock-jump, when: {client: w1, event: granted-by, node: n3}, delay: 1s, nodes: [n3], delta: -15s}
  - {kind: pause, client: w2, point: before-write, occurrence: 2, duration: 3s, optional: true}
  - {kind: crash, at: 2s, nodes: [n1], restart_after: 300ms}
  - {kind: delete-key, at: 3s, key: invoice-1, nodes: all}
  - {kind: crash-client, client: w1, point: after-acquire}
  - {kind: latency, at: 0s, nodes: one, latency: 5ms, jitter: 1ms}
`)
		y, err := scenario.Normalize(sc)
		if err != nil {
			t.Fatal(err)
		}
		back, err := scenario.Parse("normalised.yaml", y)
		if err != nil {
			t.Fatalf("%v\n%s", err, y)
		}
		a, err := faults.NewPlan(sc.Faults, nil, 3, topology(sc))
		if err != nil {
			t.Fatal(err)
		}
		b, err := faults.NewPlan(back.Faults, nil, 3, topology(back))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Steps, b.Steps) {
			t.Errorf("round trip changed the plan:\n%v\n%v\n%s", a.Lines(1), b.Lines(1), y)
		}
	})
}
