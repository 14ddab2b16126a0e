package checker

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// DefaultMinAcquires is coverage's minimum of ok acquires (of accepted
// writes in a lock-free history) when Header.Params["min_acquires"] is
// unset: at least two grants, so that a second client could have been
// granted while the first still believed (one grant cannot break a lock).
const DefaultMinAcquires = 2

// Coverage is the coverage checker (design §8: "the fault really overlapped
// a hold and enough operations ran, otherwise unknown — a scenario that
// proves nothing must not pass"). It counts the plan, not what happened to
// fire (design §12). The result is Unknown, never Invalid, when
//
//   - a step of the fault plan (Header.Plan) that is not optional never
//     fired, or fired and failed to apply: the run did not test what the
//     scenario says (Result.Missed names the steps). A random nemesis's
//     steps are optional by nature;
//   - the plan had steps but none took effect at all;
//   - no applied fault tested anything: a kill of a client
//     (crash-client, restart-client) tests something only when the killed
//     client had invoked an operation (a lock operation; in a lock-free
//     history a resource one) before it — a kill of a client that had
//     done nothing leaves no hold, queued entry or call behind (a kill
//     that met none of the client's holds or in-flight operations, after
//     it had tried the lock, counts all the same, but the summary says
//     what it met: Result.IdleKills); any other
//     fault when its active window [Invoke, Complete] (an unhealed
//     fault, and a jump of a client's clock, lasts to the end of the
//     history; closed intervals, touching counts) meets any believed hold
//     (see Holds) or any in-flight lock op (acquire, release, extend,
//     [Invoke, Complete]) of a client the fault bears on (a fault on links
//     only the clients of those links, a fault on clients only those
//     clients; see affects) — not one of unknown
//     outcome that the nodes' record shows never reached them (it tested
//     nothing on Redis; Account.Reached); in a lock-free history
//     (no lock ops at all: atomic-lua, idempotency-key) any in-flight
//     resource op (read, write) counts instead; or
//   - fewer than Params["min_acquires"] (default 2) acquires succeeded (ok),
//     or in a lock-free history fewer writes were accepted — with or
//     without faults: a header with no operations proves nothing.
//
// A history with no faults at all and enough grants is Valid: a happy-path
// scenario tests nothing but the happy path, and says so. Any history is
// Unknown when the machine was too busy to keep the run's compressed time
// (see MaxTimerLag). An invalid verdict of another checker still stands
// (Merge): the violation happened.
//
// Probes and faults themselves never count.
func Coverage(ctx context.Context, h history.History) Result { return coverage(ctx, account.New(h)) }

