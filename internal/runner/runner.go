// Package runner carries out one run of a scenario: it starts the cluster,
// builds each client's lock algorithm on its own proxied connections, runs
// the workload and the nemesis together, winds down and returns the history.
// Violations are not errors: Run returns an error only when the harness
// itself could not do its job (infrastructure or internal failure).
package runner

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/observe"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/workload"
	"github.com/locksim/locksim/lock"
	"github.com/locksim/locksim/lock/lockkit"
)

// Options configure one run.
type Options struct {
	// Seed drives every random choice of the run.
	Seed int64
	// Backend: "local", "embedded" or "" (auto).
	Backend string
	// RedisServer is the redis-server binary; "" looks it up on PATH.
	RedisServer string
	Logger      *slog.Logger
	// Cluster, when set, is an already started cluster to run on instead
	// of starting one (sweeps reuse one per worker). It must fit the
	// scenario (ClusterOptions, Cluster.Fits); Run resets it first
	// (cluster.Reset: toxics removed, nodes healed, FLUSHALL) and leaves it
	// open. Backend and RedisServer are then ignored.
	Cluster *cluster.Cluster
	// External configures the external backend (Backend "external").
	External *cluster.External
	// Stream, when set, receives the history while the run goes on
	// (history.Recorder.Stream): the header, then operations as they are
	// invoked and complete, every StreamEvery (StreamPeriod when 0). A
	// run killed mid-way leaves what it did there. The caller rewrites the
	// file whole from Result.History at the end.
	Stream io.Writer
	// StreamEvery is how often the stream is written (wall time); 0 is
	// StreamPeriod. A page drawing the run as it goes (locksim serve)
	// streams more often.
	StreamEvery time.Duration

	// Started, when set (locksim serve), is called once, just before the
	// clients start, with the run's Control: faults fired by hand go
	// through it until the workload ends. It must not block.
	Started func(*Control)

	// SetUpDone, when set, is called once when the run's set-up is over
	// (its nodes started or reset, its clients built and warmed up, its
	// workload's resource set up), just before its clock starts; or when
	// Run returns without getting there. A pool lets few runs set up at
	// once with it: a set-up is a burst of CPU (redis-server and client
	// processes starting) that makes the runs already racing their
	// compressed time late (issue 32).
	SetUpDone func()

	// inspect, when set (tests), is called after the final heal and before
	// the cluster is closed.
	inspect func(*cluster.Cluster)
	// applied, when set (tests), is called right after a fault step was
	// applied, while it is active.
	applied func(history.FaultStep, *cluster.Cluster)
}

// Result is a finished run.
type Result struct {
	History history.History
	// Wall is the run's wall time, cluster start to last operation.
	Wall time.Duration
}

