package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/report/chart"
)

// TestTheKeyEndLegendSaysEachEndOnce: a Redlock timeline's legend read
// "key ended: quorum lost — n3: expired, expired", the client row's lost
// quorum and the node rows' own expiry side by side (teacher 3, F15); then
// "key ended: quorum lost — n5: expired" for the ticks of every node row
// too (reader 11): it says which rows' ticks each end is.
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
			// Reader 11: "key ended: quorum lost — n5: expired" named the
			// tick on every node row, where it is that node's own key's
			// end: the legend says which row's tick is which.
			node, client := tr(lang, "p.ended.rows", "\x00", "\x01"), ""
			node, client, _ = strings.Cut(node, "\x00")
			client, _, _ = strings.Cut(client, "\x01")
			if !strings.Contains(got, node) || !strings.Contains(got, client) {
				t.Errorf("%s: the key-end legend %q does not tell a node row's tick from a client row's", lang, got)
			}
		}
	})
	tests := []struct {
		name             string
		ends, quorumEnds []string
		want             string
	}{
		{"a node's expiry and a lost quorum, each by its rows", []string{"expired"},
			[]string{"quorum lost — n3: expired"},
			"end tick — on a node's row, that node's key ended: expired; on a client's row, its lock ended: quorum lost — n3: expired"},
		{"two lost quorums are told apart", []string{"expired", "lost in crash"},
			[]string{"quorum lost — n3: expired", "quorum lost — n2: lost in crash"},
			"end tick — on a node's row, that node's key ended: expired, lost in crash; on a client's row, its lock ended: quorum lost — n3: expired; quorum lost — n2: lost in crash"},
		{"without a lost quorum the ends are listed", []string{"expired", "released"}, nil, "key ended: expired, released"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &builder{lang: English, endWords: tt.ends, quorumEnds: tt.quorumEnds}
			if got := b.endLegend(); got != tt.want {
				t.Errorf("legend words %q, want %q", got, tt.want)
			}
		})
	}
}

// TestVietnameseEndWordsSayHetHan: the Vietnamese timeline legend read
// "key kết thúc: expire", a bare English verb where the glossary fixes
// "hết hạn (expire)" (teacher14 T14-4). No end word a Vietnamese page
// shows (the legend's, a tick's tip) leaves "expire" outside the
// glossary's parenthesis.
func TestVietnameseEndWordsSayHetHan(t *testing.T) {
	keys := []string{"p.expired"}
	for _, k := range endWords {
		keys = append(keys, k)
	}
	for _, k := range keys {
		w := tr(Vietnamese, k)
		if strings.Contains(strings.ReplaceAll(w, "(expire)", ""), "expire") {
			t.Errorf("%s: the Vietnamese end word %q says a bare \"expire\"", k, w)
		}
	}
	if got, want := tr(Vietnamese, "p.ended", endWord(Vietnamese, account.End{Kind: account.EndExpired})), "key kết thúc: hết hạn (expire)"; got != want {
		t.Errorf("legend %q, want %q", got, want)
	}
}