func coverage(ctx context.Context, a *account.Account) Result {
	h := a.H
	busy, lost := timingLost(h)
	stall := -1
	if !lost {
		busy, stall, lost = unexplainedStall(a)
	}
	if why, off := unplannedSwitch(a); off {
		return unproven(Result{TimingLost: true, OffPlan: true}, why)
	}
	if why, apart := hostClockApart(h); apart {
		return unproven(Result{TimingLost: true, HostClock: true}, why)
	}
	var late *LateFault
	if !lost {
		busy, late, lost = lateFault(a)
	}
	if e, ok := untested(exposures(a)); ok {
		return unproven(Result{TimingLost: lost, Exposure: &e}, exposureWhy(h, e))
	}
	if lost {
		return unproven(Result{TimingLost: true, Stall: stallAt(stall), Late: late}, busy)
	}
	if why, at, ok := raceLost(a); ok {
		return unproven(Result{RaceLost: true, Stall: stallAt(at)}, why)
	}
	if e, ok := edgeCrossed(a); ok {
		return unproven(Result{RaceLost: true, Edge: &e}, edgeWhy(h, e))
	}
	if d, ok := driftCrossed(a); ok {
		return unproven(Result{RaceLost: true, Drift: &d}, driftWhy(h, d))
	}
	faults, missed := planFaults(h)
	if missed != nil {
		return *missed
	}
	if len(faults) == 0 && len(h.Header.Plan) > 0 {
		return unproven(Result{},
			fmt.Sprintf("the fault plan had %s but none took effect before the workload ended", plural(len(h.Header.Plan), "fault", "faults")))
	}
	eoh := h.End()
	lockFree := true
	for _, op := range h.Ops {
		if isClientOp(op) && (op.F == history.Acquire || op.F == history.Release || op.F == history.Extend) {
			lockFree = false
			break
		}
	}
	spans := spanIndex{}
	if !lockFree {
		for _, hd := range a.Holds {
			spans.add(hd.Client, hd.Start, hd.End)
		}
	}
	ran := 0
	for i := range h.Ops {
		op := &h.Ops[i]
		if !isClientOp(*op) {
			continue
		}
		lockOp := op.F == history.Acquire || op.F == history.Release || op.F == history.Extend
		if lockOp == !lockFree && !neverSent(a, i) {
			end := op.Complete
			if end < 0 {
				end = eoh
			}
			spans.add(op.Client, op.Invoke, end)
		}
		switch {
		case !lockFree && op.F == history.Acquire && op.Type == history.OK && op.Complete >= 0:
			ran++
		case lockFree && accepted(*op):
			ran++
		}
	}
	if err := ctx.Err(); err != nil {
		return Result{Checker: CheckerCoverage, Verdict: Unknown, Summary: "not checked: " + err.Error()}
	}
	spans.index()
	hit, lasting, held, kills := tested(a, faults, spans, eoh, lockFree)
	unit, units := "ok acquire", "ok acquires"
	target := "a believed lock hold or an in-flight lock operation"
	if lockFree {
		unit, units = "accepted write", "accepted writes"
		target = "an in-flight resource operation (the algorithm is lock-free)"
	}
	if r, ok := shortfall(h, len(faults), hit, ran, lockFree, target); ok {
		return r
	}
	counts := map[string]int{claim.Faults: len(faults), claim.OKAcquires: ran}
	if lockFree {
		counts = map[string]int{claim.Faults: len(faults), claim.AcceptedWrites: ran}
	}
	if len(faults) == 0 {
		return Result{Checker: CheckerCoverage, Verdict: Valid, Summary: fmt.Sprintf("no faults in this run: nothing to cover; %s", plural(ran, unit, units)), Counts: counts}
	}
	summary := bore(hit, lasting, len(faults), target)
	if len(kills) > 0 || held > 0 {
		summary = boreKilled(h, hit, lasting, held, kills, len(faults), target, lockFree)
	}
	return Result{Checker: CheckerCoverage, Verdict: Valid, Summary: summary + "; " + plural(ran, unit, units), Counts: counts, IdleKills: kills}
}

// shortfall is coverage's unknown for a run whose nFaults faults hit
// nothing (hit == 0) or which granted fewer than the minimum (ran ok
// acquires, or accepted writes when lockFree), with whether the
// machine's lateness may be the cause; ok false when neither holds.
func shortfall(h history.History, nFaults, hit, ran int, lockFree bool, target string) (Result, bool) {
	minRan := int64(DefaultMinAcquires)
	if v, ok := h.Header.Params[history.ParamMinAcquires]; ok {
		minRan = v
	}
	unit, units := "ok acquire", "ok acquires"
	if lockFree {
		unit, units = "accepted write", "accepted writes"
	}
	late := h.Header.MaxTimerLagNS >= history.LagRecordNS
	var why []string
	untested := 0
	if nFaults > 0 && hit == 0 {
		untested = nFaults // a partition of w2 over w1's hold tests nothing: say whose
		whose := target + " of a client it affected"
		if lockFree {
			whose = "an in-flight resource operation of a client it affected (the algorithm is lock-free)"
		}
		why = append(why, fmt.Sprintf("no fault (of %d) overlapped %s, so the faults tested nothing", nFaults, whose))
	}
	short := false
	if int64(ran) < minRan {
		why = append(why, fmt.Sprintf("only %s ran, fewer than the minimum of %d", plural(ran, unit, units), minRan))
		// With the harness's timers late, the machine may be what kept
		// the contenders out before the run ended.
		short = hit > 0 && late
	}
	if len(why) == 0 {
		return Result{}, false
	}
	// Likewise a plan whose faults all missed the holds, on a harness that
	// ran late: the lateness may be what moved them apart (a random
	// nemesis seed that tested nothing beside two CPU hogs tested w2's
	// hold on a quiet machine).
	return unproven(Result{ShortOfGrants: short, Untested: untested, UntestedLate: untested > 0 && late}, strings.Join(why, "; ")), true
}

