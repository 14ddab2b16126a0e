package report

import (
	"strings"
	"testing"
)

// Reader 6 (A17): the Vietnamese suite pages headed the wall-time column
// "Thời gian (s)", which a teacher reads as scenario time (redlock-restart
// showed 8,69 s of a 4.3 s scenario); and "(key đã bị xoá)" after a
// release reads as "the key had already been deleted", the wrong meaning
// in the janitor run. The words say wall time and "the release deleted
// the key".
func TestVietnameseWordsSayWhatTheEnglishSays(t *testing.T) {
	for _, c := range []struct {
		name, key, want, lack string
		args                  []any
	}{
		{"the suite's wall-time column says wall time", "suite.wall", "Thời gian thực (s)", "", nil},
		{"a release says it deleted the key", "n.release.ok", "w2 nhả lock invoice-1 (đã xoá key).", "đã bị xoá", []any{"w2", "invoice-1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := tr(Vietnamese, c.key, c.args...)
			if got != c.want || c.lack != "" && strings.Contains(got, c.lack) {
				t.Errorf("%s = %q, want %q", c.key, got, c.want)
			}
		})
	}
}
