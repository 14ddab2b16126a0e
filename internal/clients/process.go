package clients

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/locksim/locksim/lock"
)

// ProtocolVersion is the newest version of the JSON Lines protocol locksim
// speaks with a lock client process (docs/protocol.md). Version 2 adds an
// acquire's lock_key and the renewed event; every version 1 adapter is a
// version 2 process that sends neither. The hello names version 1, the
// least a process must speak, and lists every version in "versions"; the
// process answers with the one it speaks.
const ProtocolVersion = 2

// protocolMin is the oldest protocol version locksim still speaks.
const protocolMin = 1

// processAlgorithm runs each client's lock in a child process of its own,
// started from the scenario's process: block and spoken to in JSON Lines
// over its stdin and stdout. Its traits beyond Process come from that block.
var processAlgorithm = Algorithm{
	Name:   "process",
	About:  "a lock client in any language: a child process per client speaking locksim's JSON Lines protocol (docs/protocol.md), from the scenario's process: block",
	New:    newProcess,
	Traits: Traits{Process: true},
}

// processStart bounds a process's start-up: from exec to its hello reply
// (an interpreter loading its libraries), wall time. A Node adapter takes
// about 0.35 s of CPU to start; a suite of twelve runs of two clients
// starts 24 at once, which on a shared two-CPU machine took 24–33 s each
// (measured): 60 s leaves room for that, and a process that never answers
// still fails the run.
const processStart = 60 * time.Second

// stderrTail is how much of a process's stderr an error quotes.
const stderrTail = 2048

// procNode is one node in the hello message.
type procNode struct {
	Name     string `json:"name"`
	Addr     string `json:"addr"`
	ConnName string `json:"conn_name,omitempty"`
}

// procRequest is a message to the process.
type procRequest struct {
	Type string `json:"type"`
	ID   int64  `json:"id,omitempty"`
	// hello
	Protocol  int            `json:"protocol,omitempty"`
	Versions  []int          `json:"versions,omitempty"`
	Client    string         `json:"client,omitempty"`
	Nodes     []procNode     `json:"nodes,omitempty"`
	TTLMS     float64        `json:"ttl_ms,omitempty"`
	TimeoutMS float64        `json:"timeout_ms,omitempty"`
	Seed      uint64         `json:"seed,omitempty"`
	Probe     bool           `json:"probe,omitempty"`
	Sent      *bool          `json:"sent,omitempty"` // false: no "sent" events wanted (none planned in-acquire)
	Options   map[string]any `json:"options,omitempty"`
	// operations
	Key   string `json:"key,omitempty"`
	Token string `json:"token,omitempty"`
	Fence int64  `json:"fence,omitempty"`
	// LockKey is the Redis key the process said it locked for Key
	// (version 2), on the requests about a granted lease.
	LockKey string `json:"lock_key,omitempty"`
}

// procReply is a message from the process: a reply (ID set) or an event.
type procReply struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
	// hello
	Protocol int      `json:"protocol"`
	Name     string   `json:"name"`
	Ops      []string `json:"ops"`
	Events   []string `json:"events"`
	Clients  string   `json:"clients"` // "many": it serves several clients, told apart by each request's client
	NowMS    float64  `json:"now_ms"`
	// operations
	Token      string   `json:"token"`
	Fence      int64    `json:"fence"`
	ValidityMS *float64 `json:"validity_ms"`
	Nodes      []string `json:"nodes"`
	Valid      *bool    `json:"valid"`
	MonoMS     float64  `json:"mono_ms"`
	Error      string   `json:"error"`
	// version 2: the key the library locked (an acquire's ok), and a
	// renewed event's key, outcome and duration.
	LockKey string   `json:"lock_key"`
	Key     string   `json:"key"`
	Result  string   `json:"result"`
	TookMS  *float64 `json:"took_ms"`
}

// Reply and event types.
const (
	replyHelloOK     = "hello_ok"
	replyOK          = "ok"
	replyNotAcquired = "not-acquired"
	replyNotHeld     = "not-held"
	replyUnknown     = "unknown"
	eventLost        = "lost"
	clientsMany      = "many"
	eventSent        = "sent"
	eventRenewed     = "renewed" // version 2
)

// procLock is one client's lock in a lock client process: its own
// configuration (nodes, TTL), the name and operations the process gave in
// its hello reply, and the process, which it shares with the other clients
// of its simulated process when the adapter serves several (proc).
type procLock struct {
	cfg     Config
	name    string
	ops     map[string]bool
	version int      // the protocol version its hello_ok named
	renews  bool     // its hello_ok lists the renewed event
	events  []string // the events its hello_ok lists
	*proc
	closeOnce sync.Once
}

// heldLease is a lease the process granted and locksim has not yet
// released: whose it is, what it is, and the resource's key it was asked
// for (the lease's Key is the process's lock_key when it named one).
type heldLease struct {
	p        *procLock
	lease    Lease
	resource string
}

