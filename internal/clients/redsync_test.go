package clients

import (
	"context"
	"errors"
	"testing"

	"github.com/go-redsync/redsync/v4"
)

// TestRedsyncErrorSplit checks how redsync's errors map to the
// definite/unknown split on five nodes (quorum 3).
func TestRedsyncErrorSplit(t *testing.T) {
	r := &redsyncLocker{names: []string{"n1", "n2", "n3", "n4", "n5"}}
	netErr := errors.New("i/o timeout")
	join := func(taken, unknown int) error {
		var err error
		for i := range taken {
			err = errors.Join(err, &redsync.ErrNodeTaken{Node: i})
		}
		for i := range unknown {
			err = errors.Join(err, &redsync.RedisError{Node: taken + i, Err: netErr})
		}
		return err
	}
	tests := []struct {
		name     string
		err      error
		definite bool
	}{
		{"ErrFailed (quorum too late, or every try refused) is definite", redsync.ErrFailed, true},
		{"ErrTaken (a quorum holds another value) is definite", &redsync.ErrTaken{Nodes: []int{0, 1, 2}}, true},
		{"three nodes taken and two silent is definite: no quorum is possible", join(3, 2), true},
		{"two nodes taken and three silent is unknown: the silent three may have granted", join(2, 3), false},
		{"five silent nodes are unknown", join(0, 5), false},
		{"an error redsync did not produce is unknown", errors.New("boom"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := r.acquireErr(context.Background(), tt.err)
			if errors.Is(got, ErrNotAcquired) != tt.definite {
				t.Errorf("acquireErr(%v) = %v, definite want %v", tt.err, got, tt.definite)
			}
		})
	}
	t.Run("ErrFailed after the context ended between tries is unknown", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if got := r.acquireErr(ctx, redsync.ErrFailed); errors.Is(got, ErrNotAcquired) {
			t.Errorf("got %v, want unknown", got)
		}
	})
}
