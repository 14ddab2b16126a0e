package workload

import "testing"

// TestARunJobKeyNamesItsFireTime: the report reads a fire's scheduled time
// from its run-job key; a key that names no fire gives none.
func TestARunJobKeyNamesItsFireTime(t *testing.T) {
	for _, c := range []struct {
		key  string
		k    int
		isOK bool
	}{
		{"job@1", 1, true},
		{"job@12", 12, true},
		{"job@", 0, false},
		{"job@2x", 0, false},
		{"invoice-1", 0, false},
	} {
		t.Run(c.key+" names fire "+map[bool]string{true: "a time", false: "none"}[c.isOK], func(t *testing.T) {
			k, ok := FireOf(c.key)
			if ok != c.isOK || (ok && k != c.k) {
				t.Errorf("FireOf(%q) = %d, %v; want %d, %v", c.key, k, ok, c.k, c.isOK)
			}
		})
	}
}
