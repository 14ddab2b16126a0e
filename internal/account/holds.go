package account

import (
	"cmp"
	"maps"
	"slices"
	"sort"

	"github.com/locksim/locksim/internal/history"
)

// Hold is one believed-hold interval of a client on a key (lock-theory §8.1).
type Hold struct {
	Client string
	Key    string
	// Start and End are true ns. Start is the Complete of the ok acquire;
	// for a hold taken over from an info acquire the client acted on,
	// Start is the Invoke of its first accepted write (see Holds).
	Start, End int64
	// Acquire is the history index of the acquire that began the hold.
	Acquire int
	// Fence is the acquire's fencing token (0 when none or unknown).
	Fence int64
	// TTL is the lease TTL in wall ns, as the acquire recorded it.
	TTL int64
	// Possible marks a hold from an info acquire the client then acted on.
	Possible bool
	// Ended is why the belief ended (Hold* below); EndOp is the history
	// index of the operation that ended it (-1 for HoldCrashed, HoldLast).
	Ended string
	EndOp int
}

// Why a believed hold ended (Hold.Ended).
const (
	HoldReleased   = "released"   // the client invoked its release
	HoldLost       = "lost"       // the client decided its lease was lost
	HoldDone       = "done"       // the client left its critical section (it will only release)
	HoldStopped    = "stopped"    // the run ended while the client was still inside its critical section
	HoldReacquired = "reacquired" // the client invoked another acquire of the key
	HoldCrashed    = "crashed"    // a crash-client fault killed the client
	HoldLast       = "last"       // the client's last recorded instant (or the end of the history)
)