// proc is one running lock client process: its pipes, its pending
// requests (ids are the process's, whichever client sent them) and how it
// ended.
type proc struct {
	cmdLine string // the command, for errors
	cmd     *exec.Cmd
	pgid    int
	fake    *fakeTime
	hello   chan procReply // each hello_ok, in the order the hellos were sent
	helloMu sync.Mutex     // one hello at a time
	helloed bool           // a hello was answered
	multi   bool           // its first hello_ok said it serves several clients
	refs    int            // clients joined and not yet closed

	// Writes to stdin combine: a request sent while another's write is
	// under way is queued, and that writer sends it next, with every other
	// line queued meanwhile, in one write (fifty clients sharing a process
	// sent a write, and woke the process's event loop, per request).
	wmu     sync.Mutex
	wcond   sync.Cond // on wmu: a batch was written
	stdin   io.WriteCloser
	wbuf    []byte // lines queued for the next batch
	wspare  []byte // the last batch's buffer, for reuse
	writing bool   // a sender is writing a batch
	wnext   uint64 // number of the next batch to be taken
	wdone   uint64 // batches written so far
	werr    error  // the first write error: every later send fails with it

	mu      sync.Mutex
	nextID  int64
	pending map[int64]pendingCall
	sent    map[int64]chan struct{}  // by request id, when the process announces sent events
	lost    map[string]chan struct{} // by token
	held    map[string]heldLease     // by token: granted, not yet released
	sends   bool                     // the process sends "sent" events
	failed  error                    // set once: exited or broke the protocol
	crashed bool                     // killed on purpose (crash-client, Close)
	dead    chan struct{}            // closed when failed is set or the process is gone

	stderr *tailBuffer
	waited chan struct{} // closed when cmd.Wait returned

	thaw thawEar // hears the process's first line after a thaw (thaw.go)
}

// procKey is the key of a simulated process's lock client process in its
// lock.Host (Host.Shared).
const procKey = "lock-client-process"

// ErrOneClientPerProcess is returned when clients of one simulated process
// share a lock client process whose adapter serves one client only (its
// hello reply did not say "clients": "many").
var ErrOneClientPerProcess = errors.New("the lock client process serves one client (its hello_ok has no \"clients\": \"many\")")

// ProcessLock is what the runner knows of a lock client process beyond
// Locker: it pauses, continues and kills its process group (a client
// pause is SIGSTOP/SIGCONT, crash-client is SIGKILL), moves its clock
// through libfaketime, and says whether it failed.
type ProcessLock interface {
	Locker
	io.Closer
	// Freeze sends SIGSTOP to the process group, Thaw SIGCONT.
	Freeze()
	Thaw()
	// ThawHeard is Thaw that also hears when the process runs again
	// (thaw.go): when it was first heard from after the SIGCONT, and its
	// round trip once running (wall); ok false when not measured.
	ThawHeard(ctx context.Context) (heard time.Time, rtt time.Duration, ok bool)
	// Crash sends SIGKILL to the process group.
	Crash()
	// FakeClock is the process's clock as libfaketime moves it; nil when
	// the process was started without it.
	FakeClock() interface {
		Jump(d time.Duration)
		SetRate(rate float64)
	}
	// Failed is the infrastructure error that ended the process (it exited
	// by itself or broke the protocol), or nil.
	Failed() error
	// PID is the process's pid (its process group's id).
	PID() int
}

// NewProcess builds a lock client process (algorithm process) for c: the
// client's Locker, which is also the runner's handle on its process.
func NewProcess(c Config) (ProcessLock, error) {
	l, err := New(processAlgorithm.Name, c)
	if err != nil {
		return nil, err
	}
	return l.(ProcessLock), nil // newProcess builds only ProcessLocks
}

func newProcess(c Config) (Locker, error) {
	var p *procLock
	var err error
	if c.Host != nil {
		p, err = joinShared(c)
	} else {
		p, err = startProcess(c, false)
	}
	if err != nil {
		return nil, err
	}
	ext, val := p.ops["extend"], p.ops["valid"]
	switch {
	case ext && val:
		return &procExtendValid{procLock: p}, nil
	case ext:
		return &procExtend{procLock: p}, nil
	case val:
		return &procValid{procLock: p}, nil
	}
	return p, nil
}

// procExtend, procValid and procExtendValid add the optional operations a
// process said it supports in its hello reply, so that a Locker is an
// Extender or a Validator exactly when its process is.
type procExtend struct{ *procLock }
type procValid struct{ *procLock }
type procExtendValid struct{ *procLock }

func (p *procExtend) Extend(ctx context.Context, l Lease) (Lease, error) { return p.extend(ctx, l) }
func (p *procValid) Valid(ctx context.Context, l Lease) (bool, error)    { return p.valid(ctx, l) }
func (p *procExtendValid) Extend(ctx context.Context, l Lease) (Lease, error) {
	return p.extend(ctx, l)
}
func (p *procExtendValid) Valid(ctx context.Context, l Lease) (bool, error) { return p.valid(ctx, l) }

// startProcess starts c.Process's command and exchanges hellos.
func startProcess(c Config, probe bool) (*procLock, error) { return startProcessWith(c, probe, nil) }

