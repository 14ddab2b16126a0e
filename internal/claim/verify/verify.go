// Package verify checks a run's claims (package claim) against its raw
// history: the nodes' recorded commands, the clients' operations and the
// nemesis's. It is a second derivation on purpose (issue 27, design §8):
// it reads the definitions of each claim kind and its own small model of
// the Redis string commands, and never calls the account that made the
// claims, so that a test oracle and the thing it tests do not share a
// mistake. It is kept small: where its model cannot decide (a node not
// recorded, a failover to an unwatched replica, a deadline within 5 ms of a
// command) a claim is counted as not checkable, never as holding.
package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// Failure is a claim the history contradicts: why, and the history
// indices of the records that contradict it.
type Failure struct {
	Claim   claim.Claim `json:"claim"`
	Reason  string      `json:"reason"`
	Records []int       `json:"records"`
}

// Result is what Verify found: how many claims it checked and found true,
// how many it could not decide (and why, by reason), and the false ones.
type Result struct {
	Held      int            `json:"held"`
	Unchecked map[string]int `json:"unchecked,omitempty"`
	Failures  []Failure      `json:"failures,omitempty"`
}

// outcome of one check: refused (reason set), not checkable (skip set), or
// holding.
type outcome struct {
	reason  string
	records []int
	skip    string
}

func refuse(recs []int, format string, args ...any) outcome {
	return outcome{reason: fmt.Sprintf(format, args...), records: recs}
}

func skip(why string) outcome { return outcome{skip: why} }

var held = outcome{}

// Verify checks every claim of cs against h.
func Verify(h history.History, cs []claim.Claim) Result {
	v := &verifier{h: h, m: replay(h)}
	v.index()
	r := Result{Unchecked: map[string]int{}}
	for _, c := range cs {
		o := v.check(c)
		switch {
		case o.reason != "":
			if o.records == nil {
				o.records = []int{}
			}
			r.Failures = append(r.Failures, Failure{Claim: c, Reason: o.reason, Records: o.records})
		case o.skip != "":
			r.Unchecked[o.skip]++
		default:
			r.Held++
		}
	}
	if len(r.Unchecked) == 0 {
		r.Unchecked = nil
	}
	return r
}

type verifier struct {
	h history.History
	m *model
	// gaps: node → windows its commands were not recorded, and the
	// failovers (after which its group is not watched).
	gaps map[string][][2]int64
	// waits: client → the WAIT commands it sent, in history order.
	waits map[string][]history.Op
	// sentAt: the node commands, by when they ran; stalledBy: client →
	// its unanswered commands (indexSent).
	sentAt    []int
	stalledBy map[string][]int
}

func (v *verifier) index() {
	v.gaps = map[string][][2]int64{}
	observed := map[string]bool{}
	for _, n := range v.h.Header.Observed {
		observed[n] = true
	}
	for _, n := range v.h.Header.Nodes {
		if !observed[n] {
			v.gaps[n] = append(v.gaps[n], [2]int64{0, v.m.end})
		}
	}
	v.waits = map[string][]history.Op{}
	for _, op := range v.h.Ops {
		if cmd := op.Value.Cmd; op.F == history.NodeCmd && len(cmd) >= 2 && strings.EqualFold(cmd[0], "wait") {
			v.waits[op.Client] = append(v.waits[op.Client], op)
		}
		switch {
		case op.F == history.Unobserved:
			v.gaps[op.Value.Node] = append(v.gaps[op.Value.Node], [2]int64{op.Invoke, v.end(op)})
		case op.F == history.Fault && op.Value.Fault != nil && op.Value.Fault.Effect == history.EffectFailover:
			for _, n := range v.h.Header.Nodes {
				v.gaps[n] = append(v.gaps[n], [2]int64{op.Invoke, v.m.end})
			}
		}
	}
}

// watched reports whether node's commands were recorded throughout [from, to].
func (v *verifier) watched(node string, from, to int64) bool {
	return !slices.ContainsFunc(v.gaps[node], func(g [2]int64) bool { return g[0] <= to+slack && from-slack <= g[1] })
}

func (v *verifier) end(op history.Op) int64 {
	if op.Complete < 0 {
		return v.m.end
	}
	return op.Complete
}

// rec returns the record at index i, and whether there is one.
func (v *verifier) rec(c claim.Claim, n int) (history.Op, bool) {
	if n >= len(c.Records) || c.Records[n] < 0 || c.Records[n] >= len(v.h.Ops) {
		return history.Op{}, false
	}
	return v.h.Ops[c.Records[n]], true
}

func near(a, b int64) bool { return a-b < slack && b-a < slack }

func (v *verifier) check(c claim.Claim) outcome {
	switch c.Kind {
	case claim.Hold:
		return v.hold(c)
	case claim.Extend:
		return v.extend(c)
	case claim.KeyLife:
		return v.keyLife(c)
	case claim.Permit:
		return v.permit(c)
	case claim.Refusal:
		return v.refusal(c)
	case claim.Ungranted:
		return v.ungranted(c)
	case claim.QueueHead:
		return v.queueHead(c)
	case claim.Fault:
		return v.fault(c)
	case claim.Orphan:
		return v.orphan(c)
	case claim.Release:
		return v.release(c)
	case claim.Acquire:
		return v.acquire(c)
	case claim.Recorded:
		return v.recorded(c)
	case claim.ForeignDelete:
		return v.foreignDelete(c)
	case claim.Anomaly:
		return v.anomaly(c)
	case claim.Op:
		return v.ownOp(c)
	case claim.Absent:
		return v.absent(c)
	case claim.Experiment:
		return v.experiment(c)
	case claim.Check:
		return v.checkCounts(c)
	case claim.Exposure:
		return v.exposure(c)
	}
	if o, ok := v.markKind(c); ok {
		return o
	}
	return refuse(nil, "unknown claim kind %q", c.Kind)
}
