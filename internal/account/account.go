// Package account derives, once per history, the facts of a run that every
// checker and the report share (design §12, "one account"): for every node,
// each key's lifetime — who set it, with which owner token, when it started,
// its deadline, when and why it ended — and each sorted-set member's (a
// semaphore permit); for every client, its believed holds and why they
// ended; the grants with the key lives that backed them; the applied faults.
//
// Node events (history.NodeCmd, recorded by the node observers) are the
// ground truth where they exist: the account replays them through a model
// of the Redis commands the algorithms send, so it knows whether a SET NX
// took, which DEL removed whose key, and when a key's deadline passed.
// Where a node was not observed (the embedded backend, observe: false, a
// window after a crash), the lifetimes are inferred from the clients'
// outcomes instead, and say so (KeyLife.Observed).
//
// Every instant here is true time: wall ns since the run's start, like the
// history's.
package account

import (
	"cmp"
	"slices"
	"sort"
	"sync"

	"github.com/locksim/locksim/internal/history"
)

// Account is the derived facts of one history. Build it with New; it is
// read-only afterwards and safe for concurrent readers.
type Account struct {
	H history.History
	// Holds are the clients' believed holds (see Holds).
	Holds []Hold
	// Faults are the applied fault steps with their windows, in index order.
	Faults []FaultWindow
	// Observed reports, per node, whether its commands were recorded.
	Observed map[string]bool
	// Gaps are, per node, windows in which an observed node's commands
	// were not recorded (history.Unobserved).
	Gaps map[string][][2]int64

	end int64
	// The key and member lives are derived on first use (Keys): a checker
	// that finds nothing to explain never pays for them.
	lives        sync.Once
	keys         []KeyLife
	members      []MemberLife
	counters     []CounterValue
	byKey        map[string][]int // node|key → positions in Keys
	grants       map[int][]int    // acquire op index → positions in Keys it was granted by
	metBy        map[int]int      // a SET NX that found its key → the node command that created the key it found
	memberGrants map[int][]int    // acquire op index → positions in Members it was granted by
	reentries    map[int][]int    // acquire op index → positions in Keys it re-entered (reentry.go)
	grantList    []Grant
	grantAt      map[int]int // acquire op index → position in grantList
	removals     sync.Once
	sentIndex    sync.Once
	sentBy       map[string][]int    // client → its node events (positions in H.Ops), by node time (Reached)
	stalledBy    map[string][]int    // client → its unanswered commands (Stalled records), built with sentBy
	removedBy    map[int][]int       // client op index → positions in Keys it removed (RemovedBy)
	keptBy       map[int]Keep        // release op index → what it kept (KeptBy)
	restoreUntil map[restoreOf]int64 // a restore on start → when that client's work began again (restoring)

	// Resurrections and the lock keys of each resource key (resurrect.go),
	// derived on first use.
	resurrect     sync.Once
	resurrections []Resurrection
	// opsOf: client → its operations a mark draws, by invoke (OpOf).
	opsOnce      sync.Once
	opsOf        map[string][]int
	lockKeysOnce sync.Once
	lockKeys     map[string][]string
}

