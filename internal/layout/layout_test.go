// Package layout holds tests of the tree's shape (issue 26): limits a
// reviewer would otherwise check by hand, kept by CI so they do not drift.
package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/workload"
)

// Limits of the tree's shape, in lines of source.
const (
	maxFuncLines       = 150 // any non-test function or method
	maxReportFileLines = 800 // any non-test file under internal/report
)

// sources calls visit for every non-test .go file of locksim's own below
// the repository root (testdata and node_modules left out), with its path
// relative to the root.
func sources(t *testing.T, visit func(rel string, src []byte)) {
	t.Helper()
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "node_modules", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		visit(filepath.ToSlash(rel), src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// parsed calls visit for every source file of sources, parsed.
func parsed(t *testing.T, visit func(rel string, fset *token.FileSet, f *ast.File)) {
	t.Helper()
	sources(t, func(rel string, src []byte) {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, rel, src, 0)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return
		}
		visit(rel, fset, f)
	})
}

func TestNoFunctionIsLongerThanAHundredAndFiftyLines(t *testing.T) {
	n := 0
	parsed(t, func(rel string, fset *token.FileSet, f *ast.File) {
		ast.Inspect(f, func(node ast.Node) bool {
			fn, ok := node.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				return true
			}
			n++
			lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			if lines > maxFuncLines {
				t.Errorf("%s:%d: %s is %d lines long (at most %d): split it", rel, fset.Position(fn.Pos()).Line, fn.Name.Name, lines, maxFuncLines)
			}
			return false
		})
	})
	if n < 100 {
		t.Fatalf("only %d functions read: the walk did not reach the tree", n)
	}
}

func TestNoFileOfTheReportIsLongerThanEightHundredLines(t *testing.T) {
	n := 0
	sources(t, func(rel string, src []byte) {
		if !strings.HasPrefix(rel, "internal/report/") {
			return
		}
		n++
		if lines := strings.Count(string(src), "\n"); lines > maxReportFileLines {
			t.Errorf("%s is %d lines long (at most %d): split it", rel, lines, maxReportFileLines)
		}
	})
	if n < 10 {
		t.Fatalf("only %d files of internal/report read: the walk did not reach them", n)
	}
}

// TestNoCaseNamesAWorkloadOutsideItsPackage: outside internal/workload, no
// case clause of a switch or a select names a registered workload by a
// string literal anywhere in its expressions (case "payment", or case
// t.X && slices.Contains(t.Workloads, "payment")): what a workload needs
// is declared by the workload or checked where the registry is known.
func TestNoCaseNamesAWorkloadOutsideItsPackage(t *testing.T) {
	names := map[string]bool{}
	for _, n := range workload.Names() {
		names[n] = true
	}
	if len(names) == 0 {
		t.Fatal("no workload registered")
	}
	cases := 0
	parsed(t, func(rel string, fset *token.FileSet, f *ast.File) {
		if strings.HasPrefix(rel, "internal/workload/") {
			return
		}
		ast.Inspect(f, func(node ast.Node) bool {
			cc, ok := node.(*ast.CaseClause)
			if !ok {
				return true
			}
			cases++
			for _, e := range cc.List {
				ast.Inspect(e, func(n ast.Node) bool {
					lit, ok := n.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						return true
					}
					if v, err := strconv.Unquote(lit.Value); err == nil && names[v] {
						t.Errorf("%s:%d: a case names the workload %q", rel, fset.Position(lit.Pos()).Line, v)
					}
					return true
				})
			}
			return true
		})
	})
	if cases < 100 {
		t.Fatalf("only %d case clauses read: the walk did not reach the tree", cases)
	}
}
