package chart

import "testing"

// Issue 27 (a fresh reader, cache-rebuild-waste seed 8): the two-holders
// row began at "30.3" (30.3496 s) and the duplicate-work row at "30.4"
// (30.3504 s) while the checker's words of both said "from t=30.350s". A
// time is rounded once to the millisecond the checker quotes, and that to
// the tenth. A fourth reader (node-clock-rate-drift seed 47): w2's charge
// at 7.6495 s, quoted 7.650, was written "t=7.7s", which is false of the
// raw value: a millisecond halfway between two tenths, with the raw
// value below it, is written to the hundredth, true of both.
func TestATimeIsRoundedToTheTenthFromTheMillisecondTheCheckerQuotes(t *testing.T) {
	tests := []struct {
		name string
		s    float64
		want string
	}{
		{"30.3496 s, quoted 30.350, is 30.35", 30.3496232, "30.35"},
		{"30.3504 s, quoted 30.350, is 30.4", 30.3504064, "30.4"},
		{"30.35 s, its float a hair below, is 30.4", 30.35, "30.4"},
		{"7.64952 s, quoted 7.650, is 7.65, not 7.7", 7.64952, "7.65"},
		{"30.3506 s, quoted 30.351, is 30.4", 30.3506, "30.4"},
		{"30.349 s is 30.3", 30.349, "30.3"},
		{"0.05 s is 0.1", 0.05, "0.1"},
		{"0 s is 0.0", 0, "0.0"},
		{"-0.25 s is -0.3", -0.25, "-0.3"},
		{"-0.2496 s is -0.25", -0.2496, "-0.25"},
		{"-0.04 s is 0.0", -0.04, "0.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Tenths(tt.s); got != tt.want {
				t.Errorf("Tenths(%v) = %q, want %q", tt.s, got, tt.want)
			}
		})
	}
}
