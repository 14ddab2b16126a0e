package checker

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// LeaseInput is the porcupine input of one client op on a key.
type LeaseInput struct {
	F      history.Func
	Client string
	Key    string
	Action string
	Fence  int64
	// Num is the number a write wrote (HasNum false when none).
	Num    int64
	HasNum bool
	// Free drops the holder rules (see Porcupine): the key has no lock ops
	// (a lock-free algorithm), or the workload's lock is advisory for the
	// resource (cache-rebuild, semaphore).
	Free bool
	// Unguarded drops only the holder rule of accepted writes: payments
	// deduplicated by an idempotency key, whose key, not the lock, keeps
	// the charge single. Acquire, extend, release and fence refusals keep
	// their rules: the key does not make the lock correct.
	Unguarded bool
	// Index is the op's history index.
	Index int
}

// LeaseOutput is the porcupine output of one client op.
type LeaseOutput struct {
	// Type is ok, fail or info (info: outcome unknown, open return).
	Type    history.Type
	Removed bool
	Result  string
	// FenceRefusal marks a refused write the resource refused for its
	// fencing token (see the model rules on Porcupine).
	FenceRefusal bool
	// OutOfStock marks a sell the resource refused as out of stock.
	OutOfStock bool
	// Duplicate marks a charge refused because its idempotency key was
	// already used: legal only once a charge went through.
	Duplicate bool
	// Num is the number a read returned (HasNum false when none).
	Num    int64
	HasNum bool
}

// LeaseState is the per-key state of the lease model.
type LeaseState struct {
	Holder  string // client holding the lease, "" for none
	Charged int    // accepted charges
	Paid    bool
	// Value is the counter register (counter workload), known from its
	// first read or write (ValueKnown): a run may start from any value.
	Value      int64
	ValueKnown bool
	// Stock is the item's stock (inventory), known from
	// Header.Params["stock"] or else from the first read or sale.
	Stock      int64
	StockKnown bool
}

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
}

// Visualize writes porcupine's HTML visualisation of the check.
func (l *Linearization) Visualize(w io.Writer) error {
	return porcupine.Visualize(l.Model, l.Info, w)
}

// porcupineCheck is porcupine.CheckOperationsVerbose; tests replace it.
var porcupineCheck = porcupine.CheckOperationsVerbose