// KeyLife is one instance of a key on one node: from the command that
// created it to the moment it left the node.
type KeyLife struct {
	Node, Key string
	// Value is the stored value: the owner token of a lock key.
	Value string
	// Owner is the client whose command created the key ("" when it could
	// not be told).
	Owner string
	// Start is when the key was created, Deadline the expiry in force at
	// its end (-1: no TTL), End when it left the node (the end of the
	// history when it never did: Ended.Kind EndHeld).
	Start, Deadline, End int64
	Ended                End
	// TTL is the time to live its start gave it (wall ns; -1 none): on a
	// node, what the creating command set (a library's own PX, an
	// absolute expiry, a dump's remaining TTL), whatever TTL the client
	// recorded; inferred, the grant's.
	TTL int64
	// Moves are the deadline changes after the start (an extend, a clock
	// shift), in time order.
	Moves []Move
	// Set is the history index of the node event that created the key, or
	// of the acquire op a life was inferred from.
	Set int
	// Grant is the history index of the client's acquire that this key
	// backed (-1: none matched).
	Grant int
	// Kept is the release of its owner whose command set its end without
	// removing it (nil: none): a life that then expired at the deadline
	// that command moved it to, a life that command overwrote with its
	// owner's new value, or the new life that overwrite made.
	Kept *Keep
	// Observed: derived from node events; else inferred from client
	// outcomes (the times are then the client's, not the node's).
	Observed bool
	// Copy (a life that ended EndFailover): the replica of its node's
	// group that still had the key when the master failed, and when it
	// died (nil: none known; see lastCopy). The lock was lost only then.
	Copy *Copy
	// Shown (an inferred life): the refused acquire of another client,
	// made while this life's own acquire was still in flight, that shows
	// the key already stood then; Start is that refusal's end (nil: none,
	// Start is the acquire's return). See inFlight.
	Shown *Shown
	// handedOver: its master failed over with nothing lost; its end comes
	// from the clients' outcomes (see handOver).
	handedOver bool
	// retracted: a node's own dump showed this life never existed (see
	// sim.held); dropped before the account is read.
	retracted bool
	// dumped: Deadline is a dump's reading (sim.held), not a command's
	// own; the node's definite answers outweigh it (see sim.settle).
	dumped bool
	// ranEarlier: how long before its stamp the command that set its
	// Deadline (its SET, or the last move) may have run (0: when it was
	// stamped). MONITOR stamps a command when it is fed, after the
	// command ran: one sent before a node stop (freeze-node) and stamped
	// just after it may have run before the stop, its deadline counted
	// from there (see sim.stopEndedBefore, sim.earliest).
	ranEarlier int64
}

// Move is one change of a key's deadline.
type Move struct {
	At       int64 // when
	Deadline int64 // the new deadline (-1: none)
	By       string
	// Clock: the move was a node clock fault shifting the key's TTL (the
	// harness's admin command inside a node-clock step), not a client's
	// extend.
	Clock bool
	Step  int // the clock step's ID when Clock
	// Op is the history index of the command that moved it (of the
	// client operation or fault step, for a move inferred from them).
	Op int
}

// Keep is a release that removed no key but set when its client's key
// would end (KeyLife.Kept, Account.KeptBy).
type Keep struct {
	Release int // the release operation (history index)
	Cmd     int // its command that set the end (history index)
	Node    string
	At      int64 // when that command ran
	TTL     int64 // the time to live it set, from At (wall ns)
	// Rewrote: the command was a SET of a new value over the key (the
	// life it ended was overwritten, and the new one is the kept key);
	// otherwise it moved the key's deadline (PEXPIRE).
	Rewrote bool
	// Value is the key's value after the command.
	Value string
}

// End is how a key (or member) left its node.
type End struct {
	Kind string
	// By is the client whose command removed it (released, deleted,
	// overwritten, purged).
	By string
	// Op is the history index of the event that ended it (-1: none, e.g.
	// an expiry).
	Op int
	// Step is the fault step that ended it (crashed, janitor, clock).
	Step int
}

// How a key or member left its node.
const (
	// EndReleased: removed by its owner (a release, a compare-and-delete
	// with the owner's token).
	EndReleased = "released"
	// EndDeleted: removed by another client's command (a plain DEL of a
	// key that was not its own: a foreign unlock).
	EndDeleted = "deleted"
	// EndExpired: its deadline passed.
	EndExpired = "expired"
	// EndClock: a node clock fault shifted its TTL to nothing (or the
	// deadline that passed was one a clock fault had moved earlier).
	EndClock = "clock"
	// EndCrashed: its node crashed without persisting it.
	EndCrashed = "crashed"
	// EndJanitor: a delete-key fault removed it by name.
	EndJanitor = "janitor"
	// EndRestored: a restarted client's restore on start deleted it (the
	// DEL of every job's lock key a restart-client step with Mode
	// history.RestoreAll makes the new incarnation send before its work:
	// kombu's restore of unacked messages); By is that client, Step the
	// restart step. The owner may be that client's old incarnation or
	// another client (a foreign unlock).
	EndRestored = "restored"
	// EndFlushed: FLUSHALL or FLUSHDB.
	EndFlushed = "flushed"
	// EndOverwritten: a SET without NX replaced it with another value.
	EndOverwritten = "overwritten"
	// EndPurged: a sorted-set member removed by a range (a semaphore's
	// timeout purge) or an intersection.
	EndPurged = "purged"
	// EndFailover: its master failed and Sentinel promoted a replica that
	// had not received all the master had written (history.Promotion): the
	// key is taken as lost with the old master.
	EndFailover = "failover"
	// EndHeld: still there when the history ends.
	EndHeld = "held"
)

