package history

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// MaxTimeNS bounds every instant and duration a history may hold, wall ns
// (2^53 ns, about 104 days): no run lasts that long, and up to it a time
// survives float64 arithmetic (scenario seconds, the report's JavaScript)
// exactly. A larger one — a complete_ns of MaxInt64 — cannot be a run's.
const MaxTimeNS = int64(1) << 53

// ReservedClients are the names the harness records its own operations
// under: the nemesis (fault operations), the final probe, the harness's
// own commands on a node. No lock client may carry one.
func ReservedClients() []string { return []string{NemesisClient, ProbeClient, AdminClient} }

// clientFuncs are the operations of a lock client (Process ≥ 0, a client
// named in the header). markerFuncs among them are instants a client
// records beside its operations (a watchdog's loss is recorded while the
// job's write is in flight); they are not operations of their process.
var (
	clientFuncs = []Func{Acquire, Release, Extend, Read, Write, Lost, Done, Stopped}
	markerFuncs = []Func{Lost, Done, Stopped}
	nodeFuncs   = []Func{NodeCmd, Unobserved, Stalled, MasterSwitch, NodeHeld, TimerLag}
)

// IsClientFunc reports whether f is an operation (or instant) of a lock
// client: acquire, release, extend, read, write, lost, done, stopped.
func IsClientFunc(f Func) bool { return slices.Contains(clientFuncs, f) }

// Validate checks the invariants every history of a run keeps, and
// returns a *ReadError naming the first violation's line as Encode writes
// the file (the header is line 1, operation i line i+2):
//
//   - every operation's f is known; a client's operations (acquire …
//     stopped) carry a process id ≥ 0 and no reserved name
//     (ReservedClients), fault operations are the nemesis's (process −1)
//     and node events the nodes' (process −2); the header's clients carry
//     no reserved name;
//   - a process has at most one operation outstanding: an operation
//     (not a lost, done or stopped instant) is invoked no earlier than the
//     completion of the process's previous one, and nothing follows an
//     operation that never completed;
//   - every instant and duration is within the run (below MaxTimeNS);
//   - every fault (and plan step) targets clients and nodes of the run:
//     clients the header names, nodes it names or their replicas
//     (ReplicaName), links between them;
//   - no client operation is invoked after the run's final probe began
//     (the run stops every client before it probes), but a lease
//     renewer's extends, which may outlive their client;
//   - the workload has the parameters its checks need (RequireParams): a
//     semaphore its permits (≥ 1); a node's absolute expiry (PXAT, EXAT,
//     PEXPIREAT, EXPIREAT) the header's started, which maps it onto the
//     run's clock.
//
// Decode applies it to every history it reads.
func Validate(h History) error { return validate(h, nil) }

// validate is Validate with the file's own line of each operation (nil:
// the lines Encode would write).
func validate(h History, lines []int) error {
	line := func(i int) int {
		if lines != nil {
			return lines[i]
		}
		return i + 2
	}
	hd := h.Header
	for _, c := range hd.Clients {
		if slices.Contains(ReservedClients(), c) || c == "" {
			return &ReadError{1, fmt.Sprintf("header: client %q is a reserved name (the harness records its own operations under %s)", c, strings.Join(ReservedClients(), ", "))}
		}
	}
	if err := validParams(hd); err != nil {
		return &ReadError{1, "header: " + err.Error()}
	}
	for _, st := range hd.Plan {
		if err := validStep(hd, st); err != nil {
			return &ReadError{1, fmt.Sprintf("header: plan step #%d: %v", st.ID, err)}
		}
	}
	for i := range h.Ops {
		if err := validRecord(hd, &h.Ops[i]); err != nil {
			return &ReadError{line(i), fmt.Sprintf("op %d: %v", h.Ops[i].Index, err)}
		}
	}
	if i, err := outstanding(h); err != nil {
		return &ReadError{line(i), err.Error()}
	}
	if i, err := afterProbe(h); err != nil {
		return &ReadError{line(i), err.Error()}
	}
	return nil
}

