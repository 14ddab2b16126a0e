package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/observe"
	"github.com/locksim/locksim/internal/scenario"
)

// params are the workload's numbers the checkers need (history
// Header.Params): the scenario's, then the workload's own; durations in
// wall ns.
func (r *run) params() map[string]int64 {
	sc := r.sc
	p := map[string]int64{history.ParamKeys: int64(sc.Workload.Keys), history.ParamClients: int64(sc.Clients)}
	for k, v := range sc.Workload.Attrs.Params(func(d time.Duration) int64 { return int64(r.wall(d)) }) {
		p[k] = v
	}
	if sc.ProbeEnabled() {
		p[history.ParamProbeBoundNS] = int64(r.wall(probeBound(sc)))
	}
	if sc.ExpectLive {
		p[history.ParamExpectLive] = 1
	}
	if sc.MinAcquires != nil {
		p[history.ParamMinAcquires] = int64(*sc.MinAcquires)
	}
	return p
}

// probeBound is how long the final probe may wait for a grant, scenario
// time: the scenario's probe_timeout, else twice the TTL.
func probeBound(sc scenario.Scenario) time.Duration { return sc.ProbeWait().D() }

// probe is the final liveness probe: after every fault healed and the
// workers finished, a fresh client reaching every node directly (a healthy
// link) acquires and releases each lock key some client acquired during the
// run. Each probe is one `probe` operation: ok when it got the lock within
// probe_timeout (default twice the TTL, scenario time), fail when it did
// not.
func (r *run) probe(ctx context.Context) error {
	// The workers have finished: their key sets are theirs no more.
	seen := map[string]bool{}
	var keys []string
	for _, w := range r.workers {
		for k := range w.locked {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return nil
	}
	var nodes []clients.Node
	for i, name := range r.cl.NodeNames() {
		opts := &redis.Options{Addr: r.cl.NodeAddr(i), Protocol: 2, MaxRetries: -1, Dialer: observe.Dialer(observe.ClientName(history.ProbeClient, name), r.opTimeout()),
			DialTimeout: r.opTimeout(), ReadTimeout: r.opTimeout(), WriteTimeout: r.opTimeout(),
			ContextTimeoutEnabled: true, PoolSize: 2, DisableIdentity: true}
		if len(r.cl.Sentinels()) > 0 {
			opts.Dialer = observe.Named(observe.ClientName(history.ProbeClient, name), r.cl.DirectMasterDialer(name)) // whoever is master now (issue 17)
		}
		c := redis.NewClient(opts)
		defer c.Close()
		c.AddHook(stallHook{sink: &r.stalls, client: history.ProbeClient, node: name})
		nodes = append(nodes, clients.Node{Name: name, Cmd: c, Addr: r.cl.NodeAddr(i),
			ConnName: observe.ClientName(history.ProbeClient, name)})
	}
	rng := rand.New(rand.NewPCG(uint64(r.seed), 0x70726f6265)) // "probe"
	cfg := r.lockConfig(nodes, rng, clients.SystemClock{}, nil)
	cfg.Client = history.ProbeClient
	if cfg.Process != nil {
		p := *cfg.Process
		p.FakeTime = "" // the probe's clock is true
		cfg.Process = &p
	}
	lk, err := clients.New(r.sc.Algorithm, cfg)
	if err != nil {
		return fmt.Errorf("probe client: %w", err)
	}
	if c, ok := lk.(io.Closer); ok {
		defer c.Close() // a lock client process ends here
	}
	bound := r.wall(probeBound(r.sc))
	every := min(max(r.wall(r.sc.RetryDelay.D()), time.Millisecond), max(r.wall(r.sc.TTL.D())/10, time.Millisecond))
	for _, key := range keys {
		r.probeKey(ctx, lk, key, bound, every)
	}
	return nil
}

func (r *run) probeKey(ctx context.Context, lk clients.Locker, key string, bound, every time.Duration) {
	proc := int(r.nextProc.Add(1) - 1)
	v := history.Value{TTL: int64(r.ttl())}
	p := r.rec.Begin(proc, history.ProbeClient, history.Probe, key, v)
	deadline := time.Now().Add(bound)
	var last error
	for {
		octx, cancel := context.WithTimeout(ctx, r.opDeadline())
		lease, err := lk.Acquire(octx, key)
		cancel()
		if err == nil {
			v.Token, v.Fence, v.Nodes = lease.Token, lease.Fence, lease.Nodes
			if lease.Key != "" && lease.Key != key {
				v.LockKey = lease.Key // the algorithm derived its own key
			}
			rctx, cancel := context.WithTimeout(ctx, r.opDeadline())
			if lk.Release(rctx, lease) == nil {
				v.Removed = true
			}
			cancel()
			p.End(history.OK, v, "")
			return
		}
		last = err
		if !time.Now().Add(every).Before(deadline) || ctx.Err() != nil {
			break
		}
		time.Sleep(every)
	}
	msg := ""
	if last != nil && !errors.Is(last, clients.ErrNotAcquired) {
		msg = last.Error()
	}
	p.End(history.Fail, v, msg)
}
