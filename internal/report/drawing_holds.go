package report

import (
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// holdRow is where a hold's bar sits on its client's lane (lane units,
// downwards positive): y0–y1 the bar, t0–t1 the tick where it was lost,
// row its row of rows, the rows of the client's holds it overlaps with
// (1: the whole height); e its drawn end (scenario s).
type holdRow struct {
	y0, y1, t0, t1 float64
	row, rows      int
	e              float64
}

// centre is the height of the middle of the hold's bar: its writes'
// marks sit there.
func (r holdRow) centre() float64 { return (r.y0 + r.y1) / 2 }

// The rows of a client's holds at once share the lane's height from
// holdsTop to holdsBottom (lane heights, downwards positive): the top
// one's words stay where a single hold's are (-0.36), clear of the marks
// on its bar, the bottom one's go under the lane's bars at
// holdWordsUnder, clear of the marks on its own bar and of the next
// lane's words. Both words are where no mark covers them in
// index.html's 52 px lanes as well as in timeline.png.
const (
	holdsTop, holdsBottom = -0.1, 0.2
	holdWordsUnder        = 0.44
)

// holdSpan is the drawn stretch [s, held] (scenario s) of lease l as
// held (practice: held in practice until it stopped believing).
func (b *builder) holdSpan(l lease, practice bool) (s, held float64) {
	m, d := b.m, b.d
	s, held = m.sec(l.Start), m.sec(min(l.KeyEnd, l.BelievedEnd))
	if practice {
		held = m.sec(l.BelievedEnd)
	}
	if l.KeyEnd > m.end && l.BelievedEnd >= m.end {
		held = d.End
	}
	if held <= s {
		held = s + d.End*0.003
	}
	return s, held
}

// holdRows gives every lease (by index into model.leases) its row on
// its client's lane: a client that held locks on two keys or more at
// once has each hold at its own height, with its own words, the way a
// node row's keys at once are drawn (chart.Rows, keyBars). Drawn at one
// height the later hold covered the earlier one, which read as a lock
// that changed owner (reader 19, scheduler-heartbeat-own-queue: w2's
// leader-1 lease over its leader-2 lease). A client that only ever held
// one key keeps the whole height (rows 1: -0.2…0.2), as before.
// holdRows also keeps the rows by acquire (builder.holdAt) for writes.
func (b *builder) holdRows() []holdRow {
	m := b.m
	out := make([]holdRow, len(m.leases))
	byClient := map[string][]int{}
	keys := map[string]map[string]bool{}
	starts := make([]float64, len(m.leases))
	for i, l := range m.leases {
		_, _, _, practice := m.heldInPractice(&l)
		s, held := b.holdSpan(l, practice)
		starts[i] = s
		e := held
		if be := m.sec(l.BelievedEnd); l.BelievedEnd > l.KeyEnd && be > held {
			e = min(be, max(b.d.End, held))
		}
		out[i] = holdRow{y0: -0.2, y1: 0.2, t0: -0.32, t1: 0.32, rows: 1, e: e}
		if b.laneOf(l.Client) < 0 || m.laneOf(l.Client) < 0 {
			continue
		}
		byClient[l.Client] = append(byClient[l.Client], i)
		if keys[l.Client] == nil {
			keys[l.Client] = map[string]bool{}
		}
		keys[l.Client][l.Key] = true
	}
	b.holdAt = map[int]holdRow{}
	for c, is := range byClient {
		if len(keys[c]) < 2 {
			continue
		}
		spans := make([][2]float64, len(is))
		for j, i := range is {
			spans[j] = [2]float64{starts[i], out[i].e}
		}
		row, rows := chart.Rows(spans)
		for j, i := range is {
			if rows[j] < 2 {
				continue
			}
			y0, y1 := chart.RowY(holdsTop, holdsBottom, row[j], rows[j])
			out[i] = holdRow{y0: y0, y1: y1, t0: y0 - 0.04, t1: y1 + 0.04, row: row[j], rows: rows[j], e: out[i].e}
			b.holdAt[m.leases[i].Op] = out[i]
		}
	}
	return out
}

// heldRow is the row of the hold write o was made under, when that hold
// is drawn at its own height among its client's holds at once.
func (b *builder) heldRow(o history.Op) (holdRow, bool) {
	if len(b.holdAt) == 0 || o.Key == "" {
		return holdRow{}, false
	}
	l, ok := b.m.leaseAt(o.Client, o.Key, o.Invoke)
	if !ok {
		return holdRow{}, false
	}
	r, ok := b.holdAt[l.Op]
	return r, ok
}
