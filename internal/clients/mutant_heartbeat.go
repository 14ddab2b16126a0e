package clients

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/locksim/locksim/lock"
)

// pidValue is the owner value pid-expire-heartbeat stores: the process id,
// which is 1 for every scheduler in its own container (rq #1354: PIDs "can
// coincide" across servers).
const pidValue = "1"

// pidExpireHeartbeat is rq's scheduler lock before PR #2458 (rq/scheduler.py
// at 56e756f5; BR-25): SET key pid NX EX for each queue it is configured
// for, a heartbeat that is a plain EXPIRE of every configured queue's key
// whoever holds it (rq #1707), and a stop that is one plain DEL of all of
// them (PR #1914). The value is the PID, the same for every client, so no
// command can tell one scheduler's lock from another's; and lock loss is
// never noticed: the heartbeat extends the keys whoever holds them, and its
// answer is ignored, so a scheduler that once acquired leads for good.
// The configured queues are the keys it was asked to Acquire, whether it
// got them or not (rq's _queue_names).
type pidExpireHeartbeat struct {
	cfg  Config
	node Node

	mu     sync.Mutex
	queues []string // every key asked for, in first-asked order
}

var pidExpireHeartbeatAlgorithm = Algorithm{
	Name:   "pid-expire-heartbeat",
	About:  "SET NX with the PID as value (1 in every container), heartbeat by plain PEXPIRE of every configured queue's key whoever holds it, stop by one plain DEL of them all (rq's scheduler lock before PR #2458)",
	New:    func(c Config) (Locker, error) { return &pidExpireHeartbeat{cfg: c, node: c.Nodes[0]}, nil },
	Traits: Traits{Traits: lock.Traits{ClientClock: true, Heartbeat: true}},
}

func (p *pidExpireHeartbeat) Name() string { return "pid-expire-heartbeat" }

// configured records key as one of the scheduler's queues and returns them
// all.
func (p *pidExpireHeartbeat) configured(key string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !slices.Contains(p.queues, key) {
		p.queues = append(p.queues, key)
	}
	return slices.Clone(p.queues)
}

// Acquire sets the key to the PID with NX PX TTL; the key becomes one of
// the configured queues whatever the answer.
func (p *pidExpireHeartbeat) Acquire(ctx context.Context, key string) (Lease, error) {
	p.configured(key)
	start := p.cfg.Clock.Now()
	ok, err := p.node.Cmd.SetNX(ctx, key, pidValue, p.cfg.TTL).Result()
	switch {
	case err != nil:
		return Lease{}, fmt.Errorf("set nx on %s: %w", p.node.Name, err)
	case !ok:
		return Lease{}, ErrNotAcquired
	}
	return Lease{Key: key, Token: pidValue, ValidUntil: start.Add(p.cfg.TTL), Nodes: []string{p.node.Name}}, nil
}

// Extend is the heartbeat: PEXPIRE of every configured queue's key,
// whoever holds it, the lease's own included. Like rq's heartbeat() it
// ignores what the commands answered: a key that is gone, or is another
// scheduler's, changes nothing for the scheduler, which goes on believing
// it leads. Only an error reaching the node fails it.
func (p *pidExpireHeartbeat) Extend(ctx context.Context, l Lease) (Lease, error) {
	start := p.cfg.Clock.Now()
	for _, k := range p.configured(l.Key) {
		if err := p.node.Cmd.PExpire(ctx, k, p.cfg.TTL).Err(); err != nil {
			return l, fmt.Errorf("heartbeat of %s on %s: %w", k, p.node.Name, err)
		}
	}
	l.ValidUntil = start.Add(p.cfg.TTL)
	return l, nil
}

// Release is the stop: one DEL of every configured queue's key, whoever
// holds them; ErrNotHeld when none was there.
func (p *pidExpireHeartbeat) Release(ctx context.Context, l Lease) error {
	n, err := p.node.Cmd.Del(ctx, p.configured(l.Key)...).Result()
	if err != nil {
		return fmt.Errorf("release on %s: %w", p.node.Name, err)
	}
	if n == 0 {
		return ErrNotHeld
	}
	return nil
}

// checkedHeartbeat is the scheduler lock as rq PR #2458 made it: a random
// owner token, a heartbeat that extends the key only while it still holds
// that token (compare-and-pexpire) and tells the scheduler when it does
// not, and a compare-and-delete stop (BR-25's fix).
type checkedHeartbeat struct {
	single
}

var checkedHeartbeatAlgorithm = Algorithm{
	Name:   "checked-heartbeat",
	About:  "safe lock whose heartbeat is a compare-and-pexpire that reports a lost lock (rq's scheduler lock after PR #2458)",
	New:    newCheckedHeartbeat,
	Traits: Traits{Traits: lock.Traits{ClientClock: true, Heartbeat: true}},
}

func newCheckedHeartbeat(c Config) (Locker, error) {
	return &checkedHeartbeat{single{name: "checked-heartbeat", cfg: c, node: c.Nodes[0], cad: true}}, nil
}

// Extend resets the lease's TTL if the key still holds its token;
// ErrNotHeld when it does not.
func (h *checkedHeartbeat) Extend(ctx context.Context, l Lease) (Lease, error) {
	start := h.cfg.Clock.Now()
	n, err := compareAndPexpire.Run(ctx, h.node.Cmd, []string{l.Key}, l.Token, ttlMillis(h.cfg.TTL)).Int64()
	if err != nil {
		return l, fmt.Errorf("heartbeat on %s: %w", h.node.Name, err)
	}
	if n == 0 {
		return l, ErrNotHeld
	}
	l.ValidUntil = start.Add(h.cfg.TTL)
	return l, nil
}