// Porcupine returns the lease model and the porcupine history of h
// (lock-theory §8.2, extended with the payment rules). Only client lock and
// resource ops on a key go in (acquire, release, extend, read, write); faults,
// lost markers and probes do not. ClientId is a dense index of the op's
// Process (so ops after an info outcome get a new lane); Metadata is the
// history index. Ops with an unknown outcome (info, or never completed) get
// an open return: one ns after the last instant of the history, so they may
// linearize at any point after their invoke, including after everything
// else (= never took effect).
//
// Model, per key (Partition splits by key), state {holder, charged, paid}:
//
//   - acquire ok → holder = client, always legal (a lease: the previous
//     holder's lease implicitly expired); fail → no change; info → holder =
//     client (placing it last covers "not granted").
//   - extend ok → legal iff holder == client; fail, info → no change.
//   - write accepted → legal iff holder == client (Kleppmann 2016: only the
//     current lease holder may act); charge additionally needs charged == 0
//     and sets charged = 1; mark-paid sets paid; claim and other actions
//     change nothing.
//   - write refused for its fencing token (Value.Refusal stale-fence) →
//     legal iff holder != client (a correct fence refuses
//     only a superseded holder); a charge refused as a duplicate of its
//     idempotency key → legal iff charged ≥ 1; refused for any other
//     reason → legal, no change (a declined charge says nothing about the
//     lock).
//   - write info → if it could have been accepted now, it is applied as
//     accepted, otherwise no change; always legal.
//   - read "read-status" ok → "paid" legal iff paid, "unpaid" iff !paid;
//     other reads and outcomes are legal.
//   - counter (a register): "read-counter" ok with Num → legal iff Num ==
//     value (the value is taken from the first read or write: a run may
//     start anywhere); accepted "set-counter" (holder rule
//     as above) sets value = Num. A lost update shows as a read of a value
//     another write already replaced, or a write by a superseded holder.
//   - inventory: stock starts at Header.Params["stock"] (else it is taken
//     from the first read or sale); "read-stock" ok → legal iff Num ==
//     stock; accepted "sell" (holder rule) → legal iff stock > 0 and its Num
//     (the stock written back), when given, is stock − 1, then stock − 1;
//     a sell refused "out of stock" → legal iff stock ≤ 0.
//   - cron, leader: the holder rule on "run-job" and "lead" writes is all
//     the model says; duplicate-run and split-brain are judged by the
//     effects checker. Semaphore and cache-rebuild: Free (a semaphore has
//     several holders, a cache-rebuild lock is an efficiency lock); their
//     anomalies are the effects checker's over-admission and
//     duplicate-work.
//   - Free inputs (a key with no lock ops at all — a lock-free algorithm
//     such as atomic-lua or idempotency-key — or a semaphore or
//     cache-rebuild workload) skip the holder rules: writes need no holder,
//     releases and extends are always legal; the workload rules above
//     still apply.
//   - release ok with Removed → legal iff holder == client, holder = none
//     (else a foreign unlock); ok without Removed, fail → legal, no change;
//     info → holder = none if holder == client.
func Porcupine(h history.History) (porcupine.Model, []porcupine.Operation) {
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
	advisory := efficiencyLock(h) || h.Header.Workload == workload.Semaphore
	unguarded := idempotentPayments(h)
	ops := make([]porcupine.Operation, 0, len(h.Ops))
	for _, op := range h.Ops {
		if !isClientOp(op) {
			continue
		}
		in := LeaseInput{F: op.F, Client: op.Client, Key: op.Key, Action: op.Value.Action, Fence: op.Value.Fence, Index: op.Index,
			Free: advisory || !locked[op.Key], Unguarded: unguarded}
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
			out.OutOfStock = op.Value.Refusal == history.RefusalOutOfStock
			out.Duplicate = op.Value.Action == workload.ActionCharge && duplicateRefusal(op)
		}
		ops = append(ops, porcupine.Operation{ClientId: procs[op.Process], Input: in, Call: op.Invoke, Output: out, Return: r, Metadata: op.Index})
	}
	return leaseModel(h.Header.Params), ops
}

func leaseModel(params map[string]int64) porcupine.Model {
	stock, haveStock := params[history.ParamStock]
	return porcupine.Model{
		Partition: partitionByKey,
		Init:      func() interface{} { return LeaseState{Stock: stock, StockKnown: haveStock} },
		Step: func(state, input, output interface{}) (bool, interface{}) {
			return leaseStep(state.(LeaseState), input.(LeaseInput), output.(LeaseOutput))
		},
		Hash: func(state interface{}) uint64 {
			s := state.(LeaseState)
			f := fnv.New64a()
			_, _ = io.WriteString(f, s.Holder)
			v := uint64(s.Charged) << 1
			if s.Paid {
				v |= 1
			}
			if s.StockKnown {
				v |= 1 << 40
			}
			if s.ValueKnown {
				v |= 1 << 41
			}
			return f.Sum64() ^ (v * 0x9e3779b97f4a7c15) ^ uint64(s.Value)*0xbf58476d1ce4e5b9 ^ uint64(s.Stock)*0x94d049bb133111eb
		},
		DescribeOperation: func(input, output interface{}) string {
			return describeLeaseOp(input.(LeaseInput), output.(LeaseOutput))
		},
		DescribeState: func(state interface{}) string {
			s := state.(LeaseState)
			holder := s.Holder
			if holder == "" {
				holder = "none"
			}
			paid := workload.ResultUnpaid
			if s.Paid {
				paid = workload.ResultPaid
			}
			d := fmt.Sprintf("holder %s, charged %d, %s", holder, s.Charged, paid)
			if s.ValueKnown {
				d += fmt.Sprintf(", counter %d", s.Value)
			}
			if s.StockKnown {
				d += fmt.Sprintf(", stock %d", s.Stock)
			}
			return d
		},
		DescribeOperationMetadata: func(info interface{}) string {
			if i, ok := info.(int); ok {
				return fmt.Sprintf("history op %d", i)
			}
			return ""
		},
	}
}

