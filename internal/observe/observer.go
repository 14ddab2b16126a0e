// Package observe records what each Redis node really executed: one direct
// connection per node (not through any client's proxy) runs MONITOR, and
// every command the node ran becomes a node event of the run's history
// (history.NodeCmd), with the node's own timestamp mapped onto the run's
// clock and the client that sent it.
//
// Senders are named by the CLIENT SETNAME of their connections
// (ClientName: "locksim:<client>:<node>"), looked up through CLIENT LIST
// when a new address appears; a command whose sender cannot be told is
// recorded with an empty client. Commands a Lua script runs appear in
// MONITOR as "[0 lua]" lines right after the EVAL that ran them (checked on
// Redis 7.0.15) and are attributed to that EVAL's sender. MONITOR costs
// the node throughput; scenarios turn observation off with `observe: false`.
package observe

import (
	"bufio"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/history"
)

// namePrefix starts every connection name locksim sets.
const namePrefix = "locksim:"

// ClientName is the connection name of client's connections to node: the
// observer tells the sender of each command from it.
func ClientName(client, node string) string { return namePrefix + client + ":" + node }

// AdminName is the connection name of the harness's own direct
// connections (FLUSHALL, clock shifts, janitors' deletes).
const AdminName = namePrefix + history.AdminClient

// observerName names the observer's own lookup connection; its commands
// are not recorded.
const observerName = namePrefix + "observer"

// Observer watches one node.
type Observer struct {
	node  string
	addr  string
	log   *history.Log
	start time.Time
	slog  *slog.Logger
	admin *redis.Client

	mu    sync.Mutex
	names map[string]string // addr → client ("" while unknown)
	conn  net.Conn
	drain map[string]chan struct{}
	dumps map[string]chan int64 // dump marker → its node timestamp (dumpHeld)
	err   error

	cancel context.CancelFunc
	done   chan struct{}

	// lastAt is the last stamp at gave (the read goroutine's own).
	lastAt int64
	// begin starts the read goroutine (Begin); nil once it has, or
	// once Stop came first.
	begin func(log *history.Log, start time.Time)
}

// Start connects to the node at addr (directly, 127.0.0.1) and runs
// MONITOR on it; it returns once MONITOR is running, so every command sent
// after Start returns is seen. It records nothing until Begin: a run
// starts its observers before its clock, so that connecting to its nodes
// (two connections and three round trips a node: 40 to 90 ms of wall time
// for five nodes as a catalogue's runs start together) is set-up, not
// time its clients start late by.
func Start(ctx context.Context, node, addr string, lg *slog.Logger) (*Observer, error) {
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	o := &Observer{node: node, addr: addr, slog: lg, names: map[string]string{},
		drain: map[string]chan struct{}{}, dumps: map[string]chan int64{}, done: make(chan struct{})}
	o.admin = redis.NewClient(&redis.Options{Addr: addr, Protocol: 2, DisableIdentity: true, ClientName: observerName,
		MaxRetries: -1, PoolSize: 1})
	conn, br, err := o.dial(ctx)
	if err != nil {
		_ = o.admin.Close()
		return nil, fmt.Errorf("observe node %s: %w", node, err)
	}
	// Connections opened before MONITOR ran (a client's warm-up) announced
	// their names where no observer saw them: learn them now, while they are
	// open, not when a command of theirs is read (a connection a timeout
	// closed would be gone by then). Later connections name themselves in
	// the stream (Dialer).
	o.learnNames(ctx)
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	o.cancel = cancel
	o.begin = func(log *history.Log, start time.Time) {
		o.log, o.start = log, start
		go o.run(rctx, conn, br)
	}
	return o, nil
}

// Begin records, from now on, what the node executes into log, times
// relative to start (the run's time zero); a command the node ran between
// Start and start is recorded at 0. Only the first call counts.
func (o *Observer) Begin(log *history.Log, start time.Time) {
	o.mu.Lock()
	begin := o.begin
	o.begin = nil
	o.mu.Unlock()
	if begin != nil {
		begin(log, start)
	}
}

