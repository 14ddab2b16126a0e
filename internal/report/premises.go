package report

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/why"
	"github.com/locksim/locksim/internal/workload"
)

// A premise is a fact of the run a remedy's words rest on (issue 27,
// build 5), read from the run's claims — made once by the account and
// the checkers, never here: it returns the claims that state it, and
// whether it holds. A remedy whose premise fails is not offered; one that
// is carries its premises' claims (data-claim, results.json `advice`).
type premise func(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool)

// runFacts is what premises read: the run's numbered claims, its header
// and its account (for rules the account owns, as CrashLoses).
type runFacts struct {
	in Input
	cs []claim.Claim
	a  *account.Account
}

func (f *runFacts) where(match func(claim.Claim) bool) []claim.Claim {
	var out []claim.Claim
	for _, c := range f.cs {
		if match(c) {
			out = append(out, c)
		}
	}
	return out
}

// found is where's claims and whether there are any: the premise that
// some claim matches.
func (f *runFacts) found(match func(claim.Claim) bool) ([]claim.Claim, bool) {
	cs := f.where(match)
	return cs, len(cs) > 0
}

// eachPurged is the claims with reasons of every purged permit (its Permit
// claim first) that reasons gives any for, and whether there are any.
func eachPurged(f *runFacts, an checker.Anomaly, reasons func(p claim.Claim) []claim.Claim) ([]claim.Claim, bool) {
	ps, _ := purged(f, an)
	var out []claim.Claim
	for _, p := range ps {
		if rs := reasons(p); len(rs) > 0 {
			out = append(append(out, p), rs...)
		}
	}
	return out, len(out) > 0
}

// all reports whether every premise of ps holds, with the claims that
// state them.
func (f *runFacts) all(ps []premise, an checker.Anomaly) ([]claim.Claim, bool) {
	var out []claim.Claim
	for _, p := range ps {
		cs, ok := p(f, an)
		if !ok {
			return nil, false
		}
		out = append(out, cs...)
	}
	return out, true
}

// offer is how advice k is worded for the run (the first of offers[k]
// whose premises hold, or k itself when it has none), with its premises'
// claims; false when no wording of it is true of the run.
func (f *runFacts) offer(k string, an checker.Anomaly) (offer, []claim.Claim, bool) {
	os, ok := offers[k]
	if !ok {
		return offer{key: k}, nil, true
	}
	for _, o := range os {
		if cs, ok := f.all(o.pre, an); ok {
			return o, cs, true
		}
	}
	return offer{}, nil, false
}

// ids are the ids of the anomaly's claim and of cs, each once.
func (f *runFacts) ids(an checker.Anomaly, cs []claim.Claim) []string {
	out := []string{}
	for _, c := range f.cs {
		if c.Kind == claim.Anomaly && c.What == an.Kind && c.Key == an.Key && c.Start == an.Start && c.End == an.End && c.At == an.At {
			out = append(out, c.ID)
			break
		}
	}
	for _, c := range cs {
		if !slices.Contains(out, c.ID) {
			out = append(out, c.ID)
		}
	}
	return out
}

