package verify

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// absent checks an Absent claim from its definition: the nemesis's
// operations and the plan for a pause, the nemesis's crashes and the
// nodes' persistence for a crash that lost writes, a replay of the sorted
// set's commands for a purge.
func (v *verifier) absent(c claim.Claim) outcome {
	switch c.What {
	case claim.NoPause:
		for _, st := range v.h.Header.Plan {
			if st.Effect == history.EffectFreezeClient {
				return refuse(nil, "the plan's step %d pauses %v", st.ID, st.Clients)
			}
		}
		for i, op := range v.h.Ops {
			if op.F == history.Fault && op.Value.Fault != nil && op.Value.Fault.Effect == history.EffectFreezeClient {
				return refuse([]int{i}, "a fault paused %v", op.Value.Fault.Clients)
			}
		}
		return held
	case claim.NoCrashLoss:
		p := v.h.Header.Persistence[c.Node]
		if p != c.Persistence {
			return refuse(nil, "%s's persistence is %q, not %q", c.Node, p, c.Persistence)
		}
		for i, op := range v.h.Ops {
			st := op.Value.Fault
			if op.F != history.Fault || st == nil || st.Effect != history.EffectCrashNode || !slices.Contains(st.Nodes, c.Node) {
				continue
			}
			// Only an fsync of every write survives a power loss; a
			// kill keeps what the AOF had written.
			if p == "aof-always" || (p == "aof-everysec" && !st.PowerLoss) {
				continue
			}
			return refuse([]int{i}, "a crash of %s (persistence %q, power loss %v) lost its unsynced writes", c.Node, p, st.PowerLoss)
		}
		// A failover of Node's group is a crash of its master too: what
		// it acknowledged beyond what the promoted replica had received
		// is gone from the group, whatever Node's own persistence; with
		// no replica promoted, all of it is.
		for i, op := range v.h.Ops {
			st := op.Value.Fault
			if op.F != history.Fault || st == nil || st.Effect != history.EffectFailover || op.Type == history.Fail || !slices.Contains(st.Nodes, c.Node) {
				continue
			}
			lost, why := true, "no replica was promoted"
			for _, pr := range st.Promotions {
				if pr.Group != c.Node || pr.Promoted == "" {
					continue
				}
				off, ok := pr.ReplicaOffsets[pr.Promoted]
				if !ok {
					off = pr.PromotedOffset
				}
				lost, why = off < pr.MasterOffset, "the promoted "+pr.Promoted+" had received "+strconv.FormatInt(off, 10)+" of the master's "+strconv.FormatInt(pr.MasterOffset, 10)+" bytes"
			}
			if lost {
				return refuse([]int{i}, "a failover of %s lost its writes: %s", c.Node, why)
			}
		}
		return held
	case claim.NoPurge:
		return v.noPurge(c)
	case claim.NoFenceRefusal:
		if !v.h.Header.LockFences() || !v.h.Header.FencingEnforced {
			return refuse(nil, "the run's lock issues no fencing tokens its resource enforces")
		}
		for i, op := range v.h.Ops {
			if op.F == history.Write && op.Value.Refusal == history.RefusalStaleFence {
				return refuse([]int{i}, "%s's write was refused for a stale fencing token", op.Client)
			}
		}
		return held
	}
	return refuse(nil, "an absence of %q is not a claim", c.What)
}