// dial opens the MONITOR connection and waits for its +OK.
func (o *Observer) dial(ctx context.Context) (net.Conn, *bufio.Reader, error) {
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	conn, err := d.DialContext(dctx, "tcp", o.addr)
	if err != nil {
		return nil, nil, err
	}
	_ = conn.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := conn.Write([]byte("CLIENT SETNAME " + namePrefix + "monitor\r\nMONITOR\r\n")); err != nil {
		conn.Close()
		return nil, nil, err
	}
	br := bufio.NewReaderSize(conn, 256<<10)
	for range 2 {
		line, err := br.ReadString('\n')
		if err != nil {
			conn.Close()
			return nil, nil, err
		}
		if !strings.HasPrefix(line, "+OK") {
			conn.Close()
			return nil, nil, fmt.Errorf("MONITOR refused: %s", strings.TrimSpace(line))
		}
	}
	_ = conn.SetDeadline(time.Time{})
	o.mu.Lock()
	o.conn = conn
	o.mu.Unlock()
	return conn, br, nil
}

// run reads the MONITOR stream until ctx ends, reconnecting after the node
// went away (a crash); the time it was not watching becomes an
// Unobserved operation.
func (o *Observer) run(ctx context.Context, conn net.Conn, br *bufio.Reader) {
	defer close(o.done)
	last := "" // sender of the last command outside a script
	for {
		err := o.read(ctx, br, &last)
		conn.Close()
		if ctx.Err() != nil {
			return
		}
		lost := o.now()
		o.slog.Debug("observer lost its node; reconnecting", "node", o.node, "err", err)
		for {
			t := time.NewTimer(10 * time.Millisecond)
			select {
			case <-ctx.Done():
				t.Stop()
				o.log.Span(history.NodeProcess, history.Unobserved, "", "", history.Value{Node: o.node}, lost, o.now(), history.OK)
				return
			case <-t.C:
			}
			c, b, derr := o.dial(ctx)
			if derr == nil {
				conn, br = c, b
				break
			}
		}
		o.log.Span(history.NodeProcess, history.Unobserved, "", "", history.Value{Node: o.node}, lost, o.now(), history.OK)
		last = ""
		go o.dumpHeld(ctx)
	}
}

// dumpScript lists every string key with its value and PTTL (ms), in one
// atomic step; its first line carries a marker the MONITOR stream is
// searched for (see held).
const dumpScript = `-- %s
local out = {}
for _, k in ipairs(redis.call('KEYS', '*')) do
  if redis.call('TYPE', k).ok == 'string' then
    out[#out+1] = k
    out[#out+1] = redis.call('GET', k)
    out[#out+1] = redis.call('PTTL', k)
  end
end
return out`

// dumpPatience bounds how long an observer back at its node keeps trying
// to read what the node came back with (wall time).
const dumpPatience = 10 * time.Second

// dumpPrefix marks the dump script's EVAL in the MONITOR stream.
const dumpPrefix = "locksim-dump-"

// dumpHeld records what the node holds right after the observer came back
// to it (history.NodeHeld): the keys it restarted with. The event takes
// the node's own timestamp of the script, read from the MONITOR stream.
func (o *Observer) dumpHeld(ctx context.Context) {
	drainSeq.Lock()
	drainSeq.n++
	mark := dumpPrefix + strconv.Itoa(drainSeq.n)
	drainSeq.Unlock()
	at := make(chan int64, 1)
	o.mu.Lock()
	o.dumps[mark] = at
	o.mu.Unlock()
	defer func() {
		o.mu.Lock()
		delete(o.dumps, mark)
		o.mu.Unlock()
	}()
	// A node that accepts connections may still be loading its dataset
	// (LOADING), and a busy machine may answer late: try again until the
	// dump is read, for up to dumpPatience.
	dctx, cancel := context.WithTimeout(ctx, dumpPatience)
	defer cancel()
	var res []any
	for {
		var err error
		res, err = o.admin.Eval(dctx, fmt.Sprintf(dumpScript, mark), nil).Slice()
		if err == nil {
			break
		}
		if dctx.Err() != nil {
			o.slog.Debug("observer could not read what the node came back with", "node", o.node, "err", err)
			return
		}
		select {
		case <-dctx.Done():
		case <-time.After(20 * time.Millisecond):
		}
	}
	held := []history.HeldKey{}
	for i := 0; i+2 < len(res); i += 3 {
		k, _ := res[i].(string)
		v, _ := res[i+1].(string)
		ms, _ := res[i+2].(int64)
		ttl := int64(-1)
		if ms >= 0 {
			ttl = ms * int64(time.Millisecond)
		}
		held = append(held, history.HeldKey{Key: k, Value: v, TTL: ttl})
	}
	select {
	case t := <-at:
		o.log.Span(history.NodeProcess, history.NodeHeld, "", "", history.Value{Node: o.node, Held: held}, t, t, history.OK)
	case <-dctx.Done():
		o.slog.Debug("observer did not see its own dump in the stream", "node", o.node)
	}
}