// Run runs sc once. sc.TimeScale is final (flags already applied).
func Run(ctx context.Context, sc scenario.Scenario, o Options) (*Result, error) {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	began := time.Now()
	setUpDone := onceOrNothing(o.SetUpDone)
	defer setUpDone()
	names := make([]string, sc.Clients)
	for i := range names {
		names[i] = scenario.ClientName(i)
	}
	cl := o.Cluster
	if cl != nil {
		if err := cl.Reset(ctx); err != nil {
			return nil, fmt.Errorf("reuse cluster: %w", err)
		}
	} else {
		var err error
		if cl, err = cluster.Start(ctx, ClusterOptions(sc, o)); err != nil {
			return nil, fmt.Errorf("start cluster: %w", err)
		}
		defer cl.Close()
	}

	r := &run{sc: sc, seed: o.Seed, log: log, cl: cl, names: names}
	r.scale = sc.TimeScale
	r.kind, _ = workload.Lookup(sc.Workload.Kind) // the parser refused unregistered names
	r.guard = workload.NewGuard(sc.Workload.Fenced(), sc.Workload.CheckAndSet)
	r.res = sc.Workload.Attrs.Start(workEnv{r})
	r.hparams = r.params()
	algoTraits := sc.Traits() // the parser refused unregistered names
	r.lockFree = algoTraits.LockFree
	r.shared = clients.NewShared()
	plan, err := faults.NewPlan(sc.Faults, sc.Nemesis, o.Seed, faults.Topology{Nodes: cl.NodeNames(), Clients: names,
		Scale: sc.TimeScale, TTL: sc.TTL.D(), Duration: sc.Duration.D(),
		Replicas: nodeNames(cl.Replicas()), Sentinels: nodeNames(cl.Sentinels())})
	if err != nil {
		return nil, fmt.Errorf("fault plan: %w", err)
	}
	for _, line := range plan.Lines(sc.TimeScale) {
		log.Info("fault plan", "step", line)
	}
	defer r.closeClients()  // also the clients built before one failed
	defer r.stopObservers() // also the observers started before one failed
	observed, err := r.setUp(ctx)
	if err != nil {
		return nil, err
	}

	setUpDone()
	r.rec = history.NewRecorder(time.Now())
	r.stalls.Store(&stallSink{rec: r.rec, log: r.rec.Log()})
	for _, w := range r.workers {
		w.log = r.rec.Log()
	}
	schedOpts := faults.SchedulerOptions{Logger: log, Scale: sc.TimeScale}
	if o.applied != nil {
		schedOpts.Applied = func(s history.FaultStep) { o.applied(s, cl) }
	}
	r.sched = faults.NewScheduler(plan, env{r}, r.rec, schedOpts)
	for _, o := range r.obs {
		o.Begin(r.rec.Log(), r.rec.Start())
	}
	h := history.History{Header: history.Header{
		Scenario: sc.Name, Seed: o.Seed, TimeScale: sc.TimeScale,
		Backend: cl.Backend(), Algorithm: sc.Algorithm, Traits: traits(algoTraits), Workload: sc.Workload.Kind,
		FencingEnforced: sc.Workload.Fenced(), CheckAndSet: sc.Workload.CheckAndSet, Clients: names, Nodes: cl.NodeNames(),
		RedisVersion: cl.RedisVersion(), Started: r.rec.Start().UTC(),
		Plan: plan.Steps, Params: r.hparams, Persistence: persistence(cl), Observed: observed,
	}}

	if o.Stream != nil {
		stop := r.rec.Stream(o.Stream, h.Header, cmp.Or(o.StreamEvery, StreamPeriod))
		defer func() {
			if err := stop(); err != nil {
				log.Warn("streaming the history failed; the history is kept in memory", "err", err)
			}
		}()
	}

	runCtx, cancel := context.WithTimeout(ctx, r.wall(sc.Duration.D()))
	defer cancel()
	r.runCtx, r.cancelRun = runCtx, cancel
	if sk := r.stalls.Load(); sk != nil {
		r.stalls.Store(&stallSink{rec: sk.rec, log: sk.log, run: runCtx})
	}
	r.sched.Prepare(runCtx)
	r.sched.Start(runCtx)
	ctl := &Control{sched: r.sched, rec: r.rec, scale: sc.TimeScale, over: make(chan struct{})}
	if o.Started != nil {
		o.Started(ctl)
	}
	lag := watchTimerLag(r.rec)
	var wg sync.WaitGroup
	for _, w := range r.workers {
		wg.Go(func() { w.run(runCtx) })
	}
	wg.Wait()
	h.Header.MaxTimerLagNS = max(int64(lag()), r.startLate.Load())
	r.sched.Stop()
	close(ctl.over)
	// A lock client process that exited or broke the protocol leaves no
	// verdict: what it did not do was not the lock's doing.
	if err := r.brokenClient(); err != nil {
		return nil, err
	}
	// A node that died by itself makes the history meaningless: its
	// violations were not made by the scenario's faults. No verdict then.
	for _, n := range append(cl.Nodes(), append(cl.Replicas(), cl.Sentinels()...)...) {
		if died, tail := n.DiedOnItsOwn(); died {
			return nil, fmt.Errorf("node %s died on its own during the run (no scheduled fault killed it); log tail:\n%s", n.Name(), tail)
		}
	}
	healErr := r.healAll(context.WithoutCancel(ctx))
	// The steps fired by hand join the plan, with the windows they had.
	h.Header.Plan = append(h.Header.Plan, r.sched.ManualSteps()...)
	if o.inspect != nil {
		o.inspect(cl)
	}
	if healErr != nil {
		return nil, fmt.Errorf("heal faults: %w", healErr)
	}
	if sc.ProbeEnabled() && ctx.Err() == nil {
		if err := r.probe(ctx); err != nil {
			return nil, err
		}
	}
	// Every command the nodes ran is recorded before the history is read.
	r.drainObservers(context.WithoutCancel(ctx))
	r.recordSwitches()
	end, start := time.Now(), r.rec.Start()
	h.Header.WallRate = history.WallRateOf(end.Sub(start), end.Round(0).Sub(start.Round(0)))
	if r := h.Header.WallRate; r > 0 && math.Abs(r-1) >= 1e-4 {
		log.Warn("the host's wall clock, on which Redis counts TTLs, ran apart from the monotonic clock (a clock being slewed); node times and TTLs are read at its rate",
			"wall_rate", r)
	}
	h.Ops = r.rec.Ops()
	if err := ctx.Err(); err != nil {
		return &Result{History: h, Wall: time.Since(began)}, fmt.Errorf("run interrupted: %w", err)
	}
	return &Result{History: h, Wall: time.Since(began)}, nil
}

