package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/runner"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/suite"
	"github.com/locksim/locksim/internal/workload"
)

// States of a live run.
const (
	stWaiting  = "waiting"  // predict mode: the class answers first
	stStarting = "starting" // nodes and clients starting
	stRunning  = "running"  // the workload goes; faults can be fired
	stChecking = "checking" // the workload ended; history checked, report written
	stDone     = "done"     // the report is written
	stFailed   = "failed"   // no verdict (an infrastructure error, or stopped before it started)
)

// liveStreamEvery is how often a live run's history is streamed (wall
// time): a run at its own time scale lasts about a second.
const liveStreamEvery = 25 * time.Millisecond

// maxLiveStream bounds the history a live run's page draws as it goes
// (bytes of its stream); past it the page waits for the report.
const maxLiveStream = 16 << 20

// liveRun is one scenario run started from a page: it runs through the
// suite like `locksim run` (its report lands in --out), while the page
// follows its streamed history and fires faults by hand.
type liveRun struct {
	id, owner string
	entry     entry
	sc        scenario.Scenario // its time scale set to the chosen pace
	doc       *scenario.Doc     // sc as a YAML tree (docOf)
	seed      int64
	predict   bool

	ctx    context.Context
	cancel context.CancelFunc
	ended  chan struct{} // closed when the run has stopped every process it started

	mu      sync.Mutex
	state   string
	errText string
	dir     string // its report directory, once the suite made it
	rel     string // the same, relative to --out: its name among the reports
	ctl     *runner.Control
	stream  []byte // the history streamed so far (JSON Lines)
	// active are the faults fired by hand that are still in force, by
	// what they act on (activeKey).
	active  map[string]int
	fired   []firedFault
	results *report.Results
	saved   string
	// seq counts the changes of the run's state (its state, faults,
	// saved file), streamed those of its history; changed is closed
	// (and replaced) on every change of either.
	seq, streamed uint64
	changed       chan struct{}

	frameMu sync.Mutex
	frames  map[report.Lang]*liveFrame
}

// firedFault is a fault fired by hand, as the page lists it.
type firedFault struct {
	ID     int     `json:"id"`
	Action string  `json:"action"`
	On     string  `json:"on"`
	AtS    float64 `json:"at_s"`
	Error  string  `json:"error,omitempty"`
}

// liveFrame is the run so far in one language, as the page draws it.
type liveFrame struct {
	streamed uint64
	Now      float64       `json:"now"`
	Timeline string        `json:"timeline"`
	Story    []report.Step `json:"story"`
	// Ended are the IDs of faults fired by hand whose window the history
	// shows closed.
	ended []int
}

// touch records a change of the run's state and wakes whoever waits for
// one. The caller holds r.mu.
func (r *liveRun) touch() {
	r.seq++
	r.wake()
}

// wake wakes whoever waits for a change. The caller holds r.mu.
func (r *liveRun) wake() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// Write receives the run's history as the recorder streams it.
func (r *liveRun) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.stream) < maxLiveStream {
		r.stream = append(r.stream, p...)
		r.streamed++
		r.wake()
	}
	return len(p), nil
}

// snapshot is what a page shows of the run's state.
type snapshot struct {
	Seq     uint64       `json:"-"`
	State   string       `json:"state"`
	Error   string       `json:"error,omitempty"`
	Active  []activeOn   `json:"active"`
	Fired   []firedFault `json:"fired"`
	Verdict string       `json:"verdict,omitempty"`
	Answer  string       `json:"answer,omitempty"` // predict mode: yes, no, unknown
	Report  string       `json:"report,omitempty"` // the report's page, once written
	Saved   string       `json:"saved,omitempty"`
}

// activeOn is a fault fired by hand still in force.
type activeOn struct {
	Key string `json:"key"`
	ID  int    `json:"id"`
}

func (r *liveRun) snapshot(lang report.Lang) snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := snapshot{Seq: r.seq, State: r.state, Error: r.errText, Fired: slices.Clone(r.fired), Saved: r.saved}
	for k, id := range r.active {
		s.Active = append(s.Active, activeOn{Key: k, ID: id})
	}
	slices.SortFunc(s.Active, func(a, b activeOn) int { return a.ID - b.ID })
	if r.results != nil {
		s.Verdict = string(r.results.Verdict)
		s.Answer = answer(r.sc.Workload.Kind, *r.results)
		if r.rel != "" {
			s.Report = reportURL(lang, r.rel)
		}
	}
	return s
}

