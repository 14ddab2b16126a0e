package clients

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/lock"
)

// The mutants: watchdog locks with one mistake each, the one a field
// report found in a real library (bug-reports.md, the `mutant:<x>`
// algorithms). Each is named after what it does, not after the library,
// and each is registered like any other algorithm, with its traits, so
// that a scenario can set it and its fix side by side. The fixes that are
// not locksim's plain watchdog are here too: watchdog-deadline and
// watchdog-bounded.

// reacquireOrPexpire is redlock-rb's extend before PR #37 (redlock-rb #36):
// it sets the key again when the key is gone, as well as when it still
// holds the caller's token, so an extend after expiry re-acquires the lock
// and reports success.
var reacquireOrPexpire = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] or not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`)

var extendReacquireAlgorithm = watchdogVariant("extend-reacquire",
	"watchdog whose extend sets the key again when it is gone: an extend after expiry silently re-acquires the lock and reports success (redlock-rb #36, BR-08)",
	lock.Traits{}, func(w *watchdog) {
		w.extendWith = func(ctx context.Context, w *watchdog, l Lease) (Lease, error) {
			return w.extendBy(ctx, reacquireOrPexpire, l)
		}
	})

var extendNoOwnerAlgorithm = watchdogVariant("extend-no-owner",
	"watchdog that extends with a plain PEXPIRE of the key, whoever holds it, and never steps down: after a cut it extends the next holder's key (sibson/redbeat #127, BR-10)",
	lock.Traits{}, func(w *watchdog) {
		w.quiet, w.retryUnknown = true, true
		w.extendWith = func(ctx context.Context, w *watchdog, l Lease) (Lease, error) {
			start := w.cfg.Clock.Now()
			// PEXPIRE's reply (0: no such key) is not looked at, as in
			// redbeat's tick before PR #128.
			if err := w.node.Cmd.PExpire(ctx, l.Key, w.cfg.TTL).Err(); err != nil {
				return l, fmt.Errorf("pexpire on %s: %w", w.node.Name, err)
			}
			l.ValidUntil = start.Add(w.cfg.TTL)
			return l, nil
		}
	})

var existsCheckForceUnlockAlgorithm = Algorithm{
	Name:   "exists-check-force-unlock",
	About:  "watchdog whose holder checks ownership with EXISTS (any holder's key passes), is never told of a failed renewal, and unlocks with a plain DEL (factcast #3706, BR-14)",
	New:    newExistsCheckForceUnlock,
	Traits: Traits{Traits: lock.Traits{ClientClock: true, DeletesByKey: true}},
}

var watchdogLossUnobservedAlgorithm = watchdogVariant("watchdog-loss-unobserved",
	"watchdog whose failed renewal is raised where nobody listens: the job is never told its lease is lost (swarthy/redis-semaphore #24, BR-07)",
	lock.Traits{}, func(w *watchdog) { w.quiet = true })

var watchdogOrphanAlgorithm = watchdogVariant("watchdog-orphan",
	"watchdog whose renewer is cancelled only when the unlock gets a reply, and which reschedules a renewal that timed out: an unlock lost on the way leaves the lock renewed for ever (redisson #1966, #7272, BR-21)",
	lock.Traits{}, func(w *watchdog) { w.stopOnReply, w.retryUnknown = true, true })

var watchdogDeadlineAlgorithm = watchdogVariant("watchdog-deadline",
	"watchdog plus a local lease deadline: when the lease's validity, less a tenth of the TTL, runs out on the client's clock with no renewal, the job is told the lease is lost, whether or not the renewer ran (node-redlock using()'s abort signal)",
	lock.Traits{}, func(w *watchdog) { w.deadline = true })

var watchdogBoundedAlgorithm = watchdogVariant("watchdog-bounded",
	"watchdog that renews a lease at most 3 times (a hold of at most twice the TTL), then tells the job and gives the key up with compare-and-delete: a hung job cannot keep the lock (python-redis-lock #114, PR #115)",
	lock.Traits{}, func(w *watchdog) { w.maxRenewals = 3 })

var watchdogFencedAlgorithm = watchdogVariant("watchdog-fenced",
	"watchdog whose acquire script also INCRs a fence counter: a renewed lease with a fencing token per grant (Redisson's RFencedLock)",
	lock.Traits{Fenced: true}, func(w *watchdog) { w.fenced = true })

// watchdogVariant registers a watchdog variant: a watchdog named name,
// reading the client clock, with traits t besides, on which set chooses
// the variant.
func watchdogVariant(name, about string, t lock.Traits, set func(w *watchdog)) Algorithm {
	t.ClientClock = true
	return Algorithm{Name: name, About: about, Traits: Traits{Traits: t},
		New: func(c Config) (Locker, error) { return variant(c, name, set) }}
}

// variant builds a watchdog named name and lets set choose its variant.
func variant(c Config, name string, set func(w *watchdog)) (*watchdog, error) {
	l, err := newWatchdog(c)
	if err != nil {
		return nil, err
	}
	w := l.(*watchdog)
	w.name = name
	set(w)
	return w, nil
}

// existsChecker is exists-check-force-unlock: its Valid asks whether the
// key exists, and its Release deletes the key whoever holds it.
type existsChecker struct{ *watchdog }

func newExistsCheckForceUnlock(c Config) (Locker, error) {
	w, err := variant(c, "exists-check-force-unlock", func(w *watchdog) {
		w.quiet = true
		w.cad = false // a plain DEL: the forced unlock on shutdown
	})
	if err != nil {
		return nil, err
	}
	return existsChecker{w}, nil
}

// Valid reports whether the lock key exists on the node: true for any
// holder's key, the client's own or another's.
func (e existsChecker) Valid(ctx context.Context, l Lease) (bool, error) {
	n, err := e.node.Cmd.Exists(ctx, l.Key).Result()
	if err != nil {
		return false, fmt.Errorf("exists on %s: %w", e.node.Name, err)
	}
	return n == 1, nil
}
