package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/history/historytest"
)

// redlockClockRate is redlockClockJump, checked, with its clock-jump step
// (step 3, the step the checker's cause names) made a clock rate of 1.5×
// on n3: the account's fact stays "n3's clock fault ended w1's key", and
// the words must follow the step's kind.
func redlockClockRate() Input {
	in := redlockClockJump()
	ops := slices.Clone(in.History.Ops)
	for i, op := range ops {
		if op.F == history.Fault && op.Value.Fault != nil && op.Value.Fault.ID == 3 {
			st := historytest.Step("clock-rate", "n3")
			st.ID, st.Rate, st.UntilEnd = 3, 1.5, true
			ops[i].Value = historytest.Value(st)
		}
	}
	in.History.Ops = ops
	in.Account = nil // the jump's; the page's model derives the faults from the ops
	return in
}

// TestAClockThatRanFastIsNotToldAsAJump: a node clock fault that is a
// rate (1.5×) is told as a clock that ran fast, never as a jump (issue
// 34: lesson 47 said "when n3's clock jumped" of node-clock-rate).
func TestAClockThatRanFastIsNotToldAsAJump(t *testing.T) {
	for _, c := range []struct {
		name string
		in   Input
		want string
	}{
		{"a clock rate is told as a clock that ran fast", redlockClockRate(), "when n3's clock, running fast, expired its key early"},
		{"a clock jump is told as a jump", redlockClockJump(), "when n3's clock jumped"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if h := Headline(c.in); !strings.Contains(h, c.want) {
				t.Errorf("Headline = %q, want it to contain %q", h, c.want)
			}
		})
	}
}

func TestAClockRateKeepsEveryDigitThePlanGave(t *testing.T) {
	for _, tt := range []struct {
		rate float64
		want string
	}{{1.005, "1.005"}, {0.995, "0.995"}, {1.5, "1.5"}, {2, "2"}, {0.9, "0.9"}} {
		t.Run("a rate of "+tt.want+" is told as "+tt.want, func(t *testing.T) {
			if got := fmtRate(tt.rate).in(English); got != tt.want {
				t.Errorf("fmtRate(%v) = %q", tt.rate, got)
			}
		})
	}
}

// A clock that only ran fast sets no offset: the legend says what the
// drawing shows of it (a fresh reader, stop 56).
func TestTheLegendOfAClockRateSaysItRanAtAnotherRate(t *testing.T) {
	for _, c := range []struct {
		name      string
		in        Input
		want, not string
	}{
		{"a clock rate's entry says the clock ran fast or slow", redlockClockRate(), "running fast or slow", "clock offset"},
		{"a clock jump's entry says the clock's offset", redlockClockJump(), "clock offset", "running fast or slow"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := drawingOf(t, c.in)
			if !legendHas(d, c.want) || legendHas(d, c.not) {
				t.Errorf("legend %v: want %q, not %q", d.Legend, c.want, c.not)
			}
		})
	}
}