// Gone reports whether the key ran out or was lost with its node (no
// client removed it).
func (e End) Gone() bool {
	switch e.Kind {
	case EndExpired, EndClock, EndCrashed, EndFlushed, EndFailover:
		return true
	}
	return false
}

// MemberLife is one sorted-set member on one node: a semaphore permit.
type MemberLife struct {
	Node, Key, Member string
	Owner             string
	Start, End        int64
	Score             float64
	Ended             End
	Set               int
	Grant             int
	Observed          bool
}

// CounterValue is a counter's value after an INCR-family command.
type CounterValue struct {
	Node, Key string
	At        int64
	Value     int64
	By        string
	Op        int
}

// FaultWindow is an applied fault step and its active window.
type FaultWindow struct {
	Step       history.FaultStep
	Start, End int64
	Op         int
	// Dead is, for a crash, when its nodes' processes were certainly not
	// running (history Value.DeadFrom, DeadTo); zero when not recorded.
	Dead [2]int64
	// Switch is, for a failover, the history index of Sentinel's first
	// announcement (history.MasterSwitch) of the promotion the step
	// recorded, heard at or after the step began; -1 when none was heard.
	// The step's own Promotion.TookNS is another instant: when the
	// harness, polling ROLE, first found the replica a master.
	Switch int
}

// Died is when a crash's nodes died: the kill's return (Dead[0]) when the
// step recorded it, else the step's start. The harness's window [Start,
// End] also holds its run-up to the kill and the restart and recovery
// after Dead[1].
func (f FaultWindow) Died() int64 {
	if f.deadKnown() {
		return f.Dead[0]
	}
	return f.Start
}

// Active is the window in which the fault was in force: for a crash whose
// death the step recorded, from the kill's return to the restart's start
// (Dead); for any other step, [Start, End]. A crash's own time, its down
// time and the keys it ended are told from it, not from the harness's
// run-up and recovery around it.
func (f FaultWindow) Active() (from, to int64) {
	if f.deadKnown() {
		return f.Dead[0], f.Dead[1]
	}
	return f.Start, f.End
}

// deadKnown: a crash of nodes that recorded when they were down.
func (f FaultWindow) deadKnown() bool {
	return f.Step.Effect == history.EffectCrashNode && f.Dead[1] > f.Dead[0] && f.Dead[0] > 0
}

// New derives the account of h.
func New(h history.History) *Account {
	a := &Account{H: h, Observed: map[string]bool{}, Gaps: map[string][][2]int64{},
		byKey: map[string][]int{}, grants: map[int][]int{}}
	a.end = h.End()
	for _, n := range h.Header.Observed {
		a.Observed[n] = true
	}
	for i, op := range h.Ops {
		switch {
		case op.F == history.Fault && op.Value.Fault != nil && op.Type != history.Fail:
			end := a.endOf(op)
			a.Faults = append(a.Faults, FaultWindow{Step: *op.Value.Fault, Start: op.Invoke, End: end, Op: i, Dead: [2]int64{op.Value.DeadFrom, op.Value.DeadTo},
				Switch: switchOf(h, *op.Value.Fault, op.Invoke)})
		case op.F == history.Unobserved:
			a.Gaps[op.Value.Node] = append(a.Gaps[op.Value.Node], [2]int64{op.Invoke, op.Complete})
		}
	}
	// After a failover the group's commands reach a promoted replica no
	// observer watches: a gap to the end of the history.
	for node, fos := range a.failovers() {
		if a.Observed[node] {
			a.Gaps[node] = append(a.Gaps[node], [2]int64{fos[0].At, a.end})
		}
	}
	a.Holds = holds(h)
	return a
}