// start runs the waiting run r through the suite in the background.
func (s *Server) start(r *liveRun) error {
	r.mu.Lock()
	if r.state != stWaiting {
		r.mu.Unlock()
		return errors.New("this run has already started")
	}
	r.state = stStarting
	r.touch()
	r.mu.Unlock()
	o := suite.Options{Out: s.o.Out, Parallel: 1, Backend: s.o.Backend, Charts: suite.ChartsAll, Lang: s.o.Lang, Version: s.o.Version,
		Logger: s.log.With("run", r.id), Seed: &r.seed,
		Reproduce: func(sc scenario.Scenario, seed int64) string {
			return fmt.Sprintf("locksim run %s --seed %d --time-scale %s", sc.File, seed, fmtScale(sc.TimeScale))
		},
		Hook: func(dir string, ro *runner.Options) {
			rel := s.relOf(dir)
			r.mu.Lock()
			r.dir, r.rel = dir, rel
			r.mu.Unlock()
			ro.Stream, ro.StreamEvery = io.MultiWriter(ro.Stream, r), liveStreamEvery
			ro.Started = func(c *runner.Control) {
				r.mu.Lock()
				r.ctl, r.state = c, stRunning
				r.touch()
				r.mu.Unlock()
			}
		},
		Done: func(out suite.Outcome) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.results = out.Results
			switch {
			case out.Results != nil:
				r.state = stDone
			default:
				r.state, r.errText = stFailed, out.Err
			}
			r.touch()
		},
	}
	go func() {
		defer close(r.ended)
		defer r.cancel()
		suite.Run(r.ctx, suite.Plan([]scenario.Scenario{r.sc}, o), o)
		r.mu.Lock()
		if r.state != stDone && r.state != stFailed {
			r.state, r.errText = stFailed, "the run ended without a report"
			r.touch()
		}
		r.mu.Unlock()
	}()
	// The workload's end: faults can no longer fire, the history is
	// being checked.
	go func() {
		for {
			r.mu.Lock()
			ch, ctl := r.changed, r.ctl
			r.mu.Unlock()
			if ctl != nil {
				select {
				case <-ctl.Over():
					r.mu.Lock()
					if r.state == stRunning {
						r.state = stChecking
						r.touch()
					}
					r.mu.Unlock()
				case <-r.ended:
				}
				return
			}
			select {
			case <-ch:
			case <-r.ended:
				return
			}
		}
	}()
	return nil
}

// frame is the run so far in lang: computed from the streamed history
// when it changed since the last frame of that language.
func (r *liveRun) frame(ctx context.Context, lang report.Lang) *liveFrame {
	r.mu.Lock()
	seq := r.streamed
	data := r.stream
	if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
		data = data[:i+1]
	} else {
		data = nil
	}
	r.mu.Unlock()
	r.frameMu.Lock()
	defer r.frameMu.Unlock()
	if f := r.frames[lang]; f != nil && (f.streamed == seq || len(data) == 0) {
		return f
	}
	f := &liveFrame{streamed: seq}
	if len(data) > 0 {
		h, err := history.Decode(bytes.NewReader(data))
		if err == nil {
			v := report.Live(ctx, h, lang)
			f.Now, f.Timeline, f.Story = v.Now, string(v.Timeline), v.Story
			f.ended = manualEnded(h)
		}
	}
	if r.frames == nil {
		r.frames = map[report.Lang]*liveFrame{}
	}
	r.frames[lang] = f
	r.forget(f.ended)
	return f
}

// manualEnded are the IDs of the faults fired by hand whose operation the
// history shows closed.
func manualEnded(h history.History) []int {
	var out []int
	for _, op := range h.Faults() {
		if op.Value.Fault.Trigger.Kind == history.TriggerManual && op.Complete >= 0 {
			out = append(out, op.Value.Fault.ID)
		}
	}
	return out
}

// forget drops from the active faults those that ended by themselves.
func (r *liveRun) forget(ended []int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	changed := false
	for k, id := range r.active {
		if slices.Contains(ended, id) {
			delete(r.active, k)
			changed = true
		}
	}
	if changed {
		r.touch()
	}
}