// bore says how hit of n faults bore on target, lasting of them (client
// clock jumps applied before a hold) only by the offset they left.
func bore(hit, lasting, n int, target string) string {
	if lasting == 0 {
		return fmt.Sprintf("%d of %s overlapped %s", hit, plural(n, "fault", "faults"), target)
	}
	how := plural(lasting, "client clock jump", "client clock jumps") + " applied before one, whose offset lasted through it"
	if lasting > 1 {
		how = plural(lasting, "client clock jump", "client clock jumps") + " applied before one, whose offsets lasted through it"
	}
	if hit > lasting {
		how = fmt.Sprintf("%d overlapped one, and %s", hit-lasting, how)
	}
	return fmt.Sprintf("%d of %s bore on %s: %s", hit, plural(n, "fault", "faults"), target, how)
}

// planFaults are the run's applied fault operations; and, when a step
// of the plan never fired or failed to apply, the coverage result that
// says so (nil otherwise).
func planFaults(h history.History) ([]history.Op, *Result) {
	var faults []history.Op // applied fault operations
	applied := map[int]bool{}
	failed := map[int]string{} // step → its error
	for _, op := range h.Faults() {
		if op.Type == history.Fail {
			failed[op.Value.Fault.ID] = op.Error
			continue
		}
		faults = append(faults, op)
		applied[op.Value.Fault.ID] = true
	}
	var missed, failedSteps []int
	var missedWhy []string
	for _, st := range h.Header.Plan {
		if st.Optional || applied[st.ID] {
			continue
		}
		missed = append(missed, st.ID)
		what := "never fired"
		if err, ok := failed[st.ID]; ok {
			failedSteps = append(failedSteps, st.ID)
			what = "failed to apply"
			if err != "" {
				what += " (" + err + ")"
			}
		}
		missedWhy = append(missedWhy, fmt.Sprintf("step #%d (%s) %s", st.ID, st.Kind, what))
	}
	if len(missed) > 0 {
		late := len(missed) > len(failedSteps) && h.Header.MaxTimerLagNS >= history.LagRecordNS
		r := unproven(Result{Missed: missed, FailedSteps: failedSteps, UnfiredLate: late},
			fmt.Sprintf("the fault plan's %s, so the run did not test what the scenario describes", strings.Join(missedWhy, ", ")))
		return nil, &r
	}
	return faults, nil
}

// affects reports whether fault f bears on client's operations. A fault on
// links (a partition, latency, a reset) reaches only the clients of those
// links: cutting w2 while only w1 holds the lock tests nothing. A fault on
// a client itself (a pause, a crash, a clock, its renewer starved) reaches
// only that client: pausing w2 while w2 holds nothing and has no lock
// operation in flight tests nothing, whoever else holds the lock then (a
// pause of the holder is the holder's own: its hold spans the pause). A
// fault on nodes bears on everyone: every client's operations go through
// them.
//
// A replication link (a replica's link to its master: replication-lag) is
// the node's, not a client's: it bears on everyone, as a node fault does.
func affects(f history.FaultStep, client string) bool {
	if f.OnLinks() && !slices.ContainsFunc(f.Links, func(l history.Link) bool { return history.IsReplicaOf(l.Client, l.Node) }) {
		return f.Touches(client)
	}
	if onClient(f) {
		return slices.Contains(f.Clients, client)
	}
	return true
}

// onClient reports whether f acts on client processes alone (their
// execution, clock or renewer), not on nodes or links.
func onClient(f history.FaultStep) bool {
	switch f.Effect {
	case history.EffectFreezeClient, history.EffectCrashClient, history.EffectRestartClient,
		history.EffectStarveRenewer, history.EffectClientClock:
		return true
	}
	return false
}

// kill reports whether f kills client processes (crash-client,
// restart-client): it bears only on what the killed incarnation had done.
func kill(f history.FaultStep) bool {
	return f.Effect == history.EffectCrashClient || f.Effect == history.EffectRestartClient
}

