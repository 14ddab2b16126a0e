package checker

import (
	"fmt"
	"sort"
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// IdleKill is a kill of a client (crash-client, restart-client) that
// coverage counts as a test though, at the kill, the client held nothing
// and had no operation in flight: it had tried the lock before (a lock
// operation; in a lock-free history a resource one), so the kill tests
// what a dead contender leaves behind (a queued entry, nothing), not a
// hold (coverage only; fair-lock-plain's crash of w2 between tries).
type IdleKill struct {
	Client string `json:"client"`
	// At is the kill's instant; LastEnd is when the client's last
	// operation before it ended (wall ns, true time).
	At      int64 `json:"at_ns"`
	LastEnd int64 `json:"last_end_ns"`
	// Refused: that last operation was an acquire the lock refused.
	Refused bool `json:"refused,omitempty"`
}

// tested counts the faults that bore on something (hit); lasting those of
// them (a client's clock jump, instant) that did only by the offset the
// clock kept after the jump's own record had ended: the summary must not
// say such a jump overlapped a hold it came before (issue 27); and kills,
// the kills counted though they met no hold or in-flight operation of the
// killed client (IdleKill), one per killed client; and held the pauses
// that met none but held back the operation their client invoked as it
// thawed (within MaxTimerLag, wall, of the pause's end: overdue timers
// fire at once on a thaw, so later is not the pause's doing): a release or a write
// that came late because of it (redis-py-stale-release's pause before
// releasing, idempotency-key's before writing).
func tested(a *account.Account, faults []history.Op, spans spanIndex, eoh int64, lockFree bool) (hit, lasting, held int, kills []IdleKill) {
	for _, f := range faults {
		fEnd := f.Complete
		if fEnd < 0 {
			fEnd = eoh
		}
		st := *f.Value.Fault
		if kill(st) {
			// A kill meets what the killed client held or had in flight at
			// its instant. Killing a client that had done nothing yet (no
			// operation invoked before the kill: no hold, no queued entry,
			// no in-flight call) leaves nothing behind for the others to
			// meet: it tests nothing.
			met, idle := false, []IdleKill(nil)
			for _, c := range st.Clients {
				cs := spans.by[c]
				switch {
				case cs == nil || cs.start[0] > f.Invoke:
				case cs.meets(f.Invoke, f.Invoke):
					met = true
				default:
					idle = append(idle, idleKill(a.H, c, f.Invoke, lockFree))
				}
			}
			switch {
			case met:
				hit++
			case len(idle) > 0:
				hit++
				kills = append(kills, idle...)
			}
			continue
		}
		during, after, back := false, false, false
		for _, c := range spans.clients {
			if !affects(st, c) {
				continue
			}
			if spans.by[c].meets(f.Invoke, fEnd) {
				during = true
				break
			}
			after = after || persistsOnClient(st) && spans.by[c].meets(f.Invoke, eoh)
			back = back || st.Effect == history.EffectFreezeClient && f.Complete >= 0 && spans.by[c].starts(f.Invoke, fEnd+int64(MaxTimerLag))
		}
		switch {
		case during:
			hit++
		case after:
			hit++
			lasting++
		case back:
			hit++
			held++
		}
	}
	return hit, lasting, held, kills
}

// starts reports whether some span starts within [from, to].
func (cs *clientSpans) starts(from, to int64) bool {
	i := sort.Search(len(cs.start), func(j int) bool { return cs.start[j] >= from })
	return i < len(cs.start) && cs.start[i] <= to
}

// idleKill is the IdleKill of client killed at instant at: its last
// operation coverage counts (a lock one; a resource one when lockFree)
// invoked before the kill.
func idleKill(h history.History, client string, at int64, lockFree bool) IdleKill {
	k := IdleKill{Client: client, At: at, LastEnd: -1}
	for _, op := range h.Ops {
		if op.Client != client || !isClientOp(op) || op.Invoke > at || op.Complete < 0 || op.Complete < k.LastEnd {
			continue
		}
		lockOp := op.F == history.Acquire || op.F == history.Release || op.F == history.Extend
		if lockOp != !lockFree {
			continue
		}
		k.LastEnd, k.Refused = op.Complete, op.F == history.Acquire && op.Type == history.Fail
	}
	return k
}

// boreKilled is coverage's summary when kills (IdleKill), or pauses that
// only held back an operation (held), are among the hit of n faults: what
// each of them met, beside the others' overlaps and lasting clock jumps
// (bore's words).
func boreKilled(h history.History, hit, lasting, held int, kills []IdleKill, n int, target string, lockFree bool) string {
	opWord := "lock operation"
	if lockFree {
		opWord = "resource operation"
	}
	var parts []string
	killing := map[int64]bool{} // the kill steps among the hit, by instant (one step may kill several clients)
	for _, k := range kills {
		killing[k.At] = true
	}
	if over := hit - lasting - held - len(killing); over > 0 {
		parts = append(parts, fmt.Sprintf("%d overlapped %s", over, target))
	}
	if lasting > 0 {
		parts = append(parts, fmt.Sprintf("%s applied before %s, whose offset lasted through it", plural(lasting, "client clock jump", "client clock jumps"), target))
	}
	if held > 0 {
		parts = append(parts, fmt.Sprintf("%s held back the %s its client invoked as it thawed (meeting no hold or %s in flight of that client)", plural(held, "pause", "pauses"), opWord, opWord))
	}
	for _, k := range kills {
		last := fmt.Sprintf("after its last %s ended at %s", opWord, at(h, k.LastEnd))
		if k.Refused {
			last = fmt.Sprintf("after its acquire was refused at %s", at(h, k.LastEnd))
		}
		parts = append(parts, fmt.Sprintf("%s was killed at %s, %s, holding nothing and with no %s in flight: the kill tested what a dead contender leaves behind, not a hold",
			k.Client, at(h, k.At), last, opWord))
	}
	what := "fault counted as a test"
	if n > 1 {
		what = "faults counted as tests"
	}
	return fmt.Sprintf("%d of %d %s: %s", hit, n, what, strings.Join(parts, "; "))
}
