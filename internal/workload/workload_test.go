package workload

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/algo"
	"github.com/locksim/locksim/internal/history"
)

// TestEveryWorkloadHasItsWordsInEveryLanguage keeps each workload's words
// complete: the report renders them, and a key missing in one language
// would fall back to English on a Vietnamese page.
func TestEveryWorkloadHasItsWordsInEveryLanguage(t *testing.T) {
	for _, k := range Kinds() {
		want := []string{"wl." + k.Name, "wl.write." + k.Name, "wl.resource." + k.Name, "lane.resource." + k.Name}
		for _, a := range k.Actions {
			if a.Effect {
				want = append(want, "act."+a.Name)
			}
		}
		for _, a := range k.Anomalies {
			want = append(want, "kind."+a.Name, "why."+a.Name, "say."+a.Name)
		}
		t.Run("the "+k.Name+" workload names its resource, its effects and its own anomaly kinds", func(t *testing.T) {
			for _, key := range want {
				if _, ok := k.Words["en"][key]; !ok {
					t.Errorf("no English words for %s", key)
				}
			}
		})
		t.Run("the "+k.Name+" workload says in Vietnamese all it says in English", func(t *testing.T) {
			en, vi := keysOf(k.Words["en"]), keysOf(k.Words["vi"])
			if !slices.Equal(en, vi) {
				t.Errorf("en has %v\nvi has %v", en, vi)
			}
		})
	}
}

func keysOf(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestTheRegistryKnowsEveryWorkload checks the registry's own promises.
func TestTheRegistryKnowsEveryWorkload(t *testing.T) {
	t.Run("the default workload is registered", func(t *testing.T) {
		if _, ok := Lookup(Default); !ok {
			t.Errorf("%s is not registered", Default)
		}
	})
	t.Run("a history of no known workload is judged as the default one's", func(t *testing.T) {
		if k := Of(history.Header{Workload: "nonesuch"}); k.Name != Default {
			t.Errorf("Of = %s, want %s", k.Name, Default)
		}
	})
	t.Run("a workload's own anomaly kind is none of the shared vocabulary", func(t *testing.T) {
		for _, a := range AnomalyKinds() {
			if slices.Contains(history.AnomalyKinds(), a) {
				t.Errorf("%s is in history.AnomalyKinds too", a)
			}
		}
	})
	t.Run("an algorithm that relies on an idempotency key runs the payment workload, whose gateway takes one", func(t *testing.T) {
		n := 0
		for _, a := range algo.All() {
			if !a.Traits.IdempotencyKey {
				continue
			}
			n++
			if !slices.Contains(a.Traits.Workloads, Payment) {
				t.Errorf("algorithm %s relies on the payment gateway's idempotency key but does not run the payment workload (it runs %v)", a.Name, a.Traits.Workloads)
			}
		}
		if n == 0 {
			t.Fatal("no algorithm relies on an idempotency key: the check checks nothing")
		}
	})
	t.Run("every workload field is a common one or some workload's own", func(t *testing.T) {
		for _, f := range Fields() {
			if !slices.Contains(CommonFields(), f) && len(With(func(k Kind) bool { return slices.Contains(k.Fields, f) })) == 0 {
				t.Errorf("field %s belongs to no workload", f)
			}
		}
	})
}

// TestNoWorkloadIsSwitchedOnOutsideItsFile keeps the registry's promise:
// outside package workload, no non-test code of locksim's own picks a
// workload by its name — no case of a switch and no comparison names one
// (a name constant of this package, or the name as a string). What a
// workload does lives in its file.
func TestNoWorkloadIsSwitchedOnOutsideItsFile(t *testing.T) {
	names := map[string]bool{}
	for _, n := range Names() {
		names[n] = true
	}
	consts := nameConstants(t, names)
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(filepath.Join(root, "internal"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "workload" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		names := func(e ast.Expr) string {
			switch e := e.(type) {
			case *ast.BasicLit:
				if v, err := strconv.Unquote(e.Value); err == nil && e.Kind == token.STRING && names[v] {
					return v
				}
			case *ast.SelectorExpr:
				if x, ok := e.X.(*ast.Ident); ok && x.Name == "workload" && consts[e.Sel.Name] {
					return "workload." + e.Sel.Name
				}
			}
			return ""
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CaseClause:
				for _, e := range n.List {
					if w := names(e); w != "" {
						t.Errorf("%s: a case picks the workload %s", path, w)
					}
				}
			case *ast.BinaryExpr:
				if n.Op == token.EQL || n.Op == token.NEQ {
					for _, e := range []ast.Expr{n.X, n.Y} {
						if w := names(e); w != "" {
							t.Errorf("%s: a comparison picks the workload %s", path, w)
						}
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// nameConstants are this package's exported constants whose value is a
// workload's name (Payment, Counter, …), read from its files.
func nameConstants(t *testing.T, names map[string]bool) map[string]bool {
	t.Helper()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, p := range paths {
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
						if v, err := strconv.Unquote(lit.Value); err == nil && names[v] && n.IsExported() {
							out[n.Name] = true
						}
					}
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no workload name constant found")
	}
	return out
}