func (o *Observer) now() int64 { return max(int64(time.Since(o.start)), 0) }

// at maps a node's MONITOR stamp (its wall clock) onto the run's clock
// (monotonic, ns since start): now on the run's clock less how long ago
// the stamp was on the wall clock. Read as wall less start, a stamp would
// drift from the clients' times wherever the host slews its wall clock
// (0.5 % found on one host: 50 ms of scenario time by t=10s at time
// scale 20); read against now, the error is that rate times the line's
// delivery lag.
//
// The node runs its commands in the order its stream gives them, and so
// the history keeps them: a stamp is never earlier than the one before
// it. Mapped as each line is read, two stamps µs apart could cross (a
// release script's DEL stamped 17 µs after the EVALSHA of the acquire
// that ran after it, on a loaded machine: a false mutex overlap of 8 µs,
// sweep seed 1056). Only the read goroutine calls it.
func (o *Observer) at(stamp time.Time) int64 {
	now := time.Now()
	t := max(int64(now.Sub(o.start)-now.Round(0).Sub(stamp)), 0, o.lastAt)
	o.lastAt = t
	return t
}

// read records lines until the connection fails.
func (o *Observer) read(ctx context.Context, br *bufio.Reader, last *string) error {
	for {
		s, err := br.ReadString('\n')
		if err != nil {
			return err
		}
		s = strings.TrimRight(s, "\r\n")
		if !strings.HasPrefix(s, "+") {
			continue
		}
		l, err := ParseLine(s[1:])
		if err != nil || len(l.Args) == 0 {
			o.slog.Debug("observer skipped a line", "node", o.node, "err", err)
			continue
		}
		client := *last
		if !l.Lua() {
			if len(l.Args) == 3 && strings.EqualFold(l.Args[0], "client") && strings.EqualFold(l.Args[1], "setname") {
				// A new connection names itself: take the name from here, as
				// CLIENT LIST may not show it yet.
				o.mu.Lock()
				o.names[l.Addr] = clientOf(l.Args[2])
				o.mu.Unlock()
			}
			client = o.sender(ctx, l.Addr)
			*last = client
		}
		if client == observerMark {
			if !o.drained(l) { // our own lookups and drain markers
				o.dumped(l)
			}
			continue
		}
		t := o.at(l.Time)
		args := compact(l.Args)
		o.log.Span(history.NodeProcess, history.NodeCmd, client, KeyOf(args), history.Value{Node: o.node, Cmd: args, Lua: l.Lua()}, t, t, history.OK)
	}
}

// observerMark stands for the observer's own connections.
const observerMark = "\x00observer"

// sender names the client behind addr, asking CLIENT LIST on a new one.
func (o *Observer) sender(ctx context.Context, addr string) string {
	o.mu.Lock()
	name, ok := o.names[addr]
	o.mu.Unlock()
	if ok {
		return name
	}
	o.learnNames(ctx)
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.names[addr]; !ok {
		o.names[addr] = "" // gone before we asked: unattributed
	}
	return o.names[addr]
}

