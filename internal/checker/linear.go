package checker

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// LeaseInput, LeaseOutput and LeaseState are the lease model's input,
// output and per-key state (package workload's, whose LeaseModel holds
// the shared lease-holder rules and each workload its resource's).
type (
	LeaseInput  = workload.Input
	LeaseOutput = workload.Output
	LeaseState  = workload.State
)

// Linearization is what the linearizable checker gave porcupine and got
// back; the report passes Model and Info to porcupine.Visualize.
type Linearization struct {
	Model porcupine.Model
	// Ops are the porcupine operations; Call and Return are true ns (an
	// op with unknown outcome returns one ns after the history's end).
	Ops []porcupine.Operation
	// Result is porcupine's verdict, "" when porcupine did not run.
	Result porcupine.CheckResult
	// Info has the partial linearizations plus one annotation per fault
	// (FaultAnnotations); zero when porcupine did not finish.
	Info porcupine.LinearizationInfo
	// Order is, per history index, the operation's position (from 1) in
	// the longest order of its key that the checker names its failure by
	// (longestOf); absent when it is in none. history.html draws it, so
	// that both pages tell of one order.
	Order map[int]int
}

// Visualize writes porcupine's HTML visualisation of the check.
func (l *Linearization) Visualize(w io.Writer) error {
	return porcupine.Visualize(l.Model, l.Info, w)
}

// porcupineCheck is porcupine.CheckOperationsVerbose; tests replace it.
var porcupineCheck = porcupine.CheckOperationsVerbose

// Porcupine returns the lease model of h's workload
// (workload.LeaseModel: lock-theory §8.2, with the workload's own resource
// rules) and the porcupine history of h. Only client lock and resource ops
// on a key go in (acquire, release, extend, read, write); faults, lost
// markers and probes do not. ClientId is a dense index of the op's Process
// (so ops after an info outcome get a new lane); Metadata is the history
// index. Ops with an unknown outcome (info, or never completed) get an
// open return: one ns after the last instant of the history, so they may
// linearize at any point after their invoke, including after everything
// else (= never took effect). A key with no lock ops (a lock-free
// algorithm) and every key of a workload whose lock is advisory
// (workload.Kind.Advisory) are Free of the holder rules; the writes of a
// run whose resource deduplicates by an idempotency key are Unguarded,
// but for the workload's Unkeyed actions, which the key does not make
// safe to repeat (payment's failure record: reader 18,
// stalled-job-failed-reason, a stale failedReason write over a finished
// run's record was taken for linearizable). A
// multi-node lock's acquires and releases carry their nodes
// (LeaseInput.Nodes: the release's own Value.Nodes here; the checker's
// run gives the nodes' record where observed, see porcupineOf). In the
// checker's run (with the account), a lock operation of unknown outcome
// that the nodes' record shows never reached them goes in not at all: it
// took no effect.
func Porcupine(h history.History) (porcupine.Model, []porcupine.Operation) {
	return porcupineOf(h, nodeRecord{})
}

// nodeRecord is what the nodes' record tells the lease model, where they
// were observed: removed gives the nodes a release removed a key from (ok
// false where it cannot tell; nil: every release's own Value.Nodes), and
// unsent the lock operations of unknown outcome that never reached a node
// (they took no effect, and must not be placed as if they might have).
type nodeRecord struct {
	removed func(i int) ([]string, bool)
	unsent  func(i int) bool
}

