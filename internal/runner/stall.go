package runner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/history"
)

// stallHook records, as history.Stalled operations, the commands (and
// dials) of one client's connection to one node that got no answer within
// their deadline or took history.StallNS or more. A stall that no fault explains tells the checker the
// machine was too busy for the run's compressed time (checker coverage):
// Redlock's per-node timeout of tens of ms is the tightest race of a run,
// and a loaded machine loses it without any harness timer firing late.
type stallHook struct {
	sink         *atomic.Pointer[stallSink] // nil until the run's clock starts
	client, node string
}

// stallSink is where stalls are recorded: the run's recorder and one log;
// run, once the workload starts, is its context.
type stallSink struct {
	rec *history.Recorder
	log *history.Log
	run context.Context
}

func (h stallHook) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		start := time.Now()
		c, err := next(ctx, network, addr)
		h.record(ctx, start, err, "dial", "", 0)
		return c, err
	}
}

func (h stallHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		start := time.Now()
		err := next(ctx, cmd)
		h.record(ctx, start, err, cmd.Name(), keyOf(cmd), blocksFor(cmd))
		return err
	}
}

func (h stallHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		start := time.Now()
		err := next(ctx, cmds)
		if len(cmds) > 0 {
			h.record(ctx, start, err, cmds[0].Name(), keyOf(cmds[0]), blocksFor(cmds[0]))
		}
		return err
	}
}

// record records a stall of a command that took longer than history.StallNS
// beyond by, the time it may wait by design (WAIT's timeout), or got no
// answer within its deadline.
func (h stallHook) record(ctx context.Context, start time.Time, err error, name, key string, by time.Duration) {
	sk := h.sink.Load()
	if sk == nil {
		return
	}
	took := time.Since(start)
	t := history.OK
	switch {
	case timedOut(err) && cutByRunEnd(ctx, sk.run):
		// Its deadline was the run's own end, reached while it waited:
		// not a machine too busy to answer it.
		return
	case timedOut(err) && expiredBefore(ctx, start):
		// Its caller's deadline had passed before it was sent (a Redlock
		// attempt out of time for its last nodes): nothing waited.
		return
	case timedOut(err):
		t = history.Info
	case took < by || int64(took-by) < history.StallNS:
		return
	case err != nil && !nodeAnswered(err):
		// It ended without an answer from the node (its connection was
		// reset or closed while it waited): no answer, as a deadline.
		t = history.Info
	}
	inv := max(int64(start.Sub(sk.rec.Start())), 0)
	cmd := []string{strings.ToLower(name)}
	if key != "" {
		cmd = append(cmd, key)
	}
	sk.log.Span(history.NodeProcess, history.Stalled, h.client, key, history.Value{Node: h.node, Cmd: cmd}, inv, inv+int64(took), t)
}

// cutByRunEnd reports whether a command's context ran out at the run's own
// deadline: it inherited it (a deadline equal to the run's) and the run is
// over. A command bounded by a timeout of its own is not.
//
// The run is over once its deadline has passed by the clock: a context's
// deadline timer fires asynchronously, so a command's context that shares
// the deadline can end before the run's own reports it (a sweep of
// fencing-random-nemesis lost 8 runs in 200 to that race).
func cutByRunEnd(cmd, run context.Context) bool {
	if cmd == nil || run == nil {
		return false
	}
	rd, ok := run.Deadline()
	cd, ok2 := cmd.Deadline()
	over := run.Err() != nil || (ok && !time.Now().Before(rd))
	return over && ok && ok2 && cd.Equal(rd)
}

// expiredBefore reports whether ctx's deadline was already past at start.
func expiredBefore(ctx context.Context, start time.Time) bool {
	d, ok := ctx.Deadline()
	return ok && !d.After(start)
}

// nodeAnswered reports whether err is the node's own answer (a Redis error
// reply, or Nil), not a failure of the connection.
func nodeAnswered(err error) bool {
	var re redis.Error
	return errors.Is(err, redis.Nil) || errors.As(err, &re)
}

// timedOut reports whether err is a deadline that passed (the context's or
// the connection's), not a refusal or a closed connection.
func timedOut(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// blocksFor is how long cmd may wait for its answer by design: WAIT
// numreplicas timeout blocks until numreplicas replicas acknowledge or
// timeout ms pass (redis.io, WAIT), so a slow answer within its timeout is
// the command's meaning, not a machine too busy to answer (after a
// failover the new master's replicas reconnect first). 0 for every other
// command; for WAIT 0 (no timeout) for ever: only a WAIT that outlived its
// client's read deadline is then recorded (as unanswered).
func blocksFor(cmd redis.Cmder) time.Duration {
	args := cmd.Args()
	if !strings.EqualFold(cmd.Name(), "wait") || len(args) < 3 {
		return 0
	}
	ms, err := strconv.ParseInt(fmt.Sprint(args[2]), 10, 64)
	switch {
	case err != nil:
		return 0
	case ms == 0:
		return math.MaxInt64
	}
	return time.Duration(ms) * time.Millisecond
}

// keyOf is the first key of a command: its first argument after the name
// (EVAL and EVALSHA: after the script and the key count).
func keyOf(cmd redis.Cmder) string {
	args := cmd.Args()
	at := 1
	if n := strings.ToLower(cmd.Name()); n == "eval" || n == "evalsha" {
		at = 3
	}
	if len(args) > at {
		if s, ok := args[at].(string); ok {
			return s
		}
	}
	return ""
}
