package runner

import (
	"context"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/history"
)

func TestStallHookRecords(t *testing.T) {
	slow := time.Duration(history.StallNS) + 50*time.Millisecond
	cases := []struct {
		name string
		cmd  redis.Cmder
		took time.Duration
		err  error
		want bool
		// unanswered: the stall is recorded as no answer (Type Info)
		unanswered bool
	}{
		{"a slow SET is a stall", redis.NewStatusCmd(context.Background(), "set", "k", "v"), slow, nil, true, false},
		{"a SET unanswered within its deadline is a stall with no answer", redis.NewStatusCmd(context.Background(), "set", "k", "v"), 100 * time.Millisecond, context.DeadlineExceeded, true, true},
		{"a slow SET whose connection was reset got no answer", redis.NewStatusCmd(context.Background(), "set", "k", "v"), slow, syscall.ECONNRESET, true, true},
		{"a slow SET on a client closed meanwhile got no answer", redis.NewStatusCmd(context.Background(), "set", "k", "v"), slow, redis.ErrClosed, true, true},
		{"a slow GET answered with nil was answered", redis.NewStringCmd(context.Background(), "get", "k"), slow, redis.Nil, true, false},
		{"a WAIT answered within its timeout is no stall, however slow", redis.NewIntCmd(context.Background(), "wait", 1, 1500), 1400 * time.Millisecond, nil, false, false},
		{"a WAIT answered a stall's length after its timeout is a stall", redis.NewIntCmd(context.Background(), "wait", 1, 100), 100*time.Millisecond + slow, nil, true, false},
		{"a WAIT without a timeout is never a slow answer", redis.NewIntCmd(context.Background(), "wait", 1, 0), 10 * time.Second, nil, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := history.NewRecorder(time.Now().Add(-time.Minute))
			var sink atomic.Pointer[stallSink]
			sink.Store(&stallSink{rec: rec, log: rec.Log()})
			h := stallHook{sink: &sink, client: "w1", node: "n1"}
			h.record(context.Background(), time.Now().Add(-c.took), c.err, c.cmd.Name(), keyOf(c.cmd), blocksFor(c.cmd))
			got, unanswered := false, false
			for _, op := range rec.Ops() {
				if op.F == history.Stalled {
					got, unanswered = true, op.Type == history.Info
				}
			}
			if got != c.want || unanswered != c.unanswered {
				t.Fatalf("recorded a stall: %v (no answer: %v), want %v (no answer: %v)", got, unanswered, c.want, c.unanswered)
			}
		})
	}
}

func TestAStallHookIgnoresACommandSentAfterItsDeadline(t *testing.T) {
	rec := history.NewRecorder(time.Now().Add(-time.Minute))
	var sink atomic.Pointer[stallSink]
	sink.Store(&stallSink{rec: rec, log: rec.Log()})
	h := stallHook{sink: &sink, client: "probe", node: "n5"}
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Millisecond))
	defer cancel()
	// A probe's HELLO on a context already out of time fails at once
	// (redsync-happy: "got no answer within its 0s deadline").
	h.record(ctx, time.Now(), context.DeadlineExceeded, "hello", "", 0)
	for _, op := range rec.Ops() {
		if op.F == history.Stalled {
			t.Fatalf("recorded %+v as a stall", op)
		}
	}
}
