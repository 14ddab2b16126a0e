package faults_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/scenario"
)

// explicit is sc with its resolved plan for seed written out as faults and
// no nemesis, through the scenario parser as a file would be.
func explicit(t *testing.T, sc scenario.Scenario, plan faults.Plan) scenario.Scenario {
	t.Helper()
	specs, err := faults.SpecsOf(plan.Steps, sc.TimeScale)
	if err != nil {
		t.Fatal(err)
	}
	sc.Faults, sc.Nemesis = specs, nil
	b, err := scenario.Normalize(sc)
	if err != nil {
		t.Fatal(err)
	}
	back, err := scenario.Parse("explicit.yaml", b)
	if err != nil {
		t.Fatalf("the explicit schedule does not parse: %v\n%s", err, b)
	}
	return back
}

// comparable is a step without what an explicit fault cannot keep: its
// random-nemesis mark.
func comparable(steps []history.FaultStep) []history.FaultStep {
	out := make([]history.FaultStep, len(steps))
	for i, s := range steps {
		s = s.Clone()
		s.Random = false
		out[i] = s
	}
	return out
}

func TestAResolvedStepWrittenAsAFaultResolvesToTheSameStep(t *testing.T) {
	tests := []struct {
		name string
		yaml string
	}{
		{"a random nemesis of every drawable kind on five nodes", nemesisYAML},
		{"faults on events, points and selectors on one node", `
time_scale: 50
duration: 1m
clients: 3
algorithm: fenced
ttl: 3s
faults:
  - {kind: pause, client: w2, point: random, duration: 3500ms}
  - {kind: pause, client: w1, at: 2s, duration: 1s, cause: event-loop}
  - {kind: partition, when: {client: w1, event: acquired}, delay: 250ms, nodes: all, clients: one, direction: replies, duration: 2s}
  - {kind: crash, at: 20s, nodes: [n1], restart_after: 1s}
  - {kind: crash-client, client: w3, point: before-release, occurrence: 2}
  - {kind: delete-key, at: 5s, key: invoice-1, nodes: all}
  - {kind: clock-rate, at: 0s, clients: [w1, w2], rate: 0.9}
  - {kind: latency, at: 30s, nodes: [n1], latency: 150ms, jitter: 50ms}
  - {kind: starve-renewals, at: 40s, client: w1, duration: 2s}
`},
	}
	for _, tt := range tests {
		for _, seed := range []int64{1, 42, 1000} {
			t.Run(fmt.Sprintf("%s, seed %d", tt.name, seed), func(t *testing.T) {
				sc := parse(t, tt.yaml)
				plan, err := faults.NewPlan(sc.Faults, sc.Nemesis, seed, topology(sc))
				if err != nil {
					t.Fatal(err)
				}
				ex := explicit(t, sc, plan)
				if ex.Nemesis != nil || len(ex.Faults) != len(plan.Steps) {
					t.Fatalf("explicit schedule has %d faults and nemesis %v, want %d faults and none", len(ex.Faults), ex.Nemesis, len(plan.Steps))
				}
				// Any seed: an explicit schedule has nothing left to draw.
				again, err := faults.NewPlan(ex.Faults, nil, seed+7, topology(ex))
				if err != nil {
					t.Fatal(err)
				}
				if want, got := comparable(plan.Steps), comparable(again.Steps); !reflect.DeepEqual(want, got) {
					for i := range want {
						if i < len(got) && !reflect.DeepEqual(want[i], got[i]) {
							t.Errorf("step %d:\nwant %s %+v\ngot  %s %+v", i+1, faults.Describe(want[i], sc.TimeScale), want[i], faults.Describe(got[i], sc.TimeScale), got[i])
						}
					}
				}
			})
		}
	}
}

func TestAStepNoFaultCanWriteIsRefused(t *testing.T) {
	tests := []struct {
		name string
		step history.FaultStep
		want string
	}{
		{"an unknown kind", history.FaultStep{ID: 1, Kind: "meteor"}, `unknown fault kind "meteor"`},
		{"links that are not every client × node", history.FaultStep{ID: 2, Kind: "partition", Effect: history.EffectCutLinks,
			Links: []history.Link{{Client: "w1", Node: "n1"}, {Client: "w2", Node: "n2"}}, Trigger: history.Trigger{Kind: history.TriggerAt}}, "not every client × node"},
		{"a pause of two clients", history.FaultStep{ID: 3, Kind: "pause", Effect: history.EffectFreezeClient, Clients: []string{"w1", "w2"},
			Trigger: history.Trigger{Kind: history.TriggerAt}}, "takes one"},
		{"a crash at a point", history.FaultStep{ID: 4, Kind: "crash", Effect: history.EffectCrashNode, Nodes: []string{"n1"},
			Trigger: history.Trigger{Kind: history.TriggerPoint, Point: "before-write"}}, `does not fire on a trigger of kind "point"`},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is refused with the step named", func(t *testing.T) {
			_, err := faults.SpecOf(tt.step, 10)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want one saying %q", err, tt.want)
			}
		})
	}
}