// noPurge replays Key's sorted set on Node: ZADD adds, ZREM removes the
// named members, DEL empties it; a ZREMRANGEBYSCORE whose range holds a
// member is a purge. Not checkable when the node was not recorded
// throughout, or lost or replaced its data (a crash, a failover, a flush,
// an intersection into the key).
func (v *verifier) noPurge(c claim.Claim) outcome {
	if !v.watched(c.Node, 0, v.m.end) {
		return skip("sorted set on a node not recorded")
	}
	set := map[string]float64{}
	owner := map[string]string{} // member → the client whose ZADD added it
	for i, op := range v.h.Ops {
		if st := op.Value.Fault; op.F == history.Fault && st != nil && st.Effect == history.EffectCrashNode && slices.Contains(st.Nodes, c.Node) {
			return skip("sorted set on a node that crashed")
		}
		if op.F != history.NodeCmd || op.Value.Node != c.Node || len(op.Value.Cmd) < 2 {
			continue
		}
		name := strings.ToLower(op.Value.Cmd[0])
		if name == "flushall" || name == "flushdb" || (name == "zinterstore" && op.Value.Cmd[1] == c.Key) {
			return skip("sorted set replaced as a whole")
		}
		if op.Value.Cmd[1] != c.Key {
			continue
		}
		args := op.Value.Cmd[2:]
		switch name {
		case "zadd":
			for j := 0; j+1 < len(args); j++ {
				if sc, err := strconv.ParseFloat(args[j], 64); err == nil {
					set[args[j+1]] = sc
					owner[args[j+1]] = op.Client
					j++
				}
			}
		case "zrem":
			// Only the owner's own ZREM is a release; another client's
			// removal of a member is a purge of it.
			for _, m := range args {
				if _, ok := set[m]; ok && owner[m] != op.Client {
					return refuse([]int{i}, "%s's ZREM removed the member %s of %s, which %s had added", op.Client, m, c.Key, owner[m])
				}
				delete(set, m)
			}
		case "zremrangebyrank", "zpopmin", "zpopmax":
			// A removal by rank, of whichever members rank there: a
			// purge of any member the set held.
			if len(set) > 0 {
				return refuse([]int{i}, "%s's %s removed members of %s by rank", op.Client, strings.ToUpper(name), c.Key)
			}
		case "del", "unlink":
			for m := range set {
				if owner[m] != op.Client {
					return refuse([]int{i}, "%s's %s of %s removed the member %s, which %s had added", op.Client, strings.ToUpper(name), c.Key, m, owner[m])
				}
			}
			clear(set)
		case "zremrangebyscore":
			if len(args) < 2 {
				continue
			}
			lo, loEx := bound(args[0])
			hi, hiEx := bound(args[1])
			for m, sc := range set {
				if (sc > lo || (!loEx && sc == lo)) && (sc < hi || (!hiEx && sc == hi)) {
					return refuse([]int{i}, "%s's ZREMRANGEBYSCORE removed the member %s (score %v) of %s", op.Client, m, sc, c.Key)
				}
			}
		}
	}
	return held
}

// bound reads a ZRANGEBYSCORE bound: a number, -inf or +inf, "(" for an
// exclusive one.
func bound(s string) (float64, bool) {
	ex := strings.HasPrefix(s, "(")
	s = strings.ToLower(strings.TrimPrefix(s, "("))
	switch s {
	case "-inf":
		return math.Inf(-1), ex
	case "+inf", "inf":
		return math.Inf(1), ex
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN(), ex
	}
	return f, ex
}

