package faults_test

import (
	"testing"

	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
)

// TestNewKindsResolveToData resolves each issue-17 kind from a scenario
// and checks the step it records: effect, targets and toxic, in wall
// units, with every random draw from the seed.
func TestNewKindsResolveToData(t *testing.T) {
	const head = `
time_scale: 10
duration: 60s
nodes: 1
replicas: 2
sentinels: 3
clients: 2
algorithm: safe
ttl: 30s
faults:
`
	tests := []struct {
		name  string
		fault string
		check func(t *testing.T, s history.FaultStep)
	}{
		{"a failover names its group and mode, and lasts until its master returns", "  - {kind: failover, nodes: [n1], mode: stop, restart_after: 5s, at: 1s}",
			func(t *testing.T, s history.FaultStep) {
				if s.Effect != history.EffectFailover || s.Nodes[0] != "n1" || s.FailoverMode != "stop" || s.Duration != 500e6 {
					t.Errorf("step %+v", s)
				}
			}},
		{"a sentinel failover is an instant", "  - {kind: failover, nodes: [n1], mode: sentinel, at: 1s}",
			func(t *testing.T, s history.FaultStep) {
				if s.FailoverMode != "sentinel" || s.Duration != 0 || s.UntilEnd {
					t.Errorf("step %+v", s)
				}
			}},
		{"a stopped replication stream is a cut of the replica's own link", "  - {kind: replication-lag, replicas: [n1r2], mode: stop, duration: 4s, at: 0s}",
			func(t *testing.T, s history.FaultStep) {
				if s.Effect != history.EffectCutLinks || len(s.Links) != 1 || s.Links[0] != (history.Link{Client: "n1r2", Node: "n1"}) {
					t.Errorf("step %+v", s)
				}
			}},
		{"a delayed stream is slow links of every replica by default", "  - {kind: replication-lag, latency: 2s, at: 0s}",
			func(t *testing.T, s history.FaultStep) {
				if s.Effect != history.EffectSlowLinks || len(s.Links) != 2 || s.Latency != 200e6 {
					t.Errorf("step %+v", s)
				}
			}},
		{"bandwidth is scaled with time: 10 KB/s of scenario time is 100 KB/s of wall time", "  - {kind: bandwidth, nodes: [n1], rate: 10, at: 1s}",
			func(t *testing.T, s history.FaultStep) {
				if s.Toxic == nil || s.Toxic.Type != "bandwidth" || s.Toxic.Attributes["rate"] != 100 || s.Stream != "downstream" {
					t.Errorf("step %+v, toxic %+v", s, s.Toxic)
				}
			}},
		{"a timeout on both streams cuts the links both ways", "  - {kind: timeout, nodes: [n1], timeout: 5s, stream: both, at: 1s}",
			func(t *testing.T, s history.FaultStep) {
				if s.Effect != history.EffectCutLinks || s.Stream != "both" || s.Toxic.Attributes["timeout"] != 500 || s.Direction != "both" {
					t.Errorf("step %+v, toxic %+v", s, s.Toxic)
				}
			}},
		{"latency on the requests is a toxic on the upstream", "  - {kind: latency, nodes: [n1], latency: 1s, stream: upstream, at: 1s}",
			func(t *testing.T, s history.FaultStep) {
				if s.Toxic == nil || s.Toxic.Type != "latency" || s.Stream != "upstream" || s.Toxic.Attributes["latency"] != 100 {
					t.Errorf("step %+v, toxic %+v", s, s.Toxic)
				}
			}},
		{"latency on the replies alone stays the classic toxic", "  - {kind: latency, nodes: [n1], latency: 1s, at: 1s}",
			func(t *testing.T, s history.FaultStep) {
				if s.Toxic != nil {
					t.Errorf("toxic %+v, want none", s.Toxic)
				}
			}},
		{"a toxicity below 1 draws its connections' seed from the plan", "  - {kind: reset, nodes: [n1], timeout: 1s, toxicity: 0.5, at: 1s}",
			func(t *testing.T, s history.FaultStep) {
				if s.Toxicity != 0.5 || s.Toxic == nil || s.Toxic.Seed == 0 || s.Toxic.Type != "reset_peer" || s.Toxic.Attributes["timeout"] != 100 {
					t.Errorf("step %+v, toxic %+v", s, s.Toxic)
				}
			}},
		{"a power-loss crash says so", "  - {kind: crash, nodes: [n1], power_loss: true, at: 1s}",
			func(t *testing.T, s history.FaultStep) {
				if !s.PowerLoss || s.Effect != history.EffectCrashNode {
					t.Errorf("step %+v", s)
				}
			}},
		{"a crash may name a replica and a sentinel", "  - {kind: crash, nodes: [n1r1, s2], at: 1s}",
			func(t *testing.T, s history.FaultStep) {
				if len(s.Nodes) != 2 || s.Nodes[0] != "n1r1" || s.Nodes[1] != "s2" {
					t.Errorf("step %+v", s)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := parse(t, head+tt.fault+"\n")
			top := topology(sc)
			top.Replicas, top.Sentinels = []string{"n1r1", "n1r2"}, []string{"s1", "s2", "s3"}
			p1, err := faults.NewPlan(sc.Faults, nil, 7, top)
			if err != nil {
				t.Fatal(err)
			}
			p2, err := faults.NewPlan(sc.Faults, nil, 7, top)
			if err != nil {
				t.Fatal(err)
			}
			if faults.Describe(p1.Steps[0], 10) != faults.Describe(p2.Steps[0], 10) ||
				(p1.Steps[0].Toxic != nil && p1.Steps[0].Toxic.Seed != p2.Steps[0].Toxic.Seed) {
				t.Errorf("one seed, two plans: %+v / %+v", p1.Steps[0], p2.Steps[0])
			}
			tt.check(t, p1.Steps[0])
		})
	}
}