// args are the arguments of advice key's words, from its premises'
// claims (language-free: names, persistence, scenario durations as
// spans, which results.json records in English and a page writes in its
// language).
func (f *runFacts) args(key string, cs []claim.Claim) []any {
	switch key {
	case "fix.fencing":
		// A write of an action with a resource of its own (recordAccepted):
		// the fence guards that resource.
		for _, c := range cs {
			if c.Kind == claim.Op && c.Action != "" && workload.ResourceOf(c.Action) != "" {
				return []any{c.Action}
			}
		}
	case "fix.fencing.counter":
		for _, c := range cs {
			if c.Kind == claim.Fault {
				n := f.counterNode()
				return []any{n, lossWord(f.in.History.Header.Persistence[n])}
			}
		}
	case "fix.wait.all", "fix.wait.counter.all":
		h, hok := claim.Find(cs, func(c claim.Claim) bool { return c.Kind == claim.Hold && c.Wait > 0 })
		fo, fok := claim.Find(cs, func(c claim.Claim) bool {
			return c.Kind == claim.Fault && c.Fault != nil && len(c.Fault.Promotions) > 0
		})
		if hok && fok {
			p := fo.Fault.Promotions[0]
			return []any{h.Client, strconv.Itoa(h.Wait), strconv.Itoa(len(p.ReplicaOffsets)), p.Group}
		}
	case "fix.unavailable.queue":
		if q, ok := claim.Find(cs, func(c claim.Claim) bool { return c.Kind == claim.QueueHead }); ok {
			return []any{q.By, q.What}
		}
	case "fix.redlock.nocheck":
		if g, ok := claim.Find(cs, func(c claim.Claim) bool { return c.Kind == claim.Acquire }); ok {
			h := f.in.History.Header
			return []any{g.Client, span(h.ScenarioSeconds(g.Elapsed)), span(h.ScenarioSeconds(g.TTL))}
		}
	case "fix.unavailable.kept":
		if e, ok := claim.Find(cs, func(c claim.Claim) bool { return c.Kind == claim.Extend }); ok {
			return []any{e.Client}
		}
	case "fix.unavailable.local":
		if r, ok := claim.Find(cs, func(c claim.Claim) bool { return c.Kind == claim.Refusal && c.What == claim.Local }); ok {
			return []any{r.Client}
		}
	case "fix.cron.key":
		// The keys the schedulers locked, each once, by name.
		var keys []string
		for _, c := range cs {
			if !slices.Contains(keys, c.Key) {
				keys = append(keys, c.Key)
			}
		}
		slices.Sort(keys)
		return []any{strings.Join(keys, ", ")}
	case "fix.cron":
		// The hold must cover the schedulers' clock spread, not one
		// clock's skew (reader 4, finding 4).
		if _, spread, ok := f.skew(); ok && spread > 0 {
			return []any{span(f.in.History.Header.ScenarioSeconds(spread))}
		}
	case "fix.redlock", "fix.redlock.claim":
		return f.causeSteps()
	case "fix.cron.skew":
		if ttl, spread, ok := f.skew(); ok {
			h := f.in.History.Header
			return []any{span(h.ScenarioSeconds(ttl)), span(h.ScenarioSeconds(spread))}
		}
	}
	return nil
}

// lossWord names how a node of persistence p loses writes in a crash
// (message "fix.counter.<word>").
func lossWord(p string) string {
	switch p {
	case "aof-everysec":
		return "everysec"
	case "rdb":
		return "rdb"
	}
	return "none"
}

// counterNode is the node a fence counter of the run's lock lives on:
// its first node (clients.FenceKey on Nodes[0], as locksim's fenced
// clients keep it).
func (f *runFacts) counterNode() string {
	if ns := f.in.History.Header.Nodes; len(ns) > 0 {
		return ns[0]
	}
	return ""
}

// counterLost: a crash of the counter's node lost its unsynced writes
// (account.CrashLoses): the Fault claims of those crashes.
func counterLost(f *runFacts, _ checker.Anomaly) ([]claim.Claim, bool) {
	n := f.counterNode()
	return f.found(func(c claim.Claim) bool {
		return c.Kind == claim.Fault && c.Fault != nil && c.Fault.Effect == history.EffectCrashNode &&
			slices.Contains(c.Fault.Nodes, n) && f.a.CrashLoses(*c.Fault, n)
	})
}

// counterKept: no crash lost the counter's node's writes (its Absent
// claim).
func counterKept(f *runFacts, _ checker.Anomaly) ([]claim.Claim, bool) {
	n := f.counterNode()
	return f.found(func(c claim.Claim) bool { return c.Kind == claim.Absent && c.What == claim.NoCrashLoss && c.Node == n })
}

// purged: a permit was purged (its Permit claims).
func purged(f *runFacts, _ checker.Anomaly) ([]claim.Claim, bool) {
	return f.found(func(c claim.Claim) bool { return c.Kind == claim.Permit && c.How == account.EndPurged })
}

// purgedBySkew: a permit was purged by a client whose clock was ahead
// of its holder's (their ClockOffset claims, when the purge and the entry
// fell in one; a clock no claim names runs at 0), before the permit had
// been inside the semaphore's timeout (its holder's Hold claim's TTL) in
// true time: only then was the clock the cause, not the holder's stay.
// The Permit claims, those clock claims and the Hold claims.
func purgedBySkew(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	return eachPurged(f, an, func(p claim.Claim) []claim.Claim {
		by, cb := f.offsetAt(p.By, p.End)
		holder, ch := f.offsetAt(p.Client, p.Start)
		hold, ok := claim.Find(f.cs, func(c claim.Claim) bool {
			return c.Kind == claim.Hold && c.Client == p.Client && c.Token == p.Token && c.TTL > 0
		})
		if by > holder && ok && p.End-p.Start < hold.TTL {
			return append(append(cb, ch...), hold)
		}
		return nil
	})
}

