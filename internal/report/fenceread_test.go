package report

import (
	"path/filepath"
	"strings"
	"testing"
)

// A grant's story line names the value its own acquire's INCR read, not
// an INCR of the same client's earlier, stalled acquire stamped inside the
// new acquire's window (fencing-random-nemesis seed 1166: w2's first
// script ran across n1's stop, its INCR, reading 3, stamped at 230.7 ms,
// inside w2's second acquire, 210.8–233.4 ms, whose own INCR read 4 and
// whose fence is 4). Found by the helper fool-stop; it failed: the line
// says "token 4 — the fence counter on n1 read 3".
func TestAGrantsFenceReadingIsItsOwnAcquires(t *testing.T) {
	_, in, m, _ := checkedRun(t, filepath.Join("..", "claim", "verify", "testdata", "runs", "fencing-random-nemesis-s1166-script-stamped-after-stop.jsonl"))
	in.Lang = English
	want := "w2 acquired the lock on invoice-7 (token 4" + tr(English, "n.fence.seen", "n1", 4)
	found := false
	for _, s := range narrative(in, m) {
		if strings.HasPrefix(s.Text, "w2 acquired the lock on invoice-7 (token 4") {
			found = true
			if !strings.HasPrefix(s.Text, want) {
				t.Errorf("%s\nwant it to begin %q", s, want)
			}
		}
	}
	if !found {
		t.Errorf("no story line of w2's grant of invoice-7 with token 4")
	}
}