// setUp builds and warms up the run's clients, sets up its workload's
// resource and starts its observers, before the run's clock starts: the
// observers' connecting is set-up, not time the clients start late by.
// It returns the names of the observed nodes.
func (r *run) setUp(ctx context.Context) ([]string, error) {
	if err := r.setupClients(); err != nil {
		return nil, err
	}
	if err := r.warmUp(ctx); err != nil {
		return nil, err
	}
	if err := r.res.Setup(ctx); err != nil {
		return nil, err
	}
	return r.observe(ctx)
}

// onceOrNothing is f once (sync.OnceFunc), or a no-op for a nil f.
func onceOrNothing(f func()) func() {
	if f == nil {
		return func() {}
	}
	return sync.OnceFunc(f)
}

// StreamPeriod is how often a streamed history is written (wall time): a
// run killed with SIGKILL loses at most this much of its record.
const StreamPeriod = 100 * time.Millisecond

// ClusterOptions are the cluster options a run of sc needs (for starting
// a cluster to pass as Options.Cluster, or checking one with Fits).
func ClusterOptions(sc scenario.Scenario, o Options) cluster.Options {
	names := make([]string, sc.Clients)
	for i := range names {
		names[i] = scenario.ClientName(i)
	}
	wall := func(d time.Duration) time.Duration { return time.Duration(float64(d) / sc.TimeScale) }
	st := sc.SentinelTimings()
	return cluster.Options{
		Backend: o.Backend, Nodes: sc.Nodes, Persistence: sc.Persistence,
		Clients: names, Logger: o.Logger, RedisServer: o.RedisServer,
		NodePersistence: sc.NodePersistence, External: o.External,
		// Replicated topologies and persistence timings (issue 17).
		Replicas: sc.Replicas, Sentinels: sc.Sentinels,
		Sentinel:     cluster.SentinelOptions{DownAfter: wall(st.DownAfter.D()), FailoverTimeout: wall(st.FailoverTimeout.D())},
		SaveInterval: wall(sc.SnapshotInterval().D()), PowerLossWindow: wall(time.Second),
	}
}

// run is the state of one run.
type run struct {
	sc    scenario.Scenario
	seed  int64
	scale float64
	log   *slog.Logger
	cl    *cluster.Cluster
	names []string
	// kind is the scenario's workload; res its resource of this run,
	// guard the resource's check of a write's lease; hparams the header's
	// parameters.
	kind    workload.Kind
	res     workload.Run
	guard   *workload.Guard
	hparams map[string]int64
	rec     *history.Recorder
	stalls  atomic.Pointer[stallSink] // set with rec: the clients' stall hooks record there
	// startLate is the latest a client began its workload past its
	// planned start (wall ns, startLateness): part of the run's lateness
	// with the timer watch's worst (Header.MaxTimerLagNS).
	startLate atomic.Int64

	conns   []*redis.Client
	workers []*worker
	// retired are the incarnations restart-client faults replaced; wmu
	// guards workers and retired while the run's faults reach them.
	retired  []*worker
	wmu      sync.Mutex
	sched    *faults.Scheduler
	obs      []*observe.Observer
	runCtx   context.Context
	nextProc atomic.Int64
	lockFree bool
	shared   *clients.Shared

	// cancelRun ends runCtx; broken is the first infrastructure error of
	// a client (a lock client process that failed), which ends the run.
	cancelRun context.CancelFunc
	broken    atomic.Pointer[error]
}

// worker returns the named worker, or nil.
func (r *run) worker(name string) *worker {
	r.wmu.Lock()
	defer r.wmu.Unlock()
	for _, w := range r.workers {
		if w.name == name {
			return w
		}
	}
	return nil
}