// persistsOnClient reports a fault whose effect outlives its recorded
// window: a client's clock that jumped stays where it jumped to.
func persistsOnClient(f history.FaultStep) bool {
	return f.Effect == history.EffectClientClock && f.Rate == 0
}

// spanIndex holds the closed time spans coverage looks at, per client,
// sorted by start with the running maximum of their ends, so "does a span
// of this client meet [from, to]" is one binary search.
type spanIndex struct {
	clients []string
	by      map[string]*clientSpans
}

type clientSpans struct {
	start, end []int64 // end becomes the running maximum in index
}

func (x *spanIndex) add(client string, start, end int64) {
	if x.by == nil {
		x.by = map[string]*clientSpans{}
	}
	cs := x.by[client]
	if cs == nil {
		cs = &clientSpans{}
		x.by[client] = cs
		x.clients = append(x.clients, client)
	}
	cs.start = append(cs.start, start)
	cs.end = append(cs.end, end)
}

func (x *spanIndex) index() {
	for _, cs := range x.by {
		if !slices.IsSorted(cs.start) {
			ord := make([]int, len(cs.start))
			for i := range ord {
				ord[i] = i
			}
			slices.SortFunc(ord, func(a, b int) int { return cmp.Compare(cs.start[a], cs.start[b]) })
			st, en := make([]int64, len(ord)), make([]int64, len(ord))
			for j, i := range ord {
				st[j], en[j] = cs.start[i], cs.end[i]
			}
			cs.start, cs.end = st, en
		}
		for j := 1; j < len(cs.end); j++ {
			cs.end[j] = max(cs.end[j], cs.end[j-1])
		}
	}
}

// meets reports whether some span [start, end] has start <= to and end >= from.
func (cs *clientSpans) meets(from, to int64) bool {
	n := sort.Search(len(cs.start), func(j int) bool { return cs.start[j] > to }) // spans starting at or before to
	return n > 0 && cs.end[n-1] >= from
}

// MaxTimerLag is the harness timer lag (Header.MaxTimerLagNS, wall time)
// at and above which a run's timing is lost, when it is also at least a
// tenth of the shortest TTL granted, in scenario time: the shipped scenarios keep at least
// 100 ms of wall time on every race their verdict depends on, and a race
// inside a tenth of the TTL decides most lock anomalies. A run that lost
// its timing may have seen the race go either way; its valid verdict
// proves nothing (a violation it found still happened). The scenario
// parser warns of a time-triggered fault planned less than twice this
// after a client's start (scenario.LeadFloor).
const MaxTimerLag = history.MaxTimerLag

// stallSlack is how long after a fault ends a client's command may still
// get no answer because of it (wall time): connections re-dial a restarted
// node, a healed link drains what queued behind it.
const stallSlack = int64(500 * time.Millisecond)

// unexplainedStall finds a client command that got no answer within its
// deadline, or took MaxTimerLag or more and a tenth of the shortest TTL
// (history.Stalled), while no fault stood between the client and the
// node: no step acting on the client, the node or their link was active
// from a stallSlack before the command to its end. Such a stall means the
// machine, not the scenario, lost a timing race (a Redlock per-node
// timeout is tens of ms of wall time; the shipped scenarios keep 100 ms on
// the races they depend on), so a valid verdict proves nothing.
func unexplainedStall(a *account.Account) (string, int, bool) {
	h := a.H
	ops := unexplainedStalls(a)
	if len(ops) == 0 {
		return "", -1, false
	}
	return stallSentence(h, ops[0], ""), ops[0].Index, true
}

// stallAt is Result.Stall of the stalled command at history index i, nil
// when i is negative (no stall spoiled the run).
func stallAt(i int) *int {
	if i < 0 {
		return nil
	}
	return &i
}