// experiment checks what an Experiment claim says of this run: its change
// is one package why makes, of a step of this run's plan. Its verdict is
// another run's (ExperimentVerdict checks it against that run's results).
func (v *verifier) experiment(c claim.Claim) outcome {
	switch c.What {
	case "fixed-by":
		if c.Step != 0 {
			return refuse(nil, "a fixed_by experiment changes no one step (step %d)", c.Step)
		}
	case "fixed-by-own":
		if c.Step != 0 {
			return refuse(nil, "a fixed_by experiment changes no one step (step %d)", c.Step)
		}
		for _, id := range c.Steps {
			if !slices.ContainsFunc(v.h.Header.Plan, func(st history.FaultStep) bool { return st.ID == id }) {
				return refuse(nil, "the run's plan has no step %d for the fix to lack", id)
			}
		}
		for _, ch := range c.Changed {
			i := slices.IndexFunc(v.h.Header.Plan, func(st history.FaultStep) bool { return st.ID == ch.Step })
			if i < 0 {
				return refuse(nil, "the run's plan has no step %d for the fix to change", ch.Step)
			}
			st, to := v.h.Header.Plan[i], ch.To
			if st.Kind != to.Kind || st.Effect != to.Effect || !slices.Equal(st.Clients, to.Clients) || !slices.Equal(st.Nodes, to.Nodes) {
				return refuse(nil, "the fix's %s on %v is not the run's step %d (%s on %v) changed", to.Kind, slices.Concat(to.Clients, to.Nodes),
					st.ID, st.Kind, slices.Concat(st.Clients, st.Nodes))
			}
			st.ID, to.ID = 0, 0
			if reflect.DeepEqual(st, to) {
				return refuse(nil, "the fix's step is the run's step %d unchanged", ch.Step)
			}
		}
	case "without", "half":
		st := slices.IndexFunc(v.h.Header.Plan, func(st history.FaultStep) bool { return st.ID == c.Step })
		if st < 0 {
			return refuse(nil, "the run's plan has no step %d", c.Step)
		}
		if c.What == "half" && !halvable(v.h.Header.Plan[st]) {
			return refuse(nil, "step %d is neither a pause nor a latency with a length to halve", c.Step)
		}
	default:
		return refuse(nil, "no experiment changes a run by %q", c.What)
	}
	return skip(ExperimentUnchecked)
}

// ExperimentUnchecked is the reason an Experiment claim's verdict is not
// checkable from the run's own history.
const ExperimentUnchecked = "experiment: its verdict is another run's"

// samePlan: a and b are the same steps in order, by effect and target.
func samePlan(a, b []history.FaultStep) bool {
	return slices.EqualFunc(a, b, func(x, y history.FaultStep) bool {
		return x.Effect == y.Effect && slices.Equal(x.Clients, y.Clients) && slices.Equal(x.Nodes, y.Nodes)
	})
}

// halvable: a pause (of a client or a node) or a latency, the steps an
// experiment halves.
func halvable(st history.FaultStep) bool {
	switch st.Effect {
	case history.EffectFreezeClient, history.EffectFreezeNode:
		return st.Duration > 0 && !st.UntilEnd
	case history.EffectSlowLinks:
		return st.Latency > 0
	}
	return false
}

// ExperimentVerdict checks an Experiment claim's verdict against the
// verdict its experiment's results.json records: "" when they agree, else
// why not.
func ExperimentVerdict(c claim.Claim, recorded string) string {
	if c.How != recorded {
		return "the experiment's results.json says " + strconv.Quote(recorded) + ", not " + strconv.Quote(c.How)
	}
	return ""
}

// ExperimentKinds checks an Experiment claim's violation kinds against
// the kinds its experiment's results.json records (recorded: the kinds of
// its non-informational anomalies): "" when they are the same kinds, else
// why not. A claim that names no kinds is not checked.
func ExperimentKinds(c claim.Claim, recorded []string) string {
	if c.Kinds == nil {
		return ""
	}
	if !sameKinds(c.Kinds, recorded) {
		return fmt.Sprintf("the experiment's results.json shows the kinds %v, not %v", recorded, c.Kinds)
	}
	return ""
}

