package lockkit_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
	"github.com/locksim/locksim/lock/lockkit"
)

// replyErr is a Redis error reply, as go-redis returns one.
type replyErr string

func (e replyErr) Error() string { return string(e) }
func (replyErr) RedisError()     {}

const loading = replyErr("LOADING Redis is loading the dataset in memory")

// answering is a node whose every SET NX gets err.
type answering struct {
	redis.Cmdable
	err error
}

func (n answering) SetNX(ctx context.Context, _ string, _ any, _ time.Duration) *redis.BoolCmd {
	c := redis.NewBoolCmd(ctx)
	c.SetErr(n.err)
	return c
}

func TestNotRunIsOnlyAReplyOfANodeThatRanNothing(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"a LOADING reply: the node is loading its dataset and ran nothing", loading, true},
		{"a LOADING reply wrapped with context", fmt.Errorf("set nx on n1: %w", loading), true},
		{"another error reply ran the command or may have", replyErr("ERR wrong number of arguments"), false},
		{"a connection error is no answer at all", errors.New("read tcp: i/o timeout"), false},
		{"no error", nil, false},
		{"a text that only mentions LOADING is no reply", errors.New("LOADING"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lockkit.NotRun(tt.err); got != tt.want {
				t.Errorf("NotRun(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}

func TestASafeAcquireANodeRefusedWhileLoadingIsDefinitelyNotAcquired(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		notGranted bool
	}{
		{"a LOADING reply is a definite refusal", loading, true},
		{"a timeout stays an unknown outcome", errors.New("read tcp: i/o timeout"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := lockkit.NewSafe("", lock.Config{Nodes: []lock.Node{{Name: "n1", Cmd: answering{err: tt.err}}},
				TTL: time.Second, Rand: rand.New(rand.NewPCG(1, 2))})
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.Acquire(context.Background(), "k")
			if err == nil {
				t.Fatal("acquire granted")
			}
			if got := errors.Is(err, lock.ErrNotAcquired); got != tt.notGranted {
				t.Errorf("errors.Is(%v, ErrNotAcquired) = %v, want %v", err, got, tt.notGranted)
			}
		})
	}
}