// offsetAt is client's clock offset at t and the ClockOffset claim that
// states it (none: the clock had not been moved, offset 0).
func (f *runFacts) offsetAt(client string, t int64) (int64, []claim.Claim) {
	for _, c := range f.cs {
		if c.Kind == claim.ClockOffset && c.Client == client && c.Start <= t && t <= c.End {
			return c.Offset, []claim.Claim{c}
		}
	}
	return 0, nil
}

// noPurge: no permit was purged: every recorded sorted set's Absent
// claim, and no purged Permit claim.
func noPurge(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	if _, ok := purged(f, an); ok {
		return nil, false
	}
	return f.found(func(c claim.Claim) bool { return c.Kind == claim.Absent && c.What == claim.NoPurge })
}

// purgedPaused: a permit was purged whose holder a fault had paused:
// the Permit claims and the pauses' Fault claims.
func purgedPaused(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	return eachPurged(f, an, func(p claim.Claim) []claim.Claim {
		return f.where(func(c claim.Claim) bool {
			return c.Kind == claim.Fault && c.Fault != nil && c.Fault.Effect == history.EffectFreezeClient && slices.Contains(c.Fault.Clients, p.Client)
		})
	})
}

// noPause: no client was paused (the Absent claim).
func noPause(f *runFacts, _ checker.Anomaly) ([]claim.Claim, bool) {
	return f.found(func(c claim.Claim) bool { return c.Kind == claim.Absent && c.What == claim.NoPause })
}

// queueBlocked: while the anomaly's lock was out of reach, its key was
// free and a refused acquire met another client's entry at the head of
// the lock's waiter queue (QueueHead claims of the anomaly's key and
// window).
func queueBlocked(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	return f.found(func(c claim.Claim) bool {
		return c.Kind == claim.QueueHead && c.Key == an.Key && c.Start >= an.Start && c.Start <= an.End
	})
}

// grantedPastValidity: a client was told it held the anomaly's key by an
// acquire whose validity (TTL − elapsed − drift, its Acquire claim) was
// already spent: the validity check Redlock's spec makes would have
// refused it, and the client skipped it (redlock-nocheck).
func grantedPastValidity(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	cs := f.where(func(c claim.Claim) bool {
		return c.Kind == claim.Acquire && c.Key == an.Key && c.TTL > 0 && c.Validity <= 0 && slices.Contains(an.Clients, c.Client) &&
			slices.ContainsFunc(f.cs, func(h claim.Claim) bool {
				return h.Kind == claim.Hold && h.Believed && h.Client == c.Client && h.Key == c.Key && h.Start == c.End
			})
	})
	return cs, len(cs) > 0
}

// keptByOthers: the outage's key stood past its owner's lease, kept by
// another client's extends (checker.CauseKeptByOthers): that client's
// Extend claims that moved the owner's key (Also, or the key itself).
func keptByOthers(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	c := an.Cause
	if an.Kind != checker.KindUnavailable || c == nil || c.Kind != checker.CauseKeptByOthers {
		return nil, false
	}
	cs := f.where(func(e claim.Claim) bool {
		return e.Kind == claim.Extend && e.Client == c.ExtendedBy && (e.What == claim.Moved && e.By == c.Client ||
			slices.ContainsFunc(e.Also, func(k claim.Holder) bool { return k.By == c.Client }))
	})
	return cs, len(cs) > 0
}

// refusedInProcess: the outage's client was refused inside its own
// process while no key of the lock stood (checker.CauseRefusedLocally):
// its Refusal claims Local in the stretch, each an acquire that never
// reached Redis. No orphaned key held the lock, and no TTL frees it.
func refusedInProcess(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	c := an.Cause
	if an.Kind != checker.KindUnavailable || c == nil || c.Kind != checker.CauseRefusedLocally {
		return nil, false
	}
	return f.found(func(r claim.Claim) bool {
		return r.Kind == claim.Refusal && r.What == claim.Local && r.Client == c.Client && r.Key == an.Key && r.Start >= an.Start && r.Start <= an.End
	})
}

// multiNode: the run's lock has more than one node (the header's; no
// claim states a configuration).
func multiNode(f *runFacts, _ checker.Anomaly) ([]claim.Claim, bool) {
	return nil, len(f.in.History.Header.Nodes) > 1
}

