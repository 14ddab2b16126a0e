package runner

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// TestACommandCutByTheRunsEndIsNoStall checks that a command whose deadline
// was the run's own end (a client still retrying when the duration ran
// out) is not taken for a machine too busy to answer it.
func TestACommandCutByTheRunsEndIsNoStall(t *testing.T) {
	end := time.Now().Add(time.Hour)
	tests := []struct {
		name     string
		deadline time.Time
		err      error
		cut      bool
	}{
		{"a command whose deadline is the run's end is cut by it", end, context.DeadlineExceeded, true},
		{"a command with a deadline of its own before the end stalled", end.Add(-time.Second), context.DeadlineExceeded, false},
		{"a command refused, not timed out, is neither", end, errors.New("connection refused"), false},
		{"a command that was answered is neither", end, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sink atomic.Pointer[stallSink]
			sk := &stallSink{}
			sk.end.Store(end.UnixNano())
			sink.Store(sk)
			ctx, cancel := context.WithDeadline(context.Background(), tt.deadline)
			defer cancel()
			if got := (stallHook{sink: &sink}).cutByRunEnd(ctx, tt.err); got != tt.cut {
				t.Errorf("cutByRunEnd = %v, want %v", got, tt.cut)
			}
		})
	}
}