// incarnation builds the next incarnation of a client a restart-client
// fault killed: a new process (a fresh lock client with its own owner
// identity, process id, pause gate and random stream, all from the run's
// seed and the incarnation's number) on the same host (its clock and its
// links to the nodes). It takes old's place among the workers; old is kept
// for the final probe and the clean-up.
func (r *run) incarnation(old *worker) (*worker, error) {
	i := slices.Index(r.names, old.name)
	n := old.incarnation + 1
	rng := rand.New(rand.NewPCG(uint64(r.seed), uint64(i+1)|uint64(n)<<40))
	w := &worker{r: r, name: old.name, proc: int(r.nextProc.Add(1) - 1), rng: rng, clock: old.clock, view: old.view,
		nodes: old.nodes, locked: old.locked, log: r.rec.Log(), incarnation: n}
	w.gate = faults.NewGate(func(point string) { r.sched.Point(w.name, point) })
	cfg := r.lockConfig(old.nodes, rng, old.view, &gateForAlgorithm{r: r, w: w})
	cfg.Client, cfg.Seed = w.name, uint64(r.seed)^uint64(i+1)<<32^uint64(n)<<56
	cfg.Host = clients.NewHost(r.sc.ProcessOf(w.name), fmt.Sprintf("%016x%016x", rng.Uint64(), rng.Uint64()))
	if err := w.build(cfg); err != nil {
		return nil, fmt.Errorf("restart client %s: %w", w.name, err)
	}
	r.wmu.Lock()
	defer r.wmu.Unlock()
	for j, x := range r.workers {
		if x == old {
			r.workers[j] = w
		}
	}
	r.retired = append(r.retired, old)
	return w, nil
}

// gateForAlgorithm lets an algorithm reach its client's pause points (e.g.
// in-acquire). A stop-the-world pause is not bounded by the operation's
// deadline, so the freeze runs under the run's context instead.
type gateForAlgorithm struct {
	r *run
	w *worker
}

// Point passes the client's gate; before a renewal (in-renew) it first
// waits while a starve-renewals fault holds the renewer back.
func (g gateForAlgorithm) Point(ctx context.Context, point string) error {
	if g.r.runCtx != nil {
		ctx = g.r.runCtx
	}
	if point == history.PointInRenew {
		if err := g.w.starve.Wait(ctx); err != nil {
			return err
		}
	}
	return g.w.gate.Point(ctx, point)
}

// Renewing records a background renewal of the worker's lease (watchdog)
// as an extend operation (lock.Renewals). Renewals get a process of their
// own (they run beside the worker's own operations), a new one after an
// unknown outcome.
func (g gateForAlgorithm) Renewing(l clients.Lease) func(err error) {
	proc, v := g.renewal(l)
	p := g.w.log.Begin(proc, g.w.name, history.Extend, g.w.resource(l), v)
	return func(err error) {
		t := outcome(err)
		p.EndErr(t, v, err)
		g.renewed(t)
	}
}

// Renewed records a renewal the lock heard of only afterwards (a lock
// client process's renewed event) as an extend operation from took ago to
// now (lock.Renewals).
func (g gateForAlgorithm) Renewed(l clients.Lease, took time.Duration, err error) {
	proc, v := g.renewal(l)
	now := g.r.rec.Now()
	t := outcome(err)
	inv := max(now-int64(max(took, 0)), 0)
	g.w.log.Span(proc, history.Extend, g.w.name, g.w.resource(l), v, inv, now, t)
	g.renewed(t)
}

// renewal is the process and value of a renewal of l.
func (g gateForAlgorithm) renewal(l clients.Lease) (int, history.Value) {
	w := g.w
	w.mu.Lock()
	if w.renewProc == 0 {
		w.renewProc = int(g.r.nextProc.Add(1) - 1)
	}
	proc := w.renewProc
	w.mu.Unlock()
	return proc, history.Value{Token: l.Token, Fence: l.Fence, TTL: int64(g.r.ttl()), Renewal: true, LockKey: w.lockKey(l)}
}

// renewed gives the renewals a new process after an unknown outcome.
func (g gateForAlgorithm) renewed(t history.Type) {
	if t == history.Info {
		g.w.mu.Lock()
		g.w.renewProc = 0
		g.w.mu.Unlock()
	}
}

// wall converts a scenario duration to wall time.
func (r *run) wall(d time.Duration) time.Duration {
	return time.Duration(float64(d) / r.scale)
}

// ttl is the lease TTL in wall time, as the algorithms are given it.
func (r *run) ttl() time.Duration { return r.wall(r.sc.TTL.D()) }