// lockPerFire and notLockPerFire: whether the run's schedulers lock one
// key per fire time (the workload's parameter, as results.json's params
// carry it; no claim states a configuration).
func lockPerFire(f *runFacts, _ checker.Anomaly) ([]claim.Claim, bool) {
	return nil, f.in.History.Header.Params[history.ParamLockPerFire] == 1
}

func notLockPerFire(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	_, ok := lockPerFire(f, an)
	return nil, !ok
}

// keysPerHost: the duplicate run's schedulers, acquiring the same lock
// (one history key), stored it in Redis under names of their own (their
// acquires' lock keys differ): none could refuse another. Its claims are
// those keys' KeyLife claims.
func keysPerHost(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	names := map[string]map[string]string{} // lock → client → key name
	for _, o := range f.in.History.Ops {
		if o.F != history.Acquire || o.Type != history.OK || o.Value.LockKey == "" || !slices.Contains(an.Clients, o.Client) {
			continue
		}
		if names[o.Key] == nil {
			names[o.Key] = map[string]string{}
		}
		names[o.Key][o.Client] = o.Value.LockKey
	}
	own := map[string]bool{}
	for _, byClient := range names {
		distinct := map[string]bool{}
		for _, k := range byClient {
			distinct[k] = true
		}
		if len(distinct) > 1 {
			for k := range distinct {
				own[k] = true
			}
		}
	}
	return f.found(func(c claim.Claim) bool {
		return c.Kind == claim.KeyLife && own[c.Key] && slices.Contains(an.Clients, c.Client)
	})
}

// skewPastTTL: the clients' clocks were further apart than the locks'
// TTL: the ClockOffset claims of the clients' clocks and a Hold claim
// with the TTL.
func skewPastTTL(f *runFacts, _ checker.Anomaly) ([]claim.Claim, bool) {
	ttl, spread, ok := f.skew()
	if !ok || spread < ttl {
		return nil, false
	}
	cs := f.where(func(c claim.Claim) bool { return c.Kind == claim.ClockOffset && c.Client != "" })
	if h, ok := claim.Find(f.cs, func(c claim.Claim) bool { return c.Kind == claim.Hold && c.TTL == ttl }); ok {
		cs = append(cs, h)
	}
	return cs, true
}