// stallSentence says that op, a command no fault explains, stalled the
// run: how long it took or waited for no answer (wall), and over what
// bound when over is not "" ("a tenth of the shortest fault window").
func stallSentence(h history.History, op history.Op, over string) string {
	took := time.Duration(op.Complete - op.Invoke).Round(time.Millisecond)
	how := fmt.Sprintf("was answered only after %v (wall)", took)
	if op.Type == history.Info {
		how = fmt.Sprintf("got no answer within its %v deadline (wall)", took)
	}
	if over != "" {
		how += ", over " + over
	}
	return fmt.Sprintf("the machine was too busy to keep compressed time: %s's %s to %s at %s %s, and no fault stood between them; run fewer at once (--parallel) or at a lower --time-scale",
		op.Client, strings.Join(op.Value.Cmd, " "), op.Value.Node, at(h, op.Invoke), how)
}

// unexplainedStalls are the stalls unexplainedStall looks for, every one,
// in history order.
func unexplainedStalls(a *account.Account) []history.Op {
	return unexplainedStallsOver(a, timingBound(a.H))
}

// unexplainedStallsOver are the unexplained stalls of slow wall ns or
// more (or with no answer at all).
func unexplainedStallsOver(a *account.Account, slow int64) []history.Op {
	h := a.H
	probed := probeGranted(h)
	var out []history.Op
	for _, op := range h.Ops {
		if op.F != history.Stalled || (op.Type != history.Info && op.Complete-op.Invoke < slow) {
			continue
		}
		if op.Client == history.ProbeClient && probed {
			// The final probe got every lock it tried anyway: a slow node
			// changed none of its answers, and the probe has no race.
			continue
		}
		explained := false
		for _, f := range a.Faults {
			if f.Start > op.Complete || f.End+stallSlack < op.Invoke || !stallCause(f.Step, op.Client, op.Value.Node, op.Value.Cmd) {
				continue
			}
			explained = true
			break
		}
		if !explained {
			out = append(out, op)
		}
	}
	return out
}

// timingBound is how late the harness may be, wall ns, before a run's
// timing is lost: MaxTimerLag, or a tenth of the shortest TTL granted when
// that is longer (the tightest race a lock anomaly turns on).
func timingBound(h history.History) int64 {
	return max(int64(MaxTimerLag), shortestTTL(h)/10)
}

// shortestTTL is the shortest TTL granted in h (wall ns), 0 when none.
func shortestTTL(h history.History) int64 {
	var ttl int64
	for _, op := range h.Ops {
		if op.F == history.Acquire && op.Type == history.OK && op.Value.TTL > 0 && (ttl == 0 || op.Value.TTL < ttl) {
			ttl = op.Value.TTL
		}
	}
	return ttl
}

// unplannedSwitch finds a promotion Sentinel announced (history
// MasterSwitch) that no failover step explains: no failover of that group
// was active from its start to a stallSlack after its end. The sentinels
// then judged a healthy master down, which on a loaded machine means they
// missed its replies for their down-after: the topology moved under the
// scenario, and a valid verdict proves nothing.
func unplannedSwitch(a *account.Account) (string, bool) {
	h := a.H
	used := map[int]bool{} // failover steps whose announced promotion was heard
	for _, op := range h.Ops {
		if op.F != history.MasterSwitch || len(op.Value.Cmd) < 2 {
			continue
		}
		explained := false
		for _, f := range a.Faults {
			if f.Step.Effect != history.EffectFailover || !slices.Contains(f.Step.Nodes, op.Value.Node) || op.Invoke < f.Start {
				continue
			}
			// Within the step's window, or the announcement of the very
			// promotion the step recorded (a SENTINEL FAILOVER is
			// announced once the old master is reconfigured, which can be
			// long after the promotion the step waited for) — once.
			promoted := slices.ContainsFunc(f.Step.Promotions, func(p history.Promotion) bool {
				return p.Group == op.Value.Node && p.Old == op.Value.Cmd[0] && p.Promoted == op.Value.Cmd[1]
			})
			if op.Invoke <= f.End+stallSlack || promoted && !used[f.Step.ID] {
				explained = true
				if promoted {
					used[f.Step.ID] = true
				}
				break
			}
		}
		if !explained {
			// The sentinels judged the master down when nothing in the
			// plan stopped it: their scaled down-after was too short for
			// the machine's load, or for Sentinel's own unscaled periods
			// (a 1 s INFO poll while a failover settles): locksim cannot
			// tell which, so it says both.
			return fmt.Sprintf("Sentinel promoted %s over %s in group %s at %s with no failover in the plan: the sentinels judged %s down, their scaled down-after too short for this machine's load or for Sentinel's own unscaled periods; run fewer at once (--parallel), at a lower --time-scale, or with a longer sentinel.down_after",
				op.Value.Cmd[1], op.Value.Cmd[0], op.Value.Node, at(h, op.Invoke), op.Value.Cmd[0]), true
		}
	}
	return "", false
}

