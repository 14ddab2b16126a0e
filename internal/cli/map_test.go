package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/paramap"
)

// readMap runs `locksim map` and returns the map it wrote.
func readMap(t *testing.T, args ...string) (paramap.Map, string) {
	t.Helper()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := realMain(append(append([]string{"map"}, args...), "--out", out, "--backend", testBackend(t)), &stdout, &stderr)
	if code != exitValid {
		t.Fatalf("map exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(out, "*-map", "*", paramap.JSONFile))
	if len(files) != 1 {
		t.Fatalf("map.json files %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var m paramap.Map
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m, filepath.Dir(files[0])
}

func dur(t *testing.T, s string) time.Duration {
	t.Helper()
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestTheShippedMapsHaveTheirExpectedShape(t *testing.T) {
	if testing.Short() {
		t.Skip("runs both shipped maps (about a minute)")
	}
	// side says where a cell is: "unsafe", "safe", or "" for a cell the
	// grid should not have (on the boundary's noise).
	tests := []struct {
		name, file, count string
		side              func(t *testing.T, values []string) string
	}{
		{"gc-pause is broken exactly where pause + 5.1 s of work outlast the TTL", "gc-pause.yaml", "5",
			func(t *testing.T, v []string) string {
				pause, ttl := dur(t, v[0]), dur(t, v[1])
				switch {
				case pause+5100*time.Millisecond >= ttl+time.Second:
					return "unsafe"
				case pause+5100*time.Millisecond <= ttl-4*time.Second:
					return "safe"
				}
				return ""
			}},
		{"redlock is broken where the client clock is slower than the drift allowance covers", "client-clock-skew.yaml", "3",
			func(t *testing.T, v []string) string {
				switch rate := num(t, v[0]); {
				case rate <= 0.9:
					return "unsafe"
				case rate >= 1.05:
					return "safe"
				}
				return ""
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Four runs at a time: the margins are 78–98 ms of wall time,
			// which a machine running many more can eat.
			m, dir := readMap(t, filepath.Join("..", "..", "scenarios", "maps", tt.file), "--count", tt.count, "--parallel", "4")
			var unsafe, safe int
			for _, c := range m.Cells {
				label := strings.Join(c.Values, ", ")
				switch tt.side(t, c.Values) {
				case "unsafe":
					// A run the machine spoiled even after its reruns is
					// unknown, never valid (issue 32): the definite ones
					// must be invalid.
					unsafe++
					if definite := c.Invalid + c.Valid; definite == 0 || float64(c.Invalid) < 0.8*float64(definite) {
						t.Errorf("cell %s is on the unsafe side but %d of %d definite runs were invalid (%d unknown; worst timer lag %.0f ms)", label, c.Invalid, definite, c.Unknown, c.MaxTimerLagMS)
					}
					if c.FirstInvalid == "" {
						t.Errorf("cell %s links no invalid run", label)
					}
				case "safe":
					safe++
					if c.Invalid > 0 {
						t.Errorf("cell %s is on the safe side but seeds %v were invalid (worst timer lag %.0f ms)", label, c.InvalidSeeds, c.MaxTimerLagMS)
					}
				default:
					t.Errorf("cell %s lies on the boundary's noise; the grid should stay clear of it", label)
				}
			}
			if unsafe == 0 || safe == 0 {
				t.Errorf("%d unsafe and %d safe cells: the map shows no boundary", unsafe, safe)
			}
			for _, f := range []string{paramap.PNGFile, paramap.HTMLFile} {
				if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
					t.Errorf("%s: %v", f, err)
				}
			}
		})
	}
}

func TestAMapOfOneParameterLinksEachCellsFirstInvalidRun(t *testing.T) {
	m, dir := readMap(t, "../../scenarios/gc-pause.yaml", "--vary", "faults[0].duration=10s,35s", "--count", "2")
	if len(m.Cells) != 2 || len(m.Seeds) != 2 || m.Seeds[0] != 42 {
		t.Fatalf("cells %d, seeds %v", len(m.Cells), m.Seeds)
	}
	short, long := m.Cells[0], m.Cells[1]
	t.Run("the short pause is safe and the long one broken, as gc-pause itself", func(t *testing.T) {
		if short.Invalid != 0 || long.Invalid != 2 {
			t.Errorf("10 s pause: %d invalid, 35 s: %d invalid", short.Invalid, long.Invalid)
		}
	})
	t.Run("the page links the broken cell's first invalid run, which has its charts", func(t *testing.T) {
		page, _ := os.ReadFile(filepath.Join(dir, paramap.HTMLFile))
		rel, err := filepath.Rel(dir, filepath.Join(long.FirstInvalid, "index.html"))
		if err != nil || !strings.Contains(string(page), `href="`+filepath.ToSlash(rel)+`"`) {
			t.Errorf("no link to %s in map.html", rel)
		}
		if !strings.HasSuffix(long.FirstInvalid, "-seed42") {
			t.Errorf("first invalid run %s, want seed 42's", long.FirstInvalid)
		}
		if _, err := os.Stat(filepath.Join(long.FirstInvalid, "timeline.png")); err != nil {
			t.Errorf("its report has no timeline: %v", err)
		}
	})
	t.Run("each cell's scenario is written beside its runs and reproduces it", func(t *testing.T) {
		b, err := os.ReadFile(filepath.Join(long.Dir, paramap.CellFile))
		if err != nil || !strings.Contains(string(b), "duration: 35s") {
			t.Errorf("cell.yaml: %v\n%s", err, b)
		}
	})
}

func TestABadMapIsRefusedNamingTheFieldBeforeAnythingStarts(t *testing.T) {
	dir := t.TempDir()
	badMap := filepath.Join(dir, "bad-map.yaml")
	_ = os.WriteFile(badMap, []byte("scenario: ../../scenarios/gc-pause.yaml\nvary:\n  - ttl=10s..30s/10s\ncuont: 3\n"), 0o644)
	gc := "../../scenarios/gc-pause.yaml"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a fault index past the scenario's faults", []string{gc, "--vary", "faults[3].duration=10s..20s/10s"}, "--vary faults[3].duration: faults has 1 entry (faults[0]), so there is no faults[3]"},
		{"a misspelt field", []string{gc, "--vary", "workload.jbo=1s,2s"}, `workload.jbo: unknown field "jbo" (did you mean "job"?)`},
		{"a value the field refuses, with the cell", []string{gc, "--vary", "ttl=0s..20s/10s"}, "(cell ttl=0s): ttl: must be > 0"},
		{"a value of the wrong kind", []string{gc, "--vary", "faults[0].duration=1,2"}, "faults[0].duration: must be a duration string"},
		{"a range that does not step to its end", []string{gc, "--vary", "ttl=10s..25s/10s"}, "not a whole number of steps"},
		{"a range whose ends are not alike", []string{gc, "--vary", "ttl=10s..2/1"}, "hi and step must be durations too"},
		{"three parameters", []string{gc, "--vary", "ttl=1s", "--vary", "nodes=1", "--vary", "clients=2"}, "a map varies one or two parameters"},
		{"the same parameter twice", []string{gc, "--vary", "ttl=10s,20s", "--vary", "ttl=30s"}, "--vary ttl given twice"},
		{"a scenario with nothing to vary", []string{gc}, "give what to vary"},
		{"a map file with a misspelt field, at its line", []string{badMap}, "bad-map.yaml:4:1: cuont: unknown field"},
		{"a map file given a --vary", []string{badMap, "--vary", "ttl=1s"}, "is a map file"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is refused", func(t *testing.T) {
			var stderr bytes.Buffer
			out := filepath.Join(t.TempDir(), "out")
			code := realMain(append(append([]string{"map"}, tt.args...), "--out", out), &bytes.Buffer{}, &stderr)
			if code != exitUsage || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant %d saying %q", code, stderr.String(), exitUsage, tt.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("--out was created: something started")
			}
		})
	}
}
