package scenario

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadingAProcessScenarioChecksWhatItsCommandNeeds checks what Load
// finds on disk before anything starts: the program, the interpreter's
// script, the modules a Python adapter imports, and whether a pause at
// the in-renew point can ever fire.
func TestLoadingAProcessScenarioChecksWhatItsCommandNeeds(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3 for the fake adapter")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.txt")
	if err := os.WriteFile(plain, []byte("not a program\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	needsModule := filepath.Join(dir, "adapter.py")
	if err := os.WriteFile(needsModule, []byte("import json\nimport locksim_no_such_module\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inRenew := "faults:\n  - {kind: pause, client: w1, point: in-renew, duration: 5s}\n"
	// A checkout of the repository before make adapters: the node-redlock
	// adapter's script, without its npm packages.
	bare := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bare, "adapters", "node"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bare, "adapters", "node", "redlock.js"), []byte("require('redlock');\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, command, faults string
		dir                   string // "" is the repository's root
		refused, warned       string // "" when nothing is
	}{
		{"a program that is not on PATH is refused where the command names it", "[locksim-no-such-program, x]", "", "",
			"s.yaml:3:21: process.command[0]: program locksim-no-such-program is not on PATH", ""},
		{"a path to a file that is not executable is refused", "[" + plain + "]", "", "",
			"process.command[0]: program " + plain + " is not executable", ""},
		{"an interpreter's script that does not exist is refused", "[/usr/bin/python3, internal/clients/testdata/no_such_adapter.py]", "", "",
			"process.command[1]: script internal/clients/testdata/no_such_adapter.py does not exist", ""},
		{"a python that lacks a module its adapter imports is a warning", "[/usr/bin/python3, " + needsModule + "]", "", "",
			"", "process.command[0]: /usr/bin/python3 (/usr/bin/python3) cannot import locksim_no_such_module, which adapter.py imports"},
		{"a pause in-renew of an adapter that sends no renewed events is refused", "[/usr/bin/python3, internal/clients/testdata/fake_adapter.py, ok]", inRenew, "",
			"faults[0].point: point in-renew never fires for fake ok", ""},
		{"a pause in-renew of an adapter that sends renewed events is accepted", "[/usr/bin/python3, internal/clients/testdata/fake_adapter.py, renews]", inRenew, "",
			"", ""},
		{"a shipped adapter whose packages are not installed is refused with the command that installs them", "[node, adapters/node/redlock.js]", "", bare,
			"process.command: node-redlock adapter: adapters/node/node_modules/redlock is missing; needs Node.js ≥ 18 and `npm ci --prefix adapters/node` (make adapters)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.dir != "" {
				if _, err := exec.LookPath("node"); err != nil {
					t.Skip("no node on PATH")
				}
			}
			dir := root
			if tt.dir != "" {
				dir = tt.dir
			}
			f := filepath.Join(t.TempDir(), "s.yaml")
			src := "clients: 2\nalgorithm: process\nprocess: {command: " + tt.command + ", dir: " + dir + "}\nttl: 30s\n" + tt.faults
			if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Load(f)
			switch {
			case tt.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.refused != "" && (err == nil || !strings.Contains(err.Error(), tt.refused)):
				t.Fatalf("Load = %v, want %q", err, tt.refused)
			case tt.refused != "":
				return
			}
			var warned []string
			for _, w := range s.Warnings {
				warned = append(warned, w.Error())
			}
			got := strings.Join(warned, "\n")
			if (tt.warned == "") != (got == "") || !strings.Contains(got, tt.warned) {
				t.Errorf("warnings %q, want %q", got, tt.warned)
			}
		})
	}
}
