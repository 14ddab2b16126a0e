package runner

import (
	"errors"
	"fmt"
	"testing"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/history"
)

// loadingReply is a node's -LOADING error reply, as go-redis returns it.
type loadingReply struct{}

func (loadingReply) Error() string { return "LOADING Redis is loading the dataset in memory" }
func (loadingReply) RedisError()   {}

// TestAnAcquireANodeRefusedWhileLoadingIsARefusal: a node loading its
// dataset after a restart answers -LOADING and runs nothing: the acquire
// is a definite failure, recorded with why (a fresh reader, issue 27:
// "no definite answer" of a refusal), while an error the node may have
// run the command behind stays an unknown outcome.
func TestAnAcquireANodeRefusedWhileLoadingIsARefusal(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		typ     history.Type
		refusal string
	}{
		{"a LOADING reply to the lock's SET is a refusal while loading",
			fmt.Errorf("%w: set nx on n1: %w", clients.ErrNotAcquired, loadingReply{}), history.Fail, history.RefusalLoading},
		{"a plain refusal has no reason of the lock's own", clients.ErrNotAcquired, history.Fail, ""},
		{"a LOADING reply to a later command of an acquire stays unknown (its SET ran)",
			fmt.Errorf("pexpire on n1 after SETNX: %w", loadingReply{}), history.Info, ""},
		{"a lost connection is an unknown outcome", errors.New("read tcp: connection reset"), history.Info, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := outcome(tt.err); got != tt.typ {
				t.Errorf("outcome %s, want %s", got, tt.typ)
			}
			if got := acquireRefusal(tt.err); got != tt.refusal {
				t.Errorf("refusal %q, want %q", got, tt.refusal)
			}
		})
	}
}
