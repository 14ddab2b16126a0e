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
//   - no fault's active window [Invoke, Complete] (an unhealed fault lasts
//     to the end of the history; closed intervals, touching counts) meets
//     any believed hold (see Holds) or any in-flight lock op (acquire,
//     release, extend of a client, [Invoke, Complete]); in a lock-free
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
	var spans [][2]int64
	if !lockFree {
		for _, hd := range Holds(h) {
			spans = append(spans, [2]int64{hd.Start, hd.End})
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
			spans = append(spans, [2]int64{op.Invoke, end})
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
		if fEnd < 0 {
			fEnd = eoh
		}
		for _, s := range spans {
			if f.Invoke <= s[1] && fEnd >= s[0] {
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
