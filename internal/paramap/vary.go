// Package paramap maps where a lock is safe (`locksim map`): it varies one
// or two of a scenario's parameters over a grid, runs every cell with the
// same seeds, and writes the violation rate of each cell — map.png (a
// heatmap with the unknown share marked), map.html (a table linking each
// cell's first invalid run) and map.json.
//
// A parameter is named by its path in the scenario file ("ttl",
// "workload.job", "faults[0].duration"); each cell is the file's YAML node
// tree with those fields set, read back by the strict parser, so every
// value of the grid is validated before anything runs.
package paramap

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// MaxValues bounds the values of one axis.
const MaxValues = 100

// Axis is one varied parameter: its path and its values, as YAML text.
type Axis struct {
	Path   string   `json:"path"`
	Values []string `json:"values"`
}

// ParseVary reads "path=values": values are a range "lo..hi/step" of
// durations ("10s..60s/10s") or numbers ("0.8..1/0.05"), both ends
// included, or a comma-separated list ("0.8,0.9,1.05").
func ParseVary(s string) (Axis, error) {
	path, vals, ok := strings.Cut(s, "=")
	path, vals = strings.TrimSpace(path), strings.TrimSpace(vals)
	if !ok || path == "" || vals == "" {
		return Axis{}, fmt.Errorf("--vary %q: want path=values, e.g. ttl=10s..60s/10s or faults[0].rate=0.8,0.9,1", s)
	}
	a := Axis{Path: path}
	var err error
	if strings.Contains(vals, "..") {
		a.Values, err = rangeValues(vals)
	} else {
		for _, v := range strings.Split(vals, ",") {
			v = strings.TrimSpace(v)
			if v == "" {
				return Axis{}, fmt.Errorf("--vary %s: an empty value in the list %q", path, vals)
			}
			a.Values = append(a.Values, v)
		}
	}
	if err != nil {
		return Axis{}, fmt.Errorf("--vary %s: %w", path, err)
	}
	if len(a.Values) > MaxValues {
		return Axis{}, fmt.Errorf("--vary %s: %d values; at most %d", path, len(a.Values), MaxValues)
	}
	seen := map[string]bool{}
	for _, v := range a.Values {
		if seen[v] {
			return Axis{}, fmt.Errorf("--vary %s: value %s twice", path, v)
		}
		seen[v] = true
	}
	return a, nil
}

// ParseSet reads "path=value".
func ParseSet(s string) (path, value string, err error) {
	path, value, ok := strings.Cut(s, "=")
	path, value = strings.TrimSpace(path), strings.TrimSpace(value)
	if !ok || path == "" || value == "" {
		return "", "", fmt.Errorf("--set %q: want path=value, e.g. time_scale=10", s)
	}
	return path, value, nil
}

// rangeValues expands "lo..hi/step".
func rangeValues(s string) ([]string, error) {
	span, stepS, ok := strings.Cut(s, "/")
	loS, hiS, ok2 := strings.Cut(span, "..")
	loS, hiS, stepS = strings.TrimSpace(loS), strings.TrimSpace(hiS), strings.TrimSpace(stepS)
	if !ok || !ok2 || loS == "" || hiS == "" || stepS == "" {
		return nil, fmt.Errorf("range %q: want lo..hi/step, e.g. 10s..60s/10s or 0.8..1/0.05", s)
	}
	if lo, err := time.ParseDuration(loS); err == nil {
		hi, err1 := time.ParseDuration(hiS)
		step, err2 := time.ParseDuration(stepS)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("range %q: %s is a duration, so hi and step must be durations too", s, loS)
		}
		n, err := steps(float64(lo), float64(hi), float64(step), s)
		if err != nil {
			return nil, err
		}
		out := make([]string, n+1)
		for i := range out {
			out[i] = (lo + time.Duration(i)*step).String()
		}
		return out, nil
	}
	lo, err0 := strconv.ParseFloat(loS, 64)
	hi, err1 := strconv.ParseFloat(hiS, 64)
	step, err2 := strconv.ParseFloat(stepS, 64)
	if err0 != nil || err1 != nil || err2 != nil {
		return nil, fmt.Errorf("range %q: lo, hi and step must be durations (10s) or numbers (0.05)", s)
	}
	n, err := steps(lo, hi, step, s)
	if err != nil {
		return nil, err
	}
	dec := max(decimals(loS), decimals(stepS))
	out := make([]string, n+1)
	for i := range out {
		v := lo + float64(i)*step
		out[i] = strconv.FormatFloat(v, 'f', dec, 64)
	}
	return out, nil
}

// steps is the number of steps from lo to hi, which must be a whole number.
func steps(lo, hi, step float64, s string) (int, error) {
	switch {
	case step <= 0:
		return 0, fmt.Errorf("range %q: the step must be > 0", s)
	case hi < lo:
		return 0, fmt.Errorf("range %q: hi is below lo", s)
	}
	n := (hi - lo) / step
	r := math.Round(n)
	if math.Abs(n-r) > 1e-6 {
		return 0, fmt.Errorf("range %q: %v is not a whole number of steps from lo to hi", s, n)
	}
	if r+1 > MaxValues {
		return 0, fmt.Errorf("range %q: %v values; at most %d", s, r+1, MaxValues)
	}
	return int(r), nil
}

// decimals is the number of digits after the point in a number's text
// ("0.05" → 2); 6 for an exponent form.
func decimals(s string) int {
	if strings.ContainsAny(s, "eE") {
		return 6
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}
