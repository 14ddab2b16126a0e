// Package historytest builds history values for tests of the packages that
// read histories (checker, report): fault steps as the fault kinds of
// package faults resolve them, from a kind and its targets.
package historytest

import (
	"fmt"
	"strings"

	"github.com/locksim/locksim/internal/history"
)

// Step is the plan step of a fault of kind on targets, with the effect the
// kind declares (package faults): targets are client names, node names
// (n1, n2, …) or client→node links ("w1→n4") as the kind acts on them.
// It panics on a kind it does not know or targets of the wrong shape (a
// mistake in the test).
func Step(kind string, targets ...string) history.FaultStep {
	st := history.FaultStep{Kind: kind}
	links := func() {
		for _, t := range targets {
			c, n, ok := strings.Cut(t, "→")
			if !ok {
				panic(fmt.Sprintf("historytest: a %s needs client→node targets, got %q", kind, t))
			}
			st.Links = append(st.Links, history.Link{Client: c, Node: n})
		}
	}
	switch kind {
	case "pause":
		st.Effect, st.Clients = history.EffectFreezeClient, targets
	case "crash-client":
		st.Effect, st.Clients = history.EffectCrashClient, targets
	case "restart-client":
		st.Effect, st.Clients, st.Mode = history.EffectRestartClient, targets, history.RestoreNone
	case "starve-renewals":
		st.Effect, st.Clients = history.EffectStarveRenewer, targets
	case "partition":
		st.Effect = history.EffectCutLinks
		links()
	case "latency":
		st.Effect = history.EffectSlowLinks
		links()
	case "reset":
		st.Effect = history.EffectResetLinks
		links()
	case "crash":
		st.Effect, st.Nodes = history.EffectCrashNode, targets
	case "pause-node":
		st.Effect, st.Nodes = history.EffectFreezeNode, targets
	case "delete-key":
		st.Effect, st.Nodes = history.EffectDeleteKey, targets
	case "clock-jump", "clock-rate":
		if len(targets) > 0 && isNode(targets[0]) {
			st.Effect, st.Nodes = history.EffectNodeClock, targets
		} else {
			st.Effect, st.Clients = history.EffectClientClock, targets
		}
		if kind == "clock-rate" {
			st.Rate = 1.5
		}
	default:
		panic("historytest: unknown fault kind " + kind)
	}
	return st
}

// Value is an op value carrying the step s.
func Value(s history.FaultStep) history.Value { return history.Value{Fault: &s} }

func isNode(t string) bool { return len(t) > 1 && t[0] == 'n' && t[1] >= '0' && t[1] <= '9' }
