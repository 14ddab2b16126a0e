package shrink

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/scenario"
)

// everyField holds, for every registered fault kind, faults that between
// them set every one of the kind's fields (Kind.Fields) to a value other
// than its default: fields that exclude each other are in faults of their
// own. A kind registered without an entry here, or a field no entry sets,
// fails TestEveryFaultKindHasACaseSettingEveryField.
var everyField = map[string][]string{
	"pause": {
		`{kind: pause, client: w2, point: before-write, occurrence: 2, duration: 3500ms, cause: event-loop}`,
		`{kind: pause, client: w1, at: 2s, duration: 1s, cause: sleep}`,
	},
	"pause-node": {`{kind: pause-node, at: 3s, nodes: [n2, n3], duration: 2s}`},
	"clock-jump": {
		`{kind: clock-jump, at: 4s, nodes: [n1, n3], delta: -1500ms}`,
		`{kind: clock-jump, when: {client: w1, event: acquired}, delay: 1s, clients: [w2], delta: 7s}`,
	},
	"clock-rate": {
		`{kind: clock-rate, at: 5s, nodes: [n2], rate: 1.5, duration: 4s}`,
		`{kind: clock-rate, at: 0s, clients: [w1, w3], rate: 0.9, duration: 10s}`,
	},
	"crash":        {`{kind: crash, at: 6s, nodes: [n1], restart_after: 300ms, power_loss: true}`},
	"crash-client": {`{kind: crash-client, client: w3, point: before-release, occurrence: 2}`},
	"delete-key":   {`{kind: delete-key, at: 7s, key: invoice-2, nodes: [n1, n2]}`},
	"failover": {
		`{kind: failover, at: 8s, nodes: [n2], mode: stop, restart_after: 2s}`,
		`{kind: failover, at: 9s, nodes: [n1], mode: sentinel}`,
	},
	"latency": {
		`{kind: latency, at: 10s, nodes: [n1, n2], clients: [w1], latency: 150ms, jitter: 50ms, duration: 3s, stream: upstream, toxicity: 0.5}`,
		`{kind: latency, at: 11s, nodes: [n3], latency: 1s, duration: 2s, stream: both}`,
	},
	"partition": {
		`{kind: partition, when: {client: w1, event: granted-by, node: n2}, delay: 250ms, nodes: [n2, n3], clients: [w1, w2], direction: replies, mode: drop, duration: 2s}`,
		`{kind: partition, at: 12s, nodes: [n1], mode: refuse, duration: 1s}`,
	},
	"replication-lag": {
		`{kind: replication-lag, at: 13s, replicas: [n1r1, n3r1], mode: delay, latency: 2s, jitter: 500ms, duration: 4s}`,
		`{kind: replication-lag, at: 14s, replicas: [n2r1], mode: stop, duration: 1s}`,
	},
	"reset": {
		`{kind: reset, at: 15s, nodes: [n2], clients: [w3], timeout: 500ms, stream: downstream, toxicity: 0.25, duration: 2s}`,
		`{kind: reset, at: 16s, nodes: [n1], duration: 1s}`,
	},
	"restart-client":  {`{kind: restart-client, client: w2, point: after-acquire, restart_after: 3s, restore: all}`},
	"starve-renewals": {`{kind: starve-renewals, client: w1, at: 17s, duration: 25s}`},
	"bandwidth":       {`{kind: bandwidth, at: 18s, nodes: [n1], clients: [w2, w3], rate: 10, stream: upstream, toxicity: 0.75, duration: 3s}`},
	"slicer":          {`{kind: slicer, at: 19s, nodes: [n2], average_size: 8, size_variation: 3, chunk_delay: 50ms, stream: both, toxicity: 0.5, clients: [w1], duration: 2s}`},
	"limit-data":      {`{kind: limit-data, at: 20s, nodes: [n3], bytes: 1000, stream: upstream, toxicity: 0.9, clients: [w2], duration: 2s}`},
	"slow-close":      {`{kind: slow-close, at: 21s, nodes: [n1], close_delay: 2s, stream: upstream, toxicity: 0.3, clients: [w3], duration: 2s}`},
	"timeout":         {`{kind: timeout, at: 22s, nodes: [n2], timeout: 5s, stream: upstream, toxicity: 0.6, clients: [w1, w2], duration: 3s}`},
}

// everyFieldScenario is the topology every case fits: three masters
// with a replica each, three sentinels, three clients.
const everyFieldScenario = `
name: every-field
time_scale: 20
duration: 60s
nodes: 3
replicas: 1
sentinels: 3
clients: 3
algorithm: safe
ttl: 10s
workload: {kind: payment, keys: 2, job: 2s}
faults:
  - %s
`

// comparable is a step without what a written fault cannot keep: the
// random nemesis's mark and the seed of a toxic's per-connection draws
// (both drawn from the run's seed).
func comparable(s history.FaultStep) history.FaultStep {
	s = s.Clone()
	s.Random = false
	if s.Toxic != nil {
		s.Toxic.Seed = 0
	}
	return s
}

func TestEveryFaultKindWithEveryFieldSurvivesTheExplicitSchedule(t *testing.T) {
	for _, kind := range faults.Names() {
		for i, src := range everyField[kind] {
			t.Run(fmt.Sprintf("%s case %d resolves to the same step after shrink writes it out", kind, i+1), func(t *testing.T) {
				sc, err := scenario.Parse("every-field.yaml", fmt.Appendf(nil, everyFieldScenario, src))
				if err != nil {
					t.Fatal(err)
				}
				plan, err := faults.NewPlan(sc.Faults, nil, 7, sc.FaultTopology())
				if err != nil {
					t.Fatal(err)
				}
				ex, err := Explicit(sc, plan.Steps)
				if err != nil {
					t.Fatal(err)
				}
				again, err := faults.NewPlan(ex.Faults, nil, 99, ex.FaultTopology())
				if err != nil {
					t.Fatal(err)
				}
				if len(again.Steps) != 1 {
					t.Fatalf("%d steps after the round trip, want 1", len(again.Steps))
				}
				if want, got := comparable(plan.Steps[0]), comparable(again.Steps[0]); !reflect.DeepEqual(want, got) {
					b, _ := scenario.Normalize(ex)
					t.Errorf("the step changed:\nwant %+v\ngot  %+v\nexplicit schedule:\n%s", want, got, b)
				}
			})
		}
	}
}

func TestEveryFaultKindHasACaseSettingEveryField(t *testing.T) {
	for _, k := range faults.Kinds() {
		t.Run(k.Name+" has cases that set each of its fields", func(t *testing.T) {
			cases := everyField[k.Name]
			if len(cases) == 0 {
				t.Fatalf("no case for the registered kind %s in everyField", k.Name)
			}
			set := map[string]bool{}
			for _, src := range cases {
				var m map[string]any
				if err := yaml.Unmarshal([]byte(src), &m); err != nil {
					t.Fatal(err)
				}
				for f := range m {
					set[f] = true
				}
			}
			var missing []string
			for _, f := range k.Fields {
				if !set[f] {
					missing = append(missing, f)
				}
			}
			if len(missing) > 0 {
				slices.Sort(missing)
				t.Errorf("no case sets %s", strings.Join(missing, ", "))
			}
		})
	}
}
