package scenario

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

func gcPauseDoc(t *testing.T) *Doc {
	t.Helper()
	b, err := os.ReadFile("testdata/good/gc-pause.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d, err := ParseDoc("gc-pause.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestAPathSetsAFieldAndTheStrictParserReadsIt(t *testing.T) {
	tests := []struct {
		name, path, value string
		check             func(Scenario) bool
	}{
		{"a top-level duration is replaced", "ttl", "10s", func(s Scenario) bool { return s.TTL.D() == 10*time.Second }},
		{"a field of a fault is replaced", "faults[0].duration", "20s", func(s Scenario) bool {
			b, _ := Normalize(s)
			return strings.Contains(string(b), "duration: 20s")
		}},
		{"a workload field the file leaves out is added", "workload.read", "250ms", func(s Scenario) bool { return s.Workload.Read.D() == 250*time.Millisecond }},
		{"a number keeps its type", "time_scale", "25", func(s Scenario) bool { return s.TimeScale == 25 }},
		{"a fault moves to another client", "faults[0].client", "w2", func(s Scenario) bool {
			b, _ := Normalize(s)
			return strings.Contains(string(b), "client: w2")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := gcPauseDoc(t)
			if err := d.Set(tt.path, tt.value); err != nil {
				t.Fatal(err)
			}
			s, err := d.Scenario()
			if err != nil {
				t.Fatalf("the changed scenario does not parse: %v", err)
			}
			if !tt.check(s) {
				t.Errorf("after %s=%s the scenario does not show it: %+v", tt.path, tt.value, s)
			}
			if v, err := d.Value(tt.path); err != nil || v != tt.value {
				t.Errorf("Value(%s) = %q, %v", tt.path, v, err)
			}
		})
	}
	t.Run("a clone is changed apart from its original", func(t *testing.T) {
		d := gcPauseDoc(t)
		c := d.Clone()
		_ = c.Set("ttl", "5s")
		if v, _ := d.Value("ttl"); v != "30s" {
			t.Errorf("the original's ttl became %s", v)
		}
	})
}

func TestABadPathOrValueIsRefusedNamingTheField(t *testing.T) {
	tests := []struct {
		name, path, value string
		want              string
	}{
		{"an index past the end of the list", "faults[3].duration", "5s", "faults has 1 entry (faults[0]), so there is no faults[3]"},
		{"an index into a field that is no list", "ttl[0]", "5s", "ttl is not a list"},
		{"a field of a value", "ttl.seconds", "5", "ttl is not a mapping"},
		{"an empty path", "", "5s", "empty path"},
		{"a path with an unclosed bracket", "faults[0.duration", "5s", "unclosed ["},
		{"a path that starts with an index", "[0]", "5s", "starts with a field name"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is refused", func(t *testing.T) {
			err := gcPauseDoc(t).Set(tt.path, tt.value)
			var pe *PathError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want a path error saying %q", err, tt.want)
			}
		})
	}
	parsed := []struct {
		name, path, value string
		want              string
	}{
		{"a misspelt field", "faults[0].durration", "5s", `faults[0].durration: unknown field "durration" (did you mean "duration"?)`},
		{"a misspelt workload field", "workload.jbo", "5s", `workload.jbo: unknown field "jbo" (did you mean "job"?)`},
		{"a value of the wrong kind", "ttl", "ten", `ttl: must be a duration string`},
		{"a value the field refuses", "faults[0].duration", "-5s", `faults[0].duration: must be > 0`},
	}
	for _, tt := range parsed {
		t.Run(tt.name+" is refused by the strict parser with its path", func(t *testing.T) {
			d := gcPauseDoc(t)
			if err := d.Set(tt.path, tt.value); err != nil {
				t.Fatal(err)
			}
			_, err := d.Scenario()
			var el *ErrorList
			if !errors.As(err, &el) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want %q", err, tt.want)
			}
		})
	}
}

func TestDeletingAFaultOrATargetLeavesAScenario(t *testing.T) {
	const src = `
clients: 3
nodes: 5
algorithm: redlock
ttl: 10s
faults:
  - {kind: partition, at: 1s, duration: 5s, clients: [w1, w2], nodes: [n4, n5]}
  - {kind: pause, client: w3, at: 2s, duration: 5s}
`
	t.Run("a deleted fault is gone and the others keep their order", func(t *testing.T) {
		d, err := ParseDoc("x.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Delete("faults[0]"); err != nil {
			t.Fatal(err)
		}
		s, err := d.Scenario()
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Faults) != 1 || s.Faults[0].Kind != "pause" {
			t.Errorf("faults after deleting the first: %+v", s.Faults)
		}
	})
	t.Run("a deleted target leaves the fault on the others", func(t *testing.T) {
		d, _ := ParseDoc("x.yaml", []byte(src))
		if err := d.Delete("faults[0].nodes[0]"); err != nil {
			t.Fatal(err)
		}
		if n, _ := d.Len("faults[0].nodes"); n != 1 {
			t.Errorf("%d nodes left, want 1", n)
		}
		if v, _ := d.Value("faults[0].nodes[0]"); v != "n5" {
			t.Errorf("node left %q, want n5", v)
		}
	})
	t.Run("deleting an absent field is no error", func(t *testing.T) {
		d, _ := ParseDoc("x.yaml", []byte(src))
		if err := d.Delete("workload.job"); err != nil {
			t.Errorf("err %v", err)
		}
	})
}
