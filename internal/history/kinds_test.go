package history

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"
)

// TestAnomalyKindsListsEveryKindConstant reads kinds.go, so that a kind
// added as a constant but forgotten in AnomalyKinds (and so refused by the
// scenario parser) fails here.
func TestAnomalyKindsListsEveryKindConstant(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "kinds.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	listed := AnomalyKinds()
	var declared []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					t.Fatalf("%s is not a string literal", n.Name)
				}
				v, _ := strconv.Unquote(lit.Value)
				declared = append(declared, v)
				t.Run(n.Name+" is listed by AnomalyKinds", func(t *testing.T) {
					if !slices.Contains(listed, v) {
						t.Errorf("AnomalyKinds() = %v lacks %q", listed, v)
					}
				})
			}
		}
	}
	t.Run("AnomalyKinds lists nothing else and nothing twice", func(t *testing.T) {
		if len(listed) != len(declared) {
			t.Errorf("AnomalyKinds() has %d kinds, kinds.go declares %d", len(listed), len(declared))
		}
	})
	t.Run("each call returns a slice of its own", func(t *testing.T) {
		a := AnomalyKinds()
		a[0] = "changed"
		if AnomalyKinds()[0] == "changed" {
			t.Error("AnomalyKinds returned a shared slice")
		}
	})
}
