package clients

import (
	"context"
	"fmt"

	"github.com/locksim/locksim/lock"
	"github.com/locksim/locksim/lock/lockkit"
)

// setnxExpire acquires with SETNX and then a separate PEXPIRE: the
// non-atomic acquire that `SET key value NX PX ttl` exists to replace
// (lock-theory S24). A client that dies between the two commands leaves a
// key without a TTL, which no one can ever acquire again. The gate's
// in-acquire point lies between the two commands. Release is
// compare-and-delete.
type setnxExpire struct {
	cfg  Config
	node Node
}

var setnxExpireAlgorithm = Algorithm{
	Name:   "setnx-expire",
	About:  "SETNX, then a separate PEXPIRE: the non-atomic acquire; a crash in between leaves a key that never expires (S24)",
	New:    newSetnxExpire,
	Traits: Traits{Traits: lock.Traits{ClientClock: true}},
}

func newSetnxExpire(c Config) (Locker, error) {
	return &setnxExpire{cfg: c, node: c.Nodes[0]}, nil
}

func (s *setnxExpire) Name() string { return "setnx-expire" }

// Acquire runs SETNX, passes the in-acquire point, then PEXPIRE. An error
// after a successful SETNX is unknown: the key is set, perhaps forever.
func (s *setnxExpire) Acquire(ctx context.Context, key string) (Lease, error) {
	token := newToken(s.cfg.Rand)
	start := s.cfg.Clock.Now()
	ok, err := s.node.Cmd.SetNX(ctx, key, token, 0).Result()
	switch {
	case lockkit.NotRun(err):
		// The node refused the SETNX unrun (loading its data). Not so a
		// PEXPIRE refused after it: the SETNX ran, the outcome stays unknown.
		return Lease{}, fmt.Errorf("%w: setnx on %s: %w", ErrNotAcquired, s.node.Name, err)
	case err != nil:
		return Lease{}, fmt.Errorf("setnx on %s: %w", s.node.Name, err)
	case !ok:
		return Lease{}, ErrNotAcquired
	}
	if s.cfg.Gate != nil {
		if err := s.cfg.Gate.Point(ctx, "in-acquire"); err != nil {
			return Lease{}, fmt.Errorf("between SETNX and PEXPIRE: %w", err)
		}
	}
	if err := s.node.Cmd.PExpire(ctx, key, s.cfg.TTL).Err(); err != nil {
		return Lease{}, fmt.Errorf("pexpire on %s after SETNX: %w", s.node.Name, err)
	}
	return Lease{Key: key, Token: token, ValidUntil: start.Add(s.cfg.TTL), Nodes: []string{s.node.Name}}, nil
}

// Release deletes the key if it still holds the lease's token.
func (s *setnxExpire) Release(ctx context.Context, l Lease) error {
	n, err := compareAndDelete.Run(ctx, s.node.Cmd, []string{l.Key}, l.Token).Int64()
	if err != nil {
		return fmt.Errorf("release on %s: %w", s.node.Name, err)
	}
	if n == 0 {
		return ErrNotHeld
	}
	return nil
}