// joinShared is c's lock in the lock client process of its simulated
// process (c.Host): the first client starts it, the others send their
// hello on the same pipes. A process serves several clients only when its
// adapter said so in its first hello reply (ErrOneClientPerProcess).
func joinShared(c Config) (*procLock, error) {
	v, err := c.Host.Shared(procKey, func() (any, error) { return launch(c, nil) })
	if err != nil {
		return nil, err
	}
	return v.(*proc).join(c, false)
}

// startProcessWith is startProcess; probe starts the process only to read
// its clock (no nodes), and prep, when set, prepares its fake clock
// before it starts.
func startProcessWith(c Config, probe bool, prep func(*fakeTime)) (*procLock, error) {
	pr, err := launch(c, prep)
	if err != nil {
		return nil, err
	}
	return pr.join(c, probe)
}

// launch starts c.Process's command: its own process group, dying with
// locksim, its stdout read by one loop. prep, when set, prepares its fake
// clock before it starts.
func launch(c Config, prep func(*fakeTime)) (*proc, error) {
	po := c.Process
	if po == nil || len(po.Command) == 0 {
		return nil, errors.New("algorithm process: no process.command")
	}
	p := &proc{cmdLine: strings.Join(po.Command, " "), pending: map[int64]pendingCall{}, sent: map[int64]chan struct{}{},
		lost: map[string]chan struct{}{}, held: map[string]heldLease{}, hello: make(chan procReply, 1),
		dead: make(chan struct{}), stderr: &tailBuffer{max: stderrTail}, waited: make(chan struct{})}
	p.wcond.L = &p.wmu
	cmd := exec.Command(po.Command[0], po.Command[1:]...)
	cmd.Dir = po.Dir
	cmd.Env = append(os.Environ(), po.Env...)
	if po.FakeTime != "" {
		ft, err := newFakeTime(po.FakeTime)
		if err != nil {
			return nil, err
		}
		p.fake = ft
		if prep != nil {
			prep(ft)
		}
		cmd.Env = append(cmd.Env, ft.env()...)
	}
	cmd.Stderr = p.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("process %s: %w", po.Command[0], err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("process %s: %w", po.Command[0], err)
	}
	// Its own process group, so a pause stops everything it started; and
	// it dies with locksim. Pdeathsig fires when the forking *thread*
	// exits: fork from a locked thread that then goes back to the pool.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	runtime.LockOSThread()
	err = cmd.Start()
	runtime.UnlockOSThread()
	if err != nil {
		p.fake.close()
		return nil, fmt.Errorf("start lock client process %q: %w", p.cmdLine, err)
	}
	p.cmd, p.pgid, p.stdin = cmd, cmd.Process.Pid, stdin
	if p.fake != nil {
		p.fake.started = time.Now()
	}
	liveProcs.add(p)
	go p.read(stdout)
	go func() {
		err := cmd.Wait()
		close(p.waited)
		p.fail(fmt.Errorf("exited (%v)", err))
	}()
	return p, nil
}

// join sends c's hello and waits for its reply: c's lock in this process.
// On an error the process is closed if no other client uses it.
func (pr *proc) join(c Config, probe bool) (*procLock, error) {
	pr.helloMu.Lock()
	defer pr.helloMu.Unlock()
	pr.mu.Lock()
	refused := pr.helloed && !pr.multi
	if !refused {
		pr.refs++
	}
	pr.mu.Unlock()
	if refused {
		name := c.Client
		if c.Host != nil {
			name = c.Host.Name
		}
		return nil, pr.infra("hello "+c.Client, fmt.Errorf("%w; clients of process %s share it", ErrOneClientPerProcess, name))
	}
	p := &procLock{cfg: c, proc: pr}
	req := procRequest{Type: "hello", Protocol: protocolMin, Versions: protocolVersions(), Client: c.Client, TTLMS: ms(c.TTL),
		TimeoutMS: ms(p.commandTimeout()), Seed: c.Seed, Probe: probe, Options: c.Process.Options}
	if c.Process.NoInFlightPause {
		no := false
		req.Sent = &no
	}
	for _, n := range c.Nodes {
		req.Nodes = append(req.Nodes, procNode{Name: n.Name, Addr: n.Addr, ConnName: n.ConnName})
	}
	if err := pr.send(req, true); err != nil {
		p.Close()
		return nil, pr.infra("send hello", err)
	}
	t := time.NewTimer(processStart)
	defer t.Stop()
	select {
	case r := <-pr.hello:
		if r.Protocol < protocolMin || r.Protocol > ProtocolVersion {
			p.Close()
			return nil, pr.infra("hello", fmt.Errorf("speaks protocol %d, locksim speaks %d to %d", r.Protocol, protocolMin, ProtocolVersion))
		}
		p.version = r.Protocol
		p.name = r.Name
		if p.name == "" {
			p.name = "process"
		}
		p.ops = map[string]bool{}
		for _, op := range r.Ops {
			p.ops[op] = true
		}
		pr.mu.Lock()
		for _, ev := range r.Events {
			pr.sends = pr.sends || ev == eventSent
			p.renews = p.renews || (ev == eventRenewed && p.version >= 2)
		}
		if !pr.helloed {
			pr.helloed, pr.multi = true, r.Clients == clientsMany
		}
		pr.mu.Unlock()
		if probe && pr.fake != nil {
			pr.fake.probed = r.NowMS
		}
		p.events = r.Events
		return p, nil
	case <-pr.dead:
		err := pr.Failed()
		p.Close()
		return nil, err
	case <-t.C:
		p.Close()
		return nil, pr.infra("hello", fmt.Errorf("no hello_ok within %v", processStart))
	}
}