// sameKinds reports whether a and b hold the same kinds, in any order and
// number.
func sameKinds(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// ExperimentInfoKinds checks an Experiment claim's informational kinds
// against those its experiment's results.json records (recorded: the
// kinds of its informational anomalies): "" when they are the same kinds,
// else why not. A claim that names none is checked to have none.
func ExperimentInfoKinds(c claim.Claim, recorded []string) string {
	if !sameKinds(c.InfoKinds, recorded) {
		return fmt.Sprintf("the experiment's results.json shows the informational kinds %v, not %v", recorded, c.InfoKinds)
	}
	return ""
}

// ExperimentRun checks that ex, the header of an Experiment claim's run,
// is this run's (run) changed as the claim says: the same seed, and its
// plan this run's without step Step ("without"), with that step at half
// its length ("half"), with the same steps ("fixed-by"), or with the
// fix's own, the run's without Steps ("fixed-by-own"). The steps are
// compared in order by effect and target (an experiment writes the plan
// out as its scenario's faults, so it numbers them afresh). "" when it is,
// else why not: a verdict of another run is no experiment of this one.
func ExperimentRun(c claim.Claim, run, ex history.Header) string {
	if ex.Seed != run.Seed {
		return "the experiment's run has seed " + strconv.FormatInt(ex.Seed, 10) + ", not the run's " + strconv.FormatInt(run.Seed, 10)
	}
	want := slices.Clone(run.Plan)
	at := slices.IndexFunc(want, func(st history.FaultStep) bool { return st.ID == c.Step })
	switch c.What {
	case "without":
		if at < 0 {
			return "the run's plan has no step " + strconv.Itoa(c.Step)
		}
		want = slices.Delete(want, at, at+1)
	case "half":
		if at < 0 {
			return "the run's plan has no step " + strconv.Itoa(c.Step)
		}
	case "fixed-by-own":
		// Its own faults: the run's without Steps and with the Changed
		// steps as the fix has them when the claim names them, else any
		// plan but the run's.
		if len(c.Steps) == 0 && len(c.Changed) == 0 {
			if samePlan(ex.Plan, run.Plan) {
				return "the experiment's plan is the run's: it did not run the fix's own faults"
			}
			return ""
		}
		for i, st := range want {
			for _, ch := range c.Changed {
				if ch.Step == st.ID {
					want[i] = ch.To
				}
			}
		}
		want = slices.DeleteFunc(want, func(st history.FaultStep) bool { return slices.Contains(c.Steps, st.ID) })
	}
	if len(ex.Plan) != len(want) {
		return "the experiment's plan has " + strconv.Itoa(len(ex.Plan)) + " steps, not the " + strconv.Itoa(len(want)) + " of the run's changed as claimed"
	}
	for i, st := range want {
		got := ex.Plan[i]
		if got.Effect != st.Effect || !slices.Equal(got.Clients, st.Clients) || !slices.Equal(got.Nodes, st.Nodes) {
			return "the experiment's step " + strconv.Itoa(got.ID) + " (" + got.Effect + ") is not the run's step " + strconv.Itoa(st.ID) + " (" + st.Effect + ")"
		}
		if c.What == "fixed-by-own" && len(c.Changed) > 0 {
			// A changed step's values as the claim has them (lengths
			// within 1 ms: written in scenario time, read back at the
			// fix's scale).
			d := func(a, b int64) bool { return a-b > 2e6 || b-a > 2e6 }
			if d(got.Duration, st.Duration) || d(got.Delta, st.Delta) || d(got.Latency, st.Latency) || got.Rate != st.Rate {
				return "the experiment's step " + strconv.Itoa(got.ID) + " is not the fix's step as the claim says it changed the run's"
			}
		}
		if c.What == "half" && i == at {
			was, is := st.Duration, got.Duration
			if st.Effect == history.EffectSlowLinks {
				was, is = st.Latency, got.Latency
			}
			// Within 1 ms: the experiment's scenario writes the length in
			// scenario time, read back at its time scale.
			if d := is*2 - was; d > 2e6 || d < -2e6 || is <= 0 {
				return "the experiment's step " + strconv.Itoa(got.ID) + " is not the run's step " + strconv.Itoa(st.ID) + " at half its length"
			}
		}
	}
	return ""
}

// ExperimentEffects checks an Experiment claim's count of accepted
// protected writes (Num, of the actions Actions) against the experiment's
// own history ex: "" when they agree or the claim counts none, else why
// not. A write counts when the resource accepted it: an ok completion of
// a write whose action is one of Actions.
func ExperimentEffects(c claim.Claim, ex history.History) string {
	if c.Num == nil {
		return ""
	}
	n := int64(0)
	for _, op := range ex.Ops {
		if op.F == history.Write && op.Type == history.OK && op.Complete >= 0 && slices.Contains(c.Actions, op.Value.Action) {
			n++
		}
	}
	if n != *c.Num {
		return fmt.Sprintf("the experiment's history has %d accepted writes of %v, not %d", n, c.Actions, *c.Num)
	}
	return ""
}

// ExperimentFired checks an Experiment claim's Fired against its
// experiment's own history ex: each names a step the claim changed, a
// fault of that step's effect on its targets was applied in ex at At (the
// first; a crash of nodes at their death, firedAt), and its client stood then as State says — Acquiring: an acquire
// of the client's was invoked by At and not answered before it; Holding:
// none was, and the client's latest acquire before At was answered ok
// with no release or loss of its invoked between; "": neither. "" when
// each holds, else why not.
func ExperimentFired(c claim.Claim, ex history.History) string {
	for _, f := range c.Fired {
		i := slices.IndexFunc(c.Changed, func(ch claim.StepChange) bool { return ch.Step == f.Step })
		if i < 0 {
			return fmt.Sprintf("the claim says step %d fired in the experiment, but it changed no step %d", f.Step, f.Step)
		}
		to := c.Changed[i].To
		first := slices.IndexFunc(ex.Ops, func(op history.Op) bool {
			st := op.Value.Fault
			return op.F == history.Fault && op.Type != history.Fail && st != nil && st.Effect == to.Effect &&
				slices.Equal(st.Clients, to.Clients) && slices.Equal(st.Nodes, to.Nodes)
		})
		if first < 0 || firedAt(ex.Ops[first]) != f.At {
			return fmt.Sprintf("the experiment's %s on %v was not first applied at %d", to.Kind, slices.Concat(to.Clients, to.Nodes), f.At)
		}
		if d := f.AtS - ex.Header.ScenarioSeconds(f.At); d > 1e-6 || d < -1e-6 {
			return fmt.Sprintf("%d ns in the experiment is t=%gs there, not t=%gs", f.At, ex.Header.ScenarioSeconds(f.At), f.AtS)
		}
		if f.Client == "" {
			continue
		}
		if len(to.Clients) == 0 || to.Clients[0] != f.Client {
			return fmt.Sprintf("the experiment's %s is not on %s", to.Kind, f.Client)
		}
		var acquiring, held bool
		var last int64 = -1
		for _, op := range ex.Ops {
			if op.Client != f.Client || op.Process < 0 || op.Invoke > f.At {
				continue
			}
			if op.F == history.Acquire && (op.Complete < 0 || op.Complete > f.At) {
				acquiring = true
			}
			if op.F == history.Acquire && op.Complete >= 0 && op.Complete <= f.At && op.Invoke >= last {
				last, held = op.Invoke, op.Type == history.OK
			}
		}
		for _, op := range ex.Ops {
			if op.Client == f.Client && (op.F == history.Release || op.F == history.Lost) && op.Invoke > last && op.Invoke <= f.At {
				held = false
			}
		}
		state := ""
		switch {
		case acquiring:
			state = claim.Acquiring
		case held:
			state = claim.Holding
		}
		if state != f.State {
			return fmt.Sprintf("when the experiment's %s fired at %d, %s was %q, not %q", to.Kind, f.At, f.Client, state, f.State)
		}
	}
	return ""
}

// firedAt is when fault operation op acted: its start, or, for a crash of
// nodes that recorded when they were down (dead_from before dead_to), the
// instant they died.
func firedAt(op history.Op) int64 {
	if st := op.Value.Fault; st != nil && st.Effect == history.EffectCrashNode && op.Value.DeadFrom > 0 && op.Value.DeadTo > op.Value.DeadFrom {
		return op.Value.DeadFrom
	}
	return op.Invoke
}
