// Package tick runs a step on a wall-clock ticker until its context ends:
// the loop of a library lock's refresher (clients) and of a node clock
// running fast or slow (faults).
package tick

import (
	"context"
	"time"
)

// Every calls step every period of wall time, the first call one period
// after it begins, until ctx is done or step returns false. A step that
// takes longer than period delays the next call (time.Ticker drops the
// ticks it missed); it never runs two at once. period must be positive.
func Every(ctx context.Context, period time.Duration, step func() bool) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if !step() {
			return
		}
	}
}
