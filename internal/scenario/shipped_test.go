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
