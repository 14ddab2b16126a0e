package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateChecksALessonFileAsOne: a *.yaml in a directory named
// lessons is a course lesson's file; validate refuses a bad one with its
// problems at file:line:col and exit 254, and passes the shipped ones.
func TestValidateChecksALessonFileAsOne(t *testing.T) {
	t.Run("the shipped lesson files are valid", func(t *testing.T) {
		var out, errb bytes.Buffer
		if code := cmdValidate([]string{filepath.Join("..", "..", "scenarios", "lessons")}, &out, &errb); code != exitValid {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		if n := strings.Count(out.String(), ": ok"); n != 10 {
			t.Errorf("%d lesson files ok, want 10:\n%s", n, out.String())
		}
	})
	t.Run("a bad lesson file is refused at its line and column with exit 254", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "lessons")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, "60.yaml")
		if err := os.WriteFile(f, []byte("lesson: 60\ngoal: {en: g}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := cmdValidate([]string{f}, &out, &errb); code != exitUsage {
			t.Errorf("exit %d, want %d", code, exitUsage)
		}
		for _, want := range []string{f + ":1:9: lesson: must be between 42 and 51", f + ":2:7: goal.vi: is missing"} {
			if !strings.Contains(errb.String(), want) {
				t.Errorf("stderr lacks %q:\n%s", want, errb.String())
			}
		}
	})
}