// derive computes the key and member lives once.
func (a *Account) derive() {
	a.lives.Do(func() {
		a.replay()
		a.infer()
		a.keys = byStart(a.keys, func(k *KeyLife) int64 { return k.Start })
		a.members = byStart(a.members, func(m *MemberLife) int64 { return m.Start })
		a.matchReentries()
		a.index()
		a.deriveKept()
		a.deriveCopies()
		a.deriveGrants()
	})
}

// Keys returns the lifetimes of every string key on every node (lock
// keys, and the others the workloads touch), ordered by Start. The slice
// is the account's: do not modify it.
func (a *Account) Keys() []KeyLife { a.derive(); return a.keys }

// Members returns the lifetimes of every sorted-set member on every node
// (a semaphore's permits), ordered by Start. Do not modify the slice.
func (a *Account) Members() []MemberLife { a.derive(); return a.members }

// Counters returns the values an INCR-family command left on a node, in
// time order (a fence counter beside each grant).
func (a *Account) Counters() []CounterValue { a.derive(); return a.counters }

func nk(node, key string) string { return node + "\x00" + key }

// byStart returns xs stably sorted by start, moving each (large) element
// once: the order is found on positions.
func byStart[T any](xs []T, start func(*T) int64) []T {
	if slices.IsSortedFunc(xs, func(a, b T) int { return cmp.Compare(start(&a), start(&b)) }) {
		return xs
	}
	pos := make([]int, len(xs))
	for i := range pos {
		pos[i] = i
	}
	slices.SortStableFunc(pos, func(i, j int) int { return cmp.Compare(start(&xs[i]), start(&xs[j])) })
	out := make([]T, len(xs))
	for i, p := range pos {
		out[i] = xs[p]
	}
	return out
}

func (a *Account) index() {
	for i, k := range a.keys {
		a.byKey[nk(k.Node, k.Key)] = append(a.byKey[nk(k.Node, k.Key)], i)
		if k.Grant >= 0 {
			a.grants[k.Grant] = append(a.grants[k.Grant], i)
		}
	}
	for op, ks := range a.reentries {
		a.grants[op] = append(a.grants[op], ks...)
	}
	a.memberGrants = map[int][]int{}
	for i, m := range a.members {
		if m.Grant >= 0 {
			a.memberGrants[m.Grant] = append(a.memberGrants[m.Grant], i)
		}
	}
}

// End is the last instant of the history.
func (a *Account) End() int64 { return a.end }

// LivesOf returns the lifetimes of key on node, by Start.
func (a *Account) LivesOf(node, key string) []KeyLife {
	a.derive()
	var out []KeyLife
	for _, i := range a.byKey[nk(node, key)] {
		out = append(out, a.keys[i])
	}
	return out
}

// GrantedBy returns the key lives that backed the acquire op at index op,
// one per granting node.
func (a *Account) GrantedBy(op int) []KeyLife {
	a.derive()
	var out []KeyLife
	for _, i := range a.grants[op] {
		out = append(out, a.keys[i])
	}
	return out
}

// LivesAt returns every life of key, on any node, that existed at instant
// t (Start ≤ t < End), in the account's order: who held the key when.
func (a *Account) LivesAt(key string, t int64) []KeyLife {
	a.derive()
	var out []KeyLife
	for _, k := range a.keys {
		if k.Key == key && k.Start <= t && t < k.End {
			out = append(out, k)
		}
	}
	return out
}

// PausedAt returns the freeze of client covering t, if any.
func (a *Account) PausedAt(client string, t int64) (FaultWindow, bool) {
	for _, f := range a.Faults {
		if f.Step.Effect == history.EffectFreezeClient && f.Start <= t && t <= f.End && slices.Contains(f.Step.Clients, client) {
			return f, true
		}
	}
	return FaultWindow{}, false
}

// KeyFreeAt reports whether no life of key — or of a key an algorithm
// derived for it (Value.LockKey) — on any node, overlapped [from, to],
// with every node of the run observed throughout: the nodes' own record
// says no client's key for it was there (a lock that refused an acquire
// then refused it for a reason of its own: a fair lock's queue). False
// whenever a node's record is missing.
func (a *Account) KeyFreeAt(key string, from, to int64) bool {
	a.derive()
	if len(a.H.Header.Nodes) == 0 {
		return false
	}
	for _, n := range a.H.Header.Nodes {
		if !a.ObservedAt(n, from) || !a.ObservedAt(n, to) {
			return false
		}
		for _, lk := range a.LockKeysOf(key) {
			for _, i := range a.byKey[nk(n, lk)] { // the report asks once per refused acquire
				if k := a.keys[i]; k.Start <= to && from < k.End {
					return false
				}
			}
		}
	}
	return true
}

