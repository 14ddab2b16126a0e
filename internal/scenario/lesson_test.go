package scenario

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLessonReadsOneLessonOrSeveral(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want Lessons
	}{
		{"no lesson names none", "", nil},
		{"one lesson is a number", "lesson: 44\n", Lessons{44}},
		{"several lessons are a list, sorted", "lesson: [45, 43]\n", Lessons{43, 45}},
		{"a block list reads the same", "lesson:\n  - 51\n", Lessons{51}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse("l.yaml", []byte(base+tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.Lessons, tt.want) {
				t.Errorf("lessons = %v, want %v", s.Lessons, tt.want)
			}
		})
	}
}

func TestLessonAndDescriptionVIRefuseBadInputWithTheirPosition(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want string // "line:col: path: message…"
	}{
		{"a lesson outside the module is refused", "lesson: 41\n",
			"4:9: lesson: must be between 42 and 51, the course module's lessons (got 41)"},
		{"a lesson that is not a number is refused", "lesson: forty-four\n",
			`4:9: lesson: must be an integer (got "forty-four")`},
		{"a lesson named twice is refused", "lesson: [44, 44]\n",
			"4:14: lesson[1]: lesson 44 is named twice"},
		{"an empty list is refused", "lesson: []\n",
			"4:9: lesson: must name at least one lesson (got an empty list)"},
		{"a mapping in the list is refused", "lesson: [{n: 44}]\n",
			"4:10: lesson[0]: must be a course lesson 42–51"},
		{"a Vietnamese description needs the English one", "description_vi: Một lần dừng GC\n",
			"4:17: description_vi: needs description"},
		{"an empty Vietnamese description is refused", "description: A pause.\ndescription_vi: \" \"\n",
			"5:17: description_vi: must not be empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("l.yaml", []byte(base+tt.yaml))
			var l *ErrorList
			if !errors.As(err, &l) || len(l.Errs) != 1 {
				t.Fatalf("err = %v, want one problem", err)
			}
			if got := l.Errs[0].Error(); !strings.HasPrefix(got, "l.yaml:"+tt.want) {
				t.Errorf("got  %s\nwant l.yaml:%s…", got, tt.want)
			}
		})
	}
}

func TestEveryShippedScenarioNamesItsLesson(t *testing.T) {
	files, _ := filepath.Glob("../../scenarios/*.yaml")
	for _, f := range files {
		t.Run(filepath.Base(f)+" names its lesson and has a Vietnamese description", func(t *testing.T) {
			s, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			// A file that expects unknown tests the checker (coverage),
			// not a lesson of the course: scenarios/README.md lists it
			// under lesson "—".
			if len(s.Lessons) == 0 && s.Expect.Verdict != "unknown" {
				t.Error("no lesson:")
			}
			if s.Description != "" && s.DescriptionVI == "" {
				t.Error("description without description_vi")
			}
		})
	}
}
