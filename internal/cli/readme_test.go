package cli

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// readmeBlock is a fenced block of README.md: its info string ("sh",
// "text", …), its first line's number and its lines.
type readmeBlock struct {
	info  string
	line  int
	lines []string
}

// readmeBlocks returns the fenced blocks of the Markdown file path.
func readmeBlocks(t *testing.T, path string) []readmeBlock {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []readmeBlock
	var cur *readmeBlock
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &readmeBlock{info: strings.TrimSpace(strings.TrimPrefix(l, "```")), line: n + 1}
		case cur != nil && strings.TrimSpace(l) == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, l)
		}
	}
	if cur != nil {
		t.Fatalf("%s: the block opened at line %d is never closed", path, cur.line-1)
	}
	return out
}

// readmeCommand is one command of a ```sh block: its words as the shell
// would split them, its line in README.md and the exit code it must give
// (0, or what a "# exit N" comment on its line says).
type readmeCommand struct {
	words []string
	line  int
	exit  int
}

var exitComment = regexp.MustCompile(`#\s*exit (\d+)\b`)

// readmeCommands parses a ```sh block with a real shell parser: one
// simple command per line, nothing a test could not run as written (no
// pipes, no redirections, no variables).
func readmeCommands(t *testing.T, b readmeBlock) []readmeCommand {
	t.Helper()
	var out []readmeCommand
	for i, l := range b.lines {
		n := b.line + i
		f, err := syntax.NewParser(syntax.KeepComments(true)).Parse(strings.NewReader(l), "README.md")
		if err != nil {
			t.Fatalf("README.md:%d: not a shell command: %v", n, err)
		}
		if len(f.Stmts) == 0 {
			continue // blank or a comment
		}
		call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
		if len(f.Stmts) != 1 || !ok || len(f.Stmts[0].Redirs) > 0 || len(call.Assigns) > 0 {
			t.Fatalf("README.md:%d: %q: a README command is one simple command a test can run", n, l)
		}
		words, err := expand.Fields(&expand.Config{Env: expand.ListEnviron()}, call.Args...)
		if err != nil {
			t.Fatalf("README.md:%d: %v", n, err)
		}
		c := readmeCommand{words: words, line: n}
		if m := exitComment.FindStringSubmatch(l); m != nil {
			c.exit, _ = strconv.Atoi(m[1])
		}
		out = append(out, c)
	}
	return out
}

// TestTheREADMEsCommandsRun runs every command of README.md's ```sh
// blocks, so that the README cannot drift from locksim (issue 31):
//
//   - `locksim …` and `go run ./cmd/locksim …` run in this process
//     (realMain, from the module root, with --out in a temporary
//     directory unless the command names one; a run with
//     --retry-unknown 2, as `make scenarios` runs the catalogue on a busy
//     machine) and must exit 0, or the code a "# exit N" comment on their
//     line gives; `locksim serve` is a server, so its flags are checked
//     with --help instead;
//   - a ```text block right after a ```sh block is the stdout of that
//     block's first command, the run's timestamped report path aside;
//   - `make T` is checked for its shape, not run: the Makefile has the
//     target T, and for `make test` — the README's test command, which
//     runs this test among all the others — .ci/run runs it too;
//   - `go install ./cmd/locksim` is checked for its shape: the package is
//     a main package (`go list`), not installed.
//
// Any other command fails the test: a README command must be one it
// knows how to check.
func TestTheREADMEsCommandsRun(t *testing.T) {
	backend := testBackend(t)
	t.Chdir(filepath.Join("..", ".."))
	blocks := readmeBlocks(t, "README.md")
	ran := 0
	for i, b := range blocks {
		if b.info != "sh" {
			continue
		}
		var want *readmeBlock
		if i+1 < len(blocks) && blocks[i+1].info == "text" {
			want = &blocks[i+1]
		}
		for j, c := range readmeCommands(t, b) {
			name := "README.md:" + strconv.Itoa(c.line) + " " + strings.Join(c.words, " ")
			t.Run(name, func(t *testing.T) {
				stdout := runReadmeCommand(t, c, backend)
				if want != nil && j == 0 {
					mask := regexp.MustCompile(`report=\S+`)
					got := mask.ReplaceAllString(strings.TrimSpace(stdout), "report=…")
					exp := mask.ReplaceAllString(strings.TrimSpace(strings.Join(want.lines, "\n")), "report=…")
					if got != exp {
						t.Errorf("stdout differs from README.md:%d:\n got: %s\nwant: %s", want.line, got, exp)
					}
				}
			})
			ran++
		}
	}
	if ran < 5 {
		t.Errorf("README.md has %d commands in ```sh blocks; the quick start alone has two", ran)
	}
}

// runReadmeCommand runs or checks one README command (see
// TestTheREADMEsCommandsRun) and returns what it printed on stdout.
func runReadmeCommand(t *testing.T, c readmeCommand, backend string) string {
	t.Helper()
	w := c.words
	switch {
	case len(w) >= 3 && w[0] == "go" && w[1] == "run" && w[2] == "./cmd/locksim":
		return runReadmeLocksim(t, w[3:], c.exit, backend)
	case len(w) >= 1 && w[0] == "locksim":
		return runReadmeLocksim(t, w[1:], c.exit, backend)
	case len(w) == 3 && w[0] == "go" && w[1] == "install":
		out, err := exec.Command("go", "list", "-f", "{{.Name}}", w[2]).Output()
		if err != nil || strings.TrimSpace(string(out)) != "main" {
			t.Errorf("go install %s: not a main package (go list: %q, %v)", w[2], out, err)
		}
		return ""
	case len(w) >= 2 && w[0] == "make":
		mk, err := os.ReadFile("Makefile")
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range w[1:] {
			if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(target) + `:`).Match(mk) {
				t.Errorf("make %s: the Makefile has no target %q", target, target)
			}
		}
		if slices.Contains(w[1:], "test") {
			ci, err := os.ReadFile(filepath.Join(".ci", "run"))
			if err != nil || !regexp.MustCompile(`(?m)^make test$`).Match(ci) {
				t.Errorf("make test: .ci/run does not run the README's test command (%v)", err)
			}
		}
		return ""
	}
	t.Fatalf("README.md:%d: %q is not a command this test knows how to run or check", c.line, strings.Join(w, " "))
	return ""
}

// runReadmeLocksim runs locksim args in this process, its reports in a
// temporary directory, and checks its exit code.
func runReadmeLocksim(t *testing.T, args []string, exit int, backend string) string {
	t.Helper()
	if len(args) == 0 {
		t.Fatal("locksim without a command")
	}
	switch args[0] {
	case "serve":
		// A server runs until stopped: its flags are checked, and that it
		// knows its address flag (the classroom's page is served by
		// internal/serve's own tests).
		args = append(args, "--help")
	case "run", "map", "shrink", "explore":
		if !slices.Contains(args, "--out") {
			args = append(args, "--out", t.TempDir())
		}
		if !slices.Contains(args, "--backend") {
			args = append(args, "--backend", backend)
		}
		if args[0] == "run" && !slices.Contains(args, "--retry-unknown") {
			// A run that a loaded machine made unknown is run again,
			// alone, as `make scenarios` does; a definite verdict never is.
			args = append(args, "--retry-unknown", "2")
		}
	}
	var stdout, stderr bytes.Buffer
	code := realMain(args, &stdout, &stderr)
	if code != exit {
		t.Errorf("locksim %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, exit, stdout.String(), stderr.String())
	}
	return stdout.String()
}
