package checker

import (
	"context"
	"fmt"
	"strings"

	"github.com/locksim/locksim/internal/history"
)

// DefaultMinAcquires is coverage's minimum of ok acquires (of accepted
// writes in a lock-free history) when Header.Params["min_acquires"] is
// unset: at least two grants, so that a second client could have been
// granted while the first still believed (one grant cannot break a lock).
const DefaultMinAcquires = 2

// Coverage is the coverage checker (design §8: "the fault really overlapped
// a hold and enough operations ran, otherwise unknown — a scenario that
// proves nothing must not pass"). A history with no faults at all is not
// penalised (Valid: a happy-path scenario tests nothing but the happy
// path, and says so). With faults, the result is Unknown, never Invalid,
// when
//
//   - no fault's active window [Invoke, Complete] (an unhealed fault, and
//     a jump of a client's clock, lasts to the end of the history; closed
//     intervals, touching counts) meets any believed hold (see Holds) or any
//     in-flight lock op (acquire, release, extend, [Invoke, Complete]) of a
//     client the fault bears on (a fault on links only the clients of those
//     links; see affects); in a lock-free
//     history (no lock ops at all: atomic-lua, idempotency-key) any
//     in-flight resource op (read, write) counts instead; or
//   - fewer than Params["min_acquires"] (default 2) acquires succeeded (ok),
//     or in a lock-free history fewer writes were accepted.
//
// Probes and faults themselves never count.
func Coverage(ctx context.Context, h history.History) Result {
	faults := faultOps(h)
	if len(faults) == 0 {
		return Result{Checker: CheckerCoverage, Verdict: Valid, Summary: "no faults in this run: nothing to cover"}
	}
	eoh := endOfHistory(h)
	lockFree := true
	for _, op := range h.Ops {
		if isClientOp(op) && (op.F == history.Acquire || op.F == history.Release || op.F == history.Extend) {
			lockFree = false
			break
		}
	}
	type span struct {
		client     string
		start, end int64
	}
	var spans []span
	if !lockFree {
		for _, hd := range Holds(h) {
			spans = append(spans, span{hd.Client, hd.Start, hd.End})
		}
	}
	ran := 0
	for _, op := range h.Ops {
		if !isClientOp(op) {
			continue
		}
		lockOp := op.F == history.Acquire || op.F == history.Release || op.F == history.Extend
		if lockOp == !lockFree {
			end := op.Complete
			if end < 0 {
				end = eoh
			}
			spans = append(spans, span{op.Client, op.Invoke, end})
		}
		switch {
		case !lockFree && op.F == history.Acquire && op.Type == history.OK && op.Complete >= 0:
			ran++
		case lockFree && accepted(op):
			ran++
		}
	}
	if err := ctx.Err(); err != nil {
		return Result{Checker: CheckerCoverage, Verdict: Unknown, Summary: "not checked: " + err.Error()}
	}
	hit := 0
	for _, f := range faults {
		fEnd := f.Complete
		if fEnd < 0 || persistsOnClient(h, f) {
			fEnd = eoh
		}
		for _, s := range spans {
			if f.Invoke <= s.end && fEnd >= s.start && affects(h, f, s.client) {
				hit++
				break
			}
		}
	}
	minRan := int64(DefaultMinAcquires)
	if v, ok := h.Header.Params[ParamMinAcquires]; ok {
		minRan = v
	}
	unit, units := "ok acquire", "ok acquires"
	target := "a believed lock hold or an in-flight lock operation"
	if lockFree {
		unit, units = "accepted write", "accepted writes"
		target = "an in-flight resource operation (the algorithm is lock-free)"
	}
	var why []string
	if hit == 0 {
		why = append(why, fmt.Sprintf("no fault (of %d) overlapped %s, so the faults tested nothing", len(faults), target))
	}
	if int64(ran) < minRan {
		why = append(why, fmt.Sprintf("only %s ran, fewer than the minimum of %d", plural(ran, unit, units), minRan))
	}
	if len(why) > 0 {
		return Result{Checker: CheckerCoverage, Verdict: Unknown, Summary: "this run proves nothing: " + strings.Join(why, "; ")}
	}
	return Result{Checker: CheckerCoverage, Verdict: Valid,
		Summary: fmt.Sprintf("%d of %s overlapped %s; %s", hit, plural(len(faults), "fault", "faults"), target, plural(ran, unit, units))}
}

// affects reports whether fault f bears on client's operations. A fault on
// links ("w2→n1": a partition, latency, a reset) reaches only the clients
// of those links: cutting w2 while only w1 holds the lock tests nothing.
// A fault on nodes, or on a client itself (a pause, a crash, a clock step),
// bears on everyone: while one client is frozen or wrong about the time,
// the others' operations are what could conflict with it.
func affects(h history.History, f history.Op, client string) bool {
	links := false
	for _, t := range f.Value.Targets {
		if strings.Contains(t, "→") {
			links = true
			if strings.HasPrefix(t, client+"→") {
				return true
			}
		}
	}
	return !links
}

func isNode(h history.History, name string) bool {
	for _, n := range h.Header.Nodes {
		if n == name {
			return true
		}
	}
	return false
}

// persistsOnClient reports a fault whose effect outlives its recorded
// window: a client's clock that jumped stays where it jumped to.
func persistsOnClient(h history.History, f history.Op) bool {
	if f.Value.Fault != "clock-jump" {
		return false
	}
	for _, t := range f.Value.Targets {
		if !isNode(h, t) {
			return true
		}
	}
	return false
}