// skew is the longest TTL the run's holds had and the spread of its
// clients' clock offsets (a client no clock claim names runs at 0);
// false without a hold or a client clock offset.
func (f *runFacts) skew() (ttl, spread int64, ok bool) {
	off := map[string][]int64{}
	for _, c := range f.cs {
		switch {
		case c.Kind == claim.ClockOffset && c.Client != "":
			off[c.Client] = append(off[c.Client], c.Offset)
		case c.Kind == claim.Hold:
			ttl = max(ttl, c.TTL)
		}
	}
	if ttl <= 0 || len(off) == 0 {
		return 0, 0, false
	}
	lo, hi := int64(0), int64(0)
	first := true
	for _, cl := range f.in.History.Header.Clients {
		vs := off[cl]
		if len(vs) == 0 {
			vs = []int64{0}
		}
		for _, v := range vs {
			if first {
				lo, hi, first = v, v, false
			}
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	return ttl, hi - lo, true
}

// extendedByOther: the anomaly's cause names a client whose extends kept
// another's key (checker.Cause.ExtendedBy): its Extend claims.
func extendedByOther(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	if an.Cause == nil || an.Cause.ExtendedBy == "" {
		return nil, false
	}
	cs := f.where(func(c claim.Claim) bool {
		return c.Kind == claim.Extend && c.Client == an.Cause.ExtendedBy && (c.What == claim.Moved && c.By != "" && c.By != c.Client ||
			slices.ContainsFunc(c.Also, func(k claim.Holder) bool { return k.By == an.Cause.Client }))
	})
	return cs, true
}

// lostHold is the Hold claim of the holder a failover took the lock from:
// the latest believed hold, started by the failover's start, of the
// failover's group's master's key — the hold of the anomaly's first
// client (the stale holder) over the key. False when there is none.
func (f *runFacts) lostHold(an checker.Anomaly) (claim.Claim, bool) {
	client := an.Stale
	if client == "" && len(an.Clients) > 0 {
		client = an.Clients[0]
	}
	var out claim.Claim
	ok := false
	for _, c := range f.cs {
		if c.Kind == claim.Hold && c.Believed && c.Client == client && c.Key == an.Key && c.Start <= an.Start && (!ok || c.Start > out.Start) {
			out, ok = c, true
		}
	}
	return out, ok
}

// failover is the run's first failover Fault claim that names its group's
// replicas (a promotion with their offsets).
func (f *runFacts) failover() (claim.Claim, *history.FaultStep, bool) {
	for _, c := range f.cs {
		if c.Kind == claim.Fault && c.Fault != nil && c.Fault.Effect == history.EffectFailover &&
			len(c.Fault.Promotions) > 0 && len(c.Fault.Promotions[0].ReplicaOffsets) > 0 {
			return c, c.Fault, true
		}
	}
	return claim.Claim{}, nil, false
}

// noWait: the holder the failover took the lock from sent no WAIT in its
// acquire (its Hold claim, Wait 0).
func noWait(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	return sentNoWait(f.lostHold(an))
}

// waitedFewer: that holder's acquire WAITed for fewer replicas than the
// failover's group had (its Hold claim and the failover's Fault claim,
// whose promotion names the group's replicas).
func waitedFewer(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	h, ok := f.lostHold(an)
	return f.waitedFewerThanGroup(h, ok)
}

// sentNoWait: hold h (found when ok) was granted by an acquire that sent
// no WAIT (Wait 0); its claim.
func sentNoWait(h claim.Claim, ok bool) ([]claim.Claim, bool) {
	if !ok || h.Wait > 0 {
		return nil, false
	}
	return []claim.Claim{h}, true
}

// waitedFewerThanGroup: hold h (found when ok) WAITed for some but fewer
// replicas than the failover's group had; its claim and the failover's.
func (f *runFacts) waitedFewerThanGroup(h claim.Claim, ok bool) ([]claim.Claim, bool) {
	if !ok || h.Wait == 0 {
		return nil, false
	}
	fc, st, ok := f.failover()
	if !ok || h.Wait >= len(st.Promotions[0].ReplicaOffsets) {
		return nil, false
	}
	return []claim.Claim{h, fc}, true
}

// lostGrant is the Hold claim of the grant a token regression's newer
// grant repeated or undercut (the anomaly's Current: the earlier grant,
// whose token the counter went back from, held from the anomaly's start).
func (f *runFacts) lostGrant(an checker.Anomaly) (claim.Claim, bool) {
	return claim.Find(f.cs, func(c claim.Claim) bool {
		return c.Kind == claim.Hold && c.Client == an.Current && c.Key == an.Key && c.Start == an.Start
	})
}

// grantNoWait: that grant's acquire sent no WAIT (its Hold claim, Wait 0).
func grantNoWait(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	return sentNoWait(f.lostGrant(an))
}

// grantWaitedFewer: that grant's acquire WAITed for fewer replicas than
// the failover's group had (its Hold claim and the failover's Fault
// claim).
func grantWaitedFewer(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	h, ok := f.lostGrant(an)
	return f.waitedFewerThanGroup(h, ok)
}

// staleAfterFresh: some overlap's stale holder had a write accepted after
// the newer holder's first accepted write (its Anomaly claims with
// Fenceable writes, the checker's): a resource refusing tokens lower than
// one it has seen would have refused it.
func staleAfterFresh(f *runFacts, _ checker.Anomaly) ([]claim.Claim, bool) {
	return f.found(func(c claim.Claim) bool { return c.Kind == claim.Anomaly && len(c.Fenceable) > 0 })
}

// keyLostInCrash: a node crash lost a key it had not persisted (a Key
// life claim ended "crashed"), so the node came back without it.
func keyLostInCrash(f *runFacts, _ checker.Anomaly) ([]claim.Claim, bool) {
	return f.found(func(c claim.Claim) bool { return c.Kind == claim.KeyLife && c.How == account.EndCrashed })
}

// staleBeforeFresh: an overlap whose stale holder had writes accepted,
// none of them after a write of the newer holder in its hold (a mutex
// overlap's Accepted writes, none Fenceable): they reached the resource
// before the newer holder first used it.
func staleBeforeFresh(f *runFacts, _ checker.Anomaly) ([]claim.Claim, bool) {
	return f.found(func(c claim.Claim) bool {
		return c.Kind == claim.Anomaly && c.What == checker.KindMutexOverlap && len(c.Accepted) > 0 && len(c.Fenceable) == 0
	})
}

// onePermit: the run's lock admits one holder at a time — no semaphore
// parameter, or a semaphore of one permit (the workload's parameter, as
// results.json's params carry it; no claim states a configuration).
func onePermit(f *runFacts, _ checker.Anomaly) ([]claim.Claim, bool) {
	n, ok := f.in.History.Header.Params[history.ParamPermits]
	return nil, !ok || n <= 1
}

// recordAccepted is the accepted failure record (workload
// ActionRecordFailure) among the anomaly's violating writes: its Op
// claim, whose write the resource took unchecked.
func recordAccepted(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	return f.found(func(c claim.Claim) bool {
		return c.Kind == claim.Op && c.Action == workload.ActionRecordFailure && c.How == string(history.OK) &&
			slices.ContainsFunc(c.Records, func(i int) bool { return slices.Contains(an.Violating, i) })
	})
}

// causeSteps are the plan steps (their IDs, as strings) advice names as
// the run's own faults: those without which the same seed was valid (its
// Experiment claims "without"), else every fault step the run applied
// (its Fault claims). Reader 4, finding 11: Redlock's advice named "a
// clock jump, a pause or a slow network" of runs whose fault was a clock
// running at the wrong rate.
func (f *runFacts) causeSteps() []any {
	var out []any
	add := func(step int) {
		if s := strconv.Itoa(step); step > 0 && !slices.Contains(out, any(s)) {
			out = append(out, s)
		}
	}
	for _, c := range f.cs {
		if c.Kind == claim.Experiment && c.What == string(why.Without) && c.How == string(finding.Valid) {
			add(c.Step)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, c := range f.cs {
		if c.Kind == claim.Fault && c.Fault != nil {
			add(c.Step)
		}
	}
	return out
}

// tokenLate: an overlap whose stale holder's fencing token was the higher
// though its lock was the older (checker.Cause.StaleFence: its acquire
// returned its token after the newer holder's), with the overlap's claim
// and the two holds' claims, which carry the tokens.
func tokenLate(f *runFacts, _ checker.Anomaly) ([]claim.Claim, bool) {
	for i, a := range allAnomalies(f.in.Results) {
		c := a.Cause
		if a.Informational || a.Kind != checker.KindMutexOverlap || c == nil || c.StaleFence <= 0 {
			continue
		}
		var out []claim.Claim
		if ac, ok := nthClaimOf(f.cs, claim.Anomaly, i); ok {
			out = append(out, ac)
		}
		out = append(out, f.where(func(h claim.Claim) bool {
			return h.Kind == claim.Hold && h.Key == a.Key &&
				(h.Client == a.Stale && h.Fence == c.StaleFence || h.Client == a.Current && h.Fence == c.FreshFence)
		})...)
		return out, true
	}
	return nil, false
}

// charges are the Op claims of the writes of the action the run's
// resource would key by an idempotency key (the payment gateway's charge;
// workload.Kind.Deduplicates with the key on), by key.
func (f *runFacts) charges() map[string][]claim.Claim {
	kind := workload.Of(f.in.History.Header)
	if kind.Deduplicates == nil {
		return nil
	}
	action := kind.Deduplicates(map[string]int64{history.ParamIdempotency: 1})
	out := map[string][]claim.Claim{}
	for _, c := range f.cs {
		if c.Kind == claim.Op && c.What == string(history.Write) && c.Action == action && action != "" {
			out[c.Key] = append(out[c.Key], c)
		}
	}
	return out
}

// secondCharge: some key's charge was sent more than once, whatever the
// resource answered: the Op claims of those charges.
func secondCharge(f *runFacts, _ checker.Anomaly) ([]claim.Claim, bool) {
	var out []claim.Claim
	for _, cs := range f.charges() {
		if len(cs) > 1 {
			out = append(out, cs...)
		}
	}
	slices.SortFunc(out, func(a, b claim.Claim) int { return cmp.Compare(a.Start, b.Start) })
	return out, len(out) > 0
}

// noSecondCharge: no key's charge was sent twice: the Op claims of the
// charges that were (none, when nothing was charged).
func noSecondCharge(f *runFacts, an checker.Anomaly) ([]claim.Claim, bool) {
	if _, ok := secondCharge(f, an); ok {
		return nil, false
	}
	var out []claim.Claim
	for _, cs := range f.charges() {
		out = append(out, cs...)
	}
	slices.SortFunc(out, func(a, b claim.Claim) int { return cmp.Compare(a.Start, b.Start) })
	return out, true
}

// overlapped: two clients believed they held a lock at once (the
// mutex-overlap Anomaly claims, informational or not).
func overlapped(f *runFacts, _ checker.Anomaly) ([]claim.Claim, bool) {
	return f.found(func(c claim.Claim) bool { return c.Kind == claim.Anomaly && c.What == checker.KindMutexOverlap })
}