// opTimeout bounds one Redis command of a client, wall time (the go-redis
// connections' timeouts): the scenario's choice for its algorithm
// (node_timeout for a multi-node algorithm, library.timeout for an
// adapter) or by default half the TTL, between 50 ms and 2 s
// (lock.DefaultCommandTimeout). A command that times out is recorded as
// info.
func (r *run) opTimeout() time.Duration {
	if d := r.cmdTimeout(); d > 0 {
		return d
	}
	return lock.DefaultCommandTimeout(r.ttl()) // no deadline: the default still bounds dials and operations
}

// cmdTimeout is the read and write timeout of the clients' connections,
// wall time: the scenario's choice (node_timeout, library.timeout), else
// the algorithm's own (lock.Algorithm.CommandTimeout, which may be
// lock.NoDeadline), else opTimeout's default.
func (r *run) cmdTimeout() time.Duration {
	switch {
	case r.sc.NodeTimeout > 0:
		return r.wall(r.sc.NodeTimeout.D())
	case r.sc.Library != nil && r.sc.Library.Timeout > 0:
		return r.wall(r.sc.Library.Timeout.D())
	}
	if a, ok := clients.Lookup(r.sc.Algorithm); ok && a.CommandTimeout != nil {
		if d := a.CommandTimeout(r.ttl()); d > 0 || d == lock.NoDeadline {
			return d
		}
	}
	return lock.DefaultCommandTimeout(r.ttl())
}

// opDeadline bounds one lock operation (an Acquire, Release or Extend
// call), wall time. By default it is the command timeout; when the
// scenario chose the algorithm's timeouts it leaves room for what the
// algorithm does with them (a Redlock acquire sends one command per node,
// and unlocks every node when it fails) and for a process's own reply
// timeout.
func (r *run) opDeadline() time.Duration {
	d := r.opTimeout()
	if r.sc.NodeTimeout > 0 || (r.sc.Library != nil && r.sc.Library.Timeout > 0) || r.sc.Process != nil {
		d *= time.Duration(2*max(r.sc.Nodes, 1) + 1)
	}
	if p := r.sc.Process; p != nil && p.Timeout > 0 {
		d = max(d, r.wall(p.Timeout.D())+r.opTimeout())
	}
	return d
}

// brokeClient records the first infrastructure error of a client (a lock
// client process that exited or broke the protocol) and ends the run.
func (r *run) brokeClient(err error) {
	if r.broken.CompareAndSwap(nil, &err) && r.cancelRun != nil {
		r.cancelRun()
	}
}

// brokenClient is the first infrastructure error of a client: one recorded
// by brokeClient, or a lock client process found failed.
func (r *run) brokenClient() error {
	if e := r.broken.Load(); e != nil {
		return fmt.Errorf("client: %w", *e)
	}
	for _, w := range r.workers {
		if w.process != nil {
			if err := w.process.Failed(); err != nil {
				return fmt.Errorf("client %s: %w", w.name, err)
			}
		}
	}
	return nil
}

func (r *run) setupClients() error {
	r.nextProc.Store(int64(len(r.names)))
	var builds []func() error
	hosts := r.hosts()
	for i, name := range r.names {
		var nodes []clients.Node
		for n, nodeName := range r.cl.NodeNames() {
			// locksim's own connection settings, the public ones
			// (lockkit.Options), with the dial timeout of the run's
			// operations, four connections and one redial.
			opts := lockkit.Options(r.cl.LinkAddr(name, n), observe.ClientName(name, nodeName), r.cmdTimeout())
			opts.Dialer, opts.DialTimeout = observe.Dialer(observe.ClientName(name, nodeName), r.opTimeout()), r.opTimeout()
			opts.PoolSize, opts.DialerRetries = 4, 1
			if len(r.cl.Sentinels()) > 0 {
				// The master is whichever node the sentinels name (issue 17).
				opts.Dialer = observe.Named(observe.ClientName(name, nodeName), r.cl.MasterDialer(name, nodeName))
				// go-redis stops dialing after PoolSize failed dials in a
				// row and probes once a second until one succeeds: at 4, a
				// client retrying through a failover kept its dead master's
				// dial error for up to 1 s after Sentinel's switch-master
				// (0.84 s of a failover's own 2.71 s, failover-lost-lock).
				// sentinelPoolSize is go-redis's default on 2 CPUs, what an
				// application's FailoverClient has there; the pool still
				// opens only the connections its commands need at once.
				opts.PoolSize = sentinelPoolSize
			}
			c := redis.NewClient(opts)
			stalls := stallHook{sink: &r.stalls, client: name, node: nodeName}
			c.AddHook(stalls)
			r.conns = append(r.conns, c)
			nodes = append(nodes, clients.Node{Name: nodeName, Cmd: c,
				Addr: r.cl.LinkAddr(name, n), ConnName: observe.ClientName(name, nodeName), Stalls: stalls})
		}
		rng := rand.New(rand.NewPCG(uint64(r.seed), uint64(i+1)))
		clock := clients.NewFaultyClock()
		var view clients.Clock = clock
		if a, ok := clients.Lookup(r.sc.Algorithm); ok && a.Traits.MonotonicClock {
			view = clock.Monotonic() // clock steps do not reach it (S16b)
		}
		w := &worker{r: r, name: name, proc: i, rng: rng, clock: clock, view: view, nodes: nodes, locked: map[string]bool{}}
		w.gate = faults.NewGate(func(point string) { r.sched.Point(name, point) })
		cfg := r.lockConfig(nodes, rng, view, &gateForAlgorithm{r: r, w: w})
		cfg.Client, cfg.Seed = name, uint64(r.seed)^uint64(i+1)<<32
		cfg.Host = hosts[name]
		builds = append(builds, func() error {
			if err := w.build(cfg); err != nil {
				return fmt.Errorf("client %s: %w", name, err)
			}
			return nil
		})
		r.workers = append(r.workers, w)
	}
	return buildLockers(builds)
}