// validRecord checks one operation's identity, times and targets.
func validRecord(hd Header, op *Op) error {
	switch {
	case slices.Contains(clientFuncs, op.F):
		if op.Process < 0 {
			return fmt.Errorf("%s of client %q on process %d: process ids below 0 are the harness's (nemesis %d, nodes %d)", op.F, op.Client, op.Process, NemesisProcess, NodeProcess)
		}
		if slices.Contains(ReservedClients(), op.Client) || op.Client == "" {
			return fmt.Errorf("%s of client %q: a lock client's operation under a reserved name (%s) or none", op.F, op.Client, strings.Join(ReservedClients(), ", "))
		}
	case op.F == Probe:
		if op.Process < 0 {
			return fmt.Errorf("probe on process %d: process ids below 0 are the harness's", op.Process)
		}
	case op.F == Fault:
		if op.Process != NemesisProcess || op.Client != NemesisClient {
			return fmt.Errorf("fault recorded by %q on process %d, want the nemesis (%q, process %d)", op.Client, op.Process, NemesisClient, NemesisProcess)
		}
		if op.Value.Fault == nil {
			return fmt.Errorf("fault without its step (value.fault)")
		}
		if err := validStep(hd, *op.Value.Fault); err != nil {
			return fmt.Errorf("fault step #%d: %v", op.Value.Fault.ID, err)
		}
	case slices.Contains(nodeFuncs, op.F):
		if op.Process != NodeProcess {
			return fmt.Errorf("%s on process %d, want the nodes' (%d)", op.F, op.Process, NodeProcess)
		}
		if op.F == NodeCmd && hd.Started.IsZero() && absoluteExpiry(op.Value.Cmd) {
			return fmt.Errorf("%s sets an absolute expiry, which only the header's started can place on the run's clock, and the header has none", strings.Join(op.Value.Cmd, " "))
		}
	default:
		return fmt.Errorf("f %q is not an operation of this format", op.F)
	}
	switch {
	case op.Invoke >= MaxTimeNS || op.Complete >= MaxTimeNS:
		return fmt.Errorf("times invoke_ns %d, complete_ns %d: outside the run (at most %d ns)", op.Invoke, op.Complete, MaxTimeNS-1)
	case op.Value.TTL >= MaxTimeNS:
		return fmt.Errorf("ttl_ns %d: outside the run (at most %d ns)", op.Value.TTL, MaxTimeNS-1)
	}
	for _, hk := range op.Value.Held {
		if hk.TTL >= MaxTimeNS {
			return fmt.Errorf("held key %q: ttl_ns %d outside the run", hk.Key, hk.TTL)
		}
	}
	return nil
}

// validStep checks a fault step's times and that its targets exist in
// the run.
func validStep(hd Header, st FaultStep) error {
	for _, d := range []int64{st.Duration, st.Delta, -st.Delta, st.Latency, st.Jitter, st.Trigger.At, st.Trigger.Delay} {
		if d >= MaxTimeNS {
			return fmt.Errorf("a time or duration of %d ns: outside the run", d)
		}
	}
	node := func(n string) bool {
		return slices.Contains(hd.Nodes, n) || slices.ContainsFunc(hd.Nodes, func(m string) bool { return IsReplicaOf(n, m) })
	}
	for _, n := range st.Nodes {
		if !node(n) {
			return fmt.Errorf("targets node %q, which the run does not have (nodes: %s)", n, strings.Join(hd.Nodes, ", "))
		}
	}
	for _, c := range st.Clients {
		if !slices.Contains(hd.Clients, c) {
			return fmt.Errorf("targets client %q, which the run does not have (clients: %s)", c, strings.Join(hd.Clients, ", "))
		}
	}
	for _, l := range st.Links {
		switch {
		case !node(l.Node):
			return fmt.Errorf("targets the link %s→%s to a node the run does not have", l.Client, l.Node)
		case !slices.Contains(hd.Clients, l.Client) && !IsReplicaOf(l.Client, l.Node):
			return fmt.Errorf("targets the link %s→%s from a client the run does not have", l.Client, l.Node)
		}
	}
	if c := st.Trigger.Client; c != "" && !slices.Contains(hd.Clients, c) {
		return fmt.Errorf("is triggered by client %q, which the run does not have", c)
	}
	if n := st.Trigger.Node; n != "" && !node(n) {
		return fmt.Errorf("is triggered by node %q, which the run does not have", n)
	}
	return nil
}

// requiredParams are, per workload name, the parameters its checks need
// (each ≥ 1), as the workload registered them (RequireParams): history
// keeps no workload name of its own.
var requiredParams = map[string][]string{}

