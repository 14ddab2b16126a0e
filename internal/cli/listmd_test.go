package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/workload"
)

// TestTheCommittedReferenceIsCurrent fails when docs/reference.md is not
// what `locksim list --markdown` prints now: a registry or the catalogue
// changed and the reference was not regenerated (issue 31).
func TestTheCommittedReferenceIsCurrent(t *testing.T) {
	var out, errb bytes.Buffer
	if code := cmdList([]string{"--markdown"}, &out, &errb); code != exitValid {
		t.Fatalf("locksim list --markdown: exit %d: %s", code, errb.String())
	}
	committed, err := os.ReadFile(filepath.Join("..", "..", ReferenceFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, out.Bytes()) {
		got, want := strings.Split(string(committed), "\n"), strings.Split(out.String(), "\n")
		line := 0
		for line < len(got) && line < len(want) && got[line] == want[line] {
			line++
		}
		near := func(ls []string) string {
			if line < len(ls) {
				return ls[line]
			}
			return "(end of file)"
		}
		t.Fatalf("%s is stale from line %d:\n  committed: %s\n  generated: %s\nregenerate it: go generate ./internal/cli (or locksim list --markdown > %s)",
			ReferenceFile, line+1, near(got), near(want), ReferenceFile)
	}
}

// TestTheReferenceNamesEveryRegisteredKind reads the generated reference
// the other way: every registered workload, fault kind and anomaly kind
// has its row, and every shipped scenario file its own.
func TestTheReferenceNamesEveryRegisteredKind(t *testing.T) {
	var out bytes.Buffer
	if code := cmdList([]string{"--markdown"}, &out, &bytes.Buffer{}); code != exitValid {
		t.Fatalf("exit %d", code)
	}
	md := out.String()
	var names []string
	names = append(names, workload.Names()...)
	names = append(names, faults.Names()...)
	for _, k := range checker.Kinds() {
		names = append(names, k.Name)
	}
	for _, n := range names {
		if !strings.Contains(md, "| `"+n+"` |") {
			t.Errorf("the reference has no row for %q", n)
		}
	}
	files, _ := filepath.Glob("../../scenarios/*.yaml")
	field, _ := filepath.Glob("../../scenarios/field/*.yaml")
	if len(files)+len(field) == 0 {
		t.Fatal("no shipped scenarios found")
	}
	for _, f := range append(files, field...) {
		rel, _ := filepath.Rel("../../scenarios", f)
		if !strings.Contains(md, "| `"+filepath.ToSlash(rel)+"` |") {
			t.Errorf("the reference's catalogue has no row for %s", rel)
		}
	}
}