// porcupineOf is Porcupine with what the nodes' record says (nodeRecord).
func porcupineOf(h history.History, rec nodeRecord) (porcupine.Model, []porcupine.Operation) {
	ret := h.End() + 1
	procs := map[int]int{}
	var plist []int
	for _, op := range h.Ops {
		if isClientOp(op) {
			if _, ok := procs[op.Process]; !ok {
				procs[op.Process] = 0
				plist = append(plist, op.Process)
			}
		}
	}
	sort.Ints(plist)
	for i, p := range plist {
		procs[p] = i
	}
	locked := map[string]bool{} // keys with lock ops
	for _, op := range h.Ops {
		if isClientOp(op) && (op.F == history.Acquire || op.F == history.Release || op.F == history.Extend) {
			locked[op.Key] = true
		}
	}
	kind := workload.Of(h.Header)
	advisory := kind.Advisory()
	dedup := kind.Dedup(h.Header.Params)
	multi := slices.Contains(h.Header.Traits, history.TraitMultiNode)
	ops := make([]porcupine.Operation, 0, len(h.Ops))
	for i, op := range h.Ops {
		if !isClientOp(op) || (rec.unsent != nil && rec.unsent(i)) {
			continue
		}
		in := LeaseInput{F: op.F, Client: op.Client, Key: op.Key, Action: op.Value.Action, Fence: op.Value.Fence, Index: op.Index,
			Free: advisory || !locked[op.Key], Unguarded: dedup != "" && !slices.Contains(kind.Unkeyed, op.Value.Action), MultiNode: multi, Fenced: h.Header.FencingEnforced,
			CheckAndSet: h.Header.CheckAndSet}
		if multi && (op.F == history.Acquire || op.F == history.Release) {
			nodes := op.Value.Nodes
			if rec.removed != nil && op.F == history.Release {
				if ns, ok := rec.removed(i); ok {
					nodes = ns
				}
			}
			in.Nodes = strings.Join(slices.Sorted(slices.Values(nodes)), ",")
		}
		out := LeaseOutput{Type: op.Type, Removed: op.Value.Removed, Result: op.Value.Result}
		if n := op.Value.Num; n != nil {
			if op.F == history.Write {
				in.Num, in.HasNum = *n, true
			} else {
				out.Num, out.HasNum = *n, true
			}
		}
		r := op.Complete
		if open(op) {
			out = LeaseOutput{Type: history.Info}
			r = ret
		} else if op.F == history.Write && op.Type == history.Fail {
			out.FenceRefusal = fenceRefusal(op)
			out.Refusal = op.Value.Refusal
		}
		ops = append(ops, porcupine.Operation{ClientId: procs[op.Process], Input: in, Call: op.Invoke, Output: out, Return: r, Metadata: op.Index})
	}
	return workload.LeaseModel(kind, h.Header.Params), ops
}

// FaultAnnotations returns one porcupine annotation per fault op of h (tag
// "nemesis", its active window in true ns; an unhealed fault ends at the
// end of the history), for the visualisation.
func FaultAnnotations(h history.History) []porcupine.Annotation {
	eoh := h.End()
	var out []porcupine.Annotation
	for _, f := range appliedFaults(h) {
		end := f.Complete
		if end < 0 {
			end = eoh
		}
		st := f.Value.Fault
		var on []string
		on = append(on, st.Clients...)
		for _, l := range st.Links {
			on = append(on, l.Client+"→"+l.Node)
		}
		on = append(on, st.Nodes...)
		desc := st.Kind
		if len(on) > 0 {
			desc += " " + strings.Join(on, ",")
		}
		details := fmt.Sprintf("%s from %s to %s", desc, at(h, f.Invoke), at(h, end))
		switch st.Trigger.Kind {
		case history.TriggerPoint:
			details += " at " + st.Trigger.Point
		case history.TriggerManual:
			details += " (fired by hand)"
		}
		out = append(out, porcupine.Annotation{Tag: "nemesis", Start: f.Invoke, End: end,
			Description: desc, Details: details, BackgroundColor: "#f4cccc"})
	}
	return out
}

// Linearizable is the linearizable checker (design §8, lock-theory §8.2):
// porcupine on the lock + resource history with the lease model documented
// on Porcupine, partitioned by key. porcupine checks the partitions in
// parallel (one goroutine each). The budget is o.Timeout (0 = 10 s),
// shortened to ctx's deadline; a search that runs out gives Unknown ("porcupine
// timed out after …"), a cancelled ctx gives Unknown at once (the search
// goroutine stops at its own timeout). Illegal gives one not-linearizable
// anomaly per key porcupine could not linearize, naming the earliest-invoked
// op that appears in none of its partial linearizations.
func Linearizable(ctx context.Context, h history.History, o Options) (Result, Linearization) {
	return linearizable(ctx, h, o, nodeRecord{})
}

