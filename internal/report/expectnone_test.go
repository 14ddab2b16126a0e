package report

import (
	"strings"
	"testing"
)

// A history checked alone (locksim check history.jsonl, no scenario.yaml
// beside it) does not know its scenario: the page says no expected
// verdict is known, not that the scenario declares none (a fresh reader,
// stop 57: redlock3-restart-aof expects valid).
func TestAHistoryCheckedAloneDoesNotSayItsScenarioDeclaresNoExpectation(t *testing.T) {
	for _, tt := range []struct {
		name       string
		yaml, file string
		want       string
	}{
		{"a history alone says no expectation is known", "", "", "checked without its scenario file"},
		{"a scenario that declares none says so", "name: x\n", "scenarios/x.yaml", "This scenario declares no expected verdict."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := recorded(t, "setnx-expire-crash")
			in.ScenarioYAML, in.ScenarioFile = []byte(tt.yaml), tt.file
			m := newModel(in.History, in.Account)
			res := buildResults(in, "", m)
			p := buildPage(in, m, res, historyInfo{}, nil)
			if !strings.Contains(p.ExpectText, tt.want) {
				t.Errorf("expectation %q, want %q", p.ExpectText, tt.want)
			}
		})
	}
}