// infra wraps err as an infrastructure error quoting the stderr tail.
func (p *proc) infra(what string, err error) error {
	return &infraError{cmd: p.cmdLine, err: fmt.Errorf("%s: %w", what, err), tail: p.stderr}
}

// fail records the first infrastructure error and wakes every caller.
func (p *proc) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failed != nil {
		return
	}
	if p.crashed {
		p.failed = errCrashedOnPurpose
	} else {
		p.failed = p.infraLocked(err)
	}
	close(p.dead)
}

// errCrashedOnPurpose is what calls to a process killed by a crash-client
// fault or by Close return: its operations are unknown, not broken.
var errCrashedOnPurpose = errors.New("lock client process was killed")

func (p *proc) infraLocked(err error) error {
	e := &infraError{cmd: p.cmdLine, err: err}
	// The stderr tail is read when the error is printed: the last lines
	// of a dying process arrive after its stdout closed.
	e.tail = p.stderr
	return e
}

// infraError is an infrastructure error of a process, with its stderr.
type infraError struct {
	cmd  string
	err  error
	tail *tailBuffer
}

func (e *infraError) Error() string {
	t := strings.TrimSpace(e.tail.String())
	msg := fmt.Sprintf("lock client process %q: %v", e.cmd, e.err)
	if m := missingModule(t); m != "" {
		// Said first, on the first line: a summary line shows no more.
		msg = fmt.Sprintf("lock client process %q: %s; %v", e.cmd, m, e.err)
	}
	if t != "" {
		msg += "; stderr tail:\n" + t
	}
	return msg
}

// missingModuleRE matches what Node.js and Python print when a module a
// program needs is not installed.
var missingModuleRE = regexp.MustCompile(`Cannot find module '([^']+)'|ModuleNotFoundError: No module named '([^']+)'`)

// missingModule names, from a process's stderr, a module it needs that is
// not installed and the command that installs the shipped adapters'; ""
// when the stderr says no such thing.
func missingModule(stderr string) string {
	m := missingModuleRE.FindStringSubmatch(stderr)
	switch {
	case m == nil:
		return ""
	case m[1] != "":
		return fmt.Sprintf("the module %s it requires is not installed (for the shipped adapters: make adapters, which runs npm ci in adapters/node)", m[1])
	}
	return fmt.Sprintf("the Python module %s it imports is not installed for its interpreter (for the shipped redis-py adapter: apt-get install python3-%s, and run it with /usr/bin/python3)", m[2], m[2])
}

// Unwrap is ErrInfrastructure and the error itself (ErrOneClientPerProcess).
func (e *infraError) Unwrap() []error { return []error{ErrInfrastructure, e.err} }

// Failed is the infrastructure error that ended the process, or nil (also
// nil when it was killed on purpose).
func (p *proc) Failed() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failed == errCrashedOnPurpose {
		return nil
	}
	return p.failed
}

// read dispatches every line the process writes: each hello_ok to the
// hello being waited for, events to their leases and requests, replies to
// their callers.
func (p *proc) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	helloDone := false
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		p.thaw.heard(time.Now())
		var r procReply
		if err := json.Unmarshal(line, &r); err != nil {
			p.fail(fmt.Errorf("broke the protocol: a line that is not a JSON object: %q", clipLine(line)))
			return
		}
		switch {
		case r.Type == replyHelloOK:
			helloDone = true
			select {
			case p.hello <- r:
			default:
				p.fail(fmt.Errorf("broke the protocol: a hello_ok no hello asked for: %q", clipLine(line)))
				return
			}
			continue
		case !helloDone:
			p.fail(fmt.Errorf("broke the protocol: %q before its hello_ok", clipLine(line)))
			return
		case r.Type == eventLost:
			p.markLost(r.Token)
			continue
		case r.Type == eventRenewed && r.ID == 0:
			if err := p.renewed(r); err != nil {
				p.fail(fmt.Errorf("broke the protocol: %v in %q", err, clipLine(line)))
				return
			}
			continue
		case r.Type == eventSent:
			p.mu.Lock()
			if ch := p.sent[r.ID]; ch != nil {
				close(ch)
				delete(p.sent, r.ID)
			}
			p.mu.Unlock()
			continue
		}
		if err := checkReply(r); err != nil {
			p.fail(fmt.Errorf("broke the protocol: %v in %q", err, clipLine(line)))
			return
		}
		p.mu.Lock()
		pc, ok := p.pending[r.ID]
		delete(p.pending, r.ID)
		p.mu.Unlock()
		if !ok {
			continue // the reply to a request whose caller gave up (unknown)
		}
		if pc.granted != nil && r.Type == replyOK && r.Token != "" {
			// Before the next line is read: an event about the lease
			// (renewed, lost) may follow its grant at once.
			pc.granted(r)
		}
		pc.ch <- r
	}
	if err := sc.Err(); err != nil {
		p.fail(fmt.Errorf("broke the protocol: reading its stdout: %v", err))
		return
	}
	// A process that closes its stdout is usually exiting: wait a little
	// for its exit, so that the error says how it ended and quotes all it
	// wrote to stderr.
	select {
	case <-p.waited:
	case <-time.After(time.Second):
		p.fail(errors.New("closed its stdout"))
	}
}

