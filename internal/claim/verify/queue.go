package verify

import (
	"slices"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// queueHead: the claim's first record is Client's refused acquire (or
// probe) of Key over [Start, End]; no life of Key on any node overlapped
// that window; Client's command read the head of list What on Node in it
// (LINDEX What 0); and at that read, the list as the node's recorded
// commands built it (RPUSH, LPUSH, LPOP, RPOP, LREM, DEL, UNLINK, in the
// node's order) began with Token, pushed by By's command at At, the
// claim's second record.
func (v *verifier) queueHead(c claim.Claim) outcome {
	a, ok := v.rec(c, 0)
	if !ok || (a.F != history.Acquire && a.F != history.Probe) || a.Type != history.Fail || a.Client != c.Client || a.Key != c.Key ||
		a.Invoke != c.Start || v.end(a) != c.End {
		return refuse(c.Records, "record %v is not %s's refused acquire of %s over [%d, %d]", c.Records, c.Client, c.Key, c.Start, c.End)
	}
	for _, l := range v.m.lives {
		if l.key == c.Key && l.start < c.End && l.end > c.Start {
			return refuse([]int{l.set}, "%s's key %s was on %s from %d: the lock key was not free", l.owner, c.Key, l.node, l.start)
		}
	}
	p, ok := v.rec(c, 1)
	if !ok || p.F != history.NodeCmd || p.Client != c.By || p.Value.Node != c.Node || p.Invoke != c.At || len(p.Value.Cmd) < 3 ||
		!strings.HasSuffix(strings.ToLower(p.Value.Cmd[0]), "push") || p.Value.Cmd[1] != c.What || !slices.Contains(p.Value.Cmd[2:], c.Token) {
		return refuse(c.Records, "record %v is not %s's push of %s onto %s on %s at %d", c.Records, c.By, c.Token, c.What, c.Node, c.At)
	}
	read := -1
	for i, o := range v.h.Ops {
		if o.F == history.NodeCmd && o.Client == c.Client && o.Value.Node == c.Node && o.Invoke >= c.Start && o.Invoke <= c.End &&
			len(o.Value.Cmd) == 3 && strings.EqualFold(o.Value.Cmd[0], "lindex") && o.Value.Cmd[1] == c.What && o.Value.Cmd[2] == "0" {
			read = i
			break
		}
	}
	if read < 0 {
		return refuse(c.Records[:1], "%s read no head of %s on %s while its acquire ran", c.Client, c.What, c.Node)
	}
	var list []int // the pushing commands of the list's elements, head first
	var vals []string
	for i, o := range v.h.Ops {
		r := v.h.Ops[read]
		if o.F != history.NodeCmd || o.Value.Node != c.Node || len(o.Value.Cmd) < 2 || o.Value.Cmd[1] != c.What ||
			o.Invoke > r.Invoke || o.Invoke == r.Invoke && i >= read {
			continue
		}
		args := o.Value.Cmd[2:]
		n := 1
		if len(args) > 0 {
			if k, err := strconv.Atoi(args[0]); err == nil {
				n = k
			}
		}
		switch strings.ToLower(o.Value.Cmd[0]) {
		case "rpush":
			for _, a := range args {
				list, vals = append(list, i), append(vals, a)
			}
		case "lpush":
			for _, a := range args {
				list, vals = append([]int{i}, list...), append([]string{a}, vals...)
			}
		case "lpop":
			n = min(n, len(vals))
			list, vals = list[n:], vals[n:]
		case "rpop":
			n = min(n, len(vals))
			list, vals = list[:len(list)-n], vals[:len(vals)-n]
		case "lrem":
			if len(args) == 2 {
				list, vals = remove(list, vals, n, args[1])
			}
		case "del", "unlink":
			list, vals = nil, nil
		}
	}
	if len(vals) == 0 || vals[0] != c.Token || list[0] != c.Records[1] {
		return refuse([]int{read}, "%s's read of %s's head found another entry than %s's %s", c.Client, c.What, c.By, c.Token)
	}
	return held
}

// remove is LREM: up to |count| elements equal to val, from the head (count
// > 0) or the tail (< 0), or every one (0).
func remove(recs []int, vals []string, count int, val string) ([]int, []string) {
	var outR []int
	var outV []string
	drop := map[int]bool{}
	for k := range vals {
		j := k
		if count < 0 {
			j = len(vals) - 1 - k
		}
		if vals[j] == val && (count == 0 || len(drop) < max(count, -count)) {
			drop[j] = true
		}
	}
	for j := range vals {
		if !drop[j] {
			outR, outV = append(outR, recs[j]), append(outV, vals[j])
		}
	}
	return outR, outV
}
