package history

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
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

// Span records an operation whose times come from elsewhere (a node's own
// clock, mapped onto the run's): invoke and complete are true ns since the
// run's start.
func (l *Log) Span(process int, f Func, client, key string, v Value, invoke, complete int64, t Type) {
	l.mu.Lock()
	l.add(Op{Process: process, Client: client, F: f, Key: key, Value: v, Invoke: invoke, Complete: complete, Type: t})
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

// EndAt is End with the completion at t (true ns since the run's start,
// as Recorder.Now gives it) instead of now: an undo whose effect is its
// first act (a SIGCONT) completes when it began.
func (p *Pending) EndAt(t int64, typ Type, v Value, errText string) {
	p.l.mu.Lock()
	op := &p.l.chunks[p.pos/logChunk][p.pos%logChunk]
	op.Complete, op.Type, op.Value, op.Error = max(t, op.Invoke), typ, v, errText
	p.l.mu.Unlock()
}

// EndErr is End with the error itself: its text is recorded, and its
// Failure class when the outcome is unknown (t == Info).
func (p *Pending) EndErr(t Type, v Value, err error) {
	now := p.l.r.Now()
	p.l.mu.Lock()
	op := &p.l.chunks[p.pos/logChunk][p.pos%logChunk]
	op.Complete, op.Type, op.Value = now, t, v
	if err != nil {
		op.Error = err.Error()
	}
	if t == Info {
		op.Failure = FailureOf(err)
	}
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

// Stream writes the recording to w while it goes on: the header hd first
// (with Streaming set), then, every period (wall time), every operation
// invoked or completed since the last write, one JSON line each. An
// operation still in flight is written open (Complete -1, type info) and
// written again once it completes; a reader keeps the last line of each
// index (Decode). So a run killed with SIGKILL leaves on disk every
// operation completed up to period before, and those in flight as open.
//
// stop writes what is left and returns the first write error; it does not
// close w. The finished run's file is meant to be rewritten whole
// (WriteFile) after stop, without the Streaming flag.
func (r *Recorder) Stream(w io.Writer, hd Header, period time.Duration) (stop func() error) {
	s := &streamer{r: r, bw: bufio.NewWriterSize(w, 64<<10), cursor: map[*Log]int{}, open: map[*Log][]int{}}
	hd.Format, hd.Version, hd.Streaming = Format, Version, true
	s.enc = json.NewEncoder(s.bw)
	if err := s.enc.Encode(hd); err != nil {
		s.err = fmt.Errorf("stream history header: %w", err)
	}
	s.flushWriter()
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-quit:
				s.flush()
				return
			case <-t.C:
				s.flush()
			}
		}
	}()
	var once sync.Once
	return func() error {
		once.Do(func() { close(quit); <-done })
		return s.err
	}
}

// streamer is the state of one Stream: how far each log was written, and
// which of its operations were written open.
type streamer struct {
	r      *Recorder
	bw     *bufio.Writer
	enc    *json.Encoder
	cursor map[*Log]int   // operations of each log already written
	open   map[*Log][]int // positions written open, awaiting completion
	batch  []Op
	err    error
}

// flush writes every change since the last flush.
func (s *streamer) flush() {
	s.r.mu.Lock()
	logs := slices.Clone(s.r.logs)
	s.r.mu.Unlock()
	s.batch = s.batch[:0]
	for _, l := range logs {
		l.mu.Lock()
		still := s.open[l][:0]
		for _, pos := range s.open[l] {
			op := l.chunks[pos/logChunk][pos%logChunk]
			if op.Complete < 0 {
				still = append(still, pos)
				continue
			}
			s.batch = append(s.batch, op)
		}
		n := 0
		for _, c := range l.chunks {
			n += len(c)
		}
		for pos := s.cursor[l]; pos < n; pos++ {
			op := l.chunks[pos/logChunk][pos%logChunk]
			if op.Complete < 0 {
				still = append(still, pos)
			}
			s.batch = append(s.batch, op)
		}
		s.cursor[l] = n
		s.open[l] = still
		l.mu.Unlock()
	}
	for i := range s.batch {
		if s.err != nil {
			break
		}
		if err := s.enc.Encode(&s.batch[i]); err != nil {
			s.err = fmt.Errorf("stream history op %d: %w", s.batch[i].Index, err)
		}
	}
	s.flushWriter()
}

func (s *streamer) flushWriter() {
	if err := s.bw.Flush(); err != nil && s.err == nil {
		s.err = fmt.Errorf("stream history: %w", err)
	}
}
