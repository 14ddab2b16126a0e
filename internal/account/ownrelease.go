package account

import (
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// ownReleaseFirst completes extend op i's Missed claim c when its command
// reached the node only after its client's own release had removed the
// client's key there: a renewal still in flight as the job let the lock go
// found no key because its client had just released it, which did no harm
// (reader 15, writer-exists-check: "w3's watchdog could not renew its
// lock" told at the renewal's start, before w3's write, though its evalsha
// ran 25 ms after w3's own DEL). At is when the node ran the extend's
// first command (its record), By the client, Own true; Records add that
// command and the release's command that removed the key.
func (a *Account) ownReleaseFirst(i int, c *claim.Claim) {
	op := a.H.Ops[i]
	end := a.endOf(op)
	cmd := -1
	for j := i + 1; j < len(a.H.Ops); j++ {
		e := a.H.Ops[j]
		if e.Invoke > end+grantSlack {
			break
		}
		if e.Process == history.NodeProcess && e.F == history.NodeCmd && !e.Value.Lua && e.Client == op.Client && e.Key != "" &&
			e.Invoke >= op.Invoke && a.OpOf(j) == i {
			cmd = j
			break
		}
	}
	if cmd < 0 {
		return
	}
	e := a.H.Ops[cmd]
	for _, k := range a.Keys() {
		if !k.Observed || k.Node != e.Value.Node || k.Key != e.Key || k.Owner != op.Client || k.Ended.Kind != EndReleased ||
			k.Ended.By != op.Client || k.Ended.Op < 0 || k.End < op.Invoke || k.End > e.Invoke {
			continue
		}
		if r := a.OpOf(k.Ended.Op); r < 0 || a.H.Ops[r].F != history.Release {
			continue
		}
		c.At, c.By, c.Own, c.Node = e.Invoke, op.Client, true, e.Value.Node
		c.Records = append(c.Records, cmd, k.Ended.Op)
		return
	}
}

// existsFound completes the Command claim c of node event i, a bare
// EXISTS its node ran, with the key it found there: By set it, Token is
// its value, and Records add the command that set it. A check before a
// write that any holder's key passes (exists-check-force-unlock) is told
// with whose key passed it (reader 15, writer-exists-check: w1's check at
// t=50.389 s passed on w2's key).
func (a *Account) existsFound(i int, c *claim.Claim) {
	e := a.H.Ops[i]
	if e.F != history.NodeCmd || e.Value.Lua || len(e.Value.Cmd) != 2 || !strings.EqualFold(e.Value.Cmd[0], "exists") || !a.ObservedAt(e.Value.Node, e.Invoke) {
		return
	}
	for _, k := range a.Keys() {
		if k.Observed && k.Node == e.Value.Node && k.Key == e.Value.Cmd[1] && k.Start < e.Invoke && k.End > e.Invoke && k.Owner != "" && k.Set >= 0 {
			c.By, c.Token = k.Owner, k.Value
			c.Records = append(c.Records, k.Set)
			return
		}
	}
}