// ObservedAt reports whether node's commands were recorded at t.
func (a *Account) ObservedAt(node string, t int64) bool {
	if !a.Observed[node] {
		return false
	}
	for _, g := range a.Gaps[node] {
		if g[0] <= t && t <= g[1] {
			return false
		}
	}
	return true
}

// Grant is one granted lock as the account sees it: an ok acquire (or the
// final probe's) and the key lives that backed it, one per granting node.
type Grant struct {
	Op                 int // history index of the acquire (or probe)
	Client, Key, Token string
	Fence              int64
	TTL                int64    // wall ns, as the acquire recorded it
	Nodes              []string // the granting nodes (the lock's one node when the acquire named none)
	Start              int64    // the acquire's Complete (a probe's: when its key was set)
	Lives              []KeyLife
	// Members are the sorted-set members (semaphore permits) that backed
	// it, for an algorithm that grants by member, not by key.
	Members []MemberLife
	// End is when the lock was lost: on one node, when its key left it; on
	// N nodes, when fewer than a quorum (N/2+1) still held it. Ended is
	// why, on EndNode, the node whose key's end decided it. A grant no key
	// life backs (a lock that keeps none) ends at the end of the history,
	// EndHeld.
	End     int64
	Ended   End
	EndNode string
}

// Grants returns every granted lock, ordered by Start. Do not modify the
// slice.
func (a *Account) Grants() []Grant { a.derive(); return a.grantList }

// GrantOf returns the grant of the acquire at history index op.
func (a *Account) GrantOf(op int) (Grant, bool) {
	a.derive()
	i, ok := a.grantAt[op]
	if !ok {
		return Grant{}, false
	}
	return a.grantList[i], true
}

// Quorum is the majority of the run's nodes (N/2+1): how many must hold
// a multi-node lock's key for the lock to stand (Redlock, redis.io's
// distlock page).
func (a *Account) Quorum() int { return len(a.H.Header.Nodes)/2 + 1 }

// HeldAfter counts the lives that still held their key after instant t
// (End > t): the nodes a lock still stood on then.
func HeldAfter(lives []KeyLife, t int64) int {
	n := 0
	for _, k := range lives {
		if k.End > t {
			n++
		}
	}
	return n
}

// deriveGrants derives the Grants from the ok acquires and probes and the key
// lives matched to them.
func (a *Account) deriveGrants() {
	h := a.H
	quorum := a.Quorum()
	a.grantAt = map[int]int{}
	for i, op := range h.Ops {
		if (op.F != history.Acquire && op.F != history.Probe) || op.Type != history.OK || op.Complete < 0 {
			continue
		}
		g := Grant{Op: i, Client: op.Client, Key: op.Key, Token: op.Value.Token, Fence: op.Value.Fence, TTL: op.Value.TTL,
			Nodes: op.Value.Nodes, Start: op.Complete, End: a.end, Ended: End{Kind: EndHeld, Op: -1}}
		if len(g.Nodes) == 0 && len(h.Header.Nodes) == 1 {
			g.Nodes = h.Header.Nodes[:1]
		}
		for _, j := range a.grants[i] {
			g.Lives = append(g.Lives, a.keys[j])
		}
		for _, j := range a.memberGrants[i] {
			g.Members = append(g.Members, a.members[j])
		}
		if op.F == history.Probe {
			// A probe's one operation acquires and releases: its grant is
			// when its key (or its permit, a sorted-set member) was set,
			// not the operation's end (after the release; a report gave
			// the grant a millisecond after its key's end).
			// Of several nodes, a lock held by a majority is held from
			// the majority's last SET on (reader 19: "granted at t=16.96s
			// … by n1, n2, n3, n4 and n5" when two had run it).
			var sets []int64
			for _, k := range g.Lives {
				sets = append(sets, max(k.Start, op.Invoke))
			}
			slices.Sort(sets)
			q := 1
			if len(h.Header.Nodes) > 1 && len(g.Nodes) >= quorum {
				q = quorum
			}
			if len(sets) >= q {
				g.Start = min(g.Start, sets[q-1])
			}
			for _, m := range g.Members {
				g.Start = min(g.Start, max(m.Start, op.Invoke))
			}
		}
		if len(g.Lives) == 0 && len(g.Members) > 0 {
			// A permit: the lock ends when its last member does.
			last := g.Members[0]
			for _, ml := range g.Members[1:] {
				if ml.End > last.End {
					last = ml
				}
			}
			g.End, g.Ended, g.EndNode = last.End, last.Ended, last.Node
		}
		if n := len(g.Lives); n > 0 {
			ends := make([]int, n)
			for j := range ends {
				ends[j] = j
			}
			slices.SortStableFunc(ends, func(x, y int) int { return cmp.Compare(g.Lives[y].End, g.Lives[x].End) })
			q := 1
			if len(h.Header.Nodes) > 1 && len(g.Nodes) >= quorum {
				q = quorum
			}
			l := g.Lives[ends[min(q, n)-1]]
			g.End, g.Ended, g.EndNode = l.LostAt(), l.Ended, l.Node
		}
		a.grantAt[i] = len(a.grantList)
		a.grantList = append(a.grantList, g)
	}
	slices.SortStableFunc(a.grantList, func(x, y Grant) int { return cmp.Compare(x.Start, y.Start) })
	for j, g := range a.grantList {
		a.grantAt[g.Op] = j
	}
}