// checkReply refuses a reply that is not one of the protocol's.
func checkReply(r procReply) error {
	switch r.Type {
	case replyOK, replyNotAcquired, replyNotHeld, replyUnknown:
	case "":
		return errors.New("no type")
	default:
		return fmt.Errorf("unknown type %q", r.Type)
	}
	if r.ID <= 0 {
		return errors.New("a reply without its request's id")
	}
	return nil
}

func clipLine(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// markLost closes the Lost channel of the lease with token.
func (p *proc) markLost(token string) {
	ch := p.lostOf(token)
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-ch:
	default:
		close(ch)
	}
}

// renewed records a renewed event (version 2): a renewal the process's
// library made on its own, of a lease locksim holds through it, is
// recorded through the client's Renewals, and passes the client's
// in-renew pause point. An event for a lease locksim does not hold (one
// released meanwhile) is dropped.
func (p *proc) renewed(r procReply) error {
	p.mu.Lock()
	h, ok := p.held[r.Token]
	p.mu.Unlock()
	if !ok {
		return nil
	}
	if h.p.version < 2 {
		return fmt.Errorf("a renewed event from a process that speaks protocol %d", h.p.version)
	}
	var err error
	switch r.Result {
	case replyOK:
	case replyNotHeld:
		err = definite(ErrNotHeld, r.Error)
	case replyUnknown:
		err = fmt.Errorf("renewal outcome unknown: %s", r.Error)
	default:
		return fmt.Errorf("a renewed event whose result is %q, not ok, not-held or unknown", r.Result)
	}
	took := time.Duration(0)
	if r.TookMS != nil && *r.TookMS > 0 {
		took = time.Duration(*r.TookMS * float64(time.Millisecond))
	}
	l := h.lease
	if err == nil && r.ValidityMS != nil {
		l.ValidUntil = h.p.clock().Now().Add(time.Duration(*r.ValidityMS*float64(time.Millisecond)) - took)
	}
	if c := h.p.cfg; c.Renewals != nil {
		c.Renewals.Renewed(l, took, err)
	}
	if g := h.p.cfg.Gate; g != nil && h.p.renews {
		// A pause planned in-renew stops the process right after its
		// library's renewal; the gate blocks while the pause lasts.
		go func() { _ = g.Point(context.Background(), PointInRenew) }()
	}
	return nil
}

// lostOf is the Lost channel of the lease with token.
func (p *proc) lostOf(token string) chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	ch := p.lost[token]
	if ch == nil {
		ch = make(chan struct{})
		p.lost[token] = ch
	}
	return ch
}

// send queues r's line for the process's stdin. With no write under way it
// writes it, and every line queued while it writes, itself; else the
// writer under way sends it next. wait makes it return only once its line
// has been written (the in-acquire pause point: the request must be in the
// pipe before the process is stopped).
func (p *proc) send(r procRequest, wait bool) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if p.werr != nil {
		return p.werr
	}
	p.wbuf = append(append(p.wbuf, b...), '\n')
	batch := p.wnext
	if p.writing {
		for wait && p.wdone <= batch && p.werr == nil {
			p.wcond.Wait()
		}
		if wait {
			return p.werr
		}
		return nil
	}
	p.writing = true
	for len(p.wbuf) > 0 && p.werr == nil {
		buf := p.wbuf
		p.wbuf, p.wnext = p.wspare[:0], p.wnext+1
		p.wmu.Unlock()
		_, err := p.stdin.Write(buf)
		p.wmu.Lock()
		p.wspare, p.wdone = buf[:0], p.wnext
		if err != nil {
			p.werr, p.wbuf = err, nil
		}
		p.wcond.Broadcast()
	}
	p.writing = false
	return p.werr
}

// timeout bounds one reply: the process block's timeout; by default room
// for one command per node and an unlock of every node after a failed
// attempt, each bounded by the per-command timeout the process is told
// (timeout_ms), and one more.
func (p *procLock) timeout() time.Duration {
	if p.cfg.Process.Timeout > 0 {
		return p.cfg.Process.Timeout
	}
	return p.commandTimeout() * time.Duration(2*max(len(p.cfg.Nodes), 1)+1)
}

// commandTimeout is the per-command timeout the process is told.
func (p *procLock) commandTimeout() time.Duration {
	if p.cfg.CommandTimeout > 0 {
		return p.cfg.CommandTimeout
	}
	return lock.DefaultCommandTimeout(p.cfg.TTL)
}

