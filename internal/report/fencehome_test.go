package report

import (
	"strings"
	"testing"
)

// Reader 21 (redlock-gc-pause-fenced seed 10): "Nothing to fix: the
// fencing token already did its job" endorsed a counter that is an INCR of
// fence:{invoice-1} on n1, one of the five Redlock nodes, with no
// persistence. The row now says where the counter is and what a restart of
// that node would do; of a counter on a durable node it says nothing more.
func TestNothingToFixSaysTheFenceCounterIsOnALockNode(t *testing.T) {
	for _, tt := range []struct {
		name        string
		lang        Lang
		persistence string
		want        string // "" : the clause is absent
	}{
		{"in English the counter on n1 with no persistence is named", English, "none",
			"Its counter, fence:{invoice-1}, is on n1 though, a node that also holds the lock's keys, with no persistence: a restart of n1 would start it again from 0 and reissue old tokens (see fencing-counter-lost)."},
		{"in Vietnamese too", Vietnamese, "none",
			"Tuy vậy, bộ đếm của nó, fence:{invoice-1}, nằm trên n1, một node cũng giữ các key của lock, và không có persistence: nếu n1 khởi động lại"},
		{"a counter on a node that syncs every write is not blamed", English, "aof-always", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := adviceRun(t, "redlock-gc-pause-fenced")
			in.History.Header.Persistence["n1"] = tt.persistence
			in.Account = nil // the account reads the header as changed
			r := buildRemedy(in, tt.lang)
			if r == nil || r.Saved == "" {
				t.Fatalf("no 'nothing to fix' row: %+v", r)
			}
			if !strings.HasPrefix(r.Saved, tr(tt.lang, "fix.saved.fencing")) {
				t.Errorf("row %q does not begin with fix.saved.fencing", r.Saved)
			}
			home := tr(tt.lang, "fix.saved.fencing.home", "fence:{invoice-1}", "n1")
			switch {
			case tt.want == "" && strings.Contains(r.Saved, home):
				t.Errorf("row %q names the counter's node, which has persistence %s", r.Saved, tt.persistence)
			case tt.want != "" && !strings.Contains(r.Saved, tt.want):
				t.Errorf("row %q\nwant %q", r.Saved, tt.want)
			}
		})
	}
}
