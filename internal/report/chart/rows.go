package chart

import "sort"

// Rows gives each of spans (a lane's bars, [start, end) scenario s) a row
// and the number of rows of the bars it overlaps with: bars that overlap,
// directly or through others, share their lane's height in rows; a bar
// that overlaps none keeps the whole height (rows 1). One rule for every
// renderer: the rows become the bars' Y0/Y1 (RowY), which the SVG,
// timeline.png and timeline.js all draw as given (issue 27, a fresh
// reader: two keys on one node at once were drawn at one height, the
// later one covering the orphaned key that was the report's point).
func Rows(spans [][2]float64) (row, rows []int) {
	n := len(spans)
	row, rows = make([]int, n), make([]int, n)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return spans[order[a]][0] < spans[order[b]][0] })
	for g := 0; g < n; {
		// A group: bars that overlap, directly or through others.
		end, h := spans[order[g]][1], g+1
		for h < n && spans[order[h]][0] < end {
			end = max(end, spans[order[h]][1])
			h++
		}
		var ends []float64 // each row's last end
		for _, i := range order[g:h] {
			r := 0
			for r < len(ends) && ends[r] > spans[i][0] {
				r++
			}
			if r == len(ends) {
				ends = append(ends, 0)
			}
			ends[r], row[i] = spans[i][1], r
		}
		for _, i := range order[g:h] {
			rows[i] = len(ends)
		}
		g = h
	}
	return row, rows
}

// RowY is the part [y0, y1] of a bar's height [lo, hi] (lane units) that
// row r of rows takes, the first row on top (y grows downwards).
func RowY(lo, hi float64, r, rows int) (y0, y1 float64) {
	if rows <= 1 {
		return lo, hi
	}
	h := (hi - lo) / float64(rows)
	return lo + float64(r)*h, lo + float64(r+1)*h - h*0.1
}