// RemovedBy returns the key lives the client operation at history index
// op removed: those whose end is a command its client sent on a node
// while op ran (observed), or op itself (inferred).
func (a *Account) RemovedBy(op int) []KeyLife {
	a.derive()
	a.removals.Do(a.indexRemovals)
	var out []KeyLife
	for _, i := range a.removedBy[op] {
		out = append(out, a.keys[i])
	}
	return out
}

// ExtendedBy is the key lives that client operation op (an extend or a
// watchdog's renewal) moved on the nodes, per their record: every life of
// op's lock key (lockKeyOf) with a move by op's client (not a clock
// fault's) within op's window. A life whose Owner is not op's client is another's key that a
// plain PEXPIRE renewed.
func (a *Account) ExtendedBy(op int) []KeyLife {
	a.derive()
	o := a.H.Ops[op]
	end := a.endOf(o)
	var out []KeyLife
	for _, n := range a.H.Header.Nodes {
		for _, i := range a.byKey[nk(n, lockKeyOf(&o))] {
			k := a.keys[i]
			if slices.ContainsFunc(k.Moves, func(m Move) bool {
				return !m.Clock && m.By == o.Client && m.At >= o.Invoke-grantSlack && m.At <= end+grantSlack
			}) {
				out = append(out, k)
			}
		}
	}
	return out
}

// MovedOthers are the observed lives of other clients' keys, under other
// names than op's own lock key, whose deadline a command of op's client
// moved while extend op ran: a heartbeat that extends every configured
// queue's key whoever holds it (rq #1707, BR-25). A move inside another
// extend of that client on that key is that extend's, not op's.
func (a *Account) MovedOthers(op int) []KeyLife {
	a.derive()
	o := a.H.Ops[op]
	end, own := a.endOf(o), lockKeyOf(&o)
	ownExtend := func(key string, t int64) bool {
		return slices.ContainsFunc(a.H.Ops, func(x history.Op) bool {
			return x.F == history.Extend && x.Client == o.Client && x.Index != o.Index && lockKeyOf(&x) == key &&
				x.Invoke-grantSlack <= t && t <= a.endOf(x)+grantSlack
		})
	}
	var out []KeyLife
	for _, k := range a.keys {
		if k.Key == own || !k.Observed || k.Owner == "" || k.Owner == o.Client || k.Start > end+grantSlack || k.End < o.Invoke-grantSlack {
			continue
		}
		if slices.ContainsFunc(k.Moves, func(m Move) bool {
			return !m.Clock && m.By == o.Client && m.At >= o.Invoke-grantSlack && m.At <= end+grantSlack && !ownExtend(k.Key, m.At)
		}) {
			out = append(out, k)
		}
	}
	return out
}

