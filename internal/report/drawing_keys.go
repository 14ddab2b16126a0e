package report

import (
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/report/chart"
)

// keyLives draws every life of a lock key on the node (the server) that
// held it, from the account: in its owner's colour, solid where the
// node's commands were observed and a dashed outline where the account
// inferred it from the clients' outcomes; a tick where the key was gone
// (expired, lost with its node), taken or purged.
func (b *builder) keyLives() {
	m, lang, d := b.m, b.lang, b.d
	lockKeys := map[string]bool{}
	for _, k := range m.keys {
		for _, lk := range m.a.LockKeysOf(k) { // the key, and one a lock derived from it
			lockKeys[lk] = true
		}
	}
	multiKey := len(m.keys) > 1
	inferred := false
	var bars []keyBar
	for _, k := range m.a.Keys() {
		if !lockKeys[k.Key] {
			continue
		}
		var l *lease
		if i, ok := m.byOp[k.Grant]; ok && k.Grant >= 0 {
			l = &m.leases[i]
		}
		name := k.Owner + " " + m.tokenLabel(lang, lease{Token: k.Value}) // shortened as every value of the run: the tip has it whole
		if l != nil {
			name = k.Owner + " " + m.tokenLabel(lang, *l)
		}
		if multiKey {
			name = k.Key + " " + name
		}
		sub := ""
		if !k.Observed {
			sub, inferred = "inferred", true
		}
		tip := func() string { return b.keyTip(k, l) }
		stints := m.a.ServersOf(k)
		for si, st := range stints {
			ni := b.laneOf(st.Server)
			if ni < 0 || d.Lanes[ni].Kind != chart.LaneNode {
				continue
			}
			ks, ke := m.sec(st.Start), m.sec(st.End)
			if st.End > m.end {
				ke = d.End
			}
			if ke <= ks {
				ke = ks + d.End*0.003
			}
			bars = append(bars, keyBar{k: k, name: name, sub: sub, tip: tip, lane: ni, s: ks, e: ke, last: si == len(stints)-1})
		}
		b.legendOnce(chart.ShKey, chart.Legend{Kind: chart.ShKey, Color: 0, Text: tr(lang, "p.key")})
	}
	b.keyBars(bars)
	if inferred {
		b.legendOnce("key:inferred", chart.Legend{Kind: chart.ShKey, Sub: "inferred", Color: 0, Text: tr(lang, "p.key.inferred")})
	}
}

// keyBar is one stint of a key life on a node's lane, as keyLives found
// it, to be drawn in its row (keyBars).
type keyBar struct {
	k         account.KeyLife
	name, sub string
	tip       func() string
	lane      int
	s, e      float64 // scenario s
	last      bool    // the life's last stint
}

// keyBars draws the key bars, each node's keys that lived at once in rows
// of their lane (chart.Rows): each stays visible, its words on it.
func (b *builder) keyBars(bars []keyBar) {
	m, lang := b.m, b.lang
	byLane := map[int][]int{}
	for i, kb := range bars {
		byLane[kb.lane] = append(byLane[kb.lane], i)
	}
	row, rows := make([]int, len(bars)), make([]int, len(bars))
	for _, is := range byLane {
		spans := make([][2]float64, len(is))
		for j, i := range is {
			spans[j] = [2]float64{bars[i].s, bars[i].e}
		}
		r, n := chart.Rows(spans)
		for j, i := range is {
			row[i], rows[i] = r[j], n[j]
		}
	}
	for i, kb := range bars {
		k, ni, ks, ke, tip := kb.k, kb.lane, kb.s, kb.e, kb.tip
		y0, y1 := chart.RowY(-0.2, 0.2, row[i], rows[i])
		ty0, ty1 := -0.32, 0.32 // an end's tick: across the bar, or its row
		if rows[i] > 1 {
			y0, y1 = chart.RowY(-0.3, 0.3, row[i], rows[i])
			ty0, ty1 = y0-0.04, y1+0.04
		}
		op := k.Grant + 1
		if k.Grant < 0 {
			op = k.Set + 1
		}
		kr := ref(claim.KeyLife, k.Set, k.Node)
		b.shape(chart.Shape{Kind: chart.ShKey, Sub: kb.sub, Lane: ni, Lane2: ni, X0: ks, X1: ke, Y0: y0, Y1: y1, Color: max(m.laneOf(k.Owner), 0), Tipf: tip, Op: op, Ref: kr})
		b.label(chart.Label{Lane: ni, X: ks, Dy: (y0 + y1) / 2, Text: kb.name, Style: chart.LbSmall, Width: ke - ks, Prio: chart.PrKey, Ref: kr})
		if !kb.last || k.End > m.end {
			continue
		}
		switch {
		case k.Ended.Kind == account.EndDeleted && k.Ended.By != "":
			// A foreign unlock: whose command removed whose key.
			b.label(chart.Label{Lane: ni, X: ke, Dy: -0.36, Text: tr(lang, "p.removed.by", k.Ended.By), Style: chart.LbBad, Prio: chart.PrEnd, Ref: kr})
		case k.Ended.Kind == account.EndRestored && k.Ended.By != "" && k.Ended.By != k.Owner:
			b.label(chart.Label{Lane: ni, X: ke, Dy: -0.36, Text: tr(lang, "p.restored.by", k.Ended.By), Style: chart.LbBad, Prio: chart.PrEnd, Ref: kr})
		}
		if k.Ended.Gone() || k.Ended.Kind == account.EndTaken || k.Ended.Kind == account.EndPurged {
			b.shape(chart.Shape{Kind: chart.ShEnd, Lane: ni, Lane2: ni, X0: ke, X1: ke, Y0: ty0, Y1: ty1, Color: -1, Tipf: tip, Op: op, Ref: kr})
			b.endWords = appendNew(b.endWords, endWord(lang, k.Ended))
		}
	}
}

// endLegend is the legend's words for the key-end ticks drawn: "key
// ended: expired, released"; or, with a lost quorum, which rows' ticks
// each end is: a node row's tick is that node's own key's end, a client
// row's its lock's lost quorum ("quorum lost — n3: expired"). Said as one
// list, "key ended: quorum lost — n5: expired" named every node row's
// tick too (reader 11), and "…: expired, expired" read as a slip
// (teacher 3, F15). "" when none was drawn.
func (b *builder) endLegend() string {
	nodes := strings.Join(b.endWords, ", ")
	switch {
	case len(b.quorumEnds) == 0 && nodes == "":
		return ""
	case len(b.quorumEnds) == 0:
		return tr(b.lang, "p.ended", nodes)
	case nodes == "":
		return tr(b.lang, "p.ended.lock", strings.Join(b.quorumEnds, "; "))
	}
	return tr(b.lang, "p.ended.rows", nodes, strings.Join(b.quorumEnds, "; "))
}