// pendingCall is a request waiting for its reply: the channel its caller
// reads, and, for an acquire, what the read loop does with a grant before
// it reads the process's next line (it records the lease as held, so a
// renewed event right behind the grant finds it).
type pendingCall struct {
	ch      chan procReply
	granted func(procReply)
}

// call sends one request and waits for its reply. It returns an
// infrastructure error when the process failed, and an unknown-outcome
// error when no reply came in time (or ctx ended first). inFlight runs
// once the request is written (the in-acquire pause point).
func (p *procLock) call(ctx context.Context, r procRequest, inFlight func()) (procReply, error) {
	return p.callGranted(ctx, r, inFlight, nil)
}

// callGranted is call; granted, when set, runs in the read loop on an ok
// reply before the caller sees it (pendingCall).
func (p *procLock) callGranted(ctx context.Context, r procRequest, inFlight func(), granted func(procReply)) (procReply, error) {
	if err := p.gone(); err != nil {
		return procReply{}, err
	}
	ch := make(chan procReply, 1)
	var sent chan struct{}
	r.Client = p.cfg.Client // a process serving several clients tells them apart by it
	p.mu.Lock()
	p.nextID++
	r.ID = p.nextID
	p.pending[r.ID] = pendingCall{ch: ch, granted: granted}
	if inFlight != nil && p.sends {
		sent = make(chan struct{})
		p.sent[r.ID] = sent
	}
	p.mu.Unlock()
	forget := func() {
		p.mu.Lock()
		delete(p.pending, r.ID)
		delete(p.sent, r.ID)
		p.mu.Unlock()
	}
	// late is the reply the read loop took while the caller was giving
	// up (it is in ch, or about to be: its grant was already recorded),
	// or false when no reply came and the request is forgotten.
	late := func() (procReply, bool) {
		p.mu.Lock()
		_, waiting := p.pending[r.ID]
		delete(p.pending, r.ID)
		delete(p.sent, r.ID)
		p.mu.Unlock()
		if waiting {
			return procReply{}, false
		}
		return <-ch, true
	}
	if err := ctx.Err(); err != nil {
		forget()
		return procReply{}, fmt.Errorf("%s not sent: %w", r.Type, err)
	}
	if err := p.send(r, inFlight != nil); err != nil {
		if rep, ok := late(); ok {
			return rep, nil
		}
		if gone := p.gone(); gone != nil {
			return procReply{}, gone
		}
		return procReply{}, fmt.Errorf("%s outcome unknown: writing the request: %w", r.Type, err)
	}
	// The reply timeout starts once the in-flight point is passed: a pause
	// there (which stops the process) is not the process's slowness, and
	// the operation's own deadline no longer cuts the wait short, so a
	// reply that waited in the pipe through the pause is still read.
	done := ctx.Done()
	t := time.NewTimer(p.timeout())
	defer t.Stop()
	if inFlight != nil {
		// A process that announces "sent" events is paused once its
		// commands are on their way, so that their replies wait in its
		// socket while it is stopped (Kleppmann's pause with the replies
		// in flight); else right after the request was written.
		var early *procReply
		if sent != nil {
			select {
			case <-sent:
			case rep := <-ch:
				early = &rep
			case <-p.dead:
			case <-t.C:
				t.Reset(0)
			}
		}
		inFlight()
		if early != nil {
			forget()
			return *early, nil
		}
		done = nil
		if !t.Stop() {
			select {
			case <-t.C:
			default:
			}
		}
		t.Reset(p.timeout())
	}
	select {
	case rep := <-ch:
		return rep, nil
	case <-p.dead:
		if rep, ok := late(); ok {
			return rep, nil
		}
		return procReply{}, p.gone()
	case <-t.C:
		if rep, ok := late(); ok {
			return rep, nil
		}
		return procReply{}, fmt.Errorf("%s outcome unknown: no reply within %v", r.Type, p.timeout())
	case <-done:
		if rep, ok := late(); ok {
			return rep, nil
		}
		return procReply{}, fmt.Errorf("%s outcome unknown: %w", r.Type, ctx.Err())
	}
}

// gone is the error of a process that can take no request: nil while it
// lives.
func (p *proc) gone() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.failed
}

func (p *procLock) Name() string { return p.name }