// learnNames records the name of every connection CLIENT LIST shows.
func (o *Observer) learnNames(ctx context.Context) {
	lctx, cancel := context.WithTimeout(ctx, time.Second)
	list, err := o.admin.ClientList(lctx).Result()
	cancel()
	if err != nil {
		o.slog.Debug("observer could not list the node's connections", "node", o.node, "err", err)
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, line := range strings.Split(list, "\n") {
		if a, n := field(line, "addr="), field(line, "name="); a != "" {
			o.names[a] = clientOf(n)
		}
	}
}

// clientOf maps a connection name to the client it stands for.
func clientOf(name string) string {
	switch {
	case name == observerName || name == namePrefix+"monitor":
		return observerMark
	case !strings.HasPrefix(name, namePrefix):
		return ""
	}
	c, _, _ := strings.Cut(strings.TrimPrefix(name, namePrefix), ":")
	return c
}

// field reads "key=value" out of a CLIENT LIST line.
func field(line, key string) string {
	for _, f := range strings.Fields(line) {
		if v, ok := strings.CutPrefix(f, key); ok {
			return v
		}
	}
	return ""
}

// compact shortens a script's source to its SHA1 (the account replays what
// the script ran, from the lines after it).
func compact(args []string) []string {
	if len(args) > 1 && strings.EqualFold(args[0], "eval") {
		sum := sha1.Sum([]byte(args[1]))
		out := append([]string(nil), args...)
		out[1] = "sha1:" + hex.EncodeToString(sum[:])
		return out
	}
	return args
}

// drainPrefix marks the ECHO a Drain sends.
const drainPrefix = "locksim-drain-"

// drained reports (and signals) a drain marker.
func (o *Observer) drained(l Line) bool {
	if len(l.Args) != 2 || !strings.EqualFold(l.Args[0], "echo") || !strings.HasPrefix(l.Args[1], drainPrefix) {
		return false
	}
	o.mu.Lock()
	if ch, ok := o.drain[l.Args[1]]; ok {
		close(ch)
		delete(o.drain, l.Args[1])
	}
	o.mu.Unlock()
	return true
}

// dumped hands the node's timestamp of a dump script's EVAL to the
// dumpHeld waiting for it.
func (o *Observer) dumped(l Line) {
	if len(l.Args) < 2 || !strings.EqualFold(l.Args[0], "eval") {
		return
	}
	first, _, _ := strings.Cut(l.Args[1], "\n")
	mark, ok := strings.CutPrefix(first, "-- ")
	if !ok || !strings.HasPrefix(mark, dumpPrefix) {
		return
	}
	o.mu.Lock()
	ch := o.dumps[mark]
	o.mu.Unlock()
	if ch != nil {
		select {
		case ch <- o.at(l.Time):
		default:
		}
	}
}

var drainSeq struct {
	sync.Mutex
	n int
}

// Drain waits until every command the node executed before Drain was
// called has been recorded: it sends a marker and waits to see it.
func (o *Observer) Drain(ctx context.Context) error {
	drainSeq.Lock()
	drainSeq.n++
	mark := drainPrefix + strconv.Itoa(drainSeq.n)
	drainSeq.Unlock()
	ch := make(chan struct{})
	o.mu.Lock()
	o.drain[mark] = ch
	o.mu.Unlock()
	if err := o.admin.Echo(ctx, mark).Err(); err != nil {
		return fmt.Errorf("drain observer of %s: %w", o.node, err)
	}
	select {
	case <-ch:
		return nil
	case <-o.done:
		return errors.New("observer of " + o.node + " stopped")
	case <-ctx.Done():
		return fmt.Errorf("drain observer of %s: %w", o.node, ctx.Err())
	}
}

// Stop ends the observation and closes its connections.
func (o *Observer) Stop() {
	o.cancel()
	o.mu.Lock()
	if o.conn != nil {
		o.conn.Close()
	}
	if o.begin != nil { // never begun: no read goroutine to wait for
		o.begin = nil
		close(o.done)
	}
	o.mu.Unlock()
	<-o.done
	_ = o.admin.Close()
}

// KeyOf is the first key a command names ("" for a command without one):
// the first argument of a key command, the first key of an EVAL/EVALSHA.
func KeyOf(args []string) string {
	if len(args) < 2 {
		return ""
	}
	switch strings.ToLower(args[0]) {
	case "eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro":
		if len(args) > 3 {
			if n, err := strconv.Atoi(args[2]); err == nil && n > 0 {
				return args[3]
			}
		}
		return ""
	case "ping", "echo", "hello", "client", "info", "flushall", "flushdb", "select", "auth", "config", "command",
		"monitor", "keys", "scan", "dbsize", "time", "multi", "exec", "discard", "script", "debug", "shutdown", "save", "bgsave":
		return ""
	}
	return args[1]
}
