package clients

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
)

// loadingErr is a node's -LOADING error reply, as go-redis returns it.
type loadingErr struct{}

func (loadingErr) Error() string { return "LOADING Redis is loading the dataset in memory" }
func (loadingErr) RedisError()   {}

// fakeNode answers every SET NX with granted or err, and every script
// (the unlock) with 1.
type fakeNode struct {
	redis.Cmdable
	granted bool
	err     error
}

func (n fakeNode) SetNX(ctx context.Context, _ string, _ any, _ time.Duration) *redis.BoolCmd {
	c := redis.NewBoolCmd(ctx)
	c.SetVal(n.granted)
	c.SetErr(n.err)
	return c
}

func (n fakeNode) EvalSha(ctx context.Context, _ string, _ []string, _ ...any) *redis.Cmd {
	c := redis.NewCmd(ctx)
	c.SetVal(int64(1))
	return c
}

// TestARedlockNodeLoadingItsDataGrantsNothing: a node that answers
// -LOADING ran no SET: Redlock counts it as not granting, not as a node
// whose SET may have run, so an acquire short of its quorum by such nodes
// is a definite refusal, not an unknown outcome (a fresh reader, issue
// 27: "no definite answer" of a refusal).
func TestARedlockNodeLoadingItsDataGrantsNothing(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		notGranted bool
	}{
		{"two nodes loading their data refused the SET: not acquired", loadingErr{}, true},
		{"two nodes that did not answer may hold the key: unknown", errors.New("i/o timeout"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes := []lock.Node{{Name: "n1", Cmd: fakeNode{granted: true}}, {Name: "n2", Cmd: fakeNode{err: tt.err}}, {Name: "n3", Cmd: fakeNode{err: tt.err}}}
			r := &redlock{name: "redlock", checkValidity: true}
			r.cfg.Nodes, r.cfg.TTL, r.cfg.Rand, r.cfg.Clock = nodes, 10*time.Second, rand.New(rand.NewPCG(1, 2)), lock.SystemClock{}
			_, err := r.Acquire(context.Background(), "k")
			if err == nil {
				t.Fatal("acquire granted")
			}
			if got := errors.Is(err, ErrNotAcquired); got != tt.notGranted {
				t.Errorf("errors.Is(%v, ErrNotAcquired) = %v, want %v", err, got, tt.notGranted)
			}
			if tt.notGranted && strings.Contains(err.Error(), "unknown") {
				t.Errorf("a refusal told as unknown: %v", err)
			}
		})
	}
}
