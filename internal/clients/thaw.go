package clients

import (
	"context"
	"sync"
	"time"
)

// A thaw sent on time is not a process running on time (issue 32): after
// SIGCONT a loaded machine may leave a lock client process unscheduled,
// or slow through the timers that fell due while it was stopped, for
// longer than the pause's own margin — redis-semaphore-4-host-sleep came
// out valid beside CPU hogs when w2's thawed Node process took its lock
// only after w1's lost-lock callback had ended the overlap. ThawHeard
// measures it: it asks the process something at once and notes the first
// line the process writes after the SIGCONT.

// thawEar notes the first line a process writes after a thaw began
// listening (listen): the instant the read loop took it.
type thawEar struct {
	mu       sync.Mutex
	ch       chan struct{} // closed at the first line after listen; nil when not listening
	at       time.Time     // that line's instant
	answered bool          // a thaw's request was once answered: the process answers them
	rtt      time.Duration // the least round trip of a request after a thaw, once running; 0: none yet
}

// listen starts listening for the process's next line.
func (e *thawEar) listen() <-chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ch = make(chan struct{})
	return e.ch
}

// heard is called by the read loop for every line the process writes, at
// instant at.
func (e *thawEar) heard(at time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ch != nil {
		e.at = at
		close(e.ch)
		e.ch = nil
	}
}

// heardAt is the instant of the first line since listen.
func (e *thawEar) heardAt() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.at
}

// ThawHeard continues the process group (SIGCONT) as Thaw does, asks the
// process for its clock at once, and returns when the process was first
// heard from after the SIGCONT (heard: the first line it wrote — that
// reply, or an earlier reply or event — as the read loop took it) and its
// round trip for the same request once running (rtt, asked right after
// and measured by the harness; the least of this process's so far). A
// process that says nothing within the reply timeout (timeout) gives the
// wait's end as heard when it has answered a thaw's request before (it was
// silent at least that long), and ok false when it never has (it may not
// answer clock requests at all: the protocol makes them optional), or
// when it died. Wall time throughout.
//
// A process that serves one request at a time, thawed while one of its
// requests waits for a node that does not answer, is heard from only when
// that request ends: the measure then counts that wait as the machine's.
func (p *procLock) ThawHeard(ctx context.Context) (heard time.Time, rtt time.Duration, ok bool) {
	ear := &p.proc.thaw
	ch := ear.listen()
	p.Thaw()
	wait, cancel := context.WithTimeout(ctx, p.timeout())
	defer cancel()
	replied := make(chan error, 1)
	go func() {
		_, err := p.call(wait, procRequest{Type: "clock"}, nil)
		replied <- err
	}()
	select {
	case <-ch:
		heard = ear.heardAt()
	case <-wait.Done():
		ear.mu.Lock()
		ok = ear.answered
		ear.ch = nil
		ear.mu.Unlock()
		return time.Now(), 0, ok
	case <-p.dead:
		return time.Time{}, 0, false
	}
	if err := <-replied; err != nil {
		// Heard from, but not in answer: its round trip stays unknown
		// this time.
		return heard, p.leastRTT(0, false), true
	}
	start := time.Now()
	if _, err := p.call(wait, procRequest{Type: "clock"}, nil); err == nil {
		rtt = time.Since(start)
	}
	return heard, p.leastRTT(rtt, true), true
}

// leastRTT notes rtt (0: none measured) as a thaw request's round trip
// once the process ran, and whether the process answered the thaw's
// request; it returns the least round trip noted so far (0 when none).
func (p *procLock) leastRTT(rtt time.Duration, answered bool) time.Duration {
	e := &p.proc.thaw
	e.mu.Lock()
	defer e.mu.Unlock()
	e.answered = e.answered || answered
	if rtt > 0 && (e.rtt == 0 || rtt < e.rtt) {
		e.rtt = rtt
	}
	return e.rtt
}