// Acquire asks the process for the lock. A pause planned in-acquire fires
// once the request is written, so the process is stopped while it works
// on it (or while its reply waits in the pipe).
func (p *procLock) Acquire(ctx context.Context, key string) (Lease, error) {
	start := p.clock().Now()
	// The grant is recorded as held by the read loop, before the
	// process's next line: a renewed event may follow it at once.
	granted := func(rep procReply) {
		l := Lease{Key: key, Token: rep.Token, Fence: rep.Fence, ValidUntil: start.Add(p.validity(rep)),
			Nodes: p.inOrder(rep.Nodes), Lost: p.lostOf(rep.Token)}
		if rep.LockKey != "" && p.version >= 2 {
			l.Key = rep.LockKey // the library's own key for the resource
		}
		p.mu.Lock()
		p.held[l.Token] = heldLease{p: p, lease: l, resource: key}
		p.mu.Unlock()
	}
	rep, err := p.callGranted(ctx, procRequest{Type: "acquire", Key: key}, func() {
		if p.cfg.Gate != nil {
			_ = p.cfg.Gate.Point(ctx, PointInAcquire)
		}
	}, granted)
	if err != nil {
		return Lease{}, err
	}
	switch rep.Type {
	case replyOK:
		if rep.Token == "" {
			p.fail(errors.New("broke the protocol: an ok acquire reply without its token"))
			return Lease{}, p.gone()
		}
		p.mu.Lock()
		h := p.held[rep.Token]
		p.mu.Unlock()
		return h.lease, nil
	case replyNotAcquired:
		return Lease{}, definite(ErrNotAcquired, rep.Error)
	case replyNotHeld:
		p.fail(errors.New("broke the protocol: not-held is no reply to acquire"))
		return Lease{}, p.gone()
	}
	return Lease{}, fmt.Errorf("acquire outcome unknown: %s", rep.Error)
}

func definite(sentinel error, text string) error {
	if text == "" {
		return sentinel
	}
	return fmt.Errorf("%w: %s", sentinel, text)
}

// inOrder lists the nodes a reply named in the client's node order (n1,
// n2, …): a process that asks every node at once names them as their
// replies came.
func (p *procLock) inOrder(names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range p.cfg.Nodes {
		for _, m := range names {
			if m == n.Name {
				out = append(out, n.Name)
				break
			}
		}
	}
	return out
}

// Release asks the process to release the lease.
func (p *procLock) Release(ctx context.Context, l Lease) error {
	_, err := p.ReleaseNodes(ctx, l)
	return err
}

// ReleaseNodes is Release that also returns the nodes the process said it
// removed the key from (its reply's nodes; the lease's when it names none).
func (p *procLock) ReleaseNodes(ctx context.Context, l Lease) ([]string, error) {
	rep, err := p.leaseCall(ctx, "release", l)
	if err != nil {
		return nil, err
	}
	if rep.Nodes != nil {
		return p.inOrder(rep.Nodes), nil
	}
	return l.Nodes, nil
}

func (p *procLock) extend(ctx context.Context, l Lease) (Lease, error) {
	start := p.clock().Now()
	rep, err := p.leaseCall(ctx, "extend", l)
	if err != nil {
		return l, err
	}
	if rep.Token != "" && rep.Token != l.Token {
		p.fail(fmt.Errorf("broke the protocol: extend answered with another token %q", rep.Token))
		return l, p.gone()
	}
	l.ValidUntil = start.Add(p.validity(rep))
	return l, nil
}

// leaseCall sends a release or extend of l and sorts its reply: the reply
// for ok; ErrNotHeld for not-held (on release, the lease is then no longer
// the process's); a protocol failure for not-acquired; else unknown.
func (p *procLock) leaseCall(ctx context.Context, op string, l Lease) (procReply, error) {
	rep, err := p.call(ctx, p.about(op, l), nil)
	if err != nil {
		return rep, err
	}
	if op == "release" && (rep.Type == replyOK || rep.Type == replyNotHeld) {
		p.mu.Lock()
		delete(p.held, l.Token) // no longer the process's: its renewals are not this lease's
		p.mu.Unlock()
	}
	switch rep.Type {
	case replyOK:
		return rep, nil
	case replyNotHeld:
		return rep, definite(ErrNotHeld, rep.Error)
	case replyNotAcquired:
		p.fail(fmt.Errorf("broke the protocol: not-acquired is no reply to %s", op))
		return rep, p.gone()
	}
	return rep, fmt.Errorf("%s outcome unknown: %s", op, rep.Error)
}

// about is the request of type op about lease l: the resource's key it
// was asked for, and, from a version 2 process, the key it said it
// locked.
func (p *procLock) about(op string, l Lease) procRequest {
	r := procRequest{Type: op, Key: l.Key, Token: l.Token, Fence: l.Fence}
	p.mu.Lock()
	h, ok := p.held[l.Token]
	p.mu.Unlock()
	if ok && h.resource != l.Key {
		r.Key, r.LockKey = h.resource, l.Key
	}
	return r
}

// validity is how long a reply says the lease is valid: its validity_ms,
// else the TTL.
func (p *procLock) validity(rep procReply) time.Duration {
	if rep.ValidityMS != nil {
		return time.Duration(*rep.ValidityMS * float64(time.Millisecond))
	}
	return p.cfg.TTL
}

// clock is the client's clock.
func (p *procLock) clock() Clock {
	if p.cfg.Clock == nil {
		return SystemClock{}
	}
	return p.cfg.Clock
}

