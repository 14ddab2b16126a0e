package runner

import (
	"context"
	"sync/atomic"
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
		want bool
	}{
		{"a slow SET is a stall", redis.NewStatusCmd(context.Background(), "set", "k", "v"), slow, true},
		{"a WAIT answered within its timeout is no stall, however slow", redis.NewIntCmd(context.Background(), "wait", 1, 1500), 1400 * time.Millisecond, false},
		{"a WAIT answered a stall's length after its timeout is a stall", redis.NewIntCmd(context.Background(), "wait", 1, 100), 100*time.Millisecond + slow, true},
		{"a WAIT without a timeout is never a slow answer", redis.NewIntCmd(context.Background(), "wait", 1, 0), 10 * time.Second, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := history.NewRecorder(time.Now().Add(-time.Minute))
			var sink atomic.Pointer[stallSink]
			sink.Store(&stallSink{rec: rec, log: rec.Log()})
			h := stallHook{sink: &sink, client: "w1", node: "n1"}
			h.record(context.Background(), time.Now().Add(-c.took), nil, c.cmd.Name(), keyOf(c.cmd), blocksFor(c.cmd))
			got := false
			for _, op := range rec.Ops() {
				got = got || op.F == history.Stalled
			}
			if got != c.want {
				t.Fatalf("recorded a stall: %v, want %v", got, c.want)
			}
		})
	}
}
