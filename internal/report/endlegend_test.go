package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/report/chart"
)

// TestTheKeyEndLegendSaysEachEndOnce: a Redlock timeline's legend read
// "key ended: quorum lost — n3: expired, expired", the client row's lost
// quorum and the node rows' own expiry side by side (teacher 3, F15).
func TestTheKeyEndLegendSaysEachEndOnce(t *testing.T) {
	t.Run("a recorded Redlock run's lost quorum and its nodes' expiries", func(t *testing.T) {
		for _, lang := range []Lang{English, Vietnamese} {
			in := adviceRun(t, "redlock-clock-jump")
			in.Lang = lang
			var got string
			for _, e := range drawingOf(t, in).Legend {
				if e.Kind == chart.ShEnd {
					got = e.Text
				}
			}
			quorum := strings.SplitN(tr(lang, "p.quorum.lost.how", "", ""), " ", 2)[0]
			if !strings.Contains(got, quorum) {
				t.Fatalf("%s: the key-end legend %q does not tell the lost quorum", lang, got)
			}
			if w := tr(lang, "p.clock"); strings.Count(got, w) != 1 {
				t.Errorf("%s: the key-end legend %q says %q %d times, want once", lang, got, w, strings.Count(got, w))
			}
		}
	})
	tests := []struct {
		name                          string
		ends, quorumEnds, quorumWords []string
		want                          string
	}{
		{"a node's expiry a lost quorum already told is said once", []string{"expired"},
			[]string{"quorum lost — n3: expired"}, []string{"expired"}, "quorum lost — n3: expired"},
		{"another way a key ended is said after it, apart", []string{"expired", "deleted by another client"},
			[]string{"quorum lost — n3: expired"}, []string{"expired"}, "quorum lost — n3: expired; deleted by another client"},
		{"two lost quorums are told apart", nil,
			[]string{"quorum lost — n3: expired", "quorum lost — n2: lost in a crash"}, []string{"expired", "lost in a crash"},
			"quorum lost — n3: expired; quorum lost — n2: lost in a crash"},
		{"without a lost quorum the ends are listed", []string{"expired", "released"}, nil, nil, "expired, released"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &builder{endWords: tt.ends, quorumEnds: tt.quorumEnds, quorumWords: tt.quorumWords}
			if got := b.endLegend(); got != tt.want {
				t.Errorf("legend words %q, want %q", got, tt.want)
			}
		})
	}
}
