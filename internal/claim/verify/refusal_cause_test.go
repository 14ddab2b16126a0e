package verify_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// TestRefusalCausesAreCheckedAgainstTheHistory checks the refusal claims
// of a second reader's findings (issue 27): an acquire the lock refused
// itself (its own SETs took the nodes, validity ran out) and one refused by
// the key its SET NX met. Each holds as the account makes it, and a false
// variant of it is refused.
func TestRefusalCausesAreCheckedAgainstTheHistory(t *testing.T) {
	read := func(name string) history.History {
		h, err := history.ReadFile(filepath.Join("..", "..", "report", "testdata", "accuracy", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	cases := []struct {
		name   string
		h      history.History
		pick   func(claim.Claim) bool
		mutate func(*claim.Claim)
	}{
		{"a refusal by the lock whose validity ran out is refused when the acquire is said to have taken less than its TTL", read("c31a-redlock-validity-ran-out"),
			func(c claim.Claim) bool { return c.What == claim.Granted && c.How == claim.Validity },
			func(c *claim.Claim) { c.Elapsed, c.Validity = c.TTL/2, c.TTL/2-c.Drift }},
		{"a refusal by the lock is refused when it claims a node its SETs did not take", read("c31a-redlock-validity-ran-out"),
			func(c claim.Claim) bool { return c.What == claim.Granted },
			func(c *claim.Claim) { c.Records[1] = c.Records[2] }},
		{"a refusal by the lock is refused when its record gives another reason", read("c31a-redlock-validity-ran-out"),
			func(c claim.Claim) bool { return c.What == claim.Granted },
			func(c *claim.Claim) { c.How = history.RefusalNotReplicated }},
		{"a refusal by a met key is refused when the SET is said to have run outside the acquire", read("c31c-refused-by-own-late-set"),
			func(c claim.Claim) bool { return c.What == claim.Met && c.Own },
			func(c *claim.Claim) { c.At = c.End + 1e9 }},
		{"a refusal by a met key is refused when it names another owner", read("c31c-refused-by-own-late-set"),
			func(c claim.Claim) bool { return c.What == claim.Met && !c.Own && c.By != c.Client },
			func(c *claim.Claim) { c.By = c.Client + "x" }},
		{"a refusal on several nodes is refused when one of them is said to have held another client's key", read("c32a-redlock-refused-by-several-nodes"),
			func(c claim.Claim) bool { return len(c.Holders) >= 3 },
			func(c *claim.Claim) {
				c.Holders = slices.Clone(c.Holders)
				c.Holders[len(c.Holders)-1].By = "w9"
			}},
		{"a refusal on several nodes is refused when it names a node twice", read("c32a-redlock-refused-by-several-nodes"),
			func(c claim.Claim) bool { return len(c.Holders) >= 2 },
			func(c *claim.Claim) { c.Holders = append(slices.Clone(c.Holders), c.Holders[1]) }},
		{"a refusal on several nodes is refused when a key its SET met is said to have been met after the acquire", read("c32a-redlock-refused-by-several-nodes"),
			func(c claim.Claim) bool {
				return slices.ContainsFunc(c.Holders, func(h claim.Holder) bool { return h.At != 0 })
			},
			func(c *claim.Claim) {
				c.Holders = slices.Clone(c.Holders)
				i := slices.IndexFunc(c.Holders, func(h claim.Holder) bool { return h.At != 0 })
				c.Holders[i].At = c.End + 1e9
			}},
		{"a refusal on several nodes is refused when its own SET is said to have taken a node that refused it", read("c34b-client-clock-rate-slow"),
			func(c claim.Claim) bool { return len(c.Won) > 0 },
			func(c *claim.Claim) {
				c.Won = []claim.Holder{{Node: c.Holders[1].Node, By: c.Client, Set: c.Holders[1].Set}}
			}},
		{"a refusal on several nodes is refused when its own SET is said to have taken a node with another's key", read("c34b-client-clock-rate-slow"),
			func(c claim.Claim) bool { return len(c.Won) > 0 },
			func(c *claim.Claim) {
				c.Won = []claim.Holder{{Node: c.Won[0].Node, By: c.Client, Set: c.Holders[0].Set}}
			}},
		{"a refusal is refused when it says a node whose key refused it gave no answer", read("c33a-redlock-nodes-did-not-answer"),
			func(c claim.Claim) bool { return len(c.Silent) == 2 && len(c.Holders) == 3 },
			func(c *claim.Claim) {
				c.Silent = append(slices.Clone(c.Silent), claim.Silent{Node: c.Holders[1].Node, Cmd: c.Silent[0].Cmd})
			}},
		{"a refusal is refused when it names a silent node twice", read("c33a-redlock-nodes-did-not-answer"),
			func(c claim.Claim) bool { return len(c.Silent) == 2 },
			func(c *claim.Claim) { c.Silent = append(slices.Clone(c.Silent), c.Silent[0]) }},
		{"a refusal is refused when the unanswered SET it cites was sent to another node", read("c33a-redlock-nodes-did-not-answer"),
			func(c claim.Claim) bool { return len(c.Silent) == 2 },
			func(c *claim.Claim) {
				c.Silent = slices.Clone(c.Silent)
				c.Silent[0].Cmd = c.Silent[1].Cmd
			}},
		{"a refusal is refused when the unanswered SET it cites was another acquire's", read("c33a-redlock-nodes-did-not-answer"),
			func(c claim.Claim) bool { return len(c.Silent) == 2 && c.Client == "w2" && c.Start < 1e9 },
			func(c *claim.Claim) {
				c.Silent = slices.Clone(c.Silent)
				c.Silent[0].Cmd = 21 // w1's SET to n4, stalled as well
			}},
		{"a refusal is refused when a node it says gave no answer ran more of its SETs than went unanswered", withRecords(read("c33a-redlock-nodes-did-not-answer"),
			history.Op{Process: history.NodeProcess, Client: "w2", F: history.NodeCmd, Key: "invoice-1", Type: history.OK, Invoke: 300e6, Complete: 300e6,
				Value: history.Value{Node: "n5", Cmd: []string{"set", "invoice-1", "b6b92cd3dcc75d8cc89a4ed8e8f44554", "ex", "1", "nx"}}},
			history.Op{Process: history.NodeProcess, Client: "w2", F: history.NodeCmd, Key: "invoice-1", Type: history.OK, Invoke: 301e6, Complete: 301e6,
				Value: history.Value{Node: "n5", Cmd: []string{"set", "invoice-1", "b6b92cd3dcc75d8cc89a4ed8e8f44554", "ex", "1", "nx"}}}),
			func(c claim.Claim) bool { return c.Client == "w2" && c.Start < 1e8 },
			func(c *claim.Claim) { c.Silent = []claim.Silent{{Node: "n4", Cmd: 22}, {Node: "n5", Cmd: 28}} }},
		{"a refusal is refused when a node it says gave no answer answered one of its SETs late", withRecords(read("c33a-redlock-nodes-did-not-answer"),
			history.Op{Process: history.NodeProcess, Client: "w2", F: history.Stalled, Key: "invoice-1", Type: history.OK, Invoke: 300e6, Complete: 360e6,
				Value: history.Value{Node: "n5", Cmd: []string{"set", "invoice-1"}}}),
			func(c claim.Claim) bool { return c.Client == "w2" && c.Start < 1e8 },
			func(c *claim.Claim) { c.Silent = []claim.Silent{{Node: "n4", Cmd: 22}, {Node: "n5", Cmd: 28}} }},
		{"a refusal by a library's own key is refused when it names a key name the lock never used", read("c28b-library-refresh-tells"),
			func(c claim.Claim) bool { return c.NodeKey == "mutex:invoice-1" && c.By != c.Client },
			func(c *claim.Claim) { c.NodeKey = "lock:invoice-1" }},
		// Reader 15 (local-lock-left-held): w2's acquires, refused by its
		// process's local lock, sent no command to n1 while w1's key stood
		// there (its SET is record 1).
		{"a refusal that never reached Redis is refused when it names the key that stood on the node then", read("c57a-local-refusal-not-by-key"),
			func(c claim.Claim) bool { return c.What == claim.Local && c.Client == "w2" && c.Start < 19e8 },
			func(c *claim.Claim) {
				c.What, c.By, c.Node, c.Token = "", "w1", "n1", "9fa3301502229c14bb6257b7447fea39"
				c.Records = append(c.Records, 1)
			}},
		{"a refusal said never to have reached Redis is refused when its client's SET ran on the node", read("c57a-local-refusal-not-by-key"),
			func(c claim.Claim) bool { return c.What == claim.Local && c.Client == "w2" },
			func(c *claim.Claim) { // w3's first refusal (record 10), whose SET NX n1 ran (record 12)
				c.Client, c.Records, c.Start, c.End = "w3", []int{10}, 304624381, 306320167
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got *claim.Claim
			for _, c := range claim.Number(account.New(tc.h).Claims()) {
				if c.Kind != claim.Refusal || !tc.pick(c) {
					continue
				}
				r := verify.Verify(tc.h, []claim.Claim{c})
				if len(r.Failures) > 0 {
					t.Fatalf("the account's claim %+v does not hold: %+v", c, r)
				}
				if r.Held == 1 { // the first the verifier could check
					got = &c
					break
				}
			}
			if got == nil {
				t.Fatal("the account made no such refusal claim the verifier could check")
			}
			bad := *got
			bad.Records = append([]int(nil), got.Records...)
			tc.mutate(&bad)
			r := verify.Verify(tc.h, []claim.Claim{bad})
			if len(r.Failures) != 1 {
				t.Fatalf("the false claim %+v was not refused: %+v", bad, r)
			}
			t.Logf("refused: %+v", r.Failures[0])
		})
	}
}

// withRecords is h with ops appended as its last records (a crafted
// contradiction of a claim the account made of h).
func withRecords(h history.History, ops ...history.Op) history.History {
	h.Ops = slices.Clone(h.Ops)
	for _, op := range ops {
		op.Index = len(h.Ops)
		h.Ops = append(h.Ops, op)
	}
	return h
}