// NodeDown reports whether node was down at t (true ns): inside an applied
// step that crashed or froze it (crash-node, freeze-node, a failover that
// crashed or stopped its master), before the step restarted or resumed it.
func (a *Account) NodeDown(node string, t int64) bool {
	for _, f := range a.Faults {
		st := f.Step
		switch {
		case st.Effect == history.EffectCrashNode, st.Effect == history.EffectFreezeNode,
			st.Effect == history.EffectFailover && st.FailoverMode != "sentinel": // SENTINEL FAILOVER (faults.FailoverCommand) leaves the master up
		default:
			continue
		}
		if slices.Contains(st.Nodes, node) && f.Start <= t && t < f.End {
			return true
		}
	}
	return false
}

// endOf is when o completed, or the history's end for an operation that
// never did.
func (a *Account) endOf(o history.Op) int64 {
	if o.Open() {
		return a.end
	}
	return o.Complete
}

// Reached says whether client operation op reached the nodes, per their
// own record: ran is true when some node ran a command of op's client
// within op's window (its invoke to its completion, or the history's end),
// or one carrying op's owner token after it (ranLate), a command whose
// sender the observer could not name counting as op's client's when it
// carries op's owner token;
// known is true only when every node op names (every node, when it names
// none) was observed throughout that window, or crashed and down
// throughout it (DeadThroughout). A release of unknown outcome
// that is known and not ran never left the client: its key stayed.
func (a *Account) Reached(op int) (ran, known bool) {
	a.indexSent()
	o := a.H.Ops[op]
	end := a.endOf(o)
	nodes := o.Value.Nodes
	if len(nodes) == 0 {
		nodes = a.H.Header.Nodes
	}
	known = len(nodes) > 0
	for _, n := range nodes {
		// Observed throughout: watched, and no gap in its record overlaps
		// the window; or down throughout it (a crashed node's process was
		// not running: the command ran nowhere).
		if a.DeadThroughout(n, o.Invoke, end) {
			continue
		}
		if !a.Observed[n] || slices.ContainsFunc(a.Gaps[n], func(g [2]int64) bool { return g[0] <= end && g[1] >= o.Invoke }) {
			known = false
		}
		if _, stopped := a.StoppedAt(n, end); stopped {
			// Stopped when the client gave up: the node may run the
			// command when it wakes, with nothing in the record to tie
			// it to op (an acquire of unknown outcome carries no token;
			// a fresh reader of fencing-random-nemesis s1166: w3's
			// acquire "never reached Redis … set no key", its script run
			// as n1 woke).
			known = false
		}
	}
	evs := a.sentBy[o.Client]
	from := sort.Search(len(evs), func(j int) bool { return a.H.Ops[evs[j]].Invoke >= o.Invoke-grantSlack })
	for _, j := range evs[from:] {
		ev := a.H.Ops[j]
		if ev.Invoke > end+grantSlack {
			break
		}
		if slices.Contains(nodes, ev.Value.Node) {
			return true, known
		}
	}
	if o.Client != "" && o.Value.Token != "" {
		// A command whose sender the observer could not name (its
		// connection gone before it asked) is op's when it carries op's
		// owner token.
		for _, j := range a.sentIn("", o.Invoke-grantSlack, end+grantSlack) {
			if ev := a.H.Ops[j]; slices.Contains(nodes, ev.Value.Node) && slices.Contains(ev.Value.Cmd, o.Value.Token) {
				return true, known
			}
		}
	}
	return a.ranLate(op, nodes), known
}

// ranLate reports whether a node in nodes ran, after operation op had
// ended, a command of its client carrying op's owner token, before any
// later operation of that client with the same token began: op's own
// command, held up until then (a frozen node runs what it had queued when
// it wakes, after the client gave up; a second reader found such a release
// told as one that "never reached Redis").
func (a *Account) ranLate(op int, nodes []string) bool {
	o := a.H.Ops[op]
	if o.Value.Token == "" {
		return false
	}
	end := a.endOf(o)
	until := a.end + 1
	for _, p := range a.H.Ops {
		if p.Process >= 0 && p.Client == o.Client && p.Value.Token == o.Value.Token && p.Invoke > o.Invoke && p.Invoke < until {
			until = p.Invoke
		}
	}
	for _, sender := range []string{o.Client, ""} { // "": a sender the observer could not name
		evs := a.sentBy[sender]
		from := sort.Search(len(evs), func(j int) bool { return a.H.Ops[evs[j]].Invoke > end+grantSlack })
		for _, j := range evs[from:] {
			ev := a.H.Ops[j]
			if ev.Invoke >= until {
				break
			}
			if slices.Contains(nodes, ev.Value.Node) && slices.Contains(ev.Value.Cmd, o.Value.Token) {
				return true
			}
		}
	}
	return false
}

