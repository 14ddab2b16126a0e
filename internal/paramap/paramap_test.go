package paramap

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestAVaryNamesAFieldAndItsValues(t *testing.T) {
	tests := []struct {
		in      string
		path    string
		values  []string
		wantErr string
	}{
		{"ttl=10s..60s/10s", "ttl", []string{"10s", "20s", "30s", "40s", "50s", "1m0s"}, ""},
		{"faults[0].duration=500ms..1.5s/500ms", "faults[0].duration", []string{"500ms", "1s", "1.5s"}, ""},
		{"faults[0].rate=0.8..1/0.05", "faults[0].rate", []string{"0.80", "0.85", "0.90", "0.95", "1.00"}, ""},
		{"clients=2..5/1", "clients", []string{"2", "3", "4", "5"}, ""},
		{"faults[0].rate = 0.8, 0.9,1.05", "faults[0].rate", []string{"0.8", "0.9", "1.05"}, ""},
		{"ttl", "", nil, "want path=values"},
		{"ttl=", "", nil, "want path=values"},
		{"ttl=10s..30s", "", nil, "want lo..hi/step"},
		{"ttl=30s..10s/10s", "", nil, "hi is below lo"},
		{"ttl=10s..30s/0s", "", nil, "step must be > 0"},
		{"ttl=10s..35s/10s", "", nil, "not a whole number of steps"},
		{"ttl=1ms..10s/1ms", "", nil, "at most 100"},
		{"ttl=10s,,20s", "", nil, "empty value"},
		{"ttl=10s,10s", "", nil, "value 10s twice"},
		{"ttl=a..b/c", "", nil, "must be durations"},
	}
	for _, tt := range tests {
		name := tt.in + " gives " + strings.Join(tt.values, " ")
		if tt.wantErr != "" {
			name = tt.in + " is refused"
		}
		t.Run(name, func(t *testing.T) {
			a, err := ParseVary(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || a.Path != tt.path || !slices.Equal(a.Values, tt.values) {
				t.Errorf("got %+v, %v", a, err)
			}
		})
	}
}

const gcPause = `name: gc-pause
seed: 42
time_scale: 50
duration: 2m
clients: 2
algorithm: safe
ttl: 30s
workload: {kind: payment, read: 100ms, job: 5s}
faults:
  - {kind: pause, client: w1, point: before-write, duration: 35s}
expect: {verdict: invalid, kinds: [double-effect, mutex-overlap, not-linearizable]}
fixed_by: gc-pause-fencing.yaml
`

func TestEveryCellIsTheScenarioWithItsValuesReadByTheStrictParser(t *testing.T) {
	x, _ := ParseVary("faults[0].duration=10s,20s,40s")
	y, _ := ParseVary("ttl=10s,30s")
	cells, err := Cells("gc-pause.yaml", []byte(gcPause), []string{"time_scale=25"}, []Axis{x, y})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("one cell per pair, x fastest", func(t *testing.T) {
		if len(cells) != 6 || cells[1].X != 1 || cells[1].Y != 0 || cells[3].Y != 1 {
			t.Fatalf("cells %+v", cells)
		}
	})
	t.Run("each cell has its values and the fixed ones", func(t *testing.T) {
		c := cells[5] // 40s, 30s
		if c.Scenario.TTL.String() != "30s" || c.Scenario.TimeScale != 25 || !strings.Contains(string(c.YAML), "duration: 40s") {
			t.Errorf("cell %s: ttl %s scale %v\n%s", c.Label([]Axis{x, y}), c.Scenario.TTL, c.Scenario.TimeScale, c.YAML)
		}
		if c.Label([]Axis{x, y}) != "faults[0].duration=40s, ttl=30s" {
			t.Errorf("label %q", c.Label([]Axis{x, y}))
		}
	})
	t.Run("a cell judges no expectation and names no fix", func(t *testing.T) {
		for _, c := range cells {
			if c.Scenario.Expect.Verdict != "" || c.Scenario.FixedBy != "" {
				t.Errorf("cell %d keeps expect %q fixed_by %q", c.Index, c.Scenario.Expect.Verdict, c.Scenario.FixedBy)
			}
		}
	})
	t.Run("a fixed field the map also varies is refused", func(t *testing.T) {
		if _, err := Cells("gc-pause.yaml", []byte(gcPause), []string{"ttl=5s"}, []Axis{x, y}); err == nil || !strings.Contains(err.Error(), "the map varies it") {
			t.Errorf("err %v", err)
		}
	})
	t.Run("a value one cell refuses names the cell", func(t *testing.T) {
		long, _ := ParseVary("faults[0].duration=1m,3m")
		_, err := Cells("gc-pause.yaml", []byte(gcPause), nil, []Axis{long})
		if err == nil || !strings.Contains(err.Error(), "(cell faults[0].duration=3m)") || !strings.Contains(err.Error(), "longer than the run") {
			t.Errorf("err %v", err)
		}
	})
}

func TestAMapFileIsReadStrictly(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Run("a good map file gives its scenario beside it, its axes and count", func(t *testing.T) {
		p := write("good.yaml", "scenario: ../gc-pause.yaml\nset: [time_scale=25]\nvary:\n  - ttl=10s,20s\ncount: 3\nseed: 7\n")
		if !IsMapFile(mustRead(t, p)) {
			t.Fatal("not recognised as a map file")
		}
		sp, err := LoadSpec(p)
		if err != nil {
			t.Fatal(err)
		}
		if sp.Scenario != filepath.Join(dir, "..", "gc-pause.yaml") || len(sp.Axes) != 1 || sp.Count != 3 || *sp.Seed != 7 || sp.Set[0] != "time_scale=25" {
			t.Errorf("spec %+v", sp)
		}
	})
	t.Run("a scenario is not a map file", func(t *testing.T) {
		if IsMapFile([]byte(gcPause)) {
			t.Error("gc-pause recognised as a map file")
		}
	})
	bad := []struct{ name, body, want string }{
		{"an unknown field at its line", "scenario: x.yaml\nvary: [ttl=1s]\ncuont: 3\n", "bad.yaml:3:1: cuont: unknown field"},
		{"a count that is not a number", "scenario: x.yaml\nvary: [ttl=1s]\ncount: many\n", "bad.yaml:3:8: count: must be an integer"},
		{"a bad vary at its line", "scenario: x.yaml\nvary:\n  - ttl=1s..2s\n", "bad.yaml:3:5: vary:"},
		{"three axes", "scenario: x.yaml\nvary: [a=1, b=2, c=3]\n", "one or two"},
		{"no scenario", "vary: [ttl=1s]\n", "scenario: missing required field"},
	}
	for _, tt := range bad {
		t.Run(tt.name+" is refused", func(t *testing.T) {
			_, err := LoadSpec(write("bad.yaml", tt.body))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want %q", err, tt.want)
			}
		})
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestTheMapFilesAreWrittenFromTheResults(t *testing.T) {
	x, _ := ParseVary("faults[0].duration=10s,40s")
	y, _ := ParseVary("ttl=10s,30s")
	dir := t.TempDir()
	report := filepath.Join(dir, "cells", "c01", "gc-pause", "run-seed42")
	m := Map{Scenario: "gc-pause", Algorithm: "safe", Axes: []Axis{x, y}, Seeds: []int64{42, 43},
		Cells: []CellResult{
			{X: 0, Y: 0, Values: []string{"10s", "10s"}, Runs: 2, Invalid: 2, Rate: 1, FirstInvalid: report},
			{X: 1, Y: 0, Values: []string{"40s", "10s"}, Runs: 2, Invalid: 2, Rate: 1},
			{X: 0, Y: 1, Values: []string{"10s", "30s"}, Runs: 2, Unknown: 1, Valid: 1, UnknownShare: 0.5},
			{X: 1, Y: 1, Values: []string{"40s", "30s"}, Runs: 2, Invalid: 1, Valid: 1, Rate: 0.5},
		}}
	if err := Write(dir, m); err != nil {
		t.Fatal(err)
	}
	page := string(mustRead(t, filepath.Join(dir, HTMLFile)))
	t.Run("the table links a cell's first invalid run", func(t *testing.T) {
		if !strings.Contains(page, `href="cells/c01/gc-pause/run-seed42/index.html"`) {
			t.Error("no link to the first invalid run")
		}
	})
	t.Run("a cell with unknown runs says their share", func(t *testing.T) {
		if !strings.Contains(page, "? 50% unknown") {
			t.Error("the unknown share is not marked")
		}
	})
	t.Run("the cells are coloured by their rate", func(t *testing.T) {
		if !strings.Contains(page, "background:#a50f15") || !strings.Contains(page, "background:#ffffff") {
			t.Error("no red cell for 100 % or white cell for 0 %")
		}
	})
	t.Run("the heatmap is a PNG", func(t *testing.T) {
		b := mustRead(t, filepath.Join(dir, PNGFile))
		if len(b) < 8 || string(b[1:4]) != "PNG" {
			t.Error("map.png is not a PNG")
		}
	})
}