// answer is the run's answer to its workload's question (predict mode):
// "yes" when a checker found the effect the question asks about (not
// informational, but for duplicate work, which is never a violation),
// "no" when the run is judged and did not, "unknown" when it proves
// nothing.
func answer(workload string, res report.Results) string {
	kind := questionKind(workload)
	for _, a := range res.Anomalies {
		if a.Kind == kind && (!a.Informational || kind == checker.KindDuplicateWork) {
			return "yes"
		}
	}
	if res.Verdict == checker.Unknown || res.Verdict == "" {
		return "unknown"
	}
	return "no"
}

// questionKind is the anomaly kind the question of a workload asks about
// (its registered Question; overlapping holders when it has none).
func questionKind(name string) string {
	if k, ok := workload.Lookup(name); ok && k.Question != "" {
		return k.Question
	}
	return checker.KindMutexOverlap
}

// question is a workload's question in lang: its own words, or the one
// about overlapping holders.
func question(lang report.Lang, name string) string {
	if k, ok := workload.Lookup(name); ok && k.Question != "" {
		if q, ok := k.Words[string(lang)]["question."+name]; ok {
			return q
		}
		if q, ok := k.Words[string(report.English)]["question."+name]; ok {
			return q
		}
	}
	return t(lang, "predict.q.other")
}

// errBusy and errYours refuse a run: too many going on this machine, or
// one of this browser's still going.
var (
	errBusy  = errors.New("too many runs at once")
	errYours = errors.New("this browser has a run going")
)

// maxKeptRuns bounds the finished runs whose pages stay reachable by their
// live URL (their reports stay in --out).
const maxKeptRuns = 100

// newRun registers a run of e for session owner, refusing it when the
// session already has one going or the server has MaxRuns going.
func (s *Server) newRun(owner string, e entry, sc scenario.Scenario, predict bool) (*liveRun, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	going := 0
	for _, r := range s.runs {
		switch {
		case r.owner == owner && r.waiting():
			r.abandon() // the page asking the class first was left
		case r.busy() && r.owner == owner:
			return r, errYours
		case r.busy():
			going++
		}
	}
	if going >= s.o.MaxRuns {
		return nil, errBusy
	}
	if s.closing {
		return nil, errors.New("the server is stopping")
	}
	seed := int64(0)
	if sc.Seed != nil {
		seed = *sc.Seed
	} else {
		seed = s.rng.Int64N(1 << 40)
	}
	ctx, cancel := context.WithCancel(s.ctx)
	r := &liveRun{id: randomHex(8), owner: owner, entry: e, sc: sc, seed: seed, predict: predict,
		ctx: ctx, cancel: cancel, ended: make(chan struct{}), state: stWaiting, active: map[string]int{}, changed: make(chan struct{})}
	s.runs[r.id] = r
	s.order = append(s.order, r.id)
	for len(s.order) > maxKeptRuns {
		old := s.runs[s.order[0]]
		if old.busy() || old.waiting() {
			break
		}
		delete(s.runs, s.order[0])
		s.order = s.order[1:]
	}
	s.log.Info("live run", "run", r.id, "scenario", e.ID, "seed", seed, "time_scale", sc.TimeScale)
	return r, nil
}

// busy reports whether the run has started and not yet stopped every
// process it started.
func (r *liveRun) busy() bool {
	select {
	case <-r.ended:
		return false
	default:
	}
	return !r.waiting()
}

// waiting reports whether the run waits for the class's answer (it has
// started nothing).
func (r *liveRun) waiting() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state == stWaiting
}

// abandon ends a waiting run that will never start.
func (r *liveRun) abandon() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state == stWaiting {
		r.state, r.errText = stFailed, "not started"
		r.cancel()
		close(r.ended)
		r.touch()
	}
}

// stopAll cancels every run and waits until each has stopped every
// process it started (or ctx ends).
func (s *Server) stopAll(ctx context.Context) {
	s.mu.Lock()
	s.closing = true
	runs := make([]*liveRun, 0, len(s.runs))
	for _, r := range s.runs {
		runs = append(runs, r)
	}
	s.mu.Unlock()
	for _, r := range runs {
		r.abandon()
		r.cancel()
	}
	for _, r := range runs {
		select {
		case <-r.ended:
		case <-ctx.Done():
			s.log.Warn("a run did not stop in time", "run", r.id, "err", ctx.Err())
		}
	}
}
