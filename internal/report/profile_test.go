package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// sampleProfile is a profile with a row of every status and a class not
// explored.
func sampleProfile() Profile {
	return Profile{Algorithm: "safe", Workload: "payment", Nodes: 1, Clients: 2, Persistence: "none", TTLSeconds: 10, JobSeconds: 2.5,
		TimeScale: 20, Seed: 7, Budget: "2m0s", ShrinkBudget: "1m0s", K: 3, Version: "test", Backend: "local",
		Reproduce: "locksim explore --algorithm safe --budget 2m --seed 7", BaseYAML: "name: safe\nalgorithm: safe\n",
		Baseline: ProfileRun{Verdict: "valid", Report: "baseline/safe/x/index.html"}, Runs: 412, ElapsedSeconds: 121.5,
		Rows: []ProfileRow{
			{Class: "pause", Kind: "pause", Status: StatusBroken, Schedules: 3, Valid: 2, Invalid: 1, Guided: 3, FirstViolationSeconds: 7.6,
				Ranges: []ProfileRange{{Field: "point", Values: []string{"before-write"}}, {Field: "duration", Min: "8s", Max: "11.4s"}},
				Minimal: &ProfileRun{Verdict: "invalid", Kinds: []string{"double-effect", "mutex-overlap"}, Seed: 9, Faults: 1,
					Steps: []string{"#1 when w1 first reaches before-write: pause on w1, for 9s"}, File: "regressions/safe-pause.yaml",
					Report: "shrinks/pause/c000/runs/c004/x/index.html", Timeline: "shrinks/pause/c000/runs/c004/x/timeline.png",
					Reproduce: "locksim run regressions/safe-pause.yaml", Confirmed: 3, ConfirmSeeds: 3},
				ShrinkPage:   "shrinks/pause/c000/shrink.html",
				Requirements: []ProfileRequirement{{Req: ReqSafety, Showing: "broken", Runs: 1}}},
			{Class: "reset", Kind: "reset", Status: StatusFlaky, Schedules: 30, Valid: 28, Invalid: 2, Guided: 12, FirstViolationSeconds: 52.5,
				Found: &ProfileRun{Verdict: "invalid", Kinds: []string{"mutex-overlap"}, Steps: []string{"#1 at 3s: reset on w1→n1, for 2s"},
					File: "classes/reset/c026/scenario.yaml", Reproduce: "locksim run classes/reset/c026/scenario.yaml --seed 1"}},
			{Class: "partition", Kind: "partition", Status: StatusSurvived, Schedules: 40, Valid: 37, Unknown: 3, Guided: 30,
				Ranges:       []ProfileRange{{Field: "duration", Min: "5s", Max: "25s"}, {Field: "mode", Values: []string{"drop", "refuse"}}},
				Requirements: []ProfileRequirement{{Req: ReqDeadlockFree, Showing: "kept", Runs: 37}, {Req: ReqSafety, Showing: "kept", Runs: 37}}},
			{Class: "failover", Kind: "failover", Status: StatusUntried, Schedules: 2, Unknown: 2},
		},
		NotApplicable: []ProfileSkip{{Class: "clock-jump-client", Kind: "clock-jump", Reason: "explore.na.client-clock", Arg: "safe"},
			{Class: "slicer", Kind: "slicer", Reason: "explore.na.parser", Arg: "faults[0].nodes: unknown node"}},
	}
}

func TestTheSafetyProfilePageSaysWhatWasTriedInEveryLanguage(t *testing.T) {
	dir := t.TempDir()
	if err := WriteProfile(dir, sampleProfile(), English); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	en, vi := read(ProfileHTML), read("profile.vi.html")
	tests := []struct {
		name, page, want string
	}{
		{"the English page says survived is evidence, not proof", en, "not a proof"},
		{"the Vietnamese page says it too", vi, "không phải chứng minh"},
		{"a broken row gives its regression file", en, `href="regressions/safe-pause.yaml"`},
		{"a broken row shows its timeline", en, `src="shrinks/pause/c000/runs/c004/x/timeline.png"`},
		{"a broken row gives its reproduce line", en, "locksim run regressions/safe-pause.yaml"},
		{"a broken row marks the requirement it broke", en, "Safety broken"},
		{"a survived row counts its schedules", en, "survived 37 schedules"},
		{"a survived row marks what its runs kept", en, "Deadlock-free kept in 37 runs"},
		{"a survived row gives the values tried", en, "5s – 25s"},
		{"a flaky row gives the run that was invalid", en, "locksim run classes/reset/c026/scenario.yaml --seed 1"},
		{"a class not explored says why", en, "safe does not read the client&#39;s clock"},
		{"a parser's refusal is shown in its own words", vi, "faults[0].nodes: unknown node"},
		{"the pages link each other", en, `href="profile.vi.html"`},
		{"the Vietnamese page links back to the first", vi, `href="profile.html"`},
		{"the regression file is confirmed on fresh seeds", en, "invalid with the same kinds in 3 of 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(tt.page, tt.want) {
				t.Errorf("no %q", tt.want)
			}
		})
	}
	t.Run("the Vietnamese page shows no English field word outside the loanwords", func(t *testing.T) {
		doc, err := html.Parse(strings.NewReader(vi))
		if err != nil {
			t.Fatal(err)
		}
		forbidden := fieldWords()
		seen := map[string]bool{}
		visibleWords(doc, func(w, context string) {
			if g, bad := forbidden[w]; bad && !seen[w] {
				seen[w] = true
				t.Errorf("English %q (glossary: %q) in %q", w, g, strings.TrimSpace(context))
			}
		})
	})
}