// exposureWhy is coverage's sentence for an exposure no contender tested.
func exposureWhy(h history.History, e Exposure) string {
	sec := func(ns int64) float64 { return h.Header.ScenarioSeconds(ns) }
	why := sprintf("%s's %s came %.1f s after its lease on %s ended (%s at %s), and no other client's try to take the lock reached Redis from then to %s",
		e.Client, e.Action, sec(h.Ops[e.First].Invoke-e.LeaseEnd), e.Key, e.Ended, at(h, e.LeaseEnd), at(h, e.To))
	switch t := e.Short; {
	case t != nil && t.Granted > 0:
		why = sprintf("%s's %s came %.1f s after its lease on %s ended (%s at %s), and no other client held the lock from then to %s: the try %s began at %s was granted only at %s, after it",
			e.Client, e.Action, sec(h.Ops[e.First].Invoke-e.LeaseEnd), e.Key, e.Ended, at(h, e.LeaseEnd), at(h, e.To), t.Client, at(h, t.At), at(h, t.Granted))
	case t != nil && t.GaveUp != "":
		why = sprintf("%s's %s came %.1f s after its lease on %s ended (%s at %s), and no other client could act on the lock from then to %s: the try %s began at %s gave the lock up by its own guard (%s)",
			e.Client, e.Action, sec(h.Ops[e.First].Invoke-e.LeaseEnd), e.Key, e.Ended, at(h, e.LeaseEnd), at(h, e.To), t.Client, at(h, t.At), t.GaveUp)
	case t != nil && t.Need == 1 && t.ScriptRefused:
		why = sprintf("%s's %s came %.1f s after its lease on %s ended (%s at %s), and no other client's try from then to %s could have been granted: the node's record shows no key of the lock there when the script of the one %s began at %s reached it, and the lock refused it all the same (a reason of the lock's own, such as a fair lock's queue headed by another waiter, or a key the record missed)",
			e.Client, e.Action, sec(h.Ops[e.First].Invoke-e.LeaseEnd), e.Key, e.Ended, at(h, e.LeaseEnd), at(h, e.To), t.Client, at(h, t.At))
	case t != nil && t.Need == 1:
		// A lock on one node: the key its command found there.
		whose := t.KeyOwner + "'s"
		switch t.KeyOwner {
		case t.Client:
			whose = "left by an earlier acquire of " + t.Client + "'s own"
		case "":
			whose = "whose owner the record does not name"
		}
		why = sprintf("%s's %s came %.1f s after its lease on %s ended (%s at %s), and no other client's try from then to %s could have been granted: when the commands of the one %s began at %s reached the node, a key of the lock was there, %s",
			e.Client, e.Action, sec(h.Ops[e.First].Invoke-e.LeaseEnd), e.Key, e.Ended, at(h, e.LeaseEnd), at(h, e.To), t.Client, at(h, t.At), whose)
	case t != nil:
		why = sprintf("%s's %s came %.1f s after its lease on %s ended (%s at %s), and no other client's try from then to %s could have been granted: the one %s began at %s found %s free of the lock's key (%s's or any other client's) as its commands reached them, short of the %d a grant needs",
			e.Client, e.Action, sec(h.Ops[e.First].Invoke-e.LeaseEnd), e.Key, e.Ended, at(h, e.LeaseEnd), at(h, e.To), t.Client, at(h, t.At), plural(t.Met, "node", "nodes"), e.Client, t.Need)
	}
	var around []string
	if e.LastTry != nil {
		around = append(around, sprintf("the last try before: %s's, last recorded at %s", e.LastTry.Client, at(h, e.LastTry.At)))
	}
	if e.NextTry != nil {
		around = append(around, sprintf("the next: %s's, first recorded at %s", e.NextTry.Client, at(h, e.NextTry.At)))
	}
	if len(around) > 0 {
		why += " (" + strings.Join(around, "; ") + ")"
	}
	return why + ", so the run could not have shown a violation"
}

