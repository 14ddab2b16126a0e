package scenario

import (
	"path/filepath"
	"reflect"
	"testing"
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