// linearizable is Linearizable with what the nodes' record says (see
// nodeRecord).
func linearizable(ctx context.Context, h history.History, o Options, rec nodeRecord) (Result, Linearization) {
	model, ops := porcupineOf(h, rec)
	lin := Linearization{Model: model, Ops: ops}
	if len(ops) == 0 {
		return Result{Checker: CheckerLinearizable, Verdict: Valid, Summary: "no lock or resource operations"}, lin
	}
	timeout := o.timeout()
	if dl, ok := ctx.Deadline(); ok {
		if rem := time.Until(dl); rem < timeout {
			timeout = rem
		}
	}
	if timeout <= 0 {
		return Result{Checker: CheckerLinearizable, Verdict: Unknown, Summary: "not checked: no time left before the deadline"}, lin
	}
	type answer struct {
		res  porcupine.CheckResult
		info porcupine.LinearizationInfo
	}
	done := make(chan answer, 1)
	panicked := make(chan string, 1)
	go func() {
		defer func() {
			// A panic here would kill the process (safeRun's recover
			// cannot see this goroutine); make it Unknown instead.
			if p := recover(); p != nil {
				panicked <- fmt.Sprint(p)
			}
		}()
		r, info := porcupineCheck(model, ops, timeout)
		done <- answer{r, info}
	}()
	var a answer
	select {
	case a = <-done:
	case p := <-panicked:
		return Result{Checker: CheckerLinearizable, Verdict: Unknown, Summary: "checker panicked: " + p}, lin
	case <-ctx.Done():
		return Result{Checker: CheckerLinearizable, Verdict: Unknown, Summary: "not checked: " + ctx.Err().Error()}, lin
	}
	lin.Result, lin.Info = a.res, a.info
	lin.Info.AddAnnotations(FaultAnnotations(h))
	parts := model.Partition(ops)
	longest := longestOrders(parts, lin.Info)
	lin.Order = orderOf(parts, longest)
	switch a.res {
	case porcupine.Ok:
		return Result{Checker: CheckerLinearizable, Verdict: Valid,
			Summary: fmt.Sprintf("%s on %s linearizable under the lease model", plural(len(ops), "operation", "operations"), partsWords(parts, nil))}, lin
	case porcupine.Unknown:
		return Result{Checker: CheckerLinearizable, Verdict: Unknown,
			Summary: fmt.Sprintf("porcupine timed out after %s on %s", timeout, plural(len(ops), "operation", "operations"))}, lin
	}
	anomalies := illegalAnomalies(h, model, parts, longest)
	if len(anomalies) == 0 { // should not happen; never report Valid for Illegal
		anomalies = append(anomalies, newAnomaly(h, KindNotLinearizable, "", nil, 0, h.End(),
			"porcupine found no order of the operations in which one lease at a time explains them"))
	}
	return Result{Checker: CheckerLinearizable, Verdict: Invalid,
		Summary:   fmt.Sprintf("%s not linearizable under the lease model", partsWords(parts, anomalies)),
		Anomalies: anomalies}, lin
}

// partsWords counts porcupine's partitions (one per key; of only those
// anomalies name, when given) as what they are: a key some acquire, release
// or extend touched is a lock key; one only written or read is a resource
// (cron's job@1, job@2 beside its one lock key, reader 11: "18 operations
// on 3 keys" of a run with one lock key). With no resource partition the
// count stays "N keys".
func partsWords(parts [][]porcupine.Operation, only []Anomaly) string {
	locks, resources := 0, 0
	for _, part := range parts {
		if len(part) == 0 {
			continue
		}
		key := part[0].Input.(LeaseInput).Key
		if only != nil && !slices.ContainsFunc(only, func(a Anomaly) bool { return a.Key == key }) {
			continue
		}
		if slices.ContainsFunc(part, func(o porcupine.Operation) bool {
			f := o.Input.(LeaseInput).F
			return f == history.Acquire || f == history.Release || f == history.Extend
		}) {
			locks++
		} else {
			resources++
		}
	}
	switch {
	case only != nil && locks+resources != len(only):
		// An anomaly not matched to a partition (the fallback one):
		// count keys, as before.
		return plural(len(only), "key", "keys")
	case resources == 0:
		return plural(locks, "key", "keys")
	case locks == 0:
		return plural(resources, "resource", "resources")
	}
	return plural(locks, "lock key", "lock keys") + " and " + plural(resources, "resource", "resources")
}

func illegalAnomalies(h history.History, model porcupine.Model, parts [][]porcupine.Operation, orders []partOrder) []Anomaly {
	var out []Anomaly
	for p, part := range parts {
		if p >= len(orders) {
			break
		}
		longest, first := orders[p].longest, orders[p].first
		if len(longest) == len(part) {
			continue // complete linearization: this key is fine
		}
		inLongest := make([]bool, len(part))
		for _, id := range longest {
			inLongest[id] = true
		}
		var unplaced []int
		for i, op := range part {
			if !inLongest[i] {
				unplaced = append(unplaced, op.Metadata.(int))
			}
		}
		if first < 0 {
			continue
		}
		// state after the longest valid prefix: who held the lease there
		var state interface{} = model.Init()
		for _, id := range longest {
			_, state = model.Step(state, part[id].Input, part[id].Output)
		}
		st := state.(LeaseState)
		fop := h.Ops[part[first].Metadata.(int)]
		in := part[first].Input.(LeaseInput)
		clients := []string{fop.Client}
		holder := "no one"
		if st.Holder != "" {
			holder = st.Holder
			clients = append(clients, st.Holder)
		}
		sort.Ints(unplaced)
		if len(unplaced) > 20 {
			unplaced = unplaced[:20]
		}
		ops := append([]int{fop.Index}, removeInt(unplaced, fop.Index)...)
		end := fop.Complete
		if end < fop.Invoke {
			end = fop.Invoke
		}
		explain := fmt.Sprintf("porcupine found no order of %s's operations in which one lease at a time explains them: the first it could not place is %s's %s (%s; it returned at %s), while the longest valid order had %s holding the lease",
			in.Key, fop.Client, actionName(fop), outcomeWord(fop), at(h, end), holder)
		out = append(out, newAnomaly(h, KindNotLinearizable, in.Key, clients, fop.Invoke, end, explain, ops...))
	}
	return out
}