// holds returns every believed-hold interval of h, per lock-theory §8.1:
// from the return (Complete) of an ok acquire to the earliest of the
// client's next release invoke on that key, a lost or done op of the client
// (on that key, or with no key: all its keys; done = the client left its
// critical section and will only release, lock-theory S05), the invoke of another acquire by the
// client on that key, or — when the client never ends the hold — the
// client's last recorded instant (the end of the history when the client's
// last op never completed: it is still inside it, still believing; and in a
// history cut off while its run went on, history.History.Cut), or the
// end of a fault that targeted the client and did not kill it (a pause, a
// partition: the client is still alive and still believes it holds; an
// unhealed one lasts to the end of the history), whichever is later — but
// never past a recorded crash of the client (EffectCrashClient), which ends
// every belief at the crash instant (an operation it began after its crash
// opens none), nor past the kill of a restart-client
// fault (EffectRestartClient), which ends every belief then open; the
// client's next incarnation, under the same name, holds afresh. A client that simply stops recording
// is taken to have stopped (crashed) at its last instant.
//
// Info acquires (the client never learnt whether it got the lock) are only
// possible holds. A possible hold counts as a believed hold only if the
// client then has an accepted write on the key before it ends the possible
// hold (release, lost, another acquire): it acted as holder. The hold then
// starts at the Invoke of that first accepted write — the first instant it
// certainly behaved as holder — never at the acquire's invoke. Possible
// holds the client never acted on are ignored: they neither count as held
// nor as not held. Clients are identified by Client name across the new
// process ids Jepsen's rule gives them after an info outcome.
func holds(h history.History) []Hold {
	eoh := h.End()
	byClient := map[string][]int{}
	var clients []string
	acquires := 0 // an upper bound on the number of holds
	for i := range h.Ops {
		op := &h.Ops[i]
		switch op.F {
		case history.Acquire:
			acquires++
		case history.Release, history.Extend, history.Read, history.Write, history.Lost, history.Done, history.Stopped:
		default:
			continue
		}
		if _, ok := byClient[op.Client]; !ok {
			clients = append(clients, op.Client)
		}
		byClient[op.Client] = append(byClient[op.Client], i)
	}
	sort.Strings(clients)
	alive, crashed := faultEnds(h, eoh)
	restarted := ClientRestarts(h)
	holds := make([]Hold, 0, acquires)
	type possible struct {
		acq int
	}
	for _, c := range clients {
		idx := byClient[c]
		slices.SortStableFunc(idx, func(i, j int) int { return cmp.Compare(h.Ops[i].Invoke, h.Ops[j].Invoke) })
		if t, ok := crashed[c]; ok {
			// Killed for good: what the record says it began after its
			// crash opens no belief (history.Validate refuses a file
			// where it acts after the final probe).
			idx = idx[:sort.Search(len(idx), func(j int) bool { return h.Ops[idx[j]].Invoke > t })]
		}
		last := int64(0)
		for _, i := range idx {
			op := &h.Ops[i]
			if op.Complete < 0 {
				last = eoh
				break
			}
			last = max(last, op.Complete, op.Invoke)
		}
		last = max(last, alive[c])
		if h.Cut {
			// The recording stopped, not the client: a history cut off
			// while its run went on (read as it streams, or its file cut
			// by a kill) has every client still believing at its end.
			last = eoh
		}
		if t, ok := crashed[c]; ok && t < last {
			// A crashed client believes nothing after its crash, even
			// with an operation that never completed.
			last = t
		}
		held := map[string]Hold{}
		maybe := map[string]possible{}
		closeHold := func(key string, t int64, why string, by int) {
			if hd, ok := held[key]; ok {
				hd.End = max(t, hd.Start)
				hd.Ended, hd.EndOp = why, by
				holds = append(holds, hd)
				delete(held, key)
			}
			delete(maybe, key)
		}
		// A restart-client fault kills the incarnation at its instant:
		// every belief open then ends there, whatever the next
		// incarnation later does under the same name.
		restarts, ri := restarted[c], 0
		killedUpTo := func(t int64) {
			for ; ri < len(restarts) && restarts[ri] <= t; ri++ {
				for _, k := range slices.Sorted(maps.Keys(held)) {
					closeHold(k, restarts[ri], HoldCrashed, -1)
				}
				clear(maybe)
			}
		}
		for _, i := range idx {
			op := &h.Ops[i]
			killedUpTo(op.Invoke)
			switch op.F {
			case history.Acquire:
				closeHold(op.Key, op.Invoke, HoldReacquired, op.Index)
				switch {
				case op.Type == history.OK && op.Complete >= 0:
					held[op.Key] = Hold{Client: c, Key: op.Key, Start: op.Complete, Acquire: op.Index,
						Fence: op.Value.Fence, TTL: op.Value.TTL}
				case open(*op):
					maybe[op.Key] = possible{acq: i}
				}
			case history.Release:
				closeHold(op.Key, op.Invoke, HoldReleased, op.Index)
			case history.Lost, history.Done, history.Stopped:
				why := HoldLost
				switch op.F {
				case history.Done:
					why = HoldDone
				case history.Stopped:
					why = HoldStopped
				}
				if op.Key != "" {
					closeHold(op.Key, op.Invoke, why, op.Index)
					break
				}
				keys := make([]string, 0, len(held)+len(maybe))
				for k := range held {
					keys = append(keys, k)
				}
				for k := range maybe {
					keys = append(keys, k)
				}
				for _, k := range keys {
					closeHold(k, op.Invoke, why, op.Index)
				}
			case history.Write:
				if _, ok := held[op.Key]; !ok && accepted(*op) {
					if p, ok := maybe[op.Key]; ok {
						acq := &h.Ops[p.acq]
						held[op.Key] = Hold{Client: c, Key: op.Key, Start: op.Invoke, Acquire: acq.Index,
							Fence: acq.Value.Fence, TTL: acq.Value.TTL, Possible: true}
						delete(maybe, op.Key)
					}
				}
			}
		}
		killedUpTo(last)
		keys := make([]string, 0, len(held))
		for k := range held {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		why := HoldLast
		if t, ok := crashed[c]; ok && t == last {
			why = HoldCrashed
		}
		for _, k := range keys {
			closeHold(k, last, why, -1)
		}
	}
	return holds
}

// faultEnds maps each client to the latest end of an applied fault that
// touched it (on the client or on one of its links) and left it alive; an
// unhealed fault ends at eoh. A crash of the client (EffectCrashClient)
// counts up to the crash instant, and crashed holds each crashed client's
// first crash: it was alive until then and is gone after.
func faultEnds(h history.History, eoh int64) (alive, crashed map[string]int64) {
	alive, crashed = map[string]int64{}, map[string]int64{}
	for _, f := range h.Faults() {
		if f.Type == history.Fail {
			continue // never took effect
		}
		st := f.Value.Fault
		if st.Effect == history.EffectRestartClient {
			for _, c := range st.Clients {
				alive[c] = max(alive[c], f.Invoke) // killed then; its next incarnation records its own ops
			}
			continue
		}
		if st.Effect == history.EffectCrashClient {
			for _, c := range st.Clients {
				alive[c] = max(alive[c], f.Invoke)
				if t, ok := crashed[c]; !ok || f.Invoke < t {
					crashed[c] = f.Invoke
				}
			}
			continue
		}
		end := f.Complete
		if end < 0 {
			end = eoh
		}
		for _, c := range st.Clients {
			alive[c] = max(alive[c], end)
		}
		for _, c := range st.LinkClients() {
			alive[c] = max(alive[c], end)
		}
	}
	return alive, crashed
}

// open reports whether op's outcome is unknown: type info, or never
// completed. Such an op may have taken effect at any time after its invoke.
func open(op history.Op) bool { return op.Type == history.Info || op.Complete < 0 }

// accepted reports whether op is a write the resource accepted.
func accepted(op history.Op) bool {
	return op.F == history.Write && op.Type == history.OK && op.Complete >= 0
}

// ClientCrashes maps each client to the instants (true ns, ascending) at
// which an applied crash-client fault (EffectCrashClient) killed it. A
// client is inside nothing after its crash: whatever it entered ends there.
func ClientCrashes(h history.History) map[string][]int64 {
	return clientKills(h, history.EffectCrashClient)
}

// ClientRestarts maps each client to the instants (true ns, ascending) at
// which an applied restart-client fault (EffectRestartClient) killed an
// incarnation of it; a new incarnation under the same name starts the
// step's Duration later.
func ClientRestarts(h history.History) map[string][]int64 {
	return clientKills(h, history.EffectRestartClient)
}

// clientKills maps each client to the instants (true ns, ascending) at
// which an applied fault of effect killed it.
func clientKills(h history.History, effect string) map[string][]int64 {
	out := map[string][]int64{}
	for _, f := range h.Faults() {
		if f.Type == history.Fail || f.Value.Fault == nil || f.Value.Fault.Effect != effect {
			continue
		}
		for _, c := range f.Value.Fault.Clients {
			out[c] = append(out[c], f.Invoke)
		}
	}
	for _, ts := range out {
		slices.Sort(ts)
	}
	return out
}
