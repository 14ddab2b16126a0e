package history

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Recorder collects operations from many goroutines. Every timestamp it
// takes is time.Since(start) on Go's monotonic clock (true time, wall ns).
//
// It is safe for concurrent use and does not serialise its callers: each
// client records into a [Log] of its own (Recorder.Log), so clients never
// wait on one another's recording; the Recorder's own Begin and Instant
// write to one shared log for everyone else (the nemesis, the probe).
type Recorder struct {
	start  time.Time
	next   atomic.Int64 // order of recording, across logs
	mu     sync.Mutex   // guards logs
	logs   []*Log
	shared *Log
}

// Log is one client's part of a recording. Its methods are safe for
// concurrent use (a client's renewer records into its log too), and they
// contend only with that client's own goroutines.
type Log struct {
	r  *Recorder
	mu sync.Mutex
	// ops are stored in fixed-size chunks, so recording never copies
	// earlier operations.
	chunks [][]Op
}

// logChunk is the number of operations in one chunk of a Log.
const logChunk = 128

// NewRecorder returns a recorder whose time zero is start.
func NewRecorder(start time.Time) *Recorder {
	r := &Recorder{start: start}
	r.shared = r.Log()
	return r
}

// Log returns a new log of this recording, for one client.
func (r *Recorder) Log() *Log {
	l := &Log{r: r}
	r.mu.Lock()
	r.logs = append(r.logs, l)
	r.mu.Unlock()
	return l
}

// Now is the current true time in ns since the run's start.
func (r *Recorder) Now() int64 { return int64(time.Since(r.start)) }

// Start is the run's time zero.
func (r *Recorder) Start() time.Time { return r.start }

// Pending is an invoked operation awaiting its completion.
type Pending struct {
	l   *Log
	pos int // position in l
}

// Begin records, in the shared log, the invocation of an operation now.
// See [Log.Begin].
func (r *Recorder) Begin(process int, client string, f Func, key string, v Value) *Pending {
	return r.shared.Begin(process, client, f, key, v)
}

// Instant records, in the shared log, an operation that happened at one
// instant. See [Log.Instant].
func (r *Recorder) Instant(process int, client string, f Func, key string, v Value, t Type) {
	r.shared.Instant(process, client, f, key, v, t)
}

// Begin records the invocation of an operation now and returns a handle to
// complete it. The operation stays open (Complete -1, type Info) until End.
func (l *Log) Begin(process int, client string, f Func, key string, v Value) *Pending {
	now := l.r.Now()
	l.mu.Lock()
	pos := l.add(Op{Process: process, Client: client, F: f, Key: key, Value: v, Invoke: now, Complete: -1, Type: Info})
	l.mu.Unlock()
	return &Pending{l: l, pos: pos}
}

// Instant records an operation that happened at one instant (Invoke ==
// Complete), such as a client deciding its lease is lost.
func (l *Log) Instant(process int, client string, f Func, key string, v Value, t Type) {
	now := l.r.Now()
	l.mu.Lock()
	l.add(Op{Process: process, Client: client, F: f, Key: key, Value: v, Invoke: now, Complete: now, Type: t})
	l.mu.Unlock()
}

// add appends op, numbered in recording order, and returns its position.
// The caller holds l.mu.
func (l *Log) add(op Op) int {
	op.Index = int(l.r.next.Add(1) - 1)
	n := len(l.chunks)
	if n == 0 || len(l.chunks[n-1]) == logChunk {
		l.chunks = append(l.chunks, make([]Op, 0, logChunk))
		n++
	}
	l.chunks[n-1] = append(l.chunks[n-1], op)
	return (n-1)*logChunk + len(l.chunks[n-1]) - 1
}

// End completes the operation now with outcome t, the final value v and an
// error text (empty when none).
func (p *Pending) End(t Type, v Value, errText string) {
	now := p.l.r.Now()
	p.l.mu.Lock()
	op := &p.l.chunks[p.pos/logChunk][p.pos%logChunk]
	op.Complete, op.Type, op.Value, op.Error = now, t, v, errText
	p.l.mu.Unlock()
}

// Ops returns a copy of every operation recorded so far, in recording
// order, with Index renumbered 0, 1, 2, … in that order.
func (r *Recorder) Ops() []Op {
	r.mu.Lock()
	logs := slices.Clone(r.logs)
	r.mu.Unlock()
	var out []Op
	for _, l := range logs {
		l.mu.Lock()
		for _, c := range l.chunks {
			out = append(out, c...)
		}
		l.mu.Unlock()
	}
	slices.SortFunc(out, func(a, b Op) int { return a.Index - b.Index })
	for i := range out {
		out[i].Index = i
	}
	return out
}
