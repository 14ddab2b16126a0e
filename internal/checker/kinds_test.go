package checker

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// TestEveryKindIsFromTheHistoryVocabulary keeps the checker's Kind*
// constants defined as history.Anomaly* values: a kind with a literal of
// its own would be unknown to the scenario parser, so no scenario could
// expect it.
func TestEveryKindIsFromTheHistoryVocabulary(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "checker.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if len(name.Name) < 5 || name.Name[:4] != "Kind" || i >= len(vs.Values) {
					continue
				}
				n++
				t.Run(name.Name+" is a history.Anomaly constant", func(t *testing.T) {
					sel, ok := vs.Values[i].(*ast.SelectorExpr)
					if !ok {
						t.Fatalf("%s is not defined as history.Anomaly…", name.Name)
					}
					if x, isIdent := sel.X.(*ast.Ident); !isIdent || x.Name != "history" || !strings.HasPrefix(sel.Sel.Name, "Anomaly") {
						t.Errorf("%s is not defined as history.Anomaly…", name.Name)
					}
				})
			}
		}
	}
	if n == 0 {
		t.Fatal("no Kind constants found in checker.go")
	}
}

func TestEveryAnomalyKindHasOneLineAndAClass(t *testing.T) {
	for _, k := range Kinds() {
		t.Run(k.Name+" says what it means and what it is a finding about", func(t *testing.T) {
			if k.About == "" || strings.Contains(k.About, "\n") {
				t.Errorf("%s: about %q, want one line", k.Name, k.About)
			}
			if k.Class != ClassSafety && k.Class != ClassLiveness && k.Class != ClassEfficiency {
				t.Errorf("%s: class %q", k.Name, k.Class)
			}
		})
	}
	if shared := len(history.AnomalyKinds()); shared != len(kindAbout) {
		t.Errorf("history has %d anomaly kinds, the table describes %d: a kind without a line, or a line without a kind", shared, len(kindAbout))
	}
	if got, want := len(Kinds()), len(history.AnomalyKinds())+len(workload.AnomalyKinds()); got != want {
		t.Errorf("Kinds lists %d kinds, want %d: the shared ones and every workload's own", got, want)
	}
}
