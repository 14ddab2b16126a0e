package scenario

import (
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestShippedScenariosRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../../scenarios/*.yaml")
	field, _ := filepath.Glob("../../scenarios/field/*.yaml")
	files = append(files, field...)
	for _, f := range files {
		t.Run(filepath.Base(f)+" survives Normalize", func(t *testing.T) {
			s, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Normalize(s)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Parse(f, out)
			if err != nil {
				t.Fatalf("Parse(Normalize) = %v\n%s", err, out)
			}
			back.FixedBy = s.FixedBy // left out of a stored copy on purpose
			for i := range back.Faults {
				back.Faults[i].Line, back.Faults[i].Column = s.Faults[i].Line, s.Faults[i].Column
			}
			if !reflect.DeepEqual(s, back) {
				t.Fatalf("round trip changed the scenario:\n%+v\n%+v", s, back)
			}
		})
	}
}

// TestEveryShippedScenarioSpeaksVietnamese holds the catalogue to its two
// languages: a Vietnamese report leads with the scenario's description, so
// a file without description_vi would show English at the top of a vi page
// (issue 31).
func TestEveryShippedScenarioSpeaksVietnamese(t *testing.T) {
	files, _ := filepath.Glob("../../scenarios/*.yaml")
	field, _ := filepath.Glob("../../scenarios/field/*.yaml")
	files = append(files, field...)
	if len(files) == 0 {
		t.Fatal("no shipped scenarios found")
	}
	for _, f := range files {
		t.Run(filepath.Base(f)+" has a Vietnamese description", func(t *testing.T) {
			s, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			if s.Description == "" || s.DescriptionVI == "" {
				t.Fatalf("description %q, description_vi %q: both are needed", s.Description, s.DescriptionVI)
			}
		})
	}
}

// Issue 27 (a fresh reader, cron-duplicate-run): "Three schedulers with
// skewed clocks" where w1's clock was right and only w2's and w3's were
// moved. A description that counts clients "with skewed clocks" counts
// the clients a clock fault moves.
func TestAShippedDescriptionCountsOnlyTheClientsWhoseClocksAreSkewed(t *testing.T) {
	words := map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
	counted := regexp.MustCompile(`(?i)\b(one|two|three|four|five) (?:\w+ ){0,2}with skewed clocks`)
	files, _ := filepath.Glob("../../scenarios/*.yaml")
	for _, f := range files {
		s, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		m := counted.FindStringSubmatch(s.Description)
		if m == nil {
			continue
		}
		t.Run(filepath.Base(f)+" counts its skewed clients", func(t *testing.T) {
			skewed := map[string]bool{}
			for _, fl := range s.Faults {
				b, err := yaml.Marshal(fl.Fault)
				if err != nil {
					t.Fatal(err)
				}
				var v struct {
					Clients []string `yaml:"clients"`
				}
				if yaml.Unmarshal(b, &v) == nil && strings.HasPrefix(fl.Kind, "clock-") {
					for _, c := range v.Clients {
						skewed[c] = true
					}
				}
			}
			if want := words[strings.ToLower(m[1])]; len(skewed) != want {
				t.Errorf("%q: %d clients' clocks are skewed (%v), not %d", s.Description, len(skewed), skewed, want)
			}
		})
	}
}

// Issue 32: a loaded machine made failover-fence-regression valid: w1's
// acquire, planned 100 ms of wall time before the failover, came after it.
// No shipped file plans a fault closer than LeadFloor after a client's
// start, nor has any other warning.
func TestNoShippedScenarioHasAWarning(t *testing.T) {
	for _, s := range shippedScenarios(t) {
		for _, w := range append(s.Warnings, s.TightLeads(0)...) {
			t.Errorf("%v", w)
		}
	}
}

// TestNoShippedDescriptionSaysWhatItsRunsContradict: phrases a fresh
// reader found false in a shipped description, in either language, with
// the scenarios they apply to:
//   - a check-and-set checks its token (currlock) in the same step as the
//     write, not "before writing", the client-side read that races with
//     its own pause (teacher8 N3, as teacher7 F19 on lesson 44);
//   - a client with until_validity works until its clock says that much
//     validity is left, not "until its clock says the lease ends"
//     (client-clock-step-back, teacher 9, F12);
//   - a watchdog whose unlock never reached Redis renews the lock it tried
//     to release, not "the released lock" (watchdog-orphan-unlock-lost,
//     reader 9).
func TestNoShippedDescriptionSaysWhatItsRunsContradict(t *testing.T) {
	for _, tc := range []struct {
		name    string
		applies func(Scenario) bool
		en, vi  string
	}{
		{"checks its token in the write's own step", nil, "(currlock) before writing", "(currlock) trước khi ghi"},
		{"stops before its lease ends by its clock", func(s Scenario) bool { return s.Workload.UntilValidity > 0 },
			"until its clock says the lease ends", "tới khi đồng hồ của nó báo lease hết"},
		{"does not call a lock whose unlock was lost released", nil, "the released lock", "lock đã nhả"},
	} {
		for _, s := range shippedScenarios(t) {
			if tc.applies != nil && !tc.applies(s) {
				continue
			}
			for _, c := range []struct{ lang, text, not string }{{"en", s.Description, tc.en}, {"vi", s.DescriptionVI, tc.vi}} {
				if strings.Contains(c.text, c.not) {
					t.Run(s.Name+" "+tc.name+" in "+c.lang, func(t *testing.T) {
						t.Errorf("%q says %q", c.text, c.not)
					})
				}
			}
		}
	}
}

// shippedScenarios loads every shipped scenario (scenarios/ and
// scenarios/field/); a file that does not load fails t.
func shippedScenarios(t *testing.T) []Scenario {
	t.Helper()
	files, _ := filepath.Glob("../../scenarios/*.yaml")
	field, _ := filepath.Glob("../../scenarios/field/*.yaml")
	var out []Scenario
	for _, f := range append(files, field...) {
		s, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		t.Fatal("no shipped scenario found")
	}
	return out
}
