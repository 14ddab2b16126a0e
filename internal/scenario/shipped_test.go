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

// TestNoShippedDescriptionSaysCheckAndSetChecksBeforeTheWrite: the
// description of redlock-gc-pause-cas said the resource checks currlock
// "before writing", the client-side read that races with its own pause
// (lesson 46); a check-and-set checks in the same step as the write
// (teacher8 N3, as teacher7 F19 on lesson 44).
func TestNoShippedDescriptionSaysCheckAndSetChecksBeforeTheWrite(t *testing.T) {
	for _, s := range shippedScenarios(t) {
		for _, c := range []struct{ lang, text, not string }{
			{"en", s.Description, "(currlock) before writing"},
			{"vi", s.DescriptionVI, "(currlock) trước khi ghi"},
		} {
			if strings.Contains(c.text, c.not) {
				t.Run(s.Name+" checks its token in the write's own step in "+c.lang, func(t *testing.T) {
					t.Errorf("%q", c.text)
				})
			}
		}
	}
}

// TestAShippedDescriptionSaysHowLongAnUntilValidityClientWorks: the
// description of client-clock-step-back said w1 "works until its clock says
// the lease ends, 5 s too late", while it works until its clock says 2 s of
// validity are left (until_validity: 2s), about 3 s past the real expiry
// (teacher 9, F12). A client with until_validity stops before its clock
// says the lease ends.
func TestAShippedDescriptionSaysHowLongAnUntilValidityClientWorks(t *testing.T) {
	for _, s := range shippedScenarios(t) {
		if s.Workload.UntilValidity <= 0 {
			continue
		}
		for _, c := range []struct{ lang, text, not string }{
			{"en", s.Description, "until its clock says the lease ends"},
			{"vi", s.DescriptionVI, "tới khi đồng hồ của nó báo lease hết"},
		} {
			if strings.Contains(c.text, c.not) {
				t.Run(s.Name+" stops before its lease ends by its clock, in "+c.lang, func(t *testing.T) {
					t.Errorf("%q (until_validity %v)", c.text, s.Workload.UntilValidity)
				})
			}
		}
	}
}

// TestNoShippedDescriptionSaysALostUnlockReleasedTheLock: the
// description of watchdog-orphan-unlock-lost said its watchdog "renews
// the released lock", but the unlock never reached Redis and the key
// stayed the leader's; the lock is the one it tried to release (reader9,
// finding 6).
func TestNoShippedDescriptionSaysALostUnlockReleasedTheLock(t *testing.T) {
	for _, s := range shippedScenarios(t) {
		for _, c := range []struct{ lang, text, not string }{
			{"en", s.Description, "the released lock"},
			{"vi", s.DescriptionVI, "lock đã nhả"},
		} {
			if strings.Contains(c.text, c.not) {
				t.Run(s.Name+" does not call a lock whose unlock was lost released in "+c.lang, func(t *testing.T) {
					t.Errorf("%q", c.text)
				})
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
