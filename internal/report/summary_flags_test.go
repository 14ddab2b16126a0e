package report

import (
	"reflect"
	"testing"

	"github.com/locksim/locksim/internal/checker"
)

// notUnprovenFlags are the bool fields of checker.Result that do not by
// themselves say why a run proves nothing: another field beside them
// does (UnfiredLate beside Missed, UntestedLate beside Untested), or
// they say something else (NotChecked, ViolationsStand).
var notUnprovenFlags = map[string]bool{"NotChecked": true, "ViolationsStand": true, "UnfiredLate": true, "UntestedLate": true}

// TestEveryReasonARunProvesNothingIsToldInEveryLanguage: a checker's
// result that proves nothing for a reason of its own (a bool field of
// checker.Result) is told in another language by that reason, not by the
// generic "could not decide" (teacher12 M-VI1: a Vietnamese run spoiled
// by a late harness timer, RaceLost, said "các checker không đủ dữ kiện
// để kết luận" where English gave the machine-busy reason). A new flag
// fails here until dataSummary tells it.
func TestEveryReasonARunProvesNothingIsToldInEveryLanguage(t *testing.T) {
	rt := reflect.TypeOf(checker.Result{})
	for i := range rt.NumField() {
		f := rt.Field(i)
		if f.Type.Kind() != reflect.Bool || !f.IsExported() || notUnprovenFlags[f.Name] {
			continue
		}
		r := checker.Result{Checker: checker.CheckerCoverage, Verdict: checker.Unknown}
		reflect.ValueOf(&r).Elem().Field(i).SetBool(true)
		for _, lang := range []Lang{Vietnamese} {
			if got := (&model{}).dataSummary(lang, r); got == tr(lang, "sum.unknown") {
				t.Errorf("%s: a result with %s set is told %q", lang, f.Name, got)
			}
		}
	}
}