// longestOf picks, of porcupine's partial linearizations seqs of one
// partition part (indices into part), the order a failure is named by:
// the longest; of several (porcupine returns them in no fixed order), the
// one whose first unplaced op (frontier) comes first, then the lowest
// index. first is that op, -1 when the order places every op. As Knossos
// reports the op after its longest prefix: an op no partial order placed
// may only be one the search never got to (a second cron fire's acquires,
// where the first fire already had no order; lock-key-per-host seed 33
// named the second).
func longestOf(part []porcupine.Operation, seqs [][]int) (longest []int, first int) {
	first = -1
	for _, seq := range seqs {
		if len(seq) < len(longest) {
			continue
		}
		f := frontier(part, seq)
		if len(seq) > len(longest) || f >= 0 && (first < 0 || part[f].Call < part[first].Call || part[f].Call == part[first].Call && f < first) {
			longest, first = seq, f
		}
	}
	if first < 0 && len(longest) < len(part) { // no partial order at all
		first = frontier(part, longest)
	}
	return longest, first
}

// partOrder is a partition's longestOf: its longest order and the first
// op that order could not place (-1: none).
type partOrder struct {
	longest []int
	first   int
}

// longestOrders is each partition's longestOf, in partition order, as
// far as info has partial linearizations.
func longestOrders(parts [][]porcupine.Operation, info porcupine.LinearizationInfo) []partOrder {
	partials := info.PartialLinearizations()
	var out []partOrder
	for p, part := range parts {
		if p >= len(partials) {
			break
		}
		longest, first := longestOf(part, partials[p])
		out = append(out, partOrder{longest, first})
	}
	return out
}

// orderOf is Linearization.Order: each partition's longest order, by
// history index (Metadata).
func orderOf(parts [][]porcupine.Operation, orders []partOrder) map[int]int {
	out := map[int]int{}
	for p, o := range orders {
		for i, id := range o.longest {
			out[parts[p][id].Metadata.(int)] = i + 1
		}
	}
	return out
}

// frontier is the op of part that order seq leaves out with the earliest
// call (the lowest index of equal calls), -1 when seq places every op.
func frontier(part []porcupine.Operation, seq []int) int {
	in := make([]bool, len(part))
	for _, id := range seq {
		in[id] = true
	}
	f := -1
	for i, op := range part {
		if !in[i] && (f < 0 || op.Call < part[f].Call) {
			f = i
		}
	}
	return f
}

func outcomeWord(op history.Op) string {
	switch {
	case open(op):
		return "outcome unknown"
	case op.F == history.Write && op.Type == history.OK:
		return "accepted"
	case op.F == history.Write:
		return "refused"
	case op.F == history.Read && op.Value.Result != "":
		return "returned " + op.Value.Result
	case op.F == history.Release && op.Value.Removed:
		return "removed the key"
	}
	return string(op.Type)
}

func removeInt(s []int, x int) []int {
	out := make([]int, 0, len(s))
	for _, v := range s {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}

// nodeRecordOf is what a's nodes' record tells the lease model: for a
// release (history index), the nodes its client removed a key from
// (Account.RemovedBy), where every node it could have touched was observed
// throughout it; the acquires, releases and extends of unknown outcome
// that never reached a node (neverReached).
func nodeRecordOf(a *account.Account) nodeRecord {
	return nodeRecord{removed: removedNodes(a), unsent: func(i int) bool {
		switch a.H.Ops[i].F {
		case history.Acquire, history.Release, history.Extend:
			return neverReached(a, i)
		}
		return false
	}}
}

// removedNodes gives, for a release (history index), the nodes its client
// removed a key from per the nodes' record (Account.RemovedBy), where every
// node it could have touched was observed throughout it.
func removedNodes(a *account.Account) func(i int) ([]string, bool) {
	return func(i int) ([]string, bool) {
		op := a.H.Ops[i]
		nodes := op.Value.Nodes
		if len(nodes) == 0 {
			nodes = a.H.Header.Nodes
		}
		end := op.Complete
		if op.Open() {
			end = a.End()
		}
		if len(nodes) == 0 || slices.ContainsFunc(nodes, func(n string) bool { return !watched(a, n, op.Invoke-grantSlack, end+grantSlack) }) {
			return nil, false
		}
		var out []string
		for _, k := range a.RemovedBy(i) {
			if !slices.Contains(out, k.Node) {
				out = append(out, k.Node)
			}
		}
		return out, true
	}
}