// buildLockers runs the clients' constructors, a few at once: a lock
// client process takes a while to start (an interpreter loading its
// libraries), and fifty of them one after the other would take seconds.
// It returns their errors joined; every constructor has returned by then.
func buildLockers(builds []func() error) error {
	var wg sync.WaitGroup
	errs := make([]error, len(builds))
	sem := make(chan struct{}, 8)
	for i, b := range builds {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = b()
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// lockConfig is the algorithm configuration of one client; g, when not
// nil, is its worker's pause gate and renewal recorder.
func (r *run) lockConfig(nodes []clients.Node, rng *rand.Rand, clock clients.Clock, g *gateForAlgorithm) clients.Config {
	c := clients.Config{Config: lock.Config{Nodes: nodes, TTL: r.ttl(), Rand: rng, Clock: clock,
		Permits: int(r.hparams[history.ParamPermits]), CommandTimeout: r.cmdTimeout()},
		Library: r.library(), Shared: r.shared, OpTimeout: r.opTimeout()}
	if g != nil {
		c.Gate, c.Renewals = *g, *g
	}
	c.NodeTimeout = r.wall(r.sc.NodeTimeout.D())
	c.Process = r.process()
	c.MinHold = r.wall(r.sc.MinHold.D())
	return c
}

// build builds the worker's lock from cfg. A lock client process's is
// also the runner's handle on its process (pauses, kills, its clock), which
// the runner asks of package clients by name, never of the Locker.
func (w *worker) build(cfg clients.Config) error {
	if w.r.sc.Traits().Process {
		p, err := clients.NewProcess(cfg)
		if err != nil {
			return err
		}
		w.lock, w.process = p, p
		return nil
	}
	lk, err := clients.New(w.r.sc.Algorithm, cfg)
	if err != nil {
		return err
	}
	w.lock = lk
	return nil
}

// hosts gives every client the simulated process it runs in: the one the
// scenario names for it (shared with the other clients naming it), or one
// of its own. Each process's owner identity is drawn from the run's seed,
// in the order of its first client.
func (r *run) hosts() map[string]*clients.Host {
	out := map[string]*clients.Host{}
	byName := map[string]*clients.Host{}
	for i, name := range r.names {
		pname := r.sc.ProcessOf(name)
		h, ok := byName[pname]
		if !ok {
			rng := rand.New(rand.NewPCG(uint64(r.seed), 0x4057<<32|uint64(i+1)))
			h = clients.NewHost(pname, fmt.Sprintf("%016x%016x", rng.Uint64(), rng.Uint64()))
			byName[pname] = h
		}
		out[name] = h
	}
	return out
}

// process is the scenario's process block in wall time, nil when absent.
func (r *run) process() *clients.ProcessOptions {
	p := r.sc.Process
	if p == nil {
		return nil
	}
	return &clients.ProcessOptions{Command: p.Command, Dir: p.Dir, Env: p.EnvList(),
		Timeout: r.wall(p.Timeout.D()), Options: p.Options, FakeTime: p.FakeTime, NoInFlightPause: !r.inFlightPause()}
}

// inFlightPause reports whether a fault may fire inside an acquire (point
// in-acquire, or a point the seed draws: a random point or the nemesis).
func (r *run) inFlightPause() bool {
	if r.sc.Nemesis != nil {
		return true
	}
	for _, f := range r.sc.Faults {
		if f.When.Kind == history.TriggerPoint && (f.When.Point == history.PointInAcquire || f.When.Point == faults.PointRandom) {
			return true
		}
	}
	return false
}

// warmUp opens every client's connections before time zero, so the first
// acquire does not pay for a TCP handshake through the proxy.
func (r *run) warmUp(ctx context.Context) error {
	for _, c := range r.conns {
		// The clients' dial and read timeouts are scaled to the run (tens
		// of ms at high compression); on a busy machine one ping may miss
		// them. Retry for up to 5 s before calling the link broken.
		deadline := time.Now().Add(5 * time.Second)
		for {
			pctx, cancel := context.WithDeadline(ctx, deadline)
			err := c.Ping(pctx).Err()
			cancel()
			if err == nil {
				break
			}
			if ctx.Err() != nil || !time.Now().Add(20*time.Millisecond).Before(deadline) {
				return fmt.Errorf("reach node %s through its proxy: %w", c.Options().Addr, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return nil
}

func (r *run) closeClients() {
	for _, w := range slices.Concat(r.workers, r.retired) {
		if c, ok := w.lock.(io.Closer); ok {
			_ = c.Close() // a lock client process ends here
		}
	}
	for _, c := range r.conns {
		_ = c.Close()
	}
}

// outcome maps a lock error to a history type: nil → ok, a definite "no" →
// fail, anything else → info (the operation may have taken effect).
func outcome(err error) history.Type {
	switch {
	case err == nil:
		return history.OK
	case errors.Is(err, clients.ErrNotAcquired), errors.Is(err, clients.ErrNotHeld):
		return history.Fail
	default:
		return history.Info
	}
}

// library is the scenario's library block with durations in wall time; the
// zero value (library defaults) when absent.
func (r *run) library() clients.LibraryOptions {
	l := r.sc.Library
	if l == nil {
		return clients.LibraryOptions{}
	}
	return clients.LibraryOptions{Tries: l.Tries, RetryDelay: r.wall(l.RetryDelay.D()),
		DriftFactor: l.DriftFactor, Refresh: r.wall(l.Refresh.D()), Timeout: r.wall(l.Timeout.D())}
}

// sentinelPoolSize is a lock client's go-redis PoolSize in a Sentinel
// topology: go-redis's default, 10 per GOMAXPROCS, on 2 CPUs (fixed, so
// that a run does not depend on the machine's CPUs). Its dial circuit
// breaker opens after that many failed dials in a row.
const sentinelPoolSize = 20

// lagTick is the period of the timer-lag watch.
const lagTick = 5 * time.Millisecond

// watchTimerLag starts measuring how late a lagTick timer fires, as the
// workers' own timers and sleeps would on a busy machine (Go scheduler and
// CPU contention), recording into rec every lag of history.LagRecordNS or
// more as a history.TimerLag operation (due → fired); stop ends the watch
// and returns the worst lag seen. One timer serves every run of the
// process whose workload is going (lagWatch): twelve runs at once wake
// one goroutine 200 times a second, not twelve (issue 32).
func watchTimerLag(rec *history.Recorder) (stop func() time.Duration) {
	s := &lagSub{rec: rec, log: rec.Log()}
	lagWatch.mu.Lock()
	if lagWatch.subs == nil {
		lagWatch.subs = map[*lagSub]struct{}{}
	}
	lagWatch.subs[s] = struct{}{}
	if !lagWatch.running {
		lagWatch.running = true
		go lagLoop()
	}
	lagWatch.mu.Unlock()
	return func() time.Duration {
		lagWatch.mu.Lock()
		defer lagWatch.mu.Unlock()
		delete(lagWatch.subs, s)
		return s.worst
	}
}

// CongestedLag is the timer lag (wall time) from which the process's
// timer watch counts the machine as congested (LastCongested); suites
// lower the runs they let go at once from it (suite.Congested).
const CongestedLag = 40 * time.Millisecond

// lastCongested is when (Unix ns) the watch last saw a timer CongestedLag
// or more late; 0 never.
var lastCongested atomic.Int64

// LastCongested is when the process's timer watch last saw a timer fire
// CongestedLag or more late (wall clock; the zero Time if never): a
// suite's pool raises its level only after a while without one.
func LastCongested() time.Time {
	if ns := lastCongested.Load(); ns != 0 {
		return time.Unix(0, ns)
	}
	return time.Time{}
}

// lagWatch is the process's timer-lag watch: the runs it measures, and
// whether its loop runs (it ends when no run is left).
var lagWatch struct {
	mu      sync.Mutex
	subs    map[*lagSub]struct{}
	running bool
}

// lagSub is one run's part of the watch.
type lagSub struct {
	rec   *history.Recorder
	log   *history.Log
	worst time.Duration
}

// lagLoop fires a lagTick timer over and over and tells every run how late
// each fired, until no run is left.
func lagLoop() {
	t := time.NewTimer(lagTick)
	defer t.Stop()
	due := time.Now().Add(lagTick)
	for range t.C {
		lagWatch.mu.Lock()
		// After the scheduler ran us and we had the watch: both delays
		// count, and the next tick is due from here.
		now := time.Now()
		late := now.Sub(due)
		if late >= CongestedLag {
			lastCongested.Store(now.UnixNano())
		}
		if len(lagWatch.subs) == 0 {
			lagWatch.running = false
			lagWatch.mu.Unlock()
			return
		}
		for s := range lagWatch.subs {
			s.worst = max(s.worst, late)
			if int64(late) >= history.LagRecordNS {
				start := s.rec.Start()
				s.log.Span(history.NodeProcess, history.TimerLag, "", "", history.Value{}, max(0, int64(due.Sub(start))), int64(now.Sub(start)), history.OK)
			}
		}
		lagWatch.mu.Unlock()
		due = now.Add(lagTick)
		t.Reset(lagTick)
	}
}

// persistence is each node's persistence, by name, as the cluster
// started it.
func persistence(cl *cluster.Cluster) map[string]string {
	out := map[string]string{}
	for _, n := range cl.Nodes() {
		out[n.Name()] = n.Persistence()
	}
	return out
}

// nodeNames are the names of nodes.
func nodeNames(ns []*cluster.Node) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Name())
	}
	return out
}

// traits is what the history header records of an algorithm's traits.
func traits(t clients.Traits) []string {
	var out []string
	for _, tr := range []struct {
		on   bool
		name string
	}{
		{t.Fenced, history.TraitFenced}, {t.MultiNode, history.TraitMultiNode}, {t.LockFree, history.TraitLockFree},
		{t.DeletesByKey, history.TraitDeletesByKey}, {t.Process, history.TraitProcess},
		{t.InProcess, history.TraitInProcess}, {t.NoLock, history.TraitNoLock},
	} {
		if tr.on {
			out = append(out, tr.name)
		}
	}
	return out
}

// recordSwitches adds the promotions the sentinels announced during the
// run to the history (history.MasterSwitch).
func (r *run) recordSwitches() {
	start := r.rec.Start()
	log := r.rec.Log()
	for _, sw := range r.cl.Switches(start) {
		t := max(int64(sw.At.Sub(start)), 0)
		log.Span(history.NodeProcess, history.MasterSwitch, "", "", history.Value{Node: sw.Group, Cmd: []string{sw.Old, sw.New}}, t, t, history.OK)
	}
}

// observe starts one observer per node (MONITOR on a direct connection),
// all at once, when the scenario observes and the backend can: the
// embedded backend cannot (miniredis has no MONITOR). It returns the names
// of the observed nodes. The observers record nothing until begun
// (Observer.Begin), once the run's clock started.
func (r *run) observe(ctx context.Context) ([]string, error) {
	if !r.sc.Observed() || r.cl.Backend() == cluster.BackendEmbedded {
		return nil, nil
	}
	names := r.cl.NodeNames()
	obs := make([]*observe.Observer, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Go(func() { obs[i], errs[i] = observe.Start(ctx, n, r.cl.NodeAddr(i), r.log) })
	}
	wg.Wait()
	for _, o := range obs {
		if o != nil {
			r.obs = append(r.obs, o)
		}
	}
	if err := errors.Join(errs...); err != nil {
		r.stopObservers()
		return nil, fmt.Errorf("observe the nodes: %w", err)
	}
	return names, nil
}

// drainObservers waits until every observer recorded what its node ran so
// far; an observer that cannot drain (its node is down) is logged, and the
// history keeps what it saw.
func (r *run) drainObservers(ctx context.Context) {
	for _, o := range r.obs {
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		if err := o.Drain(dctx); err != nil {
			r.log.Warn("node observer could not drain; its last commands may be missing", "err", err)
		}
		cancel()
	}
}

// stopObservers ends every observation (idempotent).
func (r *run) stopObservers() {
	for _, o := range r.obs {
		o.Stop()
	}
	r.obs = nil
}
