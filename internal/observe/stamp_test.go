package observe

import (
	"testing"
	"time"
)

// TestAStampIsNeverEarlierThanTheOneBeforeIt: the node ran its commands
// in its stream's order; a line whose node stamp maps earlier than the
// line before it (sweep seed 1056: 17 µs) is recorded at the earlier
// line's time, never before it.
func TestAStampIsNeverEarlierThanTheOneBeforeIt(t *testing.T) {
	start := time.Now()
	o := &Observer{start: start}
	stamp := time.Now()
	first := o.at(stamp)
	for _, back := range []time.Duration{17 * time.Microsecond, time.Millisecond} {
		if got := o.at(stamp.Add(-back)); got < first {
			t.Errorf("a line stamped %v before the last was recorded at %d ns, before it (%d ns)", back, got, first)
		}
	}
	if later := o.at(stamp.Add(time.Second)); later <= first {
		t.Errorf("a later stamp was recorded at %d ns, not after %d ns", later, first)
	}
}
