package chart

import (
	"slices"
	"testing"
)

func TestBarsThatOverlapShareTheirLaneInRows(t *testing.T) {
	tests := []struct {
		name      string
		spans     [][2]float64
		row, rows []int
	}{
		{"one bar keeps the whole height", [][2]float64{{0, 10}}, []int{0}, []int{1}},
		{"bars one after another each keep the whole height", [][2]float64{{0, 1}, {1, 39}}, []int{0, 0}, []int{1, 1}},
		{"a key set while another lives takes a second row", [][2]float64{{0, 39.1}, {1, 40}}, []int{0, 1}, []int{2, 2}},
		{"a row is taken again once its bar ended", [][2]float64{{0, 10}, {1, 3}, {4, 12}, {20, 21}}, []int{0, 1, 1, 0}, []int{2, 2, 2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row, rows := Rows(tt.spans)
			if !slices.Equal(row, tt.row) || !slices.Equal(rows, tt.rows) {
				t.Errorf("rows %v of %v, want %v of %v", row, rows, tt.row, tt.rows)
			}
		})
	}
}
