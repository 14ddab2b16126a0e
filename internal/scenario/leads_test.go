package scenario

import (
	"strings"
	"testing"
)

func TestTightLeads(t *testing.T) {
	base := `name: x
seed: 1
nodes: 1
algorithm: safe
ttl: 10s
workload: {kind: payment, keys: 1, job: 1s}
`
	cases := []struct {
		name, yaml string
		scale      float64
		want       string // "" for no warning
	}{
		{"a fault 100 ms of wall time after w1's start is warned of", "time_scale: 10\nclients: 1\nfaults: [{kind: crash, nodes: [n1], at: 1s, restart_after: 1s}]\n", 0, "faults[0].at: the fault starts 1s after w1's planned start, 100ms of wall time"},
		{"a fault 200 ms of wall time after w1's start is not", "time_scale: 10\nclients: 1\nfaults: [{kind: crash, nodes: [n1], at: 2s, restart_after: 1s}]\n", 0, ""},
		{"the nearest start before the fault counts", "clients: 2\nstagger: 900ms\nfaults: [{kind: crash, nodes: [n1], at: 1s, restart_after: 1s}]\n", 0, "after w2's planned start, 100ms of wall time"},
		{"a fault at a client's start is not a lead", "clients: 2\nfaults: [{kind: crash, nodes: [n1], at: 1s, restart_after: 1s}]\n", 0, ""},
		{"a client's own start in the mapping form counts", "clients: {w1: {start: 0s}, w2: {start: 950ms}}\nfaults: [{kind: crash, nodes: [n1], at: 1s, restart_after: 1s}]\n", 0, "after w2's planned start, 50ms of wall time"},
		{"a run's own time scale can make a lead tight", "clients: 1\nfaults: [{kind: crash, nodes: [n1], at: 1s, restart_after: 1s}]\n", 10, "100ms of wall time at time scale 10"},
		{"an event-triggered fault has no lead", "time_scale: 10\nclients: 1\nfaults: [{kind: crash, nodes: [n1], when: {client: w1, event: acquired}, restart_after: 1s}]\n", 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse("x.yaml", []byte(base+c.yaml))
			if err != nil {
				t.Fatal(err)
			}
			ws := s.TightLeads(c.scale)
			switch {
			case c.want == "" && len(ws) > 0:
				t.Fatalf("warned: %v", ws[0])
			case c.want != "" && len(ws) != 1:
				t.Fatalf("%d warnings, want one with %q", len(ws), c.want)
			case c.want != "" && !strings.Contains(ws[0].Error(), c.want):
				t.Fatalf("warning %q lacks %q", ws[0].Error(), c.want)
			}
		})
	}
}