func (p *procLock) valid(ctx context.Context, l Lease) (bool, error) {
	rep, err := p.call(ctx, p.about("valid", l), nil)
	if err != nil {
		return false, err
	}
	switch {
	case rep.Type == replyOK && rep.Valid != nil:
		return *rep.Valid, nil
	case rep.Type == replyOK:
		p.fail(errors.New("broke the protocol: an ok valid reply without \"valid\""))
		return false, p.gone()
	case rep.Type == replyNotHeld:
		return false, nil
	case rep.Type == replyUnknown:
		return false, fmt.Errorf("valid outcome unknown: %s", rep.Error)
	}
	p.fail(fmt.Errorf("broke the protocol: %s is no reply to valid", rep.Type))
	return false, p.gone()
}

// ProcessClock asks a lock client process for its own clocks (the
// protocol's optional clock request): its wall clock and its monotonic
// clock, as it reads them.
func ProcessClock(ctx context.Context, l Locker) (wall time.Time, mono time.Duration, err error) {
	p := asProc(l)
	if p == nil {
		return time.Time{}, 0, errors.New("not a lock client process")
	}
	rep, err := p.call(ctx, procRequest{Type: "clock"}, nil)
	if err != nil {
		return time.Time{}, 0, err
	}
	if rep.Type != replyOK || rep.NowMS == 0 {
		return time.Time{}, 0, fmt.Errorf("clock: %s %s", rep.Type, rep.Error)
	}
	return time.UnixMicro(int64(rep.NowMS * 1000)), time.Duration(rep.MonoMS * float64(time.Millisecond)), nil
}

// asProc is the procLock behind a process Locker, or nil.
func asProc(l Locker) *procLock {
	switch p := l.(type) {
	case *procLock:
		return p
	case *procExtend:
		return p.procLock
	case *procValid:
		return p.procLock
	case *procExtendValid:
		return p.procLock
	}
	return nil
}

// Freeze stops the process group (SIGSTOP): everything the process does,
// its lock library's timers and refreshes included, stops.
func (p *proc) Freeze() { _ = syscall.Kill(-p.pgid, syscall.SIGSTOP) }

// Thaw continues the process group (SIGCONT).
func (p *proc) Thaw() { _ = syscall.Kill(-p.pgid, syscall.SIGCONT) }

// Crash kills the process group (SIGKILL): the client's operations from
// now on are unknown, and its run goes on without it.
func (p *proc) Crash() {
	p.mu.Lock()
	p.crashed = true
	p.mu.Unlock()
	_ = syscall.Kill(-p.pgid, syscall.SIGKILL)
}

// PID is the process's pid, which is also its process group's id.
func (p *proc) PID() int { return p.pgid }

// FakeClock is the process's libfaketime clock, nil without one.
func (p *proc) FakeClock() interface {
	Jump(d time.Duration)
	SetRate(rate float64)
} {
	if p.fake == nil {
		return nil
	}
	return p.fake
}

// Close ends the client's use of its process; the last client's Close ends
// the process: its stdin closes (a well-behaved process exits), and after
// a grace period, or at once when it is stopped, its process group is
// killed.
func (p *procLock) Close() error {
	last := false
	p.closeOnce.Do(func() {
		p.proc.mu.Lock()
		p.refs--
		last = p.refs <= 0
		p.proc.mu.Unlock()
	})
	if !last {
		return nil
	}
	return p.proc.close()
}

// close ends the process (procLock.Close).
func (p *proc) close() error {
	p.mu.Lock()
	p.crashed = true // from now on its exit is expected
	p.mu.Unlock()
	p.wmu.Lock()
	_ = p.stdin.Close()
	p.wmu.Unlock()
	t := time.NewTimer(500 * time.Millisecond)
	defer t.Stop()
	select {
	case <-p.waited:
	case <-t.C:
	}
	_ = syscall.Kill(-p.pgid, syscall.SIGKILL)
	_ = syscall.Kill(-p.pgid, syscall.SIGCONT)
	<-p.waited
	liveProcs.remove(p)
	p.fake.close()
	return nil
}

// kill kills the process group at once (KillAllProcesses).
func (p *proc) kill() {
	p.mu.Lock()
	p.crashed = true
	p.mu.Unlock()
	_ = syscall.Kill(-p.pgid, syscall.SIGKILL)
}

// liveProcs is every lock client process started and not yet closed, so
// that a second interrupt kills them all at once.
var liveProcs procSet

type procSet struct {
	mu sync.Mutex
	m  map[*proc]struct{}
}

func (s *procSet) add(p *proc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[*proc]struct{}{}
	}
	s.m[p] = struct{}{}
}

func (s *procSet) remove(p *proc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, p)
}

// KillAllProcesses kills every lock client process still running (a second
// interrupt: locksim exits without waiting for its runs to wind down).
// Processes also die with locksim on their own (parent-death signal).
func KillAllProcesses() {
	liveProcs.mu.Lock()
	defer liveProcs.mu.Unlock()
	for p := range liveProcs.m {
		p.kill()
	}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, b...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// protocolVersions lists the protocol versions locksim speaks, oldest
// first.
func protocolVersions() []int {
	var out []int
	for v := protocolMin; v <= ProtocolVersion; v++ {
		out = append(out, v)
	}
	return out
}

// ms is d in (fractional) milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

var _ ProcessLock = (*procLock)(nil)
