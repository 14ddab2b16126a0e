package verify_test

import (
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// TestVerifierRefusesFalseClaimsOfTheTimelinesMarks takes, for each kind
// behind the timeline's marks (claim.MarkKinds), a true claim a run makes,
// checks that the verifier accepts it, then makes it false and checks that
// the verifier refuses it.
func TestVerifierRefusesFalseClaimsOfTheTimelinesMarks(t *testing.T) {
	cases := []mutation{
		{"a refused attempt is not told as granted", corpus("c19h-fair-lock-refused-with-no-key"),
			kind(claim.Outcome, func(c claim.Claim) bool { return c.What == string(history.Acquire) && c.How == string(history.Fail) }),
			func(c *claim.Claim) { c.How = string(history.OK) }},
		{"a write is not placed before it was made", corpus("c01-naive-del-foreign-unlock"),
			kind(claim.Outcome, func(c claim.Claim) bool { return c.What == string(history.Write) }),
			func(c *claim.Claim) { c.Start -= 100 * ms }},
		{"a write's action is the one it recorded", corpus("c10-inventory-oversell"),
			kind(claim.Outcome, func(c claim.Claim) bool { return c.What == string(history.Write) && c.Token != "" }),
			func(c *claim.Claim) { c.Token = "refund" }},
		{"a command no node answered is not told as run", outside,
			kind(claim.Command, func(c claim.Claim) bool { return c.How == claim.Unanswered }),
			func(c *claim.Claim) { c.How = claim.Ran }},
		{"a command is told on the node it was sent to", outside,
			kind(claim.Command, func(c claim.Claim) bool { return c.How == claim.Ran }), func(c *claim.Claim) { c.Node = "n9" }},
		{"a client clock's offset is what its jumps add up to", corpus("c04-client-clock-jump-back"),
			kind(claim.ClockOffset, nil), func(c *claim.Claim) { c.Offset = -c.Offset }},
		{"a node clock's offset lasts to its next jump or the end, no longer", hand,
			kind(claim.ClockOffset, nil), func(c *claim.Claim) { c.End += 500 * ms }},
		{"the token the resource had seen is the one the write showed", corpus("c03-equal-token-accepted-twice"),
			kind(claim.FenceSeen, nil), func(c *claim.Claim) { c.Score++ }},
		{"the token the resource had seen is not put before the write that showed it", corpus("c03-equal-token-accepted-twice"),
			kind(claim.FenceSeen, nil), func(c *claim.Claim) { c.Start -= ms }},
	}
	refused := map[claim.Kind]bool{}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { refused[tc.try(t)] = true })
	}
	for _, k := range claim.MarkKinds() {
		if !refused[k] {
			t.Errorf("no false %s claim is tried", k)
		}
	}
}

// outside is a run in which w1 sends commands outside its operations: a
// handshake no answer reached, and a PING n1 ran.
func outside(*testing.T) history.History {
	return small(
		history.Op{Process: history.NodeProcess, Client: "w1", F: history.Stalled, Value: history.Value{Node: "n1", Cmd: []string{"hello", "3"}},
			Invoke: 5, Complete: 50, Type: history.Info},
		nodeCmd("w1", "", 60, "PING"),
		clientOp(0, "w1", "k", history.Acquire, history.OK, 100, 110, history.Value{Token: "a", TTL: 300 * ms, Nodes: []string{"n1"}}),
		nodeCmd("w1", "k", 105, "set", "k", "a", "px", "300", "nx"),
	)
}