// StoppedAt is the end of the node stop (freeze-node step) that had node
// stopped at t (wall ns), if one did: a stopped Redis runs what it had
// been sent when it wakes, after a client that gave up meanwhile.
func (a *Account) StoppedAt(node string, t int64) (int64, bool) {
	for _, f := range a.Faults {
		if f.Step.Effect == history.EffectFreezeNode && slices.Contains(f.Step.Nodes, node) && f.Start <= t && t < f.End {
			return f.End, true
		}
	}
	return 0, false
}

// DeadThroughout reports whether node's process was certainly not running
// over [from, to] (wall ns): inside the recorded down window of a crash of
// it (FaultWindow.Dead), from the kill's return to the restart's start.
func (a *Account) DeadThroughout(node string, from, to int64) bool {
	for _, f := range a.Faults {
		if f.Step.Effect == history.EffectCrashNode && f.Dead[1] > f.Dead[0] && f.Dead[0] <= from && to <= f.Dead[1] && slices.Contains(f.Step.Nodes, node) {
			return true
		}
	}
	return false
}

// indexRemovals ties each removed key life to the client operation that
// removed it (see RemovedBy), once.
func (a *Account) indexRemovals() {
	a.removedBy = map[int][]int{}
	type ck struct{ client, key string }
	ops := map[ck][]int{} // a client's releases and probes of a key, by invoke
	for i, o := range a.H.Ops {
		if o.F == history.Release || o.F == history.Probe {
			k := ck{o.Client, lockKeyOf(&a.H.Ops[i])}
			ops[k] = append(ops[k], i)
		}
	}
	for _, v := range ops {
		slices.SortStableFunc(v, func(x, y int) int { return cmp.Compare(a.H.Ops[x].Invoke, a.H.Ops[y].Invoke) })
	}
	for i, k := range a.keys {
		e := k.Ended
		if e.Kind != EndReleased && e.Kind != EndDeleted || e.Op < 0 {
			continue
		}
		ev := a.H.Ops[e.Op]
		if ev.F != history.NodeCmd {
			a.removedBy[e.Op] = append(a.removedBy[e.Op], i)
			continue
		}
		cands := ops[ck{e.By, k.Key}]
		// The last of the client's releases invoked before the node ran the
		// command, if the command fell inside its window.
		n := sort.Search(len(cands), func(j int) bool { return a.H.Ops[cands[j]].Invoke-grantSlack > ev.Invoke })
		if n == 0 {
			continue
		}
		o := a.H.Ops[cands[n-1]]
		end := a.endOf(o)
		if ev.Invoke <= end+grantSlack {
			a.removedBy[cands[n-1]] = append(a.removedBy[cands[n-1]], i)
		}
	}
}

// switchOf is the history index of the first MasterSwitch record that
// announces st's promotion (its group, from its old master to the replica
// it promoted), heard at or after from; -1 when st is no failover, promoted
// nothing, or no sentinel's announcement was heard.
func switchOf(h history.History, st history.FaultStep, from int64) int {
	if st.Effect != history.EffectFailover {
		return -1
	}
	best := -1
	for _, p := range st.Promotions {
		if p.Promoted == "" {
			continue
		}
		for i, op := range h.Ops {
			if op.F == history.MasterSwitch && op.Value.Node == p.Group && len(op.Value.Cmd) == 2 && op.Value.Cmd[0] == p.Old &&
				op.Value.Cmd[1] == p.Promoted && op.Invoke >= from && (best < 0 || op.Invoke < h.Ops[best].Invoke) {
				best = i
			}
		}
	}
	return best
}