// partitionByKey splits by LeaseInput.Key, keys in order of first appearance.
func partitionByKey(ops []porcupine.Operation) [][]porcupine.Operation {
	pos := map[string]int{}
	var parts [][]porcupine.Operation
	for _, op := range ops {
		k := op.Input.(LeaseInput).Key
		i, ok := pos[k]
		if !ok {
			i = len(parts)
			pos[k] = i
			parts = append(parts, nil)
		}
		parts[i] = append(parts[i], op)
	}
	return parts
}

func leaseStep(s LeaseState, in LeaseInput, out LeaseOutput) (bool, interface{}) {
	mine := s.Holder == in.Client || (in.Free && in.F != history.Write)
	switch in.F {
	case history.Acquire:
		if out.Type == history.OK || out.Type == history.Info {
			s.Holder = in.Client
		}
		return true, s
	case history.Extend:
		if out.Type == history.OK {
			return mine, s
		}
		return true, s
	case history.Release:
		switch {
		case out.Type == history.OK && out.Removed:
			if !mine {
				return false, s
			}
			s.Holder = ""
		case out.Type == history.Info && mine:
			s.Holder = ""
		}
		return true, s
	case history.Read:
		if out.Type == history.OK && out.HasNum {
			switch in.Action {
			case workload.ActionReadCounter:
				if !s.ValueKnown {
					s.Value, s.ValueKnown = out.Num, true
					return true, s
				}
				return out.Num == s.Value, s
			case workload.ActionReadStock:
				if !s.StockKnown {
					s.Stock, s.StockKnown = out.Num, true
					return true, s
				}
				return out.Num == s.Stock, s
			}
		}
		if out.Type == history.OK && in.Action == workload.ActionReadStatus {
			switch out.Result {
			case workload.ResultPaid:
				return s.Paid, s
			case workload.ResultUnpaid:
				return !s.Paid, s
			}
		}
		return true, s
	case history.Write:
		switch out.Type {
		case history.OK:
			ok, next := applyWrite(s, in)
			return ok, next
		case history.Fail:
			if out.FenceRefusal {
				return in.Free || s.Holder != in.Client, s
			}
			if out.OutOfStock && in.Action == workload.ActionSell && s.StockKnown {
				return s.Stock <= 0, s
			}
			if out.Duplicate {
				return s.Charged > 0, s
			}
			return true, s
		default: // info: applied if it could have been accepted now
			if ok, next := applyWrite(s, in); ok {
				return true, next
			}
			return true, s
		}
	}
	return true, s
}

// applyWrite applies an accepted write; ok is false when the model forbids it.
func applyWrite(s LeaseState, in LeaseInput) (bool, LeaseState) {
	if !in.Free && !in.Unguarded && s.Holder != in.Client {
		return false, s
	}
	switch in.Action {
	case workload.ActionSetCounter:
		if in.HasNum {
			s.Value, s.ValueKnown = in.Num, true
		}
	case workload.ActionSell:
		switch {
		case s.StockKnown && (s.Stock <= 0 || (in.HasNum && in.Num != s.Stock-1)):
			return false, s
		case s.StockKnown:
			s.Stock--
		case in.HasNum:
			s.Stock, s.StockKnown = in.Num, true
		}
	case workload.ActionCharge:
		if s.Charged != 0 {
			return false, s
		}
		s.Charged++
	case workload.ActionMarkPaid, workload.ActionComplete:
		s.Paid = true
	}
	return true, s
}