// busyWhy is coverage's sentence for a run whose timing the machine took:
// what went late, and what to do about it.
func busyWhy(what string) string {
	return "the machine was too busy for compressed time: " + what + "; run fewer at once (--parallel) or at a lower --time-scale"
}

// msRound rounds the durations coverage prints.
const msRound = time.Millisecond

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// probeGranted reports whether the history has a final probe and each of
// its attempts acquired the lock.
func probeGranted(h history.History) bool {
	found := false
	for _, op := range h.Ops {
		if op.F != history.Probe {
			continue
		}
		if op.Type != history.OK {
			return false
		}
		found = true
	}
	return found
}

// stallCause reports whether step st can keep client's commands to node
// from being answered: it acts on the client, the node or their link, and
// is not a clock or key fault (those answer at once).
//
// A WAIT blocks by design until the node's replicas acknowledge: a fault on
// the node's replication (a link from one of its replicas, a replica
// itself) explains its stall too.
func stallCause(st history.FaultStep, client, node string, cmd []string) bool {
	switch st.Effect {
	case history.EffectClientClock, history.EffectNodeClock, history.EffectDeleteKey:
		return false
	}
	if slices.Contains(st.Clients, client) || slices.Contains(st.Nodes, node) {
		return true
	}
	if len(cmd) > 0 && strings.EqualFold(cmd[0], "wait") {
		if slices.ContainsFunc(st.Links, func(l history.Link) bool { return l.Node == node }) ||
			slices.ContainsFunc(st.Nodes, func(n string) bool { return history.IsReplicaOf(n, node) }) {
			return true
		}
	}
	return slices.ContainsFunc(st.Links, func(l history.Link) bool { return l.Client == client && l.Node == node })
}

// lateWhat names what was lag late, the run's worst lateness: a client
// that began its workload that late past its planned start
// (history.LateStart), else a harness timer.
func lateWhat(h history.History, lag time.Duration) string {
	if op, ok := h.LateStart(); ok && op.Complete-op.Invoke >= int64(lag) {
		return fmt.Sprintf("%s began its workload (planned at %s)", op.Client, at(h, op.Invoke))
	}
	return "a harness timer fired"
}

// MaxWallDrift is how far the host's wall clock may run apart from the
// run's own (monotonic) clock over a run, as a fraction, before the run is
// unknown. Redis counts TTLs on the wall clock; the account and the
// verifier read them at the run's measured rate (Header.WallRate), which
// is right for a clock slewed evenly (a freshly booted VM ran 0.5 % fast,
// issue 32) but not for one stepped mid-run: a CI rehearsal's wall clock
// jumped about 8 s forward during two 2.6 s runs (rate 4.1), every key
// expired at once, and an expected-valid file came out invalid with a
// foreign unlock. 2 % is four times the slew seen, forty times
// NTP's own bound of 500 ppm.
const MaxWallDrift = 0.02

// hostClockApart reports whether h's host wall clock ran apart from the
// run's clock by more than MaxWallDrift, and says how.
func hostClockApart(h history.History) (string, bool) {
	r := h.Header.WallRate
	if r == 0 || math.Abs(r-1) <= MaxWallDrift {
		return "", false
	}
	run := h.End()
	return fmt.Sprintf("the host's wall clock, on which Redis counts every TTL, ran at %.2f× the run's own clock (%v of wall clock over %v of the run: stepped or slewed), so the nodes' keys did not live as planned; a machine whose clock is being set spoils any run",
		r, time.Duration(float64(run)*r).Round(time.Millisecond), time.Duration(run).Round(time.Millisecond)), true
}

