package shrink

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/locksim/locksim/internal/scenario"
)

// passes are tried in this order in every round: the ones that make runs
// shorter (fewer faults, keys, clients, a shorter run) first, so that the
// later, more numerous candidates cost less.
var passes = []func(*search) bool{
	dropFaults,
	lowerCounts,
	removeTargets,
	shortenRun,
	shortenValues,
	roundTimes,
	require,
}

// faultCount is the number of faults of the best schedule so far.
func (s *search) faultCount() int {
	n, _ := s.best.doc.Len("faults")
	return n
}

// edit is a copy of the best schedule so far with f applied; nil when f
// cannot apply.
func (s *search) edit(f func(d *scenario.Doc) error) *scenario.Doc {
	d := s.best.doc.Clone()
	if err := f(d); err != nil {
		return nil
	}
	return d
}

// dropFaults removes faults, half of them at a time, then quarters, …,
// then one at a time (delta debugging's complement step).
func dropFaults(s *search) bool {
	changed := false
	n := s.faultCount()
	for chunk := max(n/2, 1); chunk >= 1 && !s.stopped; chunk /= 2 {
		for start := 0; start < s.faultCount() && !s.stopped; {
			n := s.faultCount()
			end := min(start+chunk, n)
			d := s.edit(func(d *scenario.Doc) error {
				for range end - start {
					if err := d.Delete(fmt.Sprintf("faults[%d]", start)); err != nil {
						return err
					}
				}
				return nil
			})
			what := fmt.Sprintf("drop faults[%d]", start)
			if end-start > 1 {
				what = fmt.Sprintf("drop faults[%d..%d]", start, end-1)
			}
			if d != nil && s.try(fmt.Sprintf("%s (%d → %d faults)", what, n, n-(end-start)), d) {
				changed = true
				continue // the next faults moved into start
			}
			start = end
		}
		if chunk == 1 {
			break
		}
	}
	return changed
}

// lowerCounts lowers the number of keys, then of clients, by bisection.
func lowerCounts(s *search) bool {
	changed := false
	for _, path := range []string{"workload.keys", "clients"} {
		v, err := s.best.doc.Value(path)
		if err != nil {
			continue
		}
		cur, err := strconv.Atoi(v)
		if err != nil || cur <= 1 {
			continue
		}
		vals := make([]string, 0, cur-1)
		for i := 1; i < cur; i++ {
			vals = append(vals, strconv.Itoa(i))
		}
		if s.smallest(path, vals) {
			changed = true
		}
	}
	return changed
}

// smallest bisects vals (ascending, all smaller than the path's value)
// for the smallest that still fails, assuming that what fails with a
// value fails with every larger one.
func (s *search) smallest(path string, vals []string) bool {
	changed := false
	lo, hi := 0, len(vals) // vals[hi], past the end, is the current value
	for lo < hi && !s.stopped {
		mid := (lo + hi) / 2
		cur, _ := s.best.doc.Value(path)
		d := s.edit(func(d *scenario.Doc) error { return d.Set(path, vals[mid]) })
		if d != nil && s.try(fmt.Sprintf("%s %s → %s", path, cur, vals[mid]), d) {
			hi, changed = mid, true
		} else {
			lo = mid + 1
		}
	}
	return changed
}

// removeTargets drops, one at a time, the clients and nodes of faults
// that name more than one.
func removeTargets(s *search) bool {
	changed := false
	for i := 0; i < s.faultCount() && !s.stopped; i++ {
		for _, f := range []string{"clients", "nodes"} {
			path := fmt.Sprintf("faults[%d].%s", i, f)
			for j := 0; !s.stopped; {
				n, err := s.best.doc.Len(path)
				if err != nil || n <= 1 || j >= n {
					break
				}
				name, _ := s.best.doc.Value(fmt.Sprintf("%s[%d]", path, j))
				d := s.edit(func(d *scenario.Doc) error { return d.Delete(fmt.Sprintf("%s[%d]", path, j)) })
				if d != nil && s.try(fmt.Sprintf("%s without %s", path, name), d) {
					changed = true
					continue
				}
				j++
			}
		}
	}
	return changed
}

// durationFields are the attributes of faults that shortening lowers: how
// long a fault lasts and how strong it is.
var durationFields = []string{"duration", "restart_after", "latency", "delta", "jitter"}

// shortenValues lowers each fault's durations to the smallest round value
// that still fails.
func shortenValues(s *search) bool {
	changed := false
	for i := 0; i < s.faultCount() && !s.stopped; i++ {
		for _, f := range durationFields {
			path := fmt.Sprintf("faults[%d].%s", i, f)
			if s.shorten(path) {
				changed = true
			}
		}
	}
	return changed
}

// shortenRun shortens the run itself (the scenario's duration).
func shortenRun(s *search) bool { return s.shorten("duration") }

// shorten bisects the round values below the duration at path.
func (s *search) shorten(path string) bool {
	v, err := s.best.doc.Value(path)
	if err != nil {
		return false
	}
	d, err := time.ParseDuration(v)
	if err != nil || d == 0 {
		return false
	}
	sign := time.Duration(1)
	if d < 0 {
		sign, d = -1, -d
	}
	var vals []string
	for _, r := range roundBelow(d) {
		vals = append(vals, (sign * r).String())
	}
	return s.smallest(path, vals)
}

// roundBelow lists the round durations smaller than d, ascending: every
// digit 1–9 times a power of ten, from 1 ms.
func roundBelow(d time.Duration) []time.Duration {
	var out []time.Duration
	for p := time.Millisecond; p < d && p <= math.MaxInt64/10; p *= 10 {
		for k := time.Duration(1); k <= 9; k++ {
			if v := k * p; v < d {
				out = append(out, v)
			}
		}
	}
	return out
}

// grids are the steps times are rounded to, coarsest first.
var grids = []time.Duration{10 * time.Second, 5 * time.Second, time.Second, 500 * time.Millisecond,
	100 * time.Millisecond, 10 * time.Millisecond, time.Millisecond}

// roundTimes moves each fault's time (at, or delay after its event) to
// the coarsest round value that still fails.
func roundTimes(s *search) bool {
	changed := false
	for i := 0; i < s.faultCount() && !s.stopped; i++ {
		for _, f := range []string{"at", "delay"} {
			path := fmt.Sprintf("faults[%d].%s", i, f)
			v, err := s.best.doc.Value(path)
			if err != nil {
				continue
			}
			d, err := time.ParseDuration(v)
			if err != nil {
				continue
			}
			for _, g := range grids {
				r := d.Round(g)
				if r == d || s.stopped {
					break // on this grid already, and on every finer one
				}
				nd := s.edit(func(doc *scenario.Doc) error { return doc.Set(path, r.String()) })
				if nd != nil && s.try(fmt.Sprintf("%s %s → %s", path, d, r), nd) {
					changed = true
					break
				}
			}
		}
	}
	return changed
}

// require makes optional faults (a random nemesis's, written out) plain
// ones, when the schedule still fails with them required to fire.
func require(s *search) bool {
	changed := false
	for i := 0; i < s.faultCount() && !s.stopped; i++ {
		path := fmt.Sprintf("faults[%d].optional", i)
		if v, err := s.best.doc.Value(path); err != nil || v != "true" {
			continue
		}
		d := s.edit(func(d *scenario.Doc) error { return d.Delete(path) })
		if d != nil && s.try(fmt.Sprintf("faults[%d] required to fire", i), d) {
			changed = true
		}
	}
	return changed
}