func describeLeaseOp(in LeaseInput, out LeaseOutput) string {
	what := string(in.F)
	if in.Action != "" {
		what = in.Action
	}
	if in.Fence > 0 {
		what += fmt.Sprintf("(fence %d)", in.Fence)
	}
	if in.HasNum {
		what += fmt.Sprintf(" %d", in.Num)
	}
	var res string
	switch out.Type {
	case history.Info:
		res = "?"
	case history.Fail:
		res = "fail"
		if in.F == history.Write {
			res = "refused"
		}
	default:
		res = "ok"
		switch {
		case in.F == history.Write:
			res = "accepted"
		case in.F == history.Read && out.Result != "":
			res = out.Result
		case in.F == history.Read && out.HasNum:
			res = fmt.Sprint(out.Num)
		case in.F == history.Release && out.Removed:
			res = "removed"
		case in.F == history.Release:
			res = "not removed"
		}
	}
	return fmt.Sprintf("%s %s → %s", in.Client, what, res)
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
		if st.Trigger.Kind == history.TriggerPoint {
			details += " at " + st.Trigger.Point
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
	model, ops := Porcupine(h)
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
	switch a.res {
	case porcupine.Ok:
		return Result{Checker: CheckerLinearizable, Verdict: Valid,
			Summary: fmt.Sprintf("%s on %s linearizable under the lease model", plural(len(ops), "operation", "operations"), plural(len(parts), "key", "keys"))}, lin
	case porcupine.Unknown:
		return Result{Checker: CheckerLinearizable, Verdict: Unknown,
			Summary: fmt.Sprintf("porcupine timed out after %s on %s", timeout, plural(len(ops), "operation", "operations"))}, lin
	}
	anomalies := illegalAnomalies(h, model, parts, a.info)
	if len(anomalies) == 0 { // should not happen; never report Valid for Illegal
		anomalies = append(anomalies, newAnomaly(h, KindNotLinearizable, "", nil, 0, h.End(),
			"porcupine found no order of the operations in which one lease at a time explains them"))
	}
	return Result{Checker: CheckerLinearizable, Verdict: Invalid,
		Summary:   fmt.Sprintf("%s not linearizable under the lease model", plural(len(anomalies), "key", "keys")),
		Anomalies: anomalies}, lin
}

func illegalAnomalies(h history.History, model porcupine.Model, parts [][]porcupine.Operation, info porcupine.LinearizationInfo) []Anomaly {
	partials := info.PartialLinearizations()
	var out []Anomaly
	for p, part := range parts {
		if p >= len(partials) {
			break
		}
		placed := make([]bool, len(part))
		var longest []int
		for _, seq := range partials[p] {
			for _, id := range seq {
				placed[id] = true
			}
			if len(seq) > len(longest) {
				longest = seq
			}
		}
		if len(longest) == len(part) {
			continue // complete linearization: this key is fine
		}
		inLongest := make([]bool, len(part))
		for _, id := range longest {
			inLongest[id] = true
		}
		// Name an op no partial linearization placed; when every op was
		// placed in some partial order (ops at one instant, all concurrent),
		// name one the longest order could not place.
		skip := placed
		if !slices.Contains(placed, false) {
			skip = inLongest
		}
		first := -1
		var unplaced []int
		for i, op := range part {
			if skip[i] {
				continue
			}
			unplaced = append(unplaced, op.Metadata.(int))
			if first < 0 || op.Call < part[first].Call {
				first = i
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
		explain := fmt.Sprintf("porcupine found no order of %s's operations in which one lease at a time explains them: the first it could not place is %s's %s (%s at %s), while the longest valid order had %s holding the lease",
			in.Key, fop.Client, actionName(fop), outcomeWord(fop), at(h, end), holder)
		out = append(out, newAnomaly(h, KindNotLinearizable, in.Key, clients, fop.Invoke, end, explain, ops...))
	}
	return out
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
