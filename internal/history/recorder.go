package history

import (
	"sync"
	"time"
)

// Recorder collects operations from many goroutines. Every timestamp it
// takes is time.Since(start) on Go's monotonic clock (true time, wall ns).
// It is safe for concurrent use; Begin and End each hold its lock only to
// append or update one slot.
type Recorder struct {
	start time.Time
	mu    sync.Mutex
	ops   []Op
}

// NewRecorder returns a recorder whose time zero is start.
func NewRecorder(start time.Time) *Recorder {
	return &Recorder{start: start, ops: make([]Op, 0, 1024)}
}

// Now is the current true time in ns since the run's start.
func (r *Recorder) Now() int64 { return int64(time.Since(r.start)) }

// Start is the run's time zero.
func (r *Recorder) Start() time.Time { return r.start }

// Pending is an invoked operation awaiting its completion.
type Pending struct {
	r   *Recorder
	idx int
}

// Begin records the invocation of an operation now and returns a handle to
// complete it. The operation stays open (Complete -1, type Info) until End.
func (r *Recorder) Begin(process int, client string, f Func, key string, v Value) *Pending {
	now := r.Now()
	r.mu.Lock()
	idx := len(r.ops)
	r.ops = append(r.ops, Op{Index: idx, Process: process, Client: client, F: f, Key: key, Value: v, Invoke: now, Complete: -1, Type: Info})
	r.mu.Unlock()
	return &Pending{r: r, idx: idx}
}

// End completes the operation now with outcome t, the final value v and an
// error text (empty when none).
func (p *Pending) End(t Type, v Value, errText string) {
	now := p.r.Now()
	p.r.mu.Lock()
	op := &p.r.ops[p.idx]
	op.Complete, op.Type, op.Value, op.Error = now, t, v, errText
	p.r.mu.Unlock()
}

// Instant records an operation that happened at one instant (Invoke ==
// Complete), such as a client deciding its lease is lost.
func (r *Recorder) Instant(process int, client string, f Func, key string, v Value, t Type) {
	now := r.Now()
	r.mu.Lock()
	r.ops = append(r.ops, Op{Index: len(r.ops), Process: process, Client: client, F: f, Key: key, Value: v, Invoke: now, Complete: now, Type: t})
	r.mu.Unlock()
}

// Ops returns a copy of every operation recorded so far, by Index.
func (r *Recorder) Ops() []Op {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Op, len(r.ops))
	copy(out, r.ops)
	return out
}
