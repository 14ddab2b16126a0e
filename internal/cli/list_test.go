package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

func TestListDescribesEveryKind(t *testing.T) {
	var out bytes.Buffer
	if code := cmdList(nil, &out, &bytes.Buffer{}); code != exitValid {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(out.String(), "\n")
	described := func(name string) bool {
		for _, l := range lines {
			f := strings.Fields(l)
			if len(f) > 1 && f[0] == name {
				return true
			}
		}
		return false
	}
	groups := map[string][]string{"algorithm": clients.Names(), "workload": workload.Names(), "fault": faults.Names(),
		"anomaly kind": append(history.AnomalyKinds(), workload.AnomalyKinds()...)}
	for _, c := range checker.Checkers() {
		groups["checker"] = append(groups["checker"], c.Name)
	}
	for what, names := range groups {
		for _, n := range names {
			t.Run("the "+what+" "+n+" has a one-line description", func(t *testing.T) {
				if !described(n) {
					t.Errorf("%s %q is listed without a description:\n%s", what, n, out.String())
				}
			})
		}
	}
}

func TestListGivesEveryFaultKindsFieldsAndTriggersAndEveryAnomalyKindsClass(t *testing.T) {
	var out bytes.Buffer
	if code := cmdList(nil, &out, &bytes.Buffer{}); code != exitValid {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(out.String(), "\n")
	after := func(name string) string { // the line after the fault kind's own
		for i, l := range lines {
			if f := strings.Fields(l); len(f) > 1 && f[0] == name && i+1 < len(lines) {
				return lines[i+1]
			}
		}
		return ""
	}
	for _, k := range faults.Kinds() {
		t.Run("the fault "+k.Name+" lists its fields and triggers", func(t *testing.T) {
			shape := after(k.Name)
			for _, f := range k.Fields {
				if !strings.Contains(shape, f) {
					t.Errorf("%s: %q lacks its field %s", k.Name, shape, f)
				}
			}
			for _, tr := range k.Triggers {
				if !strings.Contains(shape, tr+" (") {
					t.Errorf("%s: %q lacks its trigger %s", k.Name, shape, tr)
				}
			}
		})
	}
	for _, k := range checker.Kinds() {
		t.Run("the anomaly kind "+k.Name+" says what it is a finding about", func(t *testing.T) {
			if !strings.Contains(out.String(), k.Name) || !strings.Contains(out.String(), "["+k.Class+"] "+k.About) {
				t.Errorf("no line for %s [%s]", k.Name, k.Class)
			}
		})
	}
}

func TestBadRunFlagsAreRefusedBeforeAnythingStarts(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a zero time scale is refused", []string{"--time-scale", "0"}, "--time-scale 0"},
		{"a NaN time scale is refused", []string{"--time-scale", "NaN"}, "--time-scale NaN"},
		{"a fractional seed is refused", []string{"--seed", "1.5"}, "not an integer"},
		{"an unknown charts choice is refused", []string{"--charts", "some"}, `--charts "some": want notable or all`},
		{"a JUnit file that cannot be written is refused before the runs", []string{"--junit", "/proc/locksim-nope/x.xml"}, "--junit /proc/locksim-nope/x.xml"},
		{"an output directory that cannot be made is refused", []string{"--out", "/proc/locksim-nope"}, "--out /proc/locksim-nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			args := append([]string{"run", "../../scenarios/gc-pause.yaml"}, tt.args...)
			if !strings.Contains(strings.Join(tt.args, " "), "--out") {
				args = append(args, "--out", t.TempDir())
			}
			if code := realMain(args, &bytes.Buffer{}, &stderr); code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr %q does not mention %q", stderr.String(), tt.want)
			}
		})
	}
}

func TestCheckingABareHistoryTwiceGivesTheSameVerdict(t *testing.T) {
	h := filepath.Join("..", "..", "internal", "checker", "testdata", "histories", "invalid-kleppmann-timeline-1-s01.jsonl")
	b, err := os.ReadFile(h)
	if err != nil {
		t.Fatalf("corpus case missing: %v", err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "history.jsonl")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	first := realMain([]string{"check", path}, &bytes.Buffer{}, &bytes.Buffer{})
	if _, err := os.Stat(filepath.Join(dir, "scenario.yaml")); !os.IsNotExist(err) {
		t.Errorf("check wrote a scenario.yaml it could not know: %v", err)
	}
	var stderr bytes.Buffer
	second := realMain([]string{"check", dir}, &bytes.Buffer{}, &stderr)
	if first != exitInvalid || second != first {
		t.Errorf("exit codes %d then %d, want %d twice\n%s", first, second, exitInvalid, stderr.String())
	}
}

// TestTheReferenceGivesEveryAnomalyKindAsListSaysIt reads the kinds'
// table of docs/reference.md (generated: TestTheCommittedReferenceIsCurrent)
// for locksim list's own line of each kind.
func TestTheReferenceGivesEveryAnomalyKindAsListSaysIt(t *testing.T) {
	ref, err := os.ReadFile(filepath.Join("..", "..", ReferenceFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range checker.Kinds() {
		t.Run("the reference's table of kinds has "+k.Name, func(t *testing.T) {
			if row := "| `" + k.Name + "` | " + k.Class + " | " + k.About + " |"; !strings.Contains(string(ref), row) {
				t.Errorf("%s lacks the row %q (locksim list's line)", ReferenceFile, row)
			}
		})
	}
}