// timingLost reports whether h's harness timers fired so late that its
// timing races cannot be trusted, and says why.
func timingLost(h history.History) (string, bool) {
	lag := time.Duration(h.Header.MaxTimerLagNS)
	if lag < MaxTimerLag {
		return "", false
	}
	// The shortest TTL granted (wall ns): its races are the tightest in the run.
	ttl := shortestTTL(h)
	if ttl > 0 && int64(lag) < ttl/10 {
		return "", false
	}
	scenarioLag := h.Header.ScenarioTime(int64(lag))
	why := fmt.Sprintf("the machine was too busy to keep compressed time: %s %v late (wall), %v of scenario time", lateWhat(h, lag), lag.Round(time.Millisecond), scenarioLag.Round(time.Millisecond))
	if ttl > 0 {
		why += fmt.Sprintf(", over a tenth of the %v TTL", h.Header.ScenarioTime(ttl))
	}
	return why + "; run fewer at once (--parallel) or at a lower --time-scale", true
}

// neverSent reports whether the client operation at history index i has an
// unknown outcome and the nodes' own record shows that none of its
// commands reached them (Account.Reached): it was cut before it left, so
// no fault window over it tested the lock.
func neverSent(a *account.Account, i int) bool {
	if !open(a.H.Ops[i]) {
		return false
	}
	ran, known := a.Reached(i)
	return known && !ran
}

// raceBound is how late the harness may be, wall ns, before the fault
// plan's own races are lost: MaxTimerLag, or a tenth of the shortest
// planned fault window when longer, and never more than timingBound. A
// replication cut of 400 ms must still stand when the failover it
// precedes begins: failover-wait-two-replicas came out valid beside two
// CPU hogs with a 516 ms timer lag and a 357 ms stalled SET, under
// timingBound's tenth of its 6 s TTL (stored history
// unknown-failover-two-replicas-late-acquire-s32).
func raceBound(h history.History) int64 {
	return LatenessBound(h).NS
}

// LagBound is the harness lateness at and above which a run's valid
// verdict proves nothing (timingLost and raceLost together), and what
// set it: MaxTimerLag when neither TTL nor Step is set.
type LagBound struct {
	// NS is the bound, wall ns.
	NS int64
	// TTL is the run's shortest TTL granted (wall ns) when a tenth of it
	// set NS, 0 otherwise.
	TTL int64
	// Step is the ID of the plan step whose window's tenth set NS (its
	// Duration, wall ns, in Window), 0 otherwise.
	Step   int
	Window int64
}

// LatenessBound is h's LagBound: MaxTimerLag, or a tenth of the shortest
// TTL granted when longer (timingBound), or a tenth of the shortest
// planned fault window when that is shorter still but over MaxTimerLag.
// A lateness of NS or more makes the run unknown; the report's machine
// load row states this bound, so the two cannot differ.
func LatenessBound(h history.History) LagBound {
	b := LagBound{NS: int64(MaxTimerLag)}
	if ttl := shortestTTL(h); ttl/10 > b.NS {
		b = LagBound{NS: ttl / 10, TTL: ttl}
	}
	for _, st := range h.Header.Plan {
		if st.Duration <= 0 || st.UntilEnd || st.Duration/10 >= b.NS {
			continue
		}
		b = LagBound{NS: int64(MaxTimerLag)}
		if st.Duration/10 > b.NS {
			b = LagBound{NS: st.Duration / 10, Step: st.ID, Window: st.Duration}
		}
	}
	return b
}

// raceLost reports a run whose harness ran late past raceBound — a timer
// lag, or a client command stalled with no fault to explain it — though
// within timingBound: the faults may not have met the operations they
// were planned around, so a valid verdict proves nothing (Result.RaceLost).
// Unlike TimingLost it leaves the run's findings as they are: a violation
// or a liveness finding still happened.
func raceLost(a *account.Account) (string, int, bool) {
	h := a.H
	bound := raceBound(h)
	if bound >= timingBound(h) {
		return "", -1, false
	}
	lag := time.Duration(h.Header.MaxTimerLagNS)
	if int64(lag) >= bound {
		return fmt.Sprintf("the machine was too busy to keep compressed time: %s %v late (wall), over a tenth of the shortest fault window of the plan; run fewer at once (--parallel) or at a lower --time-scale", lateWhat(h, lag), lag.Round(time.Millisecond)), -1, true
	}
	if ops := unexplainedStallsOver(a, bound); len(ops) > 0 {
		return stallSentence(h, ops[0], "a tenth of the shortest fault window of the plan"), ops[0].Index, true
	}
	return "", -1, false
}
