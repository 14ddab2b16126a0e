package runner

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// lockPath is the public lock package's import path.
const lockPath = "github.com/locksim/locksim/lock"

// TestTheRunnerLooksForNothingButTheLockPackagesInterfaces type-checks
// the packages that drive a user's lock — the runner, the conformance
// suite and locksimtest — and fails on any type assertion or type switch
// on a value of package lock's types (a Locker, a Gate, …) that looks for
// something other than a documented interface of package lock or
// io.Closer, and on any assertion to an interface written out in place
// (a method matched by its signature): what the runner asks of a lock is
// public API.
func TestTheRunnerLooksForNothingButTheLockPackagesInterfaces(t *testing.T) {
	root := filepath.Join("..", "..")
	documented := lockInterfaces(t, filepath.Join(root, "lock"))
	pkgs := []string{"./internal/runner", "./internal/clients/clientstest", "./locksimtest"}
	imp := exportImporter(t, root, pkgs)
	for _, p := range pkgs {
		dir := filepath.Join(root, p)
		fset := token.NewFileSet()
		var files []*ast.File
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if strings.HasSuffix(n, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, n, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
		conf := types.Config{Importer: imp}
		if _, err := conf.Check(p, fset, files, info); err != nil {
			t.Fatalf("type-check %s: %v", p, err)
		}
		seen := 0
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				var operand ast.Expr
				var looked []ast.Expr
				switch x := n.(type) {
				case *ast.TypeAssertExpr:
					if x.Type == nil {
						return true // the x.(type) of a switch: its cases are looked at below
					}
					operand, looked = x.X, []ast.Expr{x.Type}
				case *ast.TypeSwitchStmt:
					operand = switchOperand(x)
					for _, c := range x.Body.List {
						looked = append(looked, c.(*ast.CaseClause).List...)
					}
				default:
					return true
				}
				fromLock := ofLock(info.TypeOf(operand))
				for _, e := range looked {
					typ := info.TypeOf(e)
					if typ == nil {
						continue // nil
					}
					_, literal := types.Unalias(typ).(*types.Interface)
					if !fromLock && !literal {
						continue // not a question asked of a lock
					}
					seen++
					pos := fset.Position(e.Pos())
					name := types.TypeString(typ, func(p *types.Package) string { return p.Name() })
					t.Run(filepath.Base(pos.Filename)+":"+itoa(pos.Line)+" asks "+name, func(t *testing.T) {
						if !allowed(typ, documented) {
							t.Errorf("%s: %s looks for %s, which is no documented interface of package lock", pos, types.ExprString(operand), name)
						}
					})
				}
				return true
			})
		}
		if p == "./internal/runner" && seen == 0 {
			t.Errorf("found no question the runner asks of a lock: the test no longer sees them")
		}
	}
}

// allowed reports whether typ is a documented interface of package lock
// or io.Closer.
func allowed(typ types.Type, documented map[string]bool) bool {
	n, ok := types.Unalias(typ).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	switch n.Obj().Pkg().Path() {
	case "io":
		return n.Obj().Name() == "Closer"
	case lockPath:
		_, iface := n.Underlying().(*types.Interface)
		return iface && documented[n.Obj().Name()]
	}
	return false
}

// ofLock reports whether typ is one of package lock's types.
func ofLock(typ types.Type) bool {
	n, ok := types.Unalias(typ).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == lockPath
}

// switchOperand is the expression a type switch asks about.
func switchOperand(s *ast.TypeSwitchStmt) ast.Expr {
	var e ast.Expr
	switch a := s.Assign.(type) {
	case *ast.AssignStmt:
		e = a.Rhs[0]
	case *ast.ExprStmt:
		e = a.X
	}
	if ta, ok := e.(*ast.TypeAssertExpr); ok {
		return ta.X
	}
	return e
}

// lockInterfaces are the exported interface types of package lock that
// have a doc comment.
func lockInterfaces(t *testing.T, dir string) map[string]bool {
	out := map[string]bool{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				if _, ok := ts.Type.(*ast.InterfaceType); ok && ts.Name.IsExported() && (g.Doc != nil || ts.Doc != nil) {
					out[ts.Name.Name] = true
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("package lock has no documented interface")
	}
	return out
}

// exportImporter imports packages from the compiler's export data, which
// `go list -export` finds (building what it must) for pkgs and their
// dependencies.
func exportImporter(t *testing.T, root string, pkgs []string) types.Importer {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-deps", "-export", "-f", "{{.ImportPath}}={{.Export}}"}, pkgs...)...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v\n%s", err, stderr.String())
	}
	exports := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), "="); ok && file != "" {
			exports[path] = file
		}
	}
	return importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok {
			return nil, os.ErrNotExist
		}
		return os.Open(f)
	})
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