// RequireParams records that a history of workload needs each of params
// in Header.Params, ≥ 1, for its checks to judge it (a semaphore its
// permits); Validate refuses one without. Package workload calls it as it
// registers a workload, at init; it is not safe for concurrent use.
func RequireParams(workload string, params ...string) {
	requiredParams[workload] = append(requiredParams[workload], params...)
}

// validParams checks that the workload has the parameters its checks need.
func validParams(hd Header) error {
	for _, name := range requiredParams[hd.Workload] {
		if p, ok := hd.Params[name]; !ok || p < 1 {
			return fmt.Errorf("a %s history needs params.%s ≥ 1; without it no check can tell what the workload allows", hd.Workload, name)
		}
	}
	for k, v := range hd.Params {
		if strings.HasSuffix(k, "_ns") && (v < 0 || v >= MaxTimeNS) {
			return fmt.Errorf("params.%s = %d: not a duration of the run", k, v)
		}
	}
	return nil
}

// outstanding finds an operation invoked while another operation of its
// process was still outstanding; it returns that operation's position.
func outstanding(h History) (int, error) {
	per := map[int][]int{}
	for i := range h.Ops {
		op := &h.Ops[i]
		if op.Process < 0 || slices.Contains(markerFuncs, op.F) || !(slices.Contains(clientFuncs, op.F) || op.F == Probe) {
			continue
		}
		per[op.Process] = append(per[op.Process], i)
	}
	procs := make([]int, 0, len(per))
	for p := range per {
		procs = append(procs, p)
	}
	slices.Sort(procs)
	for _, p := range procs {
		idx := per[p]
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(h.Ops[a].Invoke, h.Ops[b].Invoke) })
		for j := 1; j < len(idx); j++ {
			prev, cur := &h.Ops[idx[j-1]], &h.Ops[idx[j]]
			switch {
			case prev.Open():
				return idx[j], fmt.Errorf("op %d: process %d invokes %s at %d ns while its %s (op %d) never completed: a process has one operation at a time, and after an unknown outcome a client goes on under a new process",
					cur.Index, p, cur.F, cur.Invoke, prev.F, prev.Index)
			case cur.Invoke < prev.Complete:
				return idx[j], fmt.Errorf("op %d: process %d invokes %s at %d ns while its %s (op %d) is outstanding until %d ns: a process has one operation at a time",
					cur.Index, p, cur.F, cur.Invoke, prev.F, prev.Index, prev.Complete)
			}
		}
	}
	return 0, nil
}

// afterProbe finds a client operation invoked after the run's final probe
// began: the run stops every client before it probes (a lease renewer,
// which may outlive its client, aside).
func afterProbe(h History) (int, error) {
	probe, first := int64(-1), -1
	for i, op := range h.Ops {
		if op.F == Probe && (probe < 0 || op.Invoke < probe) {
			probe, first = op.Invoke, i
		}
	}
	if probe < 0 {
		return 0, nil
	}
	for i, op := range h.Ops {
		if !slices.Contains(clientFuncs, op.F) || op.Invoke <= probe || (op.F == Extend && op.Value.Renewal) {
			continue
		}
		why := "every client had stopped by then"
		for _, f := range h.Faults() {
			if st := f.Value.Fault; st.Effect == EffectCrashClient && f.Type != Fail && slices.Contains(st.Clients, op.Client) && f.Invoke <= op.Invoke {
				why += fmt.Sprintf(", and step #%d (%s) had killed %s for good at %d ns", st.ID, st.Kind, op.Client, f.Invoke)
				break
			}
		}
		return i, fmt.Errorf("op %d: %s's %s is invoked at %d ns, after the final probe (op %d) began at %d ns: %s",
			op.Index, op.Client, op.F, op.Invoke, h.Ops[first].Index, probe, why)
	}
	return 0, nil
}

// absoluteExpiry reports whether a node's command sets an expiry as a unix
// time: SET … PXAT|EXAT, PEXPIREAT, EXPIREAT.
func absoluteExpiry(cmd []string) bool {
	if len(cmd) == 0 {
		return false
	}
	switch strings.ToLower(cmd[0]) {
	case "pexpireat", "expireat":
		return true
	case "set":
		return slices.ContainsFunc(cmd[min(3, len(cmd)):], func(a string) bool {
			return strings.EqualFold(a, "pxat") || strings.EqualFold(a, "exat")
		})
	}
	return false
}
